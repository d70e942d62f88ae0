#!/usr/bin/env bash
# Self-test of the simulation: MindSpeed-LLM MCore profiling flags, through the example scripts.
. "$(dirname "$0")/../sim/testlib.sh"
Q=examples/mcore/qwen3/pretrain_qwen3_8b_4K_ptd.sh
# One port for the runs, which come one after another (each free_port is a
# python3 of its own).
export MASTER_PORT
MASTER_PORT=$(free_port)
# col NAME FILE...: the values of CSV column NAME, each followed by a space
# (csv_col without a python3 per call; the columns read here hold no commas).
col() {
    awk -F, -v c="$1" 'FNR == 1 { n = 0; sub(/\r$/, ""); for (i = 1; i <= NF; i++) if ($i == c) n = i; next }
        { sub(/\r$/, ""); printf "%s ", n ? $n : "NO-COLUMN-" c }' "${@:2}"
}

# --- the recommended window, level1, rank 0 ---------------------------------------------
P=$TMP/l1
out=$(llm_example $Q --profile --profile-step-start 2 --profile-step-end 4 --profile-ranks 0 \
      --profile-level level1 --profile-with-cpu --profile-save-path $P)
like "$out" 'iteration +10/ +10 \|' "the run reaches its last iteration"
is "$(count_dirs $P)" 1 "one *_ascend_pt directory (rank 0 only)"
D=$(ls -d $P/*_ascend_pt 2>/dev/null | head -n1)
like "$(basename "$D")" '^[^_]+_[0-9]+_[0-9]{17}_ascend_pt$' "directory named <host>_<pid>_<17-digit ms timestamp>_ascend_pt"
[ -f "$D/profiler_info_0.json" ] && [ -f "$D/profiler_metadata.json" ]; ok $? "profiler_info_0.json and profiler_metadata.json"
ls -d "$D"/PROF_[0-9][0-9][0-9][0-9][0-9][0-9]_*_* >/dev/null 2>&1 && \
    ls "$D"/PROF_*/device_0/data/* >/dev/null 2>&1 && ls "$D"/PROF_*/host/data/* >/dev/null 2>&1
ok $? "PROF_<6 digits>_<ts>_<ID>/device_0/data and host/data hold files"
like "$(basename "$(ls -d "$D"/PROF_* | head -n1)")" '^PROF_[0-9]{6}_[0-9]{17}_[A-Z0-9]{16}$' "PROF_ directory name shape"
[ -f "$D/FRAMEWORK/torch.op_mark" ] && [ -f "$D/FRAMEWORK/torch.op_range" ]; ok $? "FRAMEWORK/torch.op_mark and torch.op_range"
[ -d "$D"/PROF_*/mindstudio_profiler_output ] && [ -d "$D"/PROF_*/mindstudio_profiler_log ] && [ -d "$D/logs" ]
ok $? "mindstudio_profiler_output, mindstudio_profiler_log and logs/"
A=$D/ASCEND_PROFILER_OUTPUT
for f in trace_view.json kernel_details.csv step_trace_time.csv operator_details.csv op_statistic.csv \
         api_statistic.csv communication.json communication_matrix.json npu_module_mem.csv analyse.done; do
    [ -f "$A/$f" ]; ok $? "level1 with cpu writes $f"
done
[ ! -e "$A/data_preprocess.csv" ] && [ ! -e "$A/operator_memory.csv" ]; ok $? "no level2 / memory files at level1 without memory"
is "$(col Step $A/step_trace_time.csv)" "1 2 " "steps recorded: ProfilerStep 1 and 2 (iterations 2 and 3)"
is "$(head -n1 $A/step_trace_time.csv | tr -d '\r')" \
   "Step,Computing,Communication(Not Overlapped),Overlapped,Communication,Free,Stage,Bubble,Communication(Not Overlapped and Exclude Receive),Preparing" \
   "step_trace_time.csv header"
like "$(head -n1 $A/kernel_details.csv)" '^Step Id,Model ID,.*Name,Type,.*Accelerator Core,Start Time\(us\),Duration\(us\),Wait Time\(us\),Block Dim,Mix Block Dim,.*aic_mac_ratio' \
     "kernel_details.csv: Step Id + renamed CANN 8.0 op_summary columns (Block Dim) + PipeUtilization metrics"
is "$(col 'Step Id' $A/kernel_details.csv | tr ' ' '\n' | sort -u | tr '\n' ' ' | sed 's/^ //')" "1 2 " "kernel_details Step Id values"
like "$(sed -n '/"distributed_args"/,/}/p' "$D/profiler_metadata.json")" '"world_size": 2' \
     "distributed_args metadata"

