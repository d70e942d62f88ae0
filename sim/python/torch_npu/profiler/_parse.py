"""Simulated torch_npu parser: turns a *_ascend_pt directory's raw data into
ASCEND_PROFILER_OUTPUT with the files and column headers torch_npu writes for the
collected level / activities / export type.  Numbers are synthetic but laid out on
the real recorded step times, so step ids and durations are consistent."""

import csv
import datetime
import glob
import json
import os
import random
import shutil
import time

from ._log import print_info_msg, print_error_msg, print_warn_msg

OUTPUT = "ASCEND_PROFILER_OUTPUT"

STEP_TRACE_HEADERS = ["Device_id", "Step", "Computing", "Communication(Not Overlapped)", "Overlapped",
                      "Communication", "Free", "Stage", "Bubble",
                      "Communication(Not Overlapped and Exclude Receive)", "Preparing"]
KERNEL_BASE = ["Device_id", "Name", "Type", "Accelerator Core", "Start Time(us)", "Duration(us)",
               "Wait Time(us)", "Block Num"]
SHAPE_HEADERS = ["Input Shapes", "Input Data Types", "Input Formats", "Output Shapes",
                 "Output Data Types", "Output Formats"]
KERNEL_FULL = ["Device_id", "Model ID", "Task ID", "Stream ID", "Name", "Type", "OP State",
               "Accelerator Core", "Start Time(us)", "Duration(us)", "Wait Time(us)", "Block Num",
               "Mix Block Num", "HF32 Eligible"] + SHAPE_HEADERS + ["Context ID"]
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
OP_STAT_HEADERS = ["Device_id", "OP Type", "Core Type", "Count", "Total Time(us)", "Min Time(us)",
                   "Avg Time(us)", "Max Time(us)", "Ratio(%)"]
API_STAT_HEADERS = ["Device_id", "Level", "API Name", "Time(us)", "Count", "Avg(us)", "Min(us)",
                    "Max(us)", "Variance"]
OPERATOR_DETAILS_HEADERS = ["Name", "Input Shapes", "Call Stack", "Host Self Duration(us)",
                            "Host Total Duration(us)", "Device Self Duration(us)", "Device Total Duration(us)",
                            "Device Self Duration With AICore(us)", "Device Total Duration With AICore(us)"]
OPERATOR_MEMORY_HEADERS = ["Name", "Size(KB)", "Allocation Time(us)", "Release Time(us)",
                           "Active Release Time(us)", "Duration(us)", "Active Duration(us)",
                           "Allocation Total Allocated(MB)", "Allocation Total Reserved(MB)",
                           "Allocation Total Active(MB)", "Release Total Allocated(MB)",
                           "Release Total Reserved(MB)", "Release Total Active(MB)", "Stream Ptr", "Device Type"]
MEMORY_RECORD_HEADERS = ["Component", "Timestamp(us)", "Total Allocated(MB)", "Total Reserved(MB)",
                         "Total Active(MB)", "Stream Ptr", "Device Type"]
NPU_MODULE_MEM_HEADERS = ["Device_id", "Component", "Timestamp(us)", "Total Reserved(MB)", "Device"]
DATA_PREPROCESS_HEADERS = ["Device_id", "Timestamp(us)", "Node", "Compute_time(us)", "Memcpy_time(us)",
                           "Task_time(us)", "Dispatch_time(us)", "Total_time(us)", "Stream ID", "Task ID"]

