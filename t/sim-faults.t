#!/usr/bin/env bash
# Self-test of the simulation: launchers and fault switches (port in use, OOM, crash, size mismatch, no NPU).
. "$(dirname "$0")/../sim/testlib.sh"
gpt() { (cd "$LLM_DIR" && torchrun "$@" 2>&1); }

# --- port in use ----------------------------------------------------------------------------------
port=$(free_port)
python3 -c "
import os, socket, sys, time
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(('0.0.0.0', $port)); s.listen(); print('ready', flush=True)
time.sleep(float(os.environ['MSPROF_T_WAIT_LIMIT']))" > $TMP/holder.out &
holder=$!
wait_for "the port holder" has_text $TMP/holder.out ready
out=$(gpt --nproc_per_node 2 --master_port $port pretrain_gpt.py --train-iters 2); rc=$?
is "$rc" 1 "port in use: torchrun exits 1"
like "$out" "\[W socket\.cpp:[0-9]+\] \[c10d\] The server socket has failed to bind to \[::\]:$port \(errno: 98 - Address already in use\)\." \
     "port in use: c10d bind warning"
like_exc "$out" "torch\.distributed\.DistNetworkError" "The server socket has failed to listen on any local network address\." \
     "port in use: DistNetworkError"
unlike "$out" 'iteration' "port in use: no worker started"
out=$(gpt --nnodes 2 --node_rank 1 --nproc_per_node 1 --master_port $port pretrain_gpt.py --train-iters 2); rc=$?
is "$rc" 0 "node rank 1 does not bind the master port"
kill $holder 2>/dev/null; wait $holder 2>/dev/null

# --- the launcher holds MASTER_PORT while the job runs -------------------------------------------------
# The first job holds at iteration 2 (MSPROF_SIM_PAUSE) while the second one starts.
port=$(free_port)
(cd "$LLM_DIR" && MSPROF_SIM_PAUSE=2:$TMP/go torchrun --nproc_per_node 1 --master_port $port pretrain_gpt.py --train-iters 3 > $TMP/first.out 2>&1) &
first=$!
wait_for "the first job at iteration 2" test -e $TMP/go.0
out=$(gpt --nproc_per_node 1 --master_port $port pretrain_gpt.py --train-iters 1)
like "$out" 'failed to listen on any local network address' "a second job on the same MASTER_PORT fails"
: > $TMP/go
wait $first
ok $? "the first job is unaffected"

# --- worker environment and argument grammar ---------------------------------------------------------
cat > $TMP/env.py <<'PY'
import os, sys
e = os.environ.get
line = " ".join(str(v) for v in ("ENV", e("RANK"), e("LOCAL_RANK"), e("WORLD_SIZE"), e("LOCAL_WORLD_SIZE"),
                                 e("GROUP_RANK"), e("MASTER_ADDR"), e("MASTER_PORT"), " ".join(sys.argv[1:])))
