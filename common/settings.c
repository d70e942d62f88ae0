/*
 * The settings table: the settings of a training that --set checks,
 * tune tries and the advice's rules name, one row each.  Each row's
 * source is where the launch's code reads the setting (its parser:
 * repository, commit, file:line), and its needs and conflicts are what
 * that code refuses or ignores (the file and line of the check are in
 * t/data/upstream-settings.tsv, which t/unit/upstream.c holds the table
 * to).  The commits: Megatron-LM core_v0.12.1 (a845aa7, the Megatron
 * MindSpeed-LLM runs on), MindSpeed 028de58, MindSpeed-LLM c77308a,
 * MindSpeed-MM 57069cd, torch_npu (Ascend/pytorch) 9e73e70, DeepSpeed
 * edaa722.  A flag that is parsed but read by nothing on the path the
 * launch takes has no row: MindSpeed's --use-fused-swiglu is one (its
 * FusedSwigluFeature patches Megatron's SwiGLU with npu_swiglu whatever
 * the flag says; unfused SwiGLU comes from Megatron's
 * --no-bias-swiglu-fusion).
 */
#include <string.h>

#include "i18n.h"
#include "settings.h"

#define MEGATRON	"Megatron-LM a845aa7 megatron/training/arguments.py:"
#define MINDSPEED	"MindSpeed 028de58 mindspeed/features_manager/"
#define LLM		"MindSpeed-LLM c77308a " \
			"mindspeed_llm/features_manager/"
#define MM_FSDP2	"MindSpeed-MM 57069cd mindspeed_mm/fsdp/"
#define TORCH_NPU	"torch_npu 9e73e70 torch_npu/"
#define TORCH_DDP	"PyTorch torch.nn.parallel.DistributedDataParallel " \
			"documentation (2.x)"
#define DEEPSPEED	"DeepSpeed edaa722 deepspeed/runtime/zero/config.py:"

/* Exposed communication. */
const struct setting set_overlap_grad_reduce = {
	SET_FLAG, "--overlap-grad-reduce", "", TEST_PRESENT, NULL, NULL,
	SCOPE_MEGATRON, 0,
	N_("overlap the gradient reduce with the backward pass"),
	MEGATRON "2078",
	/* safe: when the reduce runs, not what it sums */
	TRIAL_SAFE, NULL, NULL, NULL, NULL,
};
/* Megatron's validate_args refuses --overlap-param-gather without both. */
static const struct setting *const param_gather_needs[] = {
	&set_distributed_optimizer, &set_overlap_grad_reduce, NULL
};
const struct setting set_overlap_param_gather = {
	SET_FLAG, "--overlap-param-gather", "", TEST_PRESENT, NULL, NULL,
	SCOPE_MEGATRON, 0,
	N_("overlap the parameter all-gather with the forward pass (needs "
	    "--use-distributed-optimizer)"), MEGATRON "2102",
	/* safe: when the all-gather runs */
	TRIAL_SAFE, param_gather_needs, NULL, NULL, NULL,
};
const struct setting set_distributed_optimizer = {
	SET_FLAG, "--use-distributed-optimizer", "", TEST_PRESENT, NULL, NULL,
	SCOPE_MEGATRON, 0,
	N_("shard the optimizer state; --overlap-param-gather needs it"),
	MEGATRON "2131",
	/* asked: shards the optimizer state: another checkpoint format */
	TRIAL_ASKED, NULL, NULL, NULL, NULL,
};
/*
 * MindSpeed refuses --moe-alltoall-overlap-comm unless the dispatcher is
 * alltoall or alltoall_seq and --moe-grouped-gemm is given (alltoall_seq
 * also needs --moe-permutation-async-comm, and --moe-tp-extend-ep when
 * tp > 1): the row names the alltoall dispatcher, Megatron's advice for
 * expert parallelism.
 */
