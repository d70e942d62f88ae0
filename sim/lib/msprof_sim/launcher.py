"""torchrun / python -m torch.distributed.run / torch.distributed.launch in simulation.

The option grammar is torchrun's (both --opt-name and --opt_name, `--opt value`
and `--opt=value`, PET_* environment defaults, training_script + REMAINDER).
Workers are `sys.executable -u script args` (or -m module / --no-python) with
torchelastic's environment.  Node rank 0 holds MASTER_PORT for the lifetime of the
job like the c10d TCPStore; a busy port fails with c10d's messages.  Nodes of rank
> 0 do not contact node 0: they just start their local workers with global ranks.
A failing worker stops the others and ends in a ChildFailedError summary.
Workers also get MSPROF_SIM_LAUNCHER (no c10d store behind MASTER_PORT: they do
not rendezvous for real) and MSPROF_SIM_STEPS_DIR (see train.py)."""

import argparse
import datetime
import errno
import os
import signal
import socket
import subprocess
import sys
import tempfile
import shutil
import threading
import time
import uuid


class DistNetworkError(RuntimeError):
    pass


class ChildFailedError(Exception):
    pass


class SignalException(Exception):
    def __init__(self, msg, sigval):
        super().__init__(msg)
        self.sigval = sigval


DistNetworkError.__module__ = "torch.distributed"
ChildFailedError.__module__ = "torch.distributed.elastic.multiprocessing.errors"
SignalException.__module__ = "torch.distributed.elastic.multiprocessing.api"

STOP_TIMEOUT = 30.0


def _log(logger, level, msg):
    ts = datetime.datetime.now().strftime("%Y-%m-%d %H:%M:%S,%f")[:-3]
    for line in msg.split("\n"):
        sys.stderr.write("[%s] %s: [%s] %s\n" % (ts, logger, level, line))
    sys.stderr.flush()


def _env(name, default):
    return os.environ.get("PET_" + name, default)


def build_parser(prog="torchrun", launch=False):
    p = argparse.ArgumentParser(prog=prog, description="Torch Distributed Elastic Training Launcher")
    p.add_argument("--nnodes", type=str, default=_env("NNODES", "1:1"))
    p.add_argument("--nproc-per-node", "--nproc_per_node", type=str, default=_env("NPROC_PER_NODE", "1"))
    p.add_argument("--rdzv-backend", "--rdzv_backend", type=str, default=_env("RDZV_BACKEND", "static"))
    p.add_argument("--rdzv-endpoint", "--rdzv_endpoint", type=str, default=_env("RDZV_ENDPOINT", ""))
    p.add_argument("--rdzv-id", "--rdzv_id", type=str, default=_env("RDZV_ID", "none"))
    p.add_argument("--rdzv-conf", "--rdzv_conf", type=str, default=_env("RDZV_CONF", ""))
    p.add_argument("--standalone", action="store_true")
    p.add_argument("--max-restarts", "--max_restarts", type=int, default=int(_env("MAX_RESTARTS", "0")))
    p.add_argument("--monitor-interval", "--monitor_interval", type=float, default=float(_env("MONITOR_INTERVAL", "0.1")))
    p.add_argument("--start-method", "--start_method", type=str, default="spawn",
                   choices=["spawn", "fork", "forkserver"])
    p.add_argument("--role", type=str, default="default")
    p.add_argument("-m", "--module", action="store_true")
    p.add_argument("--no-python", "--no_python", action="store_true")
    p.add_argument("--run-path", "--run_path", action="store_true")
    p.add_argument("--log-dir", "--log_dir", type=str, default=_env("LOG_DIR", None))
    p.add_argument("-r", "--redirects", type=str, default=_env("REDIRECTS", "0"))
    p.add_argument("-t", "--tee", type=str, default=_env("TEE", "0"))
    p.add_argument("--local-ranks-filter", "--local_ranks_filter", type=str, default="")
    p.add_argument("--node-rank", "--node_rank", type=int, default=int(_env("NODE_RANK", "0")))
    p.add_argument("--master-addr", "--master_addr", type=str, default=_env("MASTER_ADDR", "127.0.0.1"))
    p.add_argument("--master-port", "--master_port", type=int, default=int(_env("MASTER_PORT", "29500")))
    p.add_argument("--local-addr", "--local_addr", type=str, default=None)
    p.add_argument("--logs-specs", "--logs_specs", type=str, default=None)
    if launch:
        p.add_argument("--use-env", "--use_env", action="store_true",
                       help="Use environment variable to pass 'local rank'.")
    p.add_argument("training_script", type=str)
    p.add_argument("training_script_args", nargs=argparse.REMAINDER)
    return p


