#!/bin/bash
# A comment that says "don't" and has an unbalanced ' quote
# torchrun --nproc_per_node 1 pretrain_gpt.py --commented-out
NPUS_PER_NODE=4   # don't trust this: it's "four"
MASTER_PORT=7000#not-a-comment
DATA_PATH="/data/#1/corpus"      # the '#' inside quotes is data
TAG='run #2 "quoted"'
echo "it's # not a comment" ; echo 'nor # is this'
NOTE="a \"quoted\" word and a \$DOLLAR"
torchrun --nproc_per_node $NPUS_PER_NODE --master_port $MASTER_PORT pretrain_gpt.py --data-path "$DATA_PATH" --tag "$TAG" --note "$NOTE" --save ckpt#1 # trailing comment --profile
