/*
 * The settings table: the settings of a training that --set checks,
 * tune tries and the advice's rules name, one row each, with where its
 * name and meaning were verified: Megatron-LM's megatron/training/arguments.py
 * (core_v0.12.1, the Megatron MindSpeed-LLM runs on), MindSpeed's
 * mindspeed/arguments.py (028de58), the dataclasses of MindSpeed-MM's
 * mindspeed_mm/fsdp/params (57069cd), and the torch_npu
 * environment-variable reference (Ascend/pytorch
 * docs/zh/api/environment_variable, 9e73e70), PyTorch's
 * torch.nn.parallel.DistributedDataParallel (its documentation, 2.x),
 * DeepSpeed's DeepSpeedZeroConfig (deepspeed/runtime/zero/config.py,
 * 1b88ac3) and torch_npu's torch_npu/npu/npu_config.py (npuConfig).
 */
#include <string.h>

#include "i18n.h"
#include "settings.h"

#define MEGATRON	"Megatron-LM arguments.py"
#define MINDSPEED	"MindSpeed arguments.py"
#define MM_FSDP2	"MindSpeed-MM fsdp/params"
#define TORCH_NPU	"torch_npu environment variables"
#define TORCH_DDP	"PyTorch DistributedDataParallel documentation"
#define DEEPSPEED	"DeepSpeed deepspeed/runtime/zero/config.py"

/* Exposed communication. */
const struct setting set_overlap_grad_reduce = {
	SET_FLAG, "--overlap-grad-reduce", "", TEST_PRESENT, NULL, NULL,
	SCOPE_MEGATRON, 0,
	N_("overlap the gradient reduce with the backward pass"), MEGATRON,
	/* safe: when the reduce runs, not what it sums */
	TRIAL_SAFE, NULL,
};
/* Megatron's validate_args refuses --overlap-param-gather without both. */
static const struct setting *const param_gather_needs[] = {
	&set_distributed_optimizer, &set_overlap_grad_reduce, NULL
};
const struct setting set_overlap_param_gather = {
	SET_FLAG, "--overlap-param-gather", "", TEST_PRESENT, NULL, NULL,
	SCOPE_MEGATRON, 0,
	N_("overlap the parameter all-gather with the forward pass (needs "
	    "--use-distributed-optimizer)"), MEGATRON,
	/* safe: when the all-gather runs */
	TRIAL_SAFE, param_gather_needs,
};
const struct setting set_distributed_optimizer = {
	SET_FLAG, "--use-distributed-optimizer", "", TEST_PRESENT, NULL, NULL,
	SCOPE_MEGATRON, 0,
	N_("shard the optimizer state; --overlap-param-gather needs it"),
	MEGATRON,
	/* asked: shards the optimizer state: another checkpoint format */
	TRIAL_ASKED, NULL,
};
const struct setting set_moe_alltoall_overlap = {
	SET_FLAG, "--moe-alltoall-overlap-comm", "", TEST_PRESENT, NULL, NULL,
	SCOPE_MEGATRON, WHEN_MOE,
	N_("overlap the MoE all-to-all with computation (needs "
	    "--moe-grouped-gemm)"), MINDSPEED,
	/* safe: when the all-to-all runs, not what it moves */
	TRIAL_SAFE, NULL,
};
const struct setting set_moe_permutation_async = {
	SET_FLAG, "--moe-permutation-async-comm", "", TEST_PRESENT, NULL, NULL,
	SCOPE_MEGATRON, WHEN_MOE,
	N_("run the MoE token permutation's communication asynchronously"),
	MINDSPEED,
	/* safe: when the permutation communicates, not what */
	TRIAL_SAFE, NULL,
};
const struct setting set_cp_send_recv_overlap = {
	SET_FLAG, "--use-cp-send-recv-overlap", "", TEST_PRESENT, NULL, NULL,
	SCOPE_MEGATRON, WHEN_CP,
	N_("overlap context-parallel sends and receives with attention"),
	MINDSPEED,
	/* safe: when the sends run, not what they carry */
	TRIAL_SAFE, NULL,
};
const struct setting set_fsdp_forward_prefetch = {
	SET_YAML, "parallel.fsdp_plan.num_to_forward_prefetch", " >= 1",
	TEST_AT_LEAST, "1", "0", SCOPE_MM_FSDP2, 0,
	N_("prefetch the next modules' all-gather during the forward pass"),
	MM_FSDP2,
	/* safe: when the all-gather runs (more memory) */
	TRIAL_SAFE, NULL,
};
const struct setting set_fsdp_backward_prefetch = {
	SET_YAML, "parallel.fsdp_plan.num_to_backward_prefetch", " >= 1",
	TEST_AT_LEAST, "1", "0", SCOPE_MM_FSDP2, 0,
	N_("prefetch the next modules' all-gather during the backward pass"),
	MM_FSDP2,
	/* safe: when the all-gather runs (more memory) */
	TRIAL_SAFE, NULL,
};

