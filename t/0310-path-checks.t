#!/usr/bin/env bash
# The paths a launch names are checked when it starts: every missing one
# is listed with its option, the launch does not start, and msprof-exec
# exits 66 whatever the script's own status.
. "$(dirname "$0")/lib.sh"

make_recorder torchrun
export PATH="$RBIN:$PATH"
mkdir -p ckpt tok dataset cfg
: > dataset/wiki_text_document.bin
: > dataset/wiki_text_document.idx
: > dataset/half_text_document.bin
: > tok/tokenizer.model
echo '{}' > cfg/data.json
echo '{}' > cfg/tools.json

good="--load ckpt --tokenizer-name-or-path tok --tokenizer-model tok/tokenizer.model --data-path dataset/wiki_text_document"
printf 'torchrun pretrain_gpt.py %s --save new_ckpt | tee train.log\n' "$good" > train.sh
msprof -y bash train.sh
is "$rc" 0 "every path present (--save need not exist): runs"
is "$(nrecorded)" 1 "every path present: the launcher ran"

reset_run
rm -f train.log
printf 'torchrun pretrain_gpt.py %s | tee train.log\n' \
    "--load missing_ckpt --tokenizer-model=tok/none.model --data-path 0.3 dataset/wiki_text_document 0.7 dataset/half_text_document --tokenizer-name-or-path tok" > train.sh
msprof -y bash train.sh
is "$rc" 66 "missing paths: exit 66 although tee exits 0"
is "$(nrecorded)" 0 "missing paths: the launch did not start"
like "$err" "--load missing_ckpt" "names --load"
like "$err" "--tokenizer-model tok/none.model" "names --tokenizer-model=VALUE"
like "$err" "--data-path dataset/half_text_document \(dataset/half_text_document.bin and dataset/half_text_document.idx are needed\)" \
    "a weighted data prefix missing its .idx"
unlike "$err" "--data-path dataset/wiki_text_document |--data-path 0\.[37]" \
    "present prefixes and weights are not listed"
unlike "$err" "--tokenizer-name-or-path" "present paths are not listed"
like "$err" "train\.sh, line 1: the launch names paths that do not exist \(nothing was started\)" \
    "refused from the scan, before the script runs"
is "$(ls -d profiling_output train.log 2>/dev/null)" "" \
    "nothing left behind: no session, not even the script's tee"

# A launch the script may not reach (a branch, after && or ||) is checked
# when it starts, not before: what it names may be what the script never
# needs.  The one that runs still is.
for form in 'if [ -n "$EVAL" ]; then\n  torchrun pretrain_gpt.py --load gone_ckpt\nfi\n' \
    '[ -n "$EVAL" ] && torchrun pretrain_gpt.py --load gone_ckpt\n' \
    'run_eval() {\n  torchrun pretrain_gpt.py --load gone_ckpt\n}\n'; do
	reset_run
	printf "$form"'torchrun pretrain_gpt.py %s --save new_ckpt\n' "$good" > train.sh
	msprof -y bash train.sh
	is "$rc" 0 "a launch the script may not reach ($(head -n1 train.sh | cut -c1-20)...): not refused before, runs"
	is "$(nrecorded)" 1 "... and the launch the script reaches ran"
done
reset_run
printf '[ -n "$EVAL" ] && echo eval\ntorchrun pretrain_gpt.py --load gone_ckpt\n' > train.sh
msprof -y bash train.sh
is "$rc" 66 "a launch after a list that ended: still refused before the script runs"

# The auto-resume pattern: --load is also --save, and on the first run
# there is no checkpoint yet (Megatron starts from scratch).
reset_run
rest="--tokenizer-name-or-path tok --data-path dataset/wiki_text_document"
printf 'CKPT=./ckpt_auto\ntorchrun pretrain_gpt.py %s --load $CKPT --save $CKPT\n' "$rest" > train.sh
msprof -y bash train.sh
is "$rc" 0 "--load DIR --save DIR, DIR not there yet: runs"
is "$(nrecorded)" 1 "--load that is the --save: the launcher ran"
reset_run
printf 'torchrun pretrain_gpt.py %s --load ckpt_other --save ckpt_auto\n' "$rest" > train.sh
msprof -y bash train.sh
is "$rc" 66 "a missing --load that is not the --save: still exit 66"

reset_run
msprof -y torchrun pretrain_sora.py --mm-data cfg/data.json --mm-model cfg/model.json --mm-tool cfg/tools.json
is "$rc" 66 "MM: a missing --mm-model: exit 66"
like "$err" "--mm-model cfg/model.json" "MM: names --mm-model"

reset_run
echo '{"dataset_param": {"basic_parameters": {"data_path": "./data/gone.jsonl", "data_folder": "./dataset"}}}' > cfg/data.json
echo '{}' > cfg/model.json
msprof -y torchrun pretrain_sora.py --mm-data cfg/data.json --mm-model cfg/model.json --mm-tool cfg/tools.json
is "$rc" 66 "MM: a dataset the data config names is missing: exit 66"
like "$err" "data_path ./data/gone.jsonl \(in cfg/data.json\)" "MM: names the data path and its config"
unlike "$err" "data_folder" "MM: a present data folder is not listed"

reset_run
msprof -y torchrun train_fsdp2.py cfg/missing.yaml --training.x 1
is "$rc" 66 "a missing YAML config: exit 66"
like "$err" "YAML config cfg/missing.yaml" "names the YAML config"
done_testing
