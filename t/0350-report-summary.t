#!/usr/bin/env bash
# The data summary in the report: after a simulated run it names the
# planted anomaly and nothing else, flags nothing on a healthy run, says
# what it could not make from level0 data, maps torch_npu's steps to the
# log's iterations, goes to --json and to the --html page (checked before
# anything runs); msprof-exec report over one directory per node gives the
# answer of the shared directory holding them.  Two ranks of real data with
# no layout: no columns of positions, no operators "differing most", the
# vote in one line; a run with no parsed data: findings not made.
. "$(dirname "$0")/lib.sh"
pyq_start
sim_env
cd "$T/mindspeed-llm" || exit 1

QWEN=examples/mcore/qwen3/pretrain_qwen3_8b_4K_ptd.sh
WAN=examples/wan2.1/1.3b/t2v/pretrain.sh
# The findings of a --json report: "rule:rank" each, sorted, unique.
findings() {
	pyq -c 'import json, sys
s = json.load(open(sys.argv[1]))["summary"]
print(" ".join(sorted({"%s:%s" % (f["rule"], f.get("rank")) for f in s["findings"]})))' "$1"
}
# The summary's findings block of a text report.
text_findings() { sed -n '/^Findings$/,/^$/p' "$1"; }

# --- A planted slow rank: named, and nothing else ----------------------------
# Four ranks: of two, neither is the one that stands out from its peers.
NPUS_PER_NODE=4 MSPROF_SIM_SLOW_RANK=1 "$MSPROF" -y --skip-checks -r all \
    --json slow.json --html slow.html bash "$QWEN" > out 2> err
is "$?" 0 "slow rank 1: the run exits 0"
like "$(text_findings out)" '\[slow-rank\] rank 1: Computing is [0-9.]+ ms a step above the median of its peers' \
    "the report's findings name the planted slow rank"
like "$(tr '\n' ' ' < out)" 'Profiling data in .*Step breakdown per rank.*Findings.*Next: ' \
    "the summary comes after the verification, before the next step"
ranks=$(findings slow.json | tr ' ' '\n' | sed 's/.*://' | sort -u | tr '\n' ' ')
is "$ranks" "1 " "--json: every finding is about rank 1"
like "$(findings slow.json)" 'slow-rank:1' "--json: the slow-rank rule names rank 1"
like "$(<out)" 'rank 0 +1-2 +2-3 ' \
    "MCore --steps 2:4: torch steps 1-2 are iterations 2-3"
if command -v xmllint > /dev/null; then
	xmllint --noout slow.html 2> xerr
	ok $? "--html: the page is well-formed XML (xmllint)"
else
	skip "xmllint not installed (libxml2-utils)"
fi
like "$(<slow.html)" 'slow-rank' "--html: the page has the finding"
unlike "$(<slow.html)" '<script|src="http|href="http' "--html: nothing loaded from the network"

# --- A healthy run: nothing flagged -----------------------------------------
rm -rf profiling_output
"$MSPROF" -y --skip-checks -r all --json healthy.json bash "$QWEN" > out 2> err
is "$?:$(findings healthy.json)" "0:" "healthy: no finding in --json"
like "$(text_findings out)" 'none: no rule fired' "healthy: the text says no rule fired"

# --- -q: no summary ----------------------------------------------------------
rm -rf profiling_output
"$MSPROF" -y -q --skip-checks -r all --json q.json bash "$QWEN" > out 2> err
unlike "$(<out)" 'Step breakdown' "-q: no summary on stdout"
is "$(pyq -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["summary"]["ranks"]))' q.json)" 2 \
    "-q: the summary of both ranks is still in --json"

# --- level0: what could not be made is said, never zeros ---------------------
rm -rf profiling_output
"$MSPROF" -y --skip-checks -l level0 -s 5:6 -r all --json l0.json bash "$QWEN" > out 2> err
like "$(sed -n '/^Which rank the collectives wait for/,/^$/p' out)" 'not made: .*level0' \
    "level0: the wait vote says why it is not made"
like "$(sed -n '/^Slow links/,/^$/p' out)" 'not made: .*level0' \
    "level0: so do the slow links"
