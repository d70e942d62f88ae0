#!/bin/sh
# make demo-tune: the loop closing on the simulated Ascend machine.  The
# bundled MindSpeed-LLM example that lacks some of MindSpeed's usual
# settings (Llama-2-7B, torch.distributed.launch, 2 simulated NPUs: no
# --overlap-grad-reduce, no TASK_QUEUE_ENABLE=2, unfused rotary embedding)
# runs under `msprof-exec tune`: a baseline run, then one run
# per setting its report advises, each compared with the baseline, and
# the settings that helped run together.  The simulated machine answers
# the launch's settings (MSPROF_SIM_RESPOND, see sim/README.md).  The
# checkout is copied to build/demo-tune first, so the repository is left
# as it was; every run's data stays there to look at.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
demo=$top/build/demo-tune
rm -rf "$demo"
mkdir -p "$demo"
# Symbolic links: the stand-ins find sim/lib from their real location.
cp -Rs "$top/sim/mindspeed-llm" "$demo/"
MSPROF_SIM_TORCH=stub
MSPROF_SIM_RESPOND=1
SIM_ROOT=$top/sim
export MSPROF_SIM_TORCH MSPROF_SIM_RESPOND SIM_ROOT
. "$SIM_ROOT/activate"
cd "$demo/mindspeed-llm"
mkdir -p logs
echo "+ cd build/demo-tune/mindspeed-llm"
echo "+ MSPROF_SIM_RESPOND=1 msprof-exec tune -y -r all --tries 5 -o tuned --cann-env sim/ascend/ascend-toolkit/set_env.sh bash examples/mcore/llama2/pretrain_llama2_7b_ptd.sh"
exec "$top/build/bin/msprof-exec" tune -y -r all --tries 5 -o tuned \
    --cann-env "$SIM_ROOT/ascend/ascend-toolkit/set_env.sh" \
    bash examples/mcore/llama2/pretrain_llama2_7b_ptd.sh
