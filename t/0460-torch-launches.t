#!/usr/bin/env bash
# The torch engine: a plain PyTorch training started by torchrun, deepspeed
# or accelerate launch gets PROF_CONFIG_PATH (a directory of the session)
# with profiler_config.json holding the plan, its command line unchanged,
# its train.py untouched, and nothing of msprof-exec in its workers; the
# table and the dry run say so before anything runs.
. "$(dirname "$0")/lib.sh"
. "$TOP/t/plain-python.sh"
own_pycache
sim_env
# Each worker writes what it was given: its arguments, its environment, and
# the config PROF_CONFIG_PATH names (read before torch loads torch_npu).
cat > train.py <<'EOF'
import json, os, sys
tag = os.environ.get("RANK", "x")
open("worker.%s.argv" % tag, "w").write(" ".join(sys.argv[1:]) + "\n")
open("worker.%s.env" % tag, "w").write("".join("%s=%s\n" % kv for kv in sorted(os.environ.items())))
cfg = os.environ.get("PROF_CONFIG_PATH")
if cfg:
    open("worker.%s.config" % tag, "w").write(open(os.path.join(cfg, "profiler_config.json")).read())
    import time
    age = time.time() - os.stat(os.path.join(cfg, "profiler_config.json")).st_mtime
    open("worker.%s.age" % tag, "w").write("%d\n" % age)
