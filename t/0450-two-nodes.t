#!/usr/bin/env bash
# A real two-node job: one msprof-exec per simulated node, each running the
# two-node MindSpeed-LLM example with Debian's torchrun, whose agents meet
# at its static rendezvous and whose workers join one real
# torch.distributed (gloo) group on the simulated NPUs, all writing to one
# shared output directory; the nodes start 5 s apart.  Then a node that
# fails at its start, and a node whose training fails at its start.
. "$(dirname "$0")/lib.sh"
have_real_torch || skip_all "Debian's torchrun (python3-torch) is not installed"
sim_env
real_torch
. "$CANN_ENV"
cd "$T/mindspeed-llm"
TWO=examples/mcore/qwen3/pretrain_qwen3_8b_4K_2node_ptd.sh
# As on a cluster: the master's address, the interface gloo uses, and the
# ranks on a node (HCCS inside it, RDMA across, in the simulated data).
export MASTER_ADDR=127.0.0.1 GLOO_SOCKET_IFNAME=lo MSPROF_SIM_RANKS_PER_NODE=2

# Each node is a host of its own (a UTS namespace: msprof-exec, torchrun and
# torch_npu there all see its name) where the machine allows it.
hosts=()
for u in "unshare --uts" "unshare --user --map-root-user --uts"; do
	if $u true 2> /dev/null; then
		read -ra hosts <<< "$u"
		break
	fi
