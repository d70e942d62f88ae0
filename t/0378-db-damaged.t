#!/usr/bin/env bash
# The db export checked as the text export is: each case damages one table
# of a copy of the real 2025 db run (two ranks, level1) and must be named
# with the file, the table, the column, the value and the row, the report
# exiting 65 as for the same damage in the text export; the figure is never
# summarised as if sound (no negative share, no "inf", no link at a
# negative speed, no peak of exabytes).
. "$(dirname "$0")/lib.sh"

REAL=$TOP/t/data/real/msinsight-2025
db() {	# db NAME RANK FILE SQL: a copy of the db run with SQL run on FILE
	rm -rf "$1"
	cp -R "$REAL/db/level1" "$1"
	chmod -R u+w "$1"
	"$PY" - "$1/rank$2_ascend_pt/ASCEND_PROFILER_OUTPUT/$3" "$4" <<'EOF'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.executescript(sys.argv[2])
c.commit()
EOF
	"$MSPROF" report --json "$1.json" "$1" > "$1.txt" 2>&1
	echo $? > "$1.rc"
}
left_of() { sed -n '/^Files left out of the summary/,/^$/p' "$1.txt"; }
reasons() { "$PY" -c 'import json, sys
print(sorted((f["rank"], f["reason"]) for f in json.load(open(sys.argv[1]))["summary"]["left_out"]))' "$1.json"; }
A=analysis.db P0=ascend_pytorch_profiler_0.db

db sound 0 $A ''
is "$(<sound.rc) $(reasons sound)" "0 []" "the real db run as it is: exit 0, no file left out"

# steps: a negative figure, an infinite one, text, a number with a tail
db neg 0 $A 'UPDATE StepTraceTime SET computing = -5000000'
is "$(<neg.rc)" 65 "a negative computing: exit 65"
like "$(left_of neg)" "rank 0: neg/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/analysis.db: impossible value: computing is -5e\+06 in row 1 of StepTraceTime, no time a profiler writes" \
    "... the file, the table, the column, the value and the row named"
unlike "$(<neg.txt)" " -[0-9.]+ %" "... no negative share shown"
db inf 1 $A 'UPDATE StepTraceTime SET free = 1e308 * 10'
like "$(left_of inf)" "rank 1: .*/analysis.db: impossible value: free is inf in row 1 of StepTraceTime" \
    "an infinite free: named"
unlike "$(<inf.txt)" "inf ms|inf %|nan" "... no infinite step nor share"
db text 0 $A "UPDATE StepTraceTime SET free = 'n/a'"
like "$(left_of text)" "rank 0: .*/analysis.db: wrong type in a field: free is \"n/a\" in row 1 of StepTraceTime, not a number; rows skipped: 1" \
    "text in StepTraceTime: the wrong type named, not \"StepTraceTime is empty\""
unlike "$(<text.txt)" "StepTraceTime is empty" "... which it is not"
like "$(<text.txt)" "no step of StepTraceTime could be read" "... the rank's steps say why they are missing"
db tail 1 $A "UPDATE StepTraceTime SET computing = '5e3x'"
like "$(left_of tail)" "rank 1: .*/analysis.db: wrong type in a field: computing is \"5e3x\" in row 1" \
    "a number with a tail (\"5e3x\") is text, not 5000"
db esc 0 $A "UPDATE StepTraceTime SET free = 'a' || char(27) || '[2Jb'"
like "$(left_of esc)" 'free is "a\\x1b\[2Jb" in row 1' "text with an escape byte: quoted escaped"
unlike "$(<esc.txt)" $'\033' "... no control byte printed"
db nul 0 $A 'UPDATE StepTraceTime SET communication_not_overlapped = NULL'
like "$(left_of nul)" "rank 0: .*/analysis.db: wrong type in a field: communication_not_overlapped is NULL in row 1 of StepTraceTime" \
    "a NULL figure a step is made of: named"
db blank 1 $A "UPDATE StepTraceTime SET computing = ''"
like "$(left_of blank)" "rank 1: .*/analysis.db: wrong type in a field: computing is \"\" in row 1 of StepTraceTime" \
    "an empty text for a figure a step is made of: named (the db has no blank summary lines)"
db optnul 0 $A 'UPDATE StepTraceTime SET bubble = NULL'
is "$(<optnul.rc) $(reasons optnul)" "0 []" "a NULL bubble (a figure the export may leave out): no damage"

# kernels: TASK.endNs NULL, text, before the start
db endnull 0 $P0 'UPDATE TASK SET endNs = NULL'
is "$(<endnull.rc)" 65 "TASK.endNs NULL: exit 65"
like "$(left_of endnull)" "rank 0: .*/ascend_pytorch_profiler_0.db: wrong type in a field: TASK.endNs is NULL in row [0-9]+ of TASK, not a number; rows skipped: [0-9]+" \
    "... named with the table and column, not \"no computing operator\" alone"
db endtext 0 $P0 "UPDATE TASK SET endNs = 'late' WHERE rowid % 2 = 0"
like "$(left_of endtext)" "rank 0: .*/ascend_pytorch_profiler_0.db: wrong type in a field: TASK.endNs is \"late\" in row [0-9]*[02468] of TASK" \
    "text in TASK.endNs: named with the first row"
db endback 0 $P0 'UPDATE TASK SET endNs = startNs - 1000 WHERE rowid = (SELECT min(t.rowid) FROM TASK t JOIN COMPUTE_TASK_INFO c USING (globalTaskId))'
like "$(left_of endback)" "rank 0: .*/ascend_pytorch_profiler_0.db: impossible value: TASK.endNs - TASK.startNs is -1000 in row [0-9]+ of TASK, no time a profiler writes.*rows skipped: 1," \
    "a task that ends before it starts: named, that row alone"
is "$("$PY" -c 'import json, sys
a, b = (json.load(open(f))["summary"]["summaries"]["operators"]["total_us"] for f in sys.argv[1:])
print(0 < a - b < 1e6)' sound.json endback.json)" True "... the other kernels still summed"

# memory: a peak of exabytes
db mem 0 $P0 'UPDATE MEMORY_RECORD SET totalReserved = 9223372036854775807 WHERE rowid = 3'
like "$(left_of mem)" "rank 0: .*/ascend_pytorch_profiler_0.db: impossible value: totalReserved is 9.22337e\+18 in row 3 of MEMORY_RECORD, no memory a device has" \
    "a reserved memory of 8 EB: named"
is "$("$PY" -c 'import json, sys
a, b = ({r["rank"]: r["peak_mb"] for r in json.load(open(f))["summary"]["summaries"]["memory"]["ranks"]} for f in sys.argv[1:])
print(a == b)' sound.json mem.json)" True "... the peak that of the other rows"

# links: a negative size
db link 1 $A 'UPDATE CommAnalyzerMatrix SET transit_size = -transit_size WHERE rowid = 2'
like "$(left_of link)" "rank 1: .*/analysis.db: impossible value: transit_size is -37.7815 in row 2 of CommAnalyzerMatrix, no size a profiler writes" \
    "a link of negative size: named"
unlike "$(<link.txt)" " -[0-9,.]+ GB/s" "... no link at a negative speed"

# The same damage in the text export: the same exit status and reason.
rm -rf tneg; cp -R "$REAL/text/level1" tneg; chmod -R u+w tneg
"$PY" - tneg/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/step_trace_time.csv <<'EOF'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
rows[1][rows[0].index("Computing")] = "-5000000"
csv.writer(open(sys.argv[1], "w", newline=""), lineterminator="\n").writerows(rows)
EOF
"$MSPROF" report --json tneg.json tneg > tneg.txt 2>&1
is "$? $(reasons tneg)" "$(<neg.rc) $(reasons neg)" \
    "a negative Computing: the text export's exit status and reason are the db's"

# ... and a peak of exabytes in memory_record.csv, as in MEMORY_RECORD
rm -rf tmem; cp -R "$REAL/text/level1" tmem; chmod -R u+w tmem
f=tmem/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/memory_record.csv
sed '4s/^\(APP,[^,]*,[^,]*,\)[0-9.]*,/\18796093022208,/' "$f" > m.csv && mv m.csv "$f"
"$MSPROF" report --json tmem.json tmem > tmem.txt 2>&1
is "$?" 65 "memory_record.csv with a peak of 8 EB: exit 65"
like "$(left_of tmem)" "rank 0: .*/memory_record.csv: impossible value: Total Reserved\(MB\) is 8.79609e\+12 on line 4, no memory a device has" \
    "... named by the rule MEMORY_RECORD's is"
unlike "$(<tmem.txt)" "8,796,093,022,208|8796093022208" "... and not shown as a peak"

# A column missing is the database not expected, not a damaged one.
db nocol 0 $A 'ALTER TABLE StepTraceTime DROP COLUMN free'
like "$(left_of nocol)" "rank 0: .*/analysis.db: no such column: free" "a column missing: named with SQLite's reason"
is "$(reasons nocol)" "[(0, 'not the database expected')]" "... as not the database expected"

done_testing
