#!/usr/bin/env bash
# Self-test of the simulation's analysis data (ASCEND_PROFILER_OUTPUT): file sets and
# columns, the quirks real files have, level0 against level1, analysis.db, the healthy
# default, and each planted anomaly (MSPROF_SIM_SLOW_RANK, _SLOW_LINK, _HOT_OP,
# _HOST_BOUND, _EXPOSED_COMM, _BUBBLE, _UNFUSED, _MEM_PEAK, ASCEND_LAUNCH_BLOCKING) -- through a
# simulated training run on 2 NPUs and through sim/gen-cluster.
. "$(dirname "$0")/../sim/testlib.sh"
Q=examples/mcore/qwen3/pretrain_qwen3_8b_4K_ptd.sh
GEN=$SIM_DIR/gen-cluster
# fact FACTS KEY: the value of KEY in prof_facts' lines
fact() {
    local line
    while IFS= read -r line; do [[ $line == "$2 "* ]] && printf '%s\n' "${line#"$2 "}"; done <<< "$1"
}
# lt A B: the number A is below B (and both are numbers)
lt() {
    awk -v a="$1" -v b="$2" 'BEGIN { n = "^-?[0-9]+([.][0-9]*)?([eE][-+]?[0-9]+)?$"
        exit !(a ~ n && b ~ n && a + 0 < b + 0) }'
}
py() { python3 -c "$@"; }
unset MSPROF_SIM_SLOW_RANK MSPROF_SIM_SLOW_LINK MSPROF_SIM_HOT_OP MSPROF_SIM_HOST_BOUND MSPROF_SIM_SEED \
      MSPROF_SIM_KERNELS_PER_STEP MSPROF_SIM_RANKS_PER_NODE MSPROF_SIM_EXPOSED_COMM MSPROF_SIM_BUBBLE \
      MSPROF_SIM_UNFUSED MSPROF_SIM_MEM_PEAK ASCEND_LAUNCH_BLOCKING

# healthy: every summary rule finds nothing (FACTS from prof_facts, $2 names the case)
healthy_checks() {
    local f=$1 what=$2
    lt "$(fact "$f" spread | awk '{print $NF}')" 0.05; ok $? "$what: no rank spread over 5 % of the step"
    is "$(fact "$f" host_bound)" none "$what: no host-bound rank"
    lt "$(fact "$f" max_wait_ratio)" 0.2; ok $? "$what: every Wait Time Ratio under 0.2"
    is "$(fact "$f" slow_links)" none "$what: no slow link"
    is "$(fact "$f" small_packets)" none "$what: no small packets"
    is "$(fact "$f" aicpu_20us)" 0 "$what: no AI_CPU task of 20 us or more"
    is "$(fact "$f" dynamic_ops)" 0 "$what: no dynamic-shape operator"
    is "$(fact "$f" low_pipe)" none "$what: every operator keeps a pipe busy"
    lt "$(fact "$f" top_op | cut -d' ' -f2)" 40; ok $? "$what: no operator over 40 % of the time"
    lt "$(fact "$f" exposed_low)" 0.05; ok $? "$what: exposed communication under 5 % of the step"
    lt "$(fact "$f" bubble_median)" 0.05; ok $? "$what: Bubble under 5 % of the step"
    is "$(fact "$f" unfused)" none "$what: the fused kernels, not their unfused forms"
}

# --- the data sets: two trainings, MindSpeed-LLM on 2 NPUs, level1, all ranks (healthy, and
# with a slow rank), and the gen-cluster trees, healthy and with each planted anomaly; then
# the facts of each, in one Python
# (the slow rank's steps are of 30 ms: its backward tail outlasts the overlapped all-reduce,
# so it is also last at the next collective; with shorter steps that one hides it, as it would)
llm_example $Q --profile --profile-step-start 2 --profile-step-end 4 --profile-ranks -1 \
    --profile-level level1 --profile-save-path $TMP/run >/dev/null
MSPROF_SIM_STEP_MS=30 MSPROF_SIM_SLOW_RANK=1 llm_example $Q --profile --profile-step-start 2 --profile-step-end 4 --profile-ranks -1 \
    --profile-level level1 --profile-save-path $TMP/slow >/dev/null