/* Exposed communication and small packets of a job wrapped in DDP. */
const struct setting set_torch_bucket_cap = {
	SET_CODE, "DistributedDataParallel(..., bucket_cap_mb=N)", "",
	TEST_SHOW, NULL, "25", SCOPE_DDP, 0,
	N_("the gradient bucket, MB (25 by default): the all-reduce of a "
	    "bucket starts when its gradients are ready, so smaller buckets "
	    "overlap more of the backward pass and larger ones make fewer, "
	    "larger transfers"), TORCH_DDP,
	/* asked: a line of code: nothing tune can set */
	TRIAL_ASKED, NULL,
};
const struct setting set_torch_bucket_view = {
	SET_CODE, "DistributedDataParallel(..., gradient_as_bucket_view=True)",
	"", TEST_SHOW, NULL, "False", SCOPE_DDP, 0,
	N_("gradients are views into the buckets: no copy into them before "
	    "the all-reduce"), TORCH_DDP,
	/* asked: a line of code: nothing tune can set */
	TRIAL_ASKED, NULL,
};
const struct setting set_torch_static_graph = {
	SET_CODE, "DistributedDataParallel(..., static_graph=True)", "",
	TEST_SHOW, NULL, "False", SCOPE_DDP, 0,
	N_("for a model that uses the same parameters every step: the "
	    "buckets are rebuilt in the order the gradients come"), TORCH_DDP,
	/* asked: a line of code: nothing tune can set */
	TRIAL_ASKED, NULL,
};
const struct setting set_hccl_buffsize = {
	SET_ENV, "HCCL_BUFFSIZE", "=N (MB)", TEST_SHOW, NULL, NULL, SCOPE_ANY,
	0, N_("the buffer HCCL gives a collective, MB: a larger transfer is "
	    "sent in pieces (MindSpeed-LLM's examples set 400)"),
	"CANN HCCL environment variables; MindSpeed-LLM examples",
	/* safe: how a transfer is split, not what it sums (needs a value) */
	TRIAL_SAFE, NULL,
};

/* Exposed communication and small packets of a job under DeepSpeed ZeRO. */
const struct setting set_ds_overlap = {
	SET_CODE, "\"zero_optimization\": {\"overlap_comm\": true}", "",
	TEST_SHOW, NULL, NULL, SCOPE_DEEPSPEED, 0,
	N_("overlap the gradient reduction with the backward pass (on by "
	    "default in stage 3 only)"), DEEPSPEED,
	/* asked: a key of the code's DeepSpeed config: nothing tune can set */
	TRIAL_ASKED, NULL,
};
const struct setting set_ds_reduce_bucket = {
	SET_CODE, "\"zero_optimization\": {\"reduce_bucket_size\": N}", "",
	TEST_SHOW, NULL, NULL, SCOPE_DEEPSPEED, 0,
	N_("elements reduced at a time (5e8 by default): larger, fewer "
	    "transfers"), DEEPSPEED,
	/* asked: a key of the code's DeepSpeed config: nothing tune can set */
	TRIAL_ASKED, NULL,
};
const struct setting set_ds_allgather_bucket = {
	SET_CODE, "\"zero_optimization\": {\"allgather_bucket_size\": N}",
	"", TEST_SHOW, NULL, NULL, SCOPE_DEEPSPEED, 0,
	N_("elements all-gathered at a time (5e8 by default)"), DEEPSPEED,
	/* asked: a key of the code's DeepSpeed config: nothing tune can set */
	TRIAL_ASKED, NULL,
};

