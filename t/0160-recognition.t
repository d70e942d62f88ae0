#!/usr/bin/env bash
# Launches are recognised by what their entry runs, not only by the list in
# launchers.conf: an unlisted entry that imports mindspeed_llm and calls its
# training loop gets the Megatron flags, one that imports mindspeed_mm gets
# the tools.json engine, through torchrun, python -m torch.distributed.launch
# and msrun; pretrain_transformers.py with --mm-tool and no YAML is the
# tools.json engine; an unknown entry is left alone with its reason (in the
# table before the run and in the journal), and --framework forces it.
. "$(dirname "$0")/lib.sh"
. "$TOP/t/plain-python.sh"
own_pycache
sim_env
# One NPU a launch: what is recognised is the entry, whatever the number
# of its ranks.
export NPUS_PER_NODE=1
LLM=$T/mindspeed-llm
MM=$T/mindspeed-mm
# engine_of: the engine and status the journal of the session under DIR has.
engine_of() { journal "$1" | sed -n 's/.*"engine":"\([^"]*\)".*"status":"\([^"]*\)".*/\1 \2/p'; }

cd "$LLM"
"$MSPROF" -y --skip-checks bash examples/mcore/deepseek4/pretrain_deepseek4_ptd.sh > out 2> err
is "$?" 0 "torchrun pretrain_deepseek4.py (not listed, imports mindspeed_llm): exit 0"
is "$(engine_of profiling_output)" "llm-mcore injected" "pretrain_deepseek4.py: the Megatron engine, injected"
like "$(journal)" '"--profile","--profile-step-start","2","--profile-step-end","4"' \
    "pretrain_deepseek4.py: the Megatron flags appended"
is "$(ranks_in profiling_output)" "0" "pretrain_deepseek4.py: rank 0 profiled"
is "$(steps_in profiling_output)" "1 2" "pretrain_deepseek4.py: iterations 2 and 3 (ProfilerStep 1 and 2)"

rm -rf profiling_output
"$MSPROF" -y --skip-checks bash examples/mcore/mamba/pretrain_mamba_ptd.sh > out 2> err
is "$?" 0 "python -m torch.distributed.launch pretrain_mamba.py: exit 0"
is "$(engine_of profiling_output)" "llm-mcore injected" "pretrain_mamba.py: the Megatron engine"
is "$(ranks_in profiling_output)" "0" "pretrain_mamba.py: rank 0 profiled"

rm -rf profiling_output
"$MSPROF" -y --skip-checks msrun --worker_num 1 --local_worker_num 1 \
    --master_port "$MASTER_PORT" --join=True pretrain_mamba.py \
    --tokenizer-type Llama2Tokenizer \
    --tokenizer-model ./model_from_hf/llama-2-7b-hf/tokenizer.model \
    --data-path ./dataset/enwiki_text_document --train-iters 5 \
    --micro-batch-size 1 --global-batch-size 2 > out 2> err
is "$?" 0 "msrun pretrain_mamba.py: exit 0"
is "$(engine_of profiling_output)" "llm-mcore injected" "msrun pretrain_mamba.py: the Megatron engine"
is "$(steps_in profiling_output)" "1 2" "msrun pretrain_mamba.py: iterations 2 and 3"

# An entry that imports mindspeed_llm but trains nothing is left alone.
cat > checkpoint_tool.py <<'PY'
import sys
from mindspeed_llm.training import pretrain  # noqa: F401 (imported, not called)
print("tool", sys.argv[1:])
PY
rm -rf profiling_output
"$MSPROF" -y --skip-checks torchrun --nproc_per_node 1 checkpoint_tool.py --x 1 > out 2> err
is "$?" 0 "an entry that calls no training loop: exit 0"
like "$(< out)" "tool \['--x', '1'\]" "it ran with its own arguments"
is "$(engine_of profiling_output)" "none unchanged" "it is left alone"
like "$(journal)" '"reason":"not a training entry: checkpoint_tool.py imports mindspeed_llm but calls no training loop' \
    "the journal says why"

# An unknown entry: left alone, listed before the run and after it, forced
# with --framework.
cat > my_train.py <<'PY'
import sys
print("args", " ".join(sys.argv[1:]))
PY
printf 'torchrun --nproc_per_node 1 my_train.py --lr 1\n' > mine.sh
rm -rf profiling_output
"$MSPROF" -n bash mine.sh > out 2> err
like "$(< out)" "Left alone +my_train.py: not a training entry: my_train.py imports neither torch \(transformers, accelerate, deepspeed\) nor mindspeed_llm or mindspeed_mm; force it with --framework llm, mm or torch" \
    "the table before the run lists the unknown entry as left alone, why and how to force it"
