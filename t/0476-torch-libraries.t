#!/usr/bin/env bash
# Trainings whose loop lives in a library or in a package of the
# repository (issue 28), as stand-ins of the real repositories run them
# (t/data/libtrain): each training gets PROF_CONFIG_PATH and collects
# rank 0 only, each evaluation is left alone and says why.  The
# libraries are zipped onto PYTHONPATH, where Python imports them and
# msprof-exec cannot read them (as an egg or a wheel zipped in
# site-packages): their training calls are known from trainings.conf
# alone.
. "$(dirname "$0")/lib.sh"
. "$TOP/t/plain-python.sh"
own_pycache
sim_env
D=$TOP/t/data/libtrain
(cd "$D/lib" && "$PY" -c 'import sys, zipfile, os
z = zipfile.ZipFile(sys.argv[1], "w")
for d, _, fs in sorted(os.walk(".")):
    for f in sorted(fs):
        z.write(os.path.join(d, f))' "$T/site.zip")
export PYTHONPATH=$T/site.zip:$PYTHONPATH
export MSPROF_SIM_DP_HOLD=$MSPROF_T_WAIT_LIMIT ITERS=8
OUT=$T/out

# profiled NAME DIR WHY-ERE COMMAND...: run COMMAND in a copy of DIR; one
# launch injected, taken for the call WHY-ERE, rank 0 collected only.
profiled() {
	local name=$1 dir=$2 why=$3
	shift 3
	rm -rf "$T/w" "$OUT"
	cp -R "$D/$dir" "$T/w"
	(cd "$T/w" && msprof -y --steps 3:5 -o "$OUT" "$@"
	    printf '%s\n' "$rc" > "$T/rc"; printf '%s\n' "$out" > "$T/o")
	is "$(< "$T/rc")" 0 "$name: exit 0"
	is "$(njournal injected "$OUT")" 1 "$name: taken for training"
	like "$(journal "$OUT")" "\"reason\":\"[^\"]*$why" "$name: for $why"
	like "$(< "$T/o")" "taken for training: .*$why" "$name: the report says why"
	is "$(ranks_in "$OUT")" 0 "$name: rank 0 collected, and only it"
}

profiled "mmdetection dist_train.sh" mmdetection \
    'tools/train.py:[0-9]+: train_detector\(\) \(MMDetection\)' \
    bash tools/dist_train.sh configs/faster_rcnn_r50_fpn_1x_coco.py 2
profiled "detectron2 train_net.py --num-gpus 2 (spawns its ranks)" \
    detectron2 'tools/train_net.py:[0-9]+: trainer.train\(\) \(detectron2\)' \
    python3 tools/train_net.py --num-gpus 2 --config-file cfg.yaml
profiled "FastChat train_mem.py: the loop in the package at the working directory" \
    fastchat 'fastchat/train/train.py:[0-9]+: loss.backward\(\)' \
    bash scripts/train_vicuna_7b.sh
profiled "open_clip: torchrun -m training.main" open_clip \
    'training/train.py:[0-9]+: .*backward\(\)' bash run.sh
# The dry run reads the entry from where the script's cd takes it.
rm -rf "$T/w"
cp -R "$D/open_clip" "$T/w"
(cd "$T/w" && msprof -n bash run.sh; printf '%s\n' "$out" > "$T/o")
like "$(< "$T/o")" "training: training/train.py:[0-9]+: .*backward\(\)" \
    "open_clip: -n reads training.main from src/, where run.sh's cd goes"
profiled "DeepSpeed engine: engine.backward(loss), engine.step()" ds_engine \
    'train.py:[0-9]+: model_engine.backward\(\), train.py:[0-9]+: model_engine.step\(\)' \
    bash run.sh
profiled "model zoo main.py: mp.spawn, apex amp.scale_loss (spawns its ranks)" \
    apex_amp 'main.py:[0-9]+: amp.scale_loss\(\) \(apex.amp\)' \
    bash train_full_8p.sh
profiled "DeepSpeed-Chat step 3: the RLHF engine's PPO trainer" \
    rlhf/training/step3_rlhf_finetuning \
    'main.py:[0-9]+: trainer.train_rlhf\(\) \(DeepSpeed-Chat\)' bash run.sh

# An evaluation that imports the training module: left alone, with why.
rm -rf "$T/w" "$OUT"
cp -R "$D/evaltrainer" "$T/w"
cd "$T/w"
msprof -y -o "$OUT" bash run_eval.sh
is "$rc" 0 "eval.py importing trainer.py: exit 0"
is "$(njournal injected "$OUT")" 0 "... never taken for training"
is "$(ls -d "$OUT"/*_ascend_pt 2>/dev/null | wc -l | tr -d ' ')" 0 "... no data"
like "$(journal "$OUT")" 'the loop of trainer.py:[0-9]+: train\(\) is never called' \
    "... the loop it does not call is named"
like "$out$err" 'trainings.conf' "... and how to add a row"

# MMDetection's test: a library call that does not train.
rm -rf "$T/w" "$OUT"
cp -R "$D/mmdetection" "$T/w"
cd "$T/w"
msprof -y -o "$OUT" bash tools/dist_test.sh cfg.py model.pth 2
is "$(njournal injected "$OUT")" 0 "mmdetection dist_test.sh: left alone"

# A row of the user's own (~/.config) makes a library call a training.
mkdir -p "$T/home/.config/msprof-exec"
cat > "$T/w/tools/mytrain.py" <<'PY'
import torch.distributed as dist
from mmdet.apis import single_gpu_test
from mmdet.models import build_detector
dist.init_process_group("hccl")
single_gpu_test(build_detector({}), [])
PY
msprof -n torchrun --nproc_per_node 2 tools/mytrain.py
like "$out" "left alone \(not a training entry" "without a row: left alone"
echo "train mmdet single_gpu_test my-loop" > "$T/home/.config/msprof-exec/trainings.conf"
HOME=$T/home msprof -n torchrun --nproc_per_node 2 tools/mytrain.py
like "$out" "training: tools/mytrain.py:5: single_gpu_test\(\) \(my-loop\)" \
    "a row in ~/.config/msprof-exec/trainings.conf: taken"
echo "train mmdet" > "$T/home/.config/msprof-exec/trainings.conf"
HOME=$T/home msprof -n torchrun --nproc_per_node 2 tools/mytrain.py
is "$rc" 78 "a bad row: exit 78"
like "$err" "trainings.conf:1: cannot read 'train' with 2 word" "... naming the line"

# Hugging Face's example scripts: Trainer(...).train() behind
# training_args.do_train (the row 'needs transformers --do_train').
cd "$D/hf_clm"
clm() { msprof -n torchrun --nproc_per_node 2 run_clm.py "$@"; }
clm --model_name_or_path gpt2 --do_eval --output_dir out
like "$out" "left alone \(not a training entry: run_clm.py trains \(run_clm.py:[0-9]+: Trainer\(\), run_clm.py:[0-9]+: trainer.train\(\)\) only when run with --do_train \(a 'needs' row of trainings.conf\)" \
    "run_clm.py --do_eval: left alone, the row and the option said"
unlike "$out" "^training: " "... no training"
clm --model_name_or_path gpt2 --do_train --do_eval --output_dir out
like "$out" "training: run_clm.py:[0-9]+: Trainer\(\), run_clm.py:[0-9]+: trainer.train\(\)" \
    "run_clm.py --do_train --do_eval: a training"
clm --model_name_or_path gpt2 --do_train=True
like "$out" "^training: " "--do_train=True: a training"
clm --model_name_or_path gpt2 --do_train False --do_eval
unlike "$out" "^training: " "--do_train False: no training"
clm args.json
like "$out" "^training: " "a JSON file of arguments (which may hold do_train): a training"
# FastChat's train.py (transformers' Trainer, trained whatever do_train)
cd "$TOP/t/data/realtrain/FastChat"
msprof -n torchrun --nproc_per_node 2 fastchat/train/train.py --do_eval
like "$out" "^training: " "an entry that does not read do_train: the row does not apply"
done_testing
