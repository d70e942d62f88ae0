#!/usr/bin/env bash
# --baseline DIR: after the run, the report ends with the comparison
# against the earlier run in DIR (its output or session directory), when
# both collected the same ranks and steps; refused with which of them
# differ otherwise.  A baseline without data is refused before anything
# runs.
. "$(dirname "$0")/lib.sh"
. "$TOP/t/plain-python.sh"
own_pycache
sim_env
cd "$T/mindspeed-llm" || exit 1
QWEN=examples/mcore/qwen3/pretrain_qwen3_8b_4K_ptd.sh
# One NPU a run (rank 0, the default, is profiled either way), two where
# the run profiles rank 1 too.
export NPUS_PER_NODE=1

"$MSPROF" -y --skip-checks -o base bash "$QWEN" > out 2> err
is "$?" 0 "the baseline run: exit 0"

"$MSPROF" -y --skip-checks -o new --baseline base --set TASK_QUEUE_ENABLE=2 \
    bash "$QWEN" > out 2> err
is "$?" 0 "a run with --baseline: the command's status"
like "$(< out)" "Compared with the baseline base" "the report ends with the comparison"
like "$(sed -n '/Compared with the baseline/,$p' out)" "[Ss]tep" \
    "the comparison names the step time"
like "$(sed -n '/Compared with the baseline/,$p' out)" "msprof-exec_" \
    "the new run is this run's session"

session=$(ls -d base/msprof-exec_*)
"$MSPROF" -y --skip-checks -o new2 --baseline "$session" bash "$QWEN" > out 2> err
like "$(< out)" "Compared with the baseline $session" "a session directory as the baseline"
unlike "$(< err)" "not compared" "same steps and ranks: compared"

NPUS_PER_NODE=2 "$MSPROF" -y --skip-checks -o other -r 0,1 --baseline base \
    bash "$QWEN" > out 2> err
is "$?" 0 "other ranks: the run's own status"
like "$(< out)" "not compared: the ranks differ: the baseline profiled ranks 0, this run ranks 0-1" \
    "other ranks: refused, with both"
like "$(< err)" "--baseline base: not compared: the ranks differ" "other ranks: said on stderr"

"$MSPROF" -y --skip-checks -o other2 -s 3:4 --baseline base bash "$QWEN" > out 2> err
like "$(< out)" "not compared: the windows differ: the baseline collected steps 1-2, this run steps 2 \(torch_npu.s step numbers\); the baseline was given steps 2 to 4, excluding 4, this run steps 3 to 4, excluding 4; run with the baseline's --steps" \
    "another window: refused, with both, in the training's steps too"

# A baseline whose step file is cut: which file, and what is wrong with it,
# not "steps none" alone.
cp -R base cut
f=$(echo cut/*_ascend_pt/ASCEND_PROFILER_OUTPUT/step_trace_time.csv)
head -c $(( $(head -1 "$f" | wc -c) + 8 )) "$f" > c.tmp && mv c.tmp "$f"
"$MSPROF" -y --skip-checks -o other3 --baseline cut bash "$QWEN" > out 2> err
like "$(< out)" "not compared: the windows differ: the baseline collected steps none \(cut/[^ ]*/step_trace_time.csv: cut short: its last record \(line 2\) is incomplete" \
    "a baseline with its step file cut: the file named, and why"

# Before anything runs: no such directory (66), no data in it (65).
"$MSPROF" -y --skip-checks -o x --baseline nowhere bash "$QWEN" > out 2> err
is "$?:$(ls -d x 2>/dev/null)" "66:" "--baseline without a directory: 66, nothing run"
like "$(< err)" "--baseline nowhere: no such directory" "named"
mkdir empty
"$MSPROF" -y --skip-checks -o x --baseline empty bash "$QWEN" > out 2> err
is "$?:$(ls -d x 2>/dev/null)" "65:" "--baseline without rank data: 65, nothing run"
"$MSPROF" -n --skip-checks --baseline empty bash "$QWEN" > out 2> err
is "$?" 65 "-n refuses it too"

done_testing
