#!/usr/bin/env bash
# The advice against the launch's own settings, through simulated runs:
# a symptom whose settings the launch already has is "already on", one
# whose settings it lacks "not set"; a launch run with
# ASCEND_LAUNCH_BLOCKING=1 is named for it; the journal records the
# variables the rules consult and nothing else of the environment; the
# preflight's npu-smi gives the device memory; without a session the
# same advice says the settings are not known.
. "$(dirname "$0")/lib.sh"
pyq_start
sim_env
cd "$T/mindspeed-llm" || exit 1

QWEN=examples/mcore/qwen3/pretrain_qwen3_8b_4K_ptd.sh	# overlap, fused flags on
LLAMA=examples/mcore/llama2/pretrain_llama2_7b_ptd.sh	# neither
# The findings of a --json report: "rule" each, sorted.
rules() {
	pyq -c 'import json, sys
print(" ".join(sorted(f["rule"] for f in json.load(open(sys.argv[1]))["summary"]["findings"])))' "$1"
}
# The state of setting $3 in finding $2 of a --json report.
state() {
	pyq -c 'import json, sys
for f in json.load(open(sys.argv[1]))["summary"]["findings"]:
    for s in f["settings"]:
        if f["rule"] == sys.argv[2] and s["name"] == sys.argv[3]:
            print(s["state"])' "$1" "$2" "$3"
}
findings() { sed -n '/^Findings$/,/^$/p' "$1"; }

# --- exposed communication, the launch overlapping already ---------------------
MSPROF_SIM_EXPOSED_COMM=1 "$MSPROF" -y --skip-checks -r all --json on.json \
    --html on.html bash "$QWEN" > out 2> err
# the simulator's profiler_metadata.json names the groups: the data-parallel
# part is its own finding, with the overlap settings
is "$?:$(rules on.json)" "0:exposed-communication exposed-dp" \
    "exposed communication planted: its findings (overall, data-parallel), and only those"
like "$(findings out)" '\[exposed-communication\] ranks 0-1: exposed communication .* 2[0-9]\.[0-9] % of the step' \
    "the text names the ranks as a range and the share"
like "$(findings out)" '--overlap-grad-reduce +already on' \
    "the launch has --overlap-grad-reduce: already on"
is "$(state on.json exposed-dp --overlap-param-gather)" on \
    "--json: --overlap-param-gather is on"
unlike "$(findings out)" 'num_to_forward_prefetch|moe-alltoall' \
    "no setting of another engine or layout (MM FSDP2, MoE)"
like "$(<on.html)" '<code>--overlap-grad-reduce</code>: already on' \
    "--html: the setting and its state"
"$MSPROF" report --json again.json profiling_output > again 2>&1
is "$(state again.json exposed-dp --overlap-grad-reduce)" on \
    "msprof-exec report over the output finds the session: still known"
rm -rf profiling_output

# --- the same without those flags ---------------------------------------------
MSPROF_SIM_EXPOSED_COMM=1 "$MSPROF" -y --skip-checks -r all --json off.json \
    bash "$LLAMA" > out 2> err
is "$?:$(rules off.json)" "0:exposed-communication exposed-dp" "llama2: the same findings"
like "$(findings out)" '--overlap-grad-reduce +not set' \
    "its launch lacks --overlap-grad-reduce: not set"
is "$(state off.json exposed-dp --use-distributed-optimizer)" "not set" \
    "--json: nor --use-distributed-optimizer"
rm -rf profiling_output

# --- unfused kernels while the launch asks for the fused ones ------------------
MSPROF_SIM_UNFUSED=rmsnorm "$MSPROF" -y --skip-checks -r all --json fused.json \
    bash "$QWEN" > out 2> err
is "$(rules fused.json)" unfused-rmsnorm "unfused RMSNorm planted: its finding"
like "$(findings out)" '--use-fused-rmsnorm +already on' \
    "--use-fused-rmsnorm is on, yet the kernels are unfused: already on"
rm -rf profiling_output

# --- a launch with ASCEND_LAUNCH_BLOCKING=1 ------------------------------------
ASCEND_LAUNCH_BLOCKING=1 "$MSPROF" -y --skip-checks -r all --json lb.json \
    bash "$QWEN" > out 2> err
is "$?:$(rules lb.json)" "0:host-bound launch-blocking" \
    "ASCEND_LAUNCH_BLOCKING=1: host-bound, and the launch named for it"
like "$(findings out)" '\[launch-blocking\] ranks 0-1: the launch ran with ASCEND_LAUNCH_BLOCKING=1' \
    "the finding says the measurement is of a debugging configuration"
like "$(findings out)" 'ASCEND_LAUNCH_BLOCKING=0 \(or unset\) +not set \(the launch has 1\)' \
    "and what to change"