$GEN --ranks 16 --tp 2 --pp 2 --level level2 --export-type text --export-type db $TMP/g0 >/dev/null; ok $? "gen-cluster: 16 ranks, tp 2, pp 2"
$GEN --ranks 64 --tp 4 --pp 4 --steps 3 $TMP/g64 >/dev/null
MSPROF_SIM_SLOW_RANK=5 $GEN --ranks 16 --tp 2 --pp 2 $TMP/g1 >/dev/null
MSPROF_SIM_SLOW_LINK=9-8 $GEN --ranks 16 $TMP/g2 >/dev/null
MSPROF_SIM_SLOW_LINK=8-16 $GEN --ranks 32 $TMP/g3 >/dev/null
MSPROF_SIM_HOT_OP=MatMulV2 $GEN --ranks 4 $TMP/g4 >/dev/null
MSPROF_SIM_HOT_OP=GroupedMatmul $GEN --ranks 2 $TMP/g5 >/dev/null
MSPROF_SIM_HOST_BOUND=1 $GEN --ranks 4 $TMP/g6 >/dev/null
MSPROF_SIM_AICPU_US=60 MSPROF_SIM_DYNAMIC_OP=SwiGlu MSPROF_SIM_LOW_PIPE_OP=Cast MSPROF_SIM_SMALL_PACKETS=1 \
    $GEN --ranks 16 $TMP/g7 >/dev/null
MSPROF_SIM_EXPOSED_COMM=1 $GEN --ranks 8 $TMP/g8 >/dev/null
MSPROF_SIM_BUBBLE=1 $GEN --ranks 8 --pp 4 $TMP/g9 >/dev/null
$GEN --ranks 8 --pp 4 $TMP/g9h >/dev/null
MSPROF_SIM_UNFUSED=all $GEN --ranks 2 $TMP/g10 >/dev/null
MSPROF_SIM_UNFUSED=swiglu $GEN --ranks 2 $TMP/g11 >/dev/null
$GEN --ranks 2 --with-memory $TMP/g12 >/dev/null
MSPROF_SIM_MEM_PEAK=95 $GEN --ranks 2 --with-memory $TMP/g13 >/dev/null
ASCEND_LAUNCH_BLOCKING=1 $GEN --ranks 2 $TMP/g14 >/dev/null
prof_facts_each $TMP/run $TMP/slow $TMP/g0 $TMP/g64 $TMP/g1 $TMP/g2 $TMP/g3 $TMP/g4 $TMP/g5 $TMP/g6 $TMP/g7 \
    $TMP/g8 $TMP/g9 $TMP/g9h $TMP/g10 $TMP/g11 $TMP/g12 $TMP/g13 $TMP/g14

