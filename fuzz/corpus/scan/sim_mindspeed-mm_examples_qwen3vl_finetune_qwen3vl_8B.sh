#!/bin/bash
# Qwen3-VL-8B full fine-tuning, YAML-driven (msprof-exec simulation checkout).
# Run from the MindSpeed-MM root.  All settings are in the YAML; pretrain_transformers.py
# rebuilds its command line from it (tools.json comes from its MM_TOOL_PATH key).
source ${MSPROF_SIM_ASCEND:-/usr/local/Ascend}/cann/set_env.sh
export CUDA_DEVICE_MAX_CONNECTIONS=2
export ASCEND_SLOG_PRINT_TO_STDOUT=0
export ASCEND_GLOBAL_LOG_LEVEL=3
export TASK_QUEUE_ENABLE=2
export CPU_AFFINITY_CONF=1
export HCCL_CONNECT_TIMEOUT=1200
export PYTORCH_NPU_ALLOC_CONF=expandable_segments:True

NPUS_PER_NODE=${NPUS_PER_NODE:-2}
MASTER_ADDR=localhost
MASTER_PORT=${MASTER_PORT:-6000}
NNODES=1
NODE_RANK=0
WORLD_SIZE=$(($NPUS_PER_NODE*$NNODES))

config_path="./examples/qwen3vl/qwen3vl_full_sft_8B.yaml"

DISTRIBUTED_ARGS="
    --nproc_per_node $NPUS_PER_NODE \
    --nnodes $NNODES \
    --node_rank $NODE_RANK \
    --master_addr $MASTER_ADDR \
    --master_port $MASTER_PORT
"

logfile=$(date +%Y%m%d)_$(date +%H%M%S)
mkdir -p logs
torchrun $DISTRIBUTED_ARGS pretrain_transformers.py ${config_path} \
    --distributed-backend nccl \
    2>&1 | tee logs/train_${logfile}.log
