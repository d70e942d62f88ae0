#!/usr/bin/env bash
# End to end on the simulated Ascend machine: msprof-exec over each
# MindSpeed-LLM example script, checking the collected tree (ranks, steps,
# level files), the untouched script, and the two-node and real-torchrun
# cases.
. "$(dirname "$0")/lib.sh"
sim_env
# `python` (the llama2 example's python -m torch.distributed.launch) as
# python3, which t/lib.sh makes Debian's: a version manager's `python`
# shim first on PATH runs a dozen programs at each start.
PATH=$SIM_ROOT/python-alias:$PATH
cd "$T/mindspeed-llm"

QWEN=examples/mcore/qwen3/pretrain_qwen3_8b_4K_ptd.sh
before=$(md5sum "$QWEN")
"$MSPROF" -y --cann-env "$CANN_ENV" bash "$QWEN" > out 2> err
is "$?" 0 "qwen3 mcore (torchrun): exit 0 with the preflight on"
is "$(ascend_dirs profiling_output | wc -l)" 1 "qwen3: one rank directory (rank 0 of 2)"
is "$(ranks_in profiling_output)" "0" "qwen3: rank 0 profiled"
is "$(steps_in profiling_output)" "1 2" "qwen3: iterations 2 and 3 (ProfilerStep 1 and 2)"
parsed=$(parsed_in profiling_output)
like "$parsed" "op_statistic.csv" "qwen3 level1: op_statistic.csv"
like "$parsed" "communication.json" "qwen3 level1: communication.json"
unlike "$parsed" "operator_memory.csv" "qwen3: no memory files without --with memory"
like "$(cat out)" "rank 0: .*_ascend_pt" "qwen3: the report lists rank 0's data"
like "$(cat out)" "Next: open .* in MindStudio Insight" "qwen3: the next step"
is "$(md5sum "$QWEN")" "$before" "qwen3: the script is byte-identical"
like "$(cat logs/train_mcore_qwen3_8b.log)" "iteration +10/ +10" \
    "qwen3: the script's own tee log is written as usual"

rm -rf profiling_output
"$MSPROF" -y --skip-checks -l level0 -s 5:6 -r 0,1 --with memory -o prof0 bash "$QWEN" > out 2> err
is "$(ranks_in prof0)" "0 1" "level0, ranks 0,1: both ranks"
for d in prof0/*_ascend_pt; do
	is "$(csv_steps "$d/ASCEND_PROFILER_OUTPUT/step_trace_time.csv")" "4" \
	    "--steps 5:6 collects iteration 5 only ($(basename "$d"))"
done
parsed=$(ls prof0/*_ascend_pt/ASCEND_PROFILER_OUTPUT | sort -u | tr '\n' ' ')
unlike "$parsed" "op_statistic.csv" "level0: no op_statistic.csv"
like "$parsed" "operator_memory.csv" "--with memory: operator_memory.csv"

# level2 and the db export, through the llama2 example
rm -rf profiling_output
"$MSPROF" -y --skip-checks -l level2 --export-type db bash examples/mcore/llama2/pretrain_llama2_7b_ptd.sh > out 2> err
rc=$?
like "$(parsed_in profiling_output)" "ascend_pytorch_profiler_0.db" "--export-type db: the .db file"
unlike "$(parsed_in profiling_output)" "kernel_details.csv" "--export-type db: no text files"
is "$rc" 0 "llama2 (python -m torch.distributed.launch): exit 0"
is "$(ranks_in profiling_output)" "0" "llama2: rank 0 profiled"
like "$(cat err)" "FutureWarning: The module torch.distributed.launch is deprecated" \
    "llama2: the launcher's own warning passes through"

rm -rf profiling_output
"$MSPROF" -y --skip-checks bash examples/mindspore/qwen3/pretrain_qwen3_8b_4K_ms.sh > out 2> err
is "$?" 0 "msrun script: exit 0"
is "$(ranks_in profiling_output)" "0" "msrun: rank 0 profiled"

rm -rf profiling_output
FSDP=examples/fsdp2/qwen3/pretrain_qwen3_8b_4k_fsdp2.sh
yaml_sum=$(md5sum examples/fsdp2/qwen3/pretrain_qwen3_8b_4k_fsdp2.yaml)
"$MSPROF" -y --skip-checks bash "$FSDP" > out 2> err
is "$?" 0 "LLM FSDP2: exit 0"
is "$(ranks_in profiling_output)" "0" "LLM FSDP2: rank 0 profiled"
like "$(journal)" '"--training.profile","true","--training.profile_step_start","2"' \
    "LLM FSDP2: --training.profile* appended"
is "$(md5sum examples/fsdp2/qwen3/pretrain_qwen3_8b_4k_fsdp2.yaml)" "$yaml_sum" \
    "LLM FSDP2: the YAML is byte-identical"

rm -rf profiling_output
TWO=examples/mcore/qwen3/pretrain_qwen3_8b_4K_2node_ptd.sh
NODE_RANK=1 "$MSPROF" -y --skip-checks bash "$TWO" > out 2> err
is "$?" 0 "two nodes, node 1: exit 0"
is "$(ascend_dirs profiling_output | wc -l)" 0 "node 1: no data (rank 0 is on node 0)"
like "$(cat out)" "no profiled rank runs on this node \(it holds ranks 2 to 3\): no data is expected here" \
    "node 1: reports that no data is expected here"
unlike "$(cat err)" "possible cause" "node 1: no error about missing data"
NODE_RANK=0 "$MSPROF" -y --skip-checks bash "$TWO" > out 2> err
is "$(ranks_in profiling_output)" "0" "two nodes, node 0: rank 0 profiled"

# Debian's real torchrun, and real torch in its workers (their ranks meet
# in a gloo group).
if have_real_torch; then
	rm -rf profiling_output
	(real_torch; exec "$MSPROF" -y --skip-checks bash "$QWEN" > out 2> err)
	is "$?" 0 "real torchrun: exit 0"
	like "$(cat err)" "^WARNING:torch\.distributed\.run:" \
	    "real torchrun: torch's own launcher ran (its log format)"
	is "$(ranks_in profiling_output)" "0" "real torchrun: rank 0 profiled"
	is "$(steps_in profiling_output)" "1 2" "real torchrun: iterations 2 and 3"
else
	skip "Debian's python3-torch is not installed (real torchrun)"
	skip "real torchrun"
	skip "real torchrun"
	skip "real torchrun"
fi
done_testing