/* Format conversion. */
const struct setting set_internal_format = {
	SET_CODE, "torch_npu.npu.config.allow_internal_format = False", "",
	TEST_SHOW, NULL, NULL, SCOPE_ANY, 0,
	N_("keep tensors in their base formats (ND, NCHW): no conversion to "
	    "the internal ones (NC1HWC0, FRACTAL_Z, FRACTAL_NZ) between "
	    "operators"), "torch_npu npu/npu_config.py; MindSpeed-LLM FSDP2 "
	    "performance guide",
	/* asked: a line of code: nothing tune can set */
	TRIAL_ASKED, NULL,
};

/* Operators compiled at run time. */
const struct setting set_compile_mode = {
	SET_CODE, "torch_npu.npu.set_compile_mode(jit_compile=False)", "",
	TEST_SHOW, NULL, NULL, SCOPE_ANY, 0,
	N_("run the operators' prebuilt binary kernels, no online "
	    "compilation"), "torch_npu npu/npu_config.py; msprof-analyze "
	    "advisor",
	/* asked: a line of code: nothing tune can set */
	TRIAL_ASKED, NULL,
};

/* Pipeline bubble. */
const struct setting set_virtual_pipeline = {
	SET_FLAG, "--num-layers-per-virtual-pipeline-stage", " N",
	TEST_PRESENT, NULL, NULL, SCOPE_MEGATRON, 0,
	N_("interleaved (virtual) pipeline stages: a smaller bubble"),
	MEGATRON,
	/* asked: chunks of layers per stage: another checkpoint layout */
	TRIAL_ASKED, NULL,
};
const struct setting set_global_batch = {
	SET_FLAG, "--global-batch-size", "", TEST_SHOW, NULL, NULL,
	SCOPE_MEGATRON, 0,
	N_("more micro-batches per step: global batch / (micro batch x dp)"),
	MEGATRON,
	/* asked: the batch is part of the training's numerics */
	TRIAL_ASKED, NULL,
};
const struct setting set_micro_batch = {
	SET_FLAG, "--micro-batch-size", "", TEST_SHOW, NULL, NULL,
	SCOPE_MEGATRON, 0,
	N_("samples per micro-batch"), MEGATRON,
	/* asked: another accumulation order and peak memory */
	TRIAL_ASKED, NULL,
};

/* Pipeline stages out of balance. */
const struct setting set_num_layer_list = {
	SET_FLAG, "--num-layer-list", " A,B,...", TEST_PRESENT, NULL, NULL,
	SCOPE_MEGATRON, 0,
	N_("the layers of each pipeline stage"), MINDSPEED,
	/* asked: the layers of each stage: another checkpoint layout */
	TRIAL_ASKED, NULL,
};
const struct setting set_first_stage_layers = {
	SET_FLAG, "--decoder-first-pipeline-num-layers", " N", TEST_PRESENT,
	NULL, NULL, SCOPE_MEGATRON, 0,
	N_("the layers of the first pipeline stage"), MEGATRON,
	/* asked: the layers of each stage: another checkpoint layout */
	TRIAL_ASKED, NULL,
};
const struct setting set_last_stage_layers = {
	SET_FLAG, "--decoder-last-pipeline-num-layers", " N", TEST_PRESENT,
	NULL, NULL, SCOPE_MEGATRON, 0,
	N_("the layers of the last pipeline stage"), MEGATRON,
	/* asked: the layers of each stage: another checkpoint layout */
	TRIAL_ASKED, NULL,
};

