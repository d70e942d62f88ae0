#!/usr/bin/env bash
# msprof-exec compare BASE NEW over runs of the simulated machine: two
# runs that differ only in the jitter's seed name nothing; each planted
# change (host-bound, a hot operator, a slow rank, a longer step) is
# named, in the right direction; ranks in one run only come as ranges;
# session directories are runs too (two runs into one output directory),
# whose settings that differ (a variable, two flags) are named and no
# others, and whose folder's report names this run's own rank directories;
# the certainty (the noise measured, or one step a run a guess); --json
# and --html; missing or empty inputs and usage errors exit 66, 65 and 64.
. "$(dirname "$0")/lib.sh"
pyq_start

GEN=$TOP/sim/gen-cluster
# gen NAME [gen-cluster options]: 4 ranks (unless told), small kernel files.
gen() {
	local d=$1
	shift
	MSPROF_SIM_KERNELS_PER_STEP=${MSPROF_SIM_KERNELS_PER_STEP:-16} \
	    "$PY" "$GEN" -j 1 --ranks 4 "$@" "$d" > /dev/null ||
	    { echo "Bail out! gen-cluster $d failed"; exit 1; }
}
# compare BASE NEW [options]: sets $out, $err, $rc.
compare() {
	"$MSPROF" compare "$@" > "$T/.out" 2> "$T/.err"
	rc=$?
	out=$(<"$T/.out")
	err=$(<"$T/.err")
}
# The Result line of the last compare, without its label.
result() {
	local l
	while IFS= read -r l; do
		[[ $l == "Result: "* ]] && printf '%s\n' "${l#Result: }"
	done <<< "$out"
	return 0
}

MSPROF_SIM_SEED=1 gen base
MSPROF_SIM_SEED=2 gen same
MSPROF_SIM_SEED=3 MSPROF_SIM_HOST_BOUND=1 gen hostbound
MSPROF_SIM_SEED=4 MSPROF_SIM_HOT_OP=MatMulV2 gen hotop
MSPROF_SIM_SEED=5 MSPROF_SIM_SLOW_RANK=2 gen slowrank
MSPROF_SIM_SEED=6 gen longstep --step-ms 250
MSPROF_SIM_SEED=7 gen eight --ranks 8
MSPROF_SIM_SEED=8 gen tp2 --tp 2

# --- Equal runs: nothing named, the margin stated -----------------------------
compare base same
is "$rc" 0 "equal runs: exit 0"
like "$(result)" '^no significant change: the step is [+-]0\.0 % .*within the noise margin of 2\.0 %$' \
    "equal runs (seeds 1 and 2): no significant change, with the margin"
like "$out" 'noise margin: 2\.0 % of the base step \([0-9.]+ ms\): the floor' \
    "the margin and where it comes from"
like "$out" 'no operator type changed beyond the margin' "no operator type named"
like "$out" 'all 4 ranks changed alike' "no rank named"
unlike "$out" 'longer|shorter|slower|faster|added|removed|unlike the others,' \
    "no change word anywhere"
like "$out" 'certainty: the noise measured: step-to-step variation [0-9.]+ % in base \(4 ranks with two steps or more\), [0-9.]+ % in new \(4\)' \
    "two steps a rank: the noise measured in both, said"

# One step a rank: the margin is a guess, said with the result itself.
MSPROF_SIM_SEED=9 gen one1 --steps 1
MSPROF_SIM_SEED=10 gen one2 --steps 1 --step-ms 205
compare --json one.json --html one.html one1 one2
like "$(result)" '; one step per run: the margin is a guess$' \
    "one step per run: the result says its margin is a guess"
like "$out" 'certainty: one step per run: the margin is a guess \(the floor' \
    "... and the certainty line why"
is "$(pyq -c 'import json, sys
j = json.load(open(sys.argv[1]))
print(j["noise_margin"]["certainty"], j["certainty"].startswith("one step per run: the margin is a guess"), j["result"].endswith("the margin is a guess"))' one.json)" \
    "guess True True" "--json: the certainty, a field"
like "$(<one.html)" 'Certainty: one step per run: the margin is a guess' "--html: the certainty"
compare base one2
like "$(result)" '; the noise measured in base only$' "one run of one step: the noise measured in the other only"

# --- Planted changes: named, in the right direction --------------------------
compare base hostbound
like "$(result)" '^the step is [0-9.]+ % longer in new .*free \+[0-9.]+ ms' \
    "host-bound: a longer step, free named"
