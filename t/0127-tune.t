#!/usr/bin/env bash
# msprof-exec tune: a baseline run, then one run per advised setting the
# launch lacks, each compared with the baseline against the noise margin.
# On the simulated machine answering its settings (MSPROF_SIM_RESPOND) the
# settings that help are kept, a planted no-op (MSPROF_SIM_NOOP) and a
# planted regression (MSPROF_SIM_SLOWER) are dropped, a flag this
# version of the simulated Megatron does not know (MSPROF_SIM_REJECT)
# fails without stopping the others, a setting the training refuses
# without another is tried with it, and an interrupt ends the current try
# and still prints the table.
. "$(dirname "$0")/lib.sh"
sim_env
# `python` (the llama2 example's python -m torch.distributed.launch) as
# python3, which t/lib.sh makes Debian's: a version manager's `python`
# shim first on PATH runs a dozen programs at each start.
PATH=$SIM_ROOT/python-alias:$PATH
cd "$T/mindspeed-llm" || exit 1
mkdir -p logs
LLAMA=examples/mcore/llama2/pretrain_llama2_7b_ptd.sh
export MSPROF_SIM_RESPOND=1 MSPROF_SIM_STEP_MS=5

# The row of SETTING in the table of FILE.
row() { grep -E "^  $(printf '%s' "$2" | sed 's/[.[\*^$()+]/\\&/g') " "$1"; }
# at_iteration_1 FILE: FILE has Megatron's "iteration 1/" line, read by
# the shell itself (wait_for looks 50 times a second: a grep each is CPU).
at_iteration_1() {
	local line

	[ -r "$1" ] || return 1
	while IFS= read -r line || [ -n "$line" ]; do
		[[ $line =~ iteration\ *1/ ]] && return 0
	done < "$1"
	return 1
}

MSPROF_SIM_NOOP=--use-fused-rotary-pos-emb MSPROF_SIM_SLOWER=CPU_AFFINITY_CONF \
    MSPROF_SIM_REJECT=--swap-attention \
    "$MSPROF" tune -y --skip-checks -r all -o tuned --json tune.json \
    --tries 5 --set --swap-attention bash "$LLAMA" > out 2> err
is "$?" 0 "tune: exit 0"
like "$(cat err)" "baseline: running the command \(output tuned/00-baseline\)" \
    "progress: the baseline run"
like "$(cat err)" "try 2/5: TASK_QUEUE_ENABLE=2: step [0-9.]+ -> [0-9.]+ ms" \
    "progress: each try as it ends, with its step before and after"
like "$(cat err)" "not tried: --use-distributed-optimizer \(it changes the numerics or the checkpoints" \
    "a setting not marked safe to try is named, not tried"
like "$(row out TASK_QUEUE_ENABLE=2)" "-1[0-9]\.[0-9] %.*kept" \
    "TASK_QUEUE_ENABLE=2 cuts Free: kept"
like "$(row out --overlap-grad-reduce)" "-1[0-9]\.[0-9] %.*kept" \
    "--overlap-grad-reduce hides the gradient reduce: kept"
like "$(row out CPU_AFFINITY_CONF=1)" "dropped: slower" \
    "the planted regression: dropped, slower"
like "$(row out --use-fused-rotary-pos-emb)" "dropped: within the noise" \
    "the planted no-op: dropped, within the noise"
like "$(row out --swap-attention)" "failed: pretrain_gpt.py: error: unrecognized arguments: --swap-attention" \
    "a flag this version does not know: failed, with argparse's reason"
unlike "$(cat out err)" "use-fused-swiglu" \
    "--use-fused-swiglu, which MindSpeed reads nowhere, is neither advised nor tried"
like "$(cat err)" "not tried: --overlap-param-gather \(the training refuses it without --use-distributed-optimizer, which tune does not try unasked" \
    "a setting the training refuses without an unsafe one: not tried, and why"
like "$(grep -A1 -E '^  TASK_QUEUE_ENABLE=2 ' out | tail -1)" "free [0-9.]+ -> [0-9.]+" \
    "the step's parts before and after under each row"
like "$(row out 'together (2 settings)')" "kept" \
    "the two that helped, run together"
is "$(grep -A1 'settings that helped' out | tail -1)" \
    "  msprof-exec -y --skip-checks -r all --set TASK_QUEUE_ENABLE=2 --set --overlap-grad-reduce bash $LLAMA" \
    "the command line with the settings that helped: the user's options kept (-y, --skip-checks, -r all), tune's own not"
is "$(ls tuned | tr '\n' ' ')" \
    "00-baseline 01-swap-attention 02-TASK_QUEUE_ENABLE-2 03-CPU_AFFINITY_CONF-1 04-overlap-grad-reduce 05-use-fused-rotary-pos-emb 06-together " \
    "each run in its own folder under -o"
is "$("$PY" -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(" ".join(d["kept"]), "|", " ".join(t["outcome"] for t in d["tries"]), "|", d["together"]["kept"])' tune.json)" \
    "TASK_QUEUE_ENABLE=2 --overlap-grad-reduce | failed compared compared compared compared | True" \
    "--json: what was kept, each try's outcome, the run together"
