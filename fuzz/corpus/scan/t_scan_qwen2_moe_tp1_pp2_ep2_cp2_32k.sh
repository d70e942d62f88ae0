#!/bin/bash
export CUDA_DEVICE_MAX_CONNECTIONS=1

NPUS_PER_NODE=8
MASTER_ADDR=localhost
MASTER_PORT=6000
NNODES=1
NODE_RANK=0

DISTRIBUTED_ARGS="--nproc_per_node $NPUS_PER_NODE --nnodes $NNODES --node_rank $NODE_RANK --master_addr $MASTER_ADDR --master_port $MASTER_PORT"

GPT_ARGS="
    --use-mcore-models \
    --num-layers 4 \
    --context-parallel-size 2 \
    --seq-length 32768 \
    --train-iters 15 \
"

PROFILE_ARGS="
    --profile \
    --profile-step-start 5 \
    --profile-step-end 6 \
    --profile-ranks 0 \
    --profile-level level1 \
    --profile-with-cpu \
    --profile-record-shapes \
    --profile-save-path ./profile_dir \
"

torchrun $DISTRIBUTED_ARGS pretrain_gpt.py \
    $GPT_ARGS \
    $PROFILE_ARGS \
    --distributed-backend nccl \
    | tee logs/qwen2_moe_32k.log
