/*
 * The settings of a training that msprof-exec knows (settings.c: one row
 * each, with where its name was verified): where each lives in a launch
 * (a flag, a variable, a YAML key, a line of code), when the launch has
 * it, which launches read it, and whether `msprof-exec tune` may try it
 * unasked.  A fact about launches: --set checks its names against it
 * (engines/apply.c), tune picks its trials from it (launcher/tune.c), and
 * the advice's rules name its rows (advice/).
 */
#ifndef MSPROF_COMMON_SETTINGS_H
#define MSPROF_COMMON_SETTINGS_H

#include <stddef.h>

/* Where a setting lives in a launch. */
enum setting_kind {
	SET_FLAG,	/* a command-line option of the training script */
	SET_ENV,	/* an environment variable */
	SET_YAML,	/* a key of the YAML config (its copy), dotted */
	SET_CODE	/* a line of the training code: never known */
};

/* When the launch has it. */
enum setting_test {
	TEST_PRESENT,	/* given at all (a flag, a key) */
	TEST_EQUALS,	/* its value is VALUE */
	TEST_AT_LEAST,	/* its number is VALUE or more: the leading one, or
			   the "mode:N" item of a list, as torch_npu reads
			   CPU_AFFINITY_CONF */
	TEST_CONTAINS,	/* its list KEY:V,... has VALUE's KEY:V (the last
			   KEY counts), as torch_npu parses
			   PYTORCH_NPU_ALLOC_CONF */
	TEST_SHOW	/* neither on nor off: its value is shown */
};

/* Which launches know the setting. */
enum setting_scope {
	SCOPE_ANY,
	SCOPE_MEGATRON,	/* Megatron's arguments: MindSpeed-LLM, MM's Megatron */
	SCOPE_MM_FSDP2,	/* MindSpeed-MM's FSDP2 YAML */
	SCOPE_DDP,	/* torch's DistributedDataParallel, in the code */
	SCOPE_DEEPSPEED	/* DeepSpeed's config (a JSON file of the code's) */
};

/*
 * Whether `msprof-exec tune` may try a setting the user did not name:
 * only one that changes neither the numerics of the training nor the
 * format of its checkpoints (scheduling, threads, queues, buffers, kernels
 * that compute the same thing fused).  The others (batch sizes, the
 * layers of each stage, recompute, lines of code) are tried only when
 * named with --set.  Each row says why in a comment.
 */
enum setting_trial {
	TRIAL_ASKED,	/* only when named */
	TRIAL_SAFE	/* may be tried unasked */
};

/* Layouts a setting belongs to (none: all). */
#define WHEN_MOE	0x1	/* expert parallel > 1 */
#define WHEN_CP		0x2	/* context parallel > 1 */
#define WHEN_TP		0x4	/* tensor parallel > 1 */

struct setting {
	enum setting_kind	 kind;
	const char		*name;	/* "--overlap-grad-reduce", "TASK_QUEUE_ENABLE" */
	const char		*want;	/* shown after the name: "=2", "" */
	enum setting_test	 test;
	const char		*value;	/* what the test compares with */
	const char		*dflt;	/* the value when it is not given, or NULL */
	enum setting_scope	 scope;
	unsigned		 when;
	const char		*what;	/* N_(): what it does */
	/* Where the launch's code reads it: "REPOSITORY COMMIT FILE:LINE"
	 * of the parser (t/data/upstream-settings.tsv holds the table to
	 * it), or the documentation that defines it. */
	const char		*source;
	enum setting_trial	 trial;	/* may `tune` try it unasked? */
	/* The settings it cannot run without (the training refuses it
	 * alone, or it does nothing alone), NULL-ended; or NULL. */
	const struct setting *const *needs;
	const char		*needs_at;	/* NEEDS hold only at this
						   value ("full"); NULL: at any */
	/* The settings the training refuses together with it, NULL-ended;
	 * or NULL. */
	const struct setting *const *conflicts;
	const char		*conflicts_at;	/* as needs_at */
};

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
    set_fused_rotary, set_ddp_bucket_size, set_bf16, set_moe_grouped_gemm,
    set_moe_dispatcher, set_mm_recompute_modules,
    set_torch_bucket_cap, set_torch_bucket_view, set_torch_static_graph,
    set_hccl_buffsize, set_internal_format, set_compile_mode,
    set_ds_overlap, set_ds_reduce_bucket, set_ds_allgather_bucket,
    set_sequence_parallel, set_ascend_mc2;

/* The setting called NAME ("--use-flash-attn", "TASK_QUEUE_ENABLE"), or NULL. */
const struct setting *setting_named(const char *name);

/* Row I of the table (every setting once), or NULL past the last. */
const struct setting *setting_nth(size_t i);

/*
 * What SET needs, and what it is refused with, at VALUE (NULL: not known,
 * so only what holds at any value), NULL-ended; or NULL when nothing.
 */
const struct setting *const *setting_needs(const struct setting *set,
    const char *value);
const struct setting *const *setting_conflicts(const struct setting *set,
    const char *value);

/* The keys SET had in earlier versions (SET_YAML), NULL-ended; or NULL. */
const char *const *setting_older(const struct setting *set);

#endif