/* Host-bound. */
const struct setting set_task_queue = {
	SET_ENV, "TASK_QUEUE_ENABLE", "=2", TEST_EQUALS, "2", "1", SCOPE_ANY, 0,
	N_("operator dispatch queue, level 2 (may raise peak memory)"),
	TORCH_NPU,
	/* safe: how operators are delivered, not what they compute */
	TRIAL_SAFE, NULL,
};
const struct setting set_cpu_affinity = {
	SET_ENV, "CPU_AFFINITY_CONF", "=1 or 2", TEST_AT_LEAST, "1", "0",
	SCOPE_ANY, 0,
	N_("bind torch_npu's threads to the NPU's cores (2: its hot threads "
	    "each on a core of its own)"), TORCH_NPU,
	/* safe: where host threads run */
	TRIAL_SAFE, NULL,
};
const struct setting set_num_workers = {
	SET_FLAG, "--num-workers", "", TEST_SHOW, NULL, "2", SCOPE_MEGATRON, 0,
	N_("data-loader worker processes"), MEGATRON,
	/* safe: how many processes load the same samples (needs a value) */
	TRIAL_SAFE, NULL,
};
const struct setting set_mm_num_workers = {
	SET_YAML, "data.dataloader_param.num_workers", "", TEST_SHOW, NULL,
	"2", SCOPE_MM_FSDP2, 0, N_("data-loader worker processes"), MM_FSDP2,
	/* safe: how many processes load the same samples (needs a value) */
	TRIAL_SAFE, NULL,
};

/* The environment of a measurement. */
const struct setting set_launch_blocking = {
	SET_ENV, "ASCEND_LAUNCH_BLOCKING", "=0 (or unset)", TEST_EQUALS, "0",
	"0", SCOPE_ANY, 0,
	N_("asynchronous kernel launch; 1 runs each kernel to its end, for "
	    "debugging"), TORCH_NPU,
	/* safe: debugging only: kernels run the same, serialised */
	TRIAL_SAFE, NULL,
};
const struct setting set_log_level = {
	SET_ENV, "ASCEND_GLOBAL_LOG_LEVEL", "=3", TEST_AT_LEAST, "3", "3",
	SCOPE_ANY, 0,
	N_("CANN log level: 3 error (the default), 0 debug, 1 info, 2 warning"),
	"torch_npu profiler guide; msprof-analyze advisor",
	/* safe: what CANN logs */
	TRIAL_SAFE, NULL,
};

