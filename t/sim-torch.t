#!/usr/bin/env bash
# Self-test of the simulation: torch_npu's non-intrusive mode
# (PROF_CONFIG_PATH) on the stand-in torch: the path rule, the files
# torch_npu makes, a config not modified after a process started is never
# acted on, one modified later is, for the window asked, and a process
# that connected to the shared memory keeps it after its creator exited.
. "$(dirname "$0")/lib.sh"
sim_env
cat > train.py <<'EOF'
import os, sys, time, torch
model = torch.nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
# wait for the file named in WAIT_FOR, as a long setup would (at most the
# suite's wait limit)
w = os.environ.get("WAIT_FOR")
end = time.monotonic() + float(os.environ["MSPROF_T_WAIT_LIMIT"])
while w and not os.path.exists(w) and time.monotonic() < end:
    time.sleep(0.05)
for i in range(int(sys.argv[1])):
    model(torch.randn(2, 4)).mean().backward()
    opt.step()
print("trained", os.getpid(), flush=True)
EOF
# config DIR START ACTIVE: write DIR/profiler_config.json, modified 2 s ahead.
config() {
	$PY - "$1" "$2" "$3" <<'EOF'
import json, os, sys, time
d, start, active = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
p = os.path.join(d, "profiler_config.json")
json.dump({"prof_dir": os.path.join(d, "out"), "start_step": start, "active": active,
           "analyse": True, "activities": ["CPU", "NPU"]}, open(p + ".t", "w"))
t = int(time.time()) + 2
os.utime(p + ".t", (t, t))
os.rename(p + ".t", p)
EOF
}
steps_under() {
	cut -d, -f1 "$1"/*_ascend_pt/ASCEND_PROFILER_OUTPUT/step_trace_time.csv 2>/dev/null |
	    tail -n +2 | tr '\n' ' ' | sed 's/ $//'
}

# The simulated NPU's time: each backward pass waits MSPROF_SIM_STEP_MS for
# the device, a process's first one MSPROF_SIM_FIRST_STEP_MS more; the
# optimizer's step() (torch_npu's hook) and a forward pass alone take none.
cat > timed.py <<'EOF'
import time
slept = []
time.sleep = lambda s: slept.append(round(s, 3))	# what the device is said to take
import torch, torch_npu
model = torch.nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
def took(f):
    del slept[:]; f(); return list(slept)
print("forward %s first %s step %s second %s" % (
    took(lambda: model(torch.randn(2, 4))),
    took(lambda: model(torch.randn(2, 4)).mean().backward()),
    took(opt.step), took(lambda: model(torch.randn(2, 4)).mean().backward())))
EOF
is "$(MSPROF_SIM_STEP_MS=200 MSPROF_SIM_FIRST_STEP_MS=300 python3 timed.py)" \
    "forward [] first [0.5] step [] second [0.2]" \
    "device time in the backward pass: the first 0.2 + 0.3 s, then 0.2 s; none in step() or a forward pass"

out=$(PROF_CONFIG_PATH=$T/run+1 python3 train.py 3 2>&1)
like "$out" "The path '$T/run\+1' is invalid, and profiler will not be enabled\." \
    "a path with '+': torch_npu's message"
[ ! -e "$T/run+1" ]; ok $? "... and nothing made"

mkdir pc
config pc 2 2
touch -d '2020-01-01' pc/profiler_config.json
PROF_CONFIG_PATH=$T/pc python3 train.py 6 > out 2>&1
is "$(ls pc/log | sed 's/_[0-9]*_rank/_PID_rank/' | sort | tr '\n' ' ')" \
    "dp_$(hostname)_PID_rank_-1.log monitor_dp_$(hostname)_PID_rank_-1.log " \
    "torch_npu's logs: the process's and its monitor's (no RANK: rank -1)"
like "$(cat pc/log/dp_*)" "Rank -1 shared memory is created\." "it created the shared memory"
[ ! -e pc/out ]; ok $? "a config modified before the process started: nothing collected"

rm -rf pc2
PROF_CONFIG_PATH=$T/pc2 MSPROF_SIM_DP_HOLD=$MSPROF_T_WAIT_LIMIT python3 train.py 8 > out2 2>&1 &
p=$!
wait_for "torch_npu's log in pc2" has_files "pc2/log/dp_*"
ok $? "the log comes when torch_npu is imported"
# the monitor is forked once the config and the shared memory are made
wait_for "pc2's monitor" has_files "pc2/log/monitor_dp_*"
like "$($PY -c 'import json; print(json.load(open("pc2/profiler_config.json"))["start_step"])')" \
    "^0$" "the first worker writes profiler_config.json from the template"
config pc2 3 2
wait $p
is "$(steps_under pc2/out)" "3 4" "modified after it started: start_step 3, active 2: steps 3 and 4"
like "$(cat pc2/log/dp_*)" "Start Dynamic Profiler at 3 step\..*" "its log says when it started"
like "$(cat pc2/log/dp_*)" "Stop Dynamic Profiler at 5 step\." "... and stopped"

# Two processes: the creator gets the config, trains and exits (unlinking
# the shared memory); the other reads it only after that.
rm -rf pc3 a.done
PROF_CONFIG_PATH=$T/pc3 MSPROF_SIM_DP_HOLD=$MSPROF_T_WAIT_LIMIT python3 train.py 6 > a.out 2>&1 &
a=$!
wait_for "the first process's monitor in pc3" has_files "pc3/log/monitor_dp_*"
PROF_CONFIG_PATH=$T/pc3 WAIT_FOR=$T/a.done python3 train.py 6 > b.out 2>&1 &
b=$!
connected() { cat pc3/log/dp_*_"$b"_* 2> /dev/null | grep -q 'shared memory is connected'; }
wait_for "the second process to connect" connected
ok $? "the second process connected"
config pc3 3 2
wait $a
touch a.done
wait $b
is "$(ls -d pc3/out/*_ascend_pt 2>/dev/null | wc -l | tr -d ' ')" 2 \
    "both collected: the second kept the shared memory its creator had unlinked"
done_testing