# (op name, op type, accelerator core, share of the step's compute time, input shapes)
KERNELS = [
    ("aclnnEmbedding_GatherV2AiCore_GatherV2", "GatherV2", "AI_VECTOR_CORE", 0.010, "151936,4096;1,4096"),
    ("aclnnRmsNorm_RmsNorm_RmsNorm", "RmsNorm", "AI_VECTOR_CORE", 0.025, "4096,1,4096;4096"),
    ("aclnnMatmul_MatMulCommon_MatMulV2", "MatMulV2", "AI_CORE", 0.180, "4096,4096;4096,6144"),
    ("aclnnFlashAttentionScore_FlashAttentionScore_FlashAttentionScore", "FlashAttentionScore",
     "MIX_AIC", 0.140, "4096,1,4096;4096,1,1024;4096,1,1024"),
    ("aclnnAdd_AddAiCore_Add", "Add", "AI_VECTOR_CORE", 0.020, "4096,1,4096;4096,1,4096"),
    ("aclnnSwiGlu_SwiGlu_SwiGlu", "SwiGlu", "AI_VECTOR_CORE", 0.045, "4096,1,24576"),
    ("aclnnMatmul_MatMulCommon_MatMulV2", "MatMulV2", "AI_CORE", 0.200, "4096,12288;12288,4096"),
    ("aclnnFlashAttentionScoreGrad_FlashAttentionScoreGrad_FlashAttentionScoreGrad",
     "FlashAttentionScoreGrad", "MIX_AIC", 0.210, "4096,1,4096;4096,1,1024;4096,1,1024"),
    ("aclnnCast_CastAiCore_Cast", "Cast", "AI_VECTOR_CORE", 0.030, "4096,4096"),
    ("aclnnInplaceAdd_AxpyAiCore_Axpy", "Axpy", "AI_VECTOR_CORE", 0.040, "4096,4096;4096,4096"),
    ("aclnnAdamW_ApplyAdamWV2AiCore_ApplyAdamWV2", "ApplyAdamWV2", "AI_VECTOR_CORE", 0.100, "4096,4096"),
]
AICPU_KERNEL = ("aclnnNonzero_NonzeroAiCpu_NonZero", "NonZero", "AI_CPU", 0.004, "4096")
COMM_KERNEL = ("hcom_allReduce__418_0_1", "hcom_allReduce_", "HCCL")
LEVEL0_TRIM = ("CANN", "AscendCL", "Runtime", "GE", "Node", "Model", "Hccl", "acl_to_npu", "Communication@")


def _us(ns):
    return ns / 1000.0


def _fmt(v, nd=3):
    return ("%.*f" % (nd, v)).rstrip("0").rstrip(".") if isinstance(v, float) else str(v)


def _write_csv(path, headers, rows):
    if not rows:      # torch_npu writes no file for an empty table
        return
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(headers)
        w.writerows(rows)


def _read_lines(path):
    out = []
    if os.path.isfile(path):
        with open(path) as f:
            for line in f:
                line = line.strip()
                if line:
                    out.append(json.loads(line))
    return out


def is_profiler_dir(path):
    if not os.path.isdir(path):
        return False
    if os.path.isdir(os.path.join(path, "FRAMEWORK")):
        return True
    return any(os.path.isdir(p) for p in glob.glob(os.path.join(path, "PROF_*")))


def profiler_dirs(path):
    """A *_ascend_pt directory itself, or the ones one level below `path`."""
    if is_profiler_dir(path):
        return [path]
    if not os.path.isdir(path):
        return []
    out = []
    for name in sorted(os.listdir(path)):
        sub = os.path.join(path, name)
        if is_profiler_dir(sub):
            out.append(sub)
    return out


def _delta(seconds):
    return str(datetime.timedelta(seconds=seconds))


