#!/usr/bin/env bash
# msprof-exec tune on a plain PyTorch training (sim/torch-examples, torchrun)
# on the simulated machine answering its settings (MSPROF_SIM_RESPOND):
# torch_npu's own variables are answered as MindSpeed's are, so
# TASK_QUEUE_ENABLE=2 (the host-bound job's Free cut) is kept and a
# planted no-op (MSPROF_SIM_NOOP) is dropped.
. "$(dirname "$0")/lib.sh"
sim_env
cp -R "$TOP/sim/torch-examples" ex
rm -rf ex/test/output ex/profiling_output	# a run in the checkout
cd ex || exit 1
# the training's setup lasts until the config has come (at most the
# suite's wait limit), as in t/0470-torch-jobs.t
export MSPROF_SIM_RESPOND=1 MSPROF_SIM_STEP_MS=5 STEPS=6 MSPROF_SIM_DP_HOLD=$MSPROF_T_WAIT_LIMIT

# The row of SETTING in the table of FILE.
row() { grep -E "^  $(printf '%s' "$2" | sed 's/[.[\*^$()+]/\\&/g') " "$1"; }

MSPROF_SIM_NOOP=CPU_AFFINITY_CONF \
    "$MSPROF" tune -y --skip-checks --steps 3:4 -o tuned --json tune.json \
    --tries 2 bash run_torchrun.sh > out 2> err
is "$?" 0 "tune: exit 0" || { cat out err >&2; }
like "$(row out TASK_QUEUE_ENABLE=2)" "-[0-9]+\.[0-9] %.*kept" \
    "TASK_QUEUE_ENABLE=2 cuts the host-bound job's Free: kept"
like "$(grep -A1 -E '^  TASK_QUEUE_ENABLE=2 ' out | tail -1)" "free [0-9.]+ -> [0-9.]+" \
    "the step's parts before and after"
like "$(row out CPU_AFFINITY_CONF=1)" "dropped: within the noise" \
    "the planted no-op: dropped, within the noise"
is "$(grep -A1 'settings that helped' out | tail -1)" \
    "  msprof-exec -y --skip-checks --steps 3:4 --set TASK_QUEUE_ENABLE=2 bash run_torchrun.sh" \
    "the command line with the setting that helped"
is "$("$PY" -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(" ".join(d["kept"]), "|", " ".join(t["outcome"] for t in d["tries"]))' tune.json)" \
    "TASK_QUEUE_ENABLE=2 | compared compared" \
    "--json: what was kept, each try's outcome"
done_testing
