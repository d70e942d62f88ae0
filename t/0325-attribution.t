#!/usr/bin/env bash
# Whose data is it: each launch is checked against the rank directories it
# made (their names carry the host and the profiler's start), on the
# simulated machine.  A failed second launch into the same save path, an
# old run's data, two jobs writing one directory at once, and the two
# nodes of one job sharing their output directory.
. "$(dirname "$0")/lib.sh"
sim_env
cd "$T/mindspeed-llm"
QWEN=examples/mcore/qwen3/pretrain_qwen3_8b_4K_ptd.sh
TWO=examples/mcore/qwen3/pretrain_qwen3_8b_4K_2node_ptd.sh

# Two launches in one script into one save path; the second dies of NPU
# OOM before its window: its rank 0 is missing, whatever the first left.
cat > twice.sh <<EOF2
bash $QWEN
MSPROF_SIM_OOM_STEP=1 bash $QWEN
EOF2
"$MSPROF" -y --skip-checks bash twice.sh > out 2> err
like "$(<err)" "cause: NPU out of memory" "two launches, the second fails of NPU OOM"
is "$(ranks_in profiling_output)" "0" "only the first launch wrote rank 0's data"
like "$(<out)" "Profiling data in $T/mindspeed-llm/profiling_output of the launch torchrun pretrain_gpt.py started at" \
    "one output a launch, each named when they share a save path"
like "$(<out)" "rank 0: no data" "the failed second launch: its rank 0 is missing"
is "$(grep -c '  rank 0: .*_ascend_pt' out)" 1 \
    "the first launch's directory is counted once, for the first launch"

# An old run's data never counts: a run that fails right after a good one.
rm -rf profiling_output
"$MSPROF" -y --skip-checks bash "$QWEN" > out 2> err
is "$(ranks_in profiling_output)" "0" "a good run: rank 0"
MSPROF_SIM_OOM_STEP=1 "$MSPROF" -y --skip-checks bash "$QWEN" > out 2> err
like "$(<err)" "cause: NPU out of memory" "the next run, a moment later, fails"
like "$(<out)" "rank 0: no data" "its rank 0 is missing: the old directory is not its own"
unlike "$(<out)" "rank 0: .*_ascend_pt" "and the old directory is not listed as its data"
"$MSPROF" report profiling_output > out 2> err
is "$?" 65 "report DIR afterwards: the newest run, rank 0 missing"

# The training may keep another time zone than msprof-exec: the times
# in the directory names are its local time.
rm -rf profiling_output
printf 'export TZ=XST5\nbash %s\n' "$QWEN" > tz.sh
TZ=UTC0 "$MSPROF" -y --skip-checks bash tz.sh > out 2> err
like "$(<out)" "  rank 0: .*_ascend_pt" "a script in another time zone (TZ): rank 0 is its data"
unlike "$(<out)" "no data" "... and nothing is missing"

# Two jobs at once into one directory (different master ports): each
# report says so and names the other session.  Each holds at iteration 3
# (MSPROF_SIM_PAUSE) until the test lets it go: the first starts, then the
# second, then the first ends, then the second.
rm -rf profiling_output
MSPROF_SIM_PAUSE=3:$T/a.go MASTER_PORT=$(free_port) \
    "$MSPROF" -y --skip-checks bash "$QWEN" > a.out 2> a.err &
a=$!
wait_for "the first job at iteration 3" test -e "$T/a.go.0" -a -e "$T/a.go.1"
MSPROF_SIM_PAUSE=3:$T/b.go "$MSPROF" -y --skip-checks bash "$QWEN" > b.out 2> b.err &
b=$!
wait_for "the second job at iteration 3" test -e "$T/b.go.0" -a -e "$T/b.go.1"
: > "$T/a.go"
wait "$a"
: > "$T/b.go"
wait "$b"
sessions=$(ls -d profiling_output/msprof-exec_* | wc -l)
is "$sessions" 2 "two sessions in one output directory"
sa=$(grep -o "msprof-exec_[^ ]*" a.out | tail -n 1)
sb=$(grep -o "msprof-exec_[^ ]*" b.out | tail -n 1)
like "$(<a.err)" "holds the data of two jobs run at the same time: this one and the session .*/$sb " \
    "the first job: mixed data reported, naming the other session"
like "$(<b.err)" "holds the data of two jobs run at the same time: this one and the session .*/$sa " \
    "the second job: the same, naming the first"

# The two nodes of one job (same master port, node ranks 0 and 1) share
# the output directory: each reports its own ranks, no complaint.
rm -rf profiling_output
MSPROF_SIM_STEP_MS=100 NODE_RANK=1 "$MSPROF" -y --skip-checks -r 0,2 bash "$TWO" > n1.out 2> n1.err &
n1=$!
MSPROF_SIM_STEP_MS=100 NODE_RANK=0 "$MSPROF" -y --skip-checks -r 0,2 bash "$TWO" > n0.out 2> n0.err
is "$?" 0 "two nodes, node 0: exit 0"
wait "$n1"
is "$?" 0 "two nodes, node 1: exit 0"
is "$(ranks_in profiling_output)" "0 2" "both nodes' ranks in the shared directory"
like "$(<n0.out)" "  rank 0: .*_ascend_pt" "node 0: its rank 0"
unlike "$(<n0.out)" "rank 2" "node 0: node 1's rank 2 is neither counted nor missing"
like "$(<n1.out)" "  rank 2: .*_ascend_pt" "node 1: its rank 2"
unlike "$(<n1.out)" "rank 0" "node 1: node 0's rank 0 is neither counted nor missing"
unlike "$(<n0.err)$(<n1.err)" "two jobs|possible cause" "no complaint on either node"
"$MSPROF" report --json job.json profiling_output > out 2> err
is "$?" 0 "report DIR over the shared directory: exit 0"
is "$($PY -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(sorted(r for o in d["outputs"] for r in o["expected_ranks"]),
      sorted(f["rank"] for o in d["outputs"] for f in o["found"]))' job.json)" \
    "[0, 2] [0, 2]" "report DIR: the whole job, both nodes' ranks expected and found"
done_testing
