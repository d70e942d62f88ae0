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

# detectron2: python3 runs a training entry with --eval-only (an eval
# row): left alone, and the table says why.
alone detectron2 'is run with --eval-only, an evaluation' \
    python3 tools/train_net.py --config-file \
    configs/COCO-Detection/faster_rcnn_R_50_FPN_1x.yaml --eval-only \
    MODEL.WEIGHTS model_final.pkl
done_testing
