#!/usr/bin/env bash
# --set NAME[=VALUE]: a flag, an environment variable or a YAML key of the
# training reaches the profiled launch (its command line, its environment,
# the engine's config copy) and nothing else: the launch left alone and
# the user's files are as they were.  Names the settings table knows are
# checked, by value before anything runs and by scope against the
# launch's engine; others pass with a note.
. "$(dirname "$0")/lib.sh"
. "$TOP/t/plain-python.sh"
own_pycache

make_recorder torchrun
export PATH="$RBIN:$PATH"
echo 'print("evaluating")' > inference.py
cat > train.sh <<'SH'
torchrun inference.py --num-workers 2
torchrun pretrain_gpt.py --num-workers 2 --lr 1
SH
before=$(md5sum train.sh inference.py)

# The recorded launch whose argv has WORD.
rec_of() { grep -lx -- "$1" "$REC"/*.argv | head -n 1; }

msprof -y --set --num-workers=8 --set TASK_QUEUE_ENABLE=2 --set --my-flag \
    --set --use-flash-attn bash train.sh
is "$rc" 0 "flag, variable and unknown flag: exit 0"
train=$(rec_of pretrain_gpt.py)
infer=$(rec_of inference.py)
words=$(tr '\n' ' ' < "$train")
like "$words" "pretrain_gpt.py --lr 1 .*--profile-save-path \./profiling_output --num-workers 8 --my-flag --use-flash-attn $" \
    "the flags reach the training launch, --num-workers's own value replaced"
unlike "$words" "--num-workers 2" "the launch's own --num-workers 2 is gone"
has_line "$(rec_env "$train")" "TASK_QUEUE_ENABLE=2" "the variable reaches the training launch"
like "$(tr '\n' ' ' < "$infer")" "/torchrun inference.py --num-workers 2 $" \
    "the launch left alone keeps its command line"
unlike "$(rec_env "$infer")" "TASK_QUEUE_ENABLE" "the launch left alone gets no variable"
is "$(md5sum train.sh inference.py)" "$before" "the script is byte-identical"
like "$(journal)" '"set":\["--num-workers=8","TASK_QUEUE_ENABLE=2","--my-flag","--use-flash-attn"\]' \
    "the journal records the settings"
like "$(journal)" '"env":\[[^]]*"TASK_QUEUE_ENABLE=2"' \
    "the journal's environment is the launch's, with the variable"
like "$out" "run with --set --num-workers=8" \
    "the report says what the launch ran with"
like "$err" "note: --set --my-flag \(flag\) is not in msprof-exec's settings table: passed as given" \
    "an unknown name passes with a note"

# A later --set of the same name wins; a variable the caller set is replaced.
reset_run
TASK_QUEUE_ENABLE=1 msprof -y --set TASK_QUEUE_ENABLE=0 --set TASK_QUEUE_ENABLE=2 \
    torchrun pretrain_gpt.py
has_line "$(rec_env "$(recorded | head -n 1)")" "TASK_QUEUE_ENABLE=2" \
    "the last --set of a name wins over the caller's value"

# A launch that keeps its own profiling settings still gets the settings;
# the JSON report lists them with the launch.
reset_run
msprof -y --existing keep --json j.json --set --num-workers=8 --set TASK_QUEUE_ENABLE=2 \
    torchrun pretrain_gpt.py --profile --profile-save-path ./own
like "$(rec_argv)" "pretrain_gpt.py --profile --profile-save-path \./own --num-workers 8$" \
    "--existing keep: its own profiling flags, and the setting"
has_line "$(rec_env "$(recorded | head -n 1)")" "TASK_QUEUE_ENABLE=2" "--existing keep: the variable"
is "$($PY -c 'import json,sys; print(json.load(open(sys.argv[1]))["launches"][0]["set"])' j.json)" \
    "['--num-workers=8', 'TASK_QUEUE_ENABLE=2']" "--json: the launch's settings"

# -n shows each setting in the table, and the rewritten command.
msprof -n --set --num-workers=8 --set MY_VAR=x torchrun pretrain_gpt.py
like "$out" "Setting \(--set\) +--num-workers=8 \(flag, on the command line\)" "-n: the table shows the flag"
like "$out" "Setting \(--set\) +MY_VAR=x \(environment variable, set for the launch\); not in msprof-exec's settings table" \
    "-n: an unknown name is said to be unchecked"
like "$out" "would set MY_VAR=x" "-n: the variable it would set"
like "$out" "pretrain_gpt.py .* --num-workers 8$" "-n: the rewritten command"

# A setting without what the training needs with it, or with what it is
# refused with: a note before anything runs (the run would stop at its
# start, or the setting do nothing).
reset_run
msprof -y --set --overlap-param-gather --set --ddp-bucket-size=4000000 \
    torchrun pretrain_gpt.py --use-distributed-optimizer
like "$err" "note: --set --overlap-param-gather: the training refuses it, or it does nothing, without --overlap-grad-reduce, which neither the launch nor --set gives" \
    "--overlap-param-gather without --overlap-grad-reduce: a note"
unlike "$err" "without --use-distributed-optimizer" \
    "... not for the distributed optimizer the launch has"
like "$err" "note: --set --ddp-bucket-size: .* without --overlap-grad-reduce" \
    "--ddp-bucket-size without --overlap-grad-reduce: a note"
reset_run
msprof -y --set --overlap-param-gather --set --overlap-grad-reduce \
    torchrun pretrain_gpt.py --use-distributed-optimizer
unlike "$err" "refuses it" "all it needs given (by the launch or --set): no note"
reset_run
msprof -y --set --num-layers-per-virtual-pipeline-stage=2 \
    torchrun pretrain_gpt.py --num-layer-list 4,4
like "$err" "note: --set --num-layers-per-virtual-pipeline-stage: the training refuses it together with --num-layer-list, which the launch has" \
    "virtual stages with the launch's --num-layer-list: a note"

# Values are checked before anything runs (64).
reset_run
refused() {
	local want=$1; shift
	msprof -y "$@" torchrun pretrain_gpt.py
	is "$rc:$(nrecorded)" "64:0" "refused: $*"
	like "$err" "$want" "refused, with why: $*"
}
refused "--use-flash-attn is a switch and takes no value" --set --use-flash-attn=1
refused "TASK_QUEUE_ENABLE=VALUE" --set TASK_QUEUE_ENABLE
refused "CPU_AFFINITY_CONF takes a number" --set CPU_AFFINITY_CONF=x
refused "--recompute-granularity takes one of full, selective" --set --recompute-granularity=some
refused "--num-workers takes a whole number" --set --num-workers=many
refused "--num-layers-per-virtual-pipeline-stage takes a value" --set --num-layers-per-virtual-pipeline-stage
refused "msprof-exec's to set .*--level" --set --profile-level=level2
refused "msprof-exec's to set" --set PROF_CONFIG_PATH=/tmp
refused "not a setting" --set 'a b=1'
refused "set in the training's code" --set 'torch_npu.npu.config.allow_internal_format = False'

# The scope: a Megatron flag on a plain PyTorch launch, a YAML key on a
# launch without YAML: refused before anything runs (78).
echo 'import torch; loss.backward(); optimizer.step()' > train.py
msprof -y --set --overlap-grad-reduce torchrun train.py
is "$rc:$(nrecorded)" "78:0" "a Megatron flag on a PyTorch launch: 78, nothing run"
like "$err" "--set --overlap-grad-reduce: an argument of Megatron .* does not read it" \
    "the scope is named"
msprof -y --set a.b=1 torchrun pretrain_gpt.py
is "$rc:$(nrecorded)" "78:0" "a YAML key on a launch without YAML: 78"
like "$err" "--set a.b: this launch \(MindSpeed-LLM, Megatron \(mcore\)\) has no YAML config" \
    "the reason names the engine"

# The engines with a YAML config, on the simulated machine (one NPU: the
# settings reach rank 0, profiled, as they would reach any).
sim_env
export NPUS_PER_NODE=1
cd "$T/mindspeed-mm" || exit 1
sums() { md5sum mindspeed_mm/tools/tools.json examples/*/*.yaml; }
orig=$(sums)
yget() {	# yget FILE EXPR: a value of the YAML FILE (d), by Python
	$PY - "$1" "$2" <<'PY'
import os, sys
sys.path.insert(0, os.environ["SIM_ROOT"] + "/lib")
from msprof_sim import yamlish
d = yamlish.load(open(sys.argv[1]).read())
print(*eval(sys.argv[2]))
PY
}
"$MSPROF" -y --skip-checks --train-iters 16 \
    --set parallel.fsdp_plan.num_to_forward_prefetch=1 --set data.new_key=abc \
    bash examples/qwen3_5/finetune_qwen3_5_35B.sh > out 2> err
