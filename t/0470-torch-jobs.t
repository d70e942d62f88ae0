#!/usr/bin/env bash
# The torch engine on the simulated machine (stand-in torch): the model
# zoo's per-rank loop of python3 train.py is one job (one config, the
# ranks filtered by torch_npu), a rank started after the others is armed
# again, deepspeed and accelerate collect, MindSpeed entries keep their
# engines, a PROF_CONFIG_PATH of the user's own is existing profiling,
# inference and preprocessing are left as they are, a job that ends before
# it could be armed is reported, and a save path torch_npu would refuse is
# refused before training.
. "$(dirname "$0")/lib.sh"
. "$TOP/t/plain-python.sh"
own_pycache
sim_env
cp -R "$TOP/sim/torch-examples" ex
rm -rf ex/test/output ex/profiling_output	# a run of them in the checkout
cd ex
# The training's setup lasts until the config has come (at most the
# suite's wait limit).
export MSPROF_SIM_DP_HOLD=$MSPROF_T_WAIT_LIMIT RANK_SIZE=2
# The Step ids of the rank directory of RANK under DIR.
steps_of() {
	local d
	d=$(dirname "$(ls "$1"/*_ascend_pt/profiler_info_$2.json 2>/dev/null)")
	[ -f "$d"/ASCEND_PROFILER_OUTPUT/step_trace_time.csv ] &&
	    csv_steps "$d"/ASCEND_PROFILER_OUTPUT/step_trace_time.csv
}
sessions() { ls -d profiling_output/msprof-exec_* 2>/dev/null | wc -l | tr -d ' '; }

