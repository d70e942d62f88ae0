#!/bin/bash
# Hugging Face accelerate: --num_processes over all machines.
NPUS_PER_NODE=${NPUS_PER_NODE:-2}
MASTER_PORT=${MASTER_PORT:-29500}
accelerate launch --num_processes $NPUS_PER_NODE --main_process_port $MASTER_PORT train.py --steps ${STEPS:-14}
