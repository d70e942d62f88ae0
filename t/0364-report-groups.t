#!/usr/bin/env bash
# The exposed communication by parallel group on the simulator's cluster
# (sim/gen-cluster: 16 ranks, tp 2, pp 2, its profiler_metadata.json
# names the groups as torch_npu does): the table has the data-, tensor-
# and pipeline-parallel groups; a slow rank makes its pipeline partners
# wait for it, which is the rank's to fix (slow-rank), not its stage's:
# waiting-for-stage stays silent.
. "$(dirname "$0")/lib.sh"

MSPROF_SIM_SLOW_RANK=5 "$TOP/sim/gen-cluster" --ranks 16 --tp 2 --pp 2 -j 1 \
    cl > /dev/null 2> gen.err
is "$?" 0 "gen-cluster: 16 ranks, tp 2, pp 2, rank 5 slow"
"$MSPROF" report --json r.json cl > r.txt 2>&1
table=$(sed -n '/exposed communication by parallel group and kind/,/^$/p' r.txt)
is "$(awk 'NR > 2 { print $1 }' <<< "$table" | sort -u | grep -v '^$' | tr '\n' ' ')" \
    "dp other pp tp " "the table's groups: dp, tp, pp and the world's (other)"
is "$("$PY" -c 'import json, sys
print(" ".join(sorted(f["rule"] for f in json.load(open(sys.argv[1]))["summary"]["findings"])))' r.json)" \
    "slow-rank wait-ratio waited-for" \
    "the slow rank's findings; no waiting-for-stage for its partners' wait"
like "$(<r.txt)" '\[slow-rank\] rank 5:' "slow-rank names rank 5"
done_testing