# --- the healthy training run ----------------------------------------------------------------
P=$TMP/run
is "$(count_dirs $P)" 2 "two ranks profiled"
F=$(<$P.facts)
is "$(fact "$F" comm_consistent)" yes "both ranks report the same collectives of their groups"
healthy_checks "$F" "healthy run"
A0=$(ls -d $P/*_ascend_pt | while read -r d; do [ -f "$d/profiler_info_0.json" ] && echo "$d"; done)/ASCEND_PROFILER_OUTPUT
K=$A0/kernel_details.csv
is "$(head -n1 "$K" | tr -d '\r')" \
   "Step Id,Model ID,Task ID,Stream ID,Name,Type,OP State,Accelerator Core,Start Time(us),Duration(us),Wait Time(us),Block Dim,Mix Block Dim,HF32 Eligible,Input Shapes,Input Data Types,Input Formats,Output Shapes,Output Data Types,Output Formats,Context ID,$(IFS=,; echo "aicore_time(us),aic_total_cycles,aic_mac_time(us),aic_mac_ratio,aic_scalar_time(us),aic_scalar_ratio,aic_mte1_time(us),aic_mte1_ratio,aic_mte2_time(us),aic_mte2_ratio,aic_fixpipe_time(us),aic_fixpipe_ratio,aic_icache_miss_rate,aiv_time(us),aiv_total_cycles,aiv_vec_time(us),aiv_vec_ratio,aiv_scalar_time(us),aiv_scalar_ratio,aiv_mte2_time(us),aiv_mte2_ratio,aiv_mte3_time(us),aiv_mte3_ratio,aiv_icache_miss_rate,cube_utilization(%)")" \
   "kernel_details.csv: the CANN 8.0 op_summary columns with PipeUtilization (MindSpeed-LLM's aic_metrics)"
grep -q $'\r$' "$K"; ok $? "kernel_details.csv has CRLF line ends"
sed -n 2p "$K" | grep -Eq $',[0-9]+\\.[0-9]{3}\t,'; ok $? "Start Time(us) ends in a tab, unquoted (as real files)"
sed -n 2p "$K" | grep -Eq ',"""[0-9]+(,[0-9]+)*(;[0-9]+(,[0-9]+)*)+""",'; ok $? "Input Shapes are triple-quoted with commas and semicolons"
is "$(csv_col "$K" 'Accelerator Core' | sort -u | tr '\n' ' ')" "AI_CORE AI_VECTOR_CORE HCCL MIX_AIC " \
   "Accelerator Core values"
is "$(csv_col "$K" 'Step Id' | sort -u | tr '\n' ' ')" "1 2 " "Step Id: the torch_npu steps recorded"
is "$(head -n1 "$A0/op_statistic.csv" | tr -d '\r')" \
   "OP Type,Core Type,Count,Total Time(us),Min Time(us),Avg Time(us),Max Time(us),Ratio(%)" "op_statistic.csv header"
is "$(csv_col "$A0/step_trace_time.csv" Step | tr '\n' ' ')" "1 2 " "step_trace_time.csv: one row per profiled step"
out=$(py '
import json, re, sys
c = json.load(open(sys.argv[1] + "/communication.json"))
m = json.load(open(sys.argv[1] + "/communication_matrix.json"))
bad = []
for st, kinds in c.items():
    if not re.match(r"step\d+$", st) or set(kinds) != {"collective", "p2p"}:
        bad.append("step key " + st)
    for key, info in kinds["collective"].items():
        if key != "Total Op Info" and not re.match(r"hcom_allReduce__\d{3}_\d+_1@\d+$", key):
            bad.append("op " + key)
        # the total, as torch_npu writes it: no start, no bandwidth nor large-packet ratio
        total = key == "Total Op Info"
        if list(info["Communication Time Info"]) != ["Start Timestamp(us)"][total:] + ["Elapse Time(ms)",
                "Transit Time(ms)", "Wait Time(ms)", "Synchronization Time(ms)", "Idle Time(ms)", "Wait Time Ratio",
                "Synchronization Time Ratio"]:
            bad.append("time info " + key)
        for tt, b in info["Communication Bandwidth Info"].items():
            if list(b) != (["Transit Time(ms)", "Transit Size(MB)", "Size Distribution"] if total else
                           ["Transit Size(MB)", "Transit Time(ms)", "Bandwidth(GB/s)", "Large Packet Ratio",
                            "Size Distribution"]):
                bad.append("bandwidth " + tt)
    if "Total Op Info" not in kinds["collective"]:
        bad.append("no Total Op Info")
for st, kinds in m.items():
    for key, links in kinds["collective"].items():
        if not re.match(r"allreduce-(top1|middle|bottom1|total)@\d+$", key):
            bad.append("matrix " + key)
        for link, d in links.items():
            if link != "0-1" or d["Transport Type"] != "HCCS" or "Bandwidth(GB/s)" not in d:
                bad.append("link " + link)
print(" ".join(sorted(set(bad))) or "ok", sorted(c) == sorted(m),
      sorted(set(t for k in c.values() for o in k["collective"].values() for t in o["Communication Bandwidth Info"])))
' "$A0")
is "$out" "ok True ['HCCS', 'PCIE', 'RDMA', 'SDMA', 'SIO']" \
   "communication.json / communication_matrix.json: step<N> -> collective -> <op>@<group>, real keys, links src-dst"
is "$(py 'import json,sys; d=json.load(open(sys.argv[1])); print(sorted(d["distributed_args"]), len(d["parallel_group_info"]))' "$A0/../profiler_metadata.json")" \
   "['context_parallel_size', 'data_parallel_size', 'expert_model_parallel_size', 'pipeline_model_parallel_size', 'rank', 'sequence_parallel', 'tensor_model_parallel_size', 'world_size'] 2" \
   "profiler_metadata.json: distributed_args as MindSpeed-LLM writes it, and the rank's HCCL groups"

# --- the same run with a slow rank ---------------------------------------------------------
F=$(<$TMP/slow.facts)
is "$(fact "$F" slowest_compute)" 1 "SLOW_RANK=1: rank 1's Computing is the largest"
lt 0.05 "$(fact "$F" spread | awk '{print $NF}')"; ok $? "SLOW_RANK=1: the Computing spread is over 5 % of the step"
set -- $(fact "$F" most_waited_for)
is "$1 $2" "1 1.00" "SLOW_RANK=1: rank 1 has the shortest elapse (arrived last) in every collective"
lt 0.2 "$3"; ok $? "SLOW_RANK=1: rank 0's Wait Time Ratio is over 0.2 in each of them"
is "$(fact "$F" slow_links) $(fact "$F" host_bound)" "none none" "SLOW_RANK=1: no slow link, no host-bound rank"

# --- db export -----------------------------------------------------------------------------
P=$TMP/db
llm_example $Q --profile --profile-step-start 2 --profile-step-end 4 --profile-ranks -1 \
    --profile-level level1 --profile-export-type db --profile-save-path $P >/dev/null
DB=$(ls $P/*_ascend_pt/ASCEND_PROFILER_OUTPUT/analysis.db | head -n1)
is "$(py '
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
for t in ("StepTraceTime", "CommAnalyzerTime", "CommAnalyzerBandwidth", "CommAnalyzerMatrix"):
    print(t, ",".join(r[1] for r in db.execute("PRAGMA table_info(%s)" % t)))
' "$DB")" "StepTraceTime step,computing,communication_not_overlapped,overlapped,communication,free,stage,bubble,communication_not_overlapped_and_exclude_receive,preparing
CommAnalyzerTime hccl_op_name,group_name,start_timestamp,elapse_time,transit_time,wait_time,synchronization_time,idle_time,step,type
CommAnalyzerBandwidth hccl_op_name,group_name,transport_type,transit_size,transit_time,bandwidth,large_packet_ratio,package_size,count,total_duration,step,type
CommAnalyzerMatrix hccl_op_name,group_name,src_rank,dst_rank,transport_type,transit_size,transit_time,bandwidth,step,type,op_name" \
   "analysis.db: the four tables with torch_npu's columns"
is "$(py 'import sqlite3,sys; db=sqlite3.connect(sys.argv[1]); print(db.execute("select count(*), min(step) from StepTraceTime").fetchone(), db.execute("select count(distinct step) from CommAnalyzerTime").fetchone()[0])' "$DB")" \
   "(2, '1') 2" "analysis.db: a StepTraceTime row per step, collectives in both steps"

# --- gen-cluster: the healthy default --------------------------------------------------------
G=$TMP/g0
is "$(count_dirs $G)" 16 "one directory per rank"
F=$(<$G.facts)
is "$(fact "$F" ranks) $(fact "$F" comm_consistent)" "16 yes" "every member of a group reports its collectives"
healthy_checks "$F" "gen-cluster healthy"
D5=$(ls -d $G/*_40005_*_ascend_pt)
lt 0 "$(csv_col $D5/ASCEND_PROFILER_OUTPUT/kernel_details.csv 'Accelerator Core' | grep -c AI_CPU)"
ok $? "level2 has AI_CPU tasks (all shorter than 20 us)"
is "$(py 'import json,sys; c=json.load(open(sys.argv[1])); print(sorted(k for k in c["step4"]["p2p"] if not k.startswith("Total"))[0].split("__")[0])' $(ls -d $G/*_40008_*)/ASCEND_PROFILER_OUTPUT/communication.json)" \
   hcom_receive "a second pipeline stage receives from the first (p2p)"
is "$(py '
import csv, json, sqlite3, sys
out = sys.argv[1] + "/ASCEND_PROFILER_OUTPUT/"
db = sqlite3.connect(out + "analysis.db")
c = json.load(open(out + "communication.json"))
m = json.load(open(out + "communication_matrix.json"))
ops = sum(1 for k in c.values() for o in k.values() for n in o if not n.startswith("Total"))
links = sum(len(l) for k in m.values() for o in k.values() for l in o.values())
steps = [float(r["Computing"]) for r in csv.DictReader(open(out + "step_trace_time.csv"))]
print(db.execute("select count(*) from CommAnalyzerTime").fetchone()[0] == ops,
      db.execute("select count(*) from CommAnalyzerMatrix").fetchone()[0] == links,
      [r[0] for r in db.execute("select computing from StepTraceTime")] == steps)
' $D5)" "True True True" "analysis.db holds the same collectives, links and steps as the text export"
is "$(ls $G/*_40000_*/ASCEND_PROFILER_OUTPUT | tr '\n' ' ')" \
   "analyse.done analysis.db ascend_pytorch_profiler_0.db communication.json communication_matrix.json kernel_details.csv op_statistic.csv step_trace_time.csv " \
   "text and db export: the files of both"

