#!/usr/bin/env bash
# Odd inputs.  Files that are not regular files, where the program expects
# one: a FIFO would block a read for ever, /dev/zero never ends.  Every file
# read goes through one guarded open (regular files only): nothing hangs,
# nothing eats memory, and the file is named with why.  Rank directories
# without any data: 65, as the man page says of data missing.
. "$(dirname "$0")/lib.sh"

REAL=$TOP/t/data/real/msinsight-2025/text/level1
# the report, bounded: a hang shows as 124
report() { timeout 20 "$MSPROF" report "$@" > "$T/out" 2> "$T/err"; rc=$?; }

# api_statistic.csv (read by the compile-time rule) as a FIFO and as a link
# to /dev/zero.
cp -R "$REAL" fifo
A=fifo/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT
rm "$A/api_statistic.csv"
mkfifo "$A/api_statistic.csv"
report fifo
is "$rc" 65 "api_statistic.csv a FIFO: the report finishes, a file left out (65)"
like "$(cat "$T/out")" "Step breakdown per rank" "... with the summary"
like "$(cat "$T/out")" "rank 0: fifo/.*/api_statistic.csv: not a regular file" \
    "... naming the file as the others are"

cp -R "$REAL" zero
rm zero/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/api_statistic.csv
ln -s /dev/zero zero/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/api_statistic.csv
report zero
is "$rc" 65 "api_statistic.csv a link to /dev/zero: the report finishes, 65"
like "$(cat "$T/out")" "rank 0: zero/.*/api_statistic.csv: not a regular file" "... named"
# the timeline (trace_view.json, read in one pass) as a FIFO and as a
# link to /dev/zero: the same
cp -R "$REAL" tfifo
mkfifo tfifo/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json.new
mv tfifo/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json.new \
    tfifo/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json
report tfifo
is "$rc" 65 "trace_view.json a FIFO: the report finishes, a file left out (65)"
like "$(cat "$T/out")" "rank 0: tfifo/.*/trace_view.json: not a regular file" "... named"
cp -R "$REAL" tzero
ln -sf /dev/zero tzero/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json
report tzero
is "$rc" 65 "trace_view.json a link to /dev/zero: the report finishes, 65"
like "$(cat "$T/out")" "rank 0: tzero/.*/trace_view.json: not a regular file" "... named"
# names on disk with a terminal's control sequence in them (a rank
# directory, a file beside the data): shown escaped, never sent as they are
cp -R "$REAL" esc
mv esc/rank1_ascend_pt "esc/rank1"$'\033[2J'"x_ascend_pt"
: > "esc/rank0_ascend_pt/odd"$'\033[31m'"file"
report esc
like "$(cat "$T/out")" 'rank 1: rank1\\x1b\[2Jx_ascend_pt' \
    "a rank directory's name: its control byte escaped"
like "$(cat "$T/out")" 'odd\\x1b\[31mfile' "... and a file's in the tree"
is "$(cat "$T/out" "$T/err" | tr -cd '\033' | wc -c | tr -d ' ')" 0 \
    "... and no escape byte in the output"
# a compile time that is text: named with its line, as the other CSVs
cp -R "$REAL" ctext
A=ctext/rank1_ascend_pt/ASCEND_PROFILER_OUTPUT/api_statistic.csv
"$PY" - "$A" <<'EOF2'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
h = rows[0]
rows.append(["opCompile" if c == "API Name" else "soon" if c == "Time(us)" else "" for c in h])
csv.writer(open(sys.argv[1], "w", newline=""), lineterminator="\n").writerows(rows)
EOF2
n=$(wc -l < "$A")
report ctext
is "$rc" 65 "api_statistic.csv with text for opCompile's time: 65"
like "$(cat "$T/out")" "rank 1: ctext/.*/api_statistic.csv: wrong type in a field: Time\(us\) is \"soon\" on line $n" \
    "... named with the column, the text and the line"