class _Model:
    """Synthetic device activity derived from the recorded steps."""

    def __init__(self, info, steps):
        cfg = info["config"]
        self.common = cfg["common_config"]
        self.exp = cfg["experimental_config"]
        acts = self.common["activities"]
        self.has_cpu = "ProfilerActivity.CPU" in acts
        self.has_npu = "ProfilerActivity.NPU" in acts
        self.level = self.exp["_profiler_level"]
        self.aic = self.exp["_aic_metrics"]
        self.rank = info.get("rank_id", -1)
        self.device = info.get("device_id", 0)
        self.world = int(info.get("world_size", 1) or 1)
        self.pid = info.get("pid", 0)
        self.steps = steps
        self.schedule_used = bool(self.common.get("schedule")) and bool(steps)
        self.kernels = []      # dicts
        self.step_rows = []
        self._build()

    def _build(self):
        kinds = list(KERNELS)
        if self.level == "Level2":
            kinds.append(AICPU_KERNEL)
        task = 1
        for mark in self.steps:
            k, b, e = mark["step"], mark["start_ns"], mark["end_ns"]
            rnd = random.Random(max(self.rank, 0) * 1000003 + k * 7919 + 17)
            span = max(e - b, 1000)
            compute_span = span * 0.80
            t = b + span * 0.02
            computing = 0.0
            for name, typ, core, share, shapes in kinds:
                dur = compute_span * share * rnd.uniform(0.92, 1.08)
                self.kernels.append({"step": k, "name": name, "type": typ, "core": core, "start": t,
                                     "dur": dur, "wait": rnd.uniform(0.5, 3.0) * 1000, "task": task,
                                     "stream": 2 if core != "AI_CPU" else 4, "shapes": shapes,
                                     "block": 24 if core != "AI_CPU" else 0})
                task += 1
                t += dur + 2000
                computing += dur
            comm = 0.0
            overlapped = 0.0
            if self.world > 1:
                cdur = span * 0.14 * rnd.uniform(0.9, 1.1)
                cstart = t - cdur * 0.3
                self.kernels.append({"step": k, "name": COMM_KERNEL[0], "type": COMM_KERNEL[1],
                                     "core": COMM_KERNEL[2], "start": cstart, "dur": cdur, "wait": 0.0,
                                     "task": task, "stream": 7, "shapes": "", "block": 0})
                task += 1
                comm = cdur
                overlapped = cdur * 0.3
            not_overlapped = comm - overlapped
            free = max(span - computing - not_overlapped, 0.0)
            self.step_rows.append({"step": k, "begin": b, "end": e, "computing": computing,
                                   "comm_not_overlapped": not_overlapped, "overlapped": overlapped,
                                   "comm": comm, "free": free, "stage": span,
                                   "preparing": span * 0.01})

    # ---------------------------------------------------------------- tables
    def kernel_table(self):
        full = self.level in ("Level1", "Level2")
        shapes = full or bool(self.common.get("record_shapes"))
        headers = list(KERNEL_FULL) if full else list(KERNEL_BASE) + (SHAPE_HEADERS if shapes else [])
        aic_cols = []
        if full:
            aic_cols = AIC_ARITH if self.aic == "ACL_AICORE_ARITHMETIC_UTILIZATION" else AIC_PIPE
            headers += aic_cols
        if self.schedule_used:
            headers = ["Step Id"] + headers
        rows = []
        for kn in self.kernels:
            start = "%.3f\t" % _us(kn["start"])
            dur = round(_us(kn["dur"]), 3)
            wait = round(_us(kn["wait"]), 3)
            shape_vals = [kn["shapes"], "DT_BF16", "ND", kn["shapes"], "DT_BF16", "ND"]
            if full:
                row = [self.device, 4294967295, kn["task"], kn["stream"], kn["name"], kn["type"], "dynamic",
                       kn["core"], start, dur, wait, kn["block"], 0, "NO"] + shape_vals + ["N/A"]
                rnd = random.Random(kn["task"])
                if kn["core"] in ("HCCL", "AI_CPU"):
                    row += ["N/A"] * len(aic_cols)
                else:
                    row += [round(dur * rnd.uniform(0.6, 0.95), 3) if "(us)" in c else
                            (rnd.randint(10 ** 5, 10 ** 7) if "cycles" in c or "fops" in c else
                             round(rnd.uniform(0.01, 0.9), 3)) for c in aic_cols]
            else:
                row = [self.device, kn["name"], kn["type"], kn["core"], start, dur, wait, kn["block"]]
                if shapes:
                    row += shape_vals
            if self.schedule_used:
                row = [kn["step"]] + row
            rows.append(row)
        return headers, rows

    def step_trace_table(self):
        rows = []
        for s in sorted(self.step_rows, key=lambda r: r["step"]):
            rows.append([self.device, s["step"]] + [round(_us(s[key]), 3) for key in
                        ("computing", "comm_not_overlapped", "overlapped", "comm", "free", "stage")]
                        + [0, round(_us(s["comm_not_overlapped"]), 3), round(_us(s["preparing"]), 3)])
        return STEP_TRACE_HEADERS, rows

    def op_statistic_table(self):
        groups = {}
        for kn in self.kernels:
            groups.setdefault((kn["type"], kn["core"]), []).append(_us(kn["dur"]))
        total = sum(sum(v) for v in groups.values()) or 1.0
        rows = []
        for (typ, core), durs in sorted(groups.items(), key=lambda kv: -sum(kv[1])):
            rows.append([self.device, typ, core, len(durs), round(sum(durs), 3), round(min(durs), 3),
                         round(sum(durs) / len(durs), 3), round(max(durs), 3),
                         round(100.0 * sum(durs) / total, 3)])
        return OP_STAT_HEADERS, rows

    def api_statistic_table(self):
        rows = []
        n = max(len(self.steps), 1)
        for level, api, per_step, avg in (("acl", "aclnnMatmul", 2, 58.2), ("acl", "aclnnFlashAttentionScore", 1, 71.4),
                                          ("runtime", "aclrtLaunchKernel", 12, 6.1),
                                          ("runtime", "aclrtSynchronizeStreamWithTimeout", 1, 1210.5),
                                          ("node", "MatMulV2", 2, 12.3), ("hccl", "HcclAllReduce", 1, 95.0)):
            if api == "HcclAllReduce" and self.world <= 1:
                continue
            cnt = per_step * n
            rows.append([self.device, level, api, round(avg * cnt, 3), cnt, avg, round(avg * 0.8, 3),
                         round(avg * 1.4, 3), round(avg * 0.05, 3)])
        return API_STAT_HEADERS, rows

    def npu_module_mem_table(self):
        rows = []
        for s in self.step_rows:
            for comp, mb in (("APP", 4608.0), ("SLOG", 12.5), ("HCCL", 512.0), ("RUNTIME", 96.0)):
                rows.append([self.device, comp, "%.3f\t" % _us(s["begin"]), mb, "NPU:%d" % self.device])
        return NPU_MODULE_MEM_HEADERS, rows

    def data_preprocess_table(self):
        rows = []
        for kn in self.kernels:
            if kn["core"] == "AI_CPU":
                d = _us(kn["dur"])
                rows.append([self.device, "%.3f\t" % _us(kn["start"]), kn["type"], round(d * 0.7, 3),
                             round(d * 0.1, 3), round(d * 0.85, 3), round(d * 0.05, 3), round(d, 3),
                             kn["stream"], kn["task"]])
        return DATA_PREPROCESS_HEADERS, rows

    def operator_details_table(self, ops):
        stack = bool(self.common.get("with_stack"))
        shapes = bool(self.common.get("record_shapes"))
        rows = []
        for op in ops:
            host = round(_us(op["end_ns"] - op["start_ns"]), 3)
            dev = round(host * 0.62, 3)
            rows.append([op["name"], "[[4096, 1, 4096]]" if shapes else "",
                         ("megatron/core/transformer/transformer_layer.py(201): forward;"
                          "torch/nn/modules/module.py(1518): _call_impl") if stack else "",
                         round(host * 0.2, 3), host, dev, dev, round(dev * 0.9, 3), round(dev * 0.9, 3)])
        return OPERATOR_DETAILS_HEADERS, rows

    def operator_memory_table(self):
        rows = []
        for s in self.step_rows:
            a = _us(s["begin"]) + 150.0
            rows.append(["aten::empty", 262144.0, "%.3f\t" % a, "%.3f\t" % (a + 900.0), "%.3f\t" % (a + 880.0),
                         900.0, 880.0, 3393.0, 4608.0, 3393.0, 3137.0, 4608.0, 3137.0, 187651256098816,
                         "NPU:%d" % self.device])
            rows.append(["aten::matmul", 98304.0, "%.3f\t" % (a + 40.0), "%.3f\t" % (a + 700.0),
                         "%.3f\t" % (a + 690.0), 660.0, 650.0, 3489.0, 4608.0, 3489.0, 3393.0, 4608.0, 3393.0,
                         187651256098816, "NPU:%d" % self.device])
        return OPERATOR_MEMORY_HEADERS, rows

    def memory_record_table(self):
        rows = []
        comps = ("PTA", "APP") if self.has_cpu else ("APP",)
        for s in self.step_rows:
            for comp in comps:
                rows.append([comp, "%.3f\t" % _us(s["begin"]), 3393.0 if comp == "PTA" else 4211.0, 4608.0,
                             3393.0 if comp == "PTA" else 4211.0, 187651256098816, "NPU:%d" % self.device])
        return MEMORY_RECORD_HEADERS, rows

    def trace_events(self, ops):
        ev = []
        host_pid, hw_pid, comm_pid, ov_pid, cann_pid = self.pid, 10000 + self.device * 100 + 1, \
            10000 + self.device * 100 + 2, 10000 + self.device * 100 + 3, 10000 + self.device * 100 + 4
        ev.append({"ph": "M", "name": "process_name", "pid": host_pid, "tid": 0, "args": {"name": "Python"}})
        ev.append({"ph": "M", "name": "process_labels", "pid": host_pid, "tid": 0, "args": {"labels": "CPU"}})
        if self.has_npu:
            ev.append({"ph": "M", "name": "process_name", "pid": hw_pid, "tid": 0, "args": {"name": "Ascend Hardware"}})
            ev.append({"ph": "M", "name": "process_labels", "pid": hw_pid, "tid": 0,
                       "args": {"labels": "NPU %d" % self.device}})
            ev.append({"ph": "M", "name": "process_name", "pid": ov_pid, "tid": 0, "args": {"name": "Overlap Analysis"}})
            if self.world > 1:
                ev.append({"ph": "M", "name": "process_name", "pid": comm_pid, "tid": 0,
                           "args": {"name": "Communication"}})
            if self.level != "Level0":
                ev.append({"ph": "M", "name": "process_name", "pid": cann_pid, "tid": 0, "args": {"name": "CANN"}})
        for m in self.steps:
            ev.append({"ph": "X", "name": m["name"], "pid": host_pid, "tid": m.get("tid", host_pid),
                       "ts": "%.3f" % _us(m["start_ns"]), "dur": round(_us(m["end_ns"] - m["start_ns"]), 3),
                       "cat": "cpu_op", "args": {"Sequence number": -1}})
        for op in ops:
            ev.append({"ph": "X", "name": op["name"], "pid": host_pid, "tid": host_pid,
                       "ts": "%.3f" % _us(op["start_ns"]), "dur": round(_us(op["end_ns"] - op["start_ns"]), 3),
                       "cat": "cpu_op", "args": {"Sequence number": -1, "Fwd thread id": 0}})
        for kn in self.kernels:
            is_comm = kn["core"] == "HCCL"
            ev.append({"ph": "X", "name": kn["name"], "pid": comm_pid if is_comm else hw_pid,
                       "tid": kn["stream"], "ts": "%.3f" % _us(kn["start"]), "dur": round(_us(kn["dur"]), 3),
                       "args": {"Model Id": 4294967295, "Task Type": kn["core"], "Stream Id": kn["stream"],
                                "Task Id": kn["task"], "Batch Id": 0, "Subtask Id": 4294967295,
                                "connection_id": kn["task"]}})
            if self.level != "Level0" and not is_comm:
                ev.append({"ph": "X", "name": "AscendCL@" + kn["name"].split("_")[0], "pid": cann_pid, "tid": 0,
                           "ts": "%.3f" % (_us(kn["start"]) - 45.0), "dur": 12.0, "args": {"Thread Id": self.pid}})
        for s in self.step_rows:
            for name, key in (("Computing", "computing"), ("Communication(Not Overlapped)", "comm_not_overlapped"),
                              ("Free", "free")):
                if s[key] > 0:
                    ev.append({"ph": "X", "name": name, "pid": ov_pid, "tid": 0,
                               "ts": "%.3f" % _us(s["begin"]), "dur": round(_us(s[key]), 3)})
        if self.common.get("profile_memory"):
            for s in self.step_rows:
                ev.append({"ph": "C", "name": "NPU %d" % self.device, "pid": host_pid, "tid": 0,
                           "ts": "%.3f" % _us(s["begin"]), "args": {"PTA Allocated": 3393.0, "PTA Reserved": 4608.0}})
        if self.level == "Level0":
            ev = [e for e in ev if not str(e.get("name", "")).startswith(LEVEL0_TRIM)]
        return ev

    def communication(self):
        comm, matrix = {}, {}
        for s in self.step_rows:
            if s["comm"] <= 0:
                continue
            key = "step%d" % s["step"]
            name = "%s@%d" % (COMM_KERNEL[0], 1)
            elapse = round(s["comm"] / 1e6, 4)
            comm[key] = {"p2p": {}, "collective": {name: {
                "Communication Time Info": {
                    "Start Timestamp(us)": round(_us(s["end"] - s["comm"]), 3), "Elapse Time(ms)": elapse,
                    "Transit Time(ms)": round(elapse * 0.7, 4), "Wait Time(ms)": round(elapse * 0.2, 4),
                    "Synchronization Time(ms)": round(elapse * 0.05, 4), "Idle Time(ms)": round(elapse * 0.1, 4),
                    "Wait Time Ratio": 0.2222, "Synchronization Time Ratio": 0.0667},
                "Communication Bandwidth Info": {
                    "RDMA": {"Transit Size(MB)": 0, "Transit Time(ms)": 0, "Bandwidth(GB/s)": 0,
                             "Large Packet Ratio": 0, "Size Distribution": {}},
                    "HCCS": {"Transit Size(MB)": 256.0, "Transit Time(ms)": round(elapse * 0.7, 4),
                             "Bandwidth(GB/s)": round(0.25 / max(elapse * 0.7 / 1000, 1e-6), 4),
                             "Large Packet Ratio": 0.0, "Size Distribution": {"256.0": [1, round(elapse * 0.7, 4)]}},
                    "PCIE": {"Transit Size(MB)": 0, "Transit Time(ms)": 0, "Bandwidth(GB/s)": 0,
                             "Large Packet Ratio": 0, "Size Distribution": {}},
                    "SDMA": {"Transit Size(MB)": 256.0, "Transit Time(ms)": round(elapse * 0.7, 4),
                             "Bandwidth(GB/s)": round(0.25 / max(elapse * 0.7 / 1000, 1e-6), 4),
                             "Large Packet Ratio": 0, "Size Distribution": {}}}}}}
            links = {}
            for peer in range(min(self.world, 8)):
                if peer == max(self.rank, 0):
                    continue
                links["%d-%d" % (max(self.rank, 0), peer)] = {
                    "Transport Type": "HCCS", "Transit Size(MB)": 256.0 / max(self.world - 1, 1),
                    "Transit Time(ms)": round(elapse * 0.7, 4), "Bandwidth(GB/s)": 18.7,
                    "Op Name": name}
            matrix[key] = {"p2p": {}, "collective": {"allreduce-top1@%d" % 1: links}}
        return comm, matrix