is "$(pyq -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["summary"]["summaries"]))' l0.json)" 8 \
    "level0: --json still has the eight summaries"
like "$(<out)" 'rank 0 +4-4 +5-5 ' "MCore --steps 5:6: torch step 4 is iteration 5"

# --- Raw data only (not parsed): the summary says what it lacks -------------
d=raw/host_1_20261202120000000_ascend_pt
mkdir -p $d/PROF_000001_20261202120000000_ABCDEFGH/device_0/data
echo data > $d/PROF_000001_20261202120000000_ABCDEFGH/device_0/data/x
echo '{}' > $d/profiler_info_0.json
"$MSPROF" report raw > out 2> err
like "$(sed -n '/^Step breakdown per rank/,/^$/p' out)" 'not made: no rank has step data .*no step_trace_time.csv' \
    "raw data only: the step breakdown says why it is not made"
like "$(sed -n '/^Top operators/,/^$/p' out)" 'not made: ' "and so do the top operators"

# --- MindSpeed-LLM FSDP2 counts steps from 0: step 2 is iteration 3 ---------
rm -rf profiling_output
"$MSPROF" -y --skip-checks bash examples/fsdp2/qwen3/pretrain_qwen3_8b_4k_fsdp2.sh > out 2> err
like "$(sed -n '/^Step breakdown per rank/,/^$/p' out)" '^  2 +3 +[0-9.]+ ' \
    "FSDP2 --steps 2:4: torch step 2 is iteration 3"

# --- MindSpeed-MM counts steps from 0: step 10 is the iteration its log
# prints as 11 ----------------------------------------------------------------
cd "$T/mindspeed-mm" || exit 1
"$MSPROF" -y --skip-checks bash "$WAN" > out 2> err
like "$(<out)" 'rank 0 +10-11 +11-12 ' "MM --steps 10:12: torch steps 10-11 are iterations 11-12"
cd "$T/mindspeed-llm" || exit 1

# --- --html is checked before anything runs ----------------------------------
"$MSPROF" -y --skip-checks --html "$T/no/such/dir/p.html" sh -c 'touch ran' > out 2> err
is "$?" 73 "--html in a missing directory: exit 73"
ok "$([ ! -e ran ]; echo $?)" "and the command did not run"
like "$(<err)" 'no/such/dir/p.html' "the error names the file"

# --- msprof-exec report: one cluster answer ----------------------------------
cd "$T" || exit 1
MSPROF_SIM_RANKS_PER_NODE=2 MSPROF_SIM_SLOW_RANK=2 \
    "$TOP/sim/gen-cluster" --ranks 4 --by-node -j 1 cl > /dev/null 2> gen.err
is "$?" 0 "gen-cluster: 4 ranks on 2 nodes"
"$MSPROF" report --json shared.json --html shared.html cl > shared.txt 2> shared.err
is "$?" 0 "report on the shared directory: exit 0"
"$MSPROF" report --json nodes.json cl/node000 cl/node001 > nodes.txt 2> nodes.err
is "$?" 0 "report on one directory per node: exit 0"
is "$(<nodes.txt)" "$(<shared.txt)" \
    "the text report of the nodes' directories is the shared directory's"
is "$(pyq -c 'import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
print(a["summary"] == b["summary"], len(a["reports"]), len(b["reports"]))' shared.json nodes.json)" \
    "True 2 2" "--json: the same summary, and one report per node"
like "$(grep -c '^Profiling data in' shared.txt)" '^2$' "each node's directory is verified"
is "$(findings shared.json)" "slow-rank:2 wait-ratio:2 waited-for:2" \
    "the cluster answer names the slow rank 2, and nothing else"
like "$(<shared.txt)" 'layout: tp 1, pp 1, dp 4' "one step table over the four ranks"
[ -s shared.html ]
ok $? "report --html writes the page"
"$MSPROF" report cl/node000 "$T/nope" > out 2> err
is "$?" 66 "report with a missing path: exit 66, as with one"
like "$(<err)" 'nope' "and the error names it"
"$MSPROF" report --html "$T/no/such/dir/p.html" cl > out 2> err
is "$?:$(<out)" "73:" "report --html in a missing directory: exit 73 before any report"
mkdir empty
"$MSPROF" report cl/node000 empty > out 2> err
is "$?" 65 "report with a directory holding no data: exit 65"
cluster() { sed -n '/^Cluster step table/,/^$/p' "$1"; }
like "$(cluster shared.txt)" '  rank +pp +dp +cp +tp +ep +step ms' \
    "a known layout: the columns of the positions"
