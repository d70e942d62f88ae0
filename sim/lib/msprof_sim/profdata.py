"""Synthetic device activity of a whole training job, one rank at a time, and the
analysis files torch_npu derives from it (ASCEND_PROFILER_OUTPUT).

Every rank's parse runs on its own, yet the data must agree across ranks as real
data does: the same collectives on every member of a group, and each member's
wait time following from who arrived last.  So each rank replays one model of
the whole job (all ranks, every step) and keeps its own row of it.  The model is
a pure function of the layout, the step ids, the nominal step time and the
knobs below, seeded per rank and step, so the same inputs give the same bytes.

Knobs (environment, shared by all ranks of a job):
  MSPROF_SIM_SEED=N               seed of the jitter (default 1)
  MSPROF_SIM_KERNELS_PER_STEP=N   compute kernels per step and rank (default 32)
  MSPROF_SIM_RANKS_PER_NODE=N     ranks per node: HCCS inside, RDMA across (default 8)
  MSPROF_SIM_SLOW_RANK=R          rank R computes 30 % longer; the others wait for it
  MSPROF_SIM_SLOW_LINK=S-D        link S->D runs at 10 % of its transport's bandwidth
  MSPROF_SIM_HOT_OP=TYPE          operator TYPE takes 60 % of the compute time
  MSPROF_SIM_HOST_BOUND=1         host launch gaps: Free is about 20 % of each step
  MSPROF_SIM_AICPU_US=N           an AI_CPU task (NonZero) of N us in every step
  MSPROF_SIM_DYNAMIC_OP=TYPE      operator TYPE is compiled again and again: its Input Shapes change every
                                  step, and api_statistic.csv shows aclopCompileAndExecute and opCompile
                                  (every aclnn kernel's OP State is "dynamic" anyway, as in real data)
  MSPROF_SIM_LOW_PIPE_OP=TYPE     operator TYPE keeps every pipe ratio low (under 0.1)
  MSPROF_SIM_SMALL_PACKETS=1      collectives move 2 MB (on node) / 0.5 MB (RDMA) packets
  MSPROF_SIM_OLD_STEP_TRACE=1     step_trace_time.csv without Device_id and Preparing (older torch_npu)
  MSPROF_SIM_EXPOSED_COMM=1       the gradient all-reduce waits for the end of the backward pass (no
                                  --overlap-grad-reduce): about 20 % of the step is exposed communication
  MSPROF_SIM_BUBBLE=1             pp > 1: pipeline fill and drain, each rank waits about 30 % of the step
                                  to receive from its neighbour stages (Bubble)
  MSPROF_SIM_UNFUSED=FORMS        the unfused kernels of FORMS (comma-separated: attention, rmsnorm,
                                  rotary, swiglu, or all) instead of MindSpeed's fused ones
  MSPROF_SIM_MEM_PEAK=PCT         memory_record.csv: the process's peak at PCT % of the 64 GB device (60)
  MSPROF_SIM_BUBBLE_SHARE=X       the Bubble's share of the nominal step with MSPROF_SIM_BUBBLE (0.30)
  MSPROF_SIM_SLOWDOWN=X           every rank computes X times as long (1.0)
  MSPROF_SIM_JITTER=X             each compute phase varies by up to X of its length, step to step (0)
  MSPROF_SIM_HOST_GAP=X           with MSPROF_SIM_HOST_BOUND: the launch gaps are X times as long (1.0)
  MSPROF_SIM_MEM_EXPANDABLE=1     memory_record.csv: the caching allocator grows expandable segments,
                                  its reserved memory (and the process's) close to the allocated
  (the five above are set by a training in MSPROF_SIM_RESPOND mode: respond.py)
  ASCEND_LAUNCH_BLOCKING=1        torch_npu's own variable: every launch waits for its kernel, the host
                                  gaps grow (Free about 30 %)
Without a knob the data is healthy: rank spread under 1 % of the step, wait
ratios under 0.1, Free about 3 %, no AI_CPU task of 20 us, no recompiled operator,
HCCS/SDMA packets of at least 16 MB, exposed communication and Bubble under
5 % of the step, fused kernels, a memory peak at 60 % of the device."""

import json
import os
import random
import re

# --------------------------------------------------------------------- headers
# the columns and their order are those of real torch_npu output (t/data/real, msinsight 2024 and 2025):
# no Device_id column there, though torch_npu's master adds one to some files
STEP_TRACE_HEADERS = ["Step", "Computing", "Communication(Not Overlapped)", "Overlapped",
                      "Communication", "Free", "Stage", "Bubble",
                      "Communication(Not Overlapped and Exclude Receive)", "Preparing"]
# level0: torch_npu's fixed "show" headers, renamed; Type N/A, Accelerator Core N/A (HCCL for
# communication), Block Dim 0, and no shape columns even with record_shapes
KERNEL_BASE = ["Name", "Type", "Accelerator Core", "Start Time(us)", "Duration(us)",
               "Wait Time(us)", "Block Dim"]
SHAPE_HEADERS = ["Input Shapes", "Input Data Types", "Input Formats", "Output Shapes",
                 "Output Data Types", "Output Formats"]
# level1/2: every column of CANN 8.0's op_summary, the first ones renamed by torch_npu
KERNEL_FULL = ["Model ID", "Task ID", "Stream ID", "Name", "Type", "OP State",
               "Accelerator Core", "Start Time(us)", "Duration(us)", "Wait Time(us)", "Block Dim",
               "Mix Block Dim", "HF32 Eligible"] + SHAPE_HEADERS + ["Context ID"]
AIC_PIPE = ["aicore_time(us)", "aic_total_cycles", "aic_mac_time(us)", "aic_mac_ratio",
            "aic_scalar_time(us)", "aic_scalar_ratio", "aic_mte1_time(us)", "aic_mte1_ratio",
            "aic_mte2_time(us)", "aic_mte2_ratio", "aic_fixpipe_time(us)", "aic_fixpipe_ratio",
            "aic_icache_miss_rate", "aiv_time(us)", "aiv_total_cycles", "aiv_vec_time(us)", "aiv_vec_ratio",
            "aiv_scalar_time(us)", "aiv_scalar_ratio", "aiv_mte2_time(us)", "aiv_mte2_ratio",
            "aiv_mte3_time(us)", "aiv_mte3_ratio", "aiv_icache_miss_rate", "cube_utilization(%)"]
AIC_ARITH = ["aicore_time(us)", "aic_total_cycles", "aic_mac_fp16_ratio", "aic_mac_int8_ratio",
             "aic_cube_fops", "aic_vector_fops", "aiv_time(us)", "aiv_total_cycles", "aiv_vec_fp32_ratio",
             "aiv_vec_fp16_ratio", "aiv_vec_int32_ratio", "aiv_vec_misc_ratio", "aiv_cube_fops",
             "aiv_vector_fops"]
OP_STAT_HEADERS = ["OP Type", "Core Type", "Count", "Total Time(us)", "Min Time(us)",
                   "Avg Time(us)", "Max Time(us)", "Ratio(%)"]
TRANSPORTS = ("RDMA", "HCCS", "PCIE", "SDMA", "SIO")
# torch_npu's MemoryViewParser.HEADERS_RECORD (memory_record.csv, profile_memory)
MEMORY_RECORD_HEADERS = ["Component", "Timestamp(us)", "Total Allocated(MB)", "Total Reserved(MB)",
                         "Total Active(MB)", "Stream Ptr", "Device Type"]
# the variables torch_npu's collect_env_vars() puts in profiler_metadata.json (text export)
ENV_IN_METADATA = ("ASCEND_GLOBAL_LOG_LEVEL", "HCCL_RDMA_TC", "HCCL_RDMA_SL", "ACLNN_CACHE_LIMIT",
                   "HOST_CACHE_CAPACITY", "ASCEND_ENHANCE_ENABLE", "PYTORCH_NPU_ALLOC_CONF",
                   "ASCEND_LAUNCH_BLOCKING", "HCCL_ALGO")

# analysis.db, column names and types as torch_npu's TableColumnsManager declares them
DB_TABLES = {
    "StepTraceTime": [("step", "TEXT"), ("computing", "NUMERIC"), ("communication_not_overlapped", "NUMERIC"),
                      ("overlapped", "NUMERIC"), ("communication", "NUMERIC"), ("free", "NUMERIC"),
                      ("stage", "NUMERIC"), ("bubble", "NUMERIC"),
                      ("communication_not_overlapped_and_exclude_receive", "NUMERIC"), ("preparing", "NUMERIC")],
    "CommAnalyzerTime": [("hccl_op_name", "TEXT"), ("group_name", "TEXT"), ("start_timestamp", "NUMERIC"),
                         ("elapse_time", "NUMERIC"), ("transit_time", "NUMERIC"), ("wait_time", "NUMERIC"),
                         ("synchronization_time", "NUMERIC"), ("idle_time", "NUMERIC"), ("step", "TEXT"),
                         ("type", "TEXT")],
    "CommAnalyzerBandwidth": [("hccl_op_name", "TEXT"), ("group_name", "TEXT"), ("transport_type", "TEXT"),
                              ("transit_size", "NUMERIC"), ("transit_time", "NUMERIC"), ("bandwidth", "NUMERIC"),
                              ("large_packet_ratio", "NUMERIC"), ("package_size", "NUMERIC"), ("count", "NUMERIC"),
                              ("total_duration", "NUMERIC"), ("step", "TEXT"), ("type", "TEXT")],
    "CommAnalyzerMatrix": [("hccl_op_name", "TEXT"), ("group_name", "TEXT"), ("src_rank", "TEXT"),
                           ("dst_rank", "TEXT"), ("transport_type", "TEXT"), ("transit_size", "NUMERIC"),
                           ("transit_time", "NUMERIC"), ("bandwidth", "NUMERIC"), ("step", "TEXT"), ("type", "TEXT"),
                           ("op_name", "TEXT")],
}

