"""msrun (MindSpore's cluster launcher) in simulation: starts local_worker_num
workers with MindSpore's environment, writes log_dir/worker_<rank>.log and
scheduler.log, and with --join=True waits for them and tails their logs."""

import argparse
import datetime
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

from .launcher import bind_store


def _str2bool(v):
    if isinstance(v, bool):
        return v
    low = v.lower()
    if low in ("true", "1", "yes", "y", "t"):
        return True
    if low in ("false", "0", "no", "n", "f"):
        return False
    raise argparse.ArgumentTypeError("Boolean value expected, got '%s'." % v)


def _log(level, msg):
    now = datetime.datetime.now()
    ts = now.strftime("%Y-%m-%d-%H:%M:%S.") + "%03d.%03d" % (now.microsecond // 1000, now.microsecond % 1000)
    sys.stdout.write("[%s] ME(%d:%d,MainProcess):%s [mindspore/parallel/cluster/process_entity/_api.py:%d] %s\n"
                     % (level, os.getpid(), threading.get_ident() % 1000000000000000, ts,
                        {"INFO": 239, "WARNING": 318, "ERROR": 330}.get(level, 100), msg))
    sys.stdout.flush()


def build_parser():
    p = argparse.ArgumentParser(prog="msrun", description="msrun is a MindSpore module used to start distributed "
                                                          "training processes.")
    p.add_argument("--worker_num", type=int, default=8)
    p.add_argument("--local_worker_num", type=int, default=8)
    p.add_argument("--master_addr", default="127.0.0.1", type=str)
    p.add_argument("--master_port", default=8118, type=int)
    p.add_argument("--node_rank", default=-1, type=int)
    p.add_argument("--log_dir", default=".", type=str)
    p.add_argument("--join", default=False, type=_str2bool)
    p.add_argument("--cluster_time_out", default=600, type=int)
    p.add_argument("--bind_core", default=False, type=_str2bool)
    p.add_argument("--sim_level", default=-1, type=int)
    p.add_argument("--sim_rank_id", default=-1, type=int)
    p.add_argument("--rank_table_file", default="", type=str)
    p.add_argument("--worker_log_name", default="", type=str)
    p.add_argument("--tail_worker_log", default="-1", type=str)
    p.add_argument("task_script", type=str)
    p.add_argument("task_script_args", nargs=argparse.REMAINDER)
    return p


class _Tail:
    def __init__(self, path):
        self.path = path
        self.pos = 0
        self.buf = b""

    def poll(self, final=False):
        try:
            with open(self.path, "rb") as f:
                f.seek(self.pos)
                data = f.read()
        except OSError:
            return
        self.pos += len(data)
        self.buf += data
        lines = self.buf.split(b"\n")
        self.buf = lines.pop()
        if final and self.buf:
            lines.append(self.buf)
            self.buf = b""
        for line in lines:
            sys.stdout.buffer.write(line + b"\n")
        sys.stdout.flush()


def main(argv=None):
    args = build_parser().parse_args(argv)
    if args.local_worker_num > args.worker_num:
        _log("ERROR", "local_worker_num (%d) should not be larger than worker_num (%d)."
             % (args.local_worker_num, args.worker_num))
        return 1
    node_rank = args.node_rank if args.node_rank >= 0 else 0
    os.makedirs(args.log_dir, exist_ok=True)
    store = None
    if node_rank == 0:
        sched_log = os.path.join(args.log_dir, "scheduler.log")
        store, error = bind_store(args.master_port)
        if store is None:
            with open(sched_log, "a") as f:
                f.write("[ERROR] DISTRIBUTED: Failed to bind the server socket on port %d: %s\n"
                        % (args.master_port, error))
            _log("ERROR", "Failed to start scheduler process: the scheduler port %d is already in use, "
                          "please check %s or choose another --master_port." % (args.master_port, sched_log))
            return 1
        with open(sched_log, "w") as f:
            f.write("[INFO] DISTRIBUTED: scheduler listening on %s:%d, waiting for %d workers\n"
                    % (args.master_addr, args.master_port, args.worker_num))
        _log("INFO", "Start scheduler process, log file:%s. Environment variable [RANK_ID] is not set, so scheduler "
                     "process won't be bind with rank id." % sched_log)
    workers = []
    tails = []
    # where the workers note their iterations (train.py); only a launcher that
    # waits for its workers can remove it afterwards
    steps_dir = tempfile.mkdtemp(prefix="msprof-sim-steps.") if args.join else None
    wanted = None if args.tail_worker_log.strip() == "-1" else \
        {int(x) for x in args.tail_worker_log.split(",") if x.strip()}
    for local in range(args.local_worker_num):
        rank = node_rank * args.local_worker_num + local
        env = dict(os.environ)
        env.update({
            "MS_WORKER_NUM": str(args.worker_num), "MS_LOCAL_WORKER": str(args.local_worker_num),
            "MS_SCHED_HOST": args.master_addr, "MS_SCHED_PORT": str(args.master_port), "MS_ROLE": "MS_WORKER",
            "MS_NODE_ID": str(rank), "MS_NODE_RANK": str(node_rank), "MS_CLUSTER_TIMEOUT": str(args.cluster_time_out),
            "RANK_ID": str(rank), "RANK": str(rank), "LOCAL_RANK": str(local), "DEVICE_ID": str(local),
            "RANK_SIZE": str(args.worker_num), "WORLD_SIZE": str(args.worker_num),
            "LOCAL_WORLD_SIZE": str(args.local_worker_num),
            "MASTER_ADDR": args.master_addr, "MASTER_PORT": str(args.master_port),
            "MSPROF_SIM_LAUNCHER": "msrun",
        })
        if steps_dir is not None:
            env["MSPROF_SIM_STEPS_DIR"] = steps_dir
        name = "%s_%d.log" % (args.worker_log_name, rank) if args.worker_log_name else "worker_%d.log" % rank
        log_path = os.path.join(args.log_dir, name)
        f = open(log_path, "wb")
        proc = subprocess.Popen([sys.executable, args.task_script] + args.task_script_args, env=env,
                                stdout=f, stderr=subprocess.STDOUT, start_new_session=not args.join)
        f.close()
        workers.append((rank, proc))
        if wanted is None or rank in wanted:
            tails.append(_Tail(log_path))
        _log("INFO", "Start worker process with rank id:%d, log file:%s. Environment variable [RANK_ID=%d] "
                     "is exported." % (rank, log_path, rank))
    if not args.join:
        if store is not None:
            store.close()
        return 0

    def _terminate(signum, _frame):
        for _r, p in workers:
            if p.poll() is None:
                p.send_signal(signum)
        raise SystemExit(128 + signum)

    for s in (signal.SIGINT, signal.SIGTERM):
        signal.signal(s, _terminate)
    status = 0
    try:
        while True:
            for t in tails:
                t.poll()
            failed = [(r, p) for r, p in workers if p.poll() not in (None, 0)]
            if failed:
                for r, p in failed:
                    _log("ERROR", "Worker process %d exit with exception. Error code: %d." % (p.pid, p.returncode))
                for _r, p in workers:
                    if p.poll() is None:
                        p.terminate()
                for _r, p in workers:
                    try:
                        p.wait(timeout=30)
                    except subprocess.TimeoutExpired:
                        p.kill()
                        p.wait()
                _log("ERROR", "Analyzing exception log...")
                _log("ERROR", "Time out nodes are [] ; please check the worker log in directory %s for details."
                     % args.log_dir)
                status = 1
                break
            if all(p.poll() == 0 for _r, p in workers):
                break
            time.sleep(0.05)
    finally:
        for t in tails:
            t.poll(final=True)
        if store is not None:
            store.close()
        shutil.rmtree(steps_dir, ignore_errors=True)
    return status
