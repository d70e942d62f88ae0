#!/bin/bash
# torchrun, one worker a NPU (torch_npu_run and python -m torch.distributed.run alike).
NPUS_PER_NODE=${NPUS_PER_NODE:-2}
MASTER_PORT=${MASTER_PORT:-29500}
torchrun --nproc_per_node $NPUS_PER_NODE --master_port $MASTER_PORT train.py --steps ${STEPS:-14}
