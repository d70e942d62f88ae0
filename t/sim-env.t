#!/usr/bin/env bash
# Self-test of the simulation: activate, npu-smi, CANN set_env.sh, torch / torch_npu device API.
. "$(dirname "$0")/../sim/testlib.sh"
ROOT=$SIM_DIR

# --- activate ------------------------------------------------------------------------------------
out=$(env -i HOME=$HOME PATH=/usr/bin:/bin bash -c ". '$ROOT/activate'; . '$ROOT/activate'; echo \$PATH; echo \$PYTHONPATH; command -v npu-smi torchrun msrun")
like "$out" "^$ROOT/bin:/usr/bin:/bin" "bash: activate prepends sim/bin to PATH once (sourced twice)"
like "$out" "^$ROOT/python(:|\$)" "bash: activate puts sim/python on PYTHONPATH"
is "$(printf '%s\n' "$out" | tail -n 3 | tr '\n' ' ')" "$ROOT/bin/npu-smi $ROOT/bin/torchrun $ROOT/bin/msrun " "npu-smi, torchrun, msrun come from sim/bin"
out=$(cd / && env -i HOME=$HOME PATH=/usr/bin:/bin dash -c "set -- '$ROOT'; . '$ROOT/activate'; echo \$PATH; echo \$MSPROF_SIM_ROOT")
like "$out" "^$ROOT/bin:/usr/bin:/bin" "dash: activate with the directory as \$1"
out=$(cd "$ROOT/.." && env -i HOME=$HOME PATH=/usr/bin:/bin dash -c ". ./sim/activate; echo \$MSPROF_SIM_ROOT")
is "$out" "$ROOT" "dash: activate from the repository root"
out=$(cd / && env -i HOME=$HOME PATH=/usr/bin:/bin SIM_ROOT=$ROOT dash -c ". '$ROOT/activate'; echo \$PATH")
like "$out" "^$ROOT/bin:" "dash: activate with SIM_ROOT"
out=$(cd / && env -i HOME=$HOME PATH=/usr/bin:/bin dash -c ". '$ROOT/activate'" 2>&1)
like "$out" "cannot find the simulation directory" "dash without a hint: a clear error, not a broken PATH"

# --- torch / torch_npu --------------------------------------------------------------------------
out=$(python3 -c "import torch, torch_npu; print(torch.npu.is_available(), torch.npu.device_count())" 2>&1)
is "$out" "True 8" "import torch, torch_npu: torch.npu.is_available() and 8 devices"
REALPY=
for py in python3 /usr/bin/python3; do
    if env -u PYTHONPATH $py -c 'import importlib.util as u, sys; sys.exit(u.find_spec("torch") is None)' 2>/dev/null; then
        REALPY=$py; break
    fi
