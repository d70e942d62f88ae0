"""Collection side of the simulated profiler: the *_ascend_pt directory and the raw
data in it (profiler_info, metadata, FRAMEWORK/, PROF_*/device_N|host, logs/).

The raw files are small text stand-ins (JSON lines), not CANN's binary formats; the
simulated parser (_parse.py) reads them back, so offline analyse() works on them."""

import datetime
import json
import os
import sys
import random
import shutil
import socket
import string
import time

from ._log import print_error_msg

# FRAMEWORK/<this>: the facts of the collecting process the simulated parse needs
SIM_FACTS = "msprof_sim.json"


def rank_id():
    """RANK env as torch_npu reads it, else the rank of an initialised
    torch.distributed (None when not distributed)."""
    value = os.environ.get("RANK")
    if value is not None and value.strip().lstrip("-").isdigit():
        return int(value)
    torch = sys.modules.get("torch")
    try:
        if torch is not None and torch.distributed.is_available() and torch.distributed.is_initialized():
            return int(torch.distributed.get_rank())
    except Exception:
        pass
    value = os.environ.get("RANK_ID")
    if value is not None and value.strip().lstrip("-").isdigit():
        return int(value)
    return None


def device_id():
    from .. import npu
    return npu.current_device()


def timestamp17(t=None):
    t = time.time() if t is None else t
    dt = datetime.datetime.fromtimestamp(t)
    return dt.strftime("%Y%m%d%H%M%S") + "%03d" % (dt.microsecond // 1000)


def _prof_id():
    rnd = random.SystemRandom()
    return "".join(rnd.choice(string.ascii_uppercase) for _ in range(16))


def _write_json(path, data):
    with open(path, "w") as f:
        json.dump(data, f, indent=4)
        f.write("\n")


def _write_lines(path, rows):
    with open(path, "w") as f:
        for row in rows:
            f.write(json.dumps(row, separators=(",", ":")) + "\n")


class Trace:
    """One collection cycle: the directory and what was recorded in it."""

    def __init__(self, base_dir, worker_name):
        self.base_dir = base_dir
        self.worker_name = worker_name or socket.gethostname()
        self.created = time.time()
        name = "%s_%d_%s_ascend_pt" % (self.worker_name, os.getpid(), timestamp17(self.created))
        self.path = os.path.join(base_dir, name)
        self.prof_dir = None
        self.start_ns = None
        self.end_ns = None
        self.steps = []          # (step id, begin ns, end ns)

    def create(self):
        try:
            os.makedirs(self.path, exist_ok=True)
        except OSError as err:
            print_error_msg(f"Failed to create profiling directory {self.path}: {err}")
            raise

    def create_prof_dir(self):
        if self.prof_dir is None:
            name = "PROF_%06d_%s_%s" % (1, timestamp17(), _prof_id())
            self.prof_dir = os.path.join(self.path, name)
            os.makedirs(self.prof_dir, exist_ok=True)
        return self.prof_dir

    def delete(self):
        shutil.rmtree(self.path, ignore_errors=True)

    # ------------------------------------------------------------------ raw data
    def finalize(self, config, metadata):
        """Write the raw data of this cycle (what the collectors leave behind)."""
        acts = config["common_config"]["activities"]
        has_cpu = "ProfilerActivity.CPU" in acts
        has_npu = "ProfilerActivity.NPU" in acts
        rank = rank_id()
        dev = device_id()
        start_ns = self.start_ns or time.time_ns()
        end_ns = self.end_ns or time.time_ns()

        # as torch_npu's _dump_profiler_info writes it; rank_id only with a rank
        info = {
            "config": config,
            "start_info": {"syscnt_enable": True, "freq": 100,
                           "start_cnt": start_ns // 10, "start_monotonic": time.monotonic_ns()},
            "end_info": {"collectionTimeEnd": end_ns, "MonotonicTimeEnd": time.monotonic_ns()},
            "torch_npu_version": _version(),
            "cann_version": _cann_version(),
        }
        if rank is not None:
            info["rank_id"] = rank
        name = "profiler_info_%d.json" % rank if rank is not None else "profiler_info.json"
        # what the simulated parse needs and real torch_npu keeps elsewhere (the
        # device in PROF_*/device_N, the pid in the raw data): a file of the
        # simulation's own among the raw framework data, which no analysis reads
        fwk = os.path.join(self.path, "FRAMEWORK")
        os.makedirs(fwk, exist_ok=True)
        facts = {"device_id": dev, "host_name": socket.gethostname(), "pid": os.getpid(),
                 "world_size": _world_size(), "collection_begin_ns": start_ns}
        # the simulated device's step when the training knows it (MindSpeed-LLM's,
        # from the model's FLOPs), not the wall clock's
        try:
            facts["device_step_us"] = float(os.environ["MSPROF_SIM_DEVICE_STEP_US"])
        except (KeyError, ValueError):
            pass
        _write_json(os.path.join(fwk, SIM_FACTS), facts)
        _write_json(os.path.join(self.path, name), info)

        meta = dict(metadata)
        # torch_npu's _dump_metadata: the user's entries, then the environment
        # (text export), then the HCCL groups, in this order in the file
        if "text" in config["experimental_config"]["_export_type"]:
            from ._parse import profdata
            meta.setdefault("ENV_VARIABLES", {k: os.environ.get(k, "") for k in profdata.ENV_IN_METADATA})
        world = _world_size()
        if rank is not None and world > 1 and "parallel_group_info" not in meta:
            # torch_npu records the HCCL groups of this rank (communicator name ->
            # group name, group rank, global ranks); here they come from the job model
            from ._parse import profdata
            dargs = meta.get("distributed_args") if isinstance(meta.get("distributed_args"), dict) else {}
            seed = profdata.Knobs.from_env().seed
            layout = profdata.Layout.from_args(dargs, world, seed)
            if layout.world != world:
                layout = profdata.Layout(world, seed=seed)
            meta["parallel_group_info"] = layout.parallel_group_info(rank)
        _write_json(os.path.join(self.path, "profiler_metadata.json"), meta)

        fwk = os.path.join(self.path, "FRAMEWORK")
        os.makedirs(fwk, exist_ok=True)
        marks = [{"name": "ProfilerStep#%d" % k, "step": k, "start_ns": b, "end_ns": e, "tid": os.getpid()}
                 for k, b, e in self.steps]
        _write_lines(os.path.join(fwk, "torch.op_mark"), marks)
        if has_cpu:
            rows = []
            for k, b, e in self.steps:
                span = max(e - b, 1)
                for i, op in enumerate(("aten::embedding", "npu::npu_rms_norm", "aten::matmul",
                                        "npu::npu_fusion_attention", "aten::add", "npu::npu_swiglu",
                                        "aten::matmul", "aten::_to_copy", "Optimizer.step#AdamW.step")):
                    rows.append({"name": op, "step": k, "start_ns": b + span * i // 10,
                                 "end_ns": b + span * (i + 1) // 10 - 1000})
            _write_lines(os.path.join(fwk, "torch.op_range"), rows)
            if config["common_config"].get("with_stack"):
                _write_lines(os.path.join(fwk, "torch.python_tracer_func"),
                             [{"func": "pretrain_gpt.py(118): forward_step"}])
        if config["common_config"].get("profile_memory"):
            _write_lines(os.path.join(fwk, "torch.memory_usage"),
                         [{"step": k, "ts_ns": b, "allocated_mb": 3393.0 + k, "reserved_mb": 4608.0}
                          for k, b, _e in self.steps])
        with open(os.path.join(fwk, "torch.op_mark.ready"), "w"):
            pass

        if has_npu:
            prof = self.create_prof_dir()
            ddir = os.path.join(prof, "device_%d" % dev, "data")
            hdir = os.path.join(prof, "host", "data")
            os.makedirs(ddir, exist_ok=True)
            os.makedirs(hdir, exist_ok=True)
            level = config["experimental_config"]["_profiler_level"]
            for fname in ("ts_track.data.0.slice_0", "hwts.data.0.slice_0", "DeviceInfo.data.0.slice_0"):
                _write_lines(os.path.join(ddir, fname),
                             [{"step": k, "begin_ns": b, "end_ns": e} for k, b, e in self.steps])
            if level in ("Level1", "Level2"):
                _write_lines(os.path.join(ddir, "aicore.data.0.slice_0"),
                             [{"metrics": config["experimental_config"]["_aic_metrics"]}])
            if level == "Level2":
                _write_lines(os.path.join(ddir, "aicpu.data.0.slice_0"), [{"aicpu": True}])
            _write_json(os.path.join(prof, "device_%d" % dev, "start_info.%d" % dev),
                        {"collectionTimeBegin": start_ns // 1000, "clockMonotonicRaw": start_ns})
            _write_json(os.path.join(prof, "device_%d" % dev, "end_info.%d" % dev),
                        {"collectionTimeEnd": end_ns // 1000})
            _write_json(os.path.join(prof, "device_%d" % dev, "sample.json"),
                        {"prof_level": level, "aic_metrics": config["experimental_config"]["_aic_metrics"],
                         "devices": str(dev), "result_dir": prof})
            _write_json(os.path.join(prof, "device_%d" % dev, "info.json.%d" % dev), _device_info(dev))
            for fname in ("api_event.0.slice_0", "compact.0.slice_0", "hash_dic.0.slice_0"):
                _write_lines(os.path.join(hdir, fname), [{"pid": os.getpid(), "steps": len(self.steps)}])
            _write_json(os.path.join(prof, "host", "start_info"), {"collectionTimeBegin": start_ns // 1000})
            _write_json(os.path.join(prof, "host", "end_info"), {"collectionTimeEnd": end_ns // 1000})

        logs = os.path.join(self.path, "logs")
        os.makedirs(logs, exist_ok=True)
        with open(os.path.join(logs, "profiler_%s_%d.log" % (timestamp17(), os.getpid())), "a") as f:
            f.write("%s [INFO] [%d] profiler.py: collection finished, %d step(s) recorded\n"
                    % (datetime.datetime.now().strftime("%Y-%m-%d %H:%M:%S"), os.getpid(), len(self.steps)))


def _device_info(dev):
    """The device's description the collection writes (info.json.N): the chip the
    simulated npu-smi shows, an Ascend 910B3 (20 AI cores, 40 vector cores, 1800 MHz),
    with the DeviceInfo fields msprof-analyze reads (ai_core_num, aic_frequency)."""
    from ._parse import profdata
    return {"devices": str(dev),
            "DeviceInfo": [{"id": dev, "env_type": 3, "ctrl_cpu_id": "ARMv8_Cortex_A55",
                            "ctrl_cpu_core_num": 1, "ctrl_cpu_endian_little": 1, "ts_cpu_core_num": 0,
                            "ai_cpu_core_num": 6, "ai_core_num": profdata.AI_CORES, "ai_cpu_core_id": 2, "ai_core_id": 0,
                            "aicpu_occupy_bitmap": 252, "ctrl_cpu": "0", "ai_cpu": "2,3,4,5,6",
                            "aiv_num": 40, "hwts_frequency": "49.999001", "aic_frequency": str(profdata.AIC_MHZ),
                            "aiv_frequency": "1800"}],
            "pid": str(os.getpid()),
            "hostname": socket.gethostname()}


def _version():
    from .. import __version__
    return __version__


def _cann_version():
    from .. import cann_version
    return cann_version


def _world_size():
    try:
        return int(os.environ.get("WORLD_SIZE") or os.environ.get("RANK_SIZE") or 1)
    except ValueError:
        return 1
