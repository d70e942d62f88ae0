#!/usr/bin/env bash
# -n shows the table and every launch of the script rewritten by its own
# engine (an MM script its MM rewrite, config copies described, not
# written), and refuses what the run would refuse, with the same status.
. "$(dirname "$0")/lib.sh"
sim_env
cd "$T/mindspeed-mm"
sums() { md5sum mindspeed_mm/tools/tools.json examples/*/*.yaml examples/wan2.1/1.3b/t2v/*.json; }
orig=$(sums)

WAN=examples/wan2.1/1.3b/t2v/pretrain.sh
msprof -n bash "$WAN"
is "$rc" 0 "MM script (wan2.1, --mm-tool): exit 0"
like "$out" "Framework and engine +MindSpeed-MM, Megatron \(tools.json\)" "the table names the MM engine"
like "$out" "would write ./mindspeed_mm/tools/tools.json -> SESSION/[0-9]+_tools.json" \
    "the tools.json copy is described"
like "$out" "^torchrun .* pretrain_sora.py .*--train-iters 20 .*--mm-tool SESSION/[0-9]+_tools.json " \
    "the launch with --mm-tool on the copy and the script's own 20 iterations"
like "$out" "Train iterations +as the script sets: 20" \
    "MM: the default of 100 never lengthens a run: the table says 20 stay"
unlike "$out" "train iterations: " "MM, 20 iterations: no change to say"

# MM's default of 100 iterations shortens a longer run, and says so.
sed 's/--train-iters 20/--train-iters 500/' "$WAN" > wan500.sh
msprof -n bash wan500.sh
like "$out" "Train iterations +500 -> 100" "MM, 500 iterations: the table shows old and new"
has_line "$out" "train iterations: 500 -> 100" "MM, 500 iterations: the dry run too"
like "$out" "^torchrun .* pretrain_sora.py .*--train-iters 100 " "MM, 500 iterations: the launch runs 100"
msprof -n -s 25:27 bash "$WAN"
like "$out" "Train iterations +20 -> 100" "MM: 20 iterations that end before the window: 100"
msprof -n --train-iters 300 bash "$WAN"
like "$out" "Train iterations +20 -> 300" "MM: an explicit --train-iters is set as given"
rm -f wan500.sh
unlike "$out" "--profile-step-start" "no MindSpeed-LLM flags for an MM script"

msprof -n bash examples/qwen3vl/finetune_qwen3vl_8B.sh
is "$rc" 0 "MM YAML script (qwen3vl): exit 0"
like "$out" "would write ./examples/qwen3vl/qwen3vl_full_sft_8B.yaml -> SESSION/[0-9]+_qwen3vl_full_sft_8B.yaml" \
    "qwen3vl: the YAML copy is described"
like "$out" "^torchrun .* pretrain_transformers.py SESSION/[0-9]+_qwen3vl_full_sft_8B.yaml" \
    "qwen3vl: the launch on the YAML copy"

msprof -n bash examples/qwen3_5/finetune_qwen3_5_35B.sh
like "$out" "MindSpeed-MM, FSDP2 \(tools.profile\):" "qwen3_5: the FSDP2 engine"
like "$out" "trainer.py SESSION/[0-9]+_qwen3_5_35B_config.yaml" "qwen3_5: the launch on the YAML copy"
ok "$([ ! -e npu_profiling ] && [ "$(sums)" = "$orig" ]; echo $?)" \
    "dry runs create nothing and change no config file"

# Two launches of different engines in one script: each by its own.
cat > two.sh <<'SH'
torchrun --nproc_per_node 1 pretrain_sora.py --mm-tool ./mindspeed_mm/tools/tools.json
torchrun --nproc_per_node 1 ../mindspeed-llm/pretrain_gpt.py --train-iters 10
SH
msprof -n bash two.sh
like "$out" "launch 1 of 2.*MindSpeed-MM, Megatron \(tools.json\):" "two launches: the first is MM"
like "$out" "launch 2 of 2.*MindSpeed-LLM, Megatron \(mcore\):" "two launches: the second is LLM"
has_line "$out" "torchrun --nproc_per_node 1 ../mindspeed-llm/pretrain_gpt.py --train-iters 10 $DEFAULT_FLAGS" \
    "two launches: the LLM one gets the Megatron flags"

# What the run refuses, -n refuses with the same status.
cd "$T/mindspeed-llm"
QWEN=examples/mcore/qwen3/pretrain_qwen3_8b_4K_ptd.sh
msprof -n --steps 9:12 --force --train-iters 10 bash "$QWEN"
is "$rc" 78 "-n: a window past --train-iters is refused, exit 78"
like "$err" "steps 9 to 12, excluding 12, end after the last training step \(--train-iters 10\)" \
    "-n: the window message"
msprof -y --steps 9:12 --force --train-iters 10 bash "$QWEN"
is "$rc" 78 "the run refuses it with the same status"

sed 's|^CKPT_LOAD_DIR=.*|CKPT_LOAD_DIR="./model_weights/none"|' "$QWEN" > missing.sh
msprof -n bash missing.sh
is "$rc" 66 "-n: a missing input path is refused, exit 66"
like "$err" "--load ./model_weights/none" "-n: the missing path is named"
rm -rf profiling_output
msprof -y bash missing.sh
is "$rc" 66 "the run refuses it with the same status"

cd "$T/mindspeed-mm"
msprof -n torchrun --nproc_per_node 1 pretrain_transformers.py --lr 1
is "$rc" 78 "-n: an MM launch with neither a YAML nor --mm-tool: exit 78"
like "$err" "has neither a YAML config as its first argument nor --mm-tool" "-n: says which is missing"
done_testing