# ------------------------------------------------------------------ the model
# Operator templates: (type, accelerator core, weight, input shapes).  The name is
# aclnn's "aclnn<Api>_<Kernel>_<Type>".  Weights are shares of a compute phase.
_OPS = {
    "GatherV2": ("aclnnEmbedding_GatherV2AiCore_GatherV2", "AI_VECTOR_CORE", "151936,4096;1,4096"),
    "RmsNorm": ("aclnnRmsNorm_RmsNorm_RmsNorm", "AI_VECTOR_CORE", "4096,1,4096;4096"),
    "MatMulV2": ("aclnnMatmul_MatMulCommon_MatMulV2", "AI_CORE", "4096,4096;4096,6144"),
    "FlashAttentionScore": ("aclnnFlashAttentionScore_FlashAttentionScore_FlashAttentionScore", "MIX_AIC",
                            "4096,1,4096;4096,1,1024;4096,1,1024"),
    "Add": ("aclnnAdd_AddAiCore_Add", "AI_VECTOR_CORE", "4096,1,4096;4096,1,4096"),
    "SwiGlu": ("aclnnSwiGlu_SwiGlu_SwiGlu", "AI_VECTOR_CORE", "4096,1,24576"),
    "BatchMatMulV2": ("aclnnBatchMatMul_BatchMatMulV2_BatchMatMulV2", "AI_CORE", "4096,1,12288;12288,4096"),
    "SwiGluGrad": ("aclnnSwiGluGrad_SwiGluGrad_SwiGluGrad", "AI_VECTOR_CORE", "4096,1,12288;4096,1,24576"),
    "FlashAttentionScoreGrad": ("aclnnFlashAttentionScoreGrad_FlashAttentionScoreGrad_FlashAttentionScoreGrad",
                                "MIX_AIC", "4096,1,4096;4096,1,1024;4096,1,1024"),
    "RmsNormGrad": ("aclnnRmsNormGrad_RmsNormGrad_RmsNormGrad", "AI_VECTOR_CORE", "4096,1,4096;4096,1,4096"),
    "Cast": ("aclnnCast_CastAiCore_Cast", "AI_VECTOR_CORE", "4096,4096"),
    "Axpy": ("aclnnInplaceAdd_AxpyAiCore_Axpy", "AI_VECTOR_CORE", "4096,4096;4096,4096"),
    "ApplyAdamWV2": ("aclnnAdamW_ApplyAdamWV2AiCore_ApplyAdamWV2", "AI_VECTOR_CORE", "4096,4096"),
    "NonZero": ("aclnnNonzero_NonzeroAiCpu_NonZero", "AI_CPU", "4096"),
    # the unfused forms (MSPROF_SIM_UNFUSED): each aclnn API's kernel as CANN names it
    "SoftmaxV2": ("aclnnSoftmax_SoftmaxV2AiCore_SoftmaxV2", "AI_VECTOR_CORE", "1,32,4096,4096"),
    "SoftmaxGrad": ("aclnnSoftmaxBackward_SoftmaxGradAiCore_SoftmaxGrad", "AI_VECTOR_CORE",
                    "1,32,4096,4096;1,32,4096,4096"),
    "Pow": ("aclnnPowTensorScalar_PowAiCore_Pow", "AI_VECTOR_CORE", "4096,1,4096"),
    "ReduceMean": ("aclnnMean_ReduceMeanAiCore_ReduceMean", "AI_VECTOR_CORE", "4096,1,4096"),
    "Rsqrt": ("aclnnRsqrt_RsqrtAiCore_Rsqrt", "AI_VECTOR_CORE", "4096,1,1"),
    "Mul": ("aclnnMul_MulAiCore_Mul", "AI_VECTOR_CORE", "4096,1,4096;4096,1,4096"),
    "Swish": ("aclnnSilu_SwishAiCore_Swish", "AI_VECTOR_CORE", "4096,1,12288"),
    "SiluGrad": ("aclnnSiluBackward_SiluGradAiCore_SiluGrad", "AI_VECTOR_CORE", "4096,1,12288;4096,1,12288"),
    "Neg": ("aclnnNeg_NegAiCore_Neg", "AI_VECTOR_CORE", "4096,1,32,64"),
    "ConcatD": ("aclnnCat_ConcatDAiCore_ConcatD", "AI_VECTOR_CORE", "4096,1,32,64;4096,1,32,64"),
}
# what MSPROF_SIM_UNFUSED puts in place of a fused kernel, and with what share of its weight
_UNFUSED = {
    "attention": {"FlashAttentionScore": [("BatchMatMulV2", 0.6), ("SoftmaxV2", 0.4)],
                  "FlashAttentionScoreGrad": [("BatchMatMulV2", 0.6), ("SoftmaxGrad", 0.4)]},
    "rmsnorm": {"RmsNorm": [("Pow", 0.3), ("ReduceMean", 0.2), ("Rsqrt", 0.1), ("Mul", 0.4)],
                "RmsNormGrad": [("Mul", 0.6), ("ReduceMean", 0.4)]},
    "swiglu": {"SwiGlu": [("Swish", 0.6), ("Mul", 0.4)],
               "SwiGluGrad": [("SiluGrad", 0.6), ("Mul", 0.4)]},
    # rotate_half of rotary embedding: (t * cos) + (cat(-t2, t1) * sin), before attention
    "rotary": {"FlashAttentionScore": [("Neg", 0.05), ("ConcatD", 0.05), ("Mul", 0.1), (None, 0.8)]},
}
UNFUSED_FORMS = ("attention", "rmsnorm", "rotary", "swiglu")
# phase: (share of the step's compute, [(type, weight)])
_PHASES = [
    ("fwd", 0.30, [("GatherV2", 2), ("RmsNorm", 4), ("MatMulV2", 12), ("FlashAttentionScore", 16), ("Add", 3),
                   ("RmsNorm", 4), ("MatMulV2", 12), ("SwiGlu", 10), ("BatchMatMulV2", 12), ("Add", 3)]),
    ("bwd1", 0.35, [("BatchMatMulV2", 14), ("SwiGluGrad", 12), ("MatMulV2", 14), ("FlashAttentionScoreGrad", 30),
                    ("RmsNormGrad", 6), ("Add", 4)]),
    ("bwd2", 0.20, [("MatMulV2", 14), ("BatchMatMulV2", 14), ("RmsNormGrad", 6), ("Cast", 6)]),
    ("opt", 0.15, [("Cast", 6), ("Axpy", 8), ("ApplyAdamWV2", 20)]),
]
DEFAULT_KERNELS_PER_STEP = 32
CORES = {"AI_CORE": 24, "MIX_AIC": 24, "AI_VECTOR_CORE": 48, "AI_CPU": 0, "HCCL": 0}
# nominal link bandwidths, GB/s (= MB/ms)
BANDWIDTH = {"HCCS": 25.0, "RDMA": 12.0}
# per-link volume of one collective, MB: the gradients' (dp) and tensor-parallel all-reduces stay
# >= 16 MB; the world all-reduce (loss, gradient norm) is small and a small part of the volume,
# so healthy data has no small packets and, at any step time, little exposed communication
# (in MB of 10^6 bytes, as torch_npu counts them; each a whole number of MiB, so that every
# transfer is a multiple of 512 bytes, as real ones are: msprof-analyze's byte-alignment check)
_MIB = 1.048576
_COLL = {"world": ("hcom_allReduce_", 6 * _MIB), "dp": ("hcom_allReduce_", 60 * _MIB),
         "tp": ("hcom_allReduce_", 18 * _MIB),
         "pp": ("hcom_send_", 18 * _MIB)}
SLOW_RANK_FACTOR = 1.30
SLOW_LINK_FACTOR = 0.10
HOT_SHARE = 0.60
EXPOSED_SHARE = 0.20     # MSPROF_SIM_EXPOSED_COMM: the gradient all-reduce, of the nominal step
BUBBLE_SHARE = 0.30      # MSPROF_SIM_BUBBLE: fill and drain waits, of the nominal step
DEVICE_MB = 65536        # the HBM of the simulated 910B3, as npu-smi shows it
# the simulated 910B3 as its info.json.N describes it: 20 AI cores at 1800 MHz, each
# cube a 16 x 16 x 16 multiply-add (2 FLOPs) a cycle in fp16/bf16
AI_CORES = 20
AIC_MHZ = 1800
PEAK_FLOPS = AI_CORES * AIC_MHZ * 1e6 * 16 * 16 * 16 * 2
DEFAULT_MFU = 0.54       # MSPROF_SIM_MFU: what a healthy MindSpeed-LLM job reaches


def _env_int(env, name, default):
    try:
        return int(env.get(name, "").strip())
    except ValueError:
        return default


def _env_float(env, name, default):
    try:
        v = float(env.get(name, "").strip())
    except ValueError:
        return default
    return v if v >= 0 else default