def _cann_parse(path, model, simplify):
    """What msprof's export leaves in PROF_*: summary/timeline/sqlite per device and
    mindstudio_profiler_output / mindstudio_profiler_log."""
    for prof in glob.glob(os.path.join(path, "PROF_*")):
        ts = time.strftime("%Y%m%d%H%M%S")
        for dev in glob.glob(os.path.join(prof, "device_*")) + [os.path.join(prof, "host")]:
            for sub in ("sqlite", "summary", "timeline"):
                os.makedirs(os.path.join(dev, sub), exist_ok=True)
        out = os.path.join(prof, "mindstudio_profiler_output")
        log = os.path.join(prof, "mindstudio_profiler_log")
        os.makedirs(out, exist_ok=True)
        os.makedirs(log, exist_ok=True)
        h, rows = model.kernel_table()
        _write_csv(os.path.join(out, "op_summary_%s.csv" % ts), h, rows)
        h, rows = model.op_statistic_table()
        _write_csv(os.path.join(out, "op_statistic_%s.csv" % ts), h, rows)
        with open(os.path.join(out, "msprof_%s.json" % ts), "w") as f:
            json.dump(model.trace_events([]), f)
        with open(os.path.join(log, "msprof_analysis_%d.log" % os.getpid()), "w") as f:
            f.write("[INFO] msprof export finished for %s\n" % os.path.basename(prof))
        if model.world > 1 and model.level in ("Level1", "Level2"):
            os.makedirs(os.path.join(prof, "analyze"), exist_ok=True)
            with open(os.path.join(prof, "analyze", "communication.json"), "w") as f:
                json.dump(model.communication()[0], f)
        # torch_npu's simplify_data
        for dev in glob.glob(os.path.join(prof, "device_*")) + [os.path.join(prof, "host")]:
            shutil.rmtree(os.path.join(dev, "sqlite"), ignore_errors=True)
            if simplify:
                shutil.rmtree(os.path.join(dev, "summary"), ignore_errors=True)
                shutil.rmtree(os.path.join(dev, "timeline"), ignore_errors=True)
        if simplify:
            for sub in ("analyze", "mindstudio_profiler_output", "mindstudio_profiler_log"):
                shutil.rmtree(os.path.join(prof, sub), ignore_errors=True)


