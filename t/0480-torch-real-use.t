#!/usr/bin/env bash
# The torch engine as a new user meets it, with Debian's real torchrun
# started by a train.sh that logs through '| tee': a run that collects
# nothing says why from what the run shows (the training's traceback, the
# last step of its log, torch_npu's own refusal, a dynamic mode waiting
# for its trigger); a launch that would be refused is refused before the
# script runs, once, leaving nothing behind; --strict fails where the
# status would hide it.  What is read from the real torchrun's output
# (its workers' lines as --tee passes them on, its failure report) comes
# from its runs; what does not depend on it (the status '| tee' leaves,
# a config directory of the launch's own) from the same train.sh under
# the simulation's torchrun and torch.
. "$(dirname "$0")/lib.sh"
. "$TOP/t/plain-python.sh"

TORCHRUN=/usr/bin/torchrun
torch_installed ||
    skip_all "Debian's torch and torchrun (python3-torch) are not installed"
sim_env
. "$CANN_ENV"
SIM_PYTHONPATH=$PYTHONPATH
export MSPROF_SIM_TORCH=real PYTHONPATH=$TOP/sim/python
# The training's setup lasts until the config has come (at most the
# suite's wait limit).
export MSPROF_SIM_DP_HOLD=$MSPROF_T_WAIT_LIMIT
# Only the training raises: at step 3 when CRASH is set, once its line of
# step 2 has come through torchrun's --tee into the log.  (torchrun passes
# a worker's output on from its file, after the worker's own stderr: on a
# loaded machine the line could land inside the traceback, where a real
# training's last step line does not come.)
sed -e 's/^        optimizer.step()$/&\
        if step == 3 and os.environ.get("CRASH"):\
            logged("step 2 loss")\
            raise RuntimeError("loss is nan at step %d" % step)/' \
    -e '/^def main():$/i\
def logged(text):\
    import time\
    end = time.monotonic() + float(os.environ["MSPROF_T_WAIT_LIMIT"])\
    while time.monotonic() < end and text not in open("logs/train.log").read():\
        time.sleep(0.02)\
\
' "$TOP/sim/torch-examples/train.py" > train.py
grep -q 'loss is nan' train.py || fail "train.py raises at step 3"
# torch 1.13's torchrun needs --redirects 1 --tee 1 under Python 3.11.
# NPROC=1 where what is read needs no second rank: each real worker
# imports torch, a second of CPU.
cat > train.sh <<'EOF'
mkdir -p logs
"$TORCHRUN" --nproc_per_node ${NPROC:-2} --master_port "$MASTER_PORT" --redirects 1 --tee 1 \
    ${ENTRY:-train.py} --steps ${STEPS:-8} 2>&1 | tee logs/train.log
EOF
export TORCHRUN
# sim COMMAND...: COMMAND (msprof) with the simulation's torchrun and torch.
sim() { TORCHRUN=torchrun PYTHONPATH=$SIM_PYTHONPATH "$@"; }
# Nothing of a run is left: no output, no session, no log of the script.
clean() { rm -rf profiling_output logs ./x+y cfg cfg+1; }
left() { ls -d profiling_output logs x+y 2>/dev/null | tr '\n' ' '; }
causes() { printf '%s\n' "$err" | grep 'cause: ' ; }
# The Step ids of the rank directory of RANK under profiling_output.
steps_of() {
	local d
	d=$(dirname "$(ls profiling_output/*_ascend_pt/profiler_info_$1.json)")
	csv_steps "$d"/ASCEND_PROFILER_OUTPUT/step_trace_time.csv
}

# A training that raises before the window: its own error is the cause,
# not a guess.  '| tee' hides its status: 1 (torchrun's exitcode, from its
# failure report) with --strict, and 0 without.
CRASH=1 NPROC=1 msprof -y --strict --steps 5:7 bash train.sh
is "$rc" 1 "--strict: the training's own status (torchrun's exitcode 1), though '| tee' hid it"
like "$err" "--strict: the training failed" "... said"
like "$(causes)" "cause: the training failed before its window \(steps 5 to 7, excluding 7\) was collected, at step [0-9] of its log .*RuntimeError: loss is nan at step 3" \
    "the cause names the traceback's error and the last step the log shows"
unlike "$(causes)" "a guess|Optimizer.step" "... and no guess"
is "$(ascend_dirs profiling_output | wc -l | tr -d ' ')" 0 "nothing collected"
clean
CRASH=1 sim msprof -y --steps 5:7 bash train.sh
is "$rc" 0 "a crash behind '| tee': the command's status, 0"
clean

