#!/usr/bin/env bash
# Real torch_npu output (t/data/real): a folder of several runs is said to
# hold several, one of them summarised and the others named by path, never
# mixed into one summary; and level0's operators, whose Type is N/A, are
# typed from their kernel names as level1 types the same kernels.
. "$(dirname "$0")/lib.sh"
pyq_start

R="$TOP/t/data/real"

# --- A folder of six runs (text and db, level0 to level2) ---------------------
"$MSPROF" report --json runs.json "$R/msinsight-2025" > runs.txt 2> runs.err
rc=$?
runs=$(cd "$R" && find msinsight-2025 -name '*_ascend_pt' -type d |
    sed 's|/[^/]*$||' | sort -u)
is "$(printf '%s\n' "$runs" | wc -l | tr -d ' ')" 6 "the folder: six directories of rank directories"
like "$(<runs.txt)" "^6 runs in the paths given" "the report says there are six runs"
n=0
for r in $runs; do
	grep -q "^  [* ] .*/$r: 2 rank directories$" runs.txt && n=$((n + 1))
done
is "$n" 6 "... and names each by its path, with its rank directories"
like "$(<runs.txt)" "to summarise another: msprof-exec report PATH" "... and how to summarise another"
is "$(pyq -c 'import json, sys
d = json.load(open(sys.argv[1]))
runs = d["summary"]["runs"] if "runs" in d.get("summary", {}) else d["runs"]
shown = [r["path"] for r in runs if r["summarised"]]
ranks = d["summary"]["ranks"]
print(len(runs), len(shown), len(ranks),
      all(r["path"].startswith(shown[0] + "/") or ("/" + shown[0] + "/") in r["path"] for r in ranks))' runs.json)" \
    "6 1 2 True" "--json: six runs, one summarised, its two ranks alone read"
is "$rc" 0 "a folder of sound runs: exit 0"
# Each run given on its own is one run, and says nothing of others.
"$MSPROF" report "$R/msinsight-2025/text/level1" > one.txt 2>&1
unlike "$(<one.txt)" "runs in the paths given" "one run: no word of several"

# --- Level0: types from kernel names ------------------------------------------
"$MSPROF" report --json l0.json "$R/msinsight-2025/text/level0" > l0.txt 2>&1
# The totals per type computed here: each level0 kernel typed by level1's
# Type of the same kernel name (communication kernels left out).
pyq - "$R/msinsight-2025/text" l0.json > l0.cmp <<'EOF'
import collections, csv, glob, json, sys
text, doc = sys.argv[1], sys.argv[2]
def rows(level):
    for f in sorted(glob.glob(f"{text}/{level}/*/ASCEND_PROFILER_OUTPUT/kernel_details.csv")):
        yield from csv.DictReader(open(f))
typ = {r["Name"]: r["Type"] for lv in ("level1", "level2") for r in rows(lv)}
want = collections.Counter()
for r in rows("level0"):
    assert r["Type"] == "N/A"
    t = typ.get(r["Name"])
    if t is not None and not t.startswith("hcom_"):
        want[t] += float(r["Duration(us)"])
top = json.load(open(doc))["summary"]["summaries"]["operators"]["top"]
got = {o["type"]: o["total_us"] for o in top}
print(sorted(got) == sorted(t for t, _ in want.most_common(len(got))),
      all(abs(got[t] - want[t]) < 0.01 for t in got),
      "N/A" in got, "MatMulV2" in got, "TransData" in got)
EOF
is "$(<l0.cmp)" "True True False True True" \
    "level0: the top operator types and their totals are those of level1's Type for the same kernels"
like "$(sed -n '/^Top operators/,/^$/p' l0.txt)" " MatMulV2" "... the text names MatMulV2"
unlike "$(sed -n '/^Top operators/,/^$/p' l0.txt)" " N/A$" "... and no operator N/A"
# --- Runs in one save path: launched again, the newest whole and alone -------
# Level1 (two ranks) launched into one directory, then level0 a day later
# with rank 0 alone: the summary is of that rank alone, with no rank of the
# day before joining it.
T2="$R/msinsight-2025/text"
mkdir same
cp -R "$T2/level1/rank0_ascend_pt" same/h_1_20250108100000000_ascend_pt
cp -R "$T2/level1/rank1_ascend_pt" same/h_2_20250108100000200_ascend_pt
cp -R "$T2/level0/rank0_ascend_pt" same/h_3_20250109100000000_ascend_pt
"$MSPROF" report --json same.json same > same.txt 2>&1
like "$(<same.txt)" "^2 runs in the paths given" "one save path launched into twice: two runs"
like "$(<same.txt)" "\* (.*/)?same \(begun 2025-01-09 10:00:00\): 1 rank directory" \
    "... the newest summarised, told by when it began"
like "$(<same.txt)" "    (.*/)?same \(begun 2025-01-08 10:00:00\): 2 rank directories" \
    "... the other named"
is "$(pyq -c 'import json, sys
s = json.load(open(sys.argv[1]))["summary"]
print([(r["rank"], r["path"].split("/")[-1], r["level"]) for r in s["ranks"]])' same.json)" \
    "[(0, 'h_3_20250109100000000_ascend_pt', 'Level0')]" \
    "... its one rank alone read, rank 1 of the launch before left out of it"

# --- _export_type: a string or a list ----------------------------------------
# A text export without its operator files is no db export, whatever lies
# beside it; a list that names db is one.
for how in list-text list-both; do
	rm -rf "$how"; cp -R "$R/msinsight-2025/text/level1" "$how"
	rm "$how"/rank*_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv \
	    "$how"/rank*_ascend_pt/ASCEND_PROFILER_OUTPUT/op_statistic.csv
	: > "$how"/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/analysis.db
done
sed -i 's/"_export_type": "text"/"_export_type": ["text"]/' list-text/rank*_ascend_pt/profiler_info_*.json
sed -i 's/"_export_type": "text"/"_export_type": ["text", "db"]/' list-both/rank*_ascend_pt/profiler_info_*.json
for how in list-text list-both; do
	"$MSPROF" report --json "$how.json" "$how" > "$how.txt" 2>&1
done
is "$(pyq -c 'import json, sys
print(*[sorted({r["export_type"] for r in json.load(open(f))["summary"]["ranks"]}) for f in sys.argv[1:]])' list-text.json list-both.json)" \
    "['text'] ['text,db']" "_export_type as a list: read (joined by commas in --json)"
ops() { sed -n '/^Top operators/,/^$/p' "$1.txt"; }
like "$(ops list-text)" "not made: .*no kernel_details.csv nor op_statistic.csv" \
    "a text export without operator files: said so..."
unlike "$(ops list-text)" "db export" "... and not called a db export"
like "$(ops list-both)" "db export: no ascend_pytorch_profiler_<rank>.db" "an export type naming db: a db export"

# A rank directory given itself is a run of one rank, no bare directory.
"$MSPROF" report "$R/msinsight-2025/text/level1/rank0_ascend_pt" > rank.txt 2>&1
is "$?" 0 "a rank directory given itself: exit 0"
like "$(<rank.txt)" "Step breakdown" "... and summarised"
mkdir -p bare
"$MSPROF" report bare > bare.txt 2>&1
is "$?" 65 "a directory without rank directories: still 65"

done_testing
