#!/usr/bin/env bash
# A training that fails before its first step: the error its log gives
# comes first, with the log's file and line (CANN's code, the Python
# error, torchrun's root cause), in the text and in --json's "errors"; a
# guess only where the log gives no error, and worded as one.
. "$(dirname "$0")/lib.sh"
. "$TOP/t/plain-python.sh"
own_pycache
sim_env
cd "$T/mindspeed-llm"
# errs: the lines of the training's errors, in their order
errs() { printf '%s\n' "$err" | grep "the training's error"; }

# 16 NPUs a node on the simulated machine of 8: CANN's EE1001 first.
NPUS_PER_NODE=16 msprof -y --json r.json --cann-env "$CANN_ENV" \
    bash examples/fsdp2/qwen3/pretrain_qwen3_8b_4k_fsdp2.sh
is "$rc" 1 "16 NPUs on 8: the launcher's status"
log=$(ls -d profiling_output/msprof-exec_*)/train.log
like "$(errs | head -n1)" "the training's error \($PWD/$log:[0-9]+\): EE1001: Invalid device ID\. The device ID ([89]|1[0-5]) is out of range \[0, 8\)\.( \(and [0-9]+ more like it\))?$" \
    "CANN's code first, with the log's file and line (how many ranks failed alike before torchrun stopped them is the machine's)"
n=$(errs | head -n1 | sed 's/.*train\.log:\([0-9]*\)).*/\1/')
like "$(sed -n "${n}p" "$log")" "EE1001: Invalid device ID" "... the line is the code's"
like "$(errs | sed -n 2p)" "RuntimeError: SetDevice failed" "then the traceback's error"
like "$(errs | sed -n 3p)" "ChildFailedError: rank ([89]|1[0-5]) \(local_rank: ([89]|1[0-5])\) failed first, exitcode 1 \(pid: [0-9]+\), error_file <N/A>" \
    "then torchrun's root cause"
first=$(printf '%s\n' "$err" | grep -n "msprof-exec: " | head -n1)
like "$first" "the training's error" "nothing of msprof-exec's comes before it"
unlike "$err" "may never have been reached" "no guess that the window was not reached"
like "$err" "possible cause: the training failed before its first iteration \(the log shows none\), so its window \(steps 2 to 4, excluding 4\) was never reached: the error above ended it" \
    "the missing data put down to the error, not guessed"
is "$($PY -c 'import json, sys
d = json.load(open("r.json"))
print(" ".join("%s:%s" % (e["kind"], e["line"] > 0) for e in d["errors"]),
      d["errors"][0]["file"].endswith("/train.log"))')" \
    "cann:True python:True child_failed:True True" "--json: the errors, kind, file and line"
rm -rf profiling_output r.json

# MindSpeed-LLM's gpt_oss FSDP2 example as published (its port made
# free): 16 NPUs a node on the machine of 8, and a model path that does
# not exist.  -n says both before the first step; the run is refused
# before it starts, as its training would fail before its first step.
mkdir -p examples/fsdp2/gpt_oss
sed 's/^MASTER_PORT=6499$/MASTER_PORT='"$MASTER_PORT"'/' \
    "$TOP/t/data/upstream/MindSpeed-LLM/examples/fsdp2/gpt_oss/pretrain_gpt_oss_20b_4k_fsdp2_A3.sh" \
    > examples/fsdp2/gpt_oss/pretrain_gpt_oss_20b_4k_fsdp2_A3.sh
cp "$TOP/t/data/upstream/MindSpeed-LLM/examples/fsdp2/gpt_oss/pretrain_gpt_oss_20b_4k_fsdp2_A3.yaml" \
    examples/fsdp2/gpt_oss/
"$MSPROF" -n --cann-env "$CANN_ENV" bash examples/fsdp2/gpt_oss/pretrain_gpt_oss_20b_4k_fsdp2_A3.sh > out 2> err
is "$?" 66 "gpt_oss -n: a missing model path, 66"
like "$(<err)" "the launch names paths that do not exist; it would not be started:
  --model\.model_name_or_path /home/data/gpt-oss-20b-hf/" "... --model.model_name_or_path named"
unlike "$(<err)" "tokenizer|data\.dataset" "... not the YAML's tokenizer None, nor a dataset that is no local path"
like "$(<out)" "NPUs per node +16, more than the 8 npu-smi info lists here" "... the plan: 16 NPUs against npu-smi's 8"
like "$(<err)" "warning: the launch runs 16 processes a node \(--nproc_per_node, NPUS_PER_NODE\), but npu-smi info lists 8 NPUs here: .*EE1001.*give it 8 or fewer" \
    "... and a warning"
