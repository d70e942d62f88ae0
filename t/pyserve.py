"""Run a test's small Python snippets in one process (t/lib.sh: pyq).

    pyserve.py DIR SHELL-PID

A test asks Python dozens of times for a figure of a JSON file or a sum;
each python3 started for it costs more than the question.  pyq sends the
snippet here instead, and this process runs it as `python3 -c CODE ARG...`
(or `python3 - ARG...`) would: in the caller's directory and environment,
with sys.argv, its own globals as __main__, the stdin it was given, its
stdout and stderr sent back, and the status sys.exit (or an exception)
gives; what it left open is closed when it ends.  What a snippet imports
stays imported, which is the point.  Its output is text: NUL bytes are
dropped, as a shell's $(...) drops them.

One request at a time through two FIFOs in DIR, opened for each: pyq
writes the request into DIR/in and closes it, then reads the answer from
DIR/out.  A request is a header line "NARGS NENV", then fields, each
"LENGTH\\n" and that many bytes: the directory, the code's name (-c or -),
the code, its stdin, NENV "NAME=VALUE", NARGS arguments.  The answer is
"STATUS OUTLEN ERRLEN\\n", then stdout and stderr.  The process ends with
the test's shell (SHELL-PID), which it looks for every second.
"""
import builtins
import gc
import io
import os
import sys
import threading
import time
import traceback

STREAMS = (sys.stdin, sys.stdout, sys.stderr)


def pythonpath(env):
    return [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]


# the path without this file's directory and PYTHONPATH's entries: each
# snippet gets "" (its directory) and its own PYTHONPATH before these
BASE = sys.path[1 + len(pythonpath(os.environ)):]


def text(buf, errors):
    return io.TextIOWrapper(buf, encoding="utf-8", errors=errors, newline=None,
                            write_through=True)


def run(name, code, data, args):
    out, err = io.BytesIO(), io.BytesIO()
    sys.stdin = text(io.BytesIO(data), "surrogateescape")
    sys.stdout = text(out, "surrogateescape")
    sys.stderr = text(err, "backslashreplace")
    sys.argv = [name] + [os.fsdecode(a) for a in args]
    sys.path[:] = [""] + [os.path.abspath(p) for p in pythonpath(os.environ)] + BASE
    status = 0
    try:
        exec(compile(code, "<string>" if name == "-c" else "<stdin>", "exec"),
             {"__name__": "__main__", "__builtins__": builtins})
    except SystemExit as e:
        if e.code is None:
            status = 0
        elif isinstance(e.code, int):
            status = e.code & 0xff
        else:
            print(e.code, file=sys.stderr)
            status = 1
    except BaseException:
        traceback.print_exc()
        status = 1
    finally:
        for s in (sys.stdin, sys.stdout, sys.stderr):
            try:
                s.flush()
                s.detach()          # a wrapper closes its buffer when it goes
            except (ValueError, OSError):
                pass
        sys.stdin, sys.stdout, sys.stderr = STREAMS
        # what the snippet left open (files, databases, often in reference
        # cycles) is closed now, as its process's exit would have
        gc.collect()
    return status, out.getvalue(), err.getvalue()


def answer(req):
    def field():
        return req.read(int(req.readline()))

    nargs, nenv = map(int, req.readline().split())
    cwd, name, code, data = field(), field(), field(), field()
    env = [field() for _ in range(nenv)]
    args = [field() for _ in range(nargs)]
    os.chdir(cwd)
    os.environb.clear()
    for e in env:
        k, _, v = e.partition(b"=")
        os.environb[k] = v
    return run(name.decode(), code, data, args)


def watch(shell):
    while True:
        time.sleep(1)
        try:
            os.kill(shell, 0)
        except ProcessLookupError:
            os._exit(0)


def main():
    fifo, shell = sys.argv[1], int(sys.argv[2])
    threading.Thread(target=watch, args=(shell,), daemon=True).start()
    while True:
        try:
            with open(os.path.join(fifo, "in"), "rb") as req:
                status, out, err = answer(req)
        except Exception:           # a request it cannot read: said, not fatal
            status, out, err = 70, b"", traceback.format_exc().encode()
        # a shell's $(...) drops NUL bytes: so does the answer
        out, err = out.replace(b"\0", b""), err.replace(b"\0", b"")
        with open(os.path.join(fifo, "out"), "wb") as ans:
            ans.write(b"%d %d %d\n" % (status, len(out), len(err)) + out + err)


main()
