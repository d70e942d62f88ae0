#!/usr/bin/env bash
# The timeline of the real 2-rank DDP run (t/data/real/msinsight-2025,
# level1 with call stacks): the report says what the host did while the
# device was idle, from the text export's full trace_view.json and from
# the db export alike, and names the user's line that synchronises most
# of rank 0's step: main.py's display (a tensor formatted for printing,
# aten::item), with accuracy's aten::item among the call sites.  Every
# figure is computed from the files by t/helpers/timeline_figures.py
# (Python's json and sqlite3), never taken from the report.
. "$(dirname "$0")/lib.sh"
plan 17

R=$TOP/t/data/real/msinsight-2025
cp -R "$R/text/level1" text
for r in 0 1; do
	xz -dc "$R/timeline/text-level1-rank$r.trace_view.json.xz" \
	    > "text/rank${r}_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json"
done
for r in 0 1; do
	"$PY" "$TOP/t/helpers/timeline_figures.py" trace \
	    "text/rank${r}_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json" \
	    > "fig-text-$r.json"
	"$PY" "$TOP/t/helpers/timeline_figures.py" db \
	    "$R/db/level1/rank${r}_ascend_pt/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_$r.db" \
	    > "fig-db-$r.json"
done

# the report's figures against the files', within 0.01 ms
cmp_py='
import json, sys
rep, kind = json.load(open(sys.argv[1])), sys.argv[2]
idle = rep["summary"]["summaries"]["idle"]
bad = []
for r in idle["ranks"]:
    f = json.load(open("fig-%s-%d.json" % (kind, r["rank"])))
    assert len(f) == r["steps"], (len(f), r["steps"])
    step = sum(s["step_us"] for s in f) / 1e3
    idl = sum(s["idle_us"] for s in f) / 1e3
    for what, got, want in (("step", r["step_ms"], step),
                            ("idle", r["idle_ms"], idl)):
        if abs(got - want) > 0.01:
            bad.append("rank %d %s %.3f, files %.3f" % (r["rank"], what, got, want))
    for c in ("sync", "compile", "dataloader", "gc"):
        for k in ("host", "idle"):
            want = sum(s["causes"].get(c, {}).get(k + "_us", 0) for s in f) / 1e3
            got = r["host"][c][k + "_ms"]
            if abs(got - want) > 0.01:
                bad.append("rank %d %s %s %.3f, files %.3f" % (r["rank"], c, k, got, want))
    sites = {x["where"]: x for x in r["sync_sites"]}
    frames = {}
    for s in f:
        for w, v in s["frames"].items():
            frames[w] = frames.get(w, 0) + v["host_us"] / 1e3
    if set(sites) != set(frames):
        bad.append("rank %d sites %s, files %s" % (r["rank"], sorted(sites), sorted(frames)))
    for w, v in frames.items():
        if w in sites and abs(sites[w]["host_ms"] - v) > 0.01:
            bad.append("rank %d %s %.3f, files %.3f" % (r["rank"], w, sites[w]["host_ms"], v))
# the site that synchronises most of rank 0, as the files say
f0 = json.load(open("fig-%s-0.json" % kind))
top = max(f0[0]["frames"].items(), key=lambda kv: kv[1]["host_us"])
print("top\t%s\t%.1f\t%.1f" % (top[0], top[1]["host_us"] / 1e3, f0[0]["step_us"] / 1e3))
print("\n".join(bad) if bad else "agree")
'

for kind in text db; do
	dir=text
	[ $kind = db ] && dir=$R/db/level1
	"$MSPROF" report --json "$kind.json" "$dir" > "$kind.txt" 2> "$kind.err"
	ok $? "report on the $kind export"
	"$PY" -c "$cmp_py" "$kind.json" $kind > "$kind.cmp" 2>&1
	is "$(sed -n 2p "$kind.cmp")" agree \
	    "$kind: step, idle, causes and call sites as the files say"
	[ "$(sed -n 2p "$kind.cmp")" = agree ] || diag "$(cat "$kind.cmp")"
	top=$(sed -n 1p "$kind.cmp" | cut -f2)
	host=$(sed -n 1p "$kind.cmp" | cut -f3)
	step=$(sed -n 1p "$kind.cmp" | cut -f4)
	like "$top" '^main\.py:485 __str__ < main\.py:511 <listcomp> < main\.py:511 display$' \
	    "$kind: the files' top call site is display's formatting"
	finding=$(grep -F '[host-sync]' "$kind.txt")
	like "$finding" "rank 0: main\\.py:485 __str__ < main\\.py:511 <listcomp> < main\\.py:511 display formats a tensor each step" \
	    "$kind: the finding names main.py's display line"
	like "$finding" "log every N steps, or keep the value on the device" \
	    "$kind: with the remedy in code"
	like "$finding" "synchronisation with the device: $host ms of a $step ms step, rank 0" \
	    "$kind: and its share of the step, as the files give it"
	like "$(cat "$kind.txt")" 'main\.py:537 accuracy < main\.py:358 train' \
	    "$kind: accuracy's aten::item is among the call sites"
	"$PY" -c '
import json, sys
i = json.load(open(sys.argv[1]))["summary"]["summaries"]["idle"]
r0 = [r for r in i["ranks"] if r["rank"] == 0][0]
c = i["by_cause"]["sync"]
# the largest cause of rank 0 is the synchronisation, most of its step
assert max(r0["host"], key=lambda k: r0["host"][k]["host_ms"]) == "sync"
assert r0["host"]["sync"]["share"] > 0.5, r0["host"]["sync"]
assert c["rank_most"] == 0 and c["share_most"] > 0.5, c
assert r0["stacks"] is True
' "$kind.json"
	ok $? "$kind: synchronisation is most of rank 0's step, and the most of any rank"
done

# no stacks: the finding says which option collects them
sed 's/"Call stack": "[^"]*"/"Call stack": ""/g' \
    text/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json > t.json &&
    mv t.json text/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json
sed 's/"Call stack": "[^"]*"/"Call stack": ""/g' \
    text/rank1_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json > t.json &&
    mv t.json text/rank1_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json
"$MSPROF" report text > nostack.txt 2>&1
like "$(grep -A2 -F '[host-sync]' nostack.txt)" 'no call stacks: collect them with msprof-exec --with stack' \
    "without stacks: --with stack named"
done_testing