static const struct setting *const alltoall_overlap_needs[] = {
	&set_moe_dispatcher, &set_moe_grouped_gemm, NULL
};
const struct setting set_moe_alltoall_overlap = {
	SET_FLAG, "--moe-alltoall-overlap-comm", "", TEST_PRESENT, NULL, NULL,
	SCOPE_MEGATRON, WHEN_MOE,
	N_("overlap the MoE all-to-all with computation (needs "
	    "--moe-token-dispatcher-type alltoall and --moe-grouped-gemm)"),
	MINDSPEED "moe/moe_alltoall_overlap.py:18",
	/* safe: when the all-to-all runs, not what it moves */
	TRIAL_SAFE, alltoall_overlap_needs, NULL, NULL, NULL,
};
/*
 * Read by nothing but the checks of the features that need it (the
 * alltoall_seq and allgather overlaps, --moe-tp-extend-ep): it does
 * nothing alone, so no rule offers it; it is a row as what they need.
 */
const struct setting set_moe_permutation_async = {
	SET_FLAG, "--moe-permutation-async-comm", "", TEST_PRESENT, NULL, NULL,
	SCOPE_MEGATRON, WHEN_MOE,
	N_("needed by --moe-alltoall-overlap-comm with the alltoall_seq "
	    "dispatcher; does nothing alone"),
	MINDSPEED "moe/tp_extend_ep.py:17",
	/* asked: nothing to measure alone */
	TRIAL_ASKED, NULL, NULL, NULL, NULL,
};
const struct setting set_moe_dispatcher = {
	SET_FLAG, "--moe-token-dispatcher-type", " alltoall", TEST_EQUALS,
	"alltoall", "allgather", SCOPE_MEGATRON, WHEN_MOE,
	N_("how MoE tokens reach their experts (allgather by default)"),
	MEGATRON "2546",
	/* asked: another dispatch, which other settings refuse */
	TRIAL_ASKED, NULL, NULL, NULL, NULL,
};
const struct setting set_moe_grouped_gemm = {
	SET_FLAG, "--moe-grouped-gemm", "", TEST_PRESENT, NULL, NULL,
	SCOPE_MEGATRON, WHEN_MOE,
	N_("the experts' matrix multiplies as one grouped GEMM"),
	MEGATRON "2489",
	/* asked: the experts' weights in another layout (checkpoints) */
	TRIAL_ASKED, NULL, NULL, NULL, NULL,
};
const struct setting set_cp_send_recv_overlap = {
	SET_FLAG, "--use-cp-send-recv-overlap", "", TEST_PRESENT, NULL, NULL,
	SCOPE_MEGATRON, WHEN_CP,
	N_("overlap context-parallel sends and receives with attention"),
	LLM "context_parallel/context_parallel_feature.py:39",
	/* safe: when the sends run, not what they carry */
	TRIAL_SAFE, NULL, NULL, NULL, NULL,
};
const struct setting set_fsdp_forward_prefetch = {
	SET_YAML, "parallel.fsdp_plan.num_to_forward_prefetch", " >= 1",
	TEST_AT_LEAST, "1", "0", SCOPE_MM_FSDP2, 0,
	N_("prefetch the next modules' all-gather during the forward pass"),
	MM_FSDP2 "params/parallel_args.py:26",
	/* safe: when the all-gather runs (more memory) */
	TRIAL_SAFE, NULL, NULL, NULL, NULL,
};
const struct setting set_fsdp_backward_prefetch = {
	SET_YAML, "parallel.fsdp_plan.num_to_backward_prefetch", " >= 1",
	TEST_AT_LEAST, "1", "0", SCOPE_MM_FSDP2, 0,
	N_("prefetch the next modules' all-gather during the backward pass"),
	MM_FSDP2 "params/parallel_args.py:27",
	/* safe: when the all-gather runs (more memory) */
	TRIAL_SAFE, NULL, NULL, NULL, NULL,
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
	TRIAL_ASKED, NULL, NULL, NULL, NULL,
};
const struct setting set_torch_bucket_view = {
	SET_CODE, "DistributedDataParallel(..., gradient_as_bucket_view=True)",
	"", TEST_SHOW, NULL, "False", SCOPE_DDP, 0,
	N_("gradients are views into the buckets: no copy into them before "
	    "the all-reduce"), TORCH_DDP,
	/* asked: a line of code: nothing tune can set */
	TRIAL_ASKED, NULL, NULL, NULL, NULL,
};
/*
 * Without find_unused_parameters the reducer already rebuilds its buckets
 * in the order the gradients came, after the first step; static_graph
 * matters where that search is on.
 */
