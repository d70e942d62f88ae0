#!/usr/bin/env python3
"""Write the summary test fixtures: small rank directories shaped like
torch_npu's output (names, columns, value shapes and quoting as in the real
files of t/data/real, which t/sim-real.t compares them with),
one tree per planted anomaly and a healthy one without any.  The numbers
are chosen by hand so that each tree fires its rule and no other; run
again after changing them (python3 t/data/summary/make-fixtures.py)."""
import json, os, shutil, sqlite3

HERE = os.path.dirname(os.path.abspath(__file__))
STEPS = (4, 5, 6)
# PipeUtilization's columns, as real level1/2 kernel_details.csv has them
PIPE = ["aicore_time(us)", "aic_total_cycles", "aic_mac_time(us)", "aic_mac_ratio", "aic_scalar_time(us)",
        "aic_scalar_ratio", "aic_mte1_time(us)", "aic_mte1_ratio", "aic_mte2_time(us)", "aic_mte2_ratio",
        "aic_fixpipe_time(us)", "aic_fixpipe_ratio", "aic_icache_miss_rate", "aiv_time(us)", "aiv_total_cycles",
        "aiv_vec_time(us)", "aiv_vec_ratio", "aiv_scalar_time(us)", "aiv_scalar_ratio", "aiv_mte2_time(us)",
        "aiv_mte2_ratio", "aiv_mte3_time(us)", "aiv_mte3_ratio", "aiv_icache_miss_rate", "cube_utilization(%)"]
RATIOS = [c for c in PIPE if c.endswith("_ratio")]
KD_HEAD = ["Step Id", "Model ID", "Task ID", "Stream ID", "Name", "Type", "OP State",
           "Accelerator Core", "Start Time(us)", "Duration(us)", "Wait Time(us)", "Block Dim",
           "Mix Block Dim", "HF32 Eligible", "Input Shapes", "Input Data Types", "Input Formats",
           "Output Shapes", "Output Data Types", "Output Formats", "Context ID"]
KD_LEVEL0 = ["Step Id", "Name", "Type", "Accelerator Core", "Start Time(us)",
             "Duration(us)", "Wait Time(us)", "Block Dim"]
ST_HEAD = ["Step", "Computing", "Communication(Not Overlapped)", "Overlapped",
           "Communication", "Free", "Stage", "Bubble", "Communication(Not Overlapped and Exclude Receive)",
           "Preparing"]
OS_HEAD = ["OP Type", "Core Type", "Count", "Total Time(us)", "Min Time(us)",
           "Avg Time(us)", "Max Time(us)", "Ratio(%)"]
API_HEAD = ["Level", "API Name", "Time(us)", "Count", "Avg(us)", "Min(us)", "Max(us)", "Variance"]
# the variables torch_npu records in profiler_metadata.json (text export), "" when not set
ENV_VARS = ["ASCEND_GLOBAL_LOG_LEVEL", "HCCL_RDMA_TC", "HCCL_RDMA_SL", "ACLNN_CACHE_LIMIT", "HOST_CACHE_CAPACITY",
            "ASCEND_ENHANCE_ENABLE", "PYTORCH_NPU_ALLOC_CONF", "ASCEND_LAUNCH_BLOCKING"]
# torch_npu's MemoryViewParser.HEADERS_RECORD
MR_HEAD = ["Component", "Timestamp(us)", "Total Allocated(MB)", "Total Reserved(MB)", "Total Active(MB)",
           "Stream Ptr", "Device Type"]
DEVICE_MB = 65536       # an Atlas 800T A2's 64 GB of HBM, as npu-smi shows it
# (name, type, core, µs per instance, instances per step, pipe ratios)
OPS = [
    ("aclnnMatmul_MatMulCommon_MatMulV2", "MatMulV2", "AI_CORE", 2000.0, 3, 0.72),
    ("aclnnFlashAttentionScore_FlashAttentionScore_FlashAttentionScore", "FlashAttentionScore",
     "MIX_AIC", 3000.0, 2, 0.65),
    ("aclnnRmsNorm_RmsNorm_RmsNorm", "RmsNorm", "AI_VECTOR_CORE", 400.0, 3, 0.61),
    ("aclnnAdd_AddAiCore_Add", "Add", "AI_VECTOR_CORE", 150.0, 6, 0.55),
    ("aclnnSwiGlu_SwiGlu_SwiGlu", "SwiGlu", "AI_VECTOR_CORE", 700.0, 2, 0.58),
    ("aclnnNonzero_NonzeroAiCpu_NonZero", "NonZero", "AI_CPU", 8.0, 2, None),
    ("hcom_allReduce__418_0_1", "hcom_allReduce_", "HCCL", 9000.0, 1, None),
]
GROUP = "8212426394720000000"
TRANSPORTS = ("RDMA", "HCCS", "PCIE", "SDMA", "SIO")
NO_TRANSPORT = {"Transit Size(MB)": 0, "Transit Time(ms)": 0, "Bandwidth(GB/s)": 0, "Large Packet Ratio": 0,
                "Size Distribution": {}}


def w(path, text, crlf=False, bom=False):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if crlf:
        text = text.replace("\n", "\r\n")
    with open(path, "w", newline="") as f:
        f.write(("\ufeff" if bom else "") + text)


def q(v):
    """Python's csv quoting, as torch_npu's: a tab is not quoted."""
    s = str(v)
    if any(c in s for c in ',"\n\r'):
        return '"' + s.replace('"', '""') + '"'
    return s