"$MSPROF" -y --skip-checks bash mine.sh > out 2> err
is "$?" 0 "unknown entry: exit 0"
like "$(< out)" "args --lr 1$" "unknown entry: run as it was"
like "$(< out)" "my_train.py: left alone \(not a training entry: my_train.py imports neither" \
    "the report lists it as left alone, with the reason"
like "$(journal)" '"status":"unchanged","reason":"not a training entry: my_train.py imports neither torch \(transformers, accelerate, deepspeed\) nor mindspeed_llm or mindspeed_mm; force it with --framework llm, mm or torch"' \
    "the journal has the reason and the way to force it"
rm -rf profiling_output
"$MSPROF" -y --skip-checks --framework llm bash mine.sh > out 2> err
like "$(< out)" "args --lr 1 --profile --profile-step-start 2 --profile-step-end 4 --profile-ranks 0" \
    "--framework llm forces it: the Megatron flags"
# Inference, evaluation, conversion, preprocessing: never, even forced.
cp my_train.py inference_x.py
rm -rf profiling_output
"$MSPROF" -y --skip-checks --framework llm torchrun --nproc_per_node 1 inference_x.py --a 1 > out 2> err
like "$(< out)" "args --a 1$" "an inference entry stays untouched, even with --framework"
like "$(journal)" "inference_x.py is an inference, evaluation, conversion or preprocessing entry" \
    "the journal says it is an inference entry"

cd "$MM"
TOOL=./mindspeed_mm/tools/tools.json
MMARGS="--mm-data ./examples/wan2.1/1.3b/t2v/feature_data.json --mm-model ./examples/wan2.1/1.3b/t2v/pretrain_model.json --micro-batch-size 1 --global-batch-size 1"
"$MSPROF" -y --skip-checks --train-iters 12 msrun --worker_num 1 --local_worker_num 1 \
    --master_port "$MASTER_PORT" --join=True pretrain_videoalign.py $MMARGS --mm-tool $TOOL > out 2> err
is "$?" 0 "msrun pretrain_videoalign.py (not listed, imports mindspeed_mm): exit 0"
is "$(engine_of npu_profiling)" "mm-megatron injected" "pretrain_videoalign.py: the tools.json engine"
ls npu_profiling/msprof-exec_*/*_tools.json > /dev/null 2>&1
ok $? "pretrain_videoalign.py: a tools.json copy in the session"
is "$(steps_in npu_profiling)" "10 11" "pretrain_videoalign.py: MM steps 10 and 11"

rm -rf npu_profiling
"$MSPROF" -y --skip-checks --train-iters 12 python3 -m torch.distributed.launch --nproc_per_node 1 \
    --master_port "$MASTER_PORT" pretrain_videoalign.py $MMARGS --mm-tool $TOOL > out 2> err
is "$?:$(engine_of npu_profiling)" "0:mm-megatron injected" \
    "python -m torch.distributed.launch pretrain_videoalign.py: the tools.json engine"

rm -rf npu_profiling
"$MSPROF" -y --skip-checks --train-iters 12 bash examples/glm4.5v/finetune_glm4_5v.sh > out 2> err
is "$?" 0 "pretrain_transformers.py with --mm-tool and no YAML (glm4.5v): exit 0"
is "$(engine_of npu_profiling)" "mm-megatron injected" "glm4.5v: the tools.json engine, not the YAML entry"
like "$(journal npu_profiling)" '"--mm-tool","[^"]*_tools.json"' "glm4.5v: --mm-tool points at the copy"
is "$(ranks_in npu_profiling)" "0" "glm4.5v: rank 0 profiled"

rm -rf npu_profiling
"$MSPROF" -y --skip-checks torchrun --nproc_per_node 1 pretrain_transformers.py $MMARGS > out 2> err
is "$?" 78 "pretrain_transformers.py with neither a YAML nor --mm-tool: refused, exit 78"
like "$(< err)" "pretrain_transformers.py has neither a YAML config as its first argument nor --mm-tool" \
    "the refusal says which is missing"
unlike "$(< out)" "iteration" "the refused launch did not start"
done_testing
