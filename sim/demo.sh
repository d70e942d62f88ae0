#!/bin/sh
# make demo: profile the bundled MindSpeed-LLM example (Qwen3-8B, MCore,
# torchrun, 2 simulated NPUs) on the simulated Ascend machine, end to end,
# and show the report.  The checkout is copied to build/demo first, so the
# repository is left as it was; the data stays there to look at.
# Both ranks are profiled and rank 1 is planted as a slow rank
# (MSPROF_SIM_SLOW_RANK, see sim/README.md), so the summary has a finding.
# MSPROF_DEMO_DIR: where to copy the checkout instead (t/sim-demo.t).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
demo=${MSPROF_DEMO_DIR:-$top/build/demo}
rm -rf "$demo"
mkdir -p "$demo"
# Symbolic links: the stand-ins find sim/lib from their real location.
cp -Rs "$top/sim/mindspeed-llm" "$demo/"
MSPROF_SIM_TORCH=stub
MSPROF_SIM_SLOW_RANK=${MSPROF_SIM_SLOW_RANK-1}
SIM_ROOT=$top/sim
export MSPROF_SIM_TORCH MSPROF_SIM_SLOW_RANK SIM_ROOT
. "$SIM_ROOT/activate"
cd "$demo/mindspeed-llm"
echo "+ cd build/demo/mindspeed-llm"
echo "+ MSPROF_SIM_SLOW_RANK=$MSPROF_SIM_SLOW_RANK msprof-exec -y -v -r all --cann-env sim/ascend/ascend-toolkit/set_env.sh bash examples/mcore/qwen3/pretrain_qwen3_8b_4K_ptd.sh"
exec "$top/build/bin/msprof-exec" -y -v -r all \
    --cann-env "$SIM_ROOT/ascend/ascend-toolkit/set_env.sh" \
    bash examples/mcore/qwen3/pretrain_qwen3_8b_4K_ptd.sh
