#!/usr/bin/env bash
# The plain PyTorch examples (sim/torch-examples) as a user runs them:
# msprof-exec's defaults and the simulation's (a first step of 5 s, as a
# real first step compiles and sets up; 25 ms a step after it), no test
# knob.  Each of torchrun, deepspeed, accelerate and the model zoo's
# per-rank loop gets its config armed before step 10 and ends with rank
# 0's steps 10 and 11 and their summary.  The four run side by side.
. "$(dirname "$0")/lib.sh"
. "$TOP/t/plain-python.sh"
own_pycache
sim_env
unset MSPROF_SIM_FIRST_STEP_MS MSPROF_SIM_DP_HOLD
i=0
for ex in run_torchrun.sh run_deepspeed.sh run_accelerate.sh test/train_full_8p.sh; do
	cp -R "$TOP/sim/torch-examples" "ex$i"
	rm -rf "ex$i/test/output" "ex$i/profiling_output"	# a run in the checkout
	(cd "ex$i" && MASTER_PORT=$(free_port) \
	    "$MSPROF" -y --skip-checks bash "$ex" > out 2> err; echo $? > rc) &
	i=$((i + 1))
done
wait
i=0
for ex in run_torchrun.sh run_deepspeed.sh run_accelerate.sh test/train_full_8p.sh; do
	is "$(< "ex$i/rc")" 0 "$ex: exit 0"
	is "$(ranks_in "ex$i/profiling_output")" 0 "$ex: rank 0 collected"
	is "$(csv_steps ex$i/profiling_output/*_ascend_pt/ASCEND_PROFILER_OUTPUT/step_trace_time.csv)" \
	    "10 11" "$ex: steps 10 and 11, the default window"
	like "$(< "ex$i/out")" "rank 0 +10-11 +11-12 +[0-9.]+" "$ex: the summary's step breakdown"
	unlike "$(< "ex$i/err")" "possible cause" "$ex: nothing reported missing"
	i=$((i + 1))
done
done_testing