const struct setting set_torch_static_graph = {
	SET_CODE, "DistributedDataParallel(..., static_graph=True)", "",
	TEST_SHOW, NULL, "False", SCOPE_DDP, 0,
	N_("with find_unused_parameters=True, for a model that uses the same "
	    "parameters every step: no search for unused parameters each "
	    "step, and the buckets follow the gradients' order (without "
	    "find_unused_parameters they already do)"), TORCH_DDP,
	/* asked: a line of code: nothing tune can set */
	TRIAL_ASKED, NULL, NULL, NULL, NULL,
};
const struct setting set_hccl_buffsize = {
	SET_ENV, "HCCL_BUFFSIZE", "=N (MB)", TEST_SHOW, NULL, "200", SCOPE_ANY,
	0, N_("the buffer HCCL gives a collective, MB: a larger transfer is "
	    "sent in pieces (MindSpeed-LLM's examples set 400)"),
	TORCH_NPU "csrc/core/npu/register/OptionsManager.cpp:487",
	/* safe: how a transfer is split, not what it sums (needs a value) */
	TRIAL_SAFE, NULL, NULL, NULL, NULL,
};

/* Exposed communication and small packets of a job under DeepSpeed ZeRO. */
const struct setting set_ds_overlap = {
	SET_CODE, "\"zero_optimization\": {\"overlap_comm\": true}", "",
	TEST_SHOW, NULL, NULL, SCOPE_DEEPSPEED, 0,
	N_("overlap the gradient reduction with the backward pass (on by "
	    "default in stage 3 only)"), DEEPSPEED "138",
	/* asked: a key of the code's DeepSpeed config: nothing tune can set */
	TRIAL_ASKED, NULL, NULL, NULL, NULL,
};
const struct setting set_ds_reduce_bucket = {
	SET_CODE, "\"zero_optimization\": {\"reduce_bucket_size\": N}", "",
	TEST_SHOW, NULL, NULL, SCOPE_DEEPSPEED, 0,
	N_("elements reduced at a time (5e8 by default): larger, fewer "
	    "transfers"), DEEPSPEED "113",
	/* asked: a key of the code's DeepSpeed config: nothing tune can set */
	TRIAL_ASKED, NULL, NULL, NULL, NULL,
};
const struct setting set_ds_allgather_bucket = {
	SET_CODE, "\"zero_optimization\": {\"allgather_bucket_size\": N}",
	"", TEST_SHOW, NULL, NULL, SCOPE_DEEPSPEED, 0,
	N_("elements all-gathered at a time (5e8 by default)"), DEEPSPEED "132",
	/* asked: a key of the code's DeepSpeed config: nothing tune can set */
	TRIAL_ASKED, NULL, NULL, NULL, NULL,
};

/*
 * Format conversion.  torch_npu sets ALLOW_INTERNAL_FORMAT to "disable"
 * at initialisation on Atlas A2 and A3 (npu_sys_ctrl.cpp), unless the
 * code set it first: there the line is the default already.
 */
const struct setting set_internal_format = {
	SET_CODE, "torch_npu.npu.config.allow_internal_format = False", "",
	TEST_SHOW, NULL, NULL, SCOPE_ANY, 0,
	N_("keep tensors in their base formats (ND, NCHW): no conversion to "
	    "the internal ones (NC1HWC0, FRACTAL_Z, FRACTAL_NZ) between "
	    "operators; already the default on Atlas A2 and A3, where the "
	    "TransData left comes from the operators themselves or from "
	    "npu_format_cast in the code"), TORCH_NPU "npu/npu_config.py:153",
	/* asked: a line of code: nothing tune can set */
	TRIAL_ASKED, NULL, NULL, NULL, NULL,
};

