#!/usr/bin/env bash
# With the output redirected on a terminal (msprof-exec bash train.sh >
# run.log 2>&1) the table and the question are on the terminal, not in
# the file, and the answer is read there; the run's output goes to the file.
. "$(dirname "$0")/lib.sh"

make_recorder torchrun
export PATH="$RBIN:$PATH"
printf 'NPUS_PER_NODE=2\necho the-job-ran\ntorchrun --nproc_per_node $NPUS_PER_NODE pretrain_gpt.py --train-iters 10\n' > train.sh
printf '#!/bin/sh\necho "{\\"profile\\": {\\"enable\\": true}}" > /dev/null\ntorchrun pretrain_gpt.py --profile --profile-step-start 5\n' > has.sh

# redirected SCRIPT ANSWER...: msprof-exec on a pseudo-terminal with
# stdout and stderr to run.log, answering each prompt; prints the screen,
# then "status N".
redirected() {
	local script=$1 a=()

	shift
	for w in "$@"; do a+=(--answer "$w"); done
	ptyrun --log run.log "${a[@]}" -- \
	    "$MSPROF" --skip-checks bash "$script"
}

screen=$(redirected train.sh y)
like "$screen" "Steps +2 to 4, excluding 4" "the table is on the terminal"
like "$screen" "Start\? \[y\]es" "the question is on the terminal"
like "$screen" "status 0" "y on the terminal: started"
is "$(nrecorded)" 1 "the launch ran"
unlike "$(<run.log)" "Start\?" "the question is not in the redirected output"
like "$(<run.log)" "the-job-ran" "the job's output is in the redirected output"
like "$(<run.log)" "training launch\(es\) profiled" "and so is the report"

reset_run
screen=$(redirected train.sh e "level level9" e "level level2" y)
like "$screen" "--level 'level9': not accepted" "a refused edit is explained on the terminal"
like "$screen" "Level +level2" "an edit shows in the table on the terminal"
like "$(rec_argv)" "--profile-level level2" "the launch gets the edited value"

reset_run
screen=$(redirected train.sh n)
like "$screen" "not started" "n on the terminal: says so there"
is "$(nrecorded)" 0 "n: nothing ran"

reset_run
screen=$(redirected has.sh k y)
like "$screen" "Keep them \(k\)" "--existing ask: the question is on the terminal"
like "$screen" "status 0" "--existing ask answered on the terminal: started"
done_testing
