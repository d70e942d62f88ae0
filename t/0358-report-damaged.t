#!/usr/bin/env bash
# Damaged and hostile profiler output in the report: each damaged file is
# named with its rank and why, the rest is summarised, and nothing hangs
# (a FIFO, a link to /dev/zero) or runs out of stack (200,000 levels of
# JSON).  make check-sanitize runs this under ASan and UBSan.
. "$(dirname "$0")/lib.sh"
pyq_start

MSPROF_SIM_RANKS_PER_NODE=8 "$TOP/sim/gen-cluster" --ranks 8 -j 1 cl > /dev/null 2> gen.err
is "$?" 0 "gen-cluster: 8 ranks"
out() { echo cl/node000_4000"$1"_*_ascend_pt/ASCEND_PROFILER_OUTPUT; }
damage() {	# damage RANK FILE: FILE of RANK replaced by what is on stdin
	f=$(echo $(out "$1")/"$2")
	rm -f "$f"
	cat > "$f"
}
# rank 0: communication.json cut short; 1: 200,000 levels; 2: a FIFO;
# 3: a link to /dev/zero; 4: a field of the wrong type; 5: an image;
# 6: a directory for step_trace_time.csv; 7: kernel_details.csv cut short
f=$(echo $(out 0)/communication.json)
head -c 5000 "$f" > half && mv half "$f"
"$PY" -c 'print("{\"Total Op Info\": " + "[" * 200000)' |
    damage 1 communication_matrix.json
rm "$(echo $(out 2))/communication.json"
mkfifo "$(echo $(out 2))/communication.json"
rm "$(echo $(out 3))/kernel_details.csv"
ln -s /dev/zero "$(echo $(out 3))/kernel_details.csv"
sed 's/"Elapse Time(ms)": \([0-9.]*\)/"Elapse Time(ms)": "\1"/' \
    "$(echo $(out 4))/communication.json" > w.json
damage 4 communication.json < w.json
printf '\211PNG\r\n\032\n\000\001 an image, not JSON' | damage 5 communication_matrix.json
rm "$(echo $(out 6))/step_trace_time.csv"
mkdir "$(echo $(out 6))/step_trace_time.csv"
f=$(echo $(out 7))/kernel_details.csv
head -c $(( $(wc -c < "$f") - 20 )) "$f" > cut && mv cut "$f"

timeout "$MSPROF_T_WAIT_LIMIT" "$MSPROF" report --json r.json --html r.html cl > r.txt 2> r.err
is "$?" 65 "report: exit 65 (files there that the summary could not read are data missing), in time"
left=$(sed -n '/^Files left out of the summary/,/^$/p' r.txt)
like "$left" "rank 0: .*/communication.json:[0-9]+:[0-9]+: cut short" \
    "rank 0: the JSON cut short, with line and column"
like "$left" "rank 1: .*/communication_matrix.json:1:530: nested more than 512 levels deep" \
    "rank 1: 200,000 levels: nested too deep"
like "$left" "rank 2: .*/communication.json: not a regular file" \
    "rank 2: the FIFO, not opened"
like "$left" "rank 3: .*/kernel_details.csv: not a regular file" \
    "rank 3: the link to /dev/zero, not read"
like "$left" "rank 4: .*/communication.json:[0-9]+:[0-9]+: wrong type in a field: \"Elapse Time\(ms\)\" is a string, not a number" \
    "rank 4: a field of the wrong type, named"
like "$left" "rank 5: .*/communication_matrix.json:1:1: not JSON: byte 0x89 where a value should be" \
    "rank 5: bytes that are not JSON"
like "$left" "rank 6: .*/step_trace_time.csv: not a regular file" \
    "rank 6: a directory in a file's place"
like "$left" "rank 7: .*/kernel_details.csv: cut short: its last record \(line [0-9]+\) is incomplete" \
    "rank 7: a CSV cut short"
like "$(sed -n '/^Which rank/,/^$/p' r.txt)" "  5 ranks with communication data" \
    "the wait vote reads the 5 ranks whose communication.json is whole"
like "$(sed -n '/^Step breakdown/,/^$/p' r.txt)" "rank 6 +no steps: " \
    "the step table says rank 6 has no steps"
is "$(pyq -c 'import json, sys
print(len(json.load(open(sys.argv[1]))["summary"]["left_out"]))' r.json)" 8 \
    "--json: the 8 files left out"
if command -v xmllint > /dev/null; then
	xmllint --noout r.html 2> xerr
	ok $? "--html: still well-formed XML"
else
	skip "xmllint not installed (libxml2-utils)"
fi

