#!/usr/bin/env bash
# The torch engine end to end with Debian's real torch: its torchrun starts
# two workers whose real torch.optim optimizer (torch 1.13: the
# Optimizer._hook_for_profile torch_npu patches) counts the steps of the
# simulated torch_npu; exactly the window and the ranks asked are
# collected, and only the last optimizer made counts.  (Both ranks in the
# default window: t/0480-torch-real-use.t, whose train.sh runs the same
# real training.)
. "$(dirname "$0")/lib.sh"
. "$TOP/t/plain-python.sh"

TORCHRUN=/usr/bin/torchrun
torch_installed ||
    skip_all "Debian's torch and torchrun (python3-torch) are not installed"
sim_env
export MSPROF_SIM_TORCH=real PYTHONPATH=$TOP/sim/python
# The training's setup lasts until the config has come (at most the
# suite's wait limit).
export MSPROF_SIM_DP_HOLD=$MSPROF_T_WAIT_LIMIT
cp "$TOP/sim/torch-examples/train.py" .
# torch 1.13's torchrun needs --redirects 1 --tee 1 under Python 3.11.
# run STEPS OPTION...
run() {
	local steps=$1
	shift
	msprof -y "$@" "$TORCHRUN" --nproc_per_node 2 --master_port "$MASTER_PORT" \
	    --redirects 1 --tee 1 train.py --steps "$steps"
}
# The Step ids of the rank directory of RANK under profiling_output.
steps_of() {
	local d
	d=$(dirname "$(ls profiling_output/*_ascend_pt/profiler_info_$1.json)")
	csv_steps "$d"/ASCEND_PROFILER_OUTPUT/step_trace_time.csv
}

run 8 --steps 3:5 --ranks 1
is "$rc" 0 "real torchrun, --steps 3:5 --ranks 1: exit 0"
is "$(ranks_in profiling_output)" 1 "only rank 1 collected"
is "$(steps_of 1)" "3 4" "steps 3 and 4 (after the 3rd and 4th step())"
like "$out" "rank 1 \(pid [0-9]+\): collected steps 3 to 5, excluding 5" \
    "the report says what torch_npu collected, by its log"
like "$(cat profiling_output/msprof-exec_*/prof_config/log/dp_*_rank_0.log)" \
    "Rank 0 not in valid rank_list" "rank 0 was filtered by torch_npu (rank_list)"
like "$(journal)" '"engine":"torch"' "the torch engine"
unlike "$out$err" "possible cause" "nothing is missing"

# Two optimizers: the one made last counts the steps, the other's step()
# does not.  With the first counted too, the window would start one
# iteration earlier.
cat > two.py <<'EOF'
import torch, torch_npu
a = torch.nn.Linear(4, 1)
b = torch.nn.Linear(4, 1)
first = torch.optim.SGD(a.parameters(), lr=0.1)
last = torch.optim.Adam(b.parameters(), lr=0.1)
for i in range(6):
    (a(torch.randn(2, 4)).sum() + b(torch.randn(2, 4)).sum()).backward()
    first.step()
    last.step()
    print("iteration %d done" % i, flush=True)
EOF
rm -rf profiling_output
msprof -y --steps 3:5 /usr/bin/python3 two.py
is "$rc" 0 "python3 two.py (one process, two optimizers): exit 0"
is "$(printf '%s\n' "$out" | sed -n '/^iteration/h; /Start Dynamic Profiler at 3 step/{x;p;q;}')" \
    "iteration 1 done" \
    "the 3rd step() of the last optimizer made starts the window, in iteration 2"
is "$(ascend_dirs profiling_output | wc -l | tr -d ' ')" 1 \
    "its one process collected (it has no rank: every process of a job of one)"
# One process that spawns its workers (torch.multiprocessing.spawn): one
# launch; armed first for the one process it is, then again once its
# workers have come, for ranks, which torch.distributed gives them (none in
# the environment): only rank 0, as asked, collects.  The parent's setup
# lasts until the first arming has been passed on, its workers' until the
# second has (a real setup takes seconds; the monitor reads the file every
# 2 s).  The workers load torch_npu together, as on an idle machine: a
# loaded one can spread their imports of torch over seconds, and a worker
# that comes a second after the other is armed for again.
cat > spawn.py <<EOF
import glob, os, time, torch

def together(n):
    """Until the N spawned workers are all here (at most the suite's wait limit)."""
    open("came.%d" % os.getpid(), "w").close()
    end = time.monotonic() + float(os.environ["MSPROF_T_WAIT_LIMIT"])
    while time.monotonic() < end and len(glob.glob("came.*")) < n:
        time.sleep(0.02)

if __name__ == "__mp_main__":
    together(2)
import torch_npu
import torch.distributed as dist
import torch.multiprocessing as mp

def armed(times):
    """Wait until torch_npu's monitor has passed on TIMES armings (at most the
    suite's wait limit)."""
    logs = os.path.join(os.environ["PROF_CONFIG_PATH"], "log", "monitor_dp_*")
    end = time.monotonic() + float(os.environ["MSPROF_T_WAIT_LIMIT"])
    while time.monotonic() < end:
        if "".join(open(f).read() for f in glob.glob(logs)).count("load json success") >= times:
            break
        time.sleep(0.05)

def main_worker(rank, world):
    armed(2)
    dist.init_process_group("hccl", init_method="tcp://127.0.0.1:$MASTER_PORT",
                            world_size=world, rank=rank)
    model = torch.nn.Linear(4, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for i in range(6):
        model(torch.randn(2, 4)).sum().backward()
        opt.step()
    dist.destroy_process_group()

if __name__ == "__main__":
    armed(1)    # its own arming first, as when its setup takes a while
    mp.spawn(main_worker, args=(2,), nprocs=2)
EOF
rm -rf profiling_output
msprof -y --steps 3:5 /usr/bin/python3 spawn.py
is "$rc" 0 "mp.spawn of two workers: exit 0"
is "$(njournal injected)" 1 "one launch"
is "$(ranks_in profiling_output)" 0 "rank 0 collected (its rank from torch.distributed)"
is "$(steps_of 0)" "3 4" "steps 3 and 4"
armed_at_least "$out" 3 2 \
    "the parent and its two workers loaded torch_npu: armed for each"
done_testing
