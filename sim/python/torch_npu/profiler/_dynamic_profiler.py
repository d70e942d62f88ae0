"""The machinery behind torch_npu.profiler.dynamic_profile (simulated), as in torch_npu
master (_dynamic_profiler/*.py, utils/_path_manager.py):

- the path rule every PROF_CONFIG_PATH and config directory must pass;
- the log every process that initialises dynamic profiling writes:
  <path>/log/dp_<host>_<pid>_rank_<rank>.log ("%(asctime)s [%(levelname)s] [%(process)d]
  %(filename)s: %(message)s");
- the shared memory a node's workers read the config from: the first worker process
  creates it, writes the default config (profiler_config.json from the template when the
  file is absent) and runs the monitor, which polls the file's mtime (whole seconds) every
  2 s (from step 11: the step time, 1 to 50 s) and, when it differs from the last one
  seen, writes (mtime, config) to the shared memory.  Each worker accepts a config whose
  time is later than its own start (or the last it accepted): a config written before it
  started is never acted on.

Not faithful: the shared memory is a file read and written through a descriptor,
<path>/shm/DynamicProfileNpuShm<YYYYmmddHH>
(torch_npu's layout for Python 3.7; from 3.8 it is /dev/shm/<name>, shared by every job
of the node in that hour), and the monitor, a forked process as torch_npu's, sleeps its
poll interval in slices, so that it ends at once when its process exits (torch_npu's
exit waits up to the interval)."""

import datetime
import json
import logging
import os
import re
import socket
import sys
import threading
import time

from ._log import print_error_msg

CONFIG_NAME = "profiler_config.json"
POLL_INTERVAL = 2
SHM_SIZE = 65536    # torch_npu's is 1 MiB
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
}
DISTRIBUTED_LAUNCHERS = ("torchrun", "torch_npu_run", "vllm")
DISTRIBUTED_MODULES = {"torch.distributed.run", "torch.distributed.launch", "torch_npu.distributed.run",
                       "torch_npu.distributed.launch", "vllm.entrypoints.openai.api_server"}
# torch_npu's PathManager._input_path_common_check: letters, digits, . / _ - ~,
# white space (\s) and CJK ideographs.  So MindSpeed-MM's placeholder config_path
# "path to dynamic config folder" passes, and init() makes that directory in the
# working directory, as torch_npu does.
_PATH_PATTERN = re.compile(r"(\.|/|_|-|\s|[~0-9a-zA-Z]|[\u4e00-\u9fa5])+")


def _mtime(path):
    try:
        return os.stat(path).st_mtime_ns
    except OSError:
        return None


def check_input_directory_path(path):
    """PathManager.check_input_directory_path of torch_npu up to 2.9 (from 2.10 the
    first three are warnings): RuntimeError when the path is refused."""
    if len(path) > 4096:
        raise RuntimeError("Length of input path exceeds the limit.")
    if os.path.islink(path):
        raise RuntimeError(f"Invalid input path is a symbolic link: {path}")
    if not _PATH_PATTERN.fullmatch(path):
        raise RuntimeError(f"Invalid input path: {path}")
    if any(len(name) > 255 for name in path.split("/")):
        raise RuntimeError("Length of input path exceeds the limit.")
    if os.path.isfile(path):
        raise RuntimeError(f"Invalid input path is a file path: {path}")


def get_rank_id():
    """RANK, else the rank of an initialised torch.distributed, else -1."""
    rank = os.environ.get("RANK")
    torch = sys.modules.get("torch")
    try:
        if rank is None and torch is not None and torch.distributed.is_available() and \
                torch.distributed.is_initialized():
            rank = torch.distributed.get_rank()
        return int(rank)
    except Exception:
        return -1


def is_worker_process():
    """A process that may create the shared memory: a torchrun worker (RANK set), or a
    python process that is not itself a launcher."""
    if os.environ.get("RANK") is not None:
        return True
    try:
        with open("/proc/%d/cmdline" % os.getpid(), "rb") as f:
            args = [a.decode("utf-8", "ignore") for a in f.read(1024).split(b"\0") if a]
    except OSError:
        return False
    if len(args) < 2 or "python" not in args[0].lower():
        return False
    if args[1].endswith(DISTRIBUTED_LAUNCHERS):
        return False
    return not (len(args) >= 3 and args[1] == "-m" and args[2] in DISTRIBUTED_MODULES)


