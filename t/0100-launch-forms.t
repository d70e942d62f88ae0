#!/usr/bin/env bash
# Every way real scripts start a training launcher is caught and rewritten;
# the launcher's environment no longer carries the shim.
. "$(dirname "$0")/lib.sh"
. "$TOP/t/plain-python.sh"

make_recorder torchrun
make_recorder msrun
make_py_recorder
export PATH="$RBIN:$PATH" PYTHONPATH="$PYREC"
cc -shared -fPIC -o "$T/other.so" -x c - <<'C'
int msprof_test_other;
C

# check NAME EXPECTED-ARGV: the single recorded launch got EXPECTED-ARGV
# and an environment without the shim.
check() {
	is "$(nrecorded)" 1 "$1: one launch"
	is "$(rec_argv)" "$2" "$1: flags appended"
	unlike "$(rec_env "$(recorded | head -n 1)")" \
	    'MSPROF_EXEC_|msprof-exec-shim' "$1: no shim in the environment"
}
# run_script NAME SCRIPT-TEXT: run it through msprof-exec -y bash.
run_script() {
	reset_run
	printf '%s\n' "$2" > train.sh
	msprof -y bash train.sh
}

script='NPUS_PER_NODE=2
DISTRIBUTED_ARGS="--nproc_per_node $NPUS_PER_NODE --nnodes 1 --node_rank 0 --master_addr localhost --master_port 6000"
GPT_ARGS="--num-layers 2 --seq-length 4096"
mkdir -p logs
torchrun $DISTRIBUTED_ARGS pretrain_gpt.py $GPT_ARGS --train-iters 10 --distributed-backend nccl | tee logs/train.log'
reset_run
printf '%s\n' "$script" > train.sh
before=$(md5sum train.sh)
msprof -y bash train.sh
is "$rc" 0 "torchrun script: exit status"
check "torchrun script" "$RBIN/torchrun --nproc_per_node 2 --nnodes 1 --node_rank 0 --master_addr localhost --master_port 6000 pretrain_gpt.py --num-layers 2 --seq-length 4096 --train-iters 10 --distributed-backend nccl $DEFAULT_FLAGS"
is "$(md5sum train.sh)" "$before" "train.sh is byte-identical"
is "$(njournal injected)" 1 "the journal records the launch"

run_script "launch" 'python3 -m torch.distributed.launch --nproc_per_node 2 pretrain_gpt.py --lr 1'
check "python -m torch.distributed.launch" "launch --nproc_per_node 2 pretrain_gpt.py --lr 1 $DEFAULT_FLAGS"

run_script "run -u" 'python3 -u -m torch.distributed.run --nnodes 1 pretrain_gpt.py'
check "python -u -m torch.distributed.run" "run --nnodes 1 pretrain_gpt.py $DEFAULT_FLAGS"

run_script "run -um" 'python3 -um torch.distributed.run pretrain_gpt.py'
check "python -um (bundled)" "run pretrain_gpt.py $DEFAULT_FLAGS"

run_script "run -m attached" 'python3 -B -mtorch.distributed.run pretrain_gpt.py'
check "python -mtorch.distributed.run (attached)" "run pretrain_gpt.py $DEFAULT_FLAGS"

run_script "msrun" 'msrun --worker_num 2 --local_worker_num 2 --log_dir=msrun_log --join=True pretrain_gpt.py --x 1'
check "msrun" "$RBIN/msrun --worker_num 2 --local_worker_num 2 --log_dir=msrun_log --join=True pretrain_gpt.py --x 1 $DEFAULT_FLAGS"

run_script "exec" 'exec torchrun pretrain_gpt.py'
check "exec torchrun" "$RBIN/torchrun pretrain_gpt.py $DEFAULT_FLAGS"

printf '%s\n' 'torchrun --nproc_per_node 1 pretrain_gpt.py "$@"' > inner.sh
run_script "nested" 'bash inner.sh --seed 1'
check "nested bash inner.sh" "$RBIN/torchrun --nproc_per_node 1 pretrain_gpt.py --seed 1 $DEFAULT_FLAGS"

run_script "env" 'env HCCL_X=1 torchrun pretrain_gpt.py'
check "env VAR=1 torchrun" "$RBIN/torchrun pretrain_gpt.py $DEFAULT_FLAGS"
has_line "$(rec_env "$(recorded)")" HCCL_X=1 \
    "env VAR=1: the variable reaches the launcher"

run_script "sh -c" "sh -c 'torchrun pretrain_gpt.py --a b'"
check "sh -c" "$RBIN/torchrun pretrain_gpt.py --a b $DEFAULT_FLAGS"

run_script "xargs" 'echo pretrain_gpt.py | xargs torchrun --nproc_per_node 1'
check "xargs" "$RBIN/torchrun --nproc_per_node 1 pretrain_gpt.py $DEFAULT_FLAGS"

run_script "subprocess" "$PY -c 'import subprocess; subprocess.run([\"torchrun\", \"pretrain_gpt.py\"], check=True)'"
check "CPython subprocess.run (vfork)" "$RBIN/torchrun pretrain_gpt.py $DEFAULT_FLAGS"

run_script "posix_spawnp" "$PY -c 'import os; pid = os.posix_spawnp(\"torchrun\", [\"torchrun\", \"pretrain_gpt.py\"], os.environ); os.waitpid(pid, 0)'"
check "os.posix_spawnp" "$RBIN/torchrun pretrain_gpt.py $DEFAULT_FLAGS"

run_script "LD_PRELOAD" "export LD_PRELOAD=$T/other.so
torchrun pretrain_gpt.py"
check "export LD_PRELOAD=other" "$RBIN/torchrun pretrain_gpt.py $DEFAULT_FLAGS"
has_line "$(rec_env "$(recorded)")" "LD_PRELOAD=$T/other.so" \
    "export LD_PRELOAD: the user's preload is kept, alone"

run_script "env -i" 'env -i PATH=$PATH torchrun pretrain_gpt.py'
check "env -i PATH=\$PATH torchrun" "$RBIN/torchrun pretrain_gpt.py $DEFAULT_FLAGS"
unlike "$(rec_env "$(recorded)" | cut -d= -f1 | sort | tr '\n' ' ')" \
    'HOME|LD_PRELOAD' "env -i: the launcher gets only what env -i passed"

# A pip console script whose interpreter path was too long for #!.
mkdir -p tramp
cat > tramp/torchrun <<EOS
#!/bin/sh
'''exec' "$PY" "\$0" "\$@"
' '''
import os, sys
open("$REC/tramp.%d.argv" % os.getpid(), "w").write("\n".join(["torchrun"] + sys.argv[1:]) + "\n")
open("$REC/tramp.%d.env" % os.getpid(), "w").write("".join("%s=%s\n" % kv for kv in os.environ.items()))
EOS
chmod +x tramp/torchrun
run_script "trampoline" "PATH=$T/tramp:\$PATH torchrun --nproc_per_node 1 pretrain_gpt.py"
check "pip /bin/sh trampoline, rewritten once" "torchrun --nproc_per_node 1 pretrain_gpt.py $DEFAULT_FLAGS"

reset_run
printf '%s\n' 'torchrun pretrain_gpt.py --dash 1' > train.sh
msprof -y dash train.sh
check "a dash script" "$RBIN/torchrun pretrain_gpt.py --dash 1 $DEFAULT_FLAGS"
done_testing
