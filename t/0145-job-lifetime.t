#!/usr/bin/env bash
# The job's lifetime: a signal sent to msprof-exec alone reaches every
# process of the job (bash, tee, torchrun and its workers), msprof-exec
# reports only once they are all gone and says the run was interrupted;
# processes the command leaves running are waited for, except those the
# script detached (setsid, nohup), which the report names.
. "$(dirname "$0")/lib.sh"

# A mark in the environment of every process of the job (and of no
# process of the test itself).
MARK="MSPROF_T_JOB=$$.$RANDOM"
marked() { env "$MARK" "$@"; }
msprof() {
	marked "$MSPROF" --skip-checks "$@" > "$T/.out" 2> "$T/.err"
	rc=$?
	out=$(<"$T/.out")
	err=$(<"$T/.err")
}
# job_left: the command lines of the live processes that carry the mark.
job_left() {
	for e in $(grep -laF "$MARK" /proc/[0-9]*/environ 2>/dev/null); do
		p=${e%/environ}
		[ "$(sed 's/.*) \(.\).*/\1/' "$p/stat" 2>/dev/null)" = Z ] ||
		    tr '\0' ' ' < "$p/cmdline" 2>/dev/null
	done
}

# SIGTERM to msprof-exec alone, in the middle of a real bash script that
# runs the simulated torchrun piped into tee: both ranks hold at iteration
# 3 (MSPROF_SIM_PAUSE, released by nothing) until the signal comes.
sim_env
cd "$T/mindspeed-llm"
QWEN=examples/mcore/qwen3/pretrain_qwen3_8b_4K_ptd.sh
MSPROF_SIM_PAUSE=3:$T/hold marked "${PYRUN[@]}" "$MSPROF" "$QWEN" "$T/hold" > status <<'EOF2' 2> pyerr
import signal, subprocess
p = subprocess.Popen([sys.argv[1], "-y", "--skip-checks", "bash", sys.argv[2]],
                     stdout=open("out", "w"), stderr=open("err", "w"))
try:
    wait_until(lambda: all(os.path.exists("%s.%d" % (sys.argv[3], r)) for r in (0, 1)),
               "both ranks at iteration 3")
    p.send_signal(signal.SIGTERM)
    print(p.wait(timeout=LIMIT))
except (TimeoutError, subprocess.TimeoutExpired) as e:
    p.kill()
    print("hung:", e)
EOF2
is "$(<status)" -15 "SIGTERM to msprof-exec: it dies of SIGTERM, as bash did"
is "$(job_left)" "" "SIGTERM to msprof-exec: no process of the job is left"
like "$(<err)" "interrupted \(SIGTERM" "the report says the run was interrupted"
unlike "$(<err)" "Training script execution failed" "and does not call it a training failure"
like "$(<err)" "Sending process [0-9]+ closing signal SIGTERM|death signal" \
    "torchrun got the signal and shut its workers down"
cd "$T"
no_job_left() { [ -z "$(job_left)" ]; }

