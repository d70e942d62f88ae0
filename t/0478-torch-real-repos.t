#!/usr/bin/env bash
# The entries of public repositories, verbatim (t/data/realtrain, with
# their provenance), as their own scripts launch them: each training is
# taken for the call that makes it one, each evaluation, inference or
# preprocessing launch is left alone and says why.  A dry run (-n) each:
# the decision the injector makes at the launch's exec, shown before it.
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

# detectron2: a library's runner (trainer.train() of DefaultTrainer), and
# the same entry run with --eval-only (an eval row).
taken detectron2 'tools/train_net.py:[0-9]+: trainer.train\(\) \(detectron2\)' \
    python3 tools/train_net.py --config-file \
    configs/COCO-Detection/faster_rcnn_R_50_FPN_1x.yaml --num-gpus 8
alone detectron2 'is run with --eval-only, an evaluation' \
    python3 tools/train_net.py --config-file \
    configs/COCO-Detection/faster_rcnn_R_50_FPN_1x.yaml --eval-only \
    MODEL.WEIGHTS model_final.pkl

# DeepSpeedExamples: an engine's backward and step; the ImageNet example
# with --evaluate; ZeRO inference (deepspeed.initialize, nothing stepped).
taken DeepSpeedExamples/training/cifar \
    'cifar10_deepspeed.py:[0-9]+: model_engine.backward\(\), cifar10_deepspeed.py:[0-9]+: model_engine.step\(\)' \
    deepspeed --bind_cores_to_rank cifar10_deepspeed.py --deepspeed
taken DeepSpeedExamples/training/imagenet 'main.py:[0-9]+: deepspeed.initialize\(\)' \
    deepspeed main.py -a resnet50 --deepspeed --deepspeed_config \
    config/ds_config.json --multiprocessing_distributed /data/imagenet
alone DeepSpeedExamples/training/imagenet 'is run with --evaluate, an evaluation' \
    python main.py -a resnet50 --evaluate /data/imagenet
alone DeepSpeedExamples/inference/huggingface/zero_inference \
    'run_model.py:[0-9]+: deepspeed.initialize\(\) but no backward pass or step' \
    deepspeed --num_gpus 1 run_model.py --model facebook/opt-1.3b \
    --batch-size 8 --cpu-offload

# FastChat: train_mem.py calls train() of the package at the working
# directory; the judge's answer generation imports it and trains nothing.
taken FastChat 'fastchat/train/train.py:[0-9]+: Trainer\(\), fastchat/train/train.py:[0-9]+: trainer.train\(\)' \
    torchrun --nproc_per_node=4 --master_port=20001 \
    fastchat/train/train_mem.py --model_name_or_path lmsys/vicuna-7b \
    --data_path data/dummy_conversation.json --output_dir output_vicuna
alone FastChat 'gen_model_answer.py is built on torch but trains nothing' \
    python3 fastchat/llm_judge/gen_model_answer.py --model-path \
    lmsys/vicuna-7b-v1.5 --model-id vicuna-7b-v1.5

# LLaMA-Factory: llamafactory-cli train on more than one device runs
# torchrun with its launcher.py; src/train.py; both call run_exp() (a row).
taken LLaMA-Factory 'src/llamafactory/launcher.py:[0-9]+: run_exp\(\) \(LLaMA-Factory\)' \
    torchrun --nnodes 1 --node_rank 0 --nproc_per_node 8 --master_addr \
    127.0.0.1 --master_port 29500 src/llamafactory/launcher.py train \
    examples/train_lora/qwen3_lora_sft.yaml
taken LLaMA-Factory 'src/train.py:[0-9]+: run_exp\(\) \(LLaMA-Factory\)' \
    python3 src/train.py examples/train_lora/qwen3_lora_sft.yaml

# open_clip: a module run by name from src/, its loop in another module.
taken open_clip/src 'open_clip_train/train.py:[0-9]+: total_loss.backward\(\), open_clip_train/train.py:[0-9]+: optimizer.step\(\)' \
    torchrun --nproc_per_node 8 -m open_clip_train.main --train-data x.tar

# The Ascend model zoo: DeepLabv3+ (help strings continued by a
# backslash), ResNet50 with apex amp and its own ranks, mmdet 2.x's
# tools/train.py and tools/test.py (mmdet.apis re-exports train_detector
# in a bracketed import: imported, not called).
taken ModelZoo-PyTorch/DeepLabv3+_ID1695_for_PyTorch \
    'train.py:[0-9]+: amp.scale_loss\(\) \(apex.amp\)' \
    python3 train.py --backbone resnet --dataset pascal \
    --multiprocessing-distributed
taken ModelZoo-PyTorch/ResNet50_for_PyTorch \
    'DistributedResnet50/main_apex_d76_npu.py:[0-9]+: amp.scale_loss\(\) \(apex.amp\)' \
    python3 ./DistributedResnet50/main_apex_d76_npu.py --data /data \
    --multiprocessing-distributed --world-size=1 --rank=0
taken ModelZoo-PyTorch/SSD_for_PyTorch \
    'tools/train.py:[0-9]+: train_detector\(\) \(MMDetection\)' \
    python3 -m torch.distributed.launch --nproc_per_node=8 ./tools/train.py \
    configs/ssd/ssdlite_mobilenetv2_scratch_600e_coco_8p.py --launcher pytorch
alone ModelZoo-PyTorch/SSD_for_PyTorch 'tools/test.py is built on torch but trains nothing' \
    python3 -m torch.distributed.launch --nproc_per_node=8 ./tools/test.py \
    configs/ssd/ssdlite_mobilenetv2_scratch_600e_coco_8p.py \
    work_dirs/epoch_120.pth --eval=bbox --launcher pytorch

# Deltalm: fairseq's training entry (a row), its generation is inference.
taken ModelZoo-PyTorch/Deltalm_for_PyTorch 'train.py:[0-9]+: cli_main\(\) \(fairseq\)' \
    python3 train.py /data/iwslt14 --arch deltalm_base --task translation
alone ModelZoo-PyTorch/Deltalm_for_PyTorch 'generate.py is built on fairseq but trains nothing' \
    python3 generate.py /data/iwslt14 --path checkpoint_best.pt

# pip is no training (python -m pip: its module is read, it trains nothing).
(cd "$R/FastChat" && msprof -n python3 -m pip install -e .
    printf '%s\n' "$out" > "$T/o")
unlike "$(cat "$T/o")" "^training: " "python3 -m pip install -e .: no training"
done_testing