like "$out" '  free  +[0-9.]+ +[0-9.]+ +\+[0-9.]+ .*longer' "free: longer"
compare hostbound base
like "$(result)" '^the step is [0-9.]+ % shorter in new .*free -[0-9.]+ ms' \
    "the other way round: shorter, free -"

# On a terminal: colours (a shorter step in green); not when redirected.
screen=$(unset NO_COLOR; ptyrun -- "$MSPROF" compare hostbound base)
like "$screen" $'Result: \e\\[32mthe step is [0-9.]+ % shorter' \
    "on a terminal: a shorter step in green"
screen=$(unset NO_COLOR; ptyrun -- "$MSPROF" compare base hotop)
like "$screen" $'\e\\[31mslower' "... a slower operator in red"
compare hostbound base
unlike "$out" $'\e' "redirected: no colour"
NO_COLOR=1 ptyrun -- "$MSPROF" compare hostbound base > nocolour
unlike "$(<nocolour)" $'\e\\[' "NO_COLOR: no colour on a terminal either"

compare base hotop
like "$(result)" 'the step did not change beyond the noise margin .*operator types did' \
    "a hot operator: the step is the same, operator types changed"
like "$out" '  slower .* AI_CORE +MatMulV2' "MatMulV2 slower"
like "$out" '  faster .* BatchMatMulV2' "the others faster"

compare base slowrank
like "$(result)" 'rank 2 changed unlike the others' "a slow rank: the result names rank 2"
like "$out" '    rank 2 +step .* compute \+[0-9.]+ ms' "rank 2: its compute"
like "$out" 'the other 3 ranks: step \+' "the other 3 ranks in one line"
compare slowrank base
like "$out" '    rank 2 +step .* compute -[0-9.]+ ms' "the other way round: rank 2 computes less"