# Fields that are null are not damage: the file is read on past them.
"$TOP/sim/gen-cluster" --ranks 2 -j 1 nul > /dev/null 2>&1
d=$(echo nul/node000_40000_*_ascend_pt)
echo '{"config": null, "rank_id": 0}' > "$d/profiler_info_0.json"
pyq - "$d/profiler_metadata.json" <<'EOF'
import json, sys
m = json.load(open(sys.argv[1]))
m["distributed_args"] = None
json.dump(m, open(sys.argv[1], "w"))
EOF
"$MSPROF" report nul > nul.txt 2>&1
unlike "$(<nul.txt)" "left out of|not JSON" "a null config or distributed_args leaves no file out"
like "$(sed -n '/^Which rank/,/^$/p' nul.txt)" "2 ranks with communication data" \
    "and the rank with them is summarised"
# A field that should hold a number and holds text: the record is skipped,
# the file named with the column, the text and the line, the other records
# read.  A blank field is no damage (torch_npu's summary lines).
"$TOP/sim/gen-cluster" --ranks 2 -j 1 nan > /dev/null 2>&1
o0=$(echo nan/node000_40000_*_ascend_pt/ASCEND_PROFILER_OUTPUT)
o1=$(echo nan/node000_40001_*_ascend_pt/ASCEND_PROFILER_OUTPUT)
pyq - "$o0/step_trace_time.csv" Free 1 n/a \
    "$o1/kernel_details.csv" 'Duration(us)' 4 bad <<'EOF'
import csv, sys
a = sys.argv[1:]
for i in range(0, len(a), 4):
    path, col, row, text = a[i], a[i + 1], int(a[i + 2]), a[i + 3]
    rows = list(csv.reader(open(path, newline="")))
    rows[row][rows[0].index(col)] = text
    csv.writer(open(path, "w", newline=""), lineterminator="\n").writerows(rows)
EOF
# as many blank fields as the header has
head -n 1 "$o1/step_trace_time.csv" | tr -cd ',' >> "$o1/step_trace_time.csv"
echo >> "$o1/step_trace_time.csv"
"$MSPROF" report --json nan.json nan > nan.txt 2>&1
left=$(sed -n '/^Files left out of the summary/,/^$/p' nan.txt)
like "$left" "rank 0: .*/step_trace_time.csv: wrong type in a field: Free is \"n/a\" on line 2, not a number; records skipped: 1, the others are read" \
    "rank 0: a step record with text for Free, named with column, text and line"
like "$left" "rank 1: .*/kernel_details.csv: wrong type in a field: Duration\(us\) is \"bad\" on line 5" \
    "rank 1: a kernel with text for its duration, named"
unlike "$left" "rank 1: .*step_trace_time" "a record of blank fields is no damage"
is "$(pyq -c 'import json, sys
s = json.load(open(sys.argv[1]))["summary"]
print(sorted((f["rank"], f["reason"]) for f in s["left_out"]),
      [len(r["steps"]) for r in s["summaries"]["steps"]["ranks"]])' nan.json)" \
    "[(0, 'wrong type in a field'), (1, 'wrong type in a field')] [1, 2]" \
    "--json: both files with their reason; rank 0 keeps its other step"

# The device memory's records likewise; an empty memory file is named too.
cp -R "$TOP/t/data/summary/memory-room" mem
f=$(echo mem/node0/*_4000_*/ASCEND_PROFILER_OUTPUT/memory_record.csv)
sed '3s/^APP,\([^,]*\),,[0-9.]*,/APP,\1,,12 GB,/' "$f" > m.csv && mv m.csv "$f"
: > "$(echo mem/node1/*_4002_*/ASCEND_PROFILER_OUTPUT/memory_record.csv)"
"$MSPROF" report mem > mem.txt 2>&1
left=$(sed -n '/^Files left out of the summary/,/^$/p' mem.txt)
like "$left" "rank 0: .*/memory_record.csv: wrong type in a field: Total Reserved\(MB\) is \"12 GB\" on line 3" \
    "rank 0: a memory record with text for its reserved memory, named"