/* Operators compiled at run time. */
const struct setting set_compile_mode = {
	SET_CODE, "torch_npu.npu.set_compile_mode(jit_compile=False)", "",
	TEST_SHOW, NULL, NULL, SCOPE_ANY, 0,
	N_("run the operators' prebuilt binary kernels, no online "
	    "compilation"), TORCH_NPU "npu/npu_config.py:98",
	/* asked: a line of code: nothing tune can set */
	TRIAL_ASKED, NULL, NULL, NULL, NULL,
};

/* Pipeline bubble. */
/* Megatron refuses it with the first and last stage's layers (use
 * --num-virtual-stages-per-pipeline-rank), MindSpeed-LLM with
 * --num-layer-list. */
static const struct setting *const virtual_pipeline_conflicts[] = {
	&set_num_layer_list, &set_first_stage_layers, &set_last_stage_layers,
	NULL
};
const struct setting set_virtual_pipeline = {
	SET_FLAG, "--num-layers-per-virtual-pipeline-stage", " N",
	TEST_PRESENT, NULL, NULL, SCOPE_MEGATRON, 0,
	N_("interleaved (virtual) pipeline stages: a smaller bubble"),
	MEGATRON "2060",
	/* asked: chunks of layers per stage: another checkpoint layout */
	TRIAL_ASKED, NULL, NULL, virtual_pipeline_conflicts, NULL,
};
const struct setting set_global_batch = {
	SET_FLAG, "--global-batch-size", "", TEST_SHOW, NULL, NULL,
	SCOPE_MEGATRON, 0,
	N_("more micro-batches per step: global batch / (micro batch x dp)"),
	MEGATRON "1504",
	/* asked: the batch is part of the training's numerics */
	TRIAL_ASKED, NULL, NULL, NULL, NULL,
};
const struct setting set_micro_batch = {
	SET_FLAG, "--micro-batch-size", "", TEST_SHOW, NULL, NULL,
	SCOPE_MEGATRON, 0,
	N_("samples per micro-batch"), MEGATRON "1497",
	/* asked: another accumulation order and peak memory */
	TRIAL_ASKED, NULL, NULL, NULL, NULL,
};

/* Pipeline stages out of balance. */
static const struct setting *const layer_list_conflicts[] = {
	&set_virtual_pipeline, NULL
};
const struct setting set_num_layer_list = {
	SET_FLAG, "--num-layer-list", " A,B,...", TEST_PRESENT, NULL, NULL,
	SCOPE_MEGATRON, 0,
	N_("the layers of each pipeline stage"),
	LLM "pipeline_parallel/num_layer_list.py:14",
	/* asked: the layers of each stage: another checkpoint layout */
	TRIAL_ASKED, NULL, NULL, layer_list_conflicts, NULL,
};
const struct setting set_first_stage_layers = {
	SET_FLAG, "--decoder-first-pipeline-num-layers", " N", TEST_PRESENT,
	NULL, NULL, SCOPE_MEGATRON, 0,
	N_("the layers of the first pipeline stage"), MEGATRON "2049",
	/* asked: the layers of each stage: another checkpoint layout */
	TRIAL_ASKED, NULL, NULL, layer_list_conflicts, NULL,
};
const struct setting set_last_stage_layers = {
	SET_FLAG, "--decoder-last-pipeline-num-layers", " N", TEST_PRESENT,
	NULL, NULL, SCOPE_MEGATRON, 0,
	N_("the layers of the last pipeline stage"), MEGATRON "2053",
	/* asked: the layers of each stage: another checkpoint layout */
	TRIAL_ASKED, NULL, NULL, layer_list_conflicts, NULL,
};

/* Host-bound. */
/* torch_npu: 0, 1 (the default) or 2, anything else refused; 0 whatever
 * it says when ASCEND_LAUNCH_BLOCKING is 1. */