# A run without step data: the operators per rank, against a margin of them.
cp -R hotop hotop-nosteps
rm hotop-nosteps/*/ASCEND_PROFILER_OUTPUT/step_trace_time.csv
compare base hotop-nosteps
like "$(result)" '^[0-9]+ operator types changed beyond the noise margin \(the steps are not compared\)' \
    "no step data in new: the operator types still compared"
like "$out" 'noise margin: 2\.0 % of the base operator time per rank \([1-9][0-9.]* ms\)' \
    "... against a margin of the operator time"
like "$out" '  slower .* AI_CORE +MatMulV2' "... MatMulV2 slower"
like "$out" 'not compared: new has no step data \(no step_trace_time\.csv' \
    "the steps not compared, and why"

compare base longstep
like "$(result)" '^the step is 2[0-9]\.[0-9] % longer in new .*compute \+' \
    "MSPROF_SIM_STEP_MS 250 against 200: a longer step, compute named"
like "$out" '  slower .*MatMulV2' "operators slower"

# --- Ranks in one run only: ranges --------------------------------------------
compare base eight
like "$out" 'only in new: 4-7' "ranks 4-7 only in new, as a range"
like "$out" '4 in both runs with step data: 0-3' "ranks 0-3 in both"
unlike "$out" 'caveat: the parallel layouts' "dp 8 against dp 4: a rank holds the same part of the model, no caveat of the layouts"
like "$out" 'caveat: the runs hold different ranks: the means are over the 4 ranks with step data in both' \
    "... but one that the means are over the ranks in both alone"
compare eight base
like "$out" 'only in base: 4-7' "the other way round: only in base"
compare base tp2
like "$out" 'caveat: the parallel layouts differ \(base tp 1, pp 1, dp 4, cp 1, ep 1; new tp 2, pp 1, dp 2, cp 1, ep 1\)' \
    "tp 2 against tp 1: a caveat"

# --- --json and --html --------------------------------------------------------
compare --json c.json --html c.html base slowrank
is "$rc" 0 "--json and --html: exit 0"
is "$(pyq - c.json <<'EOF'
import json, sys
j = json.load(open(sys.argv[1]))
r = j["ranks"]
ops = j["operators"]
print(j["version"], j["changed"], j["noise_margin"]["share"],
      j["runs"]["base"]["path"], j["runs"]["new"]["path"],
      j["steps"]["compared"], [f["figure"] for f in j["steps"]["figures"]],
      ops["compared"], ops["per"], len(ops["types"]) > 0,
      sorted(ops["types"][0]) == sorted(["type", "core", "base_core",
          "new_core", "moved", "change", "base_us", "new_us", "change_us",
          "base_calls", "new_calls", "significant"]),
      r["both"], r["only_base"], r["only_new"], r["unlike"], len(r["per_rank"]))
EOF
)" "1 True 0.02 base slowrank True ['step', 'computing', 'communication_not_overlapped', 'free', 'bubble'] True rank and step True True [0, 1, 2, 3] [] [] [2] 4" \
    "--json: the margin, the runs, the figures, the operators, every rank"
if command -v xmllint > /dev/null; then
	xmllint --noout c.html 2> xerr
	ok $? "--html: the page is well-formed XML (xmllint)"
else
	skip "xmllint not installed (libxml2-utils)"
fi
like "$(tr '\n' ' ' < c.html)" '<svg .*<rect .*base.*new' "--html: bars of both runs in SVG"
like "$(<c.html)" 'rank 2 changed unlike the others' "--html: the result"
unlike "$(<c.html)" '<script|src="http|href="http' "--html: nothing loaded from the network"
compare --json /nonexistent/c.json base same
is "$rc" 73 "--json where it cannot be written: exit 73"
is "$out" "" "... before anything is compared"

# --- Session directories: two runs into one output directory -----------------
sim_env
cd "$T/mindspeed-llm" || exit 1
QWEN=examples/mcore/qwen3/pretrain_qwen3_8b_4K_ptd.sh
# Each run saves its checkpoints in a directory named after its time: a
# value that differs by itself, never named.
sed 's|^CKPT_SAVE_DIR=.*|CKPT_SAVE_DIR="./ckpt/qwen3-$(date +%Y%m%d-%H%M%S%N)"|' \
    "$QWEN" > qwen-v1.sh
"$MSPROF" -y -q --skip-checks -r all bash qwen-v1.sh > run1.out 2>&1
first=$(ls -d profiling_output/msprof-exec_*)
# The second run: one flag changed (--lr), one removed, one variable set
# that the first did not have; a port of its own (volatile: not named).
sed -e 's/--lr 1.25e-6/--lr 2.5e-6/' -e '/--use-flash-attn/d' \
    qwen-v1.sh > qwen-v2.sh
MSPROF_SIM_HOST_BOUND=1 HCCL_BUFFSIZE=400 MASTER_PORT=$(free_port) \
    "$MSPROF" -y --skip-checks -r all bash qwen-v2.sh > run2.out 2>&1
second=$(ls -d profiling_output/msprof-exec_* | grep -vx "$first")
compare --json sessions.json --html sessions.html "$first" "$second"
is "$rc" 0 "two sessions of one output directory: exit 0"
like "$out" "base +$first: 2 ranks \(0-1\)" "the base session's own two ranks"
like "$(result)" '^the step is [0-9.]+ % longer in new .*free \+' \
    "the second session (host-bound) against the first: free, longer"
unlike "$(result)" 'a guess|measured in' "... two steps a rank in each: no word of a guess"
like "$out" 'certainty: the noise measured: step-to-step variation [0-9.]+ % in base \(2 ranks with two steps or more\), [0-9.]+ % in new \(2\)' \
    "... the noise measured in both, said"
is "$(printf '%s\n' "$out" | sed -n '/settings that differ/,/^$/p' | sed -n 's/^    //p' | sort)" \
"environment HCCL_BUFFSIZE: not set -> 400
flag --lr: 1.25e-6 -> 2.5e-6
flag --use-flash-attn: given -> not given" \
    "the settings that differ: exactly the variable and the flags changed (not the port, nor the save directory named after the time)"
if command -v xmllint > /dev/null; then
	xmllint --noout sessions.html 2> xerr
	ok $? "--html with the settings: well-formed XML (xmllint)"
else
	skip "xmllint not installed (libxml2-utils)"
fi
is "$(pyq -c 'import json, sys
s = json.load(open(sys.argv[1]))["settings"]
print(s["known"], sorted((d["kind"], d["name"], d["base"], d["new"]) for d in s["differ"]))' sessions.json)" \
    "True [('environment', 'HCCL_BUFFSIZE', None, '400'), ('flag', '--lr', '1.25e-6', '2.5e-6'), ('flag', '--use-flash-attn', '', None)]" \
    "--json: the same settings, absent as null"
like "$(tr '\n' ' ' < sessions.html)" '<td class="l">environment</td><td class="l">HCCL_BUFFSIZE</td><td class="l">not set</td><td class="l">400</td>' \
    "--html: the same settings in a table"
compare "$second" "$second"
like "$out" 'settings: the launches.* are the same' "one session twice: no setting differs"
compare "$first" "$T/base"
like "$out" "settings: not known \(no session\): new $T/base was not run under msprof-exec" \
    "a run without a session: its settings not known, said"
compare profiling_output profiling_output
like "$out" 'caveat: base and new are the same rank directories: .*session directories' \
    "one output directory twice: the caveat says to give the sessions"
"$MSPROF" report "$first" > rep.out 2>&1
# A report of the folder both runs wrote: not "open profiling_output"
# (MindStudio Insight would load both), but the newest run's own rank
# directories, linked into a folder of their own.
"$MSPROF" report profiling_output > rep2.out 2>&1
next=$(sed -n 's/^Next: //p' rep2.out)
unlike "$next" '^open [^ ]*profiling_output in MindStudio Insight' \
    "report of a folder of two runs: not 'open profiling_output'"
like "$next" '^[^ ]*/profiling_output holds 4 rank directories, 2 of them this run.s, and MindStudio Insight would load them all: .*mkdir [^ ]*/profiling_output-run-[0-9]{17} && ln -s ' \
    "... but why, and a folder of this run's own"
