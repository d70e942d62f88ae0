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

# signal_run SIG: start msprof-exec, send SIG to it alone once the training
# runs, print its status.
signal_run() {
	rm -f "$T/got" "$T/got.started"
	pyrun "$1" "$MSPROF" <<'EOF2'
import signal, subprocess
p = subprocess.Popen([sys.argv[2], "-y", "--skip-checks", "torchrun",
                      "pretrain_gpt.py"], preexec_fn=as_from_a_shell,
                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
try:
    wait_until(lambda: os.path.exists("got.started"), "the training to start")
    p.send_signal(getattr(signal, sys.argv[1]))
    print(p.wait(timeout=LIMIT))
except (TimeoutError, subprocess.TimeoutExpired) as e:
    p.kill()
    print("hung:", e)
EOF2
}
is "$(signal_run SIGTERM)" 143 "SIGTERM to msprof-exec: the training's status"
is "$(cat "$T/got" 2>/dev/null)" "TERM user" "SIGTERM passed on to the training, once"
is "$(signal_run SIGINT)" 130 "SIGINT to msprof-exec: the training's status"
is "$(cat "$T/got" 2>/dev/null)" "INT user" "SIGINT passed on to the training, once"

# Ctrl-C on a terminal signals the whole foreground group: msprof-exec
# must not pass it on a second time.
rm -f "$T/got" "$T/got.started"
ptyrun --after got.started --type '\x03' -- \
    "$MSPROF" -y --skip-checks torchrun pretrain_gpt.py > /dev/null
is "$(cat "$T/got" 2>/dev/null)" "INT kernel" \
    "Ctrl-C on a terminal reaches the training once, from the terminal"
done_testing
