#!/usr/bin/env bash
# The prefix form (msprof-exec torchrun ..., python -m ...), a .sh command,
# and --dry-run, which shows the exact command and runs nothing.
. "$(dirname "$0")/lib.sh"

make_recorder torchrun
make_py_recorder
export PATH="$RBIN:$PATH" PYTHONPATH="$PYREC"

msprof -y torchrun --nproc_per_node 2 pretrain_gpt.py --train-iters 10
is "$rc" 0 "prefix torchrun: exit status"
is "$(nrecorded)" 1 "prefix torchrun: one launch"
is "$(rec_argv)" "$RBIN/torchrun --nproc_per_node 2 pretrain_gpt.py --train-iters 10 $DEFAULT_FLAGS" \
    "prefix torchrun: flags appended"
unlike "$(rec_env "$(recorded)")" 'MSPROF_EXEC_|msprof-exec-shim' \
    "prefix torchrun: no shim in the environment"
is "$(njournal injected)" 1 "prefix torchrun: journal"

reset_run
msprof -y python3 -m torch.distributed.run --nproc_per_node 2 pretrain_gpt.py
is "$(rec_argv)" "run --nproc_per_node 2 pretrain_gpt.py $DEFAULT_FLAGS" \
    "prefix python -m torch.distributed.run"

reset_run
printf '%s\n' 'torchrun pretrain_gpt.py' > train.sh
msprof -y ./train.sh
is "$rc" 0 "a COMMAND ending in .sh runs with bash (no x bit needed)"
is "$(rec_argv)" "$RBIN/torchrun pretrain_gpt.py $DEFAULT_FLAGS" ".sh command: rewritten"

reset_run
msprof -y ./missing.sh
is "$rc" 66 "a missing script: exit 66"
like "$err" 'missing.sh: no such script' "a missing script is named"

reset_run
msprof -n torchrun --nproc_per_node 2 pretrain_gpt.py --lr 1
is "$rc" 0 "dry run: exit 0"
has_line "$out" "torchrun --nproc_per_node 2 pretrain_gpt.py --lr 1 $DEFAULT_FLAGS" \
    "dry run prints the exact rewritten command"
is "$(nrecorded)" 0 "dry run starts nothing"
ok "$([ ! -e profiling_output ]; echo $?)" "dry run creates nothing"

msprof --dry-run bash train.sh
has_line "$out" "torchrun pretrain_gpt.py $DEFAULT_FLAGS" \
    "dry run of a script prints each launch rewritten by its engine"
like "$out" "Framework and engine +MindSpeed-LLM, Megatron \(mcore\)" \
    "dry run of a script shows the table"
is "$(nrecorded)" 0 "dry run of a script starts nothing"
done_testing
