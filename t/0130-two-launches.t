#!/usr/bin/env bash
# Two training launches in one script are both profiled and recorded;
# other programs (preprocessing, python -c, non-MindSpeed launches) run
# exactly as they would without msprof-exec.
. "$(dirname "$0")/lib.sh"
. "$TOP/t/plain-python.sh"

make_recorder torchrun
export PATH="$RBIN:$PATH"
mkdir tools
cat > tools/preprocess_data.py <<'EOF2'
import os, sys
print("preprocess", sys.argv[1:], "LD_PRELOAD" in os.environ)
EOF2

cat > train.sh <<EOF2
$PY tools/preprocess_data.py --input a.json
$PY -c 'import sys; print("inline", sys.argv[1:])' x -m torch.distributed.run
torchrun --nproc_per_node 1 pretrain_gpt.py --stage 1
torchrun --nproc_per_node 1 posttrain_gpt.py --stage 2
torchrun --nproc_per_node 1 evaluate.py --stage 3
EOF2
msprof -y bash train.sh
is "$rc" 0 "exit status"
is "$(nrecorded)" 3 "three launcher runs"
argvs=$(for f in $(recorded); do tr '\n' ' ' < "$f"; echo; done | sort)
has_line "$argvs" "$RBIN/torchrun --nproc_per_node 1 pretrain_gpt.py --stage 1 $DEFAULT_FLAGS " \
    "first launch profiled"
has_line "$argvs" "$RBIN/torchrun --nproc_per_node 1 posttrain_gpt.py --stage 2 $DEFAULT_FLAGS " \
    "second launch (posttrain_gpt.py) profiled"
has_line "$argvs" "$RBIN/torchrun --nproc_per_node 1 evaluate.py --stage 3 " \
    "a non-MindSpeed entry is left exactly as it was"
is "$(njournal injected)" 2 "journal: two injected launches"
is "$(njournal unchanged)" 1 "journal: one launch left alone"
like "$(journal | grep unchanged)" '"reason":"not a training entry: evaluate.py is an inference, evaluation' \
    "journal: why it was left alone"
has_line "$out" "preprocess ['--input', 'a.json'] True" \
    "preprocessing runs unchanged (and keeps the shim for later launches)"
has_line "$out" "inline ['x', '-m', 'torch.distributed.run']" \
    "python -c runs unchanged"
like "$out" "2 training launch\(es\) profiled, 1 left alone" "the report counts them"
like "$out" "evaluate.py: left alone \(not a training entry: evaluate.py is an inference, evaluation" \
    "the report says which was left alone and why"
unlike "$(journal | grep unchanged)" '"force"' \
    "journal: an evaluation entry is never forced, so no way to force it"
unlike "$out" "to profile it anyway" "... and the report offers none"
reset_run
msprof -y --framework llm torchrun --nproc_per_node 1 my_gpt_train.py --lr 1
is "$(rec_argv)" "$RBIN/torchrun --nproc_per_node 1 my_gpt_train.py --lr 1 $DEFAULT_FLAGS" \
    "--framework llm: an entry the table does not know is profiled as MindSpeed-LLM"
reset_run
msprof -y torchrun --nproc_per_node 1 my_gpt_train.py --lr 1
is "$rc:$(nrecorded)" "66:0" \
    "without --framework, an entry that is not there: 66, the launcher not run"
like "$err" "my_gpt_train.py: no such file, the training script of torchrun" \
    "... said"
reset_run
echo 'print("not a training")' > my_gpt_train.py
msprof -y torchrun --nproc_per_node 1 my_gpt_train.py --lr 1
is "$(rec_argv)" "$RBIN/torchrun --nproc_per_node 1 my_gpt_train.py --lr 1" \
    "without --framework it is left alone"
like "$out" "my_gpt_train.py: left alone \\(not a training entry: my_gpt_train.py imports neither torch" \
    "the report says why"
like "$out" "    to profile it anyway: --framework llm\|mm\|torch" "and how to profile it anyway"
like "$(journal | grep unchanged)" '"force":"--framework llm\|mm\|torch"' \
    "journal: how to profile it anyway"
reset_run
msprof -y bash train.sh
pids=$(journal | sed -n 's/.*"pid":\([0-9]*\).*/\1/p' | sort -u | wc -l)
is "$pids" 3 "one journal record per launch process"
done_testing
