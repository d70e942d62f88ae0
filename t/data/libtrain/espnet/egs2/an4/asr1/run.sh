#!/usr/bin/env bash
# ESPnet's egs2/TEMPLATE/asr1/asr.sh stage 11, reduced: run.pl runs the
# training job, python3 -m espnet2.bin.asr_train, from the recipe's folder
# with espnet2 on PYTHONPATH (an editable install's path entry).
export PYTHONPATH=../../..:$PYTHONPATH
python3 -m espnet2.bin.asr_train --ngpu 1 --output_dir exp/asr_train \
    --max_epoch 1 --config conf/train_asr.yaml
