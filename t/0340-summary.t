#!/usr/bin/env bash
# The summary as people see it (build/t/helpers/summary, the library's
# test driver): text in ASCII or Unicode blocks by locale, colour only on
# a terminal without NO_COLOR, one cluster answer from one path per node
# as from the shared directory, and an HTML page that an XML checker
# accepts and that loads nothing from the network.
. "$(dirname "$0")/lib.sh"

S=$HELPERS/summary
D=$TOP/t/data/summary
[ -x "$S" ] || skip_all "build/t/helpers/summary not built"

# --- Text ------------------------------------------------------------------
out=$(LC_ALL=C "$S" --term "$D/slow-rank")
like "$out" 'rank 3 .*#####' "LC_ALL=C: ASCII bars"
unlike "$out" $'\xe2\x96' "LC_ALL=C: no Unicode blocks"
unlike "$out" $'\033' "not a terminal: no colour"
like "$out" '\[slow-rank\] .*rank 3' "the finding is named with its rule"
out=$(LC_ALL=C.UTF-8 "$S" --term "$D/slow-rank")
like "$out" $'rank 3 .*\xe2\x96\x88' "a UTF-8 locale: Unicode blocks"
if command -v script > /dev/null; then
	out=$(LC_ALL=C.UTF-8 script -qc "'$S' --term '$D/slow-rank'" /dev/null)
	like "$out" $'\033\\[' "a terminal: colour"
	out=$(NO_COLOR=1 LC_ALL=C.UTF-8 script -qc "'$S' --term '$D/slow-rank'" /dev/null)
	unlike "$out" $'\033\\[' "a terminal with NO_COLOR: no colour"
else
	skip "script(1) not installed (a terminal)"
	skip "script(1) not installed (NO_COLOR)"
fi
out=$("$S" --llm 5 0 "$D/healthy")
like "$out" 'rank 0 +4-6 +5-7' "torch steps 4-6 are iterations 5-7 (LLM, start 5)"
out=$("$S" "$D/no-rank")
like "$out" 'rank unknown \(node0-host_4000_[^)]*\) +89\.000 ' \
    "no rank: a row of the cluster table named after its directory"
like "$out" 'rank unknown \(node0-host_4001_[^)]*\) +101\.000 ' \
    "and another for the other directory (no layout: no columns of positions)"
unlike "$out" ' -1 ' "and no rank -1"
out=$("$S" "$D/zero-durations")
like "$out" '  +- +0\.000 +36 .* MatMulV2' "every operator 0 us: Time(%) is -"
# whole words: the MFU names info.json
unlike "$out" '(^|[^[:alpha:]])(nan|inf)([^[:alpha:]]|$)' "and never nan or inf"
"$S" --html "$D/zero-durations" > zero.html
unlike "$(<zero.html)" 'nan|inf' "nor in the page"
out=$("$S" "$D/level0")
like "$out" 'not made: .*level0' "level0: the wait vote says why it is missing"
unlike "$out" 'rank 0 +0 +0 ' "level0: no zeros in its place"
# What compare reads: no rule runs, and the findings say so.
out=$("$S" --steps-ops "$D/slow-rank")
like "$out" $'Findings\n  not made: not read \\(steps and operators only\\)' \
    "steps and operators only: the findings are not made"
unlike "$out" '\[slow-rank\]' "and the slow rank is not a finding"
like "$("$S" --json --steps-ops "$D/slow-rank")" '"findings":[[:space:]]*\[\]' \
    "--json: findings is still a list, empty"

# --- One answer for the cluster, however the paths are given --------------
"$S" --json "$D/slow-rank" > shared.json
"$S" --json "$D/slow-rank/node0" "$D/slow-rank/node1" > nodes.json
strip() { sed '/"path"/d' "$1"; }
is "$(strip nodes.json)" "$(strip shared.json)" \
    "one path per node gives the shared directory's answer"
"$S" --json "$D/nope" > /dev/null 2> err
ok $(( $? != 1 )) "a missing path: exit 1"
like "$(<err)" 'nope' "and the error names it"

# --- HTML ------------------------------------------------------------------
for f in slow-link slow-rank level0 quirks; do
	"$S" --html "$D/$f" > "$f.html"
	if command -v xmllint > /dev/null; then
		xmllint --noout "$f.html" 2> xerr
		ok $? "$f: the page is well-formed XML (xmllint)"
		[ -s xerr ] && diag "$(<xerr)"
	else
		skip "xmllint not installed (libxml2-utils)"
	fi
done
page=$(<slow-link.html)
like "$page" '<svg[^>]*>' "inline SVG"
like "$page" 'stroke="#d00"[^>]*><title>1 -&gt; 2 RDMA' "the heat map outlines the slow link"
unlike "$page" '<script|src="http|href="http' "nothing loaded from the network"
like "$(<slow-rank.html)" '<td>3</td><td>[0-9]+</td><td>[0-9]+</td><td class="l"><svg' \
    "the wait vote has a bar per rank"
like "$(<slow-rank.html)" '<th>tp</th><th>ep</th><th>step \(ms\)</th>' \
    "the cluster table has the ep column, as the text has"
like "$(<slow-rank.html)" '<tr><td>3</td><td>0</td><td>3</td><td>0</td><td>0</td><td>0</td><td>109\.000</td>' \
    "rank 3: pp dp cp tp ep, then its step"
browser=$(command -v chromium chromium-browser 2> /dev/null | head -n 1)
if [ -n "$browser" ]; then
	timeout "$MSPROF_T_WAIT_LIMIT" "$browser" --headless --no-sandbox --disable-gpu \
	    --dump-dom "file://$T/slow-link.html" > dom 2> /dev/null
	like "$(<dom)" 'Slow links' "a headless browser renders the page"
else
	skip "no chromium to render the page in"
fi
done_testing
