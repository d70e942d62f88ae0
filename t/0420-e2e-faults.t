#!/usr/bin/env bash
# End to end, the failures engineers hit: out of memory, port in use,
# weight size mismatch, a window past the end of training, no NPU; each
# with the expected exit status and diagnosis.
. "$(dirname "$0")/lib.sh"
sim_env
cd "$T/mindspeed-llm"
QWEN=examples/mcore/qwen3/pretrain_qwen3_8b_4K_ptd.sh
run() { "$MSPROF" -y --skip-checks "$@" bash "$QWEN" > out 2> err; rc=$?; }

MSPROF_SIM_OOM_STEP=3 run
is "$rc" 0 "out of memory: the script's status (its | tee hides the failure)"
like "$(cat err)" "Training script execution failed \(exit code: 0, but the training reported errors: a pipeline such as '\| tee' hides the launcher's exit code\). Profiling collection requires training to run normally." \
    "out of memory: the failure is reported all the same"
like "$(cat err)" "cause: NPU out of memory: lower --micro-batch-size" "out of memory: the diagnosis"
like "$(cat "$(ls -d profiling_output/msprof-exec_*)/train.log")" "NPU out of memory. Tried to allocate" \
    "the session keeps a copy of the training output"

rm -rf profiling_output
$PY -c '
import os, socket, sys, time
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("localhost", int(sys.argv[1]))); s.listen(1); open("bound", "w").close()
time.sleep(float(os.environ["MSPROF_T_WAIT_LIMIT"]))' "$MASTER_PORT" &
holder=$!
wait_for "the port holder" test -f bound
run
kill $holder 2>/dev/null
like "$(cat err)" "Training script execution failed" "port in use: the failure message"
like "$(cat err)" "cause: MASTER_PORT $MASTER_PORT is already in use on this node .*e.g. [0-9]+" \
    "port in use: names the port and a free one"

rm -rf profiling_output
MSPROF_SIM_SIZE_MISMATCH=1 run
like "$(cat err)" "cause: the checkpoint does not fit the model" "size mismatch: the diagnosis"

rm -rf profiling_output
run --steps 9:12 --force --train-iters 10
is "$rc" 78 "a window past --train-iters is refused before training: exit 78"
like "$(cat err)" "steps 9 to 12, excluding 12, end after the last training step \(--train-iters 10\)" \
    "the window past the end: the message"
unlike "$(cat out)" "iteration" "the window past the end: the training did not start"

rm -rf profiling_output
MSPROF_SIM_NO_NPU=1 "$MSPROF" -y --cann-env "$CANN_ENV" bash "$QWEN" > out 2> err
is "$?" 69 "no NPU: exit 69"
like "$(cat err)" "No NPU detected in the current environment. Please run in an environment with Ascend NPU." \
    "no NPU: the message"
ok "$([ ! -e profiling_output ]; echo $?)" "no NPU: nothing created"
done_testing
