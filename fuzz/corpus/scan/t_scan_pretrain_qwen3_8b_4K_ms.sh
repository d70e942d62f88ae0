#!/bin/bash
# MindSpore backend: launched with msrun.
export HCCL_CONNECT_TIMEOUT=3600

NPUS_PER_NODE=8
MASTER_ADDR=localhost #主节点IP
MASTER_PORT=9110
NNODES=2
NODE_RANK=1
WORLD_SIZE=$(( NPUS_PER_NODE * NNODES ))

DISTRIBUTED_ARGS="
    --local_worker_num $NPUS_PER_NODE \
    --master_port $MASTER_PORT \
    --worker_num $WORLD_SIZE \
    --node_rank $NODE_RANK \
    --master_addr $MASTER_ADDR \
    --log_dir=msrun_log \
    --join=True \
    --cluster_time_out=300
"

msrun $DISTRIBUTED_ARGS pretrain_gpt.py \
    --use-mcore-models \
    --num-layers 36 \
    --ai-framework mindspore \
    --distributed-backend nccl \
    | tee logs/train_qwen3_8b_ms.log
