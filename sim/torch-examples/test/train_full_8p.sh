#!/bin/bash
# The shape of the Ascend model zoo's test/train_full_8p.sh: one python3 train.py a rank,
# in the background (nohup), bound to its share of the cores (taskset), its rank in
# RANK_ID and --local_rank, its output in test/output/train_RANK.log; then wait.
export RANK_SIZE=${RANK_SIZE:-2}
export MASTER_PORT=${MASTER_PORT:-29500}

cur_path=`pwd`
cur_path_last_dirname=${cur_path##*/}
if [ x"${cur_path_last_dirname}" == x"test" ]; then
    test_path_dir=${cur_path}
    cd ..
else
    test_path_dir=${cur_path}/test
fi
mkdir -p ${test_path_dir}/output

CORES=$(nproc)
KERNEL_NUM=$((CORES / RANK_SIZE))
[ $KERNEL_NUM -ge 1 ] || KERNEL_NUM=1
for ((RANK_ID = 0; RANK_ID < RANK_SIZE; RANK_ID++)); do
    export RANK_ID=$RANK_ID
    PID_START=$(((KERNEL_NUM * RANK_ID) % CORES))
    PID_END=$((PID_START + KERNEL_NUM - 1))
    nohup taskset -c $PID_START-$PID_END python3 train.py \
        --local_rank $RANK_ID \
        --steps ${STEPS:-14} > ${test_path_dir}/output/train_${RANK_ID}.log 2>&1 &
done
wait
