#!/usr/bin/env bash
# Advice only for what the launch uses: the MoE settings when it splits
# experts (expert parallel > 1), the context-parallel ones when context
# parallel > 1 (and the tensor-parallel ones when tensor parallel > 1).  The
# data's layout (distributed_args) says it when torch_npu wrote it; else
# the session's launch flags do.  MindSpeed-MM's wan2.1 (Megatron engine,
# --context-parallel-size 1, no expert flags, tensor parallel 1) runs
# with exposed communication planted; its profiler_metadata.json has no
# distributed_args and, removed here, no group names, so the finding
# offers the settings of every group, but only those of its layout.
. "$(dirname "$0")/lib.sh"
sim_env
cd "$T/mindspeed-mm" || exit 1

# The settings of finding $2 in a --json report $1, one line.
settings() {
	"$PY" -c 'import json, sys
for f in json.load(open(sys.argv[1]))["summary"]["findings"]:
    if f["rule"] == sys.argv[2]:
        print(" ".join(s["name"] for s in f["settings"]))' "$1" "$2"
}
# Drop parallel_group_info from every rank's profiler_metadata.json.
unname() {
	"$PY" - "$1" <<'PY'
import glob, json, os, sys
for p in glob.glob(os.path.join(sys.argv[1], "*_ascend_pt", "profiler_metadata.json")):
    m = json.load(open(p))
    m.pop("parallel_group_info", None)
    json.dump(m, open(p, "w"))
PY
}

MSPROF_SIM_EXPOSED_COMM=1 "$MSPROF" -y --skip-checks -r all \
    --cann-env "$CANN_ENV" bash examples/wan2.1/1.3b/t2v/pretrain.sh > out 2> err
is "$?" 0 "wan2.1 with exposed communication: exit 0"
like "$(<out)" 'layout: unknown \(no distributed_args' \
    "the data has no layout: the launch's flags decide"
unname npu_profiling
"$MSPROF" report --json r.json npu_profiling > r.txt 2>&1
got=$(settings r.json exposed-communication)
like "$got" '--overlap-grad-reduce' \
    "the finding offers the data-parallel overlap (the groups unnamed)"
unlike "$got" 'moe-alltoall|moe-permutation' \
    "no MoE setting: the launch splits no experts"
unlike "$got" 'use-cp-send-recv-overlap' \
    "no context-parallel setting: the launch has --context-parallel-size 1"

# The same script with context parallel 2 and experts split over 2: now
# the MoE and context-parallel settings are the launch's to try.
sed -e 's/^CP=1$/CP=2/' -e 's/--num-workers 8/--num-workers 8 --expert-model-parallel-size 2/' \
    examples/wan2.1/1.3b/t2v/pretrain.sh > moe.sh
grep -q -- '--expert-model-parallel-size 2' moe.sh && grep -q '^CP=2$' moe.sh
ok "$?" "a copy of the script with CP=2 and --expert-model-parallel-size 2"
rm -rf npu_profiling
MSPROF_SIM_EXPOSED_COMM=1 "$MSPROF" -y --skip-checks -r all \
    --cann-env "$CANN_ENV" bash moe.sh > out2 2> err2
is "$?" 0 "the copy runs: exit 0"
unname npu_profiling
"$MSPROF" report --json m.json npu_profiling > m.txt 2>&1
like "$(settings m.json exposed-communication)" 'moe-alltoall-overlap-comm.*use-cp-send-recv-overlap' \
    "its finding offers the MoE and context-parallel settings"
done_testing
