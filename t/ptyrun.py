"""Run a command on a pseudo-terminal, as a user at a terminal would.

    ptyrun.py [--log FILE] [--prompt END]... [--answer TEXT]...
              [--after FILE (--type TEXT | --kill SIGNAL)]
              [--timeout SECONDS] -- COMMAND...

Each time the screen ends with one of the --prompt ENDs (default: the
prompts of msprof-exec's confirmation), the next --answer is typed with a
newline.  --log sends the command's stdout and stderr to FILE while the
terminal stays its controlling one.  --after waits until FILE exists, then
types TEXT (\\x03 is Ctrl-C) or sends SIGNAL (a number) to the command.
Prints the screen without carriage returns, then "status N" (N is the
exit status, or minus the signal that killed the command).  A command
still running at the timeout (by default MSPROF_T_WAIT_LIMIT, which only
a hang reaches) is killed.

Also a module: wait_until(), the tests' one way to wait in Python, and
gone(), release() and as_from_a_shell() to go with it.
"""
import argparse
import errno
import os
import pty
import select
import signal
import sys
import time

PROMPTS = ["an item:", "output DIR):", "(o)?"]
# t/steady.sh sets it for every test
LIMIT = float(os.environ.get("MSPROF_T_WAIT_LIMIT", "300"))


def wait_until(ready, what, limit=LIMIT):
    """Wait for READY() to be true (the thing itself, never a time); at the
    limit raise TimeoutError naming WHAT."""
    end = time.monotonic() + limit
    while not ready():
        if time.monotonic() > end:
            raise TimeoutError("gave up after %gs waiting for %s" % (limit, what))
        time.sleep(0.02)


def gone(pid):
    """Has process PID ended (exited, or a zombie)?"""
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


def release(gate):
    """Let the process waiting at GATE (a FIFO: see gate in t/steady.sh) go,
    once it is there."""
    fds = []

    def reader_there():
        try:
            fds.append(os.open(gate, os.O_WRONLY | os.O_NONBLOCK))
        except OSError as e:
            if e.errno != errno.ENXIO:
                raise
        return bool(fds)
    wait_until(reader_there, "a process at " + gate)
    os.write(fds[0], b"go\n")
    os.close(fds[0])


def parse():
    p = argparse.ArgumentParser()
    p.add_argument("--log")
    p.add_argument("--prompt", action="append")
    p.add_argument("--answer", action="append", default=[])
    p.add_argument("--after")
    p.add_argument("--type")
    p.add_argument("--kill", type=int)
    p.add_argument("--timeout", type=float, default=LIMIT)
    p.add_argument("command", nargs=argparse.REMAINDER)
    a = p.parse_args()
    if a.command[:1] == ["--"]:
        a.command = a.command[1:]
    return a


def as_from_a_shell():
    """SIGINT and SIGQUIT back to their default, as an interactive shell starts
    a command: the tests may run where they are ignored (`make check &` in a
    script, under nohup), and a command inherits that."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGQUIT, signal.SIG_DFL)


def start(a):
    pid, fd = pty.fork()
    if pid == 0:
        as_from_a_shell()
        if a.log:
            log = os.open(a.log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            os.dup2(log, 1)
            os.dup2(log, 2)
        os.execv(a.command[0], a.command)
    return pid, fd


def act(a, pid, fd):
    wait_until(lambda: os.path.exists(a.after), a.after, a.timeout)
    if a.type is not None:
        os.write(fd, a.type.encode().decode("unicode_escape").encode())
    else:
        os.kill(pid, a.kill)


def reap(pid, limit):
    """The wait status of PID once it has exited, or None at the limit."""
    status = []

    def exited():
        done, st = os.waitpid(pid, os.WNOHANG)
        status.append(st)
        return done != 0
    try:
        wait_until(exited, "the command to exit", limit)
    except TimeoutError:
        return None
    return status[-1]


def main():
    a = parse()
    answers = a.answer
    prompts = tuple(os.fsencode(p) for p in (a.prompt or PROMPTS))
    pid, fd = start(a)
    end = time.monotonic() + a.timeout
    if a.after:
        try:
            act(a, pid, fd)
        except TimeoutError as e:
            print(e, file=sys.stderr)
            end = 0
    screen = b""
    while time.monotonic() < end:
        if not select.select([fd], [], [], 1)[0]:
            continue
        try:
            data = os.read(fd, 4096)
        except OSError:
            break
        if not data:
            break
        screen += data
        if answers and screen.rstrip().endswith(prompts):
            os.write(fd, answers.pop(0).encode() + b"\n")
    # The terminal closes as the command exits, a moment before it can be
    # waited for; one still running at the timeout (waiting for an answer
    # it never asked for, say) is killed.
    status = reap(pid, max(end - time.monotonic(), 0))
    if status is None:
        os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
    sys.stdout.buffer.write(screen.replace(b"\r", b""))
    print("status", os.waitstatus_to_exitcode(status))


if __name__ == "__main__":
    main()
