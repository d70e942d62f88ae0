#!/usr/bin/env bash
# A run folder travels: after mv, cp -r or tar to another place, report,
# compare and tune --baseline read it as they did where it was made, and
# say in one line that it moved.  The session's paths are found again
# under the folder that now holds it.
. "$(dirname "$0")/lib.sh"
sim_env
cd "$T/mindspeed-llm"
QWEN=examples/mcore/qwen3/pretrain_qwen3_8b_4K_ptd.sh

"$MSPROF" -y --skip-checks -r all -o run bash "$QWEN" > out 2> err
is "$?" 0 "the run: exit 0"

# mv: the whole output folder, elsewhere.
mv run "$T/moved"
"$MSPROF" report "$T/moved" > out 2> err
is "$?" 0 "mv'd run: report exits 0"
like "$(cat out)" "rank 0: [^ ]+_ascend_pt" "mv'd run: rank 0's data found"
like "$(cat out)" "rank 1: [^ ]+_ascend_pt" "mv'd run: rank 1's data found"
unlike "$(cat out)" "no data" "mv'd run: no rank said to have no data"
like "$(cat out)" "Profiling data in $T/moved" "mv'd run: the folder it is in now"
like "$(cat err)" "note: this run was made in $T/mindspeed-llm/run and has moved to $T/moved" \
    "mv'd run: one line says it moved, from where to where"
is "$(grep -c 'moved to' err)" 1 "... once"

# cp -r, the session given itself.
cp -r "$T/moved" "$T/copy"
S=$(ls -d "$T"/copy/msprof-exec_*)
"$MSPROF" report "$S" > out 2> err
is "$?" 0 "copied run, the session given: report exits 0"
like "$(cat out)" "rank 1: [^ ]+_ascend_pt" "copied run: rank data found"
unlike "$(cat out)" "no data" "copied run: no rank without data"

# tar to "another machine": extracted under another root.
mkdir "$T/other"
(cd "$T" && tar cf - copy) | (cd "$T/other" && tar xf -)
"$MSPROF" report "$T/other/copy" > out 2> err
is "$?" 0 "run carried by tar: report exits 0"
unlike "$(cat out)" "no data" "run carried by tar: its ranks found"

# compare a moved run with a copy's session.
"$MSPROF" compare "$T/moved" "$S" > out 2> err
is "$?" 0 "compare of a moved run and a copied session: exit 0"
like "$(cat out)" "Comparison of two runs" "... the comparison"
unlike "$(cat out err)" "no rank data" "... each run's ranks found"

# tune over a moved baseline: what it would try, nothing run.
"$MSPROF" tune -y --skip-checks -r all -o tuned --tries 0 --baseline "$T/moved" \
    bash "$QWEN" > out 2> err
is "$?" 0 "tune --baseline a moved run: exit 0"
unlike "$(cat out err)" "collected steps none|no rank data" "... its steps found"
done_testing