done
# node N [OPTION...]: node N's msprof-exec over the example (all ranks
# profiled), on host nodeN; nN.out and nN.err in $T.
node() {
	local n=$1 host=()

	shift
	[ ${#hosts[@]} -eq 0 ] ||
	    host=("${hosts[@]}" sh -c 'hostname "$0" && exec "$@"' "node$n")
	NODE_RANK=$n "${host[@]}" "$MSPROF" -y "$@" -r all bash "$TWO" \
	    > "$T/n$n.out" 2> "$T/n$n.err"
}
# host_of RANK: the host named in RANK's output directory.
host_of() {
	ls -d profiling_output/*_ascend_pt/profiler_info_"$1".json 2> /dev/null |
	    sed 's|profiling_output/\(.*\)_[0-9]*_[0-9]*_ascend_pt/.*|\1|'
}

# --- the nodes start 5 s apart ----------------------------------------------
# One job of two nodes, node 1 first: its torchrun keeps trying to reach
# node 0's rendezvous (within the default timeout of 600 s) until node 0
# starts.  (Each node's torch processes cost seconds of CPU: the one run
# is both the two-node job and the late start, checked as each.)
MASTER_PORT=$(free_port)
node 1 --skip-checks &
n1=$!
# node 1's injector records the launch just before it execs torchrun; from
# there node 0 comes 5 s later (the delay is the scenario, not a wait)
wait_for "node 1's torchrun" has_files "profiling_output/msprof-exec_*/journal.jsonl"
sleep 5
node 0 --skip-checks
rc0=$?
wait "$n1"
rc1=$?
is "$rc0 $rc1" "0 0" "two nodes: both exit 0"
is "$(ranks_in profiling_output)" "0 1 2 3" "the four ranks' data in the shared directory"
like "$(sed -n 's/^Next: //p' "$T/n0.out")" '^open [^ ]*profiling_output in MindStudio Insight$' \
    "a job's nodes in one shared directory are one run: open it whole"
like "$(<"$T/n0.out")" "  rank 0: .*_ascend_pt.*
  rank 1: .*_ascend_pt" "node 0 reports its ranks 0 and 1"
like "$(<"$T/n1.out")" "  rank 2: .*_ascend_pt.*
  rank 3: .*_ascend_pt" "node 1 reports its ranks 2 and 3"
unlike "$(grep '^  rank [0-9]:' "$T/n0.out")" "rank [23]:" \
    "node 0 neither counts nor misses node 1's ranks"
unlike "$(grep '^  rank [0-9]:' "$T/n1.out")" "rank [01]:" \
    "node 1 neither counts nor misses node 0's ranks"
unlike "$(cat "$T/n0.err" "$T/n1.err")" "no data|possible cause|two jobs|failed" \
    "no complaint on either node"
like "$(<"$T/n1.out")" "iteration +10/ +10" \
    "the last rank (on node 1) trained to the end"
if [ ${#hosts[@]} -gt 0 ]; then
	is "$(host_of 0) $(host_of 1) $(host_of 2) $(host_of 3)" \
	    "node0 node0 node1 node1" "each node's rank directories carry its host name"
else
	skip "no UTS namespace here: both nodes have the test's host name"
fi
d=$(dirname "$(ls profiling_output/*_ascend_pt/profiler_info_2.json)")
is "$(ls -d "$d"/PROF_*/device_* | sed 's|.*/||')" "device_0" \
    "rank 2 ran on node 1's first device"
"$MSPROF" report profiling_output > rep.out 2> rep.err
is "$?" 0 "report over the shared directory: exit 0"
like "$(<rep.out)" "4 of 4 ranks" "report: one answer over all four ranks"
like "$(<rep.out)" "layout: tp 1, pp 2, dp 2" "report: the job's layout"
like "$(<rep.out)" "RDMA " "report: links across the nodes"
unlike "$(cat rep.out rep.err)" "no data|missing|two jobs" "report: nothing missing, no mixed jobs"
# The same run as the late start it was.
is "$rc0 $rc1" "0 0" "5 s apart: both exit 0"
is "$(ranks_in profiling_output)" "0 1 2 3" "5 s apart: the four ranks' data"
unlike "$(cat "$T/n0.err" "$T/n1.err")" "no data|possible cause|two jobs|failed" \
    "5 s apart: no complaint on either node"
"$MSPROF" report profiling_output > rep.out 2> rep.err
is "$?" 0 "5 s apart: report over the shared directory, exit 0"
like "$(<rep.out)" "4 of 4 ranks" "5 s apart: one answer over all four ranks"

# --- node 0 fails at its start ---------------------------------------------
# Its NPU is gone, so its msprof-exec refuses to start.  Node 1's torchrun
# waits for node 0's rendezvous until its timeout (torchrun's
# --rdzv_conf timeout=S, here as PET_RDZV_CONF), then fails by itself.
rm -rf profiling_output
MASTER_PORT=$(free_port)
MSPROF_SIM_NO_NPU=1 node 0
is "$?" 69 "node 0 without its NPU: refused (69)"
PET_RDZV_CONF=timeout=5 node 1 --skip-checks
like "$(<"$T/n1.err")" "The client socket has timed out after 5s while trying to connect to \(127\.0\.0\.1, $MASTER_PORT\)" \
    "node 1: torchrun gave up waiting for the rendezvous"
like "$(<"$T/n1.err")" "Training script execution failed" "node 1: the run failed"
like "$(<"$T/n1.err")" "cause: this node found no master at port $MASTER_PORT within 5 s: the node of rank 0 \(MASTER_ADDR\) did not start the job" \
    "node 1: the cause, the rendezvous with node 0"
like "$(<"$T/n1.err")" "read the log of node 0" "node 1: and what to do"
like "$(<"$T/n1.out")" "rank 2: no data" "node 1: its ranks have no data"
unlike "$(<"$T/n1.out")" "rank [01]:" "node 1: node 0's ranks are not its to miss"

# --- node 0's training fails at its start ----------------------------------
# The agents meet, but node 0 has one NPU for its two ranks: its rank 1
# fails at set_device and its torchrun stops.  Node 1's ranks wait for the
# missing ones in init_process_group until its timeout (the simulation's
# MSPROF_SIM_HANG_S), as with HCCL.
rm -rf profiling_output
MASTER_PORT=$(free_port)
export MSPROF_SIM_HANG_S=5
MSPROF_SIM_NPUS=1 node 0 --skip-checks &
n0=$!
node 1 --skip-checks
wait "$n0"
unset MSPROF_SIM_HANG_S
like "$(<"$T/n0.err")" "EE1001: Invalid device ID" "node 0: its rank 1 failed at start"
# Which comes first is the machine's: node 1's ranks time out waiting in the
# store (Socket Timeout), or, on a loaded machine where they start after
# node 0's torchrun has already stopped, connecting to it.
like "$(<"$T/n1.err")" "RuntimeError: Socket Timeout|The client socket has timed out after 5s while trying to connect" \
    "node 1: its ranks waited for the missing ones, then failed"
like "$(<"$T/n1.err")" "cause: (the ranks did not all meet in time at torch\.distributed's rendezvous|this node found no master at port $MASTER_PORT within 5 s)" \
    "node 1: the cause, the rendezvous of the ranks"
unlike "$(<"$T/n1.out")" "iteration" "node 1: it never trained alone"
done_testing