def _nnodes(text):
    parts = text.split(":")
    if len(parts) == 1:
        return int(parts[0]), int(parts[0])
    if len(parts) == 2:
        return int(parts[0]), int(parts[1])
    raise RuntimeError('nnodes={} is not in "MIN:MAX" format'.format(text))


def _nproc(text):
    if text == "cpu":
        return os.cpu_count() or 1
    if text in ("auto", "gpu", "npu"):
        try:
            sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
                os.path.abspath(__file__)))), "python"))
            import torch_npu
            n = torch_npu.npu.device_count()
        except Exception:
            n = 0
        if n == 0 and text == "gpu":
            raise ValueError("Cuda is not available.")
        return n if n > 0 else (os.cpu_count() or 1)
    try:
        return int(text)
    except ValueError:
        raise ValueError("Unsupported nproc_per_node value: %s" % text)


def _std_spec(text, nproc):
    """'3' or '0:3,1:0' -> {local_rank: 0..3}"""
    out = {}
    text = text.strip()
    if ":" not in text:
        v = int(text) if text else 0
        return {i: v for i in range(nproc)}
    for item in text.split(","):
        lr, v = item.split(":")
        out[int(lr)] = int(v)
    return {i: out.get(i, 0) for i in range(nproc)}


def bind_store(port, host=""):
    """Listen on port like c10d's TCPStore server ([::] then 0.0.0.0)."""
    errors = []
    attempts = []
    if socket.has_ipv6:
        attempts.append((socket.AF_INET6, "::", "[::]:%d" % port))
    attempts.append((socket.AF_INET, "0.0.0.0", "0.0.0.0:%d" % port))
    for family, addr, label in attempts:
        try:
            s = socket.socket(family, socket.SOCK_STREAM)
        except OSError:
            continue
        try:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6:
                try:
                    s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
                except OSError:
                    pass
            s.bind((addr, port))
            s.listen(64)
            return s, None
        except OSError as e:
            s.close()
            code = e.errno or errno.EADDRINUSE
            msg = "The server socket has failed to bind to %s (errno: %d - %s)." % (label, code, os.strerror(code))
            sys.stderr.write("[W socket.cpp:436] [c10d] %s\n" % msg)
            errors.append(msg)
    sys.stderr.write("[E socket.cpp:472] [c10d] The server socket has failed to listen on any local network address.\n")
    sys.stderr.flush()
    return None, "The server socket has failed to listen on any local network address. " + " ".join(errors)


class Worker:
    def __init__(self, local_rank, rank):
        self.local_rank = local_rank
        self.rank = rank
        self.proc = None
        self.rc = None
        self.end_time = None
        self.threads = []
        self.files = []


def _pump(src, dests, prefix):
    for raw in iter(src.readline, b""):
        for d, use_prefix in dests:
            try:
                d.write((prefix if use_prefix else b"") + raw)
                d.flush()
            except (OSError, ValueError):
                pass
    src.close()


