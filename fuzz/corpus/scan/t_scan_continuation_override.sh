#!/bin/bash
NPUS_PER_NODE=8
NNODES=4
MASTER_PORT=6000

# The launch line's own options win over the variables above.
torchrun \
    --nproc-per-node=2 \
    --nnodes=1 \
    --node-rank=0 \
    --master-port 29500 \
    pretrain_gpt.py \
        --num-layers 2 \
        --train-iters \
            30 \
        --lr 1e-4