/* Memory. */
const struct setting set_recompute_granularity = {
	SET_FLAG, "--recompute-granularity", " full|selective", TEST_PRESENT,
	NULL, NULL, SCOPE_MEGATRON, 0,
	N_("recompute activations in the backward pass instead of keeping "
	    "them"), MEGATRON,
	/* asked: trades step time for memory: a try measures only its cost */
	TRIAL_ASKED, NULL,
};
const struct setting set_recompute_method = {
	SET_FLAG, "--recompute-method", " uniform|block", TEST_PRESENT, NULL,
	NULL, SCOPE_MEGATRON, 0,
	N_("how full recompute picks its layers"), MEGATRON,
	/* asked: trades step time for memory: a try measures only its cost */
	TRIAL_ASKED, NULL,
};
const struct setting set_recompute_num_layers = {
	SET_FLAG, "--recompute-num-layers", " N", TEST_PRESENT, NULL, NULL,
	SCOPE_MEGATRON, 0, N_("how many layers full recompute covers"),
	MEGATRON,
	/* asked: trades step time for memory: a try measures only its cost */
	TRIAL_ASKED, NULL,
};
const struct setting set_recompute_activation = {
	SET_FLAG, "--recompute-activation-function", "", TEST_PRESENT, NULL,
	NULL, SCOPE_MEGATRON, 0,
	N_("recompute the MLP's activation function only"), MINDSPEED,
	/* asked: trades step time for memory: a try measures only its cost */
	TRIAL_ASKED, NULL,
};
const struct setting set_swap_attention = {
	SET_FLAG, "--swap-attention", "", TEST_PRESENT, NULL, NULL,
	SCOPE_MEGATRON, 0,
	N_("swap attention activations to host memory"), MINDSPEED,
	/* asked: trades step time for memory: a try measures only its cost */
	TRIAL_ASKED, NULL,
};
const struct setting set_reuse_fp32_param = {
	SET_FLAG, "--reuse-fp32-param", "", TEST_PRESENT, NULL, NULL,
	SCOPE_MEGATRON, 0,
	N_("share the memory of the fp32 and bf16 parameter copies"),
	MINDSPEED,
	/* asked: another storage of the parameters and optimizer state */
	TRIAL_ASKED, NULL,
};
const struct setting set_alloc_conf = {
	SET_ENV, "PYTORCH_NPU_ALLOC_CONF", "=expandable_segments:True",
	TEST_CONTAINS, "expandable_segments:True", NULL, SCOPE_ANY, 0,
	N_("let the allocator grow segments: less fragmentation"), TORCH_NPU,
	/* safe: how the allocator grows, not what is computed */
	TRIAL_SAFE, NULL,
};
/*
 * MindSpeed-MM's FeaturesApplier reads features.recompute (v26.1.0 and
 * later; its examples and docs/zh/features/fsdp2_developer_migration_
 * guide.md say so); v26.0.0's torch_parallelize read parallel.recompute,
 * and the months between model.recompute.
 */
const struct setting set_mm_recompute = {
	SET_YAML, "features.recompute", ": true", TEST_EQUALS, "true", "false",
	SCOPE_MM_FSDP2, 0, N_("activation recompute (gradient checkpointing)"),
	MM_FSDP2,
	/* asked: trades step time for memory: a try measures only its cost */
	TRIAL_ASKED, NULL,
};

const char *const *
setting_older(const struct setting *set)
{
	static const char *const recompute[] = { "parallel.recompute",
	    "model.recompute", NULL };

	return set == &set_mm_recompute ? recompute : NULL;
}

/* Fused kernels. */
const struct setting set_flash_attn = {
	SET_FLAG, "--use-flash-attn", "", TEST_PRESENT, NULL, NULL,
	SCOPE_MEGATRON, 0, N_("fused attention (FlashAttentionScore)"),
	MEGATRON,
	/* safe: the same attention in tiles; the parameters are unchanged */
	TRIAL_SAFE, NULL,
};
const struct setting set_fused_rmsnorm = {
	SET_FLAG, "--use-fused-rmsnorm", "", TEST_PRESENT, NULL, NULL,
	SCOPE_MEGATRON, 0, N_("fused RMSNorm (RmsNorm)"), MINDSPEED,
	/* safe: one kernel for the same normalisation */
	TRIAL_SAFE, NULL,
};
const struct setting set_fused_rotary = {
	SET_FLAG, "--use-fused-rotary-pos-emb", "", TEST_PRESENT, NULL, NULL,
	SCOPE_MEGATRON, 0, N_("fused rotary embedding (RotaryPositionEmbedding)"),
	MINDSPEED,
	/* safe: one kernel for the same rotation */
	TRIAL_SAFE, NULL,
};
const struct setting set_fused_swiglu = {
	SET_FLAG, "--use-fused-swiglu", "", TEST_PRESENT, NULL, NULL,
	SCOPE_MEGATRON, 0, N_("fused SwiGLU (SwiGlu)"), MINDSPEED,
	/* safe: one kernel for the same activation */
	TRIAL_SAFE, NULL,
};

