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
still running at the timeout is killed.
"""
import argparse
import os
import pty
import select
import signal
import sys
import time

PROMPTS = ["an item:", "output DIR):", "(o)?"]


def parse():
    p = argparse.ArgumentParser()
    p.add_argument("--log")
    p.add_argument("--prompt", action="append")
    p.add_argument("--answer", action="append", default=[])
    p.add_argument("--after")
    p.add_argument("--type")
    p.add_argument("--kill", type=int)
    p.add_argument("--timeout", type=float, default=30)
    p.add_argument("command", nargs=argparse.REMAINDER)
    a = p.parse_args()
    if a.command[:1] == ["--"]:
        a.command = a.command[1:]
    return a


def start(a):
    pid, fd = pty.fork()
    if pid == 0:
        if a.log:
            log = os.open(a.log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            os.dup2(log, 1)
            os.dup2(log, 2)
        os.execv(a.command[0], a.command)
    return pid, fd


def act(a, pid, fd):
    for _ in range(200):
        if os.path.exists(a.after):
            break
        time.sleep(0.05)
    if a.type is not None:
        os.write(fd, a.type.encode().decode("unicode_escape").encode())
    else:
        os.kill(pid, a.kill)


def main():
    a = parse()
    answers = a.answer
    prompts = tuple(os.fsencode(p) for p in (a.prompt or PROMPTS))
    pid, fd = start(a)
    if a.after:
        act(a, pid, fd)
    screen, end = b"", time.time() + a.timeout
    while time.time() < end:
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
    done, status = os.waitpid(pid, os.WNOHANG)
    if done == 0:    # still waiting, for an answer it never asked for, say
        os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
    sys.stdout.buffer.write(screen.replace(b"\r", b""))
    print("status", os.waitstatus_to_exitcode(status))


main()