newest=$(ls -d profiling_output/*_ascend_pt | sort -t_ -k3 | tail -2 | xargs -n1 realpath | sort | tr '\n' ' ')
is "$(printf '%s\n' "$next" | sed 's/.*ln -s //; s/ [^ ]*\/$//' | tr ' ' '\n' | sort | tr '\n' ' ')" "$newest" \
    "... linking exactly the newest run's two rank directories"
like "$(sed -n 's/^Next: //p' run2.out)" 'holds 4 rank directories, 2 of them this run.s' \
    "the second run's own report says so too"
like "$(sed -n '/^Step breakdown per rank/,/^$/p' rep.out)" 'rank 0 ' \
    "report SESSION: the summary of the rank directories its launches made"
cd "$T" || exit 1

# --- Errors -------------------------------------------------------------------
compare nowhere base
is "$rc" 66 "a missing BASE: exit 66"
like "$err" '^msprof-exec: nowhere: no such directory' "... naming it"
compare base /etc/passwd
is "$rc" 66 "NEW a file: exit 66"
like "$err" '/etc/passwd: not a directory' "... naming it"
mkdir empty
compare base empty
is "$rc" 65 "a directory with no rank directory: exit 65"
like "$err" 'empty: no rank data: no \*_ascend_pt directory under it' \
    "... naming it and what was looked for"
mkdir -p raw/h_1_20261202120000000_ascend_pt/FRAMEWORK
echo '{}' > raw/h_1_20261202120000000_ascend_pt/profiler_info_0.json
compare raw base
is "$rc" 65 "rank directories without step or operator data: exit 65"
like "$err" 'raw: no rank data: none of its \*_ascend_pt directories \(1\) has step data .*step_trace_time\.csv.*kernel_details\.csv' \
    "... naming the files looked for"
compare base
is "$rc" 64 "one run: exit 64"
like "$err" 'usage: msprof-exec compare ' "... with the usage"
compare base same eight
is "$rc" 64 "three runs: exit 64"
compare --top 3 base same
is "$rc" 64 "an unknown option: exit 64"
"$MSPROF" compare --help > help.out
is "$?:$(<help.out)" "0:usage: msprof-exec compare [--json FILE] [--html FILE] BASE NEW" "--help"
like "$("$MSPROF" -h)" 'msprof-exec compare \[--json FILE\] \[--html FILE\] BASE NEW' \
    "msprof-exec -h lists compare"
"$MSPROF" compar base same > /dev/null 2> typo.err
like "$?:$(<typo.err)" "^64:.*did you mean 'msprof-exec compare'" "a typo: did you mean compare"
# --- Real output of two generations (torch_npu 2024 and 2025, level1) ---------
R="$TOP/t/data/real"
cores() {	# the cores TransData ran on in a run, from its kernel_details.csv
	pyq -c 'import csv, glob, sys
print(sorted({r["Accelerator Core"] for f in glob.glob(sys.argv[1] + "/*/ASCEND_PROFILER_OUTPUT/kernel_details.csv")
    for r in csv.DictReader(open(f)) if r["Type"] == "TransData"}))' "$1"
}
is "$(cores "$R/msinsight-2024/text/level1") $(cores "$R/msinsight-2025/text/level1")" \
    "['AI_CORE'] ['AI_VECTOR_CORE']" "the files: TransData on AI_CORE in 2024, on AI_VECTOR_CORE in 2025"