like "$(cluster shared.txt)" 'operators differing most between rank 2' \
    "a slow rank: the operators that differ most between it and the fastest"

# --- Two ranks of real data (torch_npu 2025, no layout recorded) -------------
"$MSPROF" report --json real2.json "$TOP/t/data/real/msinsight-2025/text/level1" > real2.txt 2>&1
is "$(pyq -c 'import json, sys
c = json.load(open(sys.argv[1]))["summary"]["summaries"]["cluster"]
print([(r["rank"], r["pp"], r["dp"], r["cp"], r["tp"], r["ep"]) for r in c["ranks"]])' real2.json)" \
    "[(0, None, None, None, None, None), (1, None, None, None, None, None)]" \
    "real, two ranks: --json has no position (null, not 0) where the layout is unknown"
like "$(cluster real2.txt)" 'layout: unknown' "real, two ranks: the layout is unknown"
like "$(cluster real2.txt)" '  rank +step ms +comp ms' "... and the table has no columns of positions"
unlike "$(cluster real2.txt)" ' pp +dp +cp +tp +ep |^  [01] +0 +0 +0 +0 +0 ' "... no all-zero pp dp cp tp ep"
unlike "$(cluster real2.txt)" 'differing most' \
    "... no operators 'differing most' where the spread names no slow rank"
# the collectives of two ranks, from the files: who had the shorter elapse
pairs=$("$PY" - "$TOP/t/data/real/msinsight-2025/text/level1" <<'PY'
import glob, json, os, re, sys
el = {}
for d in sorted(glob.glob(os.path.join(sys.argv[1], "*_ascend_pt"))):
    rank = int(re.search(r"rank(\d+)_", os.path.basename(d)).group(1))
    c = json.load(open(os.path.join(d, "ASCEND_PROFILER_OUTPUT", "communication.json")))
    for st, v in c.items():
        for op, x in v.get("collective", {}).items():
            if not op.startswith("Total"):
                el.setdefault((st, op), {})[rank] = x["Communication Time Info"]["Elapse Time(ms)"]
last = {}
for e in el.values():
    if len(e) == 2 and len(set(e.values())) == 2:
        r = min(e, key=e.get)
        last[r] = last.get(r, 0) + 1
n = sum(last.values())
print("  %d collectives of two ranks; the rank that arrived last (shorter elapse: the other waited for it):" % n)
for r in sorted(last):
    print("  rank %-5d last in %d of its %d" % (r, last[r], n))
PY
)
is "$(sed -n '/^Which rank the collectives wait for/,/^$/p' real2.txt | sed -n '3,$p' | sed '/exposed communication by parallel group/,$d' | grep .)" "$pairs" \
    "... the vote of two ranks: no vote, then who arrived last at the collectives of two (from the files)"
like "$(sed -n '/^Which rank the collectives wait for/,/^$/p' real2.txt)" \
    'no vote: no collective was seen by three ranks or more \(2 ranks with communication data\)' \
    "... saying why there is no vote"

# --- A run stopped before its data was parsed: no findings, and why ---------
mkdir -p nodata/h_1_20261202120000000_ascend_pt/PROF_000001_20261202120000000_ABC/device_0/data
echo x > nodata/h_1_20261202120000000_ascend_pt/PROF_000001_20261202120000000_ABC/device_0/data/f.data
echo '{}' > nodata/h_1_20261202120000000_ascend_pt/profiler_info_0.json
"$MSPROF" report nodata > nodata.txt 2>&1
unlike "$(text_findings nodata.txt)" 'no rule fired' "no parsed data: not 'no rule fired'"
like "$(text_findings nodata.txt)" 'not made: no rank has parsed data to judge' \
    "... but the findings not made, for want of data"
done_testing
