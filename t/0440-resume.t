#!/usr/bin/env bash
# A MindSpeed-LLM job that resumes from a checkpoint: the default window
# moves to just after the loaded iteration (MindSpeed-LLM asserts that
# profile_step_start is greater than it), a window the user gave before it
# is refused with 78, and the auto-resume pattern --load DIR --save DIR
# runs on its first run, when DIR does not exist yet.
. "$(dirname "$0")/lib.sh"
sim_env
cd "$T/mindspeed-llm"
QWEN=examples/mcore/qwen3/pretrain_qwen3_8b_4K_ptd.sh
# The checkout is linked into $T: replace the link, not the file it names.
TRACKER=model_weights/qwen3-8b-mcore/latest_checkpointed_iteration.txt
rm -f "$TRACKER"
echo 5000 > "$TRACKER"

msprof -n --train-iters 5006 bash "$QWEN"
is "$rc" 0 "-n, resumed at 5000: exit 0"
like "$out" "note: the launch resumes from iteration 5000 \(\./model_weights/qwen3-8b-mcore/latest_checkpointed_iteration\.txt\): the steps move to 5002 to 5004, excluding 5004" \
    "-n: the note says where the window moved and why"
like "$out" "--profile-step-start 5002 --profile-step-end 5004 " "-n: the launch gets 5002:5004"
like "$out" "Steps +5002 to 5004, excluding 5004 \(after iteration 5000, which the launch resumes from\)" \
    "the table shows the moved window"

msprof -y --train-iters 5006 bash "$QWEN"
is "$rc" 0 "resumed at 5000: the run succeeds"
is "$(ranks_in profiling_output)" "0" "resumed: rank 0 profiled"
is "$(steps_in profiling_output)" "1 2" "resumed: the profiler's steps 1 and 2 (iterations 5002 and 5003)"
like "$out" "
  rank 0 +1-2 +5002-5003 " \
    "the report names the profiler's steps 1 and 2 by their iterations, 5002 and 5003"
like "$out" "
  1 +5002 +[0-9.]+ " "... in the rank's step table too"
like "$(journal)" '"step_start":5002,"step_end":5004,"loaded_iteration":5000' \
    "the journal has the moved window and the loaded iteration"
like "$(<logs/train_mcore_qwen3_8b.log)" "iteration +5006/ +5006" "resumed: it trained up to 5006"

rm -rf profiling_output
msprof -y -s 3:5 --train-iters 5006 bash "$QWEN"
is "$rc" 78 "--steps 3:5 at or before the loaded iteration: exit 78"
like "$err" "resumes from iteration 5000 .*profile_step_start should be greater than 5000.*give --steps 5003:5005" \
    "the refusal says why and what to give instead"
unlike "$(cat logs/train_mcore_qwen3_8b.log 2>/dev/null)" "AssertionError" "the training never started"

rm -rf profiling_output logs
msprof -y -s 5003:5005 --train-iters 5006 bash "$QWEN"
is "$rc" 0 "--steps after the loaded iteration: runs as given"
is "$(steps_in profiling_output)" "2 3" "--steps 5003:5005 collects iterations 5003 and 5004"

# The first run of an auto-resuming job: nothing to load yet.
rm -rf profiling_output
sed -e 's|^CKPT_LOAD_DIR=.*|CKPT_LOAD_DIR="./ckpt/auto"|' \
    -e 's|^CKPT_SAVE_DIR=.*|CKPT_SAVE_DIR="./ckpt/auto"|' "$QWEN" > auto.sh
msprof -y bash auto.sh
is "$rc" 0 "--load DIR --save DIR before DIR exists: runs"
is "$(steps_in profiling_output)" "1 2" "first run: a fresh start, iterations 2 and 3"
like "$(<logs/train_mcore_qwen3_8b.log)" "will not load any checkpoints and will start from random" \
    "first run: Megatron's warning, as without msprof-exec"
done_testing
