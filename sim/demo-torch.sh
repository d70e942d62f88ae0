#!/bin/sh
# make demo-torch: profile the bundled plain PyTorch example (a training
# loop with no MindSpeed in it, torchrun, 2 simulated NPUs) on the
# simulated Ascend machine through the torch engine (torch_npu's
# PROF_CONFIG_PATH), end to end, and show the report.  The example is
# copied to build/demo-torch first, so the repository is left as it was;
# the data stays there to look at.  Its first step takes the simulated
# 5 s a real first step takes to compile and set up (sim/README.md):
# msprof-exec arms torch_npu's config meanwhile.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
demo=$top/build/demo-torch
rm -rf "$demo"
mkdir -p "$demo"
cp -R "$top/sim/torch-examples/." "$demo/"
rm -rf "$demo/test/output" "$demo/profiling_output"	# a run in the checkout
MSPROF_SIM_TORCH=stub
SIM_ROOT=$top/sim
export MSPROF_SIM_TORCH SIM_ROOT
. "$SIM_ROOT/activate"
cd "$demo"
echo "+ cd build/demo-torch"
echo "+ msprof-exec -y -v -r all --cann-env sim/ascend/ascend-toolkit/set_env.sh bash run_torchrun.sh"
exec "$top/build/bin/msprof-exec" -y -v -r all \
    --cann-env "$SIM_ROOT/ascend/ascend-toolkit/set_env.sh" \
    bash run_torchrun.sh