like "$(findings out)" 'TASK_QUEUE_ENABLE=2 +already on' \
    "host-bound: the script's own TASK_QUEUE_ENABLE=2 is already on"
like "$(findings out)" 'TASK_QUEUE_ENABLE has no effect until it is unset' \
    "and has no effect while ASCEND_LAUNCH_BLOCKING is 1"
J=$(ls profiling_output/msprof-exec_*/journal.jsonl)
is "$(pyq -c 'import json, sys
r = [json.loads(l) for l in open(sys.argv[1])][0]
print(" ".join(sorted(r["env"])), "|", " ".join(sorted(r["env_unset"])))' "$J")" \
    "ASCEND_LAUNCH_BLOCKING=1 CPU_AFFINITY_CONF=1 PYTORCH_NPU_ALLOC_CONF=expandable_segments:True TASK_QUEUE_ENABLE=2 | ASCEND_GLOBAL_LOG_LEVEL HCCL_BUFFSIZE" \
    "the journal records the variables the rules consult, set or not"
unlike "$(<"$J")" '"PATH=|HOME=|MASTER_PORT=' "and nothing else of the environment"
rm -rf profiling_output

# --- device memory: npu-smi's, from the preflight ------------------------------
"$MSPROF" -y -r all -w memory --cann-env "$CANN_ENV" --json mem.json \
    bash "$QWEN" > out 2> err
is "$?" 0 "with the preflight and --with memory: exit 0"
is "$(pyq -c 'import json, sys; print(json.load(open(sys.argv[1]))["device_mb"])' profiling_output/msprof-exec_*/plan.json)" \
    65536 "the plan records the HBM npu-smi shows"
like "$(<out)" 'device memory 65536 MB \(npu-smi\)' "the memory summary compares with it"
like "$(findings out)" '\[memory-headroom\] ranks 0-1: peak device memory is at most 4608 MB' \
    "4608 MB of 65536: room for a larger micro-batch"
like "$(findings out)" '--micro-batch-size +now 1' "and the launch's micro-batch size"
rm -rf profiling_output

# --- no session: the same advice, the launch's settings not known -------------
MSPROF_SIM_EXPOSED_COMM=1 "$TOP/sim/gen-cluster" --ranks 4 -j 1 gen > /dev/null
"$MSPROF" report --json gen.json gen > out 2> err
is "$(rules gen.json)" "exposed-communication exposed-dp" "gen-cluster: the same findings"
like "$(findings out)" '--overlap-grad-reduce, .*: not known whether the launch has them \(no session\)' \
    "without a session the settings are not known"
is "$(state gen.json exposed-dp --overlap-grad-reduce)" "not known" \
    "--json: state not known"
# --- real torch_npu output: a 2-rank DDP CNN (t/data/real) ---------------------
# Every kernel dynamic and nothing compiled, two ranks that are no group of
# peers, a job without Megatron: none of that is a finding or a flag.
REAL="$TOP/t/data/real"
for d in msinsight-2025/text/level0 msinsight-2025/text/level1 \
    msinsight-2025/text/level2 msinsight-2025/db/level1 \
    msinsight-2024/text/level0 msinsight-2024/text/level1 \
    msinsight-2024/db/level1; do
	"$MSPROF" report --json real.json "$REAL/$d" > out 2>&1
	unlike "$(rules real.json)" 'dynamic-shape|wait-ratio|slow-rank' \
	    "real $d: no dynamic-shape, wait-ratio or slow-rank finding"
done
"$MSPROF" report --json real.json "$REAL/msinsight-2025/text/level1" > out 2>&1
like "$(findings out)" '\[format-conversion\] format conversion: TransData takes 16\.0 % of the device time of all operators \(114 kernels' \
    "real 2025 level1: TransData's share is a finding"
like "$(findings out)" 'in your code: torch_npu\.npu\.config\.allow_internal_format = False' \
    "its remedy is a line of the code"
unlike "$(findings out)" '--overlap|--use-distributed|--moe-|fsdp_plan' \
    "DDP, no session: no Megatron flag, no MindSpeed-MM key"
like "$(findings out)" 'in your code: DistributedDataParallel\(\.\.\., bucket_cap_mb=N\)' \
    "DDP, no session: DDP's own bucket size, in the code"
"$MSPROF" report --html real.html "$REAL/msinsight-2025/text/level1" > /dev/null 2>&1
like "$(<real.html)" '<li>in your code: <code>torch_npu\.npu\.config\.allow_internal_format = False</code></li>' \
    "--html: a line of the code is said as one"
"$MSPROF" report "$REAL/msinsight-2024/text/level1" > out 2>&1
like "$(findings out)" 'Megatron \(MindSpeed-LLM, MindSpeed-MM\): --overlap-grad-reduce' \
    "no metadata (torch_npu 2024): each framework's settings, grouped"
like "$(findings out)" 'the data does not say which framework ran' \
    "and it says the framework is not known"
done_testing