# A table the summary needs, as a FIFO: named as not a regular file.
cp -R "$REAL" fifo2
K=fifo2/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv
rm "$K"
mkfifo "$K"
report fifo2
isnt_hang=$([ "$rc" -ne 124 ] && echo yes)
is "$isnt_hang" yes "kernel_details.csv a FIFO: no hang"
like "$(cat "$T/out" "$T/err")" "kernel_details.csv: not a regular file" \
    "... and the file is named as not a regular file"

# The launch table of an installed copy as a FIFO and as /dev/zero: one
# message naming it, no hang.
mkdir -p p/bin
cp "$MSPROF" p/bin/
cp -R "$B/lib" "$B/share" p/
rm p/share/msprof-exec/launchers.conf
mkfifo p/share/msprof-exec/launchers.conf
timeout 20 p/bin/msprof-exec -n --skip-checks torchrun train.py > "$T/out" 2> "$T/err"
rc=$?
is "$rc" 78 "launchers.conf a FIFO: refused as bad configuration (78), no hang"
like "$(cat "$T/err")" "launchers.conf.*not a regular file" "... naming the file and why"
rm p/share/msprof-exec/launchers.conf
ln -s /dev/zero p/share/msprof-exec/launchers.conf
timeout 20 p/bin/msprof-exec -n --skip-checks torchrun train.py > "$T/out" 2> "$T/err"
is "$?" 78 "launchers.conf a link to /dev/zero: 78, no hang"
# CRLF line ends, a NUL, a row again otherwise: 78, file:line, no raw byte
rm p/share/msprof-exec/launchers.conf
sed 's/$/\r/' "$B/share/msprof-exec/launchers.conf" > p/share/msprof-exec/launchers.conf
timeout 20 p/bin/msprof-exec -n --skip-checks torchrun train.py > "$T/out" 2> "$T/err"
is "$?" 78 "launchers.conf with CRLF line ends: 78"
like "$(cat "$T/err")" "launchers.conf:1: a carriage return in the line \(CRLF line ends\?\)" \
    "... naming file:line"
cp "$B/share/msprof-exec/launchers.conf" p/share/msprof-exec/launchers.conf
printf 'skip ok\nskip a\033]0;owned\007b\0c\n' >> p/share/msprof-exec/trainings.conf
n=$(wc -l < p/share/msprof-exec/trainings.conf)
timeout 20 p/bin/msprof-exec -n --skip-checks torchrun train.py > "$T/out" 2> "$T/err"
is "$?" 78 "trainings.conf with control bytes and a NUL in a line: 78"
like "$(cat "$T/err")" "trainings.conf:$n: control byte 0x1b in the line \(at byte 7\)" \
    "... naming file:line and the byte"
unlike "$(cat "$T/err")" $'\033' "... and echoing no control byte"

# An empty folder, an unrelated one: one line saying what was looked for,
# no data was found (65).
mkdir -p none other/src && echo 'print(1)' > other/src/a.py
for d in none other; do
	timeout 20 "$MSPROF" report "$d" > "$T/out" 2> "$T/err"
	is "$? $(wc -l < "$T/out")" "65 1" "report on a folder with nothing it reads ($d): 65, one line"
	like "$(cat "$T/out")" "^No profiling data in $d: no rank directory \(\*_ascend_pt, ASCEND_PROFILER_OUTPUT inside\) and no msprof-exec session \(msprof-exec_\*, with its plan.json\)" \
	    "... naming what it looked for"
done
unlike "$(cat "$T/out")" "not made" "... not a section per summary"

# A rank directory with nothing in it: no data was found, 65.
mkdir -p bare/rank0_ascend_pt
timeout 20 "$MSPROF" report bare > "$T/out" 2> "$T/err"
is "$?" 65 "a rank directory without data: report exits 65"
like "$(cat "$T/out")" "no raw data" "... and says what it lacks"
# and beside one with data, the one with data counts
cp -R "$REAL/rank0_ascend_pt" bare/
timeout 20 "$MSPROF" report bare/rank0_ascend_pt > "$T/out" 2> "$T/err"
is "$?" 0 "a rank directory with parsed data: 0"
done_testing