def _write_text(out, model, ops):
    with open(os.path.join(out, "trace_view.json"), "w") as f:
        json.dump(model.trace_events(ops), f)
    if model.has_cpu:
        _write_csv(os.path.join(out, "operator_details.csv"), *model.operator_details_table(ops))
    if model.common.get("profile_memory"):
        if model.has_cpu:
            _write_csv(os.path.join(out, "operator_memory.csv"), *model.operator_memory_table())
        _write_csv(os.path.join(out, "memory_record.csv"), *model.memory_record_table())
    if not model.has_npu or model.level == "Level_none":
        return
    _write_csv(os.path.join(out, "kernel_details.csv"), *model.kernel_table())
    _write_csv(os.path.join(out, "step_trace_time.csv"), *model.step_trace_table())
    _write_csv(os.path.join(out, "npu_module_mem.csv"), *model.npu_module_mem_table())
    if model.level in ("Level1", "Level2"):
        _write_csv(os.path.join(out, "op_statistic.csv"), *model.op_statistic_table())
        _write_csv(os.path.join(out, "api_statistic.csv"), *model.api_statistic_table())
        comm, matrix = model.communication()
        if comm:
            with open(os.path.join(out, "communication.json"), "w") as f:
                json.dump(comm, f, indent=4)
            with open(os.path.join(out, "communication_matrix.json"), "w") as f:
                json.dump(matrix, f, indent=4)
    if model.level == "Level2":
        _write_csv(os.path.join(out, "data_preprocess.csv"), *model.data_preprocess_table())