# The model zoo's loop: nohup taskset -c A-B python3 train.py ... &, wait.
msprof -y --steps 3:5 --ranks 0,1 bash test/train_full_8p.sh
is "$rc" 0 "model-zoo loop: exit 0"
is "$(njournal injected)" 2 "two launches of python3 train.py, each profiled"
is "$(journal | grep -o '"prof_config":"[^"]*"' | sort -u | wc -l | tr -d ' ')" 1 \
    "one PROF_CONFIG_PATH for both: one job"
is "$(sessions)" 1 "one session"
is "$(ls profiling_output/msprof-exec_*/prof_config/profiler_config.json | wc -l | tr -d ' ')" 1 \
    "one profiler_config.json"
is "$(journal | grep -o '"expected_ranks":\[[0-9]*\]' | sort | tr '\n' ' ')" \
    '"expected_ranks":[0] "expected_ranks":[1] ' "each launch its rank (RANK_ID)"
is "$(ranks_in profiling_output)" "0 1" "ranks 0 and 1 collected"
is "$(steps_of profiling_output 0):$(steps_of profiling_output 1)" "3 4:3 4" \
    "steps 3 and 4 on each"
unlike "$out" "no data" "nothing missing"
like "$(< test/output/train_0.log)" "^step 13 loss" "rank 0 trained to its end"

rm -rf profiling_output test/output
msprof -y --steps 3:5 --ranks 1 bash test/train_full_8p.sh
is "$(ranks_in profiling_output)" 1 "--ranks 1: only rank 1 (torch_npu's rank_list, from torch.distributed)"
like "$out" "    1 process\(es\) of ranks not asked for \(torch_npu's rank_list\)" \
    "the report: the other rank was not asked for, by torch_npu's log"
unlike "$out" "other process" "... and no other process is idle"
like "$out" "this launch runs rank 0 alone, which is not profiled: no data is expected from it" \
    "the loop's launch of rank 0: no data expected from it"
unlike "$out" "no profiled rank runs on this node" "... not that the node runs none"

# A rank that starts once the other has ended (the stand-in's process group
# waits for no one): armed again.
cat > late.sh <<'EOF'
export RANK_ID=0
python3 train.py --local_rank 0 --steps 6
export RANK_ID=1
python3 train.py --local_rank 1 --steps 6
EOF
rm -rf profiling_output
msprof -y --steps 3:5 --ranks 0,1 bash late.sh
is "$rc" 0 "rank 1 started after rank 0 ended: exit 0"
armed_at_least "$out" 2 2 "armed once for each"
is "$(ranks_in profiling_output)" "0 1" "both collected"
# A rank that starts while the other, past its window, trains on: the
# arming for it reaches the other too, which torch_npu then says is not
# effective (its start step is past).  That rank collected: no cause.
cat > past.py <<'EOF'
import glob, os, sys, time, torch
import torch.distributed as dist
rank = int(sys.argv[1])
dist.init_process_group("hccl", init_method="tcp://127.0.0.1:%s" % os.environ["MASTER_PORT"],
                        world_size=2, rank=rank)
model = torch.nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
def train(steps):
    for i in range(steps):
        model(torch.randn(2, 4)).mean().backward()
        opt.step()
def armed(times):
    """Until torch_npu's monitor has passed on TIMES armings."""
    logs = os.path.join(os.environ["PROF_CONFIG_PATH"], "log", "monitor_dp_*")
    end = time.monotonic() + float(os.environ["MSPROF_T_WAIT_LIMIT"])
    while time.monotonic() < end and \
            "".join(open(f).read() for f in glob.glob(logs)).count("load json success") < times:
        time.sleep(0.05)
if rank == 0:
    train(6)
    open("window.done", "w").write("done\n")
    armed(2)
    train(3)
else:
    armed(2)
    train(6)
EOF
# (window.done: a FIFO the script holds open, so that rank 0 says it is
# past its window as soon as it is, and the script waits for no more.)
cat > past.sh <<'EOF'
exec 3<> window.done
python3 past.py 0 3<&- &
read -r -t "$MSPROF_T_WAIT_LIMIT" -u 3 x || echo "rank 0 never passed its window" >&2
exec 3<&-
python3 past.py 1
wait
EOF
rm -rf profiling_output window.done
mkfifo window.done
msprof -y --steps 3:5 --ranks 0,1 bash past.sh
is "$rc:$(ranks_in profiling_output)" "0:0 1" \
    "a rank started once the other was past its window: both collected"
armed_at_least "$out" 2 2 "armed again for it"
like "$out" "Dynamic Profiler config is not effective\. The start_step=3, current_step=7" \
    "torch_npu's warning in the rank past its window"
unlike "$err" "collected nothing|took the profiling config" \
    "... which is not said to have collected nothing"
# Two trainings of one process each, one after the other.
sed -e 's/^export RANK_ID=.*//' -e 's/--local_rank [01] //' late.sh > twice.sh
unset RANK_SIZE
rm -rf profiling_output
msprof -y --steps 3:5 bash twice.sh
armed_at_least "$out" 2 2 \
    "two trainings one after the other: armed for each"
is "$(ascend_dirs profiling_output | wc -l | tr -d ' ')" 2 \
    "each, one process without a rank, collected"
export RANK_SIZE=2

# A loaded node: the process that creates torch_npu's shared memory reads
# the config's time only after msprof-exec armed it (its log came before);
# its monitor passes on only a later change: armed again once the
# monitor's own log came.
unset RANK_SIZE
rm -rf profiling_output
MSPROF_SIM_DP_SLOW_INIT=armed msprof -y --steps 3:5 python3 train.py --steps 6
is "$(ascend_dirs profiling_output | wc -l | tr -d ' ')" 1 "a slow start of the shared memory: collected"
armed_at_least "$out" 1 2 \
    "armed again for the monitor that read the config's time after the first arming"
export RANK_SIZE=2

# A process killed by a signal runs no exit handler: torch_npu's monitor,
# forked by it, polls on, an orphan of msprof-exec, which would wait for it
# for ever.  It exists only for msprof-exec's PROF_CONFIG_PATH: once the
# command has exited, msprof-exec ends it.
cat > killed.py <<'EOF'
import os, signal, torch
model = torch.nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for i in range(6):
    model(torch.randn(2, 4)).mean().backward()
    opt.step()
os.kill(os.getpid(), signal.SIGKILL)
EOF
unset RANK_SIZE
rm -rf profiling_output
# (in a shell of its own: bash's "Killed" notice is not the test's output)
bash -c 'timeout "$MSPROF_T_WAIT_LIMIT" "$0" -y --skip-checks --steps 3:5 \
    python3 killed.py > out 2> err
echo $? > rc' "$MSPROF" 2> /dev/null
is "$(< rc)" 137 "a training killed by SIGKILL: msprof-exec ends as it did"
unlike "$(< err)" "waiting for the" "... not waiting for the monitor it left"
mon=$(ls profiling_output/msprof-exec_*/prof_config/log/monitor_dp_* | sed 's/.*_\([0-9]*\)_rank_.*/\1/')
like "$mon" "^[0-9]+$" "torch_npu's monitor was forked"
! kill -0 "$mon" 2>/dev/null; ok $? "... and is gone"
kill "$mon" 2>/dev/null
like "$(< err)" "ended torch_npu's monitor process $mon" "msprof-exec says it ended it"
is "$(ascend_dirs profiling_output | wc -l | tr -d ' ')" 1 "the window was collected before"
# ... also when it ignores SIGHUP, as its process did (nohup): it is no
# training left running in the background.
printf 'nohup python3 killed.py > k.log 2>&1 &\nwait\n' > nohup.sh
rm -rf profiling_output
timeout "$MSPROF_T_WAIT_LIMIT" "$MSPROF" -y --skip-checks --steps 3:5 bash nohup.sh \
    > out 2> err
unlike "$(< err)" "waiting for the|in the background" "nohup: not waited for, not said to run on"
mon=$(ls profiling_output/msprof-exec_*/prof_config/log/monitor_dp_* | sed 's/.*_\([0-9]*\)_rank_.*/\1/')
like "$mon" "^[0-9]+$" "nohup: torch_npu's monitor was forked"
! kill -0 "$mon" 2>/dev/null; ok $? "nohup: the monitor is gone"
kill "$mon" 2>/dev/null
export RANK_SIZE=2

# torch_npu's shared memory is one per node and hour: a job started while
# another one's is there reads its config through it, from that job's
# monitor, and is never armed; the report says so.
cat > other.py <<'EOF'
import os, time, torch
open("other.ready", "w").write("ready\n")  # torch_npu's shared memory is made
end = time.monotonic() + float(os.environ["MSPROF_T_WAIT_LIMIT"])
while not os.path.exists("other.stop") and time.monotonic() < end:
    time.sleep(0.05)
EOF
unset RANK_SIZE
rm -rf profiling_output other.stop other.ready
mkfifo other.ready
exec 3<> other.ready
MSPROF_SIM_SHM_DIR=$T/nodeshm PROF_CONFIG_PATH=$T/ex/other python3 other.py 3<&- &
other=$!
read -r -t "$MSPROF_T_WAIT_LIMIT" -u 3 x
exec 3<&-
wait_for "the other job's shared memory" has_files "$T/nodeshm/DynamicProfileNpuShm*"
MSPROF_SIM_SHM_DIR=$T/nodeshm MSPROF_SIM_DP_HOLD=3 msprof -y --steps 3:5 python3 train.py --steps 6
touch other.stop
wait $other
is "$(ascend_dirs profiling_output | wc -l | tr -d ' ')" 0 "another job's shared memory: nothing collected"
like "$err" "possible cause: torch_npu's processes read their config through a shared memory that another job on this node made" \
    "the report says whose shared memory it read"
export RANK_SIZE=2

# A launch that restarts its workers (torchrun --max-restarts): the new
# workers are armed again and collect their window again.
cat > flaky.py <<'EOF'
import os, sys, torch
model = torch.nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for i in range(8):
    model(torch.randn(2, 4)).mean().backward()
    opt.step()
# the first attempt fails after its window
sys.exit(1 if os.environ["TORCHELASTIC_RESTART_COUNT"] == "0" else 0)
EOF
rm -rf profiling_output
msprof -y --steps 3:5 torchrun --nproc_per_node 1 --max-restarts 1 \
    --master_port "$MASTER_PORT" flaky.py
is "$rc" 0 "a worker that fails once, restarted: exit 0"
armed_at_least "$out" 2 2 "the restarted worker was armed again"
is "$(ls -d profiling_output/*_ascend_pt | wc -l | tr -d ' ')" 2 "each attempt collected its window"

# deepspeed and accelerate launch, the examples.
rm -rf profiling_output
msprof -y --steps 3:5 --ranks 0,1 bash run_deepspeed.sh
is "$rc:$(ranks_in profiling_output)" "0:0 1" "deepspeed: ranks 0 and 1"
is "$(steps_of profiling_output 1)" "3 4" "deepspeed: steps 3 and 4"
rm -rf profiling_output
msprof -y --steps 3:5 bash run_accelerate.sh
is "$rc:$(ranks_in profiling_output)" "0:0" "accelerate launch: rank 0"
like "$(journal)" '"nproc_per_node":2,"first_rank":0,"world_size":2' \
    "accelerate: --num_processes 2 on one machine"

# A MindSpeed entry built on torch keeps its own engine.
cat > my_pretrain.py <<'EOF'
import torch
from mindspeed_llm.training import pretrain
loss = torch.randn(1).mean()
loss.backward()
pretrain(None, None, None)
EOF
rm -rf profiling_output
msprof -n torchrun --nproc_per_node 2 my_pretrain.py
like "$out" "MindSpeed-LLM, Megatron \(mcore\):" "a MindSpeed entry: its Megatron engine"
unlike "$out" "PROF_CONFIG_PATH" "... not torch_npu's PROF_CONFIG_PATH"

# Inference and preprocessing stay as they are; a later launch is seen.
cat > preprocess_data.py <<'EOF'
import os, torch
print("preprocess", "LD_PRELOAD" in os.environ)
EOF
cat > mixed.sh <<EOF
python3 preprocess_data.py
torchrun --nproc_per_node 1 --master_port $MASTER_PORT infer.py
torchrun --nproc_per_node 1 --master_port $MASTER_PORT train.py --steps 2
EOF
msprof -n bash mixed.sh
unlike "$out" "Left alone +preprocess_data.py" "the table: preprocessing started directly is no launch"
like "$out" "Left alone +infer.py: not a training entry: infer.py is built on torch but trains nothing" \
    "the table: the inference launch, left alone"
rm -rf profiling_output
MSPROF_SIM_DP_HOLD=0 msprof -y bash mixed.sh
is "$rc" 0 "preprocessing, inference, training: exit 0"
like "$out" "preprocess True" "python3 preprocess_data.py ran with the shim kept"
like "$out" "prediction shape \(4, 1\)" "infer.py ran"
like "$out" "infer.py: left alone \(not a training entry: infer.py is built on torch but trains nothing" \
    "infer.py: left alone, and why"
is "$(njournal unchanged):$(njournal injected)" "1:1" \
    "journal: the inference launch left alone, the training injected; preprocessing not a launch"
unlike "$(journal | grep unchanged)" "PROF_CONFIG_PATH|prof_config" "inference got no PROF_CONFIG_PATH"

# A PROF_CONFIG_PATH of the user's own is existing profiling.
mkdir mine
cat > mine/profiler_config.json <<'EOF'
{"prof_dir": "./my_prof", "start_step": 1, "active": 1}
EOF
touch -d '2020-01-02 03:04:05' mine/profiler_config.json
mine_sum=$(md5sum mine/profiler_config.json)
rm -rf profiling_output worker.env
cat > rec.py <<'EOF'
import os
open("worker.env", "w").write(os.environ.get("PROF_CONFIG_PATH", "") + "\n")
EOF
# rec.py trains nothing: --framework torch makes it a torch launch.
PROF_CONFIG_PATH=$T/ex/mine msprof -y --framework torch torchrun --nproc_per_node 1 rec.py
is "$rc" 78 "a PROF_CONFIG_PATH of the user's own, --existing ask without a terminal: 78"
like "$err" "already sets profiling options \(PROF_CONFIG_PATH=$T/ex/mine\)" "... naming it"
like "$err" "msprof-exec --existing keep " "... and both ways on"
[ ! -e worker.env ]; ok $? "nothing ran"
PROF_CONFIG_PATH=$T/ex/mine msprof -y --framework torch --existing keep torchrun --nproc_per_node 1 rec.py
is "$rc:$(< worker.env)" "0:$T/ex/mine" "--existing keep: the launch keeps its own PROF_CONFIG_PATH"
is "$(njournal kept)" 1 "journal: kept"
like "$out" "profiled with its own settings \(--existing keep\) -> ./my_prof" \
    "the report names its own save path (prof_dir)"
is "$(md5sum mine/profiler_config.json)" "$mine_sum" "its config is not written"
is "$(stat -c %Y mine/profiler_config.json)" "$(date -d '2020-01-02 03:04:05' +%s)" \
    "... nor touched (msprof-exec arms only its own)"
rm -rf profiling_output
PROF_CONFIG_PATH=$T/ex/mine msprof -y --framework torch --existing override torchrun --nproc_per_node 1 rec.py
like "$(< worker.env)" '/profiling_output/msprof-exec_[^/]*/prof_config$' \
    "--existing override: msprof-exec's own"

# A job that ends before it could be armed.
cat > quick.py <<'EOF'
import torch  # loads torch_npu: PROF_CONFIG_PATH is read
loss = torch.randn(1).mean()
loss.backward()
torch.optim.SGD(torch.nn.Linear(1, 1).parameters()).step()
EOF
rm -rf profiling_output
MSPROF_SIM_DP_HOLD=0 msprof -y torchrun --nproc_per_node 1 --master_port "$MASTER_PORT" quick.py
is "$rc" 0 "a training that ends at once: exit 0"
like "$err" "possible cause: the job ended before msprof-exec could arm the config: its 1 torch_npu process\(es\) ended within a second of starting" \
    "the report says the job ended before it was armed"
like "$out" "1 torch_npu process\(es\)
    none collected" "... and that its one process collected nothing"
cat > early.py <<'EOF'
import sys
sys.exit("no data")
loss.backward(); optimizer.step()  # never reached
import torch
EOF
rm -rf profiling_output
msprof -y torchrun --nproc_per_node 1 --master_port "$MASTER_PORT" early.py
like "$err" "possible cause: no process imported torch_npu with PROF_CONFIG_PATH" \
    "a training that ends before torch_npu loads: said so"

# A save path torch_npu refuses: refused before training starts.
msprof -y -o "$T/run+1" torchrun --nproc_per_node 1 --master_port "$MASTER_PORT" train.py --steps 2
is "$rc" 78 "-o run+1: refused (78)"
like "$err" "run\+1: torch_npu refuses this prof_dir for the '\+' in it .*choose an output directory without it with -o \(nothing was started\)" \
    "... naming the character and the fix, before anything runs"
is "$(ls -d "$T/run+1" 2>/dev/null)" "" "... nothing made: no session, no output"
unlike "$err" "cause: torch_npu refused the dynamic profiling directory" \
    "... not read back from the log as torch_npu's own refusal"
unlike "$out" "step 0 loss" "the training did not start"
msprof -n -o "$T/run:1" torchrun --nproc_per_node 1 train.py
is "$rc" 78 "the dry run refuses it too"
like "$err" "run:1: torch_npu refuses this prof_dir for the ':' in it" "... the save path"
msprof -n -o "$T/$(printf 'x%.0s' $(seq 256))" torchrun --nproc_per_node 1 train.py
like "$err" "torch_npu refuses this prof_dir, longer than 4096 bytes or with a name longer than 255" \
    "a name of 256 bytes: its length, not a character"

# An entry the table lists as torch keeps its engine under --framework llm
# (a copy of the install whose table lists train.py), and is armed.
mkdir -p "$T/p/bin"
cp "$MSPROF" "$T/p/bin/"
cp -R "$B/lib" "$B/share" "$T/p/"
sed -i '/^entry \*\.py auto$/i entry train.py torch' "$T/p/share/msprof-exec/launchers.conf"
rm -rf profiling_output
"$T/p/bin/msprof-exec" -y --skip-checks --framework llm --steps 3:5 torchrun \
    --nproc_per_node 2 --master_port "$MASTER_PORT" train.py --steps 6 \
    > listed.out 2> listed.err
is "$?:$(journal | grep -o '"engine":"[a-z-]*"')" '0:"engine":"torch"' \
    "a listed torch entry under --framework llm: the torch engine"
is "$(ranks_in profiling_output)" 0 "... armed: rank 0 (the default ranks) collected"
done_testing
