#!/bin/bash
source /usr/local/Ascend/cann/set_env.sh

# Defaults the caller may override from the environment.
NPUS_PER_NODE=${NPUS_PER_NODE:-4}
MASTER_ADDR=${MASTER_ADDR:-localhost}
MASTER_PORT=${MASTER_PORT:-6000}
NNODES=${NNODES:-1}
NODE_RANK=${NODE_RANK:-0}
WORLD_SIZE=$((NPUS_PER_NODE * NNODES))

MM_DATA="./examples/step3_vl/data_10b.json"
MM_MODEL="./examples/step3_vl/model_10b.json"
MM_TOOL="./mindspeed_mm/tools/tools.json"

DISTRIBUTED_ARGS="--nproc_per_node $NPUS_PER_NODE --nnodes $NNODES --node_rank $NODE_RANK --master_addr $MASTER_ADDR --master_port $MASTER_PORT"
MM_ARGS="--mm-data $MM_DATA --mm-model $MM_MODEL --mm-tool $MM_TOOL"

logfile=$(date +%Y%m%d)_$(date +%H%M%S)
mkdir -p logs
torchrun $DISTRIBUTED_ARGS pretrain_vlm.py $MM_ARGS --train-iters 10 --distributed-backend nccl 2>&1 | tee logs/train_${logfile}.log