def _write_db(out, model, ops):
    import sqlite3
    name = "ascend_pytorch_profiler_%d.db" % model.rank if model.rank >= 0 else "ascend_pytorch_profiler.db"
    db = sqlite3.connect(os.path.join(out, name))
    try:
        c = db.cursor()
        c.execute("CREATE TABLE META_DATA (name TEXT, value TEXT)")
        c.executemany("INSERT INTO META_DATA VALUES (?, ?)",
                      [("SCHEMA_VERSION", "1.1.0"), ("RANK_ID", str(model.rank)), ("DEVICE_ID", str(model.device))])
        c.execute("CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY, value TEXT)")
        names = sorted({k["name"] for k in model.kernels} | {o["name"] for o in ops})
        ids = {n: i for i, n in enumerate(names)}
        c.executemany("INSERT INTO STRING_IDS VALUES (?, ?)", [(i, n) for n, i in ids.items()])
        c.execute("CREATE TABLE STEP_TIME (id INTEGER, startNs INTEGER, endNs INTEGER)")
        c.executemany("INSERT INTO STEP_TIME VALUES (?, ?, ?)",
                      [(m["step"], m["start_ns"], m["end_ns"]) for m in model.steps])
        if ops:
            c.execute("CREATE TABLE PYTORCH_API (startNs INTEGER, endNs INTEGER, globalTid INTEGER, "
                      "connectionId INTEGER, name INTEGER, sequenceNumber INTEGER, fwdThreadId INTEGER, "
                      "inputDtypes INTEGER, inputShapes INTEGER, callchainId INTEGER, type INTEGER)")
            c.executemany("INSERT INTO PYTORCH_API VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                          [(o["start_ns"], o["end_ns"], model.pid, i, ids[o["name"]], -1, 0, None, None, None, 0)
                           for i, o in enumerate(ops)])
        if model.has_npu and model.level != "Level_none":
            c.execute("CREATE TABLE TASK (startNs INTEGER, endNs INTEGER, deviceId INTEGER, connectionId INTEGER, "
                      "globalTaskId INTEGER, globalPid INTEGER, taskType INTEGER, contextId INTEGER, "
                      "streamId INTEGER, taskId INTEGER, modelId INTEGER)")
            c.executemany("INSERT INTO TASK VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                          [(int(k["start"]), int(k["start"] + k["dur"]), model.device, k["task"], k["task"],
                            model.pid, 0, 4294967295, k["stream"], k["task"], 4294967295) for k in model.kernels])
            c.execute("CREATE TABLE COMPUTE_TASK_INFO (name INTEGER, globalTaskId INTEGER, blockDim INTEGER, "
                      "mixBlockDim INTEGER, taskType TEXT, opType TEXT)")
            c.executemany("INSERT INTO COMPUTE_TASK_INFO VALUES (?,?,?,?,?,?)",
                          [(ids[k["name"]], k["task"], k["block"], 0, k["core"], k["type"])
                           for k in model.kernels if k["core"] != "HCCL"])
        db.commit()
    finally:
        db.close()
    if model.has_npu and model.level != "Level_none":
        db = sqlite3.connect(os.path.join(out, "analysis.db"))
        try:
            c = db.cursor()
            c.execute("CREATE TABLE StepTraceTime (deviceId INTEGER, step TEXT, computing NUMERIC, "
                      "communication_not_overlapped NUMERIC, overlapped NUMERIC, communication NUMERIC, "
                      "free NUMERIC, stage NUMERIC, bubble NUMERIC, communication_not_overlapped_and_exclude_receive "
                      "NUMERIC, preparing NUMERIC)")
            _h, rows = model.step_trace_table()
            c.executemany("INSERT INTO StepTraceTime VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                          [[r[0], str(r[1])] + r[2:] for r in rows])
            if model.level in ("Level1", "Level2") and model.world > 1:
                c.execute("CREATE TABLE CommAnalyzerTime (hccl_op_name TEXT, group_name TEXT, start_timestamp NUMERIC, "
                          "elapse_time NUMERIC, transit_time NUMERIC, wait_time NUMERIC, synchronization_time NUMERIC, "
                          "idle_time NUMERIC, step TEXT, type TEXT)")
                comm, _m = model.communication()
                for step, data in comm.items():
                    for op, info in data["collective"].items():
                        t = info["Communication Time Info"]
                        c.execute("INSERT INTO CommAnalyzerTime VALUES (?,?,?,?,?,?,?,?,?,?)",
                                  (op, "hccl_world_group", t["Start Timestamp(us)"], t["Elapse Time(ms)"],
                                   t["Transit Time(ms)"], t["Wait Time(ms)"], t["Synchronization Time(ms)"],
                                   t["Idle Time(ms)"], step, "collective"))
                c.execute("CREATE TABLE CommAnalyzerBandwidth (hccl_op_name TEXT, group_name TEXT, "
                          "transport_type TEXT, transit_size NUMERIC, transit_time NUMERIC, bandwidth NUMERIC, "
                          "large_packet_ratio NUMERIC, package_size NUMERIC, count NUMERIC, total_duration NUMERIC, "
                          "step TEXT, type TEXT)")
                c.execute("CREATE TABLE CommAnalyzerMatrix (hccl_op_name TEXT, group_name TEXT, src_rank TEXT, "
                          "dst_rank TEXT, transport_type TEXT, transit_size NUMERIC, transit_time NUMERIC, "
                          "bandwidth NUMERIC, step TEXT, type TEXT, op_name TEXT)")
            db.commit()
        finally:
            db.close()


def _info_file(path):
    found = sorted(glob.glob(os.path.join(path, "profiler_info_*.json")) +
                   glob.glob(os.path.join(path, "profiler_info.json")))
    return found[0] if found else None


def parse(path, export_type=None):
    """Parse one *_ascend_pt directory.  Returns True on success."""
    t0 = time.time()
    print_info_msg(f"Start parsing profiling data in sync mode at: {path}")
    info_path = _info_file(path)
    if info_path is None:
        print_error_msg(f"Profiling data parsing failed, error: profiler_info.json not found in {path}")
        return False
    try:
        with open(info_path) as f:
            info = json.load(f)
        steps = _read_lines(os.path.join(path, "FRAMEWORK", "torch.op_mark"))
        ops = _read_lines(os.path.join(path, "FRAMEWORK", "torch.op_range"))
    except (OSError, ValueError) as err:
        print_error_msg(f"Profiling data parsing failed, error: {err}")
        return False
    exp = info["config"]["experimental_config"]
    if export_type is None:
        types = exp.get("_export_type") or ["text"]
    elif isinstance(export_type, (list, tuple)):
        types = [str(t).lower() for t in export_type]
    else:
        types = [str(export_type).lower()]
    bad = [t for t in types if t not in ("text", "db")]
    if bad:
        print_error_msg(f"Invalid export type: {bad[0]}, it should be text or db.")
        return False
    model = _Model(info, steps)
    out = os.path.join(path, OUTPUT)
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out, exist_ok=True)
    simplify = bool(exp.get("_data_simplification"))
    if model.has_npu and model.level != "Level_none" and glob.glob(os.path.join(path, "PROF_*")):
        t1 = time.time()
        _cann_parse(path, model, simplify)
        print_info_msg(f"CANN profiling data parsed in a total time of {_delta(time.time() - t1)}")
    if "text" in types:
        _write_text(out, model, ops)
    if "db" in types:
        _write_db(out, model, ops)
    if model.has_npu and not steps and model.schedule_used:
        print_warn_msg("No step data found, parsed data may be empty.")
    logs = os.path.join(path, "logs")
    os.makedirs(logs, exist_ok=True)
    with open(os.path.join(logs, "profiler_parse_%d.log" % os.getpid()), "a") as f:
        f.write("%s [INFO] [%d] parsed %s export=%s\n" % (time.strftime("%Y-%m-%d %H:%M:%S"), os.getpid(),
                                                        path, ",".join(types)))
    with open(os.path.join(out, "analyse.done"), "w"):
        pass
    print_info_msg(f"All profiling data parsed in a total time of {_delta(time.time() - t0)}")
    return True
