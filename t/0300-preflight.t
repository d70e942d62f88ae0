#!/usr/bin/env bash
# Preflight: an NPU (npu-smi info), the CANN environment (loaded, or a
# set_env.sh found or given), torch_npu with the job's Python.  Each
# failure stops msprof-exec before anything runs, with the reason.
. "$(dirname "$0")/lib.sh"

make_recorder torchrun
unset ASCEND_TOOLKIT_HOME ASCEND_HOME_PATH
# Stand-ins for the machine: npu-smi and the job's python3.
fake() {	# fake NAME STATUS [STDERR-TEXT]
	printf '#!/bin/sh\necho "%s" >&2\nexit %s\n' "${3:-}" "$2" > "$RBIN/$1"
	chmod +x "$RBIN/$1"
}
cat > set_env.sh <<'EOF2'
export ASCEND_TOOLKIT_HOME=/opt/ascend/latest
export ASCEND_HOME_PATH=$ASCEND_TOOLKIT_HOME
export LD_LIBRARY_PATH=/opt/ascend/latest/lib64:${LD_LIBRARY_PATH:-}
EOF2
export PATH="$RBIN:$PATH"
run() { "$MSPROF" -y "$@" torchrun pretrain_gpt.py > "$T/out" 2> "$T/err"; rc=$?; err=$(<"$T/err"); }

fake npu-smi 0
fake python3 0
run --cann-env set_env.sh
is "$rc" 0 "all checks pass: the command runs"
is "$(nrecorded)" 1 "all checks pass: the launcher ran"
has_line "$(rec_env "$(recorded)")" "ASCEND_TOOLKIT_HOME=/opt/ascend/latest" \
    "--cann-env: the command runs with set_env.sh loaded"
like "$(rec_env "$(recorded)")" "LD_LIBRARY_PATH=/opt/ascend/latest/lib64" \
    "--cann-env: set_env.sh's additions reach the command"

reset_run
rm "$RBIN/npu-smi"
run --skip-checks --cann-env set_env.sh
is "$rc" 0 "--skip-checks: no npu-smi, yet the command runs"
has_line "$(rec_env "$(recorded)")" "ASCEND_TOOLKIT_HOME=/opt/ascend/latest" \
    "--skip-checks --cann-env: set_env.sh is still loaded"
reset_run
run --skip-checks --cann-env missing.sh
is "$rc" 66 "--skip-checks --cann-env missing.sh: exit 66, before anything runs"
is "$(nrecorded)" 0 "--skip-checks --cann-env missing.sh: the launcher did not run"

reset_run
run --cann-env set_env.sh
is "$rc" 69 "no npu-smi: exit 69"
like "$err" "No NPU detected in the current environment. Please run in an environment with Ascend NPU." \
    "no npu-smi: the message"
is "$(nrecorded)" 0 "no npu-smi: nothing ran"

fake npu-smi 1 "dcmi module initialize failed. ret is -8005"
run --cann-env set_env.sh
is "$rc" 69 "npu-smi info fails: exit 69"
like "$err" "No NPU detected" "npu-smi info fails: the message"

fake npu-smi 0
run
is "$rc" 69 "CANN not loaded, no set_env.sh: exit 69"
like "$err" "/usr/local/Ascend/cann/set_env.sh, /usr/local/Ascend/ascend-toolkit/set_env.sh" \
    "CANN not loaded: names where it looked"
like "$err" "--cann-env" "CANN not loaded: says how to fix"
# -n runs nothing: the plan is shown, the checks' reason is a warning and
# the status 0 (a login node without CANN still gets its plan).
"$MSPROF" -n torchrun pretrain_gpt.py > "$T/out" 2> "$T/err"
is "$?" 0 "-n, CANN not loaded: 0, nothing runs"
like "$(<"$T/err")" "the CANN environment is not loaded" "... with -y's reason"
like "$(<"$T/err")" "dry run: a real run would stop at the check above \(exit 69\)" \
    "... and says a real run would stop there"
"$MSPROF" -n --skip-checks torchrun pretrain_gpt.py > /dev/null 2>&1
is "$?" 0 "-n --skip-checks: no checks, 0"

run --cann-env missing.sh
is "$rc" 66 "--cann-env missing.sh: exit 66"
like "$err" "missing.sh" "--cann-env missing.sh: names the file"

