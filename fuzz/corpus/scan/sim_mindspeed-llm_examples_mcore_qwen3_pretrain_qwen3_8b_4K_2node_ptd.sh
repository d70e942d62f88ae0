#!/bin/bash
# Qwen3-8B pretraining on two nodes (msprof-exec simulation checkout).
# On each node, from the MindSpeed-LLM root:
#   node 0:  NODE_RANK=0 MASTER_ADDR=<node0 ip> bash examples/mcore/qwen3/pretrain_qwen3_8b_4K_2node_ptd.sh
#   node 1:  NODE_RANK=1 MASTER_ADDR=<node0 ip> bash examples/mcore/qwen3/pretrain_qwen3_8b_4K_2node_ptd.sh
export CUDA_DEVICE_MAX_CONNECTIONS=1
export HCCL_CONNECT_TIMEOUT=1800
export PYTORCH_NPU_ALLOC_CONF=expandable_segments:True
export TASK_QUEUE_ENABLE=2

NPUS_PER_NODE=${NPUS_PER_NODE:-2}
MASTER_ADDR=${MASTER_ADDR:-localhost}   # IP of the master node
MASTER_PORT=${MASTER_PORT:-6000}
NNODES=2
NODE_RANK=${NODE_RANK:-0}
WORLD_SIZE=$(($NPUS_PER_NODE*$NNODES))

CKPT_LOAD_DIR="./model_weights/qwen3-8b-mcore"
CKPT_SAVE_DIR="./ckpt/qwen3-8b-mcore"
DATA_PATH="./dataset/enwiki_text_document"
TOKENIZER_PATH="./model_from_hf/qwen3-8b"

TP=1
PP=2
MBS=1
GBS=16

DISTRIBUTED_ARGS="
    --nproc_per_node $NPUS_PER_NODE \
    --nnodes $NNODES \
    --node_rank $NODE_RANK \
    --master_addr $MASTER_ADDR \
    --master_port $MASTER_PORT
"

GPT_ARGS="
    --use-mcore-models \
    --tensor-model-parallel-size ${TP} \
    --pipeline-model-parallel-size ${PP} \
    --num-layers 36 \
    --hidden-size 4096 \
    --num-attention-heads 32 \
    --tokenizer-type PretrainedFromHF \
    --tokenizer-name-or-path ${TOKENIZER_PATH} \
    --seq-length 4096 \
    --micro-batch-size ${MBS} \
    --global-batch-size ${GBS} \
    --lr 1.25e-6 \
    --lr-decay-style cosine \
    --train-iters 10 \
    --bf16
"

DATA_ARGS="
    --data-path $DATA_PATH \
    --split 100,0,0
"

OUTPUT_ARGS="
    --log-interval 1 \
    --save-interval 2000 \
    --eval-interval 2000 \
    --eval-iters 0
"

mkdir -p logs
torchrun $DISTRIBUTED_ARGS pretrain_gpt.py \
    $GPT_ARGS \
    $DATA_ARGS \
    $OUTPUT_ARGS \
    --load ${CKPT_LOAD_DIR} \
    --save ${CKPT_SAVE_DIR} \
    --distributed-backend nccl \
    | tee logs/train_mcore_qwen3_8b_node${NODE_RANK}.log
