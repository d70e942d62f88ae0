#!/usr/bin/env bash
# Stress (reference 2.1, 2.3, 4): under the shim in an active session,
# a multithreaded C program starting hundreds of children at once (fork,
# vfork, posix_spawn, PATH search) and a threaded CPython program starting
# hundreds of subprocesses (the vfork path), some of them training
# launches, neither deadlock nor crash; every child does what it was
# asked, and every launch is profiled exactly once.
. "$(dirname "$0")/lib.sh"
pyq_start

STRESS=$HELPERS/forkstress
[ -x "$STRESS" ] || skip_all "$STRESS is not built"
# Bounded: a deadlock ends as a timeout, not as a hung test suite.
LIMIT=${MSPROF_STRESS_TIMEOUT:-$MSPROF_T_WAIT_LIMIT}
# The children run an echo of the test's own, linked statically where the
# compiler can: their exec then loads no library, and the test's time goes
# to what it stresses (the wrappers in the children of a threaded parent,
# on its memory after vfork), not to the dynamic loader.  The searching
# modes find it first on PATH.
mkdir sbin
cat > echo.c <<'EOF'
#include <string.h>
#include <unistd.h>

int
main(int argc, char *argv[])
{
	int i;

	for (i = 1; i < argc; i++) {
		if (i > 1 && write(1, " ", 1) != 1)
			return 1;
		if (write(1, argv[i], strlen(argv[i])) < 0)
			return 1;
	}
	return write(1, "\n", 1) != 1;
}
EOF
if cc -O2 -static -o sbin/echo echo.c 2> /dev/null; then
	ECHO=$T/sbin/echo
else
	ECHO=/bin/echo
	diag "no static link here: the children run /bin/echo"
fi
SBIN_PATH=$T/sbin:/usr/bin:/bin

# 16 threads x 50 fork + execve of an echo, in a real msprof-exec run.
msprof -y timeout "$LIMIT" "$STRESS" -t 16 -n 50 "$ECHO"
is "$rc" 0 "forkstress (fork + execve) under msprof-exec: exit 0"
has_line "$out" "forkstress: 800 children, 0 wrong" \
    "forkstress (fork + execve): all 800 children ran and said the right thing"
like "$out" "preloaded: .*msprof-exec-shim[^ ]*\.so" "forkstress ran with the shim loaded"
like "$out" "session: $T/profiling_output/msprof-exec_" "... in the session of the run"
[ "$rc" -eq 0 ] || diag "$err"

# Each way of starting a child, with the shim preloaded directly.
for m in vfork spawn execvp mixed; do
	r=$(shim_session; PATH=$SBIN_PATH LD_PRELOAD=$SHIM \
	    timeout "$LIMIT" "$STRESS" -t 16 -n 50 -m "$m" "$ECHO" 2>&1)
	s=$?
	is "$s:$(printf '%s\n' "$r" | grep '^forkstress:')" \
	    "0:forkstress: 800 children, 0 wrong" "forkstress -m $m: no hang, all right"
	like "$r" "preloaded: .*msprof-exec-shim[^ ]*\.so" "forkstress -m $m: the shim was loaded"
done

# CPython: 8 threads x 48 subprocess.run; one in eight is a training
# launch (torchrun found on PATH, a recorder), the others echo (the echo
# above, STRESS_ECHO) through a PATH search, an absolute path, and with
# env= given.
make_recorder torchrun
cat > stress.py <<'EOF'
import os, subprocess, sys, threading

THREADS, EACH = 8, 48
ECHO = os.environ["STRESS_ECHO"]
errors, lock = [], threading.Lock()

def check(what, ok, detail):
    if not ok:
        with lock:
            errors.append("%s: %s" % (what, detail))

def work(k):
    env = dict(os.environ, STRESS_K=str(k))
    for i in range(EACH):
        tag = "k%d-i%d" % (k, i)
        kind = i % 8
        if kind == 3:
            r = subprocess.run(["torchrun", "--nproc_per_node", "1",
                                "pretrain_gpt.py", "--tag", tag],
                               capture_output=True)
            check(tag, r.returncode == 0, "torchrun exit %d %r" % (r.returncode, r.stderr))
            continue
        if kind in (0, 4):
            argv, kw = ["echo", tag], {}
        elif kind in (1, 5):
            argv, kw = [ECHO, tag], {}
        elif kind in (2, 6):
            argv, kw = ["echo", tag], {"env": env}
        else:
            argv, kw = [ECHO, tag], {"close_fds": False}   # posix_spawn
        r = subprocess.run(argv, capture_output=True, **kw)
        check(tag, r.returncode == 0 and r.stdout == (tag + "\n").encode(),
              "exit %d, out %r" % (r.returncode, r.stdout))

threads = [threading.Thread(target=work, args=(k,)) for k in range(THREADS)]
for t in threads: t.start()
for t in threads: t.join()
print("python stress: %d subprocesses, %d wrong" % (THREADS * EACH, len(errors)))
print("vfork: %s" % getattr(subprocess, "_USE_VFORK", False))
for e in errors[:10]: print("wrong:", e)
sys.exit(1 if errors else 0)
EOF
PATH="$RBIN:$T/sbin:$PATH" STRESS_ECHO=$ECHO \
    msprof -y timeout "$LIMIT" "$PY" stress.py
is "$rc" 0 "python stress under msprof-exec: exit 0"
has_line "$out" "python stress: 384 subprocesses, 0 wrong" \
    "python stress: every subprocess did what it was asked"
[ "$rc" -eq 0 ] || diag "$out" "$err"
if printf '%s\n' "$out" | grep -q '^vfork: True'; then
	pass "python stress: this CPython starts its children with vfork"
else
	skip "this CPython does not use vfork for subprocess"
fi
is "$(nrecorded)" 48 "python stress: 48 training launches, each recorded exactly once"
want=$(for k in $(seq 0 7); do for i in 3 11 19 27 35 43; do
	echo "$RBIN/torchrun --nproc_per_node 1 pretrain_gpt.py --tag k$k-i$i $DEFAULT_FLAGS"
done; done | sort)
# (each file joined by the shell: 48 of them)
got=$(for f in $(recorded); do
	a=
	IFS= read -r -d '' a < "$f"
	a=${a//$'\n'/ }
	printf '%s\n' "${a% }"
done | sort)
is "$got" "$want" "python stress: each launch got exactly its own arguments and the flags once"
is "$(njournal injected)" 48 "python stress: the journal has 48 injected launches"
is "$(journal | wc -l | tr -d ' ')" 48 "python stress: and nothing else"
bad=$(journal | pyq -i -c '
import json, sys
bad = 0
for line in sys.stdin:
    try:
        json.loads(line)
    except ValueError:
        bad += 1
print(bad)')
is "$bad" 0 "python stress: every journal line is valid JSON (no interleaved writes)"
done_testing