class Agent:
    def __init__(self, args, launch=False):
        self.args = args
        self.launch = launch
        self.min_nodes, self.max_nodes = _nnodes(args.nnodes)
        self.nproc = _nproc(args.nproc_per_node)
        self.node_rank = args.node_rank
        self.workers = []
        self.store = None
        self.run_id = args.rdzv_id
        self.master_addr = args.master_addr
        self.master_port = args.master_port
        self.log_root = None
        self.steps_dir = None

    # ----------------------------------------------------------- rendezvous
    def rendezvous(self):
        a = self.args
        if a.standalone:
            a.rdzv_backend = "c10d"
            a.rdzv_endpoint = "localhost:0"
            self.run_id = str(uuid.uuid4())
            self.min_nodes = self.max_nodes = 1
            self.node_rank = 0
        if a.rdzv_backend == "static":
            if self.node_rank == 0:
                self.store, error = bind_store(self.master_port)
                if self.store is None:
                    raise DistNetworkError(error)
            return
        host, _, port = (a.rdzv_endpoint or "localhost:29400").rpartition(":")
        host = host or "localhost"
        port = int(port or 29400)
        local = host in ("localhost", "127.0.0.1", "::1", "0.0.0.0", socket.gethostname(), socket.getfqdn())
        if local:
            self.store, error = bind_store(port)
            if self.store is None:
                raise DistNetworkError(error)
        self.master_addr = socket.gethostname()
        with socket.socket() as s:
            s.bind(("", 0))
            self.master_port = s.getsockname()[1]

    # ---------------------------------------------------------------- workers
    def _command(self, local_rank):
        a = self.args
        args = list(a.training_script_args)
        if self.launch and not a.use_env:
            args = ["--local-rank=%d" % local_rank] + args
        if a.no_python:
            return [a.training_script] + args
        if a.module:
            return [sys.executable, "-u", "-m", a.training_script] + args
        return [sys.executable, "-u", a.training_script] + args

    def _environ(self, local_rank, rank, restart):
        env = dict(os.environ)
        world = self.max_nodes * self.nproc
        env.update({
            "LOCAL_RANK": str(local_rank), "RANK": str(rank), "GROUP_RANK": str(self.node_rank),
            "ROLE_RANK": str(rank), "ROLE_NAME": self.args.role, "LOCAL_WORLD_SIZE": str(self.nproc),
            "WORLD_SIZE": str(world), "GROUP_WORLD_SIZE": str(self.max_nodes), "ROLE_WORLD_SIZE": str(world),
            "MASTER_ADDR": self.master_addr, "MASTER_PORT": str(self.master_port),
            "TORCHELASTIC_RESTART_COUNT": str(restart), "TORCHELASTIC_MAX_RESTARTS": str(self.args.max_restarts),
            "TORCHELASTIC_RUN_ID": self.run_id, "TORCHELASTIC_USE_AGENT_STORE": str(self.store is not None),
            "TORCH_NCCL_ASYNC_ERROR_HANDLING": env.get("TORCH_NCCL_ASYNC_ERROR_HANDLING", "1"),
            "MSPROF_SIM_LAUNCHER": "torchrun", "MSPROF_SIM_STEPS_DIR": self.steps_dir,
        })
        if "OMP_NUM_THREADS" not in os.environ and self.nproc > 1:
            env["OMP_NUM_THREADS"] = "1"
        return env

    def start_workers(self, restart):
        redirects = _std_spec(self.args.redirects, self.nproc)
        tees = _std_spec(self.args.tee, self.nproc)
        shown = None
        if self.args.local_ranks_filter:
            shown = {int(x) for x in self.args.local_ranks_filter.split(",") if x.strip()}
        need_files = any(redirects.values()) or any(tees.values())
        attempt_dir = None
        if need_files:
            if self.log_root is None:
                base = self.args.log_dir
                if base:
                    os.makedirs(base, exist_ok=True)
                self.log_root = tempfile.mkdtemp(prefix="%s_" % self.run_id, dir=base)
            attempt_dir = os.path.join(self.log_root, "attempt_%d" % restart)
        self.workers = []
        self._drop_steps_dir()
        self.steps_dir = tempfile.mkdtemp(prefix="msprof-sim-steps.")
        for lr in range(self.nproc):
            w = Worker(lr, self.node_rank * self.nproc + lr)
            mode = redirects[lr] | tees[lr]
            stdout = stderr = None
            out_file = err_file = None
            if attempt_dir:
                d = os.path.join(attempt_dir, str(lr))
                os.makedirs(d, exist_ok=True)
                if mode & 1:
                    out_file = open(os.path.join(d, "stdout.log"), "wb")
                if mode & 2:
                    err_file = open(os.path.join(d, "stderr.log"), "wb")
                w.files = [f for f in (out_file, err_file) if f]
            hide = shown is not None and lr not in shown
            prefix = ("[%s%d]:" % (self.args.role, lr)).encode()
            for stream, f, bit in (("out", out_file, 1), ("err", err_file, 2)):
                if f is not None and not (tees[lr] & bit):
                    target = f
                elif f is not None or hide:
                    target = subprocess.PIPE
                else:
                    target = None
                if stream == "out":
                    stdout = target
                else:
                    stderr = target
            w.proc = subprocess.Popen(self._command(lr), env=self._environ(lr, w.rank, restart),
                                      stdout=stdout, stderr=stderr)
            for pipe, f, console, bit in ((w.proc.stdout, out_file, sys.stdout, 1),
                                          (w.proc.stderr, err_file, sys.stderr, 2)):
                if pipe is None:
                    continue
                dests = []
                if f is not None:
                    dests.append((f, False))
                if not hide and (tees[lr] & bit or f is None):
                    dests.append((console.buffer, True))
                t = threading.Thread(target=_pump, args=(pipe, dests, prefix), daemon=True)
                t.start()
                w.threads.append(t)
            self.workers.append(w)

    def _drop_steps_dir(self):
        if self.steps_dir is not None:
            shutil.rmtree(self.steps_dir, ignore_errors=True)
            self.steps_dir = None

    def stop_workers(self, sig):
        alive = [w for w in self.workers if w.proc.poll() is None]
        for w in alive:
            _log("torch.distributed.elastic.multiprocessing.api", "WARNING",
                 "Sending process %d closing signal %s" % (w.proc.pid, signal.Signals(sig).name))
            try:
                w.proc.send_signal(sig)
            except OSError:
                pass
        deadline = time.time() + STOP_TIMEOUT
        for w in alive:
            try:
                w.proc.wait(timeout=max(deadline - time.time(), 0))
            except subprocess.TimeoutExpired:
                _log("torch.distributed.elastic.multiprocessing.api", "WARNING",
                     "Unable to shutdown process %d via %s, forcefully exiting via SIGKILL"
                     % (w.proc.pid, signal.Signals(sig).name))
                w.proc.kill()
                w.proc.wait()
        self._drain()

    def _drain(self):
        for w in self.workers:
            for t in w.threads:
                t.join(timeout=5)
            for f in w.files:
                f.close()

    def monitor(self):
        """Wait for the group; returns the failed workers (empty list: success)."""
        while True:
            now = time.time()
            for w in self.workers:
                if w.rc is None:
                    rc = w.proc.poll()
                    if rc is not None:
                        w.rc, w.end_time = rc, now
            failed = [w for w in self.workers if w.rc not in (None, 0)]
            if failed:
                # Their output (the traceback) must be passed on before the
                # others are stopped and the launcher exits.
                for w in failed:
                    for t in w.threads:
                        t.join(timeout=5)
                return failed
            if all(w.rc == 0 for w in self.workers):
                self._drain()
                return []
            time.sleep(min(max(self.args.monitor_interval, 0.01), 0.1))

    # ------------------------------------------------------------------ report
    def _entry(self, w):
        if w.rc < 0:
            try:
                name = signal.Signals(-w.rc).name
            except ValueError:
                name = "UNKNOWN"
            tb = "Signal %d (%s) received by PID %d" % (-w.rc, name, w.proc.pid)
        else:
            tb = "To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html"
        return ("[%d]:\n  time      : %s\n  host      : %s\n  rank      : %d (local_rank: %d)\n"
                "  exitcode  : %d (pid: %d)\n  error_file: <N/A>\n  traceback : %s"
                % (w.rank, datetime.datetime.fromtimestamp(w.end_time).strftime("%Y-%m-%d_%H:%M:%S"),
                   socket.getfqdn(), w.rank, w.local_rank, w.rc, w.proc.pid, tb))

    def failure_message(self, failed):
        first = min(failed, key=lambda w: (w.end_time, w.rank))
        others = [w for w in failed if w is not first]
        sep = "=" * 60
        dash = "-" * 60
        body = "\n".join(self._entry(w) for w in others) if others else "  <NO_OTHER_FAILURES>"
        return ("\n%s\n%s FAILED\n%s\nFailures:\n%s\n%s\nRoot Cause (first observed failure):\n%s\n%s"
                % (sep, self.args.training_script, dash, body, dash, self._entry(first), sep))

    # --------------------------------------------------------------------- run
    def run(self):
        if "OMP_NUM_THREADS" not in os.environ and self.nproc > 1:
            _log("torch.distributed.run", "WARNING",
                 "\n*****************************************\n"
                 "Setting OMP_NUM_THREADS environment variable for each process to be 1 in default, to avoid your "
                 "system being overloaded, please further tune the variable for optimal performance in your "
                 "application as needed. \n*****************************************")
        self.rendezvous()
        restart = 0
        try:
            while True:
                self.start_workers(restart)
                failed = self.monitor()
                if not failed:
                    return 0
                for w in failed:
                    _log("torch.distributed.elastic.multiprocessing.api", "ERROR",
                         "failed (exitcode: %d) local_rank: %d (pid: %d) of binary: %s"
                         % (w.rc, w.local_rank, w.proc.pid, sys.executable))
                self.stop_workers(signal.SIGTERM)
                if restart < self.args.max_restarts:
                    restart += 1
                    _log("torch.distributed.elastic.agent.server.api", "WARNING",
                         "[%s] Worker group FAILED. %d/%d attempts left; will restart worker group"
                         % (self.args.role, self.args.max_restarts - restart + 1, self.args.max_restarts))
                    continue
                raise ChildFailedError(self.failure_message(failed))
        except SignalException as e:
            _log("torch.distributed.elastic.agent.server.api", "WARNING",
                 "Received Signals.%s death signal, shutting down workers" % signal.Signals(e.sigval).name)
            if self.workers:
                self.stop_workers(e.sigval)
            raise
        finally:
            self._drop_steps_dir()
            if self.store is not None:
                self.store.close()


def _install_signal_handlers():
    def handler(signum, _frame):
        # once is enough: further signals while shutting down are ignored
        for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGQUIT):
            signal.signal(s, signal.SIG_IGN)
        raise SignalException("Process %d got signal: %d" % (os.getpid(), signum), sigval=signum)
    for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGQUIT):
        signal.signal(s, handler)


def run(argv=None, prog="torchrun", launch=False):
    args = build_parser(prog, launch).parse_args(argv)
    _install_signal_handlers()
    return Agent(args, launch=launch).run()


def main(argv=None):
    return run(argv)


LAUNCH_WARNING = (
    "The module torch.distributed.launch is deprecated\n"
    "and will be removed in future. Use torchrun.\n"
    "Note that --use-env is set by default in torchrun.\n"
    "If your script expects `--local-rank` argument to be set, please\n"
    "change it to read from `os.environ['LOCAL_RANK']` instead. See \n"
    "https://pytorch.org/docs/stable/distributed.html#launch-utility for \n"
    "further instructions\n")


def launch_main(argv=None):
    import warnings
    warnings.warn(LAUNCH_WARNING, FutureWarning)
    return run(argv, prog="launch.py", launch=True)