# --- level0, no cpu: fewer files; through python -m torch.distributed.launch -----------------------
# (the llama2 example: the launcher's own checks below read this run too)
P=$TMP/l0
out=$(llm_example examples/mcore/llama2/pretrain_llama2_7b_ptd.sh --profile --profile-step-start 3 --profile-step-end 4 \
      --profile-level level0 --profile-save-path $P)
launch_out=$out
A=$(ls -d $P/*_ascend_pt/ASCEND_PROFILER_OUTPUT 2>/dev/null | head -n1)
[ -n "$A" ] && [ -f "$A/kernel_details.csv" ] && [ -f "$A/step_trace_time.csv" ]; ok $? "level0 writes kernel_details and step_trace_time"
[ -n "$A" ] && [ ! -e "$A/op_statistic.csv" ] && [ ! -e "$A/operator_details.csv" ] && [ ! -e "$A/communication.json" ]
ok $? "level0 without cpu: no op_statistic.csv, operator_details.csv, communication.json"
is "$(head -n1 "$A/kernel_details.csv" | tr -d '\r')" "Step Id,Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait Time(us),Block Dim" \
   "level0 kernel_details base columns (as real level0 data: no shape columns)"
is "$(col Step "$A/step_trace_time.csv")" "2 " "start 3 end 4: only iteration 3 (Step 2)"
unlike "$out" "Profiler won't be using warmup" "start 3 > iteration+1: warmup 1, no warmup warning"

# --- level2 + memory + shapes + stack, every rank (read again under "ranks") ---------------------
P=$TMP/l2
llm_example $Q --profile --profile-step-start 2 --profile-step-end 3 --profile-level level2 --profile-with-cpu \
    --profile-with-memory --profile-record-shapes --profile-with-stack --profile-ranks -1 --profile-save-path $P >/dev/null
A=$(ls -d $P/*_ascend_pt/ASCEND_PROFILER_OUTPUT 2>/dev/null | head -n1)
for f in data_preprocess.csv operator_memory.csv memory_record.csv op_statistic.csv; do
    [ -f "$A/$f" ]; ok $? "level2 with memory writes $f"
done
like "$(head -n1 "$A/operator_memory.csv")" '^Name,Size\(KB\),Allocation Time\(us\),Release Time\(us\)' "operator_memory.csv header"

# --- data simplification, on rank 1 (read again under "ranks") ----------------------------------
P=$TMP/simp
llm_example $Q --profile --profile-step-start 2 --profile-step-end 3 --profile-level level1 --profile-data-simplification \
    --profile-ranks 1 --profile-save-path $P >/dev/null
D=$(ls -d $P/*_ascend_pt | head -n1)
[ -f "$D/ASCEND_PROFILER_OUTPUT/kernel_details.csv" ] && [ ! -e "$D"/PROF_*/mindstudio_profiler_output ] && \
    [ -d "$D"/PROF_*/device_1/data ]
ok $? "data simplification removes mindstudio_profiler_output, keeps device data"

# --- db export, ranks "-1 0" (read again under "ranks") ---------------------------------------------
P=$TMP/db
llm_example $Q --profile --profile-step-start 2 --profile-step-end 4 --profile-level level1 --profile-export-type db \
    --profile-ranks -1 0 --profile-save-path $P >/dev/null
