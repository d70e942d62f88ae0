#!/usr/bin/env bash
# One pass over the data: the report lists each directory and reads each
# rank directory once, however many of its parts ask (the choice of the
# output directories, verification, the runs, the summary, the next
# step).  Under strace, a report over 64 ranks opens each rank directory
# and each data file once, with --json too, and with a session (whose
# paths verification learns from the journal); a link not followed is
# named once; a session's journal is read once for its launches.
. "$(dirname "$0")/lib.sh"
pyq_start
command -v strace > /dev/null || skip_all "strace is not installed"
strace -f -e trace=openat -o /dev/null true 2> /dev/null ||
    skip_all "strace cannot trace here (ptrace not allowed)"

# LeakSanitizer cannot run under ptrace (make check-sanitize): the traced
# reports are checked for what they open, their leaks by the other tests.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"

cd "$T" || exit 1
"$TOP/sim/gen-cluster" --ranks 64 --tp 8 --pp 4 -j 2 c64 > /dev/null
ok $? "64 rank directories written"
# raw data and the chip's description (read for the MFU) in each
pyq - c64 <<'EOF'
import glob, json, os, sys
for d in glob.glob(os.path.join(sys.argv[1], "*_ascend_pt")):
    dev = os.path.join(d, "PROF_000001_1_A", "device_0")
    os.makedirs(os.path.join(dev, "data"))
    open(os.path.join(dev, "data", "d"), "w").write("x")
    with open(os.path.join(dev, "info.json.0"), "w") as f:
        json.dump({"DeviceInfo": [{"ai_core_num": 24, "aic_frequency": 1800}]}, f)
EOF
ln -s "$T/nowhere_1_20251203000000000_ascend_pt" c64/gone_ascend_pt

# OUT: how often each path under the tree was opened (successfully),
# "count path" a line, the paths made absolute.
opens() {
	awk -v top="$T" '/ = -1 / { next }
	    match($0, /"[^"]*"/) {
		p = substr($0, RSTART + 1, RLENGTH - 2)
		if (p !~ /^\//) p = top "/" p
		if (index(p, top "/c64") == 1) n[p]++
	    }
	    END { for (p in n) print n[p], p }' "$1"
}

# The counts of LOG, summed up: the rank directories and data files opened
# more than once (listed), and how many of each were opened.
check_once() {	# check_once LOG WHAT
	opens "$1" > counts
	twice=$(awk '$1 > 1' counts)
	is "$twice" "" "$2: no rank directory or file opened twice"
	is "$(grep -c '_ascend_pt$' counts)" 64 "$2: each rank directory opened"
	for f in step_trace_time.csv kernel_details.csv communication.json \
	    communication_matrix.json profiler_metadata.json; do
		is "$(grep -c "/$f\$" counts)" 64 "$2: each rank's $f read"
	done
	is "$(grep -c '/device_0$' counts)" 64 "$2: each rank's raw data looked at"
}

strace -f -e trace=openat,open -o trace.log "$MSPROF" report c64 > out 2> err
check_once trace.log "report DIR"
like "$(<out)" "64 ranks with data" "the report's text is the one of 64 ranks"
is "$(grep -c 'gone_ascend_pt' out err)" "out:1
err:0" "the link that leads nowhere is named once"

strace -f -e trace=openat,open -o trace.log "$MSPROF" report --json r.json \
    c64 > out 2> err
check_once trace.log "report --json"
pyq -c 'import json, sys; d = json.load(open(sys.argv[1])); sys.exit(0 if "summary" in d else 1)' r.json
ok $? "the JSON holds the summary"

# The same from an absolute path: the listing is not made twice.
strace -f -e trace=openat,open -o trace.log "$MSPROF" report "$T/c64" > out 2> err
check_once trace.log "report /ABS/DIR"

# A session: its paths come from the journal, verified, then summarised.
sim_env
cd "$T/mindspeed-llm" || exit 1
"$MSPROF" -y --skip-checks bash \
    examples/mcore/qwen3/pretrain_qwen3_8b_4K_ptd.sh > run.out 2> run.err
ok $? "a simulated training profiled"
session=$(ls -d profiling_output/msprof-exec_* | tail -n 1)
strace -f -e trace=openat,open -o "$T/trace.log" "$MSPROF" report \
    "$session" > out 2> err
opens_session=$(awk '/ = -1 / { next } /_ascend_pt"/ { print }' "$T/trace.log" |
    grep -o '"[^"]*_ascend_pt"' | sed 's|^"\([^/]\)|"'"$PWD"'/\1|' | sort |
    uniq -c | awk '$1 > 1')
is "$opens_session" "" "report SESSION: no rank directory opened twice"
like "$(grep -c '_ascend_pt"' "$T/trace.log")" "^[1-9]" \
    "report SESSION: its rank directories were read"
# The session's journal: read once for its launches (the summary's paths,
# the verification, the claims on its directories), and once more only to
# see whether its processes still run, after the look at /proc that must
# come first (a process that starts its launch in between is then missed
# by neither).
is "$(awk '/ = -1 / { next } /journal\.jsonl"/ { print }' "$T/trace.log" |
    grep -c "${session#profiling_output/}/journal.jsonl\"")" 2 \
    "report SESSION: its journal read once, and once for the processes running"
done_testing