/* Small packets. */
const struct setting set_ddp_bucket_size = {
	SET_FLAG, "--ddp-bucket-size", " N", TEST_SHOW, NULL, NULL,
	SCOPE_MEGATRON, 0,
	N_("elements per data-parallel gradient bucket: fewer, larger "
	    "transfers"), MEGATRON,
	/* safe: how gradients are grouped for the reduce, not what it sums
	 * (needs a value) */
	TRIAL_SAFE, NULL,
};

/*
 * Exposed tensor-parallel communication.  Megatron's --tp-comm-overlap is
 * not offered: MindSpeed's validate_args sets it back to False
 * (mindspeed/arguments.py), and Megatron's needs TransformerEngine's
 * userbuffers; on Ascend the matmul and its tensor-parallel collective
 * are overlapped by MindSpeed's MC2 fused kernels.
 */
const struct setting set_sequence_parallel = {
	SET_FLAG, "--sequence-parallel", "", TEST_PRESENT, NULL, NULL,
	SCOPE_MEGATRON, WHEN_TP,
	N_("shard the activations outside the matmuls over the tensor-parallel "
	    "ranks: reduce-scatter and all-gather instead of all-reduce "
	    "(Megatron turns it off with tensor parallel 1)"), MEGATRON,
	/* asked: Megatron disables it at tp 1 "to avoid change in numerics" */
	TRIAL_ASKED, NULL,
};
/* mindspeed/features_manager/tensor_parallel/mc2.py refuses it without. */
static const struct setting *const mc2_needs[] = {
	&set_sequence_parallel, NULL
};
const struct setting set_ascend_mc2 = {
	SET_FLAG, "--use-ascend-mc2", "", TEST_PRESENT, NULL, NULL,
	SCOPE_MEGATRON, WHEN_TP,
	N_("fuse each tensor-parallel matmul with its all-gather or "
	    "reduce-scatter (MC2), overlapping the two (needs "
	    "--sequence-parallel and tensor parallel > 1; not with "
	    "--use-ascend-coc)"),
	"MindSpeed features_manager/tensor_parallel/mc2.py",
	/* asked: needs --sequence-parallel, which is asked */
	TRIAL_ASKED, mc2_needs,
};

/* Every row, for a setting looked up by its name (--set). */
static const struct setting *const all[] = {
	&set_overlap_grad_reduce, &set_overlap_param_gather,
	&set_distributed_optimizer, &set_moe_alltoall_overlap,
	&set_moe_permutation_async, &set_cp_send_recv_overlap,
	&set_fsdp_forward_prefetch, &set_fsdp_backward_prefetch,
	&set_torch_bucket_cap, &set_torch_bucket_view,
	&set_torch_static_graph, &set_hccl_buffsize, &set_ds_overlap,
	&set_ds_reduce_bucket, &set_ds_allgather_bucket,
	&set_internal_format, &set_compile_mode, &set_virtual_pipeline,
	&set_global_batch, &set_micro_batch, &set_num_layer_list,
	&set_first_stage_layers, &set_last_stage_layers, &set_task_queue,
	&set_cpu_affinity, &set_num_workers, &set_mm_num_workers,
	&set_launch_blocking, &set_log_level, &set_recompute_granularity,
	&set_recompute_method, &set_recompute_num_layers,
	&set_recompute_activation, &set_swap_attention,
	&set_reuse_fp32_param, &set_alloc_conf, &set_mm_recompute,
	&set_flash_attn, &set_fused_rmsnorm, &set_fused_rotary,
	&set_fused_swiglu, &set_ddp_bucket_size, &set_sequence_parallel,
	&set_ascend_mc2, NULL
};

const struct setting *
setting_nth(size_t i)
{
	for (size_t k = 0; all[k] != NULL; k++)
		if (k == i)
			return all[k];
	return NULL;
}

const struct setting *
setting_named(const char *name)
{
	for (size_t i = 0; all[i] != NULL; i++)
		if (strcmp(all[i]->name, name) == 0)
			return all[i];
	return NULL;
}