compare --json gen.json --html gen.html "$R/msinsight-2024/text/level1" "$R/msinsight-2025/text/level1"
is "$rc" 0 "2024 against 2025: exit 0"
unlike "$out" "only in (base|new), below the margin: .*TransData" \
    "TransData is not said to be in one run only"
like "$out" "on other cores in new: .*TransData \(AI_CORE (→|->) AI_VECTOR_CORE\)" \
    "... it is said to have moved from AI_CORE to AI_VECTOR_CORE"
is "$(pyq -c 'import json, sys
t = [o for o in json.load(open(sys.argv[1]))["operators"]["types"] if o["type"] == "TransData"]
print(len(t), t[0]["base_core"], t[0]["new_core"], t[0]["moved"], t[0]["base_calls"] > 0 and t[0]["new_calls"] > 0)' gen.json)" \
    "1 AI_CORE AI_VECTOR_CORE True True" "--json: TransData one type, in both runs, moved"
# The labels: the words of the text in the JSON and the page, and none
# of them "faster" or "slower" for a change within the margin.
pyq - gen.json gen.html "$T/.out" > labels.txt <<'EOF'
import json, re, sys
j = json.load(open(sys.argv[1]))
ops = j["operators"]
words = {o["type"]: o["change"].replace("_", " ") for o in ops["types"]}
bad = [o["type"] for o in ops["types"] if not o["significant"] and
       o["change"] in ("slower", "faster")]
bad += [o["type"] for o in ops["types"] if o["change"] == "slower" and o["change_us"] <= 0]
bad += [o["type"] for o in ops["types"] if o["change"] == "faster" and o["change_us"] >= 0]
page = open(sys.argv[2]).read()
rows = re.findall(r'<tr><td class="l">([a-z ]+)</td><td class="l">([^<]+)</td>', page)
bad += [t for w, t in rows if words.get(t) != w]
text = open(sys.argv[3]).read().split("Operator types")[1].split("\n\n")[0]
lines = re.findall(r"^  (slower|faster|added|removed) .* (\S+)$", text, re.M)
bad += [t for w, t in lines if words.get(t) != w]
print(len(rows) > 0, len(lines) > 0, bad)
EOF
is "$(<labels.txt)" "True True []" \
    "the change of each operator type is the same word in the text, --json and --html"
# Different ranks: only rank 0 in new; the means are rank 0's in both.
mkdir one && cp -R "$R/msinsight-2025/text/level1/rank0_ascend_pt" one/
compare --json one.json "$R/msinsight-2024/text/level1" one
want=$(pyq -c 'import csv, sys
def step(p):
    r = next(csv.DictReader(open(p + "/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/step_trace_time.csv")))
    return sum(float(r[k]) for k in ("Computing", "Communication(Not Overlapped)", "Free"))
print("%.3f %.3f" % (step(sys.argv[1]), step(sys.argv[2])))' "$R/msinsight-2024/text/level1" "$R/msinsight-2025/text/level1")
is "$(pyq -c 'import json, sys
s = json.load(open(sys.argv[1]))["steps"]["figures"][0]
print("%.3f %.3f" % (s["base_us"], s["new_us"]))' one.json)" "$want" \
    "rank 0 alone in new: both means are rank 0's step (from step_trace_time.csv)"
like "$out" "caveat: the runs hold different ranks: the means are over the 1 ranks with step data in both" \
    "... said in a caveat"
like "$out" "only in base: 1" "... and rank 1 named as in base only"
# Two ranks: neither is "unlike the others".
compare "$R/msinsight-2024/text/level1" "$R/msinsight-2025/text/level1"
unlike "$out" "unlike the others, beyond the margin" "two ranks: no rank named unlike the others"
like "$out" "the two ranks in both \(too few to tell one unlike the others\)" "... and why"
# A folder of several runs: which one is compared, and the others named.
compare "$R/msinsight-2024" "$R/msinsight-2025/text/level1"
like "$out" "caveat: base [^ ]*msinsight-2024 holds 3 runs .*compared is [^ ]*msinsight-2024/db/level1 .*msinsight-2024/text/level0, [^ ]*msinsight-2024/text/level1" \
    "base holding three runs: the one compared and the others, by path"

done_testing