# A window past the last step: the last step the log shows, against it.
NPROC=1 msprof -y --strict --steps 12:14 bash train.sh
is "$rc" 65 "--strict: nothing collected for the rank asked: 65"
like "$err" "--strict: a rank asked for collected nothing: exit status 65" "... said"
like "$(causes)" "cause: window never reached: the training ran to step 7 of its log \(\"step 7 loss [0-9.]+\"\), and the window is steps 12 to 14, excluding 14; choose one within the run, e\.g\. --steps 4:6" \
    "the cause: the log's last step, the window, and one within the run"
unlike "$(causes)" "a guess|Optimizer.step" "... and no guess"
clean
sim msprof -y --steps 12:14 bash train.sh
is "$rc" 0 "a window past the end: exit 0"
clean

# All collected, the default window of both ranks: --strict changes
# nothing.
STEPS=14 msprof -y --strict --ranks 0,1 bash train.sh
is "$rc" 0 "--strict, every rank asked collected: 0"
is "$(ranks_in profiling_output)" "0 1" "... both ranks"
unlike "$err" "cause: " "... no cause"
is "$(steps_of 0)" "10 11" "rank 0: steps 10 and 11 by default"
is "$(steps_of 1)" "10 11" "rank 1: steps 10 and 11 by default"
is "$(njournal injected)" 1 "one launch, injected"
clean

# A save path torch_npu refuses: refused before the script runs (its
# mkdir), once, 78, nothing made.
msprof -y -o ./x+y bash train.sh
is "$rc" 78 "a save path torch_npu refuses: 78"
like "$err" "train\.sh, line 2: .*x\+y: torch_npu refuses this prof_dir for the '\+' in it.*\(nothing was started\)" \
    "the refusal names the launch, the path, the character and the fix"
is "$(printf '%s\n' "$err" | grep -c "torch_npu refuses")" 1 "said once"
is "$(left)" "" "nothing left behind: no output, no session, no logs/"
clean

# A mistyped entry under the launcher: 66 before the script runs, once.
ENTRY=trian.py msprof -y bash train.sh
is "$rc" 66 "a missing entry script under torchrun: 66"
like "$err" "train\.sh, line 2: trian\.py: no such file, the training script of torchrun; check its name" \
    "the refusal names the file and the launcher"
is "$(printf '%s\n' "$err" | grep -c "trian\.py")" 1 "said once"
unlike "$out$err" "left alone" "not taken for a launch left alone"
is "$(left)" "" "nothing left behind"
ENTRY=trian.py msprof -n bash train.sh
is "$rc" 66 "-n agrees: 66"
clean

# The launch's own PROF_CONFIG_PATH, kept: torch_npu's dynamic mode
# collects when the config changes, which nothing did.  (No setup to
# hold: no config is coming.)
mkdir cfg
MSPROF_SIM_DP_HOLD=0 PROF_CONFIG_PATH=$PWD/cfg sim msprof -y --existing keep bash train.sh
is "$rc" 0 "--existing keep with PROF_CONFIG_PATH: exit 0"
like "$(causes)" "cause: the launch kept its own PROF_CONFIG_PATH \($PWD/cfg\): .*run 'msprof-exec trigger $PWD/cfg' during the training" \
    "the cause: dynamic mode waits for msprof-exec trigger DIR"
clean

# torch_npu's own refusal of a kept PROF_CONFIG_PATH: its log line read.
mkdir cfg+1
MSPROF_SIM_DP_HOLD=0 PROF_CONFIG_PATH=$PWD/cfg+1 sim msprof -y --existing keep bash train.sh
is "$rc" 0 "a PROF_CONFIG_PATH torch_npu refuses: exit 0"
like "$err" "cause: torch_npu refused the config directory $PWD/cfg\+1 \(PROF_CONFIG_PATH" \
    "the cause: torch_npu's refusal, with the path its log names"
is "$(printf '%s\n' "$err" | grep -c "cause: ")" 1 "... alone"
clean

# msprof-exec analyse fails when torch_npu's parse failed, though its
# analyse() returns and its process exits 0.
mkdir -p raw/vm_1_20261205120000000_ascend_pt/FRAMEWORK
echo '{' > raw/vm_1_20261205120000000_ascend_pt/profiler_info_0.json
"$MSPROF" analyse raw > .out 2> .err
is "$?" 65 "analyse: a parse torch_npu says failed: 65"
like "$(< .err)" "Profiling data parsing failed" "... torch_npu's line passed on"
like "$(< .err)" "raw: the parser says the parse failed \(see above\), though it exited 0" \
    "... and why the status"
done_testing
