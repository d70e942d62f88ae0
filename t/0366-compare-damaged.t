#!/usr/bin/env bash
# compare names every damaged file that report names, with the same exit
# status: each case damages one file of a copy of the real 2025 runs (text
# and db, two ranks), then runs report on it and compare against the sound
# copy, side by side; the files each names (--json) and the exit statuses
# must be the same.
. "$(dirname "$0")/lib.sh"

REAL=$TOP/t/data/real/msinsight-2025
damage() {	# damage NAME EXPORT RANK FILE SHELL: a copy, SHELL run on FILE ($f)
	rm -rf "$1"
	cp -R "$REAL/$2/level1" "$1"
	chmod -R u+w "$1"
	f=$1/rank$3_ascend_pt/ASCEND_PROFILER_OUTPUT/$4
	eval "$5"
}
sql() { "$PY" -c 'import sqlite3, sys
c = sqlite3.connect(sys.argv[1]); c.executescript(sys.argv[2]); c.commit()' "$f" "$1"; }
csvset() {	# csvset LINE COLUMN TEXT: a field of $f
	"$PY" - "$f" "$@" <<'EOF'
import csv, sys
path, line, col, text = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
rows = list(csv.reader(open(path, newline="")))
rows[line - 1][rows[0].index(col)] = text
csv.writer(open(path, "w", newline=""), lineterminator="\n").writerows(rows)
EOF
}
named() {	# named JSON KEY...: the paths left out, sorted
	"$PY" -c 'import json, sys
d = json.load(open(sys.argv[1]))
for k in sys.argv[2:]:
    d = d[k]
print(" ".join(sorted(f["path"] + ":" + f["reason"] for f in d)))' "$@"
}
side_by_side() {	# side_by_side NAME WHAT
	"$MSPROF" report --json "$1.r.json" "$1" > "$1.r.txt" 2>&1
	local rr=$?
	"$MSPROF" compare --json "$1.c.json" "sound-$2" "$1" > "$1.c.txt" 2>&1
	local cr=$?
	local rn cn
	rn=$(named "$1.r.json" summary left_out)
	cn=$(named "$1.c.json" left_out new)
	is "$cr $cn" "$rr $rn" "$3: compare's exit status and files named are report's ($rr, ${rn:-none})"
	[ -n "$4" ] && like "$rn" "$4" "... which names the damaged file"
}

damage sound-text text 0 x.csv :
damage sound-db db 0 x.db :

damage neg text 0 step_trace_time.csv 'csvset 2 Free -25744'
side_by_side neg text "step_trace_time.csv with a negative Free" "step_trace_time.csv:impossible value"
damage cut text 1 kernel_details.csv 'head -c $(( $(wc -c < "$f") - 20 )) "$f" > cut.tmp && mv cut.tmp "$f"'
side_by_side cut text "kernel_details.csv cut short" "kernel_details.csv:cut short"
damage fifo text 1 communication.json 'rm "$f" && mkfifo "$f"'
side_by_side fifo text "communication.json a FIFO" "communication.json:not a regular file"
damage zero text 0 communication_matrix.json 'rm "$f" && ln -s /dev/zero "$f"'
side_by_side zero text "communication_matrix.json a link to /dev/zero" "communication_matrix.json:not a regular file"
damage memtext text 1 memory_record.csv 'csvset 3 "Total Reserved(MB)" "12 GB"'
side_by_side memtext text "memory_record.csv with text for a number" "memory_record.csv:wrong type in a field"
damage notjson text 0 communication.json 'printf "\211PNG\r\n" > "$f"'
side_by_side notjson text "communication.json an image" "communication.json:not JSON"

damage steptext db 0 analysis.db "sql \"UPDATE StepTraceTime SET free = 'n/a'\""
side_by_side steptext db "StepTraceTime with text" "analysis.db:wrong type in a field"
damage endnull db 1 ascend_pytorch_profiler_1.db 'sql "UPDATE TASK SET endNs = NULL"'
side_by_side endnull db "TASK.endNs NULL" "ascend_pytorch_profiler_1.db:wrong type in a field"
damage link db 0 analysis.db 'sql "UPDATE CommAnalyzerMatrix SET transit_size = -1"'
side_by_side link db "CommAnalyzerMatrix with a negative size" "analysis.db:impossible value"
damage notdb db 1 analysis.db 'echo "not a database, plainly" > "$f"'
side_by_side notdb db "analysis.db not a database" "analysis.db:not a database"

# the sound copy against itself: nothing named, exit 0, as report
"$MSPROF" compare --json s.json sound-text sound-text > s.txt 2>&1
is "$? $(named s.json left_out base)$(named s.json left_out new)" "0 " \
    "two sound runs: exit 0, no file named"
# the base run's damage is named as well, the text listing it
"$MSPROF" compare --json b.json neg sound-text > b.txt 2>&1
is "$?" 65 "a damaged base run: exit 65"
like "$(sed -n '/^Files left out of the summary/,/^$/p' b.txt)" \
    "rank 0: neg/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/step_trace_time.csv: impossible value" \
    "... its file named in the text, with its run's path"

done_testing