def csv(head, rows):
    return "".join(",".join(q(v) for v in r) + "\n" for r in [head] + rows)


class Rank:
    def __init__(self, rank, world=4, layout=(1, 1, 4)):
        self.rank, self.world = rank, world
        self.tp, self.pp, self.dp = layout
        self.level = "Level1"
        self.comp, self.exposed, self.free, self.bubble = 80000.0, 5000.0, 4000.0, 0.0
        self.ops = [list(o) for o in OPS]
        self.recompiled = set()  # operator types compiled again every step (changing input shapes)
        self.pipe_cols = PIPE
        self.elapse, self.wait_ratio, self.sync_ratio = 10.0 + 0.013 * rank * (1 + rank % 2), 0.05, 0.02
        self.links = {}          # dst -> (transport, size MB, time ms)
        self.rdma_packet = 4.0
        self.sdma_size = 128.0   # each collective's SDMA Transit Size(MB)
        self.sdma_dist = {"32.0": [4, 7.0]}   # its Size Distribution
        self.hccs_dist = {"32.0": [4, 7.0]}
        for d in range(world):
            if d != rank:
                same = d // 2 == rank // 2
                self.links[d] = ("HCCS", 64.0, 3.5) if same else ("RDMA", 64.0, 6.4)
        self.files = {"kernel", "opstat", "comm", "matrix", "steps", "memory", "api"}
        self.mem_peak = 0.6 * DEVICE_MB   # MB: neither near the limit nor far below it
        self.mem_raw = None      # memory_record.csv as this text instead
        self.env = {}            # ENV_VARIABLES torch_npu records in profiler_metadata.json
        self.stamp = "20261203081500123"
        self.distributed = True  # False: profiler_info.json, no rank
        self.ratio_cols = RATIOS
        self.ratio_of = lambda typ, col, i, ratio: ratio  # None: N/A
        self.api = None          # api_statistic.csv rows: (level, name, time us, count)
        self.megatron = True     # False: profiler_metadata.json without distributed_args
        self.colls = ("hcom_allReduce__418_%d_1", "hcom_broadcast__419_%d_1")

    def dirname(self):
        return "node%d-host_%d_%s_ascend_pt" % (self.rank // 2, 4000 + self.rank, self.stamp)

    def write(self, root, sub=None):
        d = os.path.join(root, sub if sub is not None else "node%d" % (self.rank // 2), self.dirname())
        out = os.path.join(d, "ASCEND_PROFILER_OUTPUT")
        os.makedirs(out, exist_ok=True)
        # profiler_info as torch_npu master writes it (t/data/real has the same keys but
        # for those master added, and _export_type a string there)
        level0 = self.level == "Level0"
        info = {"config": {
            "common_config": {"activities": ["ProfilerActivity.CPU", "ProfilerActivity.NPU"],
                              "schedule": {"wait": 0, "active": len(STEPS), "warmup": 1, "repeat": 1,
                                           "skip_first": STEPS[0] - 2},
                              "record_shapes": True, "profile_memory": True, "with_stack": False,
                              "with_flops": False, "with_modules": False},
            "experimental_config": {
                "_profiler_level": self.level,
                "_aic_metrics": "ACL_AICORE_NONE" if level0 else "ACL_AICORE_PIPE_UTILIZATION",
                "_l2_cache": False, "_msprof_tx": False, "_mstx": False, "_data_simplification": True,
                "record_op_args": False, "_export_type": ["text"], "_host_sys": [], "_op_attr": False,
                "_gc_detect_threshold": None, "_mstx_domain_include": [], "_mstx_domain_exclude": [],
                "_sys_io": False, "_sys_interconnection": False}},
            "start_info": {"syscnt_enable": True, "freq": 100, "start_cnt": 170000000000000 + self.rank,
                           "start_monotonic": 1700000000000000 + self.rank},
            "end_info": {"collectionTimeEnd": 1700000000900000000, "MonotonicTimeEnd": 1700000900000000},
            "torch_npu_version": "2.7.1", "cann_version": "8.2.RC1",
            "rank_id": self.rank}
        if not self.distributed:
            del info["rank_id"]
        w(os.path.join(d, "profiler_info_%d.json" % self.rank if self.distributed else "profiler_info.json"),
          json.dumps(info, indent=4))
        meta = {} if not self.distributed or not self.megatron else {"distributed_args": {"tensor_model_parallel_size": self.tp,
                                     "pipeline_model_parallel_size": self.pp,
                                     "data_parallel_size": self.dp, "context_parallel_size": 1,
                                     "expert_model_parallel_size": 1, "rank": self.rank,
                                     "world_size": self.world}}
        if self.env:
            # all of torch_npu's variables, "" when not set; without a planted
            # environment none, as a torch_npu that records none (the unit tests
            # then take the launch's environment from the session)
            meta["ENV_VARIABLES"] = dict((k, "") for k in ENV_VARS)
            meta["ENV_VARIABLES"].update(self.env)
        w(os.path.join(d, "profiler_metadata.json"), json.dumps(meta, indent=4))
        if "steps" in self.files:
            rows = []
            for s in STEPS:
                comm = self.exposed + 5000.0
                rows.append([s, self.comp, self.exposed, 5000.0, comm, self.free,
                             self.comp + self.exposed + self.free, self.bubble, self.exposed, 120.5])
            w(os.path.join(out, "step_trace_time.csv"), csv(ST_HEAD, rows), crlf=True)
        if "kernel" in self.files:
            self.write_kernels(out)
        if "opstat" in self.files and self.level != "Level0":
            self.write_opstat(out)
        if "comm" in self.files and self.level != "Level0":
            self.write_comm(out)
        if "api" in self.files and self.level != "Level0" and self.api is None:
            self.write_api_statistic(out)
        if "memory" in self.files:
            self.write_memory(out)
        if self.api is not None:
            w(os.path.join(out, "api_statistic.csv"),
              csv(API_HEAD,
                  [[lv, n, t, c, round(t / c, 3), round(t / c, 3), round(t / c, 3), 0.0]
                   for lv, n, t, c in self.api]))
        return d

    def write_memory(self, out):
        """The allocator (PTA) climbing to 80 % of the process's peak, and the
        process (APP) reaching its peak in the middle step."""
        if self.mem_raw is not None:
            w(os.path.join(out, "memory_record.csv"), self.mem_raw)
            return
        rows = []
        for k, s in enumerate(STEPS):
            t = "%.3f\t" % (1.7e15 + s * 1e5)
            app = self.mem_peak * (1.0 if k == 1 else 0.9)
            rows.append(["PTA", t, round(0.7 * app, 3), round(0.8 * app, 3), round(0.7 * app, 3),
                         187651256098816, "NPU:%d" % (self.rank % 2)])
            rows.append(["APP", t, "", round(app, 3), "", "", "NPU:%d" % (self.rank % 2)])
        w(os.path.join(out, "memory_record.csv"), csv(MR_HEAD, rows), crlf=True)

    def write_kernels(self, out):
        """As real kernel_details.csv: every aclnn kernel's OP State dynamic, a
        communication task's cells N/A, level0's Type and Accelerator Core N/A
        (HCCL for communication) and Block Dim 0.  The operator types in
        self.recompiled get other input shapes every step."""
        level0 = self.level == "Level0"
        pipe = [c for c in self.pipe_cols if not c.endswith("_ratio") or c in self.ratio_cols]
        rows, t, task = [], 1.7e15, 1
        for s in STEPS:
            for name, typ, core, dur, n, ratio in self.ops:
                comm = core == "HCCL"
                for i in range(n):
                    d = round(dur * (1 + 0.01 * (i % 3)), 3)
                    start = "%.3f\t" % t
                    if level0:
                        rows.append([s, name, "N/A", "HCCL" if comm else "N/A", start, d, 1.5, 0])
                    elif comm:
                        rows.append([s, 4294967295, "N/A", "N/A", name, typ, "N/A", core, start, d, 1.5, 0]
                                    + ["N/A"] * (9 + len(pipe)))
                    else:
                        seq = 4096 - 256 * (s % 4) if typ in self.recompiled else 4096
                        rv = []
                        for c in pipe:
                            if c.endswith("_ratio"):
                                v = self.ratio_of(typ, c, i, ratio)
                            elif ratio is None:
                                v = None
                            elif c in ("aicore_time(us)", "aiv_time(us)"):
                                v = round(d * 0.9, 3)
                            elif c.endswith("cycles"):
                                v = int(d * 1850)
                            elif c.endswith("_time(us)"):
                                v = round(d * 0.1, 3)
                            elif c == "cube_utilization(%)":
                                v = 0 if core == "AI_VECTOR_CORE" else 60.0
                            else:
                                v = 0.01
                            rv.append("N/A" if v is None else v)
                        rows.append([s, 4294967295, task, 2, name, typ, "dynamic", core, start, d, 1.5, 24, 0,
                                     "NO", '"%d,4096;4096,6144"' % seq, "BF16;BF16", "FORMAT_ND;FORMAT_ND",
                                     '"%d,6144"' % seq, "BF16", "FORMAT_ND", "N/A"] + rv)
                    t += d + 3
                    task += 1
        head = KD_LEVEL0 if level0 else KD_HEAD + pipe
        w(os.path.join(out, "kernel_details.csv"), csv(head, rows), crlf=True)

    def write_api_statistic(self, out):
        """api_statistic.csv (level1/2): the operators of self.recompiled are
        compiled again at every step, as aclopCompileAndExecute and opCompile
        show in real data."""
        n = len(STEPS)
        rows = []
        if self.recompiled:
            k = n * len(self.recompiled)
            rows += [["acl", "aclopCompileAndExecute", round(1850.0 * k, 3), k, 1850.0, 1480.0, 2590.0, 92.5],
                     ["acl", "opCompile", round(420.0 * k, 3), k, 420.0, 336.0, 588.0, 21.0]]
        rows += [["acl", "aclnnMatmul", round(58.2 * 3 * n, 3), 3 * n, 58.2, 46.56, 81.48, 2.91],
                 ["node", "MatMulV2", round(12.3 * 3 * n, 3), 3 * n, 12.3, 9.84, 17.22, 0.615],
                 ["hccl", "Launch_Ffts", round(95.0 * n, 3), n, 95.0, 76.0, 133.0, 4.75]]
        w(os.path.join(out, "api_statistic.csv"), csv(API_HEAD, rows))

    def write_opstat(self, out):
        total = sum(dur * n * len(STEPS) for _, _, core, dur, n, _ in self.ops if core != "HCCL") or 1
        rows = []
        for name, typ, core, dur, n, _ in self.ops:
            if core == "HCCL":
                continue        # torch_npu's op_statistic has no communication row
            cnt = n * len(STEPS)
            rows.append([typ, core, cnt, dur * cnt, dur, dur, dur * 1.02,
                         round(100 * dur * cnt / total, 3)])
        w(os.path.join(out, "op_statistic.csv"), csv(OS_HEAD, rows))

    def write_comm(self, out):
        comm, matrix = {}, {}
        for s in STEPS:
            coll = {}
            for k, op in enumerate(c % s for c in self.colls):
                e = round(self.elapse * (1 + 0.5 * k), 4)
                transit = round(e * (1 - self.wait_ratio), 4)
                wait = round(e - transit, 4)
                sync = round(transit * self.sync_ratio / (1 - self.sync_ratio), 4) if self.sync_ratio else 0
                coll["%s@%s" % (op, GROUP)] = {
                    "Communication Time Info": {
                        "Start Timestamp(us)": 1.7e15 + s * 1e5, "Elapse Time(ms)": e,
                        "Transit Time(ms)": transit, "Wait Time(ms)": wait, "Synchronization Time(ms)": sync,
                        "Idle Time(ms)": 0.1, "Wait Time Ratio": self.wait_ratio,
                        "Synchronization Time Ratio": self.sync_ratio},
                    "Communication Bandwidth Info": {
                        "RDMA": {"Transit Size(MB)": 64.0, "Transit Time(ms)": 6.4, "Bandwidth(GB/s)": 10.0,
                                 "Large Packet Ratio": 0.0,
                                 "Size Distribution": {str(self.rdma_packet): [64.0 / self.rdma_packet, 6.4]}},
                        "HCCS": {"Transit Size(MB)": 128.0, "Transit Time(ms)": 7.0, "Bandwidth(GB/s)": 18.29,
                                 "Large Packet Ratio": 0.0, "Size Distribution": dict(self.hccs_dist)},
                        "PCIE": {"Transit Size(MB)": 0, "Transit Time(ms)": 0, "Bandwidth(GB/s)": 0,
                                 "Large Packet Ratio": 0, "Size Distribution": {}},
                        "SDMA": {"Transit Size(MB)": self.sdma_size, "Transit Time(ms)": 7.0,
                                 "Bandwidth(GB/s)": 18.29, "Large Packet Ratio": 0,
                                 "Size Distribution": dict(self.sdma_dist)},
                        "SIO": dict(NO_TRANSPORT)}}
            # torch_npu's total, with its keys; the figures tiny, so that a reader taking
            # it for an operator would show
            coll["Total Op Info"] = {
                "Communication Time Info": {"Elapse Time(ms)": 0.001, "Transit Time(ms)": 0.001,
                                            "Wait Time(ms)": 0, "Synchronization Time(ms)": 0, "Idle Time(ms)": 0,
                                            "Wait Time Ratio": 0, "Synchronization Time Ratio": 0},
                "Communication Bandwidth Info": {tt: {"Transit Time(ms)": 0, "Transit Size(MB)": 0,
                                                      "Size Distribution": {}} for tt in TRANSPORTS}}
            # a send of another group: short and all waiting
            pe = 0.001 + self.rank
            p2p = {"hcom_send__7_%d_1@99" % s: {
                "Communication Time Info": {
                    "Start Timestamp(us)": 1.7e15 + s * 1e5 + 50.0, "Elapse Time(ms)": pe,
                    "Transit Time(ms)": round(0.1 * pe, 4), "Wait Time(ms)": round(0.9 * pe, 4),
                    "Synchronization Time(ms)": round(0.9 * pe, 4), "Idle Time(ms)": 0,
                    "Wait Time Ratio": 0.9, "Synchronization Time Ratio": 0.9},
                "Communication Bandwidth Info": {tt: dict(NO_TRANSPORT) for tt in TRANSPORTS}}}
            comm["step%d" % s] = {"collective": coll, "p2p": p2p}
            links = {"%d-%d" % (self.rank, d): {"Transport Type": tr, "Transit Size(MB)": size,
                                                "Transit Time(ms)": tm, "Bandwidth(GB/s)": round(size / tm, 4),
                                                "Op Name": "hcom_allReduce__418_%d_1" % s}
                     for d, (tr, size, tm) in self.links.items()}
            matrix["step%d" % s] = {"collective": {"allreduce-top1@" + GROUP: links}, "p2p": {}}
        w(os.path.join(out, "communication.json"), json.dumps(comm))
        if "matrix" in self.files:
            w(os.path.join(out, "communication_matrix.json"), json.dumps(matrix))


def cluster(name, plant=None, n=4, layout=(1, 1, 4)):
    root = os.path.join(HERE, name)
    shutil.rmtree(root, ignore_errors=True)
    ranks = [Rank(r, n, layout) for r in range(n)]
    if plant:
        plant(ranks)
    for r in ranks:
        r.write(root)
    return root, ranks


def slow_rank(rs):
    for r in rs:
        if r.rank == 3:
            r.comp = 100000.0
            for op in r.ops[:5]:
                op[3] *= 1.25
            r.elapse, r.wait_ratio, r.sync_ratio = 10.0, 0.02, 0.01
        else:
            r.exposed = 30000.0
            r.elapse, r.wait_ratio, r.sync_ratio = 30.0 + 0.01 * r.rank, 0.6, 0.5


def two_slow(rs):
    """Two ranks: rank 1 computes 20 ms a step more and rank 0 waits for
    it, in the step table (exposed communication) and at their
    collectives (rank 1's elapse the shorter: it arrived last)."""
    rs[1].comp = 100000.0
    rs[1].elapse = 10.0
    rs[0].exposed, rs[0].elapse = 25000.0, 30.0


def two_disagree(rs):
    """Two ranks: rank 1 computes more and rank 0 shows the exposed
    communication, but at their collectives rank 0 arrived last (its
    elapse the shorter): the evidence differs, no rank is named."""
    two_slow(rs)
    rs[0].elapse, rs[1].elapse = 10.0, 30.0


def two_no_wait(rs):
    """Two ranks: rank 1 computes more, but neither waits for the other
    (the same exposed communication, the same elapse): no slow rank."""
    rs[1].comp = 100000.0
    rs[0].elapse = rs[1].elapse = 10.0


def slow_rank_many(rs):
    """Rank 3 of 12 slow: the others wait for it, at least the lowest tenth
    of them too (a collective of the whole job), so that only rank 3 is
    without that wait; steps and communication only."""
    slow_rank(rs)
    for r in rs:
        r.files = {"steps", "comm"}


def pipe_wait(rs):
    """pp 4, healthy: at the collectives of all the stages (the gradient
    norm's) the later stages, done with their backward pass first, wait
    for stage 0, one stage after the other; no rank waits within its
    stage."""
    for r in rs:
        stage = r.rank // 2
        r.elapse = 10.0 + 3.0 * stage + 0.013 * r.rank
        if stage == 0:
            r.wait_ratio, r.sync_ratio = 0.05 + 0.001 * r.rank, 0.02
        else:
            r.wait_ratio, r.sync_ratio = 0.3 + 0.01 * stage + 0.001 * r.rank, 0.25


def slow_link(rs):
    rs[1].links[2] = ("RDMA", 64.0, 64.0)


def dominant(rs):
    """MatMulV2 takes most of the time: what a transformer does, no finding."""
    for r in rs:
        r.ops[0][3] = 12000.0


def dominant_add(rs):
    """Add, an elementwise operator, takes most of the time."""
    for r in rs:
        r.ops[3][3] = 5000.0


def uniform_wait(rs):
    """Every rank waits alike (0.393) and synchronises: no one is the slow one."""
    for r in rs:
        r.wait_ratio, r.sync_ratio = 0.393, 0.3


def exposed_comm(rs):
    for r in rs:
        r.exposed = 25000.0


def bubble(rs):
    """pp 2: receives waited for, 15 ms a step, inside Communication(Not Overlapped)."""
    for r in rs:
        r.bubble = 15000.0
        r.exposed = 5000.0 + r.bubble


UNFUSED = [
    ("aclnnSoftmax_SoftmaxV2AiCore_SoftmaxV2", "SoftmaxV2", "AI_VECTOR_CORE", 900.0, 2, 0.6),
    ("aclnnBatchMatMul_BatchMatMulV2_BatchMatMulV2", "BatchMatMulV2", "AI_CORE", 1200.0, 4, 0.7),
    ("aclnnPowTensorScalar_PowAiCore_Pow", "Pow", "AI_VECTOR_CORE", 60.0, 3, 0.5),
    ("aclnnMean_ReduceMeanAiCore_ReduceMean", "ReduceMean", "AI_VECTOR_CORE", 50.0, 3, 0.5),
    ("aclnnRsqrt_RsqrtAiCore_Rsqrt", "Rsqrt", "AI_VECTOR_CORE", 8.0, 3, 0.5),
    ("aclnnSilu_SwishAiCore_Swish", "Swish", "AI_VECTOR_CORE", 300.0, 2, 0.5),
    ("aclnnNeg_NegAiCore_Neg", "Neg", "AI_VECTOR_CORE", 20.0, 4, 0.5),
]


def unfused(rs):
    """No FlashAttentionScore, RmsNorm or SwiGlu kernel: their unfused forms,
    and rotary embedding's rotate_half (Neg)."""
    for r in rs:
        r.ops = [list(o) for o in OPS if o[1] not in ("FlashAttentionScore", "RmsNorm", "SwiGlu")] + \
            [list(o) for o in UNFUSED]


def dit_silu(rs):
    """A diffusion transformer (MindSpeed-MM's Wan): GELU in its MLP, no
    SwiGLU, and the SiLU of its time embedding, once a step, beside the
    attention of each of its (here eight) blocks: no unfused SwiGLU."""
    for r in rs:
        r.ops = [list(o) for o in OPS if o[1] != "SwiGlu"] + [
            ["aclnnGelu_GeluAiCore_Gelu", "Gelu", "AI_VECTOR_CORE", 700.0, 2, 0.58],
            ["aclnnSilu_SwishAiCore_Swish", "Swish", "AI_VECTOR_CORE", 5.0, 1, 0.5]]
        r.ops[1][4] = 8


def mamba_neg(rs):
    """Mamba layers without attention: A = -exp(A_log) runs a Neg a layer;
    no rotary embedding to fuse."""
    for r in rs:
        r.ops = [list(o) for o in OPS if o[1] != "FlashAttentionScore"] + [
            ["aclnnNeg_NegAiCore_Neg", "Neg", "AI_VECTOR_CORE", 4.0, 4, 0.5]]


def partly_fused(rs):
    """RmsNorm kernels and a few Rsqrt of their own (a norm left unfused
    elsewhere): the fused form is in use, no finding."""
    for r in rs:
        r.ops.append(["aclnnRsqrt_RsqrtAiCore_Rsqrt", "Rsqrt", "AI_VECTOR_CORE", 8.0, 2, 0.5])


def memory_near(rs):
    rs[1].mem_peak = 0.95 * DEVICE_MB


def memory_damaged(rs):
    """Rank 1's rows say inf and nan, rank 2's file is empty: no peak for
    either, and no finding of a peak near the device's memory."""
    rs[1].mem_raw = csv(MR_HEAD, [["APP", "1.7e15", "", "inf", "", "", "NPU:1"],
                                  ["PTA", "1.7e15", "1", "nan", "1", "1", "NPU:1"]])
    rs[2].mem_raw = ""


def memory_room(rs):
    for r in rs:
        r.mem_peak = 0.3 * DEVICE_MB


def launch_blocking(rs):
    """A launch with ASCEND_LAUNCH_BLOCKING=1: every rank host-bound."""
    for r in rs:
        r.env = {"ASCEND_GLOBAL_LOG_LEVEL": "", "ASCEND_LAUNCH_BLOCKING": "1", "PYTORCH_NPU_ALLOC_CONF": ""}
        r.free = 30000.0


def log_level(rs):
    for r in rs:
        r.env = {"ASCEND_GLOBAL_LOG_LEVEL": "1", "ASCEND_LAUNCH_BLOCKING": "", "PYTORCH_NPU_ALLOC_CONF": ""}


def noisy(rs):
    """Eight ranks whose Computing is spread evenly over 8 %: max - min is
    above 5 % of the step, yet no rank stands out from the others."""
    for r in rs:
        r.comp = 80000.0 * (1 + 0.08 * ((r.rank * 5) % 8) / 7)


def wide_spread(rs):
    """Eight ranks whose Computing is spread evenly over 24 %: the highest
    is 12 % above the median, over 5 % of the step, but no further from
    the others than they are from each other (3 x 1.4826 x MAD)."""
    for r in rs:
        r.comp = 80000.0 * (1 + 0.24 * ((r.rank * 5) % 8) / 7)


def close_wait(rs):
    """Every rank waits and synchronises, the lowest wait ratio 0.055 below
    the median: under the 0.1 margin, no one is waited for."""
    for r, ratio in zip(rs, (0.35, 0.36, 0.37, 0.30)):
        r.wait_ratio, r.sync_ratio = ratio, 0.3


def host_bound(rs):
    for r in rs:
        r.free = 16000.0


def aicpu(rs):
    for r in rs:
        r.ops[5][3] = 35.0


def dynamic(rs):
    """SwiGlu is compiled again every step: its input shapes change from step
    to step and api_statistic.csv shows aclopCompileAndExecute (every kernel's
    OP State is "dynamic" in real data, which shows nothing by itself)."""
    for r in rs:
        r.recompiled = {"SwiGlu"}


def op_compile(rs):
    """Every kernel dynamic, as in real torch_npu output, and operators
    compiled while profiled: opCompile 10 ms a step of 89 ms (11 %)."""
    for r in rs:
        r.api = [("acl", "aclopCompileAndExecute", 36000.0, 24), ("acl", "opCompile", 30000.0, 24),
                 ("acl", "aclnnMm", 300.0, 9)]


def op_cached(rs):
    """The same calls as real data has them: every compilation a cache hit
    (opCompile some 20 us a call, 0.2 % of the step)."""
    for r in rs:
        r.api = [("acl", "aclopCompileAndExecute", 42000.0, 57), ("acl", "opCompile", 1100.0, 57),
                 ("acl", "aclnnMm", 300.0, 9)]


def transdata(rs):
    """TransData, 20 kernels of 60 us a step: 7 % of the device time."""
    for r in rs:
        r.ops.append(["trans_TransData_0", "TransData", "AI_VECTOR_CORE", 60.0, 20, 0.5])


def low_pipe(rs):
    for r in rs:
        r.ops[1][5] = 0.12


def pipe_split(rs):
    """FlashAttentionScore's instances alternate: the cube columns filled
    and the vector ones N/A, then the other way round; each column averages
    0.65 over the instances that have it."""
    def ratio_of(typ, col, i, ratio):
        if typ != "FlashAttentionScore":
            return ratio
        return ratio if col.startswith("aic_") == (i % 2 == 0) else None
    for r in rs:
        r.ratio_of = ratio_of


def pipe_ranks(rs):
    """Ranks 2 and 3 have no cube (aic_) columns: FlashAttentionScore's
    cube ratios, 0.65 on ranks 0 and 1, average 0.65; its vector ratios
    are low (0.1) everywhere."""
    def ratio_of(typ, col, i, ratio):
        return 0.1 if typ == "FlashAttentionScore" and col.startswith("aiv_") else ratio
    for r in rs:
        r.ratio_of = ratio_of
        if r.rank >= 2:
            r.ratio_cols = [c for c in RATIOS if not c.startswith("aic_")]
            r.pipe_cols = [c for c in PIPE if not c.startswith("aic_")]


def small_packets(rs):
    rs[2].rdma_packet = 0.5


def small_packets_no_matrix(rs):
    small_packets(rs)
    for r in rs:
        r.files -= {"matrix"}


def small_ops(rs):
    """Rank 2's collectives each move 8 MB over SDMA, and its Size
    Distribution of SDMA is empty, as in real data: only the operators'
    transit sizes show the small transfers."""
    rs[2].sdma_size, rs[2].sdma_dist = 8.0, {}


def unaligned(rs):
    """Rank 1's HCCS and SDMA transfers are 32000100 bytes, printed to the
    byte as torch_npu does: no multiple of 512; rank 3's are aligned but
    for a few (1 of 9 ms); rank 0's sizes are rounded to four decimals,
    which says nothing of their bytes."""
    rs[1].hccs_dist = rs[1].sdma_dist = {"32.000100": [4, 7.0]}
    rs[3].hccs_dist = rs[3].sdma_dist = {"32.000000": [4, 8.0], "1.000100": [2, 1.0]}
    rs[0].hccs_dist = rs[0].sdma_dist = {"32.0001": [4, 7.0]}


def exposed_ddp(rs):
    """Exposed communication in a job without Megatron (no distributed_args;
    torch_npu's ENV_VARIABLES), its collectives all-reduces: DDP."""
    exposed_comm(rs)
    for r in rs:
        r.megatron = False
        r.env = {"ASCEND_LAUNCH_BLOCKING": "", "PYTORCH_NPU_ALLOC_CONF": ""}


def exposed_sharded(rs):
    """The same, its collectives all-gathers and reduce-scatters: FSDP or
    DeepSpeed's ZeRO."""
    exposed_ddp(rs)
    for r in rs:
        r.colls = ("hcom_allGather__418_%d_1", "hcom_reduceScatter__419_%d_1")


def zero_durations(rs):
    """Every operator lasts 0 us: no share of the device time to show."""
    for r in rs:
        for op in r.ops:
            op[3] = 0.0


def wait_link(rs):
    for r in rs:
        r.wait_ratio, r.sync_ratio = 0.3, 0.05


def slow_stage(rs):
    for r in rs:
        if r.rank >= 2:
            r.comp = 90000.0


def mixed_layout(rs):
    """An output directory used again: ranks 2-3 left by a job of pp 64, dp 1."""
    slow_stage(rs)
    for r in rs:
        if r.rank >= 2:
            r.pp, r.dp = 64, 1


def level0(rs):
    for r in rs:
        r.level = "Level0"


def no_kernels(rs):
    rs[1].files -= {"kernel", "opstat"}


def partial(rs):
    rs[2].files = set()


def no_rank():
    """Two processes without torch.distributed (profiler_info.json): each
    directory is its own rank of unknown number; the second host-bound."""
    root = os.path.join(HERE, "no-rank")
    shutil.rmtree(root, ignore_errors=True)
    for i in range(2):
        r = Rank(i, 1)
        r.distributed, r.links = False, {}
        r.files -= {"comm"}
        r.free = 16000.0 if i == 1 else r.free
        r.write(root, "")


def write_db(root, ranks, step="step%d"):
    """The db export: analysis.db per rank, no text files; STEP formats the
    step of the communication tables."""
    for r in ranks:
        d = os.path.join(root, "node%d" % (r.rank // 2), r.dirname())
        out = os.path.join(d, "ASCEND_PROFILER_OUTPUT")
        for f in os.listdir(out):
            os.remove(os.path.join(out, f))
        db = sqlite3.connect(os.path.join(out, "analysis.db"))
        c = db.cursor()
        c.execute("CREATE TABLE StepTraceTime (step TEXT, computing NUMERIC, "
                  "communication_not_overlapped NUMERIC, overlapped NUMERIC, communication NUMERIC, "
                  "free NUMERIC, stage NUMERIC, bubble NUMERIC, communication_not_overlapped_and_exclude_receive "
                  "NUMERIC, preparing NUMERIC)")
        for s in STEPS:
            c.execute("INSERT INTO StepTraceTime VALUES (?,?,?,?,?,?,?,?,?,?)",
                      (str(s), r.comp, r.exposed, 5000.0, r.exposed + 5000.0, r.free,
                       r.comp + r.exposed + r.free, 0, r.exposed, 120.5))
        c.execute("CREATE TABLE CommAnalyzerTime (hccl_op_name TEXT, group_name TEXT, start_timestamp NUMERIC, "
                  "elapse_time NUMERIC, transit_time NUMERIC, wait_time NUMERIC, synchronization_time NUMERIC, "
                  "idle_time NUMERIC, step TEXT, type TEXT)")
        c.execute("CREATE TABLE CommAnalyzerBandwidth (hccl_op_name TEXT, group_name TEXT, "
                  "transport_type TEXT, transit_size NUMERIC, transit_time NUMERIC, bandwidth NUMERIC, "
                  "large_packet_ratio NUMERIC, package_size NUMERIC, count NUMERIC, total_duration NUMERIC, "
                  "step TEXT, type TEXT)")
        c.execute("CREATE TABLE CommAnalyzerMatrix (hccl_op_name TEXT, group_name TEXT, src_rank TEXT, "
                  "dst_rank TEXT, transport_type TEXT, transit_size NUMERIC, transit_time NUMERIC, "
                  "bandwidth NUMERIC, step TEXT, type TEXT, op_name TEXT)")
        for s in STEPS:
            for k, op in enumerate(("hcom_allReduce__418_%d_1" % s, "hcom_broadcast__419_%d_1" % s)):
                e = r.elapse * (1 + 0.5 * k)
                transit = e * (1 - r.wait_ratio)
                sync = transit * r.sync_ratio / (1 - r.sync_ratio)
                c.execute("INSERT INTO CommAnalyzerTime VALUES (?,?,?,?,?,?,?,?,?,?)",
                          (op, GROUP, 1.7e15, e, transit, e - transit, sync, 0.1, step % s, "collective"))
            c.execute("INSERT INTO CommAnalyzerBandwidth VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                      ("hcom_allReduce__418_%d_1" % s, GROUP, "RDMA", 64.0, 6.4, 10.0, 0.0, 4.0, 16, 6.4,
                       step % s, "collective"))
            # The per-step total row, small packets that are not the ranks' own.
            c.execute("INSERT INTO CommAnalyzerBandwidth VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                      ("Total Op Info", GROUP, "RDMA", 64.0, 6.4, 10.0, 0.0, 0.5, 1000, 6.4,
                       step % s, "collective"))
            for d, (tr, size, tm) in r.links.items():
                c.execute("INSERT INTO CommAnalyzerMatrix VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                          ("allreduce-top1@" + GROUP, GROUP, str(r.rank), str(d), tr, size, tm, size / tm,
                           step % s, "collective", "allreduce-top1"))
        db.commit()
        db.close()


def quirks():
    """One rank, every CSV quirk: an old step header with spaces before "(",
    an empty Step, CRLF, a BOM, quoted start times with a trailing tab,
    triple-quoted shapes with commas, a quoted name with a comma and a
    doubled quote, a newline inside quotes."""
    root = os.path.join(HERE, "quirks")
    shutil.rmtree(root, ignore_errors=True)
    d = os.path.join(root, "localhost_77_20261203081500123_ascend_pt")
    out = os.path.join(d, "ASCEND_PROFILER_OUTPUT")
    w(os.path.join(d, "profiler_info.json"), json.dumps({"config": {"experimental_config": {
        "_profiler_level": "Level1"}}}))
    w(os.path.join(out, "step_trace_time.csv"),
      "Step,Computing,Communication (Not Overlapped),Overlapped,Communication,Free,Stage,Bubble,"
      "Communication (Not Overlapped and Exclude Receive)\n"
      ",1000.5,200.25,50,250.25,99.25,1300,0,200.25\n", crlf=True)
    w(os.path.join(out, "kernel_details.csv"),
      'Step Id,Name,Type,OP State,Accelerator Core,Start Time(us),Duration(us),Wait Time(us),Block Num,'
      'Input Shapes,aic_mac_ratio,aiv_vec_ratio\n'
      '4,"mm, fused",MatMulV2,static,AI_CORE,"1700000000000001.250\t",10.5,0,24,"""4096,4096;4096,6144""",0.8,0\n'
      '4,"say ""hi""",Add,static,AI_VECTOR_CORE,"1700000000000020.000\t",2.25,0,24,"""1,2""",0,0.7\n'
      '4,"two\nlines",MatMulV2,static,AI_CORE,"1700000000000030.000\t",20.5,0,24,"""8,8""",0.8,0\n'
      '5,mm,MatMulV2,static,AI_CORE,"1700000000000040.000\t",30.5,0,24,"""8,8""",0.8,0\n',
      crlf=True, bom=True)


def older_duplicate(root, rank):
    """An earlier run of one rank in the same place: the newer must win."""
    r = Rank(rank)
    r.stamp = "20261203071500123"
    r.comp = 1.0
    r.write(root)


def main():
    cluster("healthy")
    older_duplicate(os.path.join(HERE, "healthy"), 0)
    for name, plant in (("slow-rank", slow_rank), ("slow-link", slow_link), ("dominant-op", dominant),
                        ("host-bound", host_bound), ("aicpu", aicpu), ("dynamic", dynamic),
                        ("low-pipe", low_pipe), ("pipe-split", pipe_split), ("pipe-ranks", pipe_ranks),
                        ("small-packets", small_packets), ("small-packets-no-matrix", small_packets_no_matrix),
                        ("wait-link", wait_link), ("zero-durations", zero_durations),
                        ("level0", level0), ("no-kernels", no_kernels),
                        ("partial", partial), ("dominant-add", dominant_add),
                        ("uniform-wait", uniform_wait), ("exposed-comm", exposed_comm),
                        ("close-wait", close_wait),
                        ("unfused", unfused), ("partly-fused", partly_fused),
                        ("dit-silu", dit_silu), ("mamba-neg", mamba_neg),
                        ("memory-near", memory_near), ("memory-room", memory_room),
                        ("memory-damaged", memory_damaged),
                        ("launch-blocking", launch_blocking), ("log-level", log_level),
                        ("op-compile", op_compile), ("op-cached", op_cached), ("transdata", transdata),
                        ("small-ops", small_ops), ("unaligned", unaligned),
                        ("exposed-ddp", exposed_ddp), ("exposed-sharded", exposed_sharded)):
        cluster(name, plant)
    cluster("noisy", noisy, n=8, layout=(1, 1, 8))
    cluster("wide-spread", wide_spread, n=8, layout=(1, 1, 8))
    cluster("slow-rank-many", slow_rank_many, n=12, layout=(1, 1, 12))
    cluster("two-slow", two_slow, n=2, layout=(1, 1, 2))
    cluster("two-disagree", two_disagree, n=2, layout=(1, 1, 2))
    cluster("two-no-wait", two_no_wait, n=2, layout=(1, 1, 2))
    cluster("slow-stage", slow_stage, layout=(1, 2, 2))
    cluster("mixed-layout", mixed_layout, layout=(1, 2, 2))
    cluster("bubble", bubble, layout=(1, 2, 2))
    cluster("pipe-wait", pipe_wait, n=8, layout=(1, 4, 2))
    root, ranks = cluster("db", slow_link)
    write_db(root, ranks)
    root, ranks = cluster("mixed-export", slow_rank)
    write_db(root, ranks[2:], step="%d")
    quirks()
    no_rank()


main()