done
if [ -n "$REALPY" ]; then
    # one import of the real torch (2 s) for both orders: torch after torch_npu (its import
    # hook), then torch before a fresh torch_npu (the stand-in is pure Python: it imports again)
    out=$(PYTHONPATH=$ROOT/python $REALPY -c "
import sys
import torch_npu, torch
print(torch.npu.device_count())
for name in [m for m in sys.modules if m.split('.')[0] == 'torch_npu' or m == 'torch.npu']:
    del sys.modules[name]
del torch.npu
import torch_npu
print(torch.__file__.startswith('$ROOT'), torch.npu.is_available())" 2>&1)
    is "$(printf '%s\n' "$out" | sed -n 2p)" "False True" "with a real torch ($REALPY): torch_npu attaches torch.npu to it"
    is "$(printf '%s\n' "$out" | sed -n 1p)" "8" "real torch imported after torch_npu also gets torch.npu"
    out=$(env -i HOME=$HOME PATH=$(dirname "$(command -v $REALPY)"):/usr/bin:/bin bash -c ". '$ROOT/activate'; echo \$PYTHONPATH")
    unlike "$out" "python-torch" "activate does not shadow a real torch"
else
    pass "no real torch on this machine: real-torch path not checked"
fi
out=$(MSPROF_SIM_NO_NPU=1 python3 -c "import torch, torch_npu; print(torch.npu.is_available(), torch.npu.device_count())" 2>&1)
is "$out" "False 0" "MSPROF_SIM_NO_NPU=1: no device"
out=$(MSPROF_SIM_NPUS=4 ASCEND_RT_VISIBLE_DEVICES=1,3 python3 -c "import torch_npu; print(torch_npu.npu.device_count())")
is "$out" "2" "ASCEND_RT_VISIBLE_DEVICES narrows the visible cards"
out=$(MSPROF_SIM_NPUS=2 python3 -c "import torch_npu; torch_npu.npu.set_device(3)" 2>&1)
like "$out" "Invalid device ID" "set_device past the visible cards fails like torch_npu"
# one process: torch_npu, then its profiler (imported at first use), neither imports torch
out=$(python3 -c "
import sys, torch_npu
print('torch' in sys.modules)
from torch_npu.profiler import profile, schedule, tensorboard_trace_handler, ProfilerActivity, ProfilerLevel, ExportType, AiCMetrics, _ExperimentalConfig
from torch_npu.profiler import dynamic_profile
from torch_npu.profiler.profiler import analyse
print(ProfilerLevel.Level_none, ExportType.Db, AiCMetrics.ArithmeticUtilization, ProfilerActivity.NPU, 'torch' in sys.modules)" 2>&1)
is "$(printf '%s\n' "$out" | sed -n 1p)" "False" "import torch_npu does not import torch"
is "$(printf '%s\n' "$out" | sed -n 2p)" "Level_none db ACL_AICORE_ARITHMETIC_UTILIZATION ProfilerActivity.NPU False" \
   "torch_npu.profiler API names (and still no torch)"

# --- npu-smi ----------------------------------------------------------------------------------------
out=$(npu-smi info); rc=$?
ok $rc "npu-smi info succeeds"
like "$out" 'npu-smi 24\.1\.rc2 +Version: 24\.1\.rc2' "npu-smi header"
like "$out" 'NPU +Name +\| Health +\| Power\(W\) +Temp\(C\) +Hugepages-Usage\(page\)' "npu-smi column header"
is "$(printf '%s\n' "$out" | grep -c '910B3')" 8 "8 cards by default"
like "$out" 'No running processes found in NPU 7' "process table"
is "$(MSPROF_SIM_NPUS=2 npu-smi info | grep -c 'No running processes found')" 2 "MSPROF_SIM_NPUS=2: 2 cards"
out=$(MSPROF_SIM_NO_NPU=1 npu-smi info 2>&1); rc=$?
[ $rc -ne 0 ]; ok $? "no NPU: npu-smi info exits non-zero"
like "$out" 'dcmi module initialize failed\. ret is -8005' "no NPU: dcmi error text"
out=$(npu-smi bogus 2>&1); rc=$?
[ $rc -ne 0 ]; ok $? "unknown subcommand exits non-zero"
like "$out" '^Usage: npu-smi' "unknown subcommand prints usage"

# --- CANN set_env.sh -------------------------------------------------------------------------------
TK=$ROOT/ascend/ascend-toolkit/latest
for sh in bash dash; do
    out=$(env -i HOME=$HOME PATH=/usr/bin:/bin MSPROF_SIM_ROOT=$ROOT $sh -c "
        . '$ROOT/ascend/ascend-toolkit/set_env.sh'; a=\$PATH; . '$ROOT/ascend/ascend-toolkit/set_env.sh'
        [ \"\$a\" = \"\$PATH\" ] && echo idempotent
        echo ASCEND_TOOLKIT_HOME=\$ASCEND_TOOLKIT_HOME; echo ASCEND_HOME_PATH=\$ASCEND_HOME_PATH
        echo ASCEND_OPP_PATH=\$ASCEND_OPP_PATH; echo ASCEND_AICPU_PATH=\$ASCEND_AICPU_PATH; echo TOOLCHAIN_HOME=\$TOOLCHAIN_HOME
        echo LD_LIBRARY_PATH=\$LD_LIBRARY_PATH; echo PYTHONPATH=\$PYTHONPATH; echo PATH=\$PATH")
    like "$out" "ASCEND_TOOLKIT_HOME=$TK\$" "$sh: ASCEND_TOOLKIT_HOME"
    like "$out" "^ASCEND_HOME_PATH=$TK\$" "$sh: ASCEND_HOME_PATH"
    like "$out" "^ASCEND_OPP_PATH=$TK/opp\$" "$sh: ASCEND_OPP_PATH"
    like "$out" "^ASCEND_AICPU_PATH=$TK\$" "$sh: ASCEND_AICPU_PATH"
    like "$out" "^TOOLCHAIN_HOME=$TK/toolkit\$" "$sh: TOOLCHAIN_HOME"
    like "$out" "LD_LIBRARY_PATH=$TK/lib64:$TK/lib64/plugin/opskernel:$TK/lib64/plugin/nnengine:$TK/opp/built-in/op_impl/ai_core/tbe/op_tiling/lib/linux/$(uname -m)" \
         "$sh: LD_LIBRARY_PATH additions"
    like "$out" "PATH=$TK/bin:$TK/compiler/ccec_compiler/bin" "$sh: PATH additions"
    like "$out" "PYTHONPATH=$TK/python/site-packages" "$sh: PYTHONPATH additions"
    like "$out" "idempotent" "$sh: sourcing twice changes nothing"
done
out=$(env -i HOME=$HOME PATH=/usr/bin:/bin bash -c ". '$ROOT/ascend/cann/set_env.sh'; echo \$ASCEND_HOME_PATH")
is "$out" "$TK" "cann/set_env.sh (newer layout) sets the same toolkit home"
[ -d "$TK/lib64/plugin/opskernel" ] && [ -f "$TK/version.cfg" ]; ok $? "toolkit directories and version.cfg exist"

done_testing
