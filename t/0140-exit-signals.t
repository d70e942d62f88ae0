#!/usr/bin/env bash
# msprof-exec exits with the command's status, passes SIGINT and SIGTERM
# on to the training, and dies of the signal that killed the command.
. "$(dirname "$0")/lib.sh"

for code in 0 1 3 42; do
	msprof -y sh -c "exit $code"
	is "$rc" "$code" "exit status $code passed through"
done

make_recorder torchrun 7
export PATH="$RBIN:$PATH"
msprof -y torchrun pretrain_gpt.py
is "$rc" 7 "the launcher's own status passed through the injector"

# status COMMAND...: how msprof-exec ended, as Python sees it (-N: signal N).
status() {
	$PY - "$@" <<'EOF2'
import subprocess, sys
p = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
print(p.returncode)
EOF2
}
is "$(status "$MSPROF" -y --skip-checks sh -c 'kill -TERM $$')" -15 \
    "a command killed by SIGTERM: msprof-exec dies of SIGTERM"
is "$(status "$MSPROF" -y --skip-checks sh -c 'kill -SEGV $$')" -11 \
    "a command killed by SIGSEGV: msprof-exec dies of SIGSEGV"
ok "$(ls core* 2>/dev/null | wc -l)" "and leaves no core file of its own"

# A training that records each signal it gets and how it was sent.
printf '#!/bin/sh\nexec "%s" "%s"\n' "$HELPERS/sigrec" "$T/got" > "$RBIN/torchrun"
chmod +x "$RBIN/torchrun"

# signal_run SIG: start msprof-exec, send SIG to it alone, print its status.
signal_run() {
	rm -f "$T/got" "$T/got.started"
	$PY - "$1" "$MSPROF" <<'EOF2'
import os, signal, subprocess, sys, time
p = subprocess.Popen([sys.argv[2], "-y", "--skip-checks", "torchrun",
                      "pretrain_gpt.py"],
                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
for _ in range(200):
    if os.path.exists("got.started"):
        break
    time.sleep(0.05)
p.send_signal(getattr(signal, sys.argv[1]))
try:
    print(p.wait(timeout=20))
except subprocess.TimeoutExpired:
    p.kill()
    print("hung")
EOF2
}
is "$(signal_run SIGTERM)" 143 "SIGTERM to msprof-exec: the training's status"
is "$(cat "$T/got" 2>/dev/null)" "TERM user" "SIGTERM passed on to the training, once"
is "$(signal_run SIGINT)" 130 "SIGINT to msprof-exec: the training's status"
is "$(cat "$T/got" 2>/dev/null)" "INT user" "SIGINT passed on to the training, once"

# Ctrl-C on a terminal signals the whole foreground group: msprof-exec
# must not pass it on a second time.
rm -f "$T/got" "$T/got.started"
$PY - "$MSPROF" <<'EOF2'
import os, pty, sys, time
pid, fd = pty.fork()
if pid == 0:
    os.execv(sys.argv[1], [sys.argv[1], "-y", "--skip-checks", "torchrun",
                           "pretrain_gpt.py"])
for _ in range(200):
    if os.path.exists("got.started"):
        break
    time.sleep(0.05)
os.write(fd, b"\x03")
end = time.time() + 20
while time.time() < end:
    try:
        os.read(fd, 1024)
    except OSError:
        break
os.waitpid(pid, 0)
EOF2
is "$(cat "$T/got" 2>/dev/null)" "INT kernel" \
    "Ctrl-C on a terminal reaches the training once, from the terminal"
done_testing
