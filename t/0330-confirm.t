#!/usr/bin/env bash
# On a terminal msprof-exec shows the configuration table and waits: y
# starts, n stops, e changes an item (checked like its option).
. "$(dirname "$0")/lib.sh"

make_recorder torchrun
export PATH="$RBIN:$PATH"
printf 'NPUS_PER_NODE=2\ntorchrun --nproc_per_node $NPUS_PER_NODE pretrain_gpt.py --train-iters 10\n' > pretrain_qwen3_8b_4K_ptd.sh

# on_tty ANSWER...: run msprof-exec on a pseudo-terminal, typing each
# answer after a prompt; prints the screen, then "status N".
on_tty() {
	local a=()

	for w in "$@"; do a+=(--answer "$w"); done
	ptyrun "${a[@]}" -- "$MSPROF" --skip-checks bash pretrain_qwen3_8b_4K_ptd.sh
}

screen=$(on_tty y)
like "$screen" "Script +pretrain_qwen3_8b_4K_ptd.sh" "the table names the script"
like "$screen" "Steps +2 to 4, excluding 4" "the table shows the steps as S to E, excluding E"
like "$screen" "Level +level1" "the table shows the level"
like "$screen" "Ranks +0" "the table shows the ranks"
like "$screen" "Output directory +./profiling_output" "the table shows the output"
like "$screen" "status 0" "y: started"
is "$(nrecorded)" 1 "y: the launch ran"

reset_run
screen=$(on_tty n)
like "$screen" "not started" "n: says it did not start"
like "$screen" "status 1" "n: exit status 1"
is "$(nrecorded)" 0 "n: nothing ran"
ok "$([ ! -e profiling_output ]; echo $?)" "n: nothing was created"

reset_run
screen=$(on_tty e "level level9" e "level level2" e "steps 5:7" y)
like "$screen" "--level 'level9': not accepted; use one of level_none, level0, level1, level2" \
    "edit: a bad value is refused with the option's message"
like "$screen" "Level +level2" "edit: the table shows the new level"
like "$screen" "status 0" "edit, then y: started"
like "$(rec_argv)" "--profile-step-start 5 --profile-step-end 7 .*--profile-level level2" \
    "edit: the launch gets the edited values"

# A refused edit changes nothing: neither a value cut short (ranks 0,x)
# nor one the rules refuse afterwards (a window over 3 steps needs --force).
reset_run
screen=$(on_tty e "ranks 3,x" e "steps 2:9" y)
like "$screen" "--ranks '3,x': 'x' is not a rank" "edit: a bad rank list is refused"
like "$screen" "--force" "edit: a window over 3 steps is refused, naming --force"
like "$screen" "status 0" "refused edits, then y: started"
like "$(rec_argv)" "--profile-step-start 2 --profile-step-end 4 --profile-ranks 0 " \
    "refused edits: the launch gets the values from before them"
# A flag group refused part way (-yq: -y cannot be edited) must not leave
# getopt inside the old answer for the next edit.
reset_run
screen=$(on_tty e "no-cpu -yq" e "level level2" y)
like "$screen" "'no-cpu' cannot be changed here" "edit: a refused flag group"
like "$screen" "give the long name of an option, as on the command line without its dashes \\(level, steps" \
    "edit: the hint names the option names, not the table's labels (translated in zh_CN)"
like "$screen" "Level +level2" "edit after a refused flag group: applied"
like "$(rec_argv)" "--profile-level level2" "edit after a refused flag group: the launch gets it"
reset_run
screen=$(on_tty e "no-cpu foo" y)
like "$screen" "'no-cpu' takes no value" "edit: a value after a flag is refused, not ignored"
done_testing