class Knobs:
    def __init__(self, seed=1, kernels_per_step=DEFAULT_KERNELS_PER_STEP, ranks_per_node=8, slow_rank=None,
                 slow_link=None, hot_op=None, host_bound=False, aicpu_us=None, dynamic_op=None,
                 low_pipe_op=None, small_packets=False, old_step_trace=False, exposed_comm=False,
                 bubble=False, unfused=(), mem_peak_pct=60.0, launch_blocking=False,
                 bubble_share=BUBBLE_SHARE, slowdown=1.0, jitter=0.0, host_gap=1.0,
                 mem_expandable=False):
        self.seed = seed
        self.kernels_per_step = max(kernels_per_step, 1)
        self.ranks_per_node = max(ranks_per_node, 1)
        self.slow_rank = slow_rank
        self.slow_link = slow_link
        self.hot_op = hot_op
        self.host_bound = host_bound
        self.aicpu_us = aicpu_us
        self.dynamic_op = dynamic_op
        self.low_pipe_op = low_pipe_op
        self.small_packets = small_packets
        self.old_step_trace = old_step_trace
        self.exposed_comm = exposed_comm
        self.bubble = bubble
        self.unfused = tuple(unfused)
        self.mem_peak_pct = mem_peak_pct
        self.launch_blocking = launch_blocking
        self.bubble_share = bubble_share
        self.slowdown = slowdown
        self.jitter = jitter
        self.host_gap = host_gap
        self.mem_expandable = mem_expandable

    @classmethod
    def from_env(cls, env=None):
        env = os.environ if env is None else env
        link = None
        text = env.get("MSPROF_SIM_SLOW_LINK", "").strip()
        if text:
            src, _sep, dst = text.partition("-")
            if src.strip().isdigit() and dst.strip().isdigit():
                link = (int(src), int(dst))
        slow = env.get("MSPROF_SIM_SLOW_RANK", "").strip()
        forms = [f.strip() for f in env.get("MSPROF_SIM_UNFUSED", "").split(",") if f.strip()]
        if "all" in forms:
            forms = list(UNFUSED_FORMS)
        try:
            peak = float(env.get("MSPROF_SIM_MEM_PEAK", "60").strip())
        except ValueError:
            peak = 60.0
        return cls(seed=_env_int(env, "MSPROF_SIM_SEED", 1),
                   kernels_per_step=_env_int(env, "MSPROF_SIM_KERNELS_PER_STEP", DEFAULT_KERNELS_PER_STEP),
                   ranks_per_node=_env_int(env, "MSPROF_SIM_RANKS_PER_NODE", 8),
                   slow_rank=int(slow) if slow.isdigit() else None, slow_link=link,
                   hot_op=env.get("MSPROF_SIM_HOT_OP", "").strip() or None,
                   host_bound=env.get("MSPROF_SIM_HOST_BOUND", "").strip() not in ("", "0"),
                   aicpu_us=_env_int(env, "MSPROF_SIM_AICPU_US", 0) or None,
                   dynamic_op=env.get("MSPROF_SIM_DYNAMIC_OP", "").strip() or None,
                   low_pipe_op=env.get("MSPROF_SIM_LOW_PIPE_OP", "").strip() or None,
                   small_packets=env.get("MSPROF_SIM_SMALL_PACKETS", "").strip() not in ("", "0"),
                   old_step_trace=env.get("MSPROF_SIM_OLD_STEP_TRACE", "").strip() not in ("", "0"),
                   exposed_comm=env.get("MSPROF_SIM_EXPOSED_COMM", "").strip() not in ("", "0"),
                   bubble=env.get("MSPROF_SIM_BUBBLE", "").strip() not in ("", "0"),
                   unfused=[f for f in UNFUSED_FORMS if f in forms], mem_peak_pct=peak,
                   launch_blocking=env.get("ASCEND_LAUNCH_BLOCKING", "").strip() == "1",
                   bubble_share=_env_float(env, "MSPROF_SIM_BUBBLE_SHARE", BUBBLE_SHARE),
                   slowdown=_env_float(env, "MSPROF_SIM_SLOWDOWN", 1.0),
                   jitter=_env_float(env, "MSPROF_SIM_JITTER", 0.0),
                   host_gap=_env_float(env, "MSPROF_SIM_HOST_GAP", 1.0),
                   mem_expandable=env.get("MSPROF_SIM_MEM_EXPANDABLE", "").strip() not in ("", "0"))


def group_hash(name):
    """The "@<group>" suffix HCCL gives an operator: two rolling hashes of the
    communicator name (x29 and x131, mod 2^32) joined as (h1 << 32) | h2."""
    h1 = h2 = 0
    for ch in name:
        h1 = (h1 * 29 + ord(ch)) & 0xFFFFFFFF
        h2 = (h2 * 131 + ord(ch)) & 0xFFFFFFFF
    return str((h1 << 32) | h2)


class Group:
    def __init__(self, kind, index, members, seed):
        self.kind = kind            # world, dp, tp, pp
        self.members = members      # global ranks, in group-rank order
        self.comm_name = "127.0.0.1%%enp189s0f0_60000_%d_%d" % (index, 1700000000000000 + seed)
        self.hash = group_hash(self.comm_name)
        self.label = {"world": "hccl_world_group"}.get(kind, kind)


class Layout:
    """Megatron's rank order: tensor parallel fastest, then context, data, pipeline."""

    def __init__(self, world, tp=1, pp=1, cp=1, ep=1, seed=1):
        world = max(int(world or 1), 1)
        tp, pp, cp = max(int(tp or 1), 1), max(int(pp or 1), 1), max(int(cp or 1), 1)
        if world % (tp * pp * cp):
            tp = pp = cp = 1
        self.world, self.tp, self.pp, self.cp, self.ep = world, tp, pp, cp, max(int(ep or 1), 1)
        self.dp = world // (tp * pp * cp)
        self.groups = []
        index = 0

        def add(kind, members):
            nonlocal index
            self.groups.append(Group(kind, index, members, seed))
            index += 1
        if world > 1:
            add("world", list(range(world)))
        if self.dp > 1:
            for p in range(pp):
                for c in range(cp):
                    for t in range(tp):
                        add("dp", [self.rank_of(t, c, d, p) for d in range(self.dp)])
        if tp > 1:
            for p in range(pp):
                for d in range(self.dp):
                    for c in range(cp):
                        add("tp", [self.rank_of(t, c, d, p) for t in range(tp)])
        if pp > 1:
            for d in range(self.dp):
                for c in range(cp):
                    for t in range(tp):
                        for p in range(pp - 1):
                            add("pp", [self.rank_of(t, c, d, p), self.rank_of(t, c, d, p + 1)])

    @classmethod
    def from_args(cls, args, world, seed=1):
        args = args or {}
        return cls(args.get("world_size") or world, args.get("tensor_model_parallel_size"),
                   args.get("pipeline_model_parallel_size"), args.get("context_parallel_size"),
                   args.get("expert_model_parallel_size"), seed)

    def rank_of(self, t, c, d, p):
        return t + self.tp * (c + self.cp * (d + self.dp * p))

    def stage(self, rank):
        return rank // (self.tp * self.cp * self.dp)

    def distributed_args(self, rank):
        return {"tensor_model_parallel_size": self.tp, "pipeline_model_parallel_size": self.pp,
                "data_parallel_size": self.dp, "context_parallel_size": self.cp,
                "expert_model_parallel_size": self.ep, "sequence_parallel": False,
                "rank": rank, "world_size": self.world}

    def parallel_group_info(self, rank):
        """profiler_metadata.json's parallel_group_info: the groups this rank is in."""
        out = {}
        for g in self.groups:
            if rank in g.members:
                out[g.comm_name] = {"group_name": g.label, "group_rank": g.members.index(rank),
                                    "global_ranks": list(g.members)}
        return out


class Op:
    """One collective (or one side of a send/receive) as one rank saw it."""
    __slots__ = ("group", "kind", "name", "p2p", "recv", "start", "end", "wait", "sync", "transit", "idle",
                 "links")


def _rnd(seed, rank, step, salt):
    return random.Random(((seed * 1000003 + rank) * 7919 + step) * 31 + salt)


