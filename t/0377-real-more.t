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
pyq_start

R=$TOP/t/data/real

# the step line of each rank, as the report prints it, from the csv
want_steps() {	# want_steps SETDIR
	pyq - "$1" <<'PY'
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

# The exposed communication by parallel group and cause, against the
# figures t/helpers/comm_split.py computes from the files: the pipeline's
# part is waiting for stage 1 (the slower), and the gradient overlap is
# offered for the data-parallel part alone.
"$MSPROF" report --json meg.json "$ds" > meg.txt 2>&1
"$PY" "$TOP/t/helpers/comm_split.py" "$ds" > split.json
checks=$("$PY" - meg.json split.json <<'PY'
import json, sys
rep = json.load(open(sys.argv[1]))["summary"]
fig = json.load(open(sys.argv[2]))
find = {f["rule"]: f for f in rep["findings"]}
def line(good, name):
    print("%d\t%s" % (0 if good else 1, name))
def names(f):
    return [s["name"] for s in f.get("settings", [])]
# the stage the others wait for most, on average over the other stages' ranks
stages = sorted(set(fig["stage"].values()))
def waited(p):
    w = [fig["wait_for_stage"].get(r, {}).get(str(p), 0.0)
         for r, st in fig["stage"].items() if st != p]
    return sum(w) / len(w)
t = max(stages, key=waited)
waiters = sorted(int(r) for r, st in fig["stage"].items() if st != t and
                 fig["wait_for_stage"].get(r, {}).get(str(t), 0.0) >
                 0.05 * fig["step_ms"][r])
most = max(fig["wait_for_stage"].get(str(r), {}).get(str(t), 0.0) for r in waiters)
w = find.get("waiting-for-stage", {})
line(t == 1 and w.get("evidence", {}).get("stage") == t,
     "waiting-for-stage: the others wait for stage %d (the files: stage 1)" % t)
line(w.get("ranks") == waiters,
     "... its ranks are those waiting for it over 5 %% of the step: %s" % waiters)
line(abs(w.get("evidence", {}).get("waiting_ms", -1) - most) < 0.01,
     "... the most, %.3f ms a step, as the files say" % most)
line("not an overlap to turn on" in w.get("text", ""),
     "... its remedy is the stage, not an overlap")
line("--num-layer-list" in names(w) and not any("overlap" in n for n in names(w)),
     "... it offers the layer split, no overlap flag: %s" % names(w))
# the sends and receives of the stage waiting most are nearly all waiting
top = max(fig["pp_sendrecv"], key=fig["pp_sendrecv"].get)
rows = rep["summaries"]["wait"]["by_group"]
pp = [r for r in rows if r["group"] == "pp" and r["kind"] == "send/receive"]
line(len(pp) == 1 and pp[0]["most"]["rank"] == int(top) and
     abs(pp[0]["most"]["exposed_ms"] - fig["pp_sendrecv"][top]) < 0.01,
     "pp send/receive: the most on rank %s, %.3f ms a step" %
     (top, fig["pp_sendrecv"][top]))
line(len(pp) == 1 and fig["stage"][top] != t and
     pp[0]["most"]["waiting_ms"] > 0.9 * pp[0]["most"]["exposed_ms"],
     "... on a rank of the other stage, 90 % of it or more waiting")
# the data-parallel part: its finding, and the gradient overlap with it only
dp = {r: b.get("dp", 0.0) for r, b in fig["beyond_wait"].items()}
over = sorted(int(r) for r, v in dp.items() if v > 0.05 * fig["step_ms"][r])
e = find.get("exposed-dp", {})
top = max(dp, key=lambda r: dp[r] / fig["step_ms"][r])
line(e.get("ranks") == over and
     abs(e.get("evidence", {}).get("exposed_ms", -1) - dp[top]) < 0.01,
     "exposed-dp: ranks %s, the most (rank %s) %.3f ms a step not waiting" %
     (over, top, dp[top]))
offer = sorted(f["rule"] for f in rep["findings"]
               if {"--overlap-grad-reduce", "--overlap-param-gather"} &
               set(names(f)))
line(offer == ["exposed-dp"],
     "the gradient overlap flags are offered by exposed-dp alone: %s" % offer)
line(names(find.get("exposed-communication", {})) == [] and
     "by parallel group" in find.get("exposed-communication", {}).get("note", ""),
     "exposed-communication: the split by group, no setting of its own")
PY
)
while IFS=$'\t' read -r st what; do
	if [ "$st" = 0 ]; then pass "msinsight-megatron: $what"
	else fail "msinsight-megatron: $what"; fi
done <<< "$checks"
is "$(grep -c . <<< "$checks")" 10 "msinsight-megatron: the 10 checks of the group split ran"

ds=$R/msinsight-server
"$MSPROF" report "$ds" > out 2> err
is "$?" 65 "msinsight-server: report exits 65"
like "$(<out)" 'no rank directory \(\*_ascend_pt, ASCEND_PROFILER_OUTPUT inside\)' \
	"msinsight-server: names why (directories renamed test_rank_N)"

done_testing
