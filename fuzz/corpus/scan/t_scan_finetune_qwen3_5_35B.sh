#!/bin/bash
source /usr/local/Ascend/cann/set_env.sh
export NON_MEGATRON=true

NPUS_PER_NODE=16
MASTER_ADDR=localhost
MASTER_PORT=6000
NNODES=1
NODE_RANK=0

config_path=examples/qwen3_5/qwen3_5_35B_config.yaml
DISTRIBUTED_ARGS="--nproc_per_node $NPUS_PER_NODE --nnodes $NNODES --node_rank $NODE_RANK --master_addr $MASTER_ADDR --master_port $MASTER_PORT"

mkdir -p logs
torchrun $DISTRIBUTED_ARGS mindspeed_mm/fsdp/train/trainer.py ${config_path} \
    tools.profile.enable=true tools.profile.static_param.start_step=5 \
    training.max_steps=50 \
    2>&1 | tee logs/train_qwen3_5.log
