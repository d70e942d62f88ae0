#!/usr/bin/env bash
# Each option's effect on the command, and the refusal (exit 64, before
# anything runs) of every invalid value, naming the option and the values
# it accepts.
. "$(dirname "$0")/lib.sh"

make_recorder torchrun
export PATH="$RBIN:$PATH"

# flags OPTIONS...: the flags a dry run appends with OPTIONS.
flags() {
	"$MSPROF" -n "$@" torchrun pretrain_gpt.py 2>/dev/null |
	    sed -n 's/^torchrun pretrain_gpt.py //p'
}
D="--profile-save-path ./profiling_output"

is "$(flags)" "$DEFAULT_FLAGS" "defaults"
is "$(flags --level level2)" "--profile --profile-step-start 2 --profile-step-end 4 --profile-ranks 0 --profile-level level2 --profile-with-cpu $D" "--level"
is "$(flags -l level_none)" "--profile --profile-step-start 2 --profile-step-end 4 --profile-ranks 0 --profile-level level_none --profile-with-cpu $D" "-l level_none"
is "$(flags --steps 5:7)" "--profile --profile-step-start 5 --profile-step-end 7 --profile-ranks 0 --profile-level level1 --profile-with-cpu $D" "--steps"
is "$(flags -s 5:6)" "--profile --profile-step-start 5 --profile-step-end 6 --profile-ranks 0 --profile-level level1 --profile-with-cpu $D" "-s"
is "$(flags --step-start 7)" "--profile --profile-step-start 7 --profile-step-end 9 --profile-ranks 0 --profile-level level1 --profile-with-cpu $D" "--step-start alone: two steps"
is "$(flags --step-start 3 --step-end 4)" "--profile --profile-step-start 3 --profile-step-end 4 --profile-ranks 0 --profile-level level1 --profile-with-cpu $D" "--step-start and --step-end"
is "$(flags --ranks 0,1,2)" "--profile --profile-step-start 2 --profile-step-end 4 --profile-ranks 0 1 2 --profile-level level1 --profile-with-cpu $D" "--ranks list: several values"
is "$(flags -r all)" "--profile --profile-step-start 2 --profile-step-end 4 --profile-ranks -1 --profile-level level1 --profile-with-cpu $D" "--ranks all is -1"
like "$("$MSPROF" -n -q -r all torchrun pretrain_gpt.py 2>&1 >/dev/null)" "warning: --ranks all profiles every rank" \
    "-q keeps the --ranks all warning (it prints errors and warnings)"
is "$(flags --mode dynamic --dynamic-dir ./dyn_dir-1/x.y~)" "$DEFAULT_FLAGS" "--dynamic-dir with letters, digits and _./~- is taken"
is "$(flags --with memory,stack,shapes)" "--profile --profile-step-start 2 --profile-step-end 4 --profile-ranks 0 --profile-level level1 --profile-with-cpu --profile-with-memory --profile-with-stack --profile-record-shapes $D" "--with"
is "$(flags --no-cpu)" "--profile --profile-step-start 2 --profile-step-end 4 --profile-ranks 0 --profile-level level1 $D" "--no-cpu"
is "$(flags -w stack --no-cpu)" "--profile --profile-step-start 2 --profile-step-end 4 --profile-ranks 0 --profile-level level1 --profile-with-stack $D" "-w stack --no-cpu"
is "$(flags --export-type db)" "--profile --profile-step-start 2 --profile-step-end 4 --profile-ranks 0 --profile-level level1 --profile-with-cpu --profile-export-type db $D" "--export-type db"
is "$(flags --export-type text)" "$DEFAULT_FLAGS" "--export-type text is the default, not repeated"
is "$(flags --data-simplification)" "--profile --profile-step-start 2 --profile-step-end 4 --profile-ranks 0 --profile-level level1 --profile-with-cpu --profile-data-simplification $D" "--data-simplification"
is "$(flags -o /data/prof)" "--profile --profile-step-start 2 --profile-step-end 4 --profile-ranks 0 --profile-level level1 --profile-with-cpu --profile-save-path /data/prof" "--output"
is "$(flags --steps 2:8 --force)" "--profile --profile-step-start 2 --profile-step-end 8 --profile-ranks 0 --profile-level level1 --profile-with-cpu $D" "--force allows a long window"
is "$(flags --train-iters 20)" "--train-iters 20 $DEFAULT_FLAGS" "--train-iters N is added"

