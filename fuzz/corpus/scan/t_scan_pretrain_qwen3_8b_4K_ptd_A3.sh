#!/bin/bash
# A3: 16 NPU dies per node.
export CPU_AFFINITY_CONF=1

NPUS_PER_NODE=16
MASTER_ADDR=localhost
MASTER_PORT=6010
NNODES=1
NODE_RANK=0

DISTRIBUTED_ARGS="--nproc_per_node $NPUS_PER_NODE --nnodes $NNODES --node_rank $NODE_RANK --master_addr $MASTER_ADDR --master_port $MASTER_PORT"

torchrun $DISTRIBUTED_ARGS pretrain_gpt.py --num-layers 36 --train-iters 100 --distributed-backend nccl | tee logs/pretrain_qwen3_8b_A3.log
