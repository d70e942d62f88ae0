#!/bin/bash
export HCCL_CONNECT_TIMEOUT=1800

NPUS_PER_NODE=8
MASTER_ADDR=localhost #主节点IP
MASTER_PORT=6000
NNODES=2
NODE_RANK=${NODE_RANK:-0}
WORLD_SIZE=$(($NPUS_PER_NODE*$NNODES))

DISTRIBUTED_ARGS="
    --nproc_per_node $NPUS_PER_NODE \
    --nnodes $NNODES \
    --node_rank $NODE_RANK \
    --master_addr $MASTER_ADDR \
    --master_port $MASTER_PORT
"

python -m torch.distributed.launch $DISTRIBUTED_ARGS pretrain_gpt.py \
    --num-layers 61 \
    --expert-model-parallel-size ${WORLD_SIZE} \
    --train-iters 2000 \
    --distributed-backend nccl \
    | tee logs/pretrain_deepseek3_671b_4k_ptd.log