const struct setting set_task_queue = {
	SET_ENV, "TASK_QUEUE_ENABLE", "=2", TEST_EQUALS, "2", "1", SCOPE_ANY, 0,
	N_("operator dispatch queue, level 2 (may raise peak memory)"),
	TORCH_NPU "csrc/core/npu/register/OptionsManager.cpp:575",
	/* safe: how operators are delivered, not what they compute */
	TRIAL_SAFE, NULL, NULL, NULL, NULL,
};
/* torch_npu's mode: the value when all digits, else its first item of
 * digits or its "mode:N" item; the rest of the list names cores. */
const struct setting set_cpu_affinity = {
	SET_ENV, "CPU_AFFINITY_CONF", "=1 or 2", TEST_AT_LEAST, "1", "0",
	SCOPE_ANY, 0,
	N_("bind torch_npu's threads to the NPU's cores (2: its hot threads "
	    "each on a core of its own)"),
	TORCH_NPU "csrc/core/npu/NPUAffinityController.cpp:188",
	/* safe: where host threads run */
	TRIAL_SAFE, NULL, NULL, NULL, NULL,
};
const struct setting set_num_workers = {
	SET_FLAG, "--num-workers", "", TEST_SHOW, NULL, "2", SCOPE_MEGATRON, 0,
	N_("data-loader worker processes"), MEGATRON "2302",
	/* safe: how many processes load the same samples (needs a value) */
	TRIAL_SAFE, NULL, NULL, NULL, NULL,
};
const struct setting set_mm_num_workers = {
	SET_YAML, "data.dataloader_param.num_workers", "", TEST_SHOW, NULL,
	"2", SCOPE_MM_FSDP2, 0, N_("data-loader worker processes"),
	MM_FSDP2 "params/data_args.py:48",
	/* safe: how many processes load the same samples (needs a value) */
	TRIAL_SAFE, NULL, NULL, NULL, NULL,
};

/* The environment of a measurement. */
/* torch_npu: 0 or 1, anything else refused. */
const struct setting set_launch_blocking = {
	SET_ENV, "ASCEND_LAUNCH_BLOCKING", "=0 (or unset)", TEST_EQUALS, "0",
	"0", SCOPE_ANY, 0,
	N_("asynchronous kernel launch; 1 runs each kernel to its end, for "
	    "debugging"),
	TORCH_NPU "csrc/core/npu/register/OptionsManager.cpp:128",
	/* safe: debugging only: kernels run the same, serialised */
	TRIAL_SAFE, NULL, NULL, NULL, NULL,
};
/* CANN's own (its logging library reads it), not torch_npu's. */
const struct setting set_log_level = {
	SET_ENV, "ASCEND_GLOBAL_LOG_LEVEL", "=3", TEST_AT_LEAST, "3", "3",
	SCOPE_ANY, 0,
	N_("CANN log level: 3 error (the default), 0 debug, 1 info, 2 warning"),
	"CANN environment variable reference (ASCEND_GLOBAL_LOG_LEVEL)",
	/* safe: what CANN logs */
	TRIAL_SAFE, NULL, NULL, NULL, NULL,
};

/* Memory. */
/*
 * Megatron's TransformerConfig refuses full recompute without a method
 * and a number of layers, and selective recompute with either.
 */
