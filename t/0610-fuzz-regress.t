#!/usr/bin/env bash
# The fuzz targets (fuzz/*.c) without libFuzzer: every crash input kept in
# fuzz/regress/TARGET runs without crashing, breaking an invariant or
# leaking, and the seed corpus fuzz/corpus/TARGET runs to the end.  An
# input listed in fuzz/regress/KNOWN (a bug not fixed yet) is a TODO test.
# Under `make check-sanitize` the same programs run with ASan and UBSan.
. "$(dirname "$0")/lib.sh"

FUZZ=$TOP/fuzz
export TMPDIR=$T	# the targets' scratch directories

# The reason FILE (TARGET/NAME) is listed in KNOWN, or nothing.
known() {
	awk -F'\t' -v f="$1" '$1 == f { print $2; exit }' "$FUZZ/regress/KNOWN" \
	    2>/dev/null
}
todo() {	# todo STATUS NAME REASON
	_n=$((_n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $_n - $2 # TODO $3"
	else echo "not ok $_n - $2 # TODO $3"; fi
}

for t in launch scan config journal summary; do
	replay=$B/fuzz/replay-$t
	if [ ! -x "$replay" ]; then
		fail "$t: $replay is built (make builds it)"
		continue
	fi
	n=$(ls "$FUZZ/corpus/$t" | wc -l | tr -d ' ')
	got=$( (timeout "$MSPROF_T_WAIT_LIMIT" "$replay" -v "$FUZZ/corpus/$t" 2> "$T/err"; exit $?) 2> /dev/null)
	rc=$?
	if [ "$rc" -eq 0 ] && [ "$got" = "$n" ] && [ "$n" -gt 0 ]; then
		pass "$t: the $n inputs of the seed corpus run"
	else
		fail "$t: the $n inputs of the seed corpus run"
		diag "exit $rc after $got inputs; the last:" "$(tail -n 8 "$T/err")"
	fi
	for f in "$FUZZ/regress/$t"/*; do
		[ -f "$f" ] || continue
		name=$t/${f##*/}
		# (a subshell: bash would report an abort on the test's stderr)
		( timeout "$MSPROF_T_WAIT_LIMIT" "$replay" -v -l "$f" > /dev/null 2> "$T/err"; exit $? ) 2> /dev/null
		rc=$?
		why=$(known "$name")
		if [ -n "$why" ]; then
			todo "$rc" "$name" "$why"
		else
			ok "$rc" "$name: no crash, no leak"
			[ "$rc" -eq 0 ] || diag "exit $rc:" "$(tail -n 12 "$T/err")"
		fi
	done
done
# Every KNOWN entry names a file that is there.
while IFS=$'\t' read -r name why; do
	case $name in ''|'#'*) continue ;; esac
	[ -f "$FUZZ/regress/$name" ] || { fail "KNOWN names $name"; diag "no fuzz/regress/$name"; }
done < "$FUZZ/regress/KNOWN"
done_testing