G=$TMP/g64
F=$(<$G.facts)
lt "$(fact "$F" dixon_q_max)" 0.5; ok $? "64 ranks, tp 4, pp 4: the last to arrive never stands out (Dixon's Q under 0.5)"
healthy_checks "$F" "gen-cluster 64 ranks"

# --- planted anomalies ----------------------------------------------------------------------
G=$TMP/g1
F=$(<$G.facts)
is "$(fact "$F" slowest_compute)" 5 "gen SLOW_RANK=5: rank 5 computes longest"
set -- $(fact "$F" most_waited_for)
is "$1 $2" "5 1.00" "gen SLOW_RANK=5: rank 5 arrives last in every collective of its groups"
lt 0.2 "$3"; ok $? "gen SLOW_RANK=5: the others' Wait Time Ratio is over 0.2 there"
lt 0.9 "$(fact "$F" dixon_q_max)"; ok $? "gen SLOW_RANK=5: rank 5 stands out (Dixon's Q over 0.9)"
is "$(fact "$F" slow_links) $(fact "$F" host_bound)" "none none" "gen SLOW_RANK=5: nothing else"

G=$TMP/g2
F=$(<$G.facts)
is "$(fact "$F" slow_links)" 9-8 "gen SLOW_LINK=9-8: that HCCS link, and only it, is below 20 % of its transport's mean"
lt "$(fact "$F" max_wait_ratio)" 0.2; ok $? "gen SLOW_LINK=9-8: no rank waits for another"
lt "$(fact "$F" spread | awk '{print $NF}')" 0.05; ok $? "gen SLOW_LINK=9-8: no rank spread"
G=$TMP/g3
F=$(<$G.facts)
is "$(fact "$F" slow_links)" 8-16 "gen SLOW_LINK=8-16, 32 ranks: an RDMA link across nodes"
is "$(py 'import json,sys; m=json.load(open(sys.argv[1])); print(set(d["Transport Type"] for k in m.values() for o in k["collective"].values() for l, d in o.items() if l == "8-16"))' $(ls -d $G/*_40008_*)/ASCEND_PROFILER_OUTPUT/communication_matrix.json)" \
   "{'RDMA'}" "a link between nodes (8 ranks per node) is RDMA"
