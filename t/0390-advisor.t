#!/usr/bin/env bash
# Side by side with msprof-analyze's advisor: t/data/real/advisor.tsv
# lists each thing the advisor ("advisor all") finds on each real data
# set and what msprof-exec's report says for it (README.md beside it).
# A row msprof-exec matches ("finds RULE", or "absent RULE" where the
# advisor finds nothing) is an assertion on the report's JSON; a row
# msprof-exec does not match yet ("missing: WHY") is a TODO test, which
# passes for real once a finding names what the advisor found: then
# update that row's msprof_exec column.
. "$(dirname "$0")/lib.sh"

R=$TOP/t/data/real
TSV=$R/advisor.tsv

todo() {	# todo STATUS NAME REASON
	_n=$((_n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $_n - $2 # TODO $3"
	else echo "not ok $_n - $2 # TODO $3"; fi
}

sets=$(grep -v "^#" "$TSV" | cut -f1 | sed -E "s,/(test_)?rank_?[0-9]+(_ascend_pt)?$,," | sort -u)
n=0
for ds in $sets; do
	n=$((n + 1))
	# The report's exit status is not the point here (a data set
	# msprof-exec cannot read exits 65 and has no findings, which
	# the rows say).
	"$MSPROF" report --json "$T/$(echo "$ds" | tr / -).json" "$R/$ds" \
		> /dev/null 2>&1
done
is "$n" 11 "the table covers the 11 real data sets"

"$PY" "$TOP/t/helpers/advisor_check.py" "$TSV" "$T" > checks.out
while IFS=$'\t' read -r st why name; do
	if [ "$why" != - ]; then todo "$st" "$name" "$why"
	else ok "$st" "$name"; fi
done < checks.out
grep -q . checks.out || fail "advisor_check.py gives a line per row"
done_testing
