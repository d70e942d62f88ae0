#!/bin/bash
set -eo pipefail

source examples/fsdp2/env_config.sh

NPUS_PER_NODE=8
MASTER_ADDR=localhost
MASTER_PORT=6499
NNODES=1
NODE_RANK=0

MODEL_PATH=${MODEL_PATH:-/models/Qwen3-1.7B}
DATA_PATH=${DATA_PATH:-/datasets/alpaca}
CONFIG_YAML=examples/fsdp2/qwen3/pretrain_qwen3_1p7b_4k_fsdp2_A2.yaml

DISTRIBUTED_ARGS="
    --nproc_per_node $NPUS_PER_NODE \
    --nnodes $NNODES \
    --node_rank $NODE_RANK \
    --master_addr $MASTER_ADDR \
    --master_port $MASTER_PORT
"

mkdir -p logs
# Command-line arguments take precedence over the YAML.
torchrun $DISTRIBUTED_ARGS train_fsdp2.py "$CONFIG_YAML" \
    --model.model_name_or_path "$MODEL_PATH" \
    --data.dataset "$DATA_PATH" \
    --parallel.fsdp_size 8 \
    --training.output_dir ./output \
    "$@" 2>&1 | tee "logs/pretrain_qwen3_1p7b_fsdp2_$(date +%s).log"