lt "$(fact "$F" max_wait_ratio)" 0.2; ok $? "gen SLOW_LINK=8-16: no rank waits for another"

G=$TMP/g4
F=$(<$G.facts)
set -- $(fact "$F" top_op)
is "$1" MatMulV2 "gen HOT_OP=MatMulV2: MatMulV2 is the top operator"
lt 50 "$2"; ok $? "gen HOT_OP=MatMulV2: it takes over half of the time"
is "$(fact "$F" host_bound) $(fact "$F" slow_links)" "none none" "gen HOT_OP: nothing else"
is "$(fact "$(<$TMP/g5.facts)" top_op | cut -d' ' -f1)" GroupedMatmul "gen HOT_OP=GroupedMatmul: a new operator type"

G=$TMP/g6
F=$(<$G.facts)
is "$(fact "$F" host_bound)" "0 1 2 3" "gen HOST_BOUND=1: Free is over 10 % of the step on every rank"
lt "$(fact "$F" spread | awk '{print $NF}')" 0.05; ok $? "gen HOST_BOUND=1: no rank spread"

G=$TMP/g7
F=$(<$G.facts)
is "$(fact "$F" aicpu_20us)" 32 "gen AICPU_US=60: one AI_CPU task of 20 us or more per step and rank"
is "$(csv_col $G/*_40003_*/ASCEND_PROFILER_OUTPUT/kernel_details.csv 'OP State' | sort -u | tr '\n' ' ')" \
   "N/A dynamic " "OP State: dynamic for every kernel (aclnn), N/A for communication, as in real data"
