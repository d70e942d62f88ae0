"""torch_npu.profiler.dynamic_profile stand-in: init(path) / step() / start(), as torch_npu
master's dynamic_profile.py does them (the shared memory, the monitor and the path rule
are in _dynamic_profiler.py).

init(path) checks the path, writes this process's log in <path>/log, and sets up the
shared memory (the first worker also writes profiler_config.json from the template when
there is none, and starts the monitor).  Each step() counts one step (the first is 1) and
takes a config the monitor passed on that is newer than this process's start: the
profiler starts when cur_step == start_step (or at once for -1), runs warmup + active
steps with ProfilerStep ids from cur_step, and stops; a start_step already past gives
'Dynamic Profiler config is not effective. ...' once.

MSPROF_SIM_DP_HOLD=S (a test knob, not torch_npu's): the first step() waits up to S seconds
for a config to arrive, as a training whose setup takes that long would give it time."""

import atexit
import json
import os
import time

from ._log import print_info_msg, print_warn_msg, print_error_msg
from ._dynamic_profiler import ConfigContext, Logger, Monitor, check_input_directory_path, report_invalid
from .experimental_config import _ExperimentalConfig, AIC_BY_NAME, LEVEL_BY_NAME, AiCMetrics, ProfilerLevel
from .profiler import profile, tensorboard_trace_handler, ProfilerActivity
from .scheduler import Schedule

__all__ = ["init", "step", "start"]


def _activities(data):
    out = [getattr(ProfilerActivity, a.upper()) for a in data.get("activities") or []
           if isinstance(a, str) and a.upper() in ("CPU", "NPU")]
    return out or [ProfilerActivity.CPU, ProfilerActivity.NPU]


def _experimental_config(data):
    e = data.get("experimental_config")
    if not isinstance(e, dict):
        return None
    export = e.get("export_type") or ["text"]
    return _ExperimentalConfig(
        profiler_level=LEVEL_BY_NAME.get(e.get("profiler_level"), ProfilerLevel.Level0),
        aic_metrics=AIC_BY_NAME.get(e.get("aic_metrics"), AiCMetrics.AiCoreNone),
        l2_cache=bool(e.get("l2_cache")), op_attr=bool(e.get("op_attr")),
        gc_detect_threshold=e.get("gc_detect_threshold"),
        data_simplification=bool(e.get("data_simplification", True)),
        record_op_args=bool(e.get("record_op_args")),
        export_type=export if isinstance(export, list) else [export],
        msprof_tx=bool(e.get("msprof_tx")), mstx=bool(e.get("mstx")), host_sys=e.get("host_sys") or [],
        sys_io=bool(e.get("sys_io")), sys_interconnection=bool(e.get("sys_interconnection")))


class _DynamicProfile:
    RECORD_TIME_STEP = 10

    def __init__(self):
        self.prof = None
        self.cfg_ctx = None
        self.step_num = 0
        self.cur_step = 0
        self.monitor = None
        self.logger = None
        self.repeat_init = False
        self._step_record_time = None

    def init(self, path):
        if self.repeat_init:
            print_warn_msg("Init dynamic profiling repeatedly")
            return
        self.logger = Logger(path)
        self.monitor = Monitor(path, self.logger)
        self.repeat_init = True
        atexit.register(self._clean_resource)

    def _clean_resource(self):
        if self.prof is not None:
            self.prof.stop()
            self.prof = None
            print_warn_msg("Profiler stop when process exit, check cfg json active whether over all step!")
        self.monitor.clean()

    def _hold(self):
        try:
            limit = float(os.environ.get("MSPROF_SIM_DP_HOLD", "0"))
        except ValueError:
            limit = 0
        end = time.monotonic() + limit
        while time.monotonic() < end and not self.monitor.pending():
            time.sleep(0.05)

    def step(self):
        if not self.repeat_init:
            return
        self.cur_step += 1
        if self.cur_step == 1:
            self._hold()
        cfg = self.monitor.read()
        if cfg is not None:
            self.cfg_ctx = cfg
        if self.cur_step == self.RECORD_TIME_STEP:
            self._step_record_time = time.time()
        elif self.cur_step == self.RECORD_TIME_STEP + 1 and self._step_record_time is not None:
            self.monitor.modify_step_time(min(50, max(1, int(time.time() - self._step_record_time))))
        if self.prof is not None:
            self.prof.step()
            self.step_num -= 1
            if self.step_num == 0:
                self.prof.stop()
                self.prof = None
                self.logger.log("INFO", "Stop Dynamic Profiler at %d step." % self.cur_step)
                print_info_msg("Stop Dynamic Profiler at %d step." % self.cur_step)
        elif self.cfg_ctx is not None:
            ctx = self.cfg_ctx
            if self.cur_step > ctx.start_step() and not ctx.start():
                print_warn_msg("Dynamic Profiler config is not effective. The start_step=%d, current_step=%d"
                               % (ctx.start_step(), self.cur_step))
                self.cfg_ctx = None
            elif self.cur_step == ctx.start_step() or ctx.start():
                self.step_num = ctx.active() + ctx.warmup()
                self.enable_prof(ctx)
                self.cfg_ctx = None

    def enable_prof(self, ctx):
        d = ctx.d
        self.prof = profile(
            activities=_activities(d),
            schedule=Schedule(wait=0, warmup=ctx.warmup(), active=ctx.active(), repeat=1, skip_first=0),
            on_trace_ready=tensorboard_trace_handler(d.get("prof_dir") or "./", analyse_flag=ctx.analyse(),
                                                     async_mode=ctx.async_mode()),
            record_shapes=bool(d.get("record_shapes")), profile_memory=bool(d.get("profile_memory")),
            with_stack=bool(d.get("with_stack")), with_flops=bool(d.get("with_flops")),
            with_modules=bool(d.get("with_modules")), experimental_config=_experimental_config(d))
        self.prof._set_step_num_offset_for_dynamic_prof(self.cur_step)
        self.prof.start()
        for k, v in (d.get("metadata") or {}).items():
            self.prof.add_metadata_json(str(k), json.dumps(v))
        self.logger.log("INFO", "Start Dynamic Profiler at %d step." % self.cur_step)
        print_info_msg("Start Dynamic Profiler at %d step." % self.cur_step)


_DP = _DynamicProfile()


def init(path):
    try:
        check_input_directory_path(path)
    except RuntimeError:
        report_invalid(path)
        return
    _DP.init(os.path.abspath(path))


def step():
    _DP.step()


def start(config_path=None):
    if _DP.prof is not None:
        print_error_msg("Profiler already started. Cannot call start interface while the profiler is active. ")
        return
    path = config_path or (_DP.monitor.config_path if _DP.monitor else None)
    try:
        with open(path) as f:
            data = json.load(f)
    except (OSError, ValueError, TypeError):
        print_error_msg(f"Failed to read config from : {path}. Please check the config file. ")
        return
    ctx = ConfigContext(data, _DP.logger) if _DP.logger else None
    if ctx is None:
        return
    _DP.step_num = ctx.active() + ctx.warmup()
    _DP.enable_prof(ctx)

