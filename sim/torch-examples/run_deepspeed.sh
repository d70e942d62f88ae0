#!/bin/bash
# DeepSpeed's launcher: the workers get --local_rank=N.
NPUS_PER_NODE=${NPUS_PER_NODE:-2}
MASTER_PORT=${MASTER_PORT:-29500}
deepspeed --num_gpus $NPUS_PER_NODE --master_port $MASTER_PORT train.py --steps ${STEPS:-14}