NPUS_PER_NODE=8 "$MSPROF" -n --cann-env "$CANN_ENV" bash examples/fsdp2/qwen3/pretrain_qwen3_8b_4k_fsdp2.sh > out 2> err
is "$?" 0 "8 NPUs on 8, the YAML's model, tokenizer and dataset there: -n exits 0"
unlike "$(<out)$(<err)" "npu-smi info lists" "... no word on the NPUs"
msprof -y --cann-env "$CANN_ENV" bash examples/fsdp2/gpt_oss/pretrain_gpt_oss_20b_4k_fsdp2_A3.sh
is "$rc" 66 "gpt_oss run: refused before it starts"
like "$err" "--model\.model_name_or_path /home/data/gpt-oss-20b-hf/" "... naming the path"
rm -rf profiling_output logs

# MindSpeed-MM's FSDP2 trainer: its YAML's model and dataset paths (one
# an alias of the other) are there; a KEY=VALUE word wins over the YAML.
cd "$T/mindspeed-mm"
FSDP=(torchrun --nproc_per_node 1 mindspeed_mm/fsdp/train/trainer.py examples/qwen3_5/qwen3_5_35B_config.yaml)
msprof -n "${FSDP[@]}"
is "$rc" 0 "MM FSDP2: the YAML's paths there, -n exits 0"
msprof -n "${FSDP[@]}" model.model_name_or_path=./ckpt/nosuch
is "$rc" 66 "MM FSDP2: a model path given as KEY=VALUE that does not exist: 66"
like "$err" "  model\.model_name_or_path \./ckpt/nosuch" "... named as given"
msprof -n "${FSDP[@]}" model.model_name_or_path=Qwen/Qwen3.5-35B-A3B
is "$rc" 0 "MM FSDP2: a hub id is not checked"
cd "$T/mindspeed-llm"

# A training that ends well before its first iteration: no error in the
# log, and the guess says it is one.
rm pretrain_gpt.py	# the checkout's files are links into sim/
printf 'print("loading", flush=True)\n' > pretrain_gpt.py
msprof -y --cann-env "$CANN_ENV" bash examples/mcore/qwen3/pretrain_qwen3_8b_4K_ptd.sh
unlike "$err" "the training's error" "no error in the log: none said"
like "$err" "possible cause: a guess, as the log gives no error: the window may never have been reached" \
    "... and the guess says it is one"
rm -rf profiling_output logs

# An error whose text holds a terminal's control sequence (a coloured
# log): quoted with the sequence escaped, never sent to the terminal.
rm pretrain_gpt.py
printf 'raise RuntimeError("boom \\x1b[31mred\\x1b[0m")\n' > pretrain_gpt.py
msprof -y --cann-env "$CANN_ENV" bash examples/mcore/qwen3/pretrain_qwen3_8b_4K_ptd.sh
like "$(errs)" 'RuntimeError: boom \\x1b\[31mred\\x1b\[0m' \
    "a control byte in the log's error is shown escaped"
is "$(errs | tr -d '\n' | tr -d '[:print:]' | wc -c | tr -d ' ')" 0 \
    "... and no control byte reaches the terminal"
rm -rf profiling_output logs

# Debian's real torchrun: a worker that cannot find its data.
if torch_installed; then
	real_torch
	cd "$T"
	cat > train.py <<'EOF'
import os, torch
if os.environ.get("RANK") == "1":
    open("/home/data/absent/train.jsonl")
print("step 0", flush=True)
EOF
	msprof -y torchrun --nproc_per_node 2 --master_port "$MASTER_PORT" train.py
	like "$(errs | head -n1)" "train\.log:[0-9]+\): FileNotFoundError: \[Errno 2\] No such file or directory: '/home/data/absent/train\.jsonl'" \
	    "real torchrun: the worker's FileNotFoundError first"
	like "$(errs | sed -n 2p)" "ChildFailedError: rank 1 \(local_rank: 1\) failed first, exitcode 1 \(pid: [0-9]+\), error_file" \
	    "real torchrun: then its root cause, rank and exit code"
else
	skip "Debian's torch (python3-torch) is not installed"
	skip "Debian's torch (python3-torch) is not installed"
fi
done_testing
