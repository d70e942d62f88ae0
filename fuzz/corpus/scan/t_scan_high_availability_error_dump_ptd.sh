#!/bin/bash
export HCCL_CONNECT_TIMEOUT=1200
NPUS_PER_NODE=8
MASTER_ADDR=localhost
MASTER_PORT=6000
NNODES=1
NODE_RANK=0

DISTRIBUTED_ARGS="--nproc_per_node $NPUS_PER_NODE --nnodes $NNODES --node_rank $NODE_RANK --master_addr $MASTER_ADDR --master_port $MASTER_PORT"
COMMON_ARGS="--num-layers 2 --hidden-size 256 --distributed-backend nccl"

# First run: train and dump a checkpoint on error.
torchrun $DISTRIBUTED_ARGS pretrain_gpt.py $COMMON_ARGS --train-iters 15 --enable-high-availability --save ./ckpt

MASTER_PORT=6001
# Second run: resume from the dump.
torchrun --nproc_per_node 4 --master_port $MASTER_PORT posttrain_gpt.py $COMMON_ARGS --train-iters 20 --load ./ckpt
