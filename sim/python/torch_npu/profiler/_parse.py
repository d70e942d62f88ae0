"""Simulated torch_npu parser: turns a *_ascend_pt directory's raw data into
ASCEND_PROFILER_OUTPUT with the files and column headers torch_npu writes for the
collected level / activities / export type.  Numbers are synthetic but laid out on
the real recorded step times, so step ids and durations are consistent."""

import csv
import datetime
import glob
import json
import os
import shutil
import sys
import time

from ._log import print_info_msg, print_error_msg, print_warn_msg

# the job model shared with sim/gen-cluster lives in sim/lib (see profdata.py there)
_LIB = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "lib")
if _LIB not in sys.path:
    sys.path.insert(0, _LIB)
from msprof_sim import profdata  # noqa: E402

OUTPUT = "ASCEND_PROFILER_OUTPUT"

API_STAT_HEADERS = ["Level", "API Name", "Time(us)", "Count", "Avg(us)", "Min(us)",
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
NPU_MODULE_MEM_HEADERS = ["Component", "Timestamp(us)", "Total Reserved(MB)", "Device"]
L2_CACHE_HEADERS = ["Stream Id", "Task Id", "Hit Rate", "Victim Rate", "Op Name"]
DATA_PREPROCESS_HEADERS = ["Device_id", "Timestamp(us)", "Node", "Compute_time(us)", "Memcpy_time(us)",
                           "Task_time(us)", "Dispatch_time(us)", "Total_time(us)", "Stream ID", "Task ID"]

LEVEL0_TRIM = ("CANN", "AscendCL", "Runtime", "GE", "Node", "Model", "Hccl", "acl_to_npu", "Communication@")


def _us(ns):
    return ns / 1000.0


def _fmt(v, nd=3):
    return ("%.*f" % (nd, v)).rstrip("0").rstrip(".") if isinstance(v, float) else str(v)


def _write_csv(path, headers, rows):
    profdata.write_csv(path, headers, rows)


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


def _env_int(name, default):
    try:
        return int(os.environ.get(name, "").strip())
    except ValueError:
        return default


def _delta(seconds):
    return str(datetime.timedelta(seconds=seconds))


class _Model:
    """Synthetic device activity of this rank, cut from profdata's model of the
    whole job (so communication data agrees across ranks).  Kernels and steps are
    kept here in ns, as the raw data has them."""

    def __init__(self, info, steps, metadata=None):
        cfg = info["config"]
        self.common = cfg["common_config"]
        self.exp = cfg["experimental_config"]
        acts = self.common["activities"]
        self.has_cpu = "ProfilerActivity.CPU" in acts
        self.has_npu = "ProfilerActivity.NPU" in acts
        self.level = self.exp["_profiler_level"]
        self.aic = self.exp["_aic_metrics"]
        self.rank = info.get("rank_id", -1)
        facts = info.get("_sim_facts") or {}
        self.device = facts.get("device_id", info.get("device_id", 0))
        self.world = int(facts.get("world_size", info.get("world_size", 1)) or 1)
        self.pid = facts.get("pid", info.get("pid", 0))
        self.begin_ns = facts.get("collection_begin_ns") or info.get("start_info", {}).get("collectionTimeBegin") or 0
        self.steps = steps
        self.schedule_used = bool(self.common.get("schedule")) and bool(steps)
        knobs = profdata.Knobs.from_env()
        dargs = (metadata or {}).get("distributed_args") or {}
        layout = profdata.Layout.from_args(dargs, self.world, knobs.seed)
        if layout.world != self.world:
            layout = profdata.Layout(self.world, seed=knobs.seed)
        # the device's step: the training's (MindSpeed-LLM's, from its model), kept
        # with the raw data, else the nominal MSPROF_SIM_STEP_MS
        device_us = facts.get("device_step_us")
        if device_us is None:
            try:
                device_us = float(os.environ["MSPROF_SIM_DEVICE_STEP_US"])
            except (KeyError, ValueError):
                device_us = None
        step_us = device_us if device_us else max(_env_int("MSPROF_SIM_STEP_MS", 25), 0) * 1000.0
        job = profdata.Job(layout, knobs, step_us)
        self._host_map = None
        if device_us and steps:
            # the device's time is not the wall clock's: the steps are laid out
            # one device step after the other, and host times within a step
            # stretched with it, so that the kernels stay in their steps
            steps = self._device_timeline(job, steps)
            self.steps = steps
        marks = [(m["step"], m["start_ns"] / 1000.0) for m in steps]
        if not marks:
            # without a schedule the whole collection is one step with an empty Step
            begin = self.begin_ns
            marks = [(None, begin / 1000.0)]
        self.data = profdata.RankData(job, max(self.rank, 0), self.device, marks, self.level, self.aic,
                                      bool(self.common.get("record_shapes")), self.schedule_used)
        self.kernels = []
        for kn in self.data.kernels():
            kn["start"] = kn["start"] * 1000.0
            kn["dur"] = kn["dur"] * 1000.0
            kn["wait"] = kn["wait"] * 1000.0
            self.kernels.append(kn)
        self.step_rows = [{"step": r["step"], "begin": r["begin"] * 1000.0, "computing": r["computing"] * 1000.0,
                           "comm_not_overlapped": r["cno"] * 1000.0, "free": r["free"] * 1000.0}
                          for r in self.data.step_rows()]

    def _device_timeline(self, job, steps):
        """The step marks moved onto the device's time (each step as long as the
        job model's, the host's gaps between steps kept), and the map of host
        times onto it."""
        pieces = []         # (host start, host end, device start, device end)
        out = []
        t = None
        prev_end = None
        for m in steps:
            span_ns = max(job.step(m["step"])[2]) * 1000.0
            b = m["start_ns"] if t is None else t + max(m["start_ns"] - prev_end, 0)
            e = b + span_ns
            pieces.append((m["start_ns"], m["end_ns"], b, e))
            mm = dict(m)
            mm["start_ns"], mm["end_ns"] = int(b), int(e)
            out.append(mm)
            t, prev_end = e, m["end_ns"]
        self._host_map = pieces
        return out

    def host_time(self, ns):
        """A host time of the collection on the device's timeline."""
        if not self._host_map:
            return ns
        for hs, he, ds, de in self._host_map:
            if ns < hs:
                return ds - (hs - ns)
            if ns <= he:
                return ds + (ns - hs) * (de - ds) / max(he - hs, 1)
        hs, he, ds, de = self._host_map[-1]
        return de + (ns - he)

    def host_ops(self, ops):
        """The host's operator ranges on the device's timeline."""
        if not self._host_map:
            return ops
        out = []
        for o in ops:
            o = dict(o)
            o["start_ns"], o["end_ns"] = int(self.host_time(o["start_ns"])), int(self.host_time(o["end_ns"]))
            out.append(o)
        return out

    # ---------------------------------------------------------------- tables
    def kernel_table(self):
        return self.data.kernel_headers(), self.data.kernel_rows()

    def api_statistic_table(self):
        """api_statistic.csv.  The operator MSPROF_SIM_DYNAMIC_OP names is compiled
        again every step: aclopCompileAndExecute and opCompile, as real data shows
        an operator built at run time (t/data/real, msinsight-2025 level1)."""
        rows = []
        n = max(len(self.steps), 1)
        compiled = ()
        if self.data.job.knobs.dynamic_op:
            compiled = (("acl", "aclopCompileAndExecute", 1, 1850.0), ("acl", "opCompile", 1, 420.0))
        for level, api, per_step, avg in compiled + (("acl", "aclnnMatmul", 2, 58.2), ("acl", "aclnnFlashAttentionScore", 1, 71.4),
                                          ("runtime", "aclrtLaunchKernel", 12, 6.1),
                                          ("runtime", "aclrtSynchronizeStreamWithTimeout", 1, 1210.5),
                                          ("node", "MatMulV2", 2, 12.3), ("hccl", "HcclAllReduce", 1, 95.0)):
            if api == "HcclAllReduce" and self.world <= 1:
                continue
            if level == "runtime" and self.level != "Level2":
                continue        # the runtime's APIs are level2's (real level1 data has acl, hccl, node)
            cnt = per_step * n
            rows.append([level, api, round(avg * cnt, 3), cnt, avg, round(avg * 0.8, 3),
                         round(avg * 1.4, 3), round(avg * 0.05, 3)])
        return API_STAT_HEADERS, rows

    def npu_module_mem_table(self):
        rows = []
        for s in self.step_rows:
            for comp, mb in (("APP", 4608.0), ("SLOG", 12.5), ("HCCL", 512.0), ("RUNTIME", 96.0)):
                rows.append([comp, "%.3f\t" % _us(s["begin"]), mb, "NPU:%d" % self.device])
        return NPU_MODULE_MEM_HEADERS, rows

    def l2_cache_table(self):
        """l2_cache.csv (experimental_config l2_cache=True): one row per computing
        task; Hit Rate N/A and a Victim Rate, as the real files have them."""
        rows = []
        for kn in self.kernels:
            if kn["core"] in ("AI_CORE", "AI_VECTOR_CORE", "MIX_AIC"):
                rows.append([kn["stream"], kn["task"], "N/A", round(0.05 + (kn["task"] % 17) / 100.0, 6), kn["name"]])
        return L2_CACHE_HEADERS, rows

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
            # torch_npu writes the durations as it writes the times, with a tab
            rows.append(["aten::empty", 262144.0, "%.3f\t" % a, "%.3f\t" % (a + 900.0), "%.3f\t" % (a + 880.0),
                         "900.000\t", "880.000\t", 3393.0, 4608.0, 3393.0, 3137.0, 4608.0, 3137.0, 187651256098816,
                         "NPU:%d" % self.device])
            rows.append(["aten::matmul", 98304.0, "%.3f\t" % (a + 40.0), "%.3f\t" % (a + 700.0),
                         "%.3f\t" % (a + 690.0), "660.000\t", "650.000\t", 3489.0, 4608.0, 3489.0, 3393.0, 4608.0, 3393.0,
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

    def _host_events(self, ops, host_pid, hw_pid):
        """The Python track as real level1 data has it: each operator (cpu_op)
        with its args (Input Dims and Input type with record_shapes, Call stack
        with with_stack: frames innermost first, ";\\r\\n" between them), its
        launch through the task queue (enqueue, dequeue and their
        async_task_queue flow) and its flow to the device (async_npu, to the
        next computing kernel); with with_stack a python_function of the
        profiler's step, as the real files have it."""
        stack = bool(self.common.get("with_stack"))
        shapes = bool(self.common.get("record_shapes"))
        kernels = sorted((k for k in self.kernels if k["core"] != "HCCL"), key=lambda k: k["start"])
        ev, k = [], 0
        queue_tid = host_pid + 1
        for i, op in enumerate(ops):
            a, b = _us(op["start_ns"]), _us(op["end_ns"])
            args = {"Sequence number": -1, "Fwd thread id": 0}
            if shapes:
                args["Input Dims"] = "[4096, 1, 4096];\r\n[4096, 4096]"
                args["Input type"] = "c10::BFloat16;\r\nc10::BFloat16"
            if stack:
                args["Call stack"] = ";\r\n".join((
                    "/usr/local/lib/python3.10/site-packages/torch/nn/modules/module.py(1518): _call_impl",
                    "/home/user/Megatron-LM/megatron/core/transformer/transformer_layer.py(201): forward",
                    "/home/user/Megatron-LM/megatron/training/training.py(1250): train_step",
                    "/home/user/Megatron-LM/pretrain_gpt.py(265): <module>"))
            ev.append({"ph": "X", "name": op["name"], "pid": host_pid, "tid": host_pid,
                       "ts": "%.3f" % a, "dur": round(b - a, 3), "cat": "cpu_op", "args": args})
            if self.level == "Level0":
                continue
            q = a + (b - a) * 0.8
            ev.append({"ph": "X", "name": "Enqueue", "pid": host_pid, "tid": host_pid, "ts": "%.3f" % q,
                       "dur": 2.5, "cat": "enqueue", "args": {"correlation_id": i + 1}})
            ev.append({"ph": "s", "bp": "e", "name": "enqueue_to_dequeue", "id": i + 1, "pid": host_pid,
                       "tid": host_pid, "ts": "%.3f" % q, "cat": "async_task_queue"})
            ev.append({"ph": "X", "name": "Dequeue@" + op["name"].replace("aten::", ""), "pid": host_pid,
                       "tid": queue_tid, "ts": "%.3f" % (q + 3.0), "dur": 8.0, "cat": "dequeue",
                       "args": {"correlation_id": i + 1}})
            ev.append({"ph": "f", "bp": "e", "name": "enqueue_to_dequeue", "id": i + 1, "pid": host_pid,
                       "tid": queue_tid, "ts": "%.3f" % (q + 3.0), "cat": "async_task_queue"})
            while k < len(kernels) and _us(kernels[k]["start"]) < a:
                k += 1
            if k < len(kernels):
                kn = kernels[k]
                fid = op["start_ns"] * 1000 + i
                ev.append({"ph": "s", "bp": "e", "name": "torch_to_npu", "id": fid, "pid": host_pid,
                           "tid": host_pid, "ts": "%.3f" % a, "cat": "async_npu"})
                ev.append({"ph": "f", "bp": "e", "name": "torch_to_npu", "id": fid, "pid": hw_pid,
                           "tid": kn["stream"], "ts": "%.3f" % _us(kn["start"]), "cat": "async_npu"})
        if stack:
            for m in self.steps:
                ev.append({"ph": "X", "name": "torch_npu/profiler/profiler.py(244): step", "pid": host_pid,
                           "tid": m.get("tid", host_pid), "ts": "%.3f" % _us(m["start_ns"]), "dur": 1.2,
                           "cat": "python_function", "args": {"Python id": 14, "Python parent id": 13}})
        return ev

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
        ev.extend(self._host_events(ops, host_pid, hw_pid))
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
                # the CANN call to its task, as real data ties them
                ev.append({"name": "HostToDevice%d" % kn["task"], "ph": "s", "cat": "HostToDevice",
                           "id": str(kn["task"]), "pid": cann_pid, "tid": 0,
                           "ts": "%.3f" % (_us(kn["start"]) - 45.0)})
                ev.append({"name": "HostToDevice%d" % kn["task"], "ph": "f", "cat": "HostToDevice",
                           "id": str(kn["task"]), "pid": hw_pid, "tid": kn["stream"], "bp": "e",
                           "ts": "%.3f" % _us(kn["start"])})
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
        if model.level in ("Level1", "Level2"):
            _write_csv(os.path.join(out, "op_statistic_%s.csv" % ts), *model.data.op_statistic_table())
        with open(os.path.join(out, "msprof_%s.json" % ts), "w") as f:
            json.dump(model.trace_events([]), f)
        with open(os.path.join(log, "msprof_analysis_%d.log" % os.getpid()), "w") as f:
            f.write("[INFO] msprof export finished for %s\n" % os.path.basename(prof))
        if model.world > 1 and model.level in ("Level1", "Level2"):
            os.makedirs(os.path.join(prof, "analyze"), exist_ok=True)
            with open(os.path.join(prof, "analyze", "communication.json"), "w") as f:
                json.dump(model.data.communication()[0], f)
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
    profdata.write_analysis_files(out, model.data, model.world > 1)
    _write_csv(os.path.join(out, "npu_module_mem.csv"), *model.npu_module_mem_table())
    if model.exp.get("_l2_cache"):
        _write_csv(os.path.join(out, "l2_cache.csv"), *model.l2_cache_table())
    if model.level in ("Level1", "Level2"):
        _write_csv(os.path.join(out, "api_statistic.csv"), *model.api_statistic_table())
    if model.level == "Level2":
        _write_csv(os.path.join(out, "data_preprocess.csv"), *model.data_preprocess_table())


def _write_db(out, model, ops, metadata):
    """ascend_pytorch_profiler_<rank>.db (profdata.write_profiler_db: the tables and
    encodings of real torch_npu) and analysis.db.  Its META_DATA keeps
    profiler_metadata.json's entries, with the environment torch_npu records."""
    name = "ascend_pytorch_profiler_%d.db" % model.rank if model.rank >= 0 else "ascend_pytorch_profiler.db"
    meta = dict(metadata)
    meta.setdefault("ENV_VARIABLES", {k: os.environ.get(k, "") for k in profdata.ENV_IN_METADATA})
    memory = model.memory_record_table()[1] if model.common.get("profile_memory") else None
    marks = [(m["step"], m["start_ns"], m["end_ns"]) for m in model.steps]
    data = model.data
    if not model.has_npu or model.level == "Level_none":
        data = profdata.RankData(model.data.job, model.data.rank, model.device, [], "Level_none")
    profdata.write_profiler_db(os.path.join(out, name), data, meta, marks, model.pid, ops, memory)
    if model.has_npu and model.level != "Level_none":
        profdata.write_analysis_db(os.path.join(out, "analysis.db"), model.data, model.world > 1)


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
    try:
        with open(os.path.join(path, "FRAMEWORK", "msprof_sim.json")) as f:
            info["_sim_facts"] = json.load(f)
    except (OSError, ValueError):
        pass
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
    metadata = {}
    try:
        with open(os.path.join(path, "profiler_metadata.json")) as f:
            metadata = json.load(f)
    except (OSError, ValueError):
        pass
    model = _Model(info, steps, metadata)
    ops = model.host_ops(ops)
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
        _write_db(out, model, ops, metadata)
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