ok "$(ls -d tuned/04-overlap-grad-reduce/msprof-exec_* > /dev/null; echo $?)" \
    "a try is an ordinary run: its session in its folder"

# --tries is capped (each try is a whole run): past the cap, a usage error
"$MSPROF" tune -y --skip-checks -o capped --tries 1001 bash "$LLAMA" > out 2> err
is "$?:$(ls -d capped 2>/dev/null)" "64:" "--tries 1001: a usage error (64), nothing run"
like "$(cat err)" "--tries '1001': give a whole number from 0 to 1000" "... saying the bound"

# --tries 0 over an earlier baseline: what would be tried, nothing run.
"$MSPROF" tune -y --skip-checks -r all -o plan --tries 0 \
    --baseline tuned/00-baseline --set --swap-attention \
    bash "$LLAMA" > out 2> err
is "$?:$(head -3 out | tr '\n' ' ')" \
    "0:would try: --swap-attention would try: TASK_QUEUE_ENABLE=2 would try: CPU_AFFINITY_CONF=1 " \
    "--tries 0: the user's --set first, then the advice by promise; nothing run"
unlike "$(cat out)" "Tried settings" "--tries 0: no table of tries (none was run), not an empty header"

# A setting the training refuses without another: tried with what it
# needs, the user's value of one named with --set, the table's of a safe
# one (the baseline lacks both).
"$MSPROF" tune -y --skip-checks -r all -o plan2 --tries 0 \
    --baseline tuned/00-baseline --set --use-distributed-optimizer \
    bash "$LLAMA" > out 2> err
like "$(cat out)" "would try: --overlap-param-gather with --use-distributed-optimizer, --overlap-grad-reduce" \
    "--overlap-param-gather: tried with the distributed optimizer named and the safe --overlap-grad-reduce"

# A no-op whose run happens to be a little faster (the seed of its noise):
# a gain within the noise margin is no gain, not kept.
MSPROF_SIM_SEED=4 MSPROF_SIM_NOOP=--use-fused-rotary-pos-emb "$MSPROF" tune -y \
    --skip-checks -r all -o noise --tries 1 --baseline tuned/00-baseline \
    --set --use-fused-rotary-pos-emb bash "$LLAMA" > out 2> err
like "$(row out --use-fused-rotary-pos-emb)" " -0\.[0-9] % +[0-9.]+ % +dropped: within the noise" \
    "a no-op a little faster by chance: dropped, within the noise"
unlike "$(cat out)" "settings that helped" "... and no command with it"

# An interrupt during a try: that try ends, the table is still printed.
export MSPROF_SIM_STEP_MS=400
"$MSPROF" tune -y --skip-checks -r all -o stopped --tries 2 \
    --baseline tuned/00-baseline bash "$LLAMA" > out 2> err &
pid=$!
wait_for "the first try's training" at_iteration_1 \
    stopped/01-TASK_QUEUE_ENABLE-2/msprof-exec.txt
kill -INT "$pid"
wait "$pid"
rc=$?
is "$rc" 130 "interrupted: ends by SIGINT, as the job did"
like "$(row out TASK_QUEUE_ENABLE=2)" "interrupted" \
    "the table of the tries done is printed, the current one interrupted"
unlike "$(cat err)" "try 2/2: CPU_AFFINITY_CONF=1 \(output" \
    "no try after the interrupt"

# SIGTERM during the baseline: the result so far on stdout and in --json.
"$MSPROF" tune -y --skip-checks -r all -o cutshort --tries 2 \
    --json cut.json bash "$LLAMA" > out 2> err &
pid=$!
wait_for "the baseline's training" at_iteration_1 \
    cutshort/00-baseline/msprof-exec.txt
kill -TERM "$pid"
wait "$pid"
is "$?" 143 "SIGTERM during the baseline: ends by SIGTERM"
like "$(cat out)" "Interrupted during the baseline run: no setting was tried" \
    "... and says so on stdout"
like "$(cat out)" "the baseline's output: cutshort/00-baseline" "... naming its output"
is "$("$PY" -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(d["interrupted"], d["baseline_done"], d["tries"], d["kept"], d["baseline"])' cut.json)" \
    "True False [] [] cutshort/00-baseline" \
    "... and writes --json: interrupted, no baseline, nothing tried"

# Ctrl-C at a terminal reaches the run by itself (the same process
# group): tune does not send it twice, and ends the same way.
ptyrun --after tty/01-TASK_QUEUE_ENABLE-2/msprof-exec.txt --type '\x03' -- \
    "$MSPROF" tune -y --skip-checks -r all -o tty --tries 2 \
    --baseline tuned/00-baseline bash "$LLAMA" > screen 2>&1
like "$(tail -1 screen)" "^status -2$" "Ctrl-C at a terminal: ends by SIGINT"
like "$(cat screen)" "TASK_QUEUE_ENABLE=2 +interrupted" \
    "... after the table, the try interrupted"
like "$(cat screen)" "Interrupted: the current try was ended and no other started" \
    "... and says so"

