#!/bin/bash
# Qwen3-8B pretraining on the FSDP2 backend (msprof-exec simulation checkout).
# The YAML is the first argument of train_fsdp2.py; --section.field arguments given
# after it take precedence over the YAML.
source examples/fsdp2/env_config.sh

NPUS_PER_NODE=${NPUS_PER_NODE:-2}
MASTER_ADDR=localhost
MASTER_PORT=${MASTER_PORT:-6499}
NNODES=1
NODE_RANK=0
WORLD_SIZE=$(($NPUS_PER_NODE*$NNODES))

DISTRIBUTED_ARGS="
    --nproc_per_node $NPUS_PER_NODE \
    --nnodes $NNODES \
    --node_rank $NODE_RANK \
    --master_addr $MASTER_ADDR \
    --master_port $MASTER_PORT
"

torchrun $DISTRIBUTED_ARGS train_fsdp2.py examples/fsdp2/qwen3/pretrain_qwen3_8b_4k_fsdp2.yaml \
    --parallel.fsdp_size $WORLD_SIZE
