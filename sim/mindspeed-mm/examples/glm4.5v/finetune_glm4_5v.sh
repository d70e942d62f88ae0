#!/bin/bash
# GLM-4.5V fine-tuning (a small stand-in), pretrain_transformers.py driven by
# Megatron-style options and --mm-tool, with no YAML config: the second way
# MindSpeed-MM drives it (msprof-exec simulation checkout).
# Run from the MindSpeed-MM root.
source ${MSPROF_SIM_ASCEND:-/usr/local/Ascend}/cann/set_env.sh
export CUDA_DEVICE_MAX_CONNECTIONS=1
export HCCL_CONNECT_TIMEOUT=1200
export PYTORCH_NPU_ALLOC_CONF=expandable_segments:True

NPUS_PER_NODE=${NPUS_PER_NODE:-2}
MASTER_ADDR=localhost
MASTER_PORT=${MASTER_PORT:-6000}
NNODES=1
NODE_RANK=0
WORLD_SIZE=$(($NPUS_PER_NODE*$NNODES))

MM_DATA="./examples/glm4.5v/data.json"
MM_MODEL="./examples/glm4.5v/model.json"
MM_TOOL="./mindspeed_mm/tools/tools.json"

MBS=1
GBS=$(($MBS*$WORLD_SIZE))

DISTRIBUTED_ARGS="
    --nproc_per_node $NPUS_PER_NODE \
    --nnodes $NNODES \
    --node_rank $NODE_RANK \
    --master_addr $MASTER_ADDR \
    --master_port $MASTER_PORT
"

GPT_ARGS="
    --use-mcore-models \
    --micro-batch-size ${MBS} \
    --global-batch-size ${GBS} \
    --lr 1e-5 \
    --min-lr 1e-6 \
    --lr-decay-style cosine \
    --weight-decay 0 \
    --train-iters 20 \
    --clip-grad 0.0 \
    --bf16
"

MM_ARGS="
    --mm-data $MM_DATA \
    --mm-model $MM_MODEL \
    --mm-tool $MM_TOOL
"

OUTPUT_ARGS="
    --log-interval 1 \
    --save-interval 10000 \
    --eval-interval 10000 \
    --eval-iters 0
"

logfile=$(date +%Y%m%d)_$(date +%H%M%S)
mkdir -p logs
torchrun $DISTRIBUTED_ARGS pretrain_transformers.py \
    $GPT_ARGS \
    $MM_ARGS \
    $OUTPUT_ARGS \
    --distributed-backend nccl \
    2>&1 | tee logs/train_${logfile}.log