# refused VALUE-REGEX OPTIONS...: exit 64, message matching, nothing run.
refused() {
	local want=$1
	shift
	reset_run
	msprof -y "$@" torchrun pretrain_gpt.py
	is "$rc" 64 "refused: $*"
	like "$err" "$want" "message for: $*"
}
refused "--steps '0:4': the start step must be 1 or more" --steps 0:4
refused "--steps '4:4': the end step must be greater" --steps 4:4
refused "--steps '5:3': the end step must be greater" -s 5:3
refused "--steps 'x': give START:END" --steps x
refused "--step-start '0': give a whole number of 1 or more" --step-start 0
refused "the end step 3 \\(from --step-end\\) must be greater than the start step 3 \\(from --step-start\\)" --step-start 3 --step-end 3
refused "the end step 4 \\(from --steps\\) must be greater than the start step 6 \\(from --step-start\\)" -s 2:4 --step-start 6
refused "--dynamic-dir 'a b': torch_npu's dynamic profiler accepts only letters" --mode dynamic --dynamic-dir "a b"
refused "--output 'my prof': torch_npu's dynamic profiler accepts only" --mode dynamic -o "my prof"
refused "--level 'level3': not accepted; use one of level_none, level0, level1, level2" --level level3
refused "--ranks 'x': 'x' is not a rank; give 0, 0,1,2 or all" --ranks x
refused "--ranks: more than 4096 ranks; give all, or fewer ranks" --ranks "$(seq -s, 0 4096)"
refused "--ranks '0,-1': '-1' is not a rank" --ranks 0,-1
refused "--with 'gpu': unknown item 'gpu'; accepted: cpu, memory, stack, shapes" --with gpu
refused "--export-type 'csv': not accepted; use one of text, db" --export-type csv
refused "steps 2:10 collect 8 steps; .*Add --force" --steps 2:10
refused "level_none cannot be combined with --export-type db" -l level_none --export-type db
refused "unknown option '--levle'" --levle level1
msprof -y --level
is "$rc" 64 "refused: --level without a value"
like "$err" "option '--level' needs a value" "message for: --level without a value"
is "$(nrecorded)" 0 "no refused run started the command"
ok "$([ ! -e profiling_output ]; echo $?)" "no refused run created the output directory"

: > train.sh
msprof -n --step-end 2 bash train.sh
is "$rc" 64 "--step-end alone, not after the default start: refused"
like "$err" "--step-end 2 is not after the start step 2" "--step-end alone: the message"
# every subcommand that --help lists
for sub in $("$MSPROF" --help | sed -n 's/^       msprof-exec \([a-z][a-z-]*\) .*/\1/p'); do
	"$MSPROF" $sub --help > help.out 2>&1
	is "$?:$(grep -c "usage: msprof-exec $sub" help.out)" "0:1" "$sub --help: usage on stdout, exit 0"
done
"$MSPROF" --help > help.out
like "$(<help.out)" "msprof-exec trigger \[--start N \| --now\]" "--help names the subcommands"

msprof -y
is "$rc" 64 "no command: exit 64"
like "$err" "profiling needs a runnable training script or command" "no command: the message"
like "$err" "usage: msprof-exec" "no command: the usage line"

msprof torchrun pretrain_gpt.py < /dev/null
is "$rc" 64 "no terminal and no --yes: refused"
like "$err" "add --yes" "no terminal: says how to go on"
# Settings an engine has no field for are said, not dropped in silence.
like "$("$MSPROF" -n --aic-metrics ArithmeticUtilization torchrun pretrain_gpt.py)" \
    "note: MindSpeed-LLM sets the AI Core metrics itself \(PipeUtilization\): --aic-metrics ArithmeticUtilization is not applied" \
    "LLM --aic-metrics: a note"
like "$("$MSPROF" -n --no-analyse torchrun pretrain_gpt.py)" \
    "note: MindSpeed-LLM always parses online: --no-analyse is not applied" "LLM --no-analyse: a note"
echo '{"profile": {"enable": false}}' > tools.json
like "$("$MSPROF" -n --export-type db torchrun pretrain_sora.py --mm-tool tools.json)" \
    "note: MindSpeed-MM has no export type setting: the data is exported as text; run 'msprof-exec analyse --export-type db'" \
    "MM --export-type db: a note"
unlike "$("$MSPROF" -n torchrun pretrain_sora.py --mm-tool tools.json)" "note:" "MM defaults: no note"
unlike "$("$MSPROF" -n --mode dynamic --export-type db torchrun pretrain_sora.py --mm-tool tools.json)" "note:" \
    "MM dynamic --export-type db: applied (experimental_config), no note"
like "$("$MSPROF" -n --mode dynamic torchrun pretrain_gpt.py)" \
    "note: MindSpeed-LLM profiles a step window only: --mode dynamic is not applied" "LLM --mode dynamic: a note"
# One prefix on every message: a subcommand's option errors too.
for c in report compare trigger analyse; do
    like "$("$MSPROF" $c --frob 2>&1 | head -n 1)" "^msprof-exec $c: unrecognized option '--frob'" \
        "$c --frob: the message starts with msprof-exec $c:"
done
done_testing