static const struct setting *const recompute_full_needs[] = {
	&set_recompute_method, &set_recompute_num_layers, NULL
};
const struct setting set_recompute_granularity = {
	SET_FLAG, "--recompute-granularity", " full|selective", TEST_PRESENT,
	NULL, NULL, SCOPE_MEGATRON, 0,
	N_("recompute activations in the backward pass instead of keeping "
	    "them (full needs --recompute-method and --recompute-num-layers)"),
	MEGATRON "1533",
	/* asked: trades step time for memory: a try measures only its cost */
	TRIAL_ASKED, recompute_full_needs, "full", recompute_full_needs,
	"selective",
};
/* Each is read only under full recompute: alone it does nothing. */
static const struct setting *const recompute_needs[] = {
	&set_recompute_granularity, NULL
};
const struct setting set_recompute_method = {
	SET_FLAG, "--recompute-method", " uniform|block", TEST_PRESENT, NULL,
	NULL, SCOPE_MEGATRON, 0,
	N_("how full recompute picks its layers"), MEGATRON "1554",
	/* asked: trades step time for memory: a try measures only its cost */
	TRIAL_ASKED, recompute_needs, NULL, NULL, NULL,
};
const struct setting set_recompute_num_layers = {
	SET_FLAG, "--recompute-num-layers", " N", TEST_PRESENT, NULL, NULL,
	SCOPE_MEGATRON, 0, N_("how many layers full recompute covers"),
	MEGATRON "1563",
	/* asked: trades step time for memory: a try measures only its cost */
	TRIAL_ASKED, recompute_needs, NULL, NULL, NULL,
};
const struct setting set_recompute_activation = {
	SET_FLAG, "--recompute-activation-function", "", TEST_PRESENT, NULL,
	NULL, SCOPE_MEGATRON, 0,
	N_("recompute the MLP's activation function only"),
	MINDSPEED "recompute/activation_function.py:10",
	/* asked: trades step time for memory: a try measures only its cost */
	TRIAL_ASKED, NULL, NULL, NULL, NULL,
};
const struct setting set_swap_attention = {
	SET_FLAG, "--swap-attention", "", TEST_PRESENT, NULL, NULL,
	SCOPE_MEGATRON, 0,
	N_("swap attention activations to host memory"),
	MINDSPEED "memory/swap_attention.py:14",
	/* asked: trades step time for memory: a try measures only its cost */
	TRIAL_ASKED, NULL, NULL, NULL, NULL,
};
/* MindSpeed's ReuseFP32Param refuses it without --bf16. */
static const struct setting *const reuse_fp32_needs[] = { &set_bf16, NULL };
const struct setting set_reuse_fp32_param = {
	SET_FLAG, "--reuse-fp32-param", "", TEST_PRESENT, NULL, NULL,
	SCOPE_MEGATRON, 0,
	N_("share the memory of the fp32 and bf16 parameter copies (needs "
	    "--bf16)"), MINDSPEED "memory/reuse_fp32_param.py:13",
	/* asked: another storage of the parameters and optimizer state */
	TRIAL_ASKED, reuse_fp32_needs, NULL, NULL, NULL,
};
const struct setting set_bf16 = {
	SET_FLAG, "--bf16", "", TEST_PRESENT, NULL, NULL, SCOPE_MEGATRON, 0,
	N_("train in bfloat16"), MEGATRON "1997",
	/* asked: the training's numerics */
	TRIAL_ASKED, NULL, NULL, NULL, NULL,
};
/*
 * The item expandable_segments:True of torch_npu's key:value list;
 * torch_npu refuses it with max_split_size_mb or
 * garbage_collection_threshold in the same list.
 */
const struct setting set_alloc_conf = {
	SET_ENV, "PYTORCH_NPU_ALLOC_CONF", "=expandable_segments:True",
	TEST_CONTAINS, "expandable_segments:True", NULL, SCOPE_ANY, 0,
	N_("let the allocator grow segments: less fragmentation"),
	TORCH_NPU "csrc/core/npu/NPUAllocatorConfig.cpp:50",
	/* safe: how the allocator grows, not what is computed */
	TRIAL_SAFE, NULL, NULL, NULL, NULL,
};
/*
 * MindSpeed-MM's FeaturesApplier reads features.recompute (v26.1.0 and
 * later; its examples and docs/zh/features/fsdp2_developer_migration_
 * guide.md say so); v26.0.0's torch_parallelize read parallel.recompute,
 * and the months between model.recompute.  It raises "[Recompute] No
 * module named []" without features.recompute_plan.apply_modules.
 */
