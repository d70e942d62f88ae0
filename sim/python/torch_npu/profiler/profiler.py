"""torch_npu.profiler.profile / tensorboard_trace_handler / analyse (simulated)."""

import os
import time
from enum import Enum

from ._log import print_warn_msg, print_error_msg
from .scheduler import ProfilerAction, Schedule, _default_schedule_fn
from .experimental_config import _ExperimentalConfig
from ._collect import Trace
from . import _parse

__all__ = ["profile", "tensorboard_trace_handler", "analyse", "ProfilerActivity", "supported_activities"]


class ProfilerActivity(Enum):
    CPU = 0
    NPU = 1

    def __str__(self):
        return "ProfilerActivity." + self.name


def supported_activities():
    return {ProfilerActivity.CPU, ProfilerActivity.NPU}


class _TraceHandler:
    def __init__(self, dir_name, worker_name, analyse_flag, async_mode):
        self.dir_name = dir_name
        self.worker_name = worker_name
        self.analyse_flag = analyse_flag
        self.async_mode = async_mode

    def __call__(self, prof):
        path = prof.prof_path
        if not path or not os.path.isdir(path):
            return
        if self.analyse_flag:
            _parse.parse(path)


def tensorboard_trace_handler(dir_name=None, worker_name=None, analyse_flag=True, async_mode=False):
    if dir_name is not None and not isinstance(dir_name, str):
        print_warn_msg("Invalid parameter dir_name, reset it to default.")
        dir_name = None
    if worker_name is not None and not isinstance(worker_name, str):
        print_warn_msg("Invalid parameter worker_name, reset it to default.")
        worker_name = None
    if not isinstance(analyse_flag, bool):
        print_warn_msg("analyse_flag is not bool, set by default.")
        analyse_flag = True
    return _TraceHandler(dir_name, worker_name, analyse_flag, async_mode)


def _default_dir():
    work = os.environ.get("ASCEND_WORK_PATH")
    if work:
        return os.path.join(os.path.abspath(work), "profiling_data")
    return os.getcwd()