class Logger:
    """One process's log in <path>/log (the monitor's: monitor_dp_...)."""

    def __init__(self, path, monitor=False):
        logdir = os.path.join(path, "log")
        os.makedirs(logdir, mode=0o750, exist_ok=True)
        name = "dp_%s_%d_rank_%d.log" % (socket.gethostname(), os.getpid(), get_rank_id())
        self.path = os.path.join(logdir, ("monitor_" if monitor else "") + name)
        self.lock = threading.Lock()
        open(self.path, "a").close()

    def log(self, level, message, filename="dynamic_profile.py"):
        stamp = datetime.datetime.now().strftime("%Y-%m-%d %H:%M:%S,%f")[:-3]
        with self.lock, open(self.path, "a") as f:
            f.write("%s [%s] [%d] %s: %s\n" % (stamp, level, os.getpid(), filename, message))


class ConfigContext:
    """A config as one worker reads it: the rank it checks is its own at that time."""

    def __init__(self, data, logger):
        self.d = data
        self.is_valid = data.get("is_valid", False)
        self._rank = get_rank_id()
        self._analyse = bool(data.get("analyse", False))
        self._async = bool(data.get("async_mode", False))
        self.is_rank = data.get("is_rank", False) if isinstance(data.get("is_rank", False), bool) else False
        ranks = data.get("rank_list", []) if self.is_rank else []
        self.ranks = {r for r in ranks if isinstance(r, int) and r >= 0} if isinstance(ranks, list) else set()
        start = data.get("start_step", 0)
        self._start = start if isinstance(start, int) and start >= -1 else 0
        self.logger = logger
        logger.log("INFO", "Start step will be set to %d." % self._start, "_dynamic_profiler_config_context.py")

    def valid(self):
        if not self.is_valid:
            return False
        if not self.is_rank:
            return True
        if self._rank in self.ranks:
            if not self._async:
                self._analyse = False
                self.logger.log("INFO", "Rank %d is in rank_list %s and async_mode is false, profiler data "
                                "analyse will be closed !" % (self._rank, self.ranks),
                                "_dynamic_profiler_config_context.py")
            return True
        self.logger.log("WARNING", "Rank %d not in valid rank_list %s!" % (self._rank, self.ranks),
                        "_dynamic_profiler_config_context.py")
        return False

    def active(self):
        v = self.d.get("active", 1)
        return v if isinstance(v, int) and v > 0 else 1

    def warmup(self):
        v = self.d.get("warmup", 0)
        return v if isinstance(v, int) and v >= 0 else 0

    def start_step(self):
        return self._start

    def start(self):
        return self._start == -1

    def analyse(self):
        return self._analyse

    def async_mode(self):
        return self._async