A=$(ls -d $P/*_ascend_pt/ASCEND_PROFILER_OUTPUT | head -n1)
[ -f "$A/ascend_pytorch_profiler_0.db" ] && [ -f "$A/analysis.db" ] && [ ! -e "$A/kernel_details.csv" ]
ok $? "db export: ascend_pytorch_profiler_0.db + analysis.db instead of CSVs"
is "$(python3 -c "import sqlite3; print(sqlite3.connect('$A/ascend_pytorch_profiler_0.db').execute('select count(*) from STEP_TIME').fetchone()[0])")" 2 \
   "STEP_TIME table holds the 2 recorded steps"

# --- ranks (the runs above) ------------------------------------------------------------------
P=$TMP/l2
is "$(count_dirs $P)" 2 "--profile-ranks -1: every rank writes a directory"
ls $P/*/profiler_info_1.json >/dev/null 2>&1; ok $? "rank 1 directory has profiler_info_1.json"
P=$TMP/db
is "$(count_dirs $P)" 1 "--profile-ranks -1 0 is not [-1]: rank 0 only"
P=$TMP/simp
ls $P/*/profiler_info_1.json >/dev/null 2>&1 && [ "$(count_dirs $P)" = 1 ]; ok $? "--profile-ranks 1: rank 1 only"

# --- windows outside the run -------------------------------------------------------------------
P=$TMP/past
# skip_first = start-2 = 10: the final prof.step() enters WARMUP, stop() deletes the directory
out=$(llm_example $Q --profile --profile-step-start 12 --profile-step-end 14 --profile-save-path $P)
is "$(count_dirs $P)" 0 "window starting after --train-iters: no directory left"
like "$out" 'Incorrect schedule: Stop profiler while current state is WARMUP which will result in empty parsed data\.' \
     "warns about stopping in WARMUP"
P=$TMP/far
out=$(llm_example $Q --profile --profile-step-start 50 --profile-step-end 52 --profile-save-path $P)
[ ! -e "$P" ]; ok $? "window far after the run: nothing created at all"
P=$TMP/partial
out=$(llm_example $Q --profile --profile-step-start 9 --profile-step-end 14 --profile-save-path $P)
like "$out" 'Incorrect schedule: Stop profiler while current state is RECORD which may result in incomplete parsed data\.' \
     "end after the last iteration: RECORD warning"
# like torch_npu: the last prof.step() opens ProfilerStep#10, closed (empty) by stop()
is "$(col Step $P/*_ascend_pt/ASCEND_PROFILER_OUTPUT/step_trace_time.csv)" "8 9 10 " \
   "partial window keeps iterations 9 and 10 (+ the open step closed by stop)"

# --- bad values ----------------------------------------------------------------------------------
out=$(llm_example $Q --profile --profile-step-start 0 --profile-step-end 2 --profile-save-path $TMP/zero)
like_exc "$out" 'AssertionError' 'profile_step_start should be greater than 0 but now it is 0' "start 0 is rejected"
unlike "$out" 'iteration +1/' "start 0: training does not start"
out=$(llm_example $Q --profile-step-start 0)
like_exc "$out" 'AssertionError' 'profile_step_start should be greater than 0 but now it is 0' "the check runs even without --profile"
P=$TMP/one
out=$(llm_example $Q --profile --profile-step-start 1 --profile-step-end 2 --profile-save-path $P)
like "$out" 'Invalid parameter skip_first, reset it to 0\.' "start 1: skip_first warning"
like "$out" "Profiler won't be using warmup, this can skew profiler results" "start 1: warmup warning"
is "$(col Step $P/*_ascend_pt/ASCEND_PROFILER_OUTPUT/step_trace_time.csv)" "0 " "start 1 captures iteration 1 (Step 0)"
out=$(llm_example $Q --profile --profile-step-start 5 --profile-step-end 5 --profile-save-path $TMP/eq)
like "$out" 'Invalid parameter active, reset it to 1\.' "end == start: active reset to 1"

# --- resume from a checkpoint with an iteration ----------------------------------------------------
mkdir -p $TMP/ckpt/iter_0000004
echo 4 > $TMP/ckpt/latest_checkpointed_iteration.txt
out=$(llm_example $Q --profile --profile-step-start 3 --profile-step-end 5 --load $TMP/ckpt --profile-save-path $TMP/res)
like "$out" 'When loading checkpoint, iteration will be loaded from checkpoint, profile_step_start should be greater than 4 but now it is 3\.' \
     "resume: start before the checkpoint iteration is rejected"
P=$TMP/res2
out=$(llm_example $Q --profile --profile-step-start 6 --profile-step-end 8 --load $TMP/ckpt --profile-save-path $P)
like "$out" 'iteration +5/ +10' "resume continues at iteration 5"
unlike "$out" 'iteration +4/ +10' "resume does not redo iteration 4"
is "$(col Step $P/*_ascend_pt/ASCEND_PROFILER_OUTPUT/step_trace_time.csv)" "1 2 " \
   "resume: iterations 6,7 are ProfilerStep 1,2 (counted from this launch)"

# --- launchers of the other examples ---------------------------------------------------------------
# the llama2 example ran at level0 above; msrun's runs at level_none here
P=$TMP/l0
out=$launch_out
like "$out" 'FutureWarning: The module torch.distributed.launch is deprecated' "python -m torch.distributed.launch warns"
like "$out" 'iteration +10/ +10' "launch example trains"
is "$(count_dirs $P)" 1 "launch example profiles rank 0"
P=$TMP/none
out=$(llm_example examples/mindspore/qwen3/pretrain_qwen3_8b_4K_ms.sh --profile --profile-step-start 2 --profile-step-end 3 \
      --profile-level level_none --profile-with-cpu --profile-save-path $P)
like "$out" 'Start worker process with rank id:1, log file:msrun_log/worker_1.log' "msrun starts worker 1 with its log"
like "$out" 'iteration +10/ +10' "msrun --join=True tails the worker logs"
[ -f "$LLM_DIR/msrun_log/worker_0.log" ] && [ -f "$LLM_DIR/msrun_log/scheduler.log" ]; ok $? "msrun_log/worker_0.log and scheduler.log"
is "$(count_dirs $P)" 1 "msrun example profiles rank 0"

# --- two nodes on one machine --------------------------------------------------------------------
P=$TMP/2n
port=$MASTER_PORT
out0=$(MASTER_PORT=$port NODE_RANK=0 llm_example examples/mcore/qwen3/pretrain_qwen3_8b_4K_2node_ptd.sh \
       --profile --profile-step-start 2 --profile-step-end 3 --profile-ranks 0 3 --profile-save-path $P)
out1=$(MASTER_PORT=$port NODE_RANK=1 llm_example examples/mcore/qwen3/pretrain_qwen3_8b_4K_2node_ptd.sh \
       --profile --profile-step-start 2 --profile-step-end 3 --profile-ranks 0 3 --profile-save-path $P)
like "$out1" 'iteration +10/ +10' "node 1 runs the last rank, which prints the iterations"
unlike "$out0" 'iteration +1/' "node 0 prints no iteration line (Megatron logs on the last rank)"
ls $P/*/profiler_info_0.json $P/*/profiler_info_3.json >/dev/null 2>&1 && [ "$(count_dirs $P)" = 2 ]
ok $? "global ranks 0 (node 0) and 3 (node 1) profiled"

# --- level_none (the msrun run above) ----------------------------------------------------------------
P=$TMP/none
A=$(ls -d $P/*_ascend_pt/ASCEND_PROFILER_OUTPUT | head -n1)
[ -f "$A/trace_view.json" ] && [ -f "$A/operator_details.csv" ] && [ ! -e "$A/kernel_details.csv" ] && \
    [ ! -e "$A/step_trace_time.csv" ] && [ ! -e "$(dirname "$A")"/PROF_*/mindstudio_profiler_output ]