class profile:
    def __init__(self, activities=None, schedule=None, on_trace_ready=None, record_shapes=False,
                 profile_memory=False, with_stack=False, with_flops=False, with_modules=False,
                 experimental_config=None, use_cuda=None, custom_trace_id_callback=None):
        acts = list(activities) if activities else [ProfilerActivity.CPU, ProfilerActivity.NPU]
        self.activities = [a for a in acts if isinstance(a, ProfilerActivity)] or \
            [ProfilerActivity.CPU, ProfilerActivity.NPU]
        self.schedule = schedule
        self.on_trace_ready = on_trace_ready
        self.record_shapes = bool(record_shapes)
        self.profile_memory = bool(profile_memory)
        self.with_stack = bool(with_stack)
        self.with_flops = bool(with_flops)
        self.with_modules = bool(with_modules)
        self.experimental_config = experimental_config if isinstance(experimental_config, _ExperimentalConfig) \
            else _ExperimentalConfig()
        self._schedule_fn = schedule if schedule is not None else _default_schedule_fn
        self._metadata = {}
        self._trace = None
        self._recording = False
        self._started = False
        self._stopped = False
        self.step_num = 0
        self._step_num_offset = 0
        self.current_action = ProfilerAction.NONE
        self._step_begin = None
        self._actions = self._action_map()

    # -------------------------------------------------------------- public API
    @property
    def prof_path(self):
        return self._trace.path if self._trace else None

    def start(self):
        if self._started:
            return
        self._started = True
        self.step_num = 0
        self._step_begin = time.time_ns()
        self.current_action = self._schedule_fn(self.step_num)
        self._transit(ProfilerAction.NONE, self.current_action)

    def step(self):
        if not self._started or self._stopped:
            return
        now = time.time_ns()
        self._close_step(now)
        prev = self.current_action
        self.step_num += 1
        self.current_action = self._schedule_fn(self.step_num)
        self._transit(prev, self.current_action)
        self._step_begin = now

    def stop(self):
        if not self._started or self._stopped:
            return
        self._stopped = True
        self._close_step(time.time_ns())
        self._transit(self.current_action, None)

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        self.stop()

    def add_metadata(self, key, value):
        if not isinstance(key, str) or not isinstance(value, str):
            print_warn_msg("The key and value of metadata should be strings.")
            return
        self._metadata[key] = value

    def add_metadata_json(self, key, value):
        import json
        if not isinstance(key, str):
            print_warn_msg("The key of metadata should be a string.")
            return
        if isinstance(value, str):
            try:
                value = json.loads(value)
            except ValueError:
                print_warn_msg("Invalid json string, metadata will not be added.")
                return
        self._metadata[key] = value

    def export_chrome_trace(self, output):
        print_warn_msg("export_chrome_trace is not supported by the NPU profiler, use on_trace_ready instead.")

    # ------------------------------------------------------------ internals
    def _config(self):
        return {
            "common_config": {
                "activities": [str(a) for a in self.activities],
                "schedule": self.schedule.to_dict() if isinstance(self.schedule, Schedule) else None,
                "record_shapes": self.record_shapes,
                "profile_memory": self.profile_memory,
                "with_stack": self.with_stack,
                "with_flops": self.with_flops,
                "with_modules": self.with_modules,
            },
            "experimental_config": self.experimental_config.to_dict(),
        }

    def _set_step_num_offset_for_dynamic_prof(self, step):
        """Dynamic profiling names the steps from the training's own count."""
        self._step_num_offset = step

    def _close_step(self, now):
        if self._recording and self.schedule is not None and self._trace is not None:
            self._trace.steps.append((self.step_num + self._step_num_offset, self._step_begin, now))

    def _transit(self, prev, cur):
        for action in self._actions.get((prev, cur), ()):
            action()

    def _init_trace(self):
        handler = self.on_trace_ready if isinstance(self.on_trace_ready, _TraceHandler) else None
        base = handler.dir_name if handler and handler.dir_name else _default_dir()
        self._trace = Trace(os.path.abspath(base), handler.worker_name if handler else None)
        self._trace.create()

    def _warmup_trace(self):
        if ProfilerActivity.NPU in self.activities:
            self._trace.create_prof_dir()

    def _start_trace(self):
        if ProfilerActivity.NPU in self.activities:
            self._trace.create_prof_dir()
        self._trace.start_ns = time.time_ns()
        self._recording = True

    def _stop_trace(self):
        self._recording = False
        self._trace.end_ns = time.time_ns()

    def _finalize_trace(self):
        try:
            self._trace.finalize(self._config(), self._metadata)
        except OSError as err:
            print_error_msg(f"Failed to save profiling data: {err}")

    def _trace_ready(self):
        if self.on_trace_ready:
            try:
                self.on_trace_ready(self)
            except Exception as err:  # torch_npu logs parse failures, training goes on
                print_error_msg(f"Profiling data parsing failed, error: {err}")

    def _delete_prof_dir(self):
        if self._trace:
            self._trace.delete()

    def _warn(self, msg):
        return lambda: print_warn_msg(msg)

    def _action_map(self):
        N, W, R, S = (ProfilerAction.NONE, ProfilerAction.WARMUP, ProfilerAction.RECORD,
                      ProfilerAction.RECORD_AND_SAVE)
        init, warm, start, stop = self._init_trace, self._warmup_trace, self._start_trace, self._stop_trace
        fin, ready, delete = self._finalize_trace, self._trace_ready, self._delete_prof_dir
        save = [stop, fin, ready]
        stop_in_record = [stop, fin, ready]
        if self.schedule is not None:
            stop_in_record = [self._warn("Incorrect schedule: Stop profiler while current state is RECORD "
                                         "which may result in incomplete parsed data.")] + stop_in_record
        return {
            (N, W): [init, warm], (N, R): [init, start], (N, S): [init, start],
            (W, N): [self._warn("Incorrect schedule: WARMUP followed by NONE"), start, stop, fin],
            (W, R): [start], (W, S): [start],
            (R, N): [self._warn("Incorrect schedule: RECORD followed by NONE"), stop, fin],
            (R, W): [self._warn("Incorrect schedule: RECORD followed by WARMUP"), stop, fin],
            (S, N): save, (S, W): save + [init, warm], (S, R): save + [init, start],
            (S, S): save + [init, start],
            (W, None): [self._warn("Incorrect schedule: Stop profiler while current state is WARMUP "
                                   "which will result in empty parsed data."), fin, delete],
            (R, None): stop_in_record,
            (S, None): [self._warn("Stop profiler while current state is RECORD_AND_SAVE, "
                                   "perhaps the scheduling cycle has not yet completed."), stop, fin, ready],
        }


def analyse(profiler_path, max_process_number=None, export_type=None):
    """Offline parse of one *_ascend_pt directory or of those one level below a parent
    directory.  Each one is parsed in its own process, like torch_npu's pool."""
    if max_process_number is None:
        max_process_number = max((os.cpu_count() or 2) // 2, 1)
    if not isinstance(profiler_path, str) or not os.path.isdir(profiler_path):
        print_error_msg(f"Invalid profiling path: {profiler_path}")
        return
    paths = _parse.profiler_dirs(os.path.abspath(profiler_path))
    if not paths:
        print_warn_msg(f"No profiling data found in the path: {profiler_path}")
        return
    if len(paths) == 1 or max_process_number <= 1:
        for p in paths:
            _parse.parse(p, export_type)
        return
    import multiprocessing
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(processes=min(max_process_number, len(paths))) as pool:
        pool.starmap(_parse.parse, [(p, export_type) for p in paths])
