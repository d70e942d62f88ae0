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
	out=$(cat "$T/.out")
	err=$(cat "$T/.err")
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
# runs the simulated torchrun piped into tee.
sim_env
cd "$T/mindspeed-llm"
QWEN=examples/mcore/qwen3/pretrain_qwen3_8b_4K_ptd.sh
MSPROF_SIM_STEP_MS=400 marked $PY - "$MSPROF" "$QWEN" > status <<'EOF2' 2> pyerr
import os, signal, subprocess, sys, time
p = subprocess.Popen([sys.argv[1], "-y", "--skip-checks", "bash", sys.argv[2]],
                     stdout=open("out", "w"), stderr=open("err", "w"))
end = time.time() + 60
while time.time() < end:
    try:
        if "iteration        2/" in open("out").read():
            break
    except OSError:
        pass
    time.sleep(0.1)
p.send_signal(signal.SIGTERM)
try:
    print(p.wait(timeout=60))
except subprocess.TimeoutExpired:
    p.kill()
    print("hung")
EOF2
is "$(cat status)" -15 "SIGTERM to msprof-exec: it dies of SIGTERM, as bash did"
is "$(job_left)" "" "SIGTERM to msprof-exec: no process of the job is left"
like "$(cat err)" "interrupted \(SIGTERM" "the report says the run was interrupted"
unlike "$(cat err)" "Training script execution failed" "and does not call it a training failure"
like "$(cat err)" "Sending process [0-9]+ closing signal SIGTERM|death signal" \
    "torchrun got the signal and shut its workers down"
cd "$T"
unset MSPROF_SIM_STEP_MS

