#!/usr/bin/env bash
# The report on real torch_npu output (t/data/real: MindStudio Insight's
# test data, a 2-rank DDP CNN, 2024 and 2025 generations, text and db
# exports, level0-2): on every data set the step breakdown per rank, the
# top operators and the peak memory per rank equal the figures computed
# from the files themselves by t/helpers/real_figures.py (its docstring
# says what it takes from which file, and why), never from the program's
# output; the db export of a level gives the operators its text export
# gives; the report exits 0 and makes no dynamic-shape finding.
#
# What msprof-exec does not do yet is a TODO test, named after the
# feature (the TODO table below): it passes as an expected failure now
# and for real once the feature lands; then take its line out of the
# table and the check is an ordinary assertion.
. "$(dirname "$0")/lib.sh"
pyq_start

R=$TOP/t/data/real
FIG=("$PY" "$TOP/t/helpers/real_figures.py")

# The features the checks need that msprof-exec lacks today, and why.
declare -A TODO=(
	[level0-variants]="2024 level0: a graph node's name does not say the variant level1 types (ReduceSum7 is ReduceSumD there)"
)

todo() {	# todo STATUS NAME REASON
	_n=$((_n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $_n - $2 # TODO $3"
	else echo "not ok $_n - $2 # TODO $3"; fi
}

# result STATUS FEATURES NAME DIAG: a check of real_figures.py, a TODO
# test when one of FEATURES is in the TODO table.  DIAG (what differs) is
# shown for real failures only: take a feature out of the table to see
# why its checks still fail.
result() {
	local why='' f
	if [ "$2" != - ]; then
		for f in ${2//,/ }; do
			[ -n "${TODO[$f]:-}" ] && why="${why:+$why; }${TODO[$f]}"
		done
	fi
	if [ -n "$why" ]; then
		todo "$1" "$3" "$why"
	else
		ok "$1" "$3"
		[ "$1" -eq 0 ] || [ -z "$4" ] || diag "${4:0:400}"
	fi
}

# checks NAME ARG...: real_figures.py ARG..., its lines as tests
checks() {
	local name=$1 st feats what d
	shift
	if ! "${FIG[@]}" "$@" > checks.out 2> checks.err || [ ! -s checks.out ]; then
		fail "$name: figures computed from the files"
		diag "$(tail -n 5 checks.err)"
		return
	fi
	while IFS=$'\t' read -r st feats what d; do
		result "$st" "$feats" "$what" "$d"
	done < checks.out
}

sets=()
for ds in "$R"/msinsight-*/text/level* "$R"/msinsight-*/db/level*; do
	[ -d "$ds" ] && sets+=("$ds")
done
is "${#sets[@]}" 9 "the corpus: 9 data sets (2025 text and db level0-2, 2024 text level0-1, db level1)"

for ds in "${sets[@]}"; do
	name=${ds#"$R"/}
	j=$T/$(echo "$name" | tr / -).json
	timeout "$MSPROF_T_WAIT_LIMIT" "$MSPROF" report --json "$j" "$ds" > out 2> err
	rc=$?
	is "$rc" 0 "$name: report exits 0"
	[ "$rc" -eq 0 ] || diag "$(tail -n 5 err)"
	if ! pyq -c 'import json, sys; json.load(open(sys.argv[1]))' "$j" 2> /dev/null; then
		fail "$name: --json writes JSON"
		continue
	fi
	checks "$name" check "$ds" "$j" "$name"
done

# The db export against the text export of the same level (two
# collections of the same step: same types and counts, totals as close
# as the files' are).
for db in "$R"/msinsight-*/db/level*; do
	text=${db/\/db\//\/text\/}
	[ -d "$text" ] || continue
	name=${db#"$R"/}
	name="${name%%/*} ${name##*/}: db and text"
	dj=$T/$(echo "${db#"$R"/}" | tr / -).json
	tj=$T/$(echo "${text#"$R"/}" | tr / -).json
	if [ -s "$dj" ] && [ -s "$tj" ]; then
		checks "$name" cross "$text" "$tj" "$db" "$dj" "$name"
	else
		fail "$name: both reports written"
	fi
done
done_testing