is "$(fact "$F" dynamic_ops)" 16 "gen DYNAMIC_OP=SwiGlu: SwiGlu's Input Shapes change from step to step, on each of 16 ranks"
is "$(fact "$F" low_pipe)" Cast "gen LOW_PIPE_OP=Cast: Cast, and only Cast, has every pipe ratio low"
is "$(fact "$F" small_packets | wc -w)" 32 "gen SMALL_PACKETS=1: every rank's HCCS and RDMA volume is in small packets"
lt "$(fact "$F" spread | awk '{print $NF}')" 0.05; ok $? "gen AICPU/DYNAMIC/LOW_PIPE/SMALL_PACKETS: no rank spread"
is "$(fact "$F" slow_links) $(fact "$F" host_bound)" "none none" "and no slow link or host-bound rank"

G=$TMP/g8
F=$(<$G.facts)
lt 0.15 "$(fact "$F" exposed_low)"; ok $? "gen EXPOSED_COMM=1: over 15 % of every rank's step is exposed communication"
lt "$(fact "$F" max_wait_ratio)" 0.2; ok $? "gen EXPOSED_COMM=1: no rank waits for another (the transfer, not a peer)"
is "$(fact "$F" host_bound) $(fact "$F" bubble_median)" "none 0.0000" "gen EXPOSED_COMM=1: nothing else"
G=$TMP/g9
F=$(<$G.facts)
lt 0.2 "$(fact "$F" bubble_median)"; ok $? "gen BUBBLE=1, pp 4: Bubble over 20 % of the step"
lt "$(fact "$F" exposed_low)" 0.05; ok $? "gen BUBBLE=1: the receives are the bubble, not exposed communication"
lt "$(fact "$F" spread | awk '{print $NF}')" 0.05; ok $? "gen BUBBLE=1: every stage idles alike, no rank spread"
lt "$(fact "$(<$TMP/g9h.facts)" bubble_median)" 0.05; ok $? "pp 4 without BUBBLE: Bubble under 5 %"
G=$TMP/g10
is "$(fact "$(<$G.facts)" unfused)" "attention rmsnorm rotary swiglu" \
   "gen UNFUSED=all: SoftmaxV2, Rsqrt, Neg, Swish kernels and no FlashAttentionScore, RmsNorm, SwiGlu"
is "$(fact "$(<$TMP/g11.facts)" unfused)" swiglu "gen UNFUSED=swiglu: that form only"
is "$(csv_col $TMP/g11/*_40000_*/ASCEND_PROFILER_OUTPUT/kernel_details.csv Name | grep -m1 Swish)" \
   aclnnSilu_SwishAiCore_Swish "an unfused kernel is named after its aclnn API (aclnnSilu runs Swish)"
G=$TMP/g12
is "$(head -n1 $G/*_40000_*/ASCEND_PROFILER_OUTPUT/memory_record.csv | tr -d '\r')" \
   "Component,Timestamp(us),Total Allocated(MB),Total Reserved(MB),Total Active(MB),Stream Ptr,Device Type" \
   "--with-memory: memory_record.csv with torch_npu's columns"
is "$(fact "$(<$G.facts)" mem_peak_pct)" 60.0 "--with-memory: the process peaks at 60 % of the device by default"
is "$(fact "$(<$TMP/g13.facts)" mem_peak_pct)" 95.0 "gen MEM_PEAK=95: the peak at 95 %"
F=$(<$TMP/g14.facts)
is "$(fact "$F" launch_blocking)" 1 "ASCEND_LAUNCH_BLOCKING=1: profiler_metadata.json's ENV_VARIABLES has it"
is "$(fact "$F" host_bound)" "0 1" "ASCEND_LAUNCH_BLOCKING=1: every rank host-bound"
is "$(fact "$(<$TMP/g12.facts)" launch_blocking)" unset "without it: recorded as not set"

# --- a collection without a schedule, the older step_trace_time layout -----------------------
python3 -c '
import sys, time
from torch_npu import profiler as tp
with tp.profile(activities=[tp.ProfilerActivity.NPU], on_trace_ready=tp.tensorboard_trace_handler(sys.argv[1]),
                experimental_config=tp._ExperimentalConfig(profiler_level=tp.ProfilerLevel.Level1)):
    time.sleep(0.02)