import torch
model = torch.nn.Linear(2, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
loss = model(torch.randn(1, 2)).mean()
loss.backward()
optimizer.step()
EOF
sum=$(md5sum train.py)
# config R EXPR...: Python expressions on worker R's config d, a line each
# (one Python for them all).
config() {
	$PY -c 'import json, sys
d = json.load(open(sys.argv[1]))
for e in sys.argv[2:]:
    v = eval(e)
    print(*v) if isinstance(v, tuple) else print(v)' "worker.$1.config" "${@:2}"
}
SESSION_DIR='.*/profiling_output/msprof-exec_[^/]*/prof_config'
# The workers that wrote their arguments.
nworkers() {
	local f n=0
	for f in worker.*.argv; do [ -f "$f" ] && n=$((n + 1)); done
	echo "$n"
}

# check NAME ARGS...: every worker of the run, and the journal.
check() {
	local name=$1 r
	shift
	is "$rc" 0 "$name: exit 0"
	is "$(nworkers)" 2 "$name: two workers"
	for r in 0 1; do
		is "$(< worker.$r.argv)" "$*" \
		    "$name: worker $r got its command line as written"
		env=$(< worker.$r.env)
		[[ $env =~ (^|$'\n')PROF_CONFIG_PATH=([^$'\n']*) ]]
		like "${BASH_REMATCH[2]:-}" "^$SESSION_DIR\$" \
		    "$name: worker $r has PROF_CONFIG_PATH, the session's directory"
		unlike "$env" 'MSPROF_EXEC_|msprof-exec-shim' \
		    "$name: worker $r carries nothing of msprof-exec"
	done
	is "$(config 0 'd["start_step"], d["active"], d["warmup"], d["is_rank"], d["rank_list"], d["prof_dir"], d["activities"], d["experimental_config"]["profiler_level"]')" \
	    "10 2 0 True [0] ./profiling_output ['CPU', 'NPU'] Level1" \
	    "$name: the config: steps 10 and 11, rank 0, level1, the save path"
	[ "$(< worker.0.age)" -ge 3500 ]
	ok $? \
	    "$name: the config is dated an hour back (no arming, dated ahead, can have its time)"
	is "$(journal | grep -c '"engine":"torch","framework":"torch"')" 1 \
	    "$name: one launch, the torch engine"
	is "$(njournal injected)" 1 "$name: injected"
	is "$(md5sum train.py)" "$sum" "$name: train.py untouched"
}

rm -f worker.*
msprof -y torchrun --nproc_per_node 2 --master_port "$MASTER_PORT" train.py --lr 1
check "torchrun" --lr 1
like "$(journal)" '"new_argv":\["torchrun","--nproc_per_node","2","--master_port","[0-9]+","train.py","--lr","1"\]' \
    "torchrun: the launch ran with its own command line"
is "$(journal | sed -n 's/.*"expected_ranks":\[\([0-9,]*\)\].*/\1/p')" 0 \
    "torchrun: rank 0 expected of the two"

rm -rf worker.* profiling_output
msprof -y deepspeed --num_gpus 2 --master_port "$MASTER_PORT" train.py --lr 1
for r in 0 1; do
	is "$(< worker.$r.argv)" "--local_rank=$r --lr 1" \
	    "deepspeed: worker $r got --local_rank=$r from deepspeed, then its arguments"
	sed -i "s/^--local_rank=$r //" worker.$r.argv	# as check wants them
done
check "deepspeed" --lr 1
like "$(journal)" '"nproc_per_node":2,"first_rank":0,"world_size":2' \
    "deepspeed: --num_gpus 2 on one node"

rm -rf worker.* profiling_output
MSPROF_SIM_NPUS=2 msprof -y accelerate launch --main_process_port "$MASTER_PORT" train.py --lr 1
check "accelerate launch" --lr 1

# Settings of the plan in the config (the session's one config, which
# one worker reads as well as two).
rm -rf worker.* profiling_output
msprof -y --steps 3:6 --force --ranks 0,1 --level level2 --with memory,stack,shapes \
    --aic-metrics ArithmeticUtilization --export-type db --data-simplification \
    torchrun --nproc_per_node 1 --master_port "$MASTER_PORT" train.py
figures=$(config 0 'd["start_step"], d["active"], d["rank_list"], d["profile_memory"], d["with_stack"], d["record_shapes"], d["async_mode"]' \
    'd["experimental_config"]["profiler_level"], d["experimental_config"]["aic_metrics"], d["experimental_config"]["export_type"], d["experimental_config"]["data_simplification"]')
is "${figures%%$'\n'*}" "3 3 [0, 1] True True True True" \
    "--steps 3:6 --ranks 0,1 --with memory,stack,shapes: in the config (parsing stays on: async)"
is "${figures#*$'\n'}" "Level2 ArithmeticUtilization ['db'] True" \
    "level2, the AI Core metrics, db, simplification"
rm -rf worker.* profiling_output
msprof -y --ranks all torchrun --nproc_per_node 1 --master_port "$MASTER_PORT" train.py
is "$(config 0 'd["is_rank"], d["rank_list"]')" "False []" "--ranks all: every rank (is_rank off)"

# A subcommand of accelerate that launches nothing runs as it is, the shim
# still in it; the launch after it is profiled.
rm -rf worker.* profiling_output
cat > job.sh <<EOF
accelerate env
torchrun --nproc_per_node 2 --master_port $MASTER_PORT train.py --lr 1
EOF
msprof -y bash job.sh
like "$out" "accelerate env \(simulated\): nothing to do" "accelerate env ran"
is "$(journal | wc -l | tr -d ' ')" 1 "accelerate env is no launch: not recorded"
check "after accelerate env, torchrun" --lr 1

# Before anything runs.
msprof -n bash job.sh
like "$out" "Framework and engine +torch_npu \(PROF_CONFIG_PATH\)" "the table names the engine"
like "$out" "Limits +step 0 cannot be collected; torch_npu counts the step\(\) calls of the last optimizer made" \
    "the table says the limits"
like "$out" "Steps +10 to 12, excluding 12" "the default window"
like "$out" "NPUs per node +2" "the scan reads the NPUs of the launch"
like "$out" "would set PROF_CONFIG_PATH=SESSION/prof_config" "the dry run shows the variable"
has_line "$out" "torchrun --nproc_per_node 2 --master_port $MASTER_PORT train.py --lr 1" \
    "the dry run shows the command line unchanged"
printf 'deepspeed --num_gpus 4 train.py\n' > ds.sh
msprof -n bash ds.sh
like "$out" "NPUs per node +4" "deepspeed --num_gpus in the table"
like "$out" "would set PROF_CONFIG_PATH=SESSION/prof_config" "deepspeed: the dry run"
printf 'accelerate launch --num_processes 8 --num_machines 2 train.py\n' > acc.sh
msprof -n bash acc.sh
like "$out" "NPUs per node +4" "accelerate: its processes over its machines"
msprof -n --mode dynamic --dynamic-dir dd bash job.sh
like "$out" "torch_npu's config directory is the session's prof_config: --dynamic-dir dd is not used" \
    "--dynamic-dir, MindSpeed-MM's: said not to be used"
done_testing