like "$left" "rank 2: .*/memory_record.csv: empty file" "rank 2: an empty memory file, named"
# --- Odd data in copies of real torch_npu output -------------------------------
# Each case mutates one file of a copy of the 2025 text level1 run (two
# ranks) and must be named as read in part, the figure never summarised
# as if sound: no negative step, no "inf", no slow rank made of it.
REAL="$TOP/t/data/real/msinsight-2025/text/level1"
odd() {	# odd NAME RANK FILE PY-MUTATION: a copy with FILE of RANK mutated
	rm -rf "$1"
	cp -R "$REAL" "$1"
	pyq - "$1/rank$2_ascend_pt/ASCEND_PROFILER_OUTPUT/$3" "$4" <<'EOF'
import csv, json, sys
path, how = sys.argv[1], sys.argv[2]
if path.endswith(".json"):
    d = json.load(open(path))
    exec(how)
    json.dump(d, open(path, "w"))
else:
    rows = list(csv.reader(open(path, newline="")))
    head = rows[0]
    def set(row, col, v): rows[row][head.index(col)] = v
    exec(how)
    with open(path, "w", newline="") as f:
        csv.writer(f, lineterminator="\n").writerows(rows)
EOF
	"$MSPROF" report --json "$1.json" "$1" > "$1.txt" 2>&1
	echo $? > "$1.rc"
}
left_of() { sed -n '/^Files left out of the summary/,/^$/p' "$1.txt"; }
steps_of() { sed -n '/^Step breakdown/,/^$/p' "$1.txt"; }
reasons() { pyq -c 'import json, sys
print(sorted((f["rank"], f["reason"]) for f in json.load(open(sys.argv[1]))["summary"]["left_out"]))' "$1.json"; }

odd neg 0 step_trace_time.csv 'set(1, "Free", "-25744.0")'
is "$(<neg.rc)" 65 "a negative Free: exit 65, data the summary could not read"
like "$(left_of neg)" "rank 0: .*/step_trace_time.csv: impossible value: Free is -25744 on line 2" \
    "a negative Free: the file named with the column, the value and the line"
unlike "$(steps_of neg)" "rank 0 .*-[0-9]" "... no negative step shown for rank 0"
like "$(steps_of neg)" "rank 1 " "... rank 1's step still summarised"
unlike "$(<neg.txt)" "slow-rank\]" "... and no slow rank made of it"

odd inf 1 step_trace_time.csv 'set(1, "Computing", "inf")'
like "$(left_of inf)" "rank 1: .*/step_trace_time.csv: impossible value: Computing is inf on line 2" \
    "an infinite Computing: named"
unlike "$(<inf.txt)" "inf %|nan %|-nan" "... no infinite share anywhere"

odd huge 0 kernel_details.csv 'set(3, "Duration(us)", "1e308")'
like "$(left_of huge)" "rank 0: .*/kernel_details.csv: impossible value: Duration\(us\) is 1e\+308 on line 4" \
    "a kernel of 1e308 us: named"
is "$(pyq -c 'import json, sys
t = json.load(open(sys.argv[1]))["summary"]["summaries"]["operators"]["total_us"]
print(t < 1e6)' huge.json)" True "... its time not in the operators' total"

odd many 0 kernel_details.csv 'rows[5].append("extra")'
like "$(left_of many)" "rank 0: .*/kernel_details.csv: wrong number of fields: line 6 has [0-9]+, the header [0-9]+; records skipped: 1" \
    "a kernel record with a field too many: named"
odd few 1 step_trace_time.csv 'rows[1].pop()'
like "$(left_of few)" "rank 1: .*/step_trace_time.csv: wrong number of fields: line 2 has [0-9]+, the header [0-9]+; records skipped: 1" \
    "a step record with a field too few: named, not read"
is "$(reasons many) $(reasons few)" \
    "[(0, 'wrong number of fields')] [(1, 'wrong number of fields')]" \
    "--json: each with its reason"

odd null 0 communication.json '
for st in d.values():
    for op, v in st["collective"].items():
        if not op.startswith("Total"):
            for k in ("Elapse Time(ms)", "Wait Time Ratio", "Synchronization Time Ratio"):
                v["Communication Time Info"][k] = None'
like "$(left_of null)" "rank 0: .*/communication.json: null figures: 4 of its 4 operators" \
    "communication.json with null figures: named"
like "$(sed -n '/^Which rank/,/^$/p' null.txt)" "[( ]1 ranks with communication data" \
    "... and the wait table counts the ranks it shows"
is "$(pyq -c 'import json, sys
w = json.load(open(sys.argv[1]))["summary"]["summaries"]["wait"]
print(w["ranks"], [v["rank"] for v in w["votes"]])' null.json)" "1 [1]" \
    "--json: one rank with communication data, the one listed"

# Another rank's profiler_info copied into rank 1's directory: both
# directories are read (rank 0's is not dropped for rank 1's), and named.
rm -rf other; cp -R "$REAL" other
cp other/rank0_ascend_pt/profiler_info_0.json other/rank1_ascend_pt/
"$MSPROF" report --json other.json other > other.txt 2>&1
like "$(left_of other)" "rank1_ascend_pt holds the profiler_info of 2 ranks" \
    "another rank's profiler_info in a rank directory: named"
is "$(pyq -c 'import json, sys
s = json.load(open(sys.argv[1]))["summary"]
print(sorted(str(r["rank"]) + ":" + r["path"].split("/")[-1] for r in s["ranks"]))' other.json)" \
    "['0:rank0_ascend_pt', 'None:rank1_ascend_pt']" \
    "... rank 0's directory read as rank 0, the other as of no known rank"

done_testing