static const struct setting *const mm_recompute_needs[] = {
	&set_mm_recompute_modules, NULL
};
const struct setting set_mm_recompute = {
	SET_YAML, "features.recompute", ": true", TEST_EQUALS, "true", "false",
	SCOPE_MM_FSDP2, 0, N_("activation recompute (gradient checkpointing)"),
	MM_FSDP2 "features/apply_features.py:31",
	/* asked: trades step time for memory: a try measures only its cost */
	TRIAL_ASKED, mm_recompute_needs, "true", NULL, NULL,
};
const struct setting set_mm_recompute_modules = {
	SET_YAML, "features.recompute_plan.apply_modules", ": [NAME, ...]",
	TEST_PRESENT, NULL, NULL, SCOPE_MM_FSDP2, 0,
	N_("the modules features.recompute recomputes"),
	MM_FSDP2 "params/feature_args.py:10",
	/* asked: trades step time for memory: a try measures only its cost */
	TRIAL_ASKED, NULL, NULL, NULL, NULL,
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
	MEGATRON "1703",
	/* safe: the same attention in tiles; the parameters are unchanged */
	TRIAL_SAFE, NULL, NULL, NULL, NULL,
};
const struct setting set_fused_rmsnorm = {
	SET_FLAG, "--use-fused-rmsnorm", "", TEST_PRESENT, NULL, NULL,
	SCOPE_MEGATRON, 0, N_("fused RMSNorm (RmsNorm)"),
	MINDSPEED "megatron_basic/megatron_basic.py:10",
	/* safe: one kernel for the same normalisation */
	TRIAL_SAFE, NULL, NULL, NULL, NULL,
};
const struct setting set_fused_rotary = {
	SET_FLAG, "--use-fused-rotary-pos-emb", "", TEST_PRESENT, NULL, NULL,
	SCOPE_MEGATRON, 0, N_("fused rotary embedding (RotaryPositionEmbedding)"),
	LLM "common/rotary.py:11",
	/* safe: one kernel for the same rotation */
	TRIAL_SAFE, NULL, NULL, NULL, NULL,
};

/* Small packets. */
/* Megatron's DDP makes one bucket of everything without
 * --overlap-grad-reduce (and on pipeline stages after the first). */
static const struct setting *const bucket_needs[] = {
	&set_overlap_grad_reduce, NULL
};
const struct setting set_ddp_bucket_size = {
	SET_FLAG, "--ddp-bucket-size", " N", TEST_SHOW, NULL, NULL,
	SCOPE_MEGATRON, 0,
	N_("elements per data-parallel gradient bucket: fewer, larger "
	    "transfers (with --overlap-grad-reduce only)"), MEGATRON "2093",
	/* safe: how gradients are grouped for the reduce, not what it sums
	 * (needs a value) */
	TRIAL_SAFE, bucket_needs, NULL, NULL, NULL,
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
	    "(Megatron turns it off with tensor parallel 1)"), MEGATRON "1739",
	/* asked: Megatron disables it at tp 1 "to avoid change in numerics" */
	TRIAL_ASKED, NULL, NULL, NULL, NULL,
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
	MINDSPEED "tensor_parallel/mc2.py:15",
	/* asked: needs --sequence-parallel, which is asked */
	TRIAL_ASKED, mc2_needs, NULL, NULL, NULL,
};

/* Every row, for a setting looked up by its name (--set). */
static const struct setting *const all[] = {
	&set_overlap_grad_reduce, &set_overlap_param_gather,
	&set_distributed_optimizer, &set_moe_alltoall_overlap,
	&set_moe_permutation_async, &set_moe_dispatcher,
	&set_moe_grouped_gemm, &set_cp_send_recv_overlap,
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
	&set_reuse_fp32_param, &set_bf16, &set_alloc_conf, &set_mm_recompute,
	&set_mm_recompute_modules, &set_flash_attn, &set_fused_rmsnorm,
	&set_fused_rotary, &set_ddp_bucket_size, &set_sequence_parallel,
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

/* LIST when it holds at VALUE: always without AT, else at AT only. */
static const struct setting *const *
at_value(const struct setting *const *list, const char *at, const char *value)
{
	if (at != NULL && (value == NULL || strcmp(at, value) != 0))
		return NULL;
	return list;
}

const struct setting *const *
setting_needs(const struct setting *set, const char *value)
{
	return at_value(set->needs, set->needs_at, value);
}

const struct setting *const *
setting_conflicts(const struct setting *set, const char *value)
{
	return at_value(set->conflicts, set->conflicts_at, value);
}
