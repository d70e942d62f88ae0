/* The settings the rules name (settings.c: one row each, with its source). */
#ifndef MSPROF_ADVICE_SETTINGS_H
#define MSPROF_ADVICE_SETTINGS_H

#include "rules.h"

extern const struct setting
    set_overlap_grad_reduce, set_overlap_param_gather,
    set_distributed_optimizer, set_moe_alltoall_overlap,
    set_moe_permutation_async, set_cp_send_recv_overlap,
    set_fsdp_forward_prefetch, set_fsdp_backward_prefetch,
    set_virtual_pipeline, set_global_batch, set_micro_batch,
    set_num_layer_list, set_first_stage_layers, set_last_stage_layers,
    set_task_queue, set_cpu_affinity, set_num_workers,
    set_mm_num_workers, set_launch_blocking, set_log_level,
    set_recompute_granularity, set_recompute_method,
    set_recompute_num_layers, set_recompute_activation,
    set_swap_attention, set_reuse_fp32_param, set_alloc_conf,
    set_mm_recompute, set_flash_attn, set_fused_rmsnorm,
    set_fused_rotary, set_fused_swiglu, set_ddp_bucket_size,
    set_torch_bucket_cap, set_torch_bucket_view, set_torch_static_graph,
    set_hccl_buffsize, set_internal_format, set_compile_mode,
    set_ds_overlap, set_ds_reduce_bucket, set_ds_allgather_bucket;

/* The setting called NAME ("--use-flash-attn", "TASK_QUEUE_ENABLE"), or NULL. */
const struct setting *setting_named(const char *name);

/* Row I of the table (every setting once), or NULL past the last. */
const struct setting *setting_nth(size_t i);

/* The keys SET had in earlier versions (SET_YAML), NULL-ended; or NULL. */
const char *const *setting_older(const struct setting *set);

#endif
