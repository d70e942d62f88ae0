#!/usr/bin/env bash
# --existing keep: a launch that already profiles keeps its own settings,
# and the report checks and lists the data in the save path those settings
# name (not msprof-exec's), counting no rank as missing.
. "$(dirname "$0")/lib.sh"
sim_env
cd "$T/mindspeed-llm"

run_keep() {	# run_keep SAVE-OPTION...: a launch with its own profiling
	"$MSPROF" -y --skip-checks --existing keep --json keep.json \
	    torchrun --nproc_per_node 1 --master_port "$MASTER_PORT" \
	    pretrain_gpt.py --tokenizer-type Llama2Tokenizer \
	    --tokenizer-model ./model_from_hf/llama-2-7b-hf/tokenizer.model \
	    --data-path ./dataset/enwiki_text_document --train-iters 5 \
	    --micro-batch-size 1 --global-batch-size 1 \
	    --profile --profile-step-start 2 --profile-step-end 3 \
	    --profile-ranks 0 "$@" > out 2> err
	rc=$?
}

run_keep --profile-save-path ./my_prof
is "$rc" 0 "--existing keep: exit 0"
is "$(ranks_in my_prof)" "0" "the launch's own settings saved rank 0 in ./my_prof"
like "$(<out)" "profiled with its own settings \(--existing keep\) -> \./my_prof" \
    "the report names the launch's own save path"
like "$(<out)" "Profiling data in .*/my_prof:" "... checks the data there"
like "$(<out)" "rank 0: .*_ascend_pt" "... and lists rank 0's directory"
like "$(<out)" "no rank is counted as missing" "its own settings choose the ranks"
is "$($PY -c 'import json,sys
d = json.load(open(sys.argv[1]))
o = d["outputs"][0]
print(o["path"].endswith("/my_prof"), len(o["found"]), o["expected_ranks"], o["missing_ranks"])' keep.json)" \
    "True 1 None []" "--json: the output is the launch's own save path, rank 0 found, none expected"

# Without --profile-save-path: MindSpeed-LLM's default, ./profile_dir.
rm -rf profile_dir
run_keep
is "$rc" 0 "--existing keep, default save path: exit 0"
like "$(<out)" "-> \./profile_dir" "the report names MindSpeed-LLM's default ./profile_dir"
is "$(ranks_in profile_dir)" "0" "and the data is there"
done_testing
