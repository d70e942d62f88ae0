#!/usr/bin/env bash
# A job's output spread over many directories (one a node on shared
# storage) is said together on one screen, not directory by directory;
# and many launches that were alike are said once, with how many.
. "$(dirname "$0")/lib.sh"
pyq_start

# --- One output directory a node: 16 nodes of 8 ranks -------------------------
MSPROF_SIM_RANKS_PER_NODE=8 MSPROF_SIM_SLOW_RANK=77 \
    "$TOP/sim/gen-cluster" --ranks 128 --by-node -j 2 cl > /dev/null 2> gen.err
is "$?" 0 "gen-cluster: 128 ranks on 16 nodes"
rm -r cl/node003/node003_40026_*_ascend_pt
"$MSPROF" report --json a.json cl > a.txt 2> a.err
is "$?" 0 "report over the nodes' directories: exit 0"
is "$(grep -c '^Profiling data in' a.txt)" 1 "one heading for the 16 directories"
like "$(head -n 1 a.txt)" "^Profiling data in 16 output directories under $T/cl:$" \
    "... naming how many and where"
like "$(<a.txt)" "  127 ranks with data \(ranks 0-25, 27-127\)" \
    "the ranks of all nodes as ranges, the one removed left out"
unlike "$(<a.txt)" "rank [0-9]+: node" "no line per rank"
unlike "$(<a.txt)" "profiler_info_" "no tree"
ok $(( $(wc -l < a.txt) > 100 )) "at most 100 lines ($(wc -l < a.txt))"
like "$(sed -n '/^Findings/,/^$/p' a.txt)" "\[slow-rank\] rank 77: Computing is" \
    "the summary over all nodes names the slow rank"
is "$(pyq -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(len(d["reports"]), sum(len(o["found"]) for r in d["reports"] for o in r["outputs"]))' a.json)" \
    "16 127" "--json: each node's directory and every rank, as before"
is "$(pyq -c 'import json, sys
t = json.load(open(sys.argv[1]))["together"]
print(t["outputs"], t["under"], t["ranks_found"], t["missing_ranks"])' a.json)" \
    "16 $T/cl 127 []" "--json: what the text says of them together"

# --- Many launches alike ----------------------------------------------------
sim_env
cd "$T/mindspeed-llm" || exit 1
"$MSPROF" -y --skip-checks -r all bash -c 'for i in 1 2 3 4 5 6 7 8 9; do
	bash examples/mcore/qwen3/pretrain_qwen3_8b_4K_ptd.sh || exit 1; done' \
    > out 2> err
is "$?" 0 "nine launches in one session: exit 0"
launches=$(sed -n '/training launch(es) profiled/,/^Profiling data/p' out)
like "$launches" "^msprof-exec: 9 training launch\(es\) profiled, 0 left alone" \
    "the count of the launches"
like "$(grep -A1 '^  9 launches, each:$' out | sed -n 2p)" \
    "^  torchrun pretrain_gpt.py: steps 2 to 4" \
    "the nine alike said once, with how many"
is "$(grep -c 'torchrun pretrain_gpt.py: steps' out)" 1 "not once each"
like "$(grep -A1 '^Profiling data in 9 output directories under .*/profiling_output:$' out | sed -n 2p)" \
    "^  2 ranks with data \(ranks 0-1\)" "their outputs said together"
done_testing