sys.stdout.write(line + "\n")   # one write: lines of the two workers do not interleave
PY
out=$(torchrun --nnodes=2 --node-rank=1 --nproc-per-node=2 --master-addr=10.0.0.1 --master_port 29999 $TMP/env.py --x 1 2>&1)
like "$out" '^ENV 2 0 4 2 1 10\.0\.0\.1 29999 --x 1$' "node 1 local 0: RANK 2 of WORLD_SIZE 4 (--opt=value forms)"
like "$out" '^ENV 3 1 4 2 1 ' "node 1 local 1: RANK 3"
out=$(python3 -m torch.distributed.launch --nproc_per_node 1 --master_port $(free_port) $TMP/env.py --y 2>&1)
like "$out" 'FutureWarning: The module torch\.distributed\.launch is deprecated' "torch.distributed.launch: FutureWarning"
like "$out" '^ENV 0 0 1 1 0 127\.0\.0\.1 [0-9]+ --local[-_]rank=0 --y$' "torch.distributed.launch passes --local-rank=N first"
out=$(python3 -m torch.distributed.launch --use_env --nproc_per_node 1 --master_port $(free_port) $TMP/env.py 2>&1)
like "$out" '^ENV 0 0 1 1 0 [^ ]+ [0-9]+ $' "torch.distributed.launch --use-env: no --local-rank argument"
out=$(python3 -m torch.distributed.run --standalone --nproc_per_node 2 $TMP/env.py 2>&1)
like "$out" '^ENV 1 1 2 2 0 ' "python -m torch.distributed.run --standalone"
out=$(torchrun --nproc_per_node 2 --master_port $(free_port) --tee 3 --log-dir $TMP/tlogs $TMP/env.py 2>&1)
like "$out" '^\[default1\]:ENV 1 1 2' "--tee 3 prefixes console lines with [default<local_rank>]:"
ls $TMP/tlogs/*/attempt_0/1/stdout.log >/dev/null 2>&1; ok $? "--tee with --log-dir writes attempt_0/<local_rank>/stdout.log"
out=$(cd $TMP && msrun --worker_num=2 --local_worker_num=2 --master_port=$(free_port) --log_dir=mslog --join=True $TMP/env.py 2>&1)
like "$out" 'ENV 1 1 2 2' "msrun: RANK/LOCAL_RANK/WORLD_SIZE for workers"
grep -q '^ENV 0 0 2' $TMP/mslog/worker_0.log; ok $? "msrun writes log_dir/worker_0.log"

# --- OOM ----------------------------------------------------------------------------------------------
out=$(cd "$LLM_DIR" && MSPROF_SIM_OOM_STEP=3 torchrun --nproc_per_node 2 --master_port $(free_port) pretrain_gpt.py --train-iters 6 2>&1); rc=$?
is "$rc" 1 "OOM: torchrun exits 1"
like_exc "$out" 'RuntimeError' 'NPU out of memory\. Tried to allocate 5\.03 GiB \(NPU 0; 60\.96 GiB total capacity; 49\.47 GiB already allocated; 49\.47 GiB current active; 1\.32 GiB free; 57\.55 GiB reserved in total by PyTorch\) If reserved memory is >> allocated memory try setting max_split_size_mb to avoid fragmentation\.' \
     "OOM: the NPU OOM RuntimeError text"
like "$out" 'Traceback \(most recent call last\)' "OOM: a Python traceback"
like "$out" 'iteration +2/ +6' "OOM: iterations before the failing one ran"
unlike "$out" 'iteration +3/ +6' "OOM: the failing iteration is never logged"
like "$out" 'torch\.distributed\.elastic\.multiprocessing\.errors\.ChildFailedError' "OOM: ChildFailedError summary"
like "$out" 'rank +: 0 \(local_rank: 0\)' "OOM: root cause is rank 0"
like "$out" 'Sending process [0-9]+ closing signal SIGTERM' "OOM: the other worker is stopped"

# --- crash of one rank ------------------------------------------------------------------------------
out=$(cd "$LLM_DIR" && MSPROF_SIM_CRASH_RANK=1 torchrun --nproc_per_node 2 --master_port $(free_port) pretrain_gpt.py --train-iters 6 2>&1); rc=$?
is "$rc" 1 "crash: torchrun exits 1"
like "$out" 'exitcode +: -11 \(pid: [0-9]+\)' "crash: exit code -11"
like "$out" 'traceback : Signal 11 \(SIGSEGV\) received by PID [0-9]+' "crash: SIGSEGV in the summary"
ls "$LLM_DIR"/core* >/dev/null 2>&1; [ $? -ne 0 ]; ok $? "crash: no core file left in the checkout"

# --- size mismatch -----------------------------------------------------------------------------------
out=$(cd "$LLM_DIR" && MSPROF_SIM_SIZE_MISMATCH=1 torchrun --nproc_per_node 1 --master_port $(free_port) pretrain_gpt.py --train-iters 2 --load ./model_weights/qwen3-8b-mcore 2>&1)
like "$out" 'size mismatch for embedding\.word_embeddings\.weight: copying a param with shape torch\.Size\(\[75968, 4096\]\) from checkpoint, the shape in current model is torch\.Size\(\[151936, 4096\]\)\.' \
     "size mismatch text on load"

# --- paths and devices ----------------------------------------------------------------------------
out=$(gpt --nproc_per_node 1 --master_port $(free_port) pretrain_gpt.py --data-path ./dataset/alpaca_text_document --train-iters 1)
like_exc "$out" 'AssertionError' '\./dataset/alpaca_text_document not exists' "missing --data-path prefix"
out=$(gpt --nproc_per_node 1 --master_port $(free_port) pretrain_gpt.py --data-path 0.5 ./dataset/enwiki_text_document 0.5 ./dataset/nope --train-iters 1)
like_exc "$out" 'AssertionError' '\./dataset/nope not exists' "weighted --data-path list is checked"
out=$(gpt --nproc_per_node 1 --master_port $(free_port) pretrain_gpt.py --tokenizer-name-or-path "your tokenizer path" --train-iters 1)
like_exc "$out" "OSError" "Can't load tokenizer for 'your tokenizer path'" "placeholder tokenizer path"
out=$(gpt --nproc_per_node 1 --master_port $(free_port) pretrain_gpt.py --load "your model ckpt path" --train-iters 1)
like "$out" 'Checkpoint path not found: your model ckpt path' "placeholder checkpoint path"
out=$(cd "$LLM_DIR" && MSPROF_SIM_NO_NPU=1 torchrun --nproc_per_node 1 --master_port $(free_port) pretrain_gpt.py --train-iters 1 2>&1)
like_exc "$out" 'RuntimeError' '.*aclrtGetDeviceCount' "no NPU: training fails at set_device"
out=$(cd "$LLM_DIR" && MSPROF_SIM_NPUS=1 torchrun --nproc_per_node 2 --master_port $(free_port) pretrain_gpt.py --train-iters 1 2>&1)
like "$out" 'EE1001: Invalid device ID\. The device ID 1 is out of range \[0, 1\)' "nproc_per_node > visible NPUs: Invalid device ID"

# --- signals ------------------------------------------------------------------------------------------
# Both ranks hold at iteration 2 (MSPROF_SIM_PAUSE, never released): torchrun runs, its workers too.
(cd "$LLM_DIR" && MSPROF_SIM_PAUSE=2:$TMP/never exec torchrun --nproc_per_node 2 --master_port $(free_port) pretrain_gpt.py --train-iters 3 > $TMP/sig.out 2>&1) &
tr=$!
wait_for "both ranks at iteration 2" test -e $TMP/never.0 -a -e $TMP/never.1
kill -TERM $tr
wait $tr; rc=$?
is "$rc" 1 "SIGTERM: torchrun exits 1 like the real one"
like "$(cat $TMP/sig.out)" 'Received Signals\.SIGTERM death signal, shutting down workers' "SIGTERM: shutting down workers"
like "$(cat $TMP/sig.out)" 'SignalException: Process [0-9]+ got signal: 15' "SIGTERM: SignalException"

done_testing