class Job:
    """The model of every rank in one step: compute phases with jitter, blocking
    collectives in which everyone waits for the last arrival, one data-parallel
    all-reduce overlapped with the backward pass, pipeline sends."""

    def __init__(self, layout, knobs, step_us):
        self.layout = layout
        self.knobs = knobs
        self.step_us = max(float(step_us), 5000.0)
        self._cache = {}
        self.link_bw = {}
        self.plan, self.ops_table = _kernel_plan(knobs)
        self.shares = {p: s for p, s, _ops in self.plan}

    def transport(self, src, dst):
        n = self.knobs.ranks_per_node
        return "HCCS" if src // n == dst // n else "RDMA"

    def bandwidth(self, src, dst):
        key = (src, dst)
        bw = self.link_bw.get(key)
        if bw is None:
            tt = self.transport(src, dst)
            jitter = _rnd(self.knobs.seed, src, dst, 77).uniform(0.99, 1.01)
            bw = BANDWIDTH[tt] * jitter
            if self.knobs.slow_link == key:
                bw = BANDWIDTH[tt] * SLOW_LINK_FACTOR
            self.link_bw[key] = bw
        return bw

    def links(self, group, rank):
        """The peers a member sends to: all of a small group; in a large one the
        members on its node (HCCS mesh) and the same device of the next and the
        previous node (RDMA ring), as HCCL's hierarchical algorithms do, or its
        ring neighbours when neither is in the group."""
        m = group.members
        if len(m) <= 16:
            return [p for p in m if p != rank]
        n = self.knobs.ranks_per_node
        members = set(m)
        near = {p for p in m if p // n == rank // n} | ({rank + n, rank - n} & members)
        if len(near) <= 1:
            i = m.index(rank)
            near |= {m[(i + 1) % len(m)], m[(i - 1) % len(m)]}
        near.discard(rank)
        return sorted(near)

    def compute_us(self, rank, step):
        c = 0.70 * self.step_us * (self.knobs.slowdown or 1.0)
        if self.knobs.slow_rank == rank:
            c *= SLOW_RANK_FACTOR
        return c

    def step(self, k):
        if k not in self._cache:
            if len(self._cache) > 64:
                self._cache.clear()
            self._cache[k] = self._simulate(k)
        return self._cache[k]

    def _simulate(self, k):
        lay, W = self.layout, self.layout.world
        # ASCEND_LAUNCH_BLOCKING=1: every launch waits for its kernel, the host gaps grow
        gap = (0.08 if self.knobs.launch_blocking else 0.05 if self.knobs.host_bound else 0.004) * self.step_us
        if self.knobs.host_bound and not self.knobs.launch_blocking:
            gap *= self.knobs.host_gap
        t = [0.0] * W
        comp = [[] for _ in range(W)]      # (phase, start, end)
        ops = [[] for _ in range(W)]
        seq = {}
        by_kind = {}
        for g in lay.groups:
            by_kind.setdefault(g.kind, []).append(g)
        cus = [self.compute_us(r, k) for r in range(W)]
        if self.knobs.jitter:
            # the whole job's step varies (data, clocks), every rank alike
            scale = 1.0 + _rnd(self.knobs.seed, 0, _num(k), 5).uniform(-self.knobs.jitter, self.knobs.jitter)
            cus = [c * scale for c in cus]
        # jitter is absolute (+-1 us per phase, 0-20 us at each launch), so
        # healthy wait ratios stay small at any step time
        rnds = [_rnd(self.knobs.seed, r, _num(k), 1) for r in range(W)]
        first_gap = (0.05 * self.knobs.host_gap if self.knobs.host_bound else 0.01) * self.step_us
        for r in range(W):
            t[r] = first_gap

        def compute(phase, share):
            for r in range(W):
                t[r] += gap
                d = cus[r] * share + rnds[r].uniform(-1.0, 1.0)
                comp[r].append((phase, t[r], t[r] + d))
                t[r] += d

        def collective(g, blocking=True, p2p=False, at=None, size=None, receiver=1):
            """One collective of group g; members arrive at their t (or at[m]).
            SIZE (MB per link) overrides the group kind's; in a send/receive
            pair the member RECEIVER receives."""
            at = t if at is None else at
            name_t, kind_size = _COLL[g.kind]
            size = kind_size if size is None else size
            # HCCL numbers a group's operators through the whole run
            n = seq.get(g.hash, max(_num(k), 0) * 8) + 1
            seq[g.hash] = n
            # launch jitter: the members' offsets are an even 0-20 us grid in a
            # random order, so someone different is last each time but, in
            # healthy data, never an outlier (Dixon's Q stays 1/(n-1))
            order = random.Random("%d/%s/%d" % (self.knobs.seed, g.hash, n)).sample(g.members, len(g.members))
            step_us = 20.0 / max(len(order) - 1, 1)
            arrive = {m: at[m] + i * step_us for i, m in enumerate(order)}
            last = max(arrive.values())
            transit = 0.0
            per_rank_links = {}
            for m in g.members:
                ls = []
                for p in self.links(g, m):
                    bw = self.bandwidth(m, p)
                    tt = self.transport(m, p)
                    ls.append((p, tt, size, size / bw))
                    # the time follows the nominal bandwidth (the +-1 % of a link shows
                    # in its figures only), so groups of one kind take equally long
                    # and healthy arrivals stay without outliers; a slow link counts
                    nominal = bw if self.knobs.slow_link == (m, p) else BANDWIDTH[tt]
                    transit = max(transit, size / nominal * 1000.0)
                per_rank_links[m] = ls
            hand = 0.01 * transit
            idle = 0.02 * transit
            end = last + hand + transit + idle
            for i, m in enumerate(g.members):
                op = Op()
                op.group = g
                op.kind = g.kind
                op.p2p = p2p
                op.recv = p2p and i == receiver
                tname = ("hcom_receive_" if op.recv else name_t)
                op.name = "%s_%s_%d_1" % (tname, g.hash[-3:], n)
                op.start = arrive[m]
                op.end = end
                op.sync = last - arrive[m]
                op.wait = op.sync + hand
                op.transit = transit
                op.idle = idle
                op.links = [] if op.recv else per_rank_links[m]
                ops[m].append(op)
                if blocking:
                    t[m] = end
            return end

        if self.knobs.bubble:
            self._fill(by_kind.get("pp", []), collective, t)
        compute("fwd", self.shares["fwd"])
        for g in by_kind.get("tp", []):
            collective(g)
        # pipeline sends and receives of all stages at once (steady 1F1B): a
        # stage waits for its neighbours, not for the whole chain before it
        snap = list(t)
        p2p_end = {}
        for g in by_kind.get("pp", []):
            end = collective(g, blocking=False, p2p=True, at=snap)
            for m in g.members:
                p2p_end[m] = max(p2p_end.get(m, 0.0), end)
        # with the fill of MSPROF_SIM_BUBBLE the stages run offset: their sends
        # and receives then overlap the other stages' work
        for m, end in p2p_end.items() if not self.knobs.bubble else ():
            t[m] = max(t[m], end)
        pending = {}
        if not self.knobs.exposed_comm:
            # --overlap-grad-reduce: the gradients are reduced bucket by bucket
            # while the backward pass goes on
            for g in by_kind.get("dp", []):
                end = collective(g, blocking=False)
                for m in g.members:
                    pending[m] = end
        compute("bwd1", self.shares["bwd1"])
        for g in by_kind.get("tp", []):
            collective(g)
        compute("bwd2", self.shares["bwd2"])
        if self.knobs.exposed_comm:
            # no overlap: the gradients are reduced once the backward pass is over
            for g in by_kind.get("dp", []) or by_kind.get("world", []):
                size = EXPOSED_SHARE * self.step_us / 1000.0 * self.slowest_bw(g)
                collective(g, size=round(size * 1e6 / 512) * 512 / 1e6)
        if self.knobs.bubble:
            self._drain(by_kind.get("pp", []), collective, t)
        for m, end in pending.items():
            t[m] = max(t[m], end)
        for g in by_kind.get("world", []):
            collective(g)
        compute("opt", self.shares["opt"])
        # the ranks move in lockstep: the next step starts when the last one is
        # done, so every rank's step lasts as long (an early rank's end is free)
        tail = 0.004 * self.step_us
        span = [max(t) + tail] * W
        return comp, ops, span


    def slowest_bw(self, g):
        """The nominal bandwidth of the slowest transport a group's links use."""
        return min(BANDWIDTH[self.transport(m, p)] for m in g.members for p in self.links(g, m))

    def _unit(self):
        return self.knobs.bubble_share * self.step_us / max(self.layout.pp - 1, 1)

    def _fill(self, pairs, collective, t):
        """Pipeline fill: stage p receives its first activations p units
        into the step, once the stages before it have run a micro-batch each."""
        snap = list(t)
        for g in pairs:
            send, recv = g.members
            at = list(snap)
            at[send] = snap[send] + self._unit() * self.layout.stage(recv)
            t[recv] = max(t[recv], collective(g, blocking=False, p2p=True, at=at))

    def _drain(self, pairs, collective, t):
        """Pipeline drain: stage p waits pp - 1 - p units for the gradients of
        the stages after it, so that every stage idles pp - 1 units a step
        (the 1F1B bubble with forward and backward units alike) and all end
        together."""
        snap = list(t)
        last = max(snap[m] for g in pairs for m in g.members) if pairs else 0.0
        for g in pairs:
            recv, send = g.members
            at = list(snap)
            at[send] = max(snap[send], last)
            t[recv] = max(t[recv], collective(g, blocking=False, p2p=True, at=at, receiver=0))


def nominal_for_step(layout, seed, step_us):
    """The nominal step time whose healthy job (no knob but the seed) lasts
    step_us a step: the span is affine in the nominal time (compute, gaps and
    the tail scale with it, the transfers do not), so two trials solve it."""
    def span(nominal):
        job = Job(layout, Knobs(seed=seed), nominal)
        return max(job.step(0)[2])
    a, b = step_us, 2.0 * step_us
    sa, sb = span(a), span(b)
    slope = (sb - sa) / (b - a)
    if slope <= 0:
        return step_us
    return max(a + (step_us - sa) / slope, 5000.0)


def model_step_us(flops, world, mfu=None, env=None):
    """The step, in us, a model of FLOPS per step takes on WORLD simulated 910B3s at
    MFU (MSPROF_SIM_MFU, default DEFAULT_MFU)."""
    if mfu is None:
        env = os.environ if env is None else env
        try:
            mfu = float(env.get("MSPROF_SIM_MFU", "").strip())
        except ValueError:
            mfu = DEFAULT_MFU
        if not 0 < mfu:
            mfu = DEFAULT_MFU
    return flops / max(world, 1) / (PEAK_FLOPS * mfu) * 1e6


def _union(iv):
    out = []
    for b, e in sorted(iv):
        if out and b <= out[-1][1]:
            out[-1][1] = max(out[-1][1], e)
        else:
            out.append([b, e])
    return out


def _length(iv):
    return sum((e - b for b, e in iv), 0.0)


def _intersect(a, b):
    i = j = 0
    total = 0.0
    while i < len(a) and j < len(b):
        lo, hi = max(a[i][0], b[j][0]), min(a[i][1], b[j][1])
        if hi > lo:
            total += hi - lo
        if a[i][1] < b[j][1]:
            i += 1
        else:
            j += 1
    return total


def _apply_unfused(phases, forms):
    """Each fused kernel of FORMS replaced by its unfused kernels, weights
    shared out as _UNFUSED says (None keeps the kernel itself)."""
    for form in ("rotary", "attention", "rmsnorm", "swiglu"):
        if form not in forms:
            continue
        rep = _UNFUSED[form]
        out = []
        for p, s, ops in phases:
            new = []
            for t, w in ops:
                new += [(t if r is None else r, w * f) for r, f in rep[t]] if t in rep else [(t, w)]
            out.append((p, s, new))
        phases = out
    return phases


def _kernel_plan(knobs):
    """[(phase, share of compute, [(type, weight)])], the hot operator and the kernel
    count applied, and the operator table {type: (name, core, shapes)}."""
    ops_table = dict(_OPS)
    phases = _apply_unfused([(p, s, list(ops)) for p, s, ops in _PHASES], knobs.unfused)
    hot = knobs.hot_op
    if hot:
        if hot not in ops_table:
            ops_table[hot] = ("aclnn%s_%s_%s" % (hot, hot, hot), "AI_CORE", "4096,4096;4096,4096")
            phases[1][2].append((hot, 1))
        # hot weights x a, the others x b, phase shares follow: the hot type ends at HOT_SHARE
        frac = [sum(w for t, w in ops if t == hot) / sum(w for _t, w in ops) for _p, _s, ops in phases]
        h = sum(s * f for (_p, s, _o), f in zip(phases, frac))
        a, b = HOT_SHARE / h, (1.0 - HOT_SHARE) / (1.0 - h)
        phases = [(p, s * (f * a + (1.0 - f) * b), [(t, w * (a if t == hot else b)) for t, w in ops])
                  for (p, s, ops), f in zip(phases, frac)]
    # n kernels in all, shared out by the phases' lengths (largest remainder), one at least each
    n = max(knobs.kernels_per_step, len(phases))
    base = sum(len(ops) for _p, _s, ops in phases)
    exact = [n * len(ops) / base for _p, _s, ops in phases]
    want = [max(1, int(x)) for x in exact]
    for i in sorted(range(len(phases)), key=lambda i: int(exact[i]) - exact[i])[:max(n - sum(want), 0)]:
        want[i] += 1
    plan = [(p, s, [ops[i % len(ops)] for i in range(w)]) for (p, s, ops), w in zip(phases, want)]
    return plan, ops_table


class RankData:
    """What one rank's parse writes: kernels, step rows and communication data."""

    def __init__(self, job, rank, device, steps, level="Level1", aic="ACL_AICORE_PIPE_UTILIZATION",
                 record_shapes=False, schedule_used=True):
        self.job = job
        self.rank = max(rank, 0)
        self.device = device
        self.steps = steps          # [(step id, begin us)]
        self.level = level
        self.aic = aic
        self.record_shapes = record_shapes
        self.schedule_used = schedule_used
        self.plan = job.plan
        self._rows = None

    # --------------------------------------------------------------- per step
    def step_rows(self):
        if self._rows is None:
            self._rows = [self._step_row(k, b) for k, b in self.steps]
        return self._rows

    def _step_row(self, k, begin):
        comp, ops, span = self.job.step(k)
        r = self.rank
        cu = _union([(b, e) for _p, b, e in comp[r]])
        comm_iv = _union([(o.start, o.end) for o in ops[r]])
        recv_iv = _union([(o.start, o.end) for o in ops[r] if o.recv])
        computing = _length(cu)
        communication = _length(comm_iv)
        overlapped = _intersect(comm_iv, cu)
        cno = communication - overlapped
        busy = _length(_union(cu + comm_iv))
        bubble = _length(recv_iv) - _intersect(recv_iv, cu)
        stage = span[r]
        return {"step": k, "begin": begin, "computing": computing, "cno": cno, "overlapped": overlapped,
                "comm": communication, "free": stage - busy, "stage": stage, "bubble": bubble,
                "cno_excl_recv": cno - bubble, "preparing": comp[r][0][1] if comp[r] else 0.0}

    def step_trace_table(self):
        """Step is empty for a collection without a schedule.  MSPROF_SIM_OLD_STEP_TRACE
        writes the older layout, without Preparing."""
        old = self.job.knobs.old_step_trace
        rows = []
        for s in self.step_rows():
            row = ["" if s["step"] is None else s["step"]] + [_r3(s[key]) for key in (
                "computing", "cno", "overlapped", "comm", "free", "stage", "bubble", "cno_excl_recv", "preparing")]
            rows.append(row[:-1] if old else row)
        return (STEP_TRACE_HEADERS[:-1] if old else STEP_TRACE_HEADERS), rows

    # ---------------------------------------------------------------- kernels
    def kernels(self):
        """Yields one dict per task, in time order within each step; only one
        step is held at a time, whatever MSPROF_SIM_KERNELS_PER_STEP is."""
        task = 0
        for k, begin in self.steps:
            comp, ops, _span = self.job.step(k)
            rnd = _rnd(self.job.knobs.seed, self.rank, _num(k), 5)
            events = []
            for (phase, b, e), (_p, _s, reps) in zip(comp[self.rank], self.plan):
                total_w = sum(w for _t, w in reps)
                t = b
                d_all = e - b
                for ty, w in reps:
                    d = d_all * w / total_w
                    events.append((t, d, ty, rnd))
                    t += d
            for op in ops[self.rank]:
                events.append((op.start, op.end - op.start, op, None))
            aicpu = self.job.knobs.aicpu_us
            if self.level == "Level2" or aicpu:
                # an AI_CPU task at the start of the optimizer phase: short (8-15 us)
                # unless MSPROF_SIM_AICPU_US asks for a long one
                ob = comp[self.rank][-1][1] if comp[self.rank] else 0.0
                events.append((ob, float(aicpu) if aicpu else rnd.uniform(8.0, 15.0), "NonZero", rnd))
            table = self.job.ops_table
            events.sort(key=lambda ev: ev[0])
            prev_end = {}
            for start, dur, what, r in events:
                task += 1
                if isinstance(what, Op):
                    name, typ, core, stream, shapes = what.name, what.name.rsplit("_", 3)[0], \
                        "HCCL", 7, ""
                else:
                    name, core, shapes = table[what]
                    typ = what
                    stream = 4 if core == "AI_CPU" else 2
                    dur = dur * r.uniform(0.995, 1.005)
                pe = prev_end.get(stream)
                wait = max(start - pe, 0.0) if pe is not None else 0.0
                prev_end[stream] = start + dur
                yield {"step": k, "name": name, "type": typ, "core": core, "start": begin + start, "dur": dur,
                       "wait": wait, "task": task, "stream": stream, "shapes": shapes,
                       "block": CORES.get(core, 0)}

    def kernel_headers(self):
        full = self.level in ("Level1", "Level2")
        headers = list(KERNEL_FULL) if full else list(KERNEL_BASE)
        if full:
            headers += AIC_ARITH if self.aic == "ACL_AICORE_ARITHMETIC_UTILIZATION" else \
                (AIC_PIPE if self.aic == "ACL_AICORE_PIPE_UTILIZATION" else [])
        if self.schedule_used:
            headers = ["Step Id"] + headers
        return headers

    def kernel_rows(self, stats=None):
        """kernel_details.csv rows as CSV lines (files reach GBs, so the constant
        part of each operator's row is formatted once).  With a dict in stats,
        the op_statistic figures are gathered on the way (computing kernels only:
        torch_npu's op_statistic has no HCCL row)."""
        full = self.level in ("Level1", "Level2")
        aic_cols = []
        if full:
            aic_cols = AIC_ARITH if self.aic == "ACL_AICORE_ARITHMETIC_UTILIZATION" else \
                (AIC_PIPE if self.aic == "ACL_AICORE_PIPE_UTILIZATION" else [])
        parts = {}
        pools = {}
        step = self.schedule_used
        dyn = self.job.knobs.dynamic_op
        for kn in self.kernels():
            # the dynamic-shape operator (MSPROF_SIM_DYNAMIC_OP) gets other input shapes every step
            variant = _num(kn["step"]) if kn["type"] == dyn else None
            key = (kn["name"], kn["core"], variant)
            part = parts.get(key)
            if part is None:
                part = parts[key] = self._row_parts(kn, full, variant)
            head, tail = part
            d3 = _r3(kn["dur"])
            # the start time ends in a tab, unquoted: torch_npu's csv module quotes no tab
            line = '%s%s,%.3f\t,%s,%s,%s' % ("%d," % kn["step"] if step else "",
                                             head % (kn["task"], kn["stream"]) if full and kn["core"] != "HCCL"
                                             else head, kn["start"], d3, _r3(kn["wait"]), tail)
            if stats is not None and kn["core"] != "HCCL":
                _accumulate(stats, (kn["type"], kn["core"]), d3)
            if aic_cols:
                pool = pools.get(kn["type"])
                if pool is None:
                    pool = pools[kn["type"]] = _aic_pool(aic_cols, kn["core"], self.job.knobs.seed, self.rank,
                                                         kn["type"], kn["type"] == self.job.knobs.low_pipe_op)
                template, fracs = pool[kn["task"] & 15]
                d = kn["dur"]
                line += template % tuple([d * f for f in fracs])
            yield line

    def _row_parts(self, kn, full, variant=None):
        """The cells around the start, duration and wait of one operator's rows, as
        real kernel_details.csv has them: every computing kernel's OP State is
        dynamic (aclnn operators), a communication task's cells are N/A, and at
        level0 Type and Accelerator Core are N/A (HCCL for communication) and
        Block Dim 0."""
        # CANN writes the shapes with their own quotes, so the CSV shows them triple-quoted
        sh = kn["shapes"]
        if sh and variant is not None:
            first, sep, rest = sh.partition(",")
            sh = "%d%s%s" % (max(int(first) - 128 * (variant % 8), 1), sep, rest)
        n = sh.count(";") + 1
        shape_vals = ['"%s"' % sh, ";".join(["BF16"] * n), ";".join(["FORMAT_ND"] * n), '"%s"' % sh.split(";")[0],
                      "BF16", "FORMAT_ND"] if sh else ["N/A"] * 6
        block = kn["block"]
        comm = kn["core"] == "HCCL"
        if not full:
            head = ",".join(_cell(v) for v in (kn["name"], "N/A", "HCCL" if comm else "N/A"))
            return head, "0"
        if comm:
            head = "4294967295,N/A,N/A," + ",".join(_cell(v) for v in (kn["name"], kn["type"], "N/A", kn["core"]))
            return head, ",".join(["0", "N/A", "N/A"] + ["N/A"] * 6 + ["N/A"])
        head = "4294967295,%d,%d," + ",".join(_cell(v) for v in (kn["name"], kn["type"], "dynamic",
                                                                   kn["core"])).replace("%", "%%")
        tail = [block, block if kn["core"] == "MIX_AIC" else 0, "NO"] + shape_vals + ["N/A"]
        return head, ",".join(_cell(v) for v in tail)

    def memory_record_table(self):
        """memory_record.csv: per step the caching allocator (PTA) and the whole
        process (APP, whose Total Reserved is the driver's count of the
        process's device memory); the process peaks at MSPROF_SIM_MEM_PEAK % of
        the device in the middle step.  With expandable segments the allocator
        keeps 5 % over what is allocated instead of 21 %, and the process
        reserves that much less."""
        peak = self.job.knobs.mem_peak_pct / 100.0 * DEVICE_MB
        reserved = 0.735 if self.job.knobs.mem_expandable else 0.85
        rows = []
        for i, (_k, begin) in enumerate(self.steps):
            base = peak * (1.0 if i == len(self.steps) // 2 else 0.97)
            app = base - (0.85 - reserved) * base
            ts = "%.3f\t" % (begin + 100.0)
            dev = "NPU:%d" % self.device
            rows.append(["PTA", ts, _r3(0.7 * base), _r3(reserved * base), _r3(0.7 * base), 187651256098816, dev])
            rows.append(["APP", ts, "", _r3(app), "", "", dev])
        return MEMORY_RECORD_HEADERS, rows

    def op_statistic_table(self, groups=None):
        """op_statistic.csv, from the figures kernel_rows gathered or a pass of its own."""
        if groups is None:
            groups = {}
            for kn in self.kernels():
                if kn["core"] != "HCCL":
                    _accumulate(groups, (kn["type"], kn["core"]), _r3(kn["dur"]))
        total = sum(g[1] for g in groups.values()) or 1.0
        rows = []
        for (typ, core), (cnt, tot, mn, mx) in sorted(groups.items(), key=lambda kv: -kv[1][1]):
            rows.append([typ, core, cnt, _r3(tot), _r3(mn), _r3(tot / cnt), _r3(mx),
                         _r3(100.0 * tot / total)])
        return OP_STAT_HEADERS, rows

    # ----------------------------------------------------------- communication
    def communication(self):
        """communication.json and communication_matrix.json of this rank (ms, MB)."""
        comm, matrix = {}, {}
        for k, begin in self.steps:
            _comp, ops, _span = self.job.step(k)
            mine = ops[self.rank]
            if not mine:
                continue
            sc = {"collective": {}, "p2p": {}}
            raw = {"collective": {}, "p2p": {}}
            for op in mine:
                kind = "p2p" if op.p2p else "collective"
                sc[kind]["%s@%s" % (op.name, op.group.hash)] = self._op_info(op, begin)
                raw[kind]["%s@%s" % (op.name, op.group.hash)] = {
                    "%d-%d" % (self.rank, p): {"Transport Type": tt, "Transit Size(MB)": _r4(size),
                                               "Transit Time(ms)": _r4(size / self.job.bandwidth(self.rank, p)),
                                               "Bandwidth(GB/s)": _r4(self.job.bandwidth(self.rank, p))}
                    for p, tt, size, _t in op.links}
            for kind in ("collective", "p2p"):
                if sc[kind]:
                    sc[kind]["Total Op Info"] = _total_info(sc[kind])
            comm[_step_key(k)] = sc
            matrix[_step_key(k)] = {kind: _integrate_matrix(raw[kind]) for kind in ("p2p", "collective")}
        return comm, matrix

    def _op_info(self, op, begin):
        elapse = (op.end - op.start) / 1000.0
        transit = op.transit / 1000.0
        wait = op.wait / 1000.0
        sync = op.sync / 1000.0
        bw = {}
        by_tt = {}
        for p, tt, size, t_ms in op.links:
            acc = by_tt.setdefault(tt, [0.0, 0.0, {}])
            acc[0] += size
            link_t = size / self.job.bandwidth(self.rank, p)
            acc[1] += link_t
            packet = size
            if self.job.knobs.small_packets:
                packet = 2 * _MIB if tt == "HCCS" else 0.5 * _MIB
            # to the byte, as torch_npu writes the sizes ("2.064384")
            d = acc[2].setdefault(round(packet, 6), [0, 0.0])
            d[0] += int(round(size / packet))
            d[1] += link_t
        for tt in TRANSPORTS:
            src = "HCCS" if tt == "SDMA" else tt     # SDMA sums the on-node transports
            acc = by_tt.get(src)
            if acc is None or tt == "SIO":
                bw[tt] = {"Transit Size(MB)": 0, "Transit Time(ms)": 0, "Bandwidth(GB/s)": 0,
                          "Large Packet Ratio": 0, "Size Distribution": {}}
                continue
            size, ttime, dist = acc
            large = sum(float(s) * c for s, (c, _t) in dist.items()
                        if float(s) >= (16.0 if src == "HCCS" else 1.0)) / size if size else 0.0
            bw[tt] = {"Transit Size(MB)": _r4(size), "Transit Time(ms)": _r4(ttime),
                      "Bandwidth(GB/s)": _r4(size / ttime) if ttime else 0,
                      "Large Packet Ratio": _r4(large) if tt != "SDMA" else 0,
                      "Size Distribution": {} if tt == "SDMA" else
                      {str(s): [c, _r4(t)] for s, (c, t) in dist.items()}}
        return {"Communication Time Info": {
            "Start Timestamp(us)": _r3(begin + op.start), "Elapse Time(ms)": _r4(elapse),
            "Transit Time(ms)": _r4(transit), "Wait Time(ms)": _r4(wait), "Synchronization Time(ms)": _r4(sync),
            "Idle Time(ms)": _r4(elapse - transit - wait),
            "Wait Time Ratio": _r4(wait / (wait + transit)) if wait + transit else 0,
            "Synchronization Time Ratio": _r4(sync / (sync + transit)) if sync + transit else 0},
            "Communication Bandwidth Info": bw}


def _accumulate(groups, key, d):
    g = groups.get(key)
    if g is None:
        groups[key] = [1, d, d, d]
    else:
        g[0] += 1
        g[1] += d
        if d < g[2]:
            g[2] = d
        if d > g[3]:
            g[3] = d


def _num(step):
    """A step id for seeds and numbering (a collection without steps is one, -1)."""
    return -1 if step is None else step


def _step_key(step):
    return "step" if step is None else "step%d" % step


def _total_info(ops):
    """The "Total Op Info" entry as torch_npu writes it: the times summed (no
    start), and per transport only time, size and the merged packet sizes (no
    bandwidth, no large-packet ratio; SDMA's distribution empty)."""
    keys = ("Elapse Time(ms)", "Transit Time(ms)", "Wait Time(ms)", "Synchronization Time(ms)", "Idle Time(ms)")
    t = dict((k, _r4(sum(o["Communication Time Info"][k] for o in ops.values()))) for k in keys)
    w, tr, s = t["Wait Time(ms)"], t["Transit Time(ms)"], t["Synchronization Time(ms)"]
    t["Wait Time Ratio"] = _r4(w / (w + tr)) if w + tr else 0
    t["Synchronization Time Ratio"] = _r4(s / (s + tr)) if s + tr else 0
    bw = {}
    for tt in TRANSPORTS:
        size = sum(o["Communication Bandwidth Info"][tt]["Transit Size(MB)"] for o in ops.values())
        ttime = sum(o["Communication Bandwidth Info"][tt]["Transit Time(ms)"] for o in ops.values())
        dist = {}
        for o in ops.values():
            for s_mb, (c, dt) in o["Communication Bandwidth Info"][tt]["Size Distribution"].items():
                d = dist.setdefault(s_mb, [0, 0.0])
                d[0] += c
                d[1] = _r4(d[1] + dt)
        bw[tt] = {"Transit Time(ms)": _r4(ttime), "Transit Size(MB)": _r4(size), "Size Distribution": dist}
    return {"Communication Time Info": t, "Communication Bandwidth Info": bw}


def _integrate_matrix(per_op):
    """torch_npu's matrix view: per operator type and group, each link's top1, middle,
    bottom1..3 record (by bandwidth) and the total."""
    by = {}
    for op_key, links in per_op.items():
        name, _sep, grp = op_key.partition("@")
        typ = name.split("__")[0].replace("hcom_", "").replace("_", "").lower()
        for link, data in links.items():
            rec = dict(data)
            rec["Op Name"] = name
            by.setdefault((typ, grp, link), []).append(rec)
    out = {}
    for (typ, grp, link), recs in by.items():
        recs.sort(key=lambda x: x["Bandwidth(GB/s)"], reverse=True)
        size = sum(x["Transit Size(MB)"] for x in recs)
        ttime = sum(x["Transit Time(ms)"] for x in recs)
        picks = [("top1", recs[0]), ("middle", recs[len(recs) // 2]), ("bottom1", recs[-1])]
        if len(recs) >= 2:
            picks.append(("bottom2", recs[-2]))
        if len(recs) >= 3:
            picks.append(("bottom3", recs[-3]))
        for tag, rec in picks:
            out.setdefault("%s-%s@%s" % (typ, tag, grp), {})[link] = rec
        out.setdefault("%s-total@%s" % (typ, grp), {})[link] = {
            "Transport Type": recs[0]["Transport Type"], "Transit Size(MB)": _r4(size),
            "Transit Time(ms)": _r4(ttime), "Bandwidth(GB/s)": _r4(size / ttime) if ttime else 0}
    return out


def _aic_pool(cols, core, seed, rank, typ, low=False):
    """16 variants of an operator's AI Core metric cells, each a format (",..."
    with %.3f for times and %d for cycles) and the factors of the duration that
    fill it."""
    if core in ("AI_CPU", "HCCL"):
        return [("," + ",".join(["N/A"] * len(cols)), [])] * 16
    pool = []
    for cells in _aic_cells(cols, core, seed, rank, typ, low):
        parts, factors = [], []
        for m, v in cells:
            if m == 0:
                parts.append(v.replace("%", "%%"))
            else:
                parts.append("%.3f" if m == 1 else "%d")
                factors.append(v)
        pool.append(("," + ",".join(parts), factors))
    return pool


def _aic_cells(cols, core, seed, rank, typ, low):
    """(0, text) for a fixed cell, (1, f) for a time f x duration, (2, f) for
    cycles f x duration."""
    cube = core in ("AI_CORE", "MIX_AIC")
    # random.uniform(a, b) is a + (b - a) * random(), written out: the same figures
    rand = random.Random("%d/%d/%s" % (seed, rank, typ)).random
    ranges = {"mac": (0.01, 0.08) if low else (0.62, 0.88), "ratio": (0.01, 0.08) if low else (0.02, 0.25),
              "cube": (2.0, 8.0) if low else (55.0, 85.0), "time": (0.05, 0.6)}
    kinds = []
    for k in _aic_kinds(tuple(cols), cube, core in ("AI_VECTOR_CORE", "MIX_AIC")):
        if type(k) is tuple:
            kinds.append(k)                 # a fixed cell
        else:
            a, b = ranges[k]
            kinds.append([k == "time", a, b - a])
    pool = []
    for _v in range(16):
        out = []
        for kind in kinds:
            if type(kind) is tuple:
                out.append(kind)
            elif kind[0]:
                out.append((1, kind[1] + kind[2] * rand()))
            else:
                out.append((0, str(round(kind[1] + kind[2] * rand(), 3))))
        pool.append(out)
    return pool


_AIC_KINDS = {}


def _aic_kinds(cols, cube, vec):
    """What each metric column of a core holds: a fixed cell (a tuple as
    _aic_cells gives it) or the kind of its random figure."""
    key = (cols, cube, vec)
    kinds = _AIC_KINDS.get(key)
    if kinds is not None:
        return kinds
    kinds = []
    for c in cols:
        side_ok = (c.startswith("aic") and cube) or (c.startswith("aiv") and vec) or \
            not c.startswith(("aic_", "aiv_", "aicore", "aiv_time"))
        if c.startswith("aicore_time") or c == "aiv_time(us)":
            kinds.append((1, 0.97) if side_ok else (0, "0"))
        elif "cycles" in c or "fops" in c:
            kinds.append((2, 1850 * 0.97) if side_ok else (0, "0"))
        elif not side_ok:
            kinds.append((0, "0"))
        elif c in ("aic_mac_ratio", "aiv_vec_ratio", "aic_mac_fp16_ratio", "aiv_vec_fp16_ratio"):
            kinds.append("mac")
        elif c.endswith("ratio") or c.endswith("rate"):
            kinds.append("ratio")
        elif c == "cube_utilization(%)":
            kinds.append("cube" if cube else (0, "0"))
        else:
            kinds.append("time")
    _AIC_KINDS[key] = kinds
    return kinds


def _r3(v):
    return round(v, 3)


def _r4(v):
    return round(v, 4)


# -------------------------------------------------------------------- writers
_SPECIAL = re.compile('[,"\r\n]')


def _cell(v):
    if type(v) is not str:
        return str(v)
    if _SPECIAL.search(v):
        return '"' + v.replace('"', '""') + '"'
    return v


def write_csv(path, headers, rows):
    """torch_npu's CSV (Python's csv module): \\r\\n line ends; a field with a comma,
    quote or line end is quoted, a tab is not (timestamps end in one: 123.456\\t).
    No file for no rows."""
    it = iter(rows)
    first = next(it, None)
    if first is None:
        return False
    with open(path, "w", newline="") as f:
        buf = []
        line = (lambda row: row) if isinstance(first, str) else (lambda row: ",".join(map(_cell, row)))
        buf.append(",".join(_cell(h) for h in headers))
        buf.append(line(first))
        n = 0
        for row in it:
            buf.append(line(row))
            n += 1
            if n == 4096:
                f.write("\r\n".join(buf) + "\r\n")
                buf = []
                n = 0
        if buf:
            f.write("\r\n".join(buf) + "\r\n")
    return True


def write_json(path, data):
    """json.dump(data, f, indent=4), byte for byte, in a fraction of its time
    (with an indent the json module encodes in Python, item by item)."""
    out = []
    try:
        _json_value(data, "\n", out)
    except TypeError:           # what _json_parts does not know: the json module's text
        out = [json.dumps(data, indent=4)]
    with open(path, "w") as f:
        f.write("".join(out))


_JSON_CONST = {None: "null", True: "true", False: "false"}


def _json_parts(v, nl, out):
    """Appends v's json.dumps(v, indent=4) text to out; NL is the line break and
    indent before v's line."""
    t = type(v)
    if t is dict:
        if not v:
            out.append("{}")
            return
        inner = nl + "    "
        sep = "{" + inner
        for k, x in v.items():
            out.append(sep + _json_str(k if type(k) is str else _json_key(k)) + ": ")
            _json_value(x, inner, out)
            sep = "," + inner
        out.append(nl + "}")
    elif t is list or t is tuple:
        if not v:
            out.append("[]")
            return
        inner = nl + "    "
        sep = "[" + inner
        for x in v:
            out.append(sep)
            _json_value(x, inner, out)
            sep = "," + inner
        out.append(nl + "]")
    elif t is float:
        out.append(float.__repr__(v) if v - v == 0.0 else json.dumps(v))
    elif t is bool or v is None:
        out.append(_JSON_CONST[v])
    else:
        _json_value(v, nl, out)


def _json_value(x, nl, out):
    """_json_parts, the common leaves first (most values are)."""
    t = type(x)
    if t is str:
        out.append(_json_str(x))
    elif t is float and x - x == 0.0:      # finite
        out.append(float.__repr__(x))
    elif t is int:
        out.append(int.__repr__(x))
    elif t is dict or t is list or t is tuple or t is float or t is bool or x is None:
        _json_parts(x, nl, out)
    else:
        raise TypeError(t)


def _json_key(k):
    if type(k) in (int, float, bool) or k is None:
        return json.dumps(k)
    raise TypeError(type(k))


_json_str = json.encoder.encode_basestring_ascii


def write_analysis_files(out, rd, with_comm):
    """The step/kernel/statistic/communication files of ASCEND_PROFILER_OUTPUT (text export)."""
    stats = {}
    write_csv(os.path.join(out, "kernel_details.csv"), rd.kernel_headers(), rd.kernel_rows(stats))
    write_csv(os.path.join(out, "step_trace_time.csv"), *rd.step_trace_table())
    if rd.level in ("Level1", "Level2"):
        write_csv(os.path.join(out, "op_statistic.csv"), *rd.op_statistic_table(stats))
        if with_comm:
            comm, matrix = rd.communication()
            if comm:
                write_json(os.path.join(out, "communication.json"), comm)
                write_json(os.path.join(out, "communication_matrix.json"), matrix)


def write_analysis_db(path, rd, with_comm):
    """analysis.db: StepTraceTime, and with communication data CommAnalyzerTime,
    CommAnalyzerBandwidth and CommAnalyzerMatrix."""
    import sqlite3
    db = sqlite3.connect(path)
    try:
        def create(name):
            cols = DB_TABLES[name]
            db.execute("CREATE TABLE %s (%s)" % (name, ", ".join("%s %s" % c for c in cols)))
            return "INSERT INTO %s VALUES (%s)" % (name, ",".join("?" * len(cols)))
        ins = create("StepTraceTime")
        _h, rows = rd.step_trace_table()
        db.executemany(ins, [[str(r[0])] + r[1:] for r in rows])
        if with_comm and rd.level in ("Level1", "Level2"):
            comm, matrix = rd.communication()
            if comm:
                t_ins, b_ins, m_ins = create("CommAnalyzerTime"), create("CommAnalyzerBandwidth"), \
                    create("CommAnalyzerMatrix")
                for step, data in comm.items():
                    for kind, ops in data.items():
                        for key, info in ops.items():
                            if key.startswith("Total"):
                                continue
                            name, _sep, grp = key.partition("@")
                            t = info["Communication Time Info"]
                            db.execute(t_ins, (name, grp, t["Start Timestamp(us)"], t["Elapse Time(ms)"],
                                               t["Transit Time(ms)"], t["Wait Time(ms)"],
                                               t["Synchronization Time(ms)"], t["Idle Time(ms)"], step, kind))
                            for tt, b in info["Communication Bandwidth Info"].items():
                                if not b["Transit Size(MB)"]:
                                    continue
                                # no distribution (SDMA): one row of zeros, as torch_npu writes it
                                dist = b["Size Distribution"].items() or [(0, (0, 0))]
                                for size, (cnt, dur) in dist:
                                    db.execute(b_ins, (name, grp, tt, b["Transit Size(MB)"], b["Transit Time(ms)"],
                                                       b["Bandwidth(GB/s)"], b["Large Packet Ratio"],
                                                       float(size), cnt, dur, step, kind))
                for step, data in matrix.items():
                    for kind, ops in data.items():
                        for key, links in ops.items():
                            name, _sep, grp = key.partition("@")
                            for link, m in links.items():
                                src, _s, dst = link.partition("-")
                                db.execute(m_ins, (name, grp, src, dst, m["Transport Type"], m["Transit Size(MB)"],
                                                   m["Transit Time(ms)"], m["Bandwidth(GB/s)"], step, kind,
                                                   m.get("Op Name", "")))
        db.commit()
    finally:
        db.close()


# the hardware task type (TASK.taskType) of each accelerator core, as real data has them
_HW_TASK = {"AI_CORE": "KERNEL_AICORE", "AI_VECTOR_CORE": "KERNEL_AIVEC", "MIX_AIC": "MIX_AIC",
            "MIX_AIV": "MIX_AIV", "AI_CPU": "KERNEL_AICPU"}


class _StringIds:
    """STRING_IDS: every text of the db once, referred to by its id."""

    def __init__(self):
        self.ids = {}

    def __call__(self, value):
        if value is None or value == "":
            return None
        i = self.ids.get(value)
        if i is None:
            i = self.ids[value] = len(self.ids)
        return i


def write_profiler_db(path, rd, metadata, marks, pid, ops=(), memory_rows=None):
    """ascend_pytorch_profiler_<rank>.db of one rank, with the tables, columns and
    encodings of real torch_npu's db export (t/data/real/msinsight-2025/db):
    META_DATA (the schema version, then each profiler_metadata.json entry as its
    JSON text: ENV_VARIABLES, distributed_args, parallel_group_info), STRING_IDS
    (every name, type, core, shape and metric name is an id into it), TASK (every
    device task: taskType the hardware's, e.g. KERNEL_AICORE), COMPUTE_TASK_INFO
    (the computing kernels: name, opType, taskType = the accelerator core,
    shapes), TASK_PMU_INFO (the AI Core metrics), COMMUNICATION_OP (the
    collectives), STEP_TIME, RANK_DEVICE_MAP, NPU_INFO, and with memory
    MEMORY_RECORD (bytes, component an id: PTA) and NPU_MEM (type an id: app,
    the process's memory as the driver counts it).  MARKS: [(step, startNs,
    endNs)]; OPS: the host's operator ranges (PYTORCH_API); MEMORY_ROWS: those
    of memory_record.csv (MB), when memory was profiled."""
    import sqlite3
    if os.path.exists(path):
        os.remove(path)
    sid = _StringIds()
    db = sqlite3.connect(path)
    try:
        c = db.cursor()
        c.execute("CREATE TABLE META_DATA (name TEXT,value TEXT)")
        meta = [("SCHEMA_VERSION_MICRO", "0"), ("SCHEMA_VERSION_MINOR", "0"), ("SCHEMA_VERSION_MAJOR", "1"),
                ("SCHEMA_VERSION", "1.0.0")]
        for k, v in (metadata or {}).items():
            meta.append((k, v if isinstance(v, str) else json.dumps(v)))
        c.executemany("INSERT INTO META_DATA VALUES (?,?)", meta)
        c.execute("CREATE TABLE NPU_INFO (id INTEGER,name TEXT)")
        c.execute("INSERT INTO NPU_INFO VALUES (?,?)", (rd.device, "Ascend910B"))
        c.execute("CREATE TABLE RANK_DEVICE_MAP (rankId INTEGER, deviceId INTEGER)")
        c.execute("INSERT INTO RANK_DEVICE_MAP VALUES (?,?)", (rd.rank, rd.device))
        c.execute("CREATE TABLE STEP_TIME (id INTEGER, startNs INTEGER, endNs INTEGER)")
        c.executemany("INSERT INTO STEP_TIME VALUES (?,?,?)", [(k, int(b), int(e)) for k, b, e in marks])
        if ops:
            # startNs and endNs are TEXT in torch_npu's schema
            c.execute("CREATE TABLE PYTORCH_API (startNs TEXT, endNs TEXT, globalTid INTEGER, connectionId INTEGER, "
                      "name INTEGER, sequenceNumber INTEGER, fwdThreadId INTEGER, inputDtypes INTEGER, "
                      "inputShapes INTEGER, callchainId INTEGER, type INTEGER)")
            c.executemany("INSERT INTO PYTORCH_API VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                          [(str(o["start_ns"]), str(o["end_ns"]), pid, i, sid(o["name"]), -1, 0, None, None, None,
                            0) for i, o in enumerate(ops)])
        tasks, compute, pmu, comm = [], [], [], []
        full = rd.level in ("Level1", "Level2")
        aic_cols = []
        if full:
            aic_cols = AIC_ARITH if rd.aic == "ACL_AICORE_ARITHMETIC_UTILIZATION" else \
                (AIC_PIPE if rd.aic == "ACL_AICORE_PIPE_UTILIZATION" else [])
        cells = {}
        if rd.level != "Level_none":
            for kn in rd.kernels():
                start = int(round(kn["start"] * 1000.0))
                end = start + int(round(kn["dur"] * 1000.0))
                g = kn["task"]
                if kn["core"] == "HCCL":
                    comm.append((sid(kn["name"]), start, end, g, sid(kn["type"]), g, 0, 0, sid("INT8"),
                                 sid("RING"), 0, sid(kn["type"])))
                    continue
                tasks.append((start, end, rd.device, g, g, pid, sid(_HW_TASK.get(kn["core"], kn["core"])),
                              4294967295, kn["stream"], g, 4294967295))
                level0 = not full
                sh = kn["shapes"] if full else ""
                n = sh.count(";") + 1
                compute.append((sid(kn["name"]), g, 0 if level0 else kn["block"],
                                kn["block"] if full and kn["core"] == "MIX_AIC" else 0,
                                sid("N/A" if level0 else kn["core"]), sid("N/A" if level0 else kn["type"]),
                                sid(";".join(["FORMAT_ND"] * n) if sh else None),
                                sid(";".join(["BF16"] * n) if sh else None), sid('"%s"' % sh if sh else None),
                                sid("FORMAT_ND" if sh else None), sid("BF16" if sh else None),
                                sid('"%s"' % sh.split(";")[0] if sh else None), None))
                if aic_cols and kn["core"] not in ("AI_CPU",):
                    pool = cells.get(kn["type"])
                    if pool is None:
                        pool = cells[kn["type"]] = _aic_cells(aic_cols, kn["core"], rd.job.knobs.seed, rd.rank,
                                                              kn["type"], kn["type"] == rd.job.knobs.low_pipe_op)
                    for col, (mode, v) in zip(aic_cols, pool[g & 15]):
                        if mode == 0 and col.endswith("ratio"):
                            pmu.append((g, sid(col), float(v)))
        c.execute("CREATE TABLE TASK (startNs INTEGER,endNs INTEGER,deviceId INTEGER,connectionId INTEGER,"
                  "globalTaskId INTEGER,globalPid INTEGER,taskType INTEGER,contextId INTEGER,streamId INTEGER,"
                  "taskId INTEGER,modelId INTEGER)")
        c.executemany("INSERT INTO TASK VALUES (?,?,?,?,?,?,?,?,?,?,?)", tasks)
        if compute:
            c.execute("CREATE TABLE COMPUTE_TASK_INFO (name INTEGER,globalTaskId INTEGER PRIMARY KEY,"
                      "blockDim INTEGER,mixBlockDim INTEGER,taskType INTEGER,opType INTEGER,inputFormats INTEGER,"
                      "inputDataTypes INTEGER,inputShapes INTEGER,outputFormats INTEGER,outputDataTypes INTEGER,"
                      "outputShapes INTEGER,attrInfo INTEGER)")
            c.executemany("INSERT INTO COMPUTE_TASK_INFO VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)", compute)
        if pmu:
            c.execute("CREATE TABLE TASK_PMU_INFO (globalTaskId INTEGER,name INTEGER,value NUMERIC)")
            c.executemany("INSERT INTO TASK_PMU_INFO VALUES (?,?,?)", pmu)
        if comm:
            c.execute("CREATE TABLE COMMUNICATION_OP (opName INTEGER,startNs INTEGER,endNs INTEGER,"
                      "connectionId INTEGER,groupName INTEGER,opId INTEGER PRIMARY KEY,relay INTEGER,retry INTEGER,"
                      "dataType INTEGER,algType INTEGER,count NUMERIC,opType INTEGER)")
            c.executemany("INSERT INTO COMMUNICATION_OP VALUES (?,?,?,?,?,?,?,?,?,?,?,?)", comm)
        if memory_rows:
            rows = memory_rows
            mb = 1024 * 1024
            recs, app = [], []
            for comp, ts, alloc, reserved, active, stream, dev in rows:
                t_ns = int(round(float(ts) * 1000.0))
                if comp == "APP":
                    # the process's memory is NPU_MEM's "app" rows (bytes, ddr + hbm)
                    app.append((sid("app"), 0, int(float(reserved) * mb), t_ns, rd.device))
                else:
                    recs.append((sid(comp), t_ns, int(float(alloc) * mb), int(float(reserved) * mb),
                                 int(float(active) * mb),
                                 stream, rd.device))
            c.execute("CREATE TABLE MEMORY_RECORD (component INTEGER, timestamp INTEGER, totalAllocated INTEGER, "
                      "totalReserved INTEGER, totalActive INTEGER, streamPtr INTEGER, deviceId INTEGER)")
            c.executemany("INSERT INTO MEMORY_RECORD VALUES (?,?,?,?,?,?,?)", recs)
            c.execute("CREATE TABLE NPU_MEM (type INTEGER,ddr NUMERIC,hbm NUMERIC,timestampNs INTEGER,"
                      "deviceId INTEGER)")
            c.executemany("INSERT INTO NPU_MEM VALUES (?,?,?,?,?)", app)
        c.execute("CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY,value TEXT)")
        c.executemany("INSERT INTO STRING_IDS VALUES (?,?)", [(i, v) for v, i in sid.ids.items()])
        db.commit()
    finally:
        db.close()