# The simulated machine answers virtual pipeline stages: with pp 2 and 32
# layers, 4 layers a virtual stage make 4 chunks and a quarter of the
# bubble; the log's step time and throughput say it as the profile would.
step_run() {
	MSPROF_SIM_STEP_MS=5 TASK_QUEUE_ENABLE=2 torchrun --nproc_per_node 2 \
	    --master_port "$MASTER_PORT" pretrain_gpt.py --num-layers 32 \
	    --hidden-size 4096 --num-attention-heads 32 --seq-length 4096 \
	    --pipeline-model-parallel-size 2 --global-batch-size 8 \
	    --train-iters 3 --log-interval 1 --log-throughput --use-flash-attn \
	    --use-fused-rmsnorm --use-fused-rotary-pos-emb --swiglu \
	    "$@" 2>&1 | grep 'iteration  *3/' |
	    sed -E 's/.*per iteration \(ms\): ([0-9.]+).*TFLOP\/s\/GPU\): ([0-9.]+).*/\1 \2/'
}
vpp_run() { step_run --use-fused-swiglu "$@"; }
read -r plain_ms plain_tf <<< "$(vpp_run)"
read -r vpp_ms vpp_tf <<< "$(vpp_run --num-layers-per-virtual-pipeline-stage 4)"
ok "$(awk -v a="$plain_ms" -v b="$vpp_ms" 'BEGIN { exit !(b < 0.85 * a && b > 0) }'; echo $?)" \
    "virtual pipeline stages cut the step ($plain_ms -> $vpp_ms ms)"
ok "$(awk -v a="$plain_tf" -v b="$vpp_tf" 'BEGIN { exit !(b > a && a > 0) }'; echo $?)" \
    "... and the throughput line rises with it ($plain_tf -> $vpp_tf TFLOP/s)"

# SwiGLU as MindSpeed runs it: fused unless --no-bias-swiglu-fusion, and
# --use-fused-swiglu, which nothing reads, changes nothing.
read -r bare_ms _ <<< "$(step_run)"
read -r unfused_ms _ <<< "$(step_run --no-bias-swiglu-fusion)"
is "$bare_ms" "$plain_ms" \
    "--use-fused-swiglu is not answered: the same step without it"
ok "$(awk -v a="$bare_ms" -v b="$unfused_ms" 'BEGIN { exit !(b > 1.02 * a && a > 0) }'; echo $?)" \
    "--no-bias-swiglu-fusion unfuses SwiGLU: a longer step ($bare_ms -> $unfused_ms ms)"

# A setting without what it needs stops the launch with the message
# MindSpeed or Megatron gives: tune's needs are the real stack's.
refusal() {
	MSPROF_SIM_STEP_MS=5 torchrun --nproc_per_node 2 \
	    --master_port "$MASTER_PORT" pretrain_gpt.py --num-layers 32 \
	    --hidden-size 4096 --num-attention-heads 32 --seq-length 4096 \
	    --train-iters 1 "$@" 2>&1 | grep -m1 -oE '(Assertion|Value)Error: .*' |
	    # the two ranks write their tracebacks at once: the other's may
	    # go on the same line
	    sed 's/Traceback (most recent call last):$//'
}
is "$(refusal --reuse-fp32-param)" \
    "AssertionError: reuse_fp32_param requires bf16." \
    "--reuse-fp32-param without --bf16: refused, as MindSpeed refuses it"
is "$(refusal --moe-alltoall-overlap-comm --expert-model-parallel-size 2)" \
    "AssertionError: \`--moe-alltoall-overlap-comm\` only support with \`--moe-token-dispatcher-type alltoall\` or \`--moe-token-dispatcher-type alltoall_seq\`." \
    "--moe-alltoall-overlap-comm with the default dispatcher: refused"
like "$(refusal --moe-alltoall-overlap-comm --expert-model-parallel-size 2 \
    --moe-token-dispatcher-type alltoall)" "only support with .--moe-grouped-gemm.\\.$" \
    "... with alltoall but no --moe-grouped-gemm: refused"
is "$(refusal --recompute-granularity full --recompute-method uniform)" \
    "ValueError: When using recompute_granularity: full recompute_num_layers must be between 1 and num_layers_per_pipeline_rank: 32" \
    "full recompute without --recompute-num-layers: refused, as Megatron's TransformerConfig refuses it"

# Usage errors are a profiled run's: exit 64 before anything runs.
"$MSPROF" tune -y --tries x bash "$LLAMA" > out 2> err
is "$?" 64 "--tries x: usage error"
"$MSPROF" tune -y --steps 4:2 bash "$LLAMA" > out 2> err
is "$?" 64 "a bad option of the run: usage error before any run"

"$MSPROF" tune -y --html page.html bash "$LLAMA" > out 2> err
is "$?:$(cat err)" "64:msprof-exec: --html is not an option of tune: each run writes its log and report in its own folder under -o (msprof-exec.txt, report.json)" \
    "--html, which every run would write in turn: refused, with where each run's report is"
"$MSPROF" tune -y -o tuned bash "$LLAMA" > out 2> err
is "$?" 73 "-o a folder that is not empty: refused (73), the tries' data must not mix"

done_testing
