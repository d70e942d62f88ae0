#!/usr/bin/env bash
# The report on more real torch_npu output (t/data/real/README.md says
# where each set comes from):
#   msinsight-megatron  a 4-rank MindSpeed/Megatron run (tp 1, pp 2, dp 2)
#                       whose profiler_metadata.json has distributed_args
#                       and parallel_group_info
#   msinsight-server    an older generation (2023, GPT-3) whose rank
#                       directories MindStudio Insight renamed test_rank_N
# The report exits 0 on the Megatron set, its step breakdown per rank
# equals step_trace_time.csv's (computed here with python3 from the file,
# never from the program's output), it takes the parallel layout from
# profiler_metadata.json and names Megatron settings; on the renamed set
# it exits 65 and says why.
. "$(dirname "$0")/lib.sh"

R=$TOP/t/data/real

# the step line of each rank, as the report prints it, from the csv
want_steps() {	# want_steps SETDIR
	"$PY" - "$1" <<'PY'
import csv, glob, os, re, sys
for d in sorted(glob.glob(os.path.join(sys.argv[1], "*_ascend_pt"))):
    rank = re.search(r"profiler_info_(\d+)\.json",
                     " ".join(os.listdir(d))).group(1)
    rows = list(csv.DictReader(open(os.path.join(
        d, "ASCEND_PROFILER_OUTPUT", "step_trace_time.csv"))))
    for r in rows:
        stage = float(r["Stage"])
        print("rank %s %.3f %.1f %.1f %.1f" % (
            rank, stage / 1000, 100 * float(r["Computing"]) / stage,
            100 * float(r["Communication(Not Overlapped)"]) / stage,
            100 * float(r["Free"]) / stage))
PY
}

ds=$R/msinsight-megatron
"$MSPROF" report "$ds" > out 2> err
is "$?" 0 "msinsight-megatron: report exits 0"
got=$(sed -n '/^Step breakdown per rank/,/^$/p' out |
	awk '$1 == "rank" { print "rank", $2, $5, $6, $7, $8 }')
want=$(want_steps "$ds")
is "$got" "$want" "msinsight-megatron: step breakdown per rank equals step_trace_time.csv"
like "$(<out)" 'layout: tp 1, pp 2, dp 2, cp 1, ep 1 \(profiler_metadata.json\)' \
	"msinsight-megatron: parallel layout from distributed_args"
like "$(<out)" '--overlap-grad-reduce' \
	"msinsight-megatron: names Megatron settings"

ds=$R/msinsight-server
"$MSPROF" report "$ds" > out 2> err
is "$?" 65 "msinsight-server: report exits 65"
like "$(<out)" 'no rank directory \(\*_ascend_pt, ASCEND_PROFILER_OUTPUT inside\)' \
	"msinsight-server: names why (directories renamed test_rank_N)"

done_testing