class Monitor:
    """The node's shared memory and, in the process that created it, the monitor."""

    def __init__(self, path, logger):
        self.path = path
        self.config_path = os.path.join(path, CONFIG_NAME)
        self.logger = logger
        stamp = datetime.datetime.now(tz=datetime.timezone.utc).astimezone().strftime("%Y%m%d%H")
        # MSPROF_SIM_SHM_DIR (a test knob): one directory for the node, as /dev/shm is
        shm_dir = os.environ.get("MSPROF_SIM_SHM_DIR") or os.path.join(path, "shm")
        self.shm_path = os.path.join(shm_dir, "DynamicProfileNpuShm" + stamp)
        self.is_create_process = False
        self.fd = None
        self.connected = is_worker_process()
        self.monitor_pid = None
        self._slow_init()
        if self.connected:
            self._create_shm()
        if self.is_create_process:
            self._create_prof_cfg()
        self.cur_time = int(time.time())
        if self.is_create_process:
            self._create_process()
        else:
            logger.log("INFO", "Rank %d no need to create process." % get_rank_id(),
                       "_dynamic_profiler_monitor.py")

    def _create_process(self):
        """Fork the monitor, as torch_npu does (a daemon multiprocessing.Process of the
        "fork" context): it shares only the poll interval and the loop flag with this
        process, which ends it at exit.  One this process did not end (killed by a
        signal: no atexit) polls on, an orphan, for as long as the node runs."""
        import multiprocessing
        self._step_time = multiprocessing.Value("i", POLL_INTERVAL)
        self._loop = multiprocessing.Value("b", True)
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            try:
                self.mlog = Logger(self.path, monitor=True)
                self._poll()
            finally:
                os._exit(0)
        self.monitor_pid = pid
        self.logger.log("INFO", "Dynamic monitor process has been created by rank %d." % get_rank_id(),
                        "_dynamic_profiler_monitor.py")

    def _slow_init(self):
        """MSPROF_SIM_DP_SLOW_INIT (a test knob, not torch_npu's): time passes between
        the log and the shared memory, as on a loaded node (torch_npu imports
        multiprocessing.shared_memory and unittest.mock there, and retries): S seconds,
        or with "armed" until profiler_config.json has changed since the log came (at
        most MSPROF_T_WAIT_LIMIT seconds), so that the config is armed in between."""
        knob = os.environ.get("MSPROF_SIM_DP_SLOW_INIT", "0")
        if knob == "armed":
            before = _mtime(self.config_path)
            end = time.monotonic() + float(os.environ.get("MSPROF_T_WAIT_LIMIT", "60"))
            while _mtime(self.config_path) == before and time.monotonic() < end:
                time.sleep(0.02)
            return
        try:
            time.sleep(max(float(knob), 0))
        except ValueError:
            pass

    def _create_shm(self):
        """Open the shared memory, creating it when there is none.  It is read and
        written through the descriptor, as a mapping is: a process keeps what it
        holds after the creator unlinks it at exit."""
        os.makedirs(os.path.dirname(self.shm_path), exist_ok=True)
        try:
            self.fd = os.open(self.shm_path, os.O_CREAT | os.O_EXCL | os.O_RDWR, 0o640)
        except FileExistsError:
            self.fd = os.open(self.shm_path, os.O_RDWR)
            self.logger.log("INFO", "Rank %d shared memory is connected." % get_rank_id(),
                            "_dynamic_profiler_monitor_shm.py")
            return
        self._write_shm(0, TEMPLATE)
        self.is_create_process = True
        self.logger.log("INFO", "Rank %d shared memory is created." % get_rank_id(),
                        "_dynamic_profiler_monitor_shm.py")

    def _create_prof_cfg(self):
        if not os.path.exists(self.config_path):
            self.logger.log("INFO", "Create profiler_config.json default.", "_dynamic_profiler_monitor_shm.py")
            tmp = "%s.%d.tmp" % (self.config_path, os.getpid())
            with open(tmp, "w") as f:
                json.dump(TEMPLATE, f, indent=4)
            os.rename(tmp, self.config_path)
        self.file_t = int(os.stat(self.config_path).st_mtime)

    def _write_shm(self, t, data):
        """(time, config) at the start of the shared memory, the rest blank."""
        os.pwrite(self.fd, json.dumps({"time": t, "config": data}).encode().ljust(SHM_SIZE), 0)

    def _read_shm(self):
        """The shared memory's (time, config), or None while it is being written."""
        try:
            shm = json.loads(os.pread(self.fd, SHM_SIZE, 0).decode().strip() or "null")
        except (OSError, ValueError):
            return None
        return shm if isinstance(shm, dict) else None

    def _poll(self):
        last = self.file_t
        while self._loop.value:
            try:
                file_t = int(os.path.getmtime(self.config_path))
            except OSError:
                self.mlog.log("ERROR", "Dynamic profiler cfg json not exists", "_dynamic_profiler_monitor.py")
                file_t = None
            if file_t is not None and (not last or last != file_t):
                last = file_t
                try:
                    check_input_directory_path(self.path)
                    with open(self.config_path) as f:
                        data = json.load(f)
                    if not isinstance(data, dict):
                        raise ValueError("not a JSON object")
                    data["is_valid"] = True
                    self.mlog.log("INFO", "Dynamic profiler process load json success",
                                    "_dynamic_profiler_monitor.py")
                except (OSError, ValueError, RuntimeError) as err:
                    data = {"is_valid": False}
                    self.mlog.log("ERROR", "Dynamic profiler process load json failed, %s has occur!" % err,
                                    "_dynamic_profiler_monitor.py")
                self._write_shm(last, data)
            end = time.monotonic() + self._step_time.value
            while self._loop.value and time.monotonic() < end:
                time.sleep(0.05)

    def read(self):
        """The config the shared memory holds when it is newer than this process's last
        (its start at first), as a ConfigContext that is valid for its rank; else None."""
        shm = self._read_shm() if self.fd is not None else None
        if shm is None or shm.get("time", 0) <= self.cur_time:
            return None
        self.cur_time = shm["time"]
        ctx = ConfigContext(shm.get("config") or {}, self.logger)
        return ctx if ctx.valid() else None

    def pending(self):
        """Has the shared memory a config newer than this process's last?"""
        shm = self._read_shm() if self.fd is not None else None
        return shm is not None and shm.get("time", 0) > self.cur_time

    def modify_step_time(self, seconds):
        if self.monitor_pid is not None:
            self._step_time.value = seconds
        self.logger.log("INFO", "Dynamic profiling monitor process poll interval time change to %ds" % seconds,
                        "_dynamic_profiler_monitor.py")

    def clean(self):
        """At exit: the creator stops the monitor, waits for it and unlinks the shared
        memory (a process started later makes its own)."""
        if self.monitor_pid is not None:
            self._loop.value = False
            try:
                os.waitpid(self.monitor_pid, 0)
            except OSError:
                pass
        if self.is_create_process:
            try:
                os.unlink(self.shm_path)
            except OSError:
                pass


def report_invalid(path):
    print_error_msg(f"The path '{path}' is invalid, and profiler will not be enabled.")
