"""torch_npu.profiler.dynamic_profile stand-in: init(path) / step().

init() writes <path>/profiler_config.json from the template when it is absent and
remembers its mtime.  Each step() checks the mtime (the real monitor process polls
it), in whole seconds like torch_npu: a file whose mtime second differs from the
last one seen AND is later than the second of init() (or of the last applied
change) is re-read and applied.  A rewrite in the same second as init() is
therefore ignored, as on a real machine.  The profiler starts when
cur_step == start_step, or at once when start_step == -1; a start_step already in
the past gives 'Dynamic Profiler config is not effective...'.  It then runs for
warmup + active steps and stops."""

import copy
import datetime
import json
import os
import re
import socket
import time

from ._log import print_info_msg, print_warn_msg, print_error_msg
from .experimental_config import _ExperimentalConfig, AIC_BY_NAME, LEVEL_BY_NAME, AiCMetrics, ProfilerLevel
from .profiler import profile, tensorboard_trace_handler, ProfilerActivity
from .scheduler import Schedule

__all__ = ["init", "step", "start"]

CONFIG_NAME = "profiler_config.json"
TEMPLATE = {
    "activities": ["CPU", "NPU"],
    "prof_dir": "./",
    "analyse": False,
    "async_mode": False,
    "record_shapes": False,
    "profile_memory": False,
    "with_stack": False,
    "with_flops": False,
    "with_modules": False,
    "active": 1,
    "warmup": 0,
    "start_step": 0,
    "is_rank": False,
    "rank_list": [],
    "experimental_config": {
        "profiler_level": "Level0",
        "aic_metrics": "AiCoreNone",
        "l2_cache": False,
        "op_attr": False,
        "gc_detect_threshold": None,
        "data_simplification": True,
        "record_op_args": False,
        "export_type": ["text"],
        "msprof_tx": False,
        "mstx": False,
        "host_sys": [],
        "mstx_domain_include": [],
        "mstx_domain_exclude": [],
        "sys_io": False,
        "sys_interconnection": False,
    },
    "metadata": {},
}
_PATH_OK = re.compile(r"^[A-Za-z0-9_./~-]+$")


def _rank():
    for name in ("RANK", "RANK_ID"):
        v = os.environ.get(name)
        if v is not None and v.strip().isdigit():
            return int(v)
    return 0


class _Config:
    def __init__(self, data):
        d = copy.deepcopy(TEMPLATE)
        for k, v in data.items():
            if k == "experimental_config" and isinstance(v, dict):
                d["experimental_config"].update(v)
            else:
                d[k] = v
        self.d = d

    def active(self):
        v = self.d.get("active", 1)
        return v if isinstance(v, int) and v > 0 else 1

    def warmup(self):
        v = self.d.get("warmup", 0)
        return v if isinstance(v, int) and v >= 0 else 0

    def start_step(self):
        v = self.d.get("start_step", 0)
        return v if isinstance(v, int) else 0

    def enabled_on_this_rank(self):
        if not self.d.get("is_rank"):
            return True
        return _rank() in [r for r in self.d.get("rank_list", []) if isinstance(r, int)]

    def activities(self):
        out = []
        for a in self.d.get("activities", []):
            if a == "CPU":
                out.append(ProfilerActivity.CPU)
            elif a == "NPU":
                out.append(ProfilerActivity.NPU)
        return out or [ProfilerActivity.CPU, ProfilerActivity.NPU]

    def analyse(self):
        if self.d.get("is_rank"):
            return False
        return bool(self.d.get("analyse", False))

    def experimental_config(self):
        e = self.d["experimental_config"]
        return _ExperimentalConfig(
            profiler_level=LEVEL_BY_NAME.get(e.get("profiler_level"), ProfilerLevel.Level0),
            aic_metrics=AIC_BY_NAME.get(e.get("aic_metrics"), AiCMetrics.AiCoreNone),
            l2_cache=bool(e.get("l2_cache")), op_attr=bool(e.get("op_attr")),
            gc_detect_threshold=e.get("gc_detect_threshold"),
            data_simplification=bool(e.get("data_simplification", True)),
            record_op_args=bool(e.get("record_op_args")), export_type=e.get("export_type") or ["text"],
            msprof_tx=bool(e.get("msprof_tx")), mstx=bool(e.get("mstx")), host_sys=e.get("host_sys") or [],
            sys_io=bool(e.get("sys_io")), sys_interconnection=bool(e.get("sys_interconnection")))