# Processes the command leaves behind are part of the job: waited for.
start=$(date +%s.%N)
msprof -y sh -c 'sleep 2 & echo started'
took=$(echo "$(date +%s.%N) - $start" | bc)
is "$rc" 0 "a command that leaves a process behind: its own status"
ok "$(echo "$took >= 1.8" | bc | grep -qx 1; echo $?)" "msprof-exec waits for the process it left ($took s)"
is "$(job_left)" "" "nothing of the job is left afterwards"
# ... and a signal to msprof-exec then reaches them too.
marked $PY - "$MSPROF" <<'EOF2' > status
import os, signal, subprocess, sys, time
p = subprocess.Popen([sys.argv[1], "-y", "--skip-checks", "sh", "-c", "sleep 30 & echo started"],
                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
p.stdout.readline()
time.sleep(0.5)
p.send_signal(signal.SIGTERM)
try:
    print(p.wait(timeout=20))
except subprocess.TimeoutExpired:
    p.kill()
    print("hung")
EOF2
is "$(cat status)" 0 "SIGTERM while waiting for a left process: the command's own status"
is "$(job_left)" "" "SIGTERM while waiting: the left process is gone too"

# Detached on purpose: not waited for; the report names them and says
# how to look again.  Their output still has somewhere to go.
start=$(date +%s.%N)
msprof -y sh -c 'setsid sh -c "sleep 4; echo detached-done" & echo started'
took=$(echo "$(date +%s.%N) - $start" | bc)
ok "$(echo "$took < 3.5" | bc | grep -qx 1; echo $?)" "setsid: msprof-exec does not wait ($took s)"
like "$err" "still run \(PID [0-9]+\): profiling may still be running" "setsid: the report says so"
like "$err" "check later with: msprof-exec report .*msprof-exec_" "setsid: and how to check later"
unlike "$err" "Static programs" "setsid: no misleading warning about static programs"
ok "$([ -n "$(job_left)" ]; echo $?)" "setsid: the detached process still runs"
sleep 4.5
like "$(cat profiling_output/msprof-exec_*/train.log)" "detached-done" \
    "setsid: its output still reaches the session log after msprof-exec exited"
is "$(job_left)" "" "setsid: it ended on its own"
rm -rf profiling_output
msprof -y sh -c 'nohup sh -c "sleep 4; echo nohup-done" > /dev/null 2>&1 & echo started'
like "$err" "still run \(PID [0-9]+\)" "nohup: not waited for, named in the report"
sleep 4.5
is "$(job_left)" "" "nohup: it ended on its own"

# A process that starts ignoring SIGHUP only when told to stop (as a
# launcher that ignores further signals while it stops its workers) is
# shutting down, not nohup'd: msprof-exec waits for it.
rm -rf profiling_output
cat > slowstop.py <<'EOF2'
import os, signal, sys, time
def stop(sig, frame):
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    time.sleep(2)
    print("stopped", flush=True)
    os._exit(0)
signal.signal(signal.SIGTERM, stop)
print("ready", flush=True)
time.sleep(60)
EOF2
marked $PY - "$MSPROF" "$PY" <<'EOF2' > status
import glob, os, signal, subprocess, sys, time
p = subprocess.Popen([sys.argv[1], "-y", "--skip-checks", "sh", "-c",
                      sys.argv[2] + " slowstop.py & wait"],
                     stdout=subprocess.PIPE, stderr=open("err", "w"))
p.stdout.readline()
start = time.time()
p.send_signal(signal.SIGTERM)
rc = p.wait(timeout=30)
took = time.time() - start
alive = any("slowstop.py" in open(c, "rb").read().decode(errors="replace")
            for c in glob.glob("/proc/[0-9]*/cmdline") if os.path.exists(c))
print(rc, alive, took > 1.8, "stopped" in p.stdout.read().decode())
EOF2
is "$(job_left)" "" "a process that ignores SIGHUP once told to stop: left nothing running"
is "$(cat status)" "-15 False True True" \
    "... msprof-exec exited after it stopped, not before, with its output"
unlike "$(cat err)" "still run" "... and did not take it for one detached by nohup"

# msprof-exec itself under nohup: SIGHUP stays ignored (msprof-exec and
# the job go on, the run is not interrupted), and a process left running
# is still waited for, not taken for one detached by nohup.
rm -rf profiling_output
marked $PY - "$MSPROF" <<'EOF2' > status
import os, signal, subprocess, sys, time
p = subprocess.Popen(["nohup", sys.argv[1], "-y", "--skip-checks", "sh", "-c",
                      "sleep 2 & echo started; sleep 1; echo after-hup"],
                     stdout=subprocess.PIPE, stderr=open("err", "w"))
p.stdout.readline()
start = time.time()
p.send_signal(signal.SIGHUP)
out = p.stdout.read().decode()
print(p.wait(timeout=20), "after-hup" in out, time.time() - start > 1.5)
EOF2
is "$(cat status)" "0 True True" "under nohup: SIGHUP ignored, the job went on and was waited for"
unlike "$(cat err)" "interrupted|still run" "under nohup: neither interrupted nor detached"
is "$(job_left)" "" "under nohup: nothing of the job is left"

# Ctrl-C on a terminal: the report says the run was interrupted.
printf '#!/bin/sh\nexec "%s" "%s"\n' "$HELPERS/sigrec" "$T/got" > "$RBIN/torchrun"
chmod +x "$RBIN/torchrun"
export PATH="$RBIN:$PATH"
screen=$(ptyrun --after got.started --type '\x03' --timeout 20 -- \
    "$MSPROF" -y --skip-checks torchrun pretrain_gpt.py)
like "$screen" "interrupted \(SIGINT" "Ctrl-C on a terminal: the report says interrupted"
is "$(cat got)" "INT kernel" "Ctrl-C: the job got it once, from the terminal"

# On a terminal, SIGTERM sent to msprof-exec alone: the job shares its
# process group, and gets the signal once, from msprof-exec.
rm -f got got.started
status=$(marked "$PY" "$TOP/t/ptyrun.py" --after got.started --kill 15 \
    --timeout 20 -- "$MSPROF" -y --skip-checks torchrun pretrain_gpt.py |
    sed -n 's/^status //p')
is "$(cat got)" "TERM user" "SIGTERM to msprof-exec on a terminal: the job got it once"
is "$status" 143 "and msprof-exec ends with the job's status"
is "$(job_left)" "" "and nothing of the job is left"
done_testing