ASCEND_TOOLKIT_HOME=/already "$MSPROF" -y torchrun pretrain_gpt.py > /dev/null 2>&1
is "$?" 0 "an already loaded CANN environment is used as it is"

fake python3 1 "ModuleNotFoundError: No module named 'torch_npu'"
run --cann-env set_env.sh
is "$rc" 69 "torch_npu missing: exit 69"
like "$err" "python3 cannot import torch and torch_npu \(ModuleNotFoundError: No module named 'torch_npu'\)" \
    "torch_npu missing: the reason from Python"

fake python3 3
run --cann-env set_env.sh
is "$rc" 69 "torch.npu.is_available() False: exit 69"
like "$err" "torch.npu.is_available\(\) is False" "is_available False: the message"

# The job's Python is the interpreter of torchrun's #! line.
fake python3 0
fake python3.9 1 "ImportError: torch_npu built for another torch"
printf '#!%s\n' "$RBIN/python3.9" > "$RBIN/torchrun2"
chmod +x "$RBIN/torchrun2"
"$MSPROF" -y --cann-env set_env.sh torchrun2 pretrain_gpt.py > /dev/null 2> "$T/err"
like "$(<"$T/err")" "python3.9 cannot import torch and torch_npu" \
    "the check uses the launcher's own Python"

# Every refusal says how to run without the checks.
fake python3 1 "ModuleNotFoundError: No module named 'torch_npu'"
run --cann-env set_env.sh
like "$err" "add --skip-checks" "a failed torch_npu check names --skip-checks"
run
like "$err" "add --skip-checks" "CANN not found names --skip-checks"
fake python3 0

# The usual install of a user without root: $HOME/Ascend.
reset_run
mkdir -p "$T/home/Ascend/ascend-toolkit"
cp set_env.sh "$T/home/Ascend/ascend-toolkit/set_env.sh"
HOME=$T/home run
is "$rc" 0 "\$HOME/Ascend/ascend-toolkit/set_env.sh is found and loaded"
has_line "$(rec_env "$(recorded)")" "ASCEND_TOOLKIT_HOME=/opt/ascend/latest" \
    "\$HOME/Ascend: the command runs with it loaded"
HOME=$T/nohome run
like "$err" "$T/nohome/Ascend/cann/set_env.sh" "CANN not found: \$HOME/Ascend is named"

# A script that sources its own set_env.sh (not a place msprof-exec looks
# in) runs: the CANN and torch_npu checks are left to the job.
reset_run
mkdir -p "$T/opt/cann8"
cp set_env.sh "$T/opt/cann8/set_env.sh"
cat > train.sh <<EOF2
source "$T/opt/cann8/set_env.sh"
torchrun pretrain_gpt.py
EOF2
fake python3 1 "ModuleNotFoundError: No module named 'torch_npu'"
"$MSPROF" -y bash train.sh > "$T/out" 2> "$T/err"
is "$?:$(nrecorded)" "0:1" "a script sourcing its own set_env.sh runs"
like "$(<"$T/err")" "loads its own CANN environment \(source \"$T/opt/cann8/set_env.sh\"\)" \
    "the note names the line"
has_line "$(rec_env "$(recorded)")" "ASCEND_TOOLKIT_HOME=/opt/ascend/latest" \
    "the job gets the CANN environment it loaded itself"
"$MSPROF" -q -y bash train.sh > /dev/null 2> "$T/err"
unlike "$(<"$T/err")" "loads its own" "-q: no note"

# A script that activates its own conda environment: the torch_npu check
# (with a Python that is not the job's) is left to the job.
reset_run
cat > train.sh <<'EOF2'
conda() { :; }
conda activate mindspeed
torchrun pretrain_gpt.py
EOF2
"$MSPROF" -y --cann-env set_env.sh bash train.sh > "$T/out" 2> "$T/err"
is "$?:$(nrecorded)" "0:1" "a script activating conda runs"
like "$(<"$T/err")" "activates its own Python \(conda activate mindspeed\)" \
    "the note names the line"
fake python3 0

reset_run
rm "$RBIN/npu-smi"
"$MSPROF" -y --skip-checks torchrun pretrain_gpt.py > /dev/null 2>&1
is "$?:$(nrecorded)" "0:1" "--skip-checks skips the checks"
done_testing