class _DynamicProfile:
    def __init__(self):
        self.path = None
        self.config_path = None
        self.file_t = None       # last mtime second seen
        self.cur_time = None     # second of init() / of the last applied change
        self.pending = None
        self.prof = None
        self.step_num = 0
        self.cur_step = 0
        self.inited = False
        self.log_path = None

    def log(self, msg):
        if not self.log_path:
            return
        try:
            with open(self.log_path, "a") as f:
                f.write("%s [INFO] %s\n" % (datetime.datetime.now().strftime("%Y-%m-%d %H:%M:%S"), msg))
        except OSError:
            pass

    def init(self, path):
        if self.inited:
            print_warn_msg("Init dynamic profiling repeatedly")
            return
        self.path = path
        self.config_path = os.path.join(path, CONFIG_NAME)
        os.makedirs(os.path.join(path, "log"), exist_ok=True)
        self.log_path = os.path.join(path, "log", "dp_%s_%d_rank_%d.log" % (socket.gethostname(), os.getpid(), _rank()))
        if not os.path.exists(self.config_path):
            tmp = "%s.%d.tmp" % (self.config_path, os.getpid())
            with open(tmp, "w") as f:
                json.dump(TEMPLATE, f, indent=4)
                f.write("\n")
            try:
                os.link(tmp, self.config_path)    # first rank wins, no torn file
                self.log("Create profiler_config.json default.")
            except OSError:
                pass
            os.unlink(tmp)
        self.cur_time = int(time.time())
        self.file_t = self._mtime()
        self.inited = True
        self.log("Dynamic profiler init, config path: %s" % self.config_path)

    def _mtime(self):
        try:
            return int(os.path.getmtime(self.config_path))
        except OSError:
            return None

    def _poll(self):
        m = self._mtime()
        if m is None or m == self.file_t:
            return
        self.file_t = m
        if m <= self.cur_time:
            return
        self.cur_time = m
        try:
            with open(self.config_path) as f:
                data = json.load(f)
            if not isinstance(data, dict):
                raise ValueError("not a JSON object")
        except (OSError, ValueError) as err:
            print_error_msg(f"Dynamic profiler read config failed, config path: {self.config_path}, error: {err}")
            return
        cfg = _Config(data)
        if cfg.enabled_on_this_rank():
            self.pending = cfg

    def step(self):
        if not self.inited:
            return
        self.cur_step += 1
        if self.prof is not None:
            self.prof.step()
            self.step_num -= 1
            if self.step_num == 0:
                self.prof.stop()
                self.prof = None
                self.log("Stop Dynamic Profiler at %d step." % self.cur_step)
                print_info_msg("Stop Dynamic Profiler at %d step." % self.cur_step)
            return
        self._poll()
        cfg = self.pending
        if cfg is None:
            return
        start = cfg.start_step()
        if start == -1 or start == self.cur_step:
            self.pending = None
            self._enable(cfg)
        elif start < self.cur_step:
            self.pending = None
            print_warn_msg("Dynamic Profiler config is not effective. The start_step=%d, current_step=%d"
                           % (start, self.cur_step))

    def _enable(self, cfg):
        d = cfg.d
        self.prof = profile(
            activities=cfg.activities(),
            schedule=Schedule(wait=0, warmup=cfg.warmup(), active=cfg.active(), repeat=1, skip_first=0),
            on_trace_ready=tensorboard_trace_handler(d.get("prof_dir") or "./", analyse_flag=cfg.analyse()),
            record_shapes=bool(d.get("record_shapes")), profile_memory=bool(d.get("profile_memory")),
            with_stack=bool(d.get("with_stack")), with_flops=bool(d.get("with_flops")),
            with_modules=bool(d.get("with_modules")), experimental_config=cfg.experimental_config())
        self.prof.start()
        for k, v in (d.get("metadata") or {}).items():
            self.prof.add_metadata_json(str(k), json.dumps(v))
        self.step_num = cfg.active() + cfg.warmup()
        self.log("Start Dynamic Profiler at %d step." % self.cur_step)
        print_info_msg("Start Dynamic Profiler at %d step." % self.cur_step)


_DP = _DynamicProfile()


def _valid_dir(path):
    if not isinstance(path, str) or not path or len(path) > 4096 or not _PATH_OK.match(path):
        return False
    if os.path.islink(path):
        return False
    if os.path.exists(path):
        return os.path.isdir(path) and os.access(path, os.R_OK | os.W_OK | os.X_OK)
    try:
        os.makedirs(path, exist_ok=True)
    except OSError:
        return False
    return True


def init(path):
    if not _valid_dir(path):
        print_error_msg(f"The path '{path}' is invalid, and profiler will not be enabled.")
        return
    _DP.init(os.path.abspath(path))


def step():
    _DP.step()


def start(config_path=None):
    if _DP.prof is not None:
        print_error_msg("Profiler already started. Cannot call start interface while the profiler is active. ")
        return
    path = config_path or _DP.config_path
    try:
        with open(path) as f:
            data = json.load(f)
    except (OSError, ValueError, TypeError):
        print_error_msg(f"Failed to read config from : {path}. Please check the config file. ")
        return
    _DP._enable(_Config(data))