is "$?" 0 "MM FSDP2 with two YAML keys: exit 0"
ycopy=$(ls npu_profiling/msprof-exec_*/*_qwen3_5_35B_config.yaml)
is "$(yget "$ycopy" 'd["parallel"]["fsdp_plan"]["num_to_forward_prefetch"], d["data"]["new_key"], d["tools"]["profile"]["enable"]')" \
    "1 abc True" "MM FSDP2: the keys are in the config copy, with the profile"
is "$(ranks_in npu_profiling)" "0" "MM FSDP2: rank 0 profiled"
like "$(< out)" "run with --set parallel.fsdp_plan.num_to_forward_prefetch=1" \
    "MM FSDP2: the report says it"
"$MSPROF" -y --skip-checks --set --my-flag bash examples/qwen3_5/finetune_qwen3_5_35B.sh > out 2> err
is "$?" 78 "MM FSDP2: a flag is refused (78)"
like "$(< err)" "takes no flags, only its YAML's keys" "MM FSDP2: why"

rm -rf npu_profiling
"$MSPROF" -y --skip-checks --train-iters keep --set --num-workers=4 --set --use-flash-attn \
    bash examples/qwen3vl/finetune_qwen3vl_8B.sh > out 2> err
is "$?" 0 "MM YAML entry with flags: exit 0"
ycopy=$(ls npu_profiling/msprof-exec_*/*_qwen3vl_full_sft_8B.yaml)
is "$(yget "$ycopy" 'd["gpt_args"]["num_workers"], d["gpt_args"]["use_flash_attn"]')" "4 True" \
    "MM YAML entry: flags become gpt_args of the config copy"
is "$(sums)" "$orig" "MindSpeed-MM: the user's YAML and tools.json are byte-identical"

cd "$T/mindspeed-llm" || exit 1
FSDP=examples/fsdp2/qwen3/pretrain_qwen3_8b_4k_fsdp2.sh
yaml_sum=$(md5sum examples/fsdp2/qwen3/pretrain_qwen3_8b_4k_fsdp2.yaml)
"$MSPROF" -y --skip-checks --set training.lr=2e-5 bash "$FSDP" > out 2> err
is "$?" 0 "LLM FSDP2 with a YAML key: exit 0"
like "$(journal)" '"--training.lr","2e-5"\]' "LLM FSDP2: the key as its command-line override, which wins over the YAML"
is "$(md5sum examples/fsdp2/qwen3/pretrain_qwen3_8b_4k_fsdp2.yaml)" "$yaml_sum" \
    "LLM FSDP2: the YAML is byte-identical"

done_testing
