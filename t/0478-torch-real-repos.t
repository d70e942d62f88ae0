#!/usr/bin/env bash
# The entries of public repositories, verbatim (t/data/realtrain, with
# their provenance), as their own scripts launch them: each training is
# taken for the call that makes it one, each evaluation, inference or
# preprocessing launch is left alone and says why.  The verdict and the
# reason of every one of them is checked where they are decided, in
# t/unit/classify.c (real_repos); here two whole dry runs (-n) show the
# path from the command to what the user reads, on the simulation: the
# launcher and python3 found on PATH, the launcher's options skipped, a
# module found from the working directory, the entry's own arguments
# read, the training line and the table's "Left alone" row printed.
. "$(dirname "$0")/lib.sh"
sim_env
R=$TOP/t/data/realtrain

# taken DIR WHY-ERE COMMAND...: in DIR, COMMAND is a training, for WHY.
taken() {
	local dir=$1 why=$2
	shift 2
	(cd "$R/$dir" && msprof -n "$@"; printf '%s\n' "$out" > "$T/o")
	like "$(cat "$T/o")" "^training: $why" "$dir: $* is a training"
}
# alone DIR WHY-ERE COMMAND...: in DIR, COMMAND is left alone, for WHY.
alone() {
	local dir=$1 why=$2
	shift 2
	(cd "$R/$dir" && msprof -n "$@"; printf '%s\n' "$out" > "$T/o")
	unlike "$(cat "$T/o")" "^training: " "$dir: $* is no training"
	like "$(cat "$T/o")" "Left alone .*$why" "... $why"
}

# open_clip: torchrun (a launcher, its options) runs a module by name from
# src/, whose loop is in another module of its package.
taken open_clip/src 'open_clip_train/train.py:[0-9]+: total_loss.backward\(\), open_clip_train/train.py:[0-9]+: optimizer.step\(\)' \
    torchrun --nproc_per_node 8 -m open_clip_train.main --train-data x.tar

# open_clip after its README's "pip install -e .": from the checkout's
# root, the module is found through the editable install's finder in the
# site-packages of torchrun's Python.
site=$T/venv/lib/python3.11/site-packages
mkdir -p "$T/venv/bin" "$site"
ln -s "$PY" "$T/venv/bin/python3"
printf '#!%s\nimport sys\n' "$T/venv/bin/python3" > "$T/venv/bin/torchrun"
chmod +x "$T/venv/bin/torchrun"
printf 'import __editable___open_clip_torch_2_24_0_finder; __editable___open_clip_torch_2_24_0_finder.install()\n' \
    > "$site/__editable__.open_clip_torch-2.24.0.pth"
printf "MAPPING: dict[str, str] = {'open_clip': '%s', 'open_clip_train': '%s'}\n" \
    "$R/open_clip/src/open_clip" "$R/open_clip/src/open_clip_train" \
    > "$site/__editable___open_clip_torch_2_24_0_finder.py"
PATH=$T/venv/bin:$PATH taken open_clip '[^ ]*/open_clip/src/open_clip_train/train.py:[0-9]+: total_loss.backward\(\), [^ ]*/open_clip/src/open_clip_train/train.py:[0-9]+: optimizer.step\(\)' \
    torchrun --nproc_per_node 8 -m open_clip_train.main --train-data x.tar

# GLM-10B: deepspeed runs pretrain_glm.py, whose loop is in train_utils.py
# two calls down.
taken GLM 'train_utils.py:[0-9]+: deepspeed.initialize\(\), train_utils.py:[0-9]+: model.step\(\)' \
    deepspeed --num_gpus 8 pretrain_glm.py --block-lm --train-iters 250000

# detectron2: python3 runs a training entry with --eval-only (an eval
# row): left alone, and the table says why.
alone detectron2 'is run with --eval-only, an evaluation' \
    python3 tools/train_net.py --config-file \
    configs/COCO-Detection/faster_rcnn_R_50_FPN_1x.yaml --eval-only \
    MODEL.WEIGHTS model_final.pkl
done_testing