# Processes the command leaves behind are part of the job: waited for.
rm -f left.done
msprof -y sh -c '(sleep 2; : > left.done) & echo started'
is "$rc" 0 "a command that leaves a process behind: its own status"
ok "$([ -e left.done ]; echo $?)" "msprof-exec waits for the process it left (it had ended first)"
is "$(job_left)" "" "nothing of the job is left afterwards"
# ... and a signal to msprof-exec then reaches them too, once the command
# itself has ended.
marked "${PYRUN[@]}" "$MSPROF" <<'EOF2' > status
import signal, subprocess
p = subprocess.Popen([sys.argv[1], "-y", "--skip-checks", "sh", "-c",
                      "sleep $MSPROF_T_WAIT_LIMIT & echo started $$"],
                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
command = int(p.stdout.readline().split()[1])
try:
    wait_until(lambda: gone(command), "the command to end")
    p.send_signal(signal.SIGTERM)
    print(p.wait(timeout=LIMIT))
except (TimeoutError, subprocess.TimeoutExpired) as e:
    p.kill()
    print("hung:", e)
EOF2
is "$(<status)" 0 "SIGTERM while waiting for a left process: the command's own status"
is "$(job_left)" "" "SIGTERM while waiting: the left process is gone too"

# Detached on purpose: not waited for; the report names them and says
# how to look again.  Their output still has somewhere to go.  The
# detached process holds on until the test releases it.
printf '%s\n' 'timeout "$MSPROF_T_WAIT_LIMIT" sh -c "read x < hold"' \
    'echo "$1-done"' > held.sh
gate hold
msprof -y sh -c 'setsid sh held.sh detached & echo started'
ok "$([ -n "$(job_left)" ]; echo $?)" "setsid: msprof-exec does not wait: the detached process still runs"
like "$err" "still run \(PID [0-9]+\): profiling may still be running" "setsid: the report says so"
like "$err" "check later with: msprof-exec report .*msprof-exec_" "setsid: and how to check later"
unlike "$err" "Static programs" "setsid: no misleading warning about static programs"
release hold
wait_for "the detached process to end" no_job_left
like "$(cat profiling_output/msprof-exec_*/train.log)" "detached-done" \
    "setsid: its output still reaches the session log after msprof-exec exited"
is "$(job_left)" "" "setsid: it ended on its own"
rm -rf profiling_output
gate hold
msprof -y sh -c 'nohup sh held.sh nohup > /dev/null 2>&1 & echo started'
like "$err" "still run \(PID [0-9]+\)" "nohup: not waited for, named in the report"
release hold
wait_for "the nohup'd process to end" no_job_left
is "$(job_left)" "" "nohup: it ended on its own"

# A process that starts ignoring SIGHUP only when told to stop (as a
# launcher that ignores further signals while it stops its workers) is
# shutting down, not nohup'd: msprof-exec waits for it.
rm -rf profiling_output
cat > slowstop.py <<'EOF2'
import os, signal, sys, time
def stop(sig, frame):
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    time.sleep(2)    # stopping takes a while
    open("stopped", "w").close()
    print("stopped", flush=True)
    os._exit(0)
signal.signal(signal.SIGTERM, stop)
print("ready", os.getpid(), flush=True)
time.sleep(float(os.environ["MSPROF_T_WAIT_LIMIT"]))
EOF2
rm -f stopped
marked "${PYRUN[@]}" "$MSPROF" "$PY" <<'EOF2' > status
import signal, subprocess
p = subprocess.Popen([sys.argv[1], "-y", "--skip-checks", "sh", "-c",
                      sys.argv[2] + " slowstop.py & wait"],
                     stdout=subprocess.PIPE, stderr=open("err", "w"))
slowstop = int(p.stdout.readline().split()[1])
p.send_signal(signal.SIGTERM)
rc = p.wait(timeout=LIMIT)
stopped_first = os.path.exists("stopped")
print(rc, not gone(slowstop), stopped_first, "stopped" in p.stdout.read().decode())
EOF2
is "$(job_left)" "" "a process that ignores SIGHUP once told to stop: left nothing running"
is "$(<status)" "-15 False True True" \
    "... msprof-exec exited after it stopped, not before, with its output"
unlike "$(<err)" "still run" "... and did not take it for one detached by nohup"

# msprof-exec itself under nohup: SIGHUP stays ignored (msprof-exec and
# the job go on, the run is not interrupted), and a process left running
# is still waited for, not taken for one detached by nohup.
rm -rf profiling_output
rm -f left.done
gate hold
marked "${PYRUN[@]}" "$MSPROF" <<'EOF2' > status
import signal, subprocess
p = subprocess.Popen(["nohup", sys.argv[1], "-y", "--skip-checks", "sh", "-c",
                      "(sleep 2; : > left.done) & echo started; "
                      "timeout $MSPROF_T_WAIT_LIMIT sh -c 'read x < hold'; echo after-hup"],
                     stdout=subprocess.PIPE, stderr=open("err", "w"))
p.stdout.readline()
p.send_signal(signal.SIGHUP)
release("hold")
out = p.stdout.read().decode()
print(p.wait(timeout=LIMIT), "after-hup" in out, os.path.exists("left.done"))
EOF2
is "$(<status)" "0 True True" "under nohup: SIGHUP ignored, the job went on and was waited for"
unlike "$(<err)" "interrupted|still run" "under nohup: neither interrupted nor detached"
is "$(job_left)" "" "under nohup: nothing of the job is left"

# Ctrl-C on a terminal: the report says the run was interrupted.
printf '#!/bin/sh\nexec "%s" "%s"\n' "$HELPERS/sigrec" "$T/got" > "$RBIN/torchrun"
chmod +x "$RBIN/torchrun"
export PATH="$RBIN:$PATH"
screen=$(ptyrun --after got.started --type '\x03' -- \
    "$MSPROF" -y --skip-checks torchrun pretrain_gpt.py)
like "$screen" "interrupted \(SIGINT" "Ctrl-C on a terminal: the report says interrupted"
is "$(<got)" "INT kernel" "Ctrl-C: the job got it once, from the terminal"

# On a terminal, SIGTERM sent to msprof-exec alone: the job shares its
# process group, and gets the signal once, from msprof-exec.
rm -f got got.started
status=$(marked "$PY" "$TOP/t/ptyrun.py" --after got.started --kill 15 \
    -- "$MSPROF" -y --skip-checks torchrun pretrain_gpt.py |
    sed -n 's/^status //p')
is "$(<got)" "TERM user" "SIGTERM to msprof-exec on a terminal: the job got it once"
is "$status" 143 "and msprof-exec ends with the job's status"
is "$(job_left)" "" "and nothing of the job is left"
done_testing