' $TMP/ns >/dev/null
A=$(ls -d $TMP/ns/*_ascend_pt/ASCEND_PROFILER_OUTPUT)
is "$(sed -n 2p $A/step_trace_time.csv | cut -d, -f1)" "" "no schedule: one step_trace_time row with an empty Step"
like "$(head -n1 $A/kernel_details.csv)" '^Model ID,' "no schedule: kernel_details.csv has no Step Id column"
MSPROF_SIM_OLD_STEP_TRACE=1 $GEN --ranks 2 $TMP/os >/dev/null
is "$(head -n1 $TMP/os/*_40000_*/ASCEND_PROFILER_OUTPUT/step_trace_time.csv | tr -d '\r')" \
   "Step,Computing,Communication(Not Overlapped),Overlapped,Communication,Free,Stage,Bubble,Communication(Not Overlapped and Exclude Receive)" \
   "MSPROF_SIM_OLD_STEP_TRACE=1: the older header without Preparing"

# --- levels, volume, determinism, layout ------------------------------------------------------
$GEN --ranks 2 --level level0 $TMP/l0 >/dev/null
is "$(ls $TMP/l0/*_40001_*/ASCEND_PROFILER_OUTPUT | tr '\n' ' ')" "analyse.done kernel_details.csv step_trace_time.csv " \
   "level0: no op_statistic.csv and no communication files"
is "$(head -n1 $TMP/l0/*_40001_*/ASCEND_PROFILER_OUTPUT/kernel_details.csv | tr -d '\r')" \
   "Step Id,Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait Time(us),Block Dim" "level0: the base kernel columns"
MSPROF_SIM_KERNELS_PER_STEP=300 $GEN --ranks 2 --steps 3 $TMP/kv >/dev/null
is "$(csv_col $TMP/kv/*_40000_*/ASCEND_PROFILER_OUTPUT/kernel_details.csv 'Accelerator Core' | grep -vc HCCL)" 900 \
   "MSPROF_SIM_KERNELS_PER_STEP=300: 300 compute kernels in each of 3 steps"
$GEN --ranks 2 --kernel-mb 2 $TMP/km >/dev/null
sz=$(stat -c %s $TMP/km/*_40001_*/ASCEND_PROFILER_OUTPUT/kernel_details.csv)
[ "$sz" -gt 1700000 ] && [ "$sz" -lt 2300000 ]; ok $? "--kernel-mb 2: kernel_details.csv is about 2 MB ($sz bytes)"
MSPROF_SIM_SLOW_RANK=1 $GEN --ranks 4 -j 2 $TMP/d1 >/dev/null
MSPROF_SIM_SLOW_RANK=1 $GEN --ranks 4 -j 1 $TMP/d2 >/dev/null
diff -r $TMP/d1 $TMP/d2 >/dev/null; ok $? "the same knobs and seed give the same bytes (1 or several workers)"
MSPROF_SIM_SEED=2 MSPROF_SIM_SLOW_RANK=1 $GEN --ranks 4 $TMP/d3 >/dev/null
! cmp -s $TMP/d1/*_40000_*/ASCEND_PROFILER_OUTPUT/kernel_details.csv $TMP/d3/*_40000_*/ASCEND_PROFILER_OUTPUT/kernel_details.csv
ok $? "another MSPROF_SIM_SEED gives other numbers"
[ "$(csv_col $TMP/d1/*_40000_*/ASCEND_PROFILER_OUTPUT/kernel_details.csv 'Duration(us)' | sed -n 1p)" != \
  "$(csv_col $TMP/d1/*_40002_*/ASCEND_PROFILER_OUTPUT/kernel_details.csv 'Duration(us)' | sed -n 1p)" ]
ok $? "each rank has its own jitter"
$GEN --ranks 16 --by-node $TMP/bn >/dev/null
is "$(ls $TMP/bn | tr '\n' ' ')" "node000 node001 " "--by-node: one directory per node"
out=$($GEN --ranks 6 --tp 4 $TMP/bad 2>&1); rc=$?
is "$rc" 1 "a world size that the layout does not divide is refused"
like "$out" "--ranks 6 is not a multiple of tp\*pp\*cp = 4" "and the message says why"

done_testing