ok $? "level_none: trace_view and operator_details only, no CANN parsing"

# --- entries that are not training ----------------------------------------------------------------
sed "s|--output-prefix ./dataset/enwiki|--output-prefix $TMP/conv/enwiki|" "$LLM_DIR/examples/mcore/qwen3/data_convert_qwen3_pretrain.sh" > $TMP/conv.sh
out=$(cd "$LLM_DIR" && bash $TMP/conv.sh 2>&1)
cmp -s $TMP/conv/enwiki_text_document.idx "$LLM_DIR/dataset/enwiki_text_document.idx" && \
    cmp -s $TMP/conv/enwiki_text_document.bin "$LLM_DIR/dataset/enwiki_text_document.bin"
ok $? "data conversion script reproduces the shipped dataset/enwiki_text_document.{bin,idx}"
unlike "$out" 'profiler|No such file' "data conversion: no profiler, set_env.sh found"
out=$(cd "$LLM_DIR" && torchrun --nproc_per_node 2 --master_port $MASTER_PORT inference.py --task chat --load ./model_weights/qwen3-8b-mcore 2>&1)
like "$out" 'MindSpeed-LLM >> ' "inference.py runs (not a training entry)"
P=$TMP/post
out=$(cd "$LLM_DIR" && torchrun --nproc_per_node 2 --master_port $MASTER_PORT posttrain_gpt.py --train-iters 4 --profile \
      --profile-step-start 2 --profile-step-end 3 --profile-save-path $P 2>&1)
like "$out" 'iteration +4/ +4' "posttrain_gpt.py trains"
is "$(count_dirs $P)" 1 "posttrain_gpt.py honours the profile flags"

# --- a plain `python pretrain_gpt.py` (no launcher, no RANK): unsuffixed names --------------------------
P=$TMP/single
out=$(cd "$LLM_DIR" && python3 pretrain_gpt.py --train-iters 3 --profile --profile-step-start 2 --profile-step-end 3 \
      --profile-export-type db --profile-save-path $P 2>&1)
like "$out" 'iteration +3/ +3' "single process run: rank 0 of 1 logs the iterations"
[ -f $P/*_ascend_pt/profiler_info.json ] && [ -f $P/*_ascend_pt/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler.db ]
ok $? "no RANK: profiler_info.json and ascend_pytorch_profiler.db"

done_testing
