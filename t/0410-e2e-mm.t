#!/usr/bin/env bash
# End to end on the simulated machine: the MindSpeed-MM engines (tools.json
# through --mm-tool, a YAML with MM_TOOL_PATH, the FSDP2 engine's
# tools.profile), dynamic profiling with msprof-exec trigger, the offline
# parse; the user's config files stay byte-identical.
. "$(dirname "$0")/lib.sh"
sim_env
cd "$T/mindspeed-mm"
sums() { md5sum mindspeed_mm/tools/tools.json examples/*/*.yaml examples/wan2.1/1.3b/t2v/*.json; }
orig=$(sums)
# json_get FILE EXPR: a value from a JSON file, by a Python expression on d.
json_get() { $PY -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }

WAN=examples/wan2.1/1.3b/t2v/pretrain.sh
# Without --train-iters the script's own 20 iterations stay: MindSpeed-MM's
# default of 100 only shortens a run.
"$MSPROF" -y --cann-env "$CANN_ENV" bash "$WAN" > out 2> err
rc=$?
is "$rc" 0 "wan2.1 (Megatron engine, --mm-tool): exit 0"
is "$(ranks_in npu_profiling)" "0" "wan2.1: rank 0 profiled under ./npu_profiling"
is "$(steps_in npu_profiling)" "10 11" "wan2.1: MM steps 10 and 11 (0-based)"
copy=$(ls npu_profiling/msprof-exec_*/*_tools.json)
is "$(json_get "$copy" 'd["profile"]["enable"], d["profile"]["static_param"]["start_step"], d["profile"]["static_param"]["end_step"], d["profile"]["ranks"], d["profile"]["static_param"]["save_path"]')" \
    "True 10 12 [0] ./npu_profiling" "wan2.1: the tools.json copy has the plan's profile"
is "$(json_get "$copy" 'd["memory_profile"]["max_entries"], d["memory_profile"]["stacks"], sorted(d)')" \
    "None all ['memory_profile', 'profile', 'sorafeature']" \
    "wan2.1: every other section kept, with its value and type"
like "$(journal npu_profiling)" "\"--mm-tool\",\"[^\"]*_tools.json\"" "wan2.1: --mm-tool points at the copy"
is "$rc" 0 "wan2.1, the default iterations: exit 0"
journal npu_profiling > j.jsonl
is "$($PY -c 'import json,sys; a=json.loads(open(sys.argv[1]).readline())["new_argv"]; print(a[a.index("--train-iters") + 1])' j.jsonl)" \
    "20" "wan2.1: the script's 20 iterations stay 20 in the launch run"
is "$(steps_in npu_profiling)" "10 11" "wan2.1, 20 iterations: steps 10 and 11"
rm -rf npu_profiling

# An output directory whose name is not UTF-8: the training's Python reads
# it from the tools.json copy (\udcXX escapes) and writes to those bytes.
odd=$(printf 'o\377ut')
"$MSPROF" -y --skip-checks --train-iters 14 -o "$T/$odd" bash "$WAN" > out 2> err
is "$?:$(ranks_in "$T/$odd")" "0:0" "wan2.1, output path not UTF-8: rank 0 profiled in that very directory"
json_get "$(ls "$T/$odd"/msprof-exec_*/*_tools.json)" 'd["profile"]["enable"]' > /dev/null 2>&1
ok $? "the tools.json copy is valid JSON (UTF-8)"
like "$(journal "$T/$odd")" '"--train-iters","14"' "wan2.1: --train-iters replaced"

rm -rf npu_profiling
"$MSPROF" -y --skip-checks --train-iters keep bash examples/qwen3vl/finetune_qwen3vl_8B.sh > out 2> err
is "$?" 0 "qwen3vl (YAML with MM_TOOL_PATH): exit 0"
is "$(ranks_in npu_profiling)" "0" "qwen3vl: rank 0 profiled"
ycopy=$(ls npu_profiling/msprof-exec_*/*_qwen3vl_full_sft_8B.yaml)
tcopy=$(ls npu_profiling/msprof-exec_*/*_tools.json)
like "$(grep MM_TOOL_PATH "$ycopy")" "MM_TOOL_PATH: .*_tools.json" \
    "qwen3vl: the YAML copy points MM_TOOL_PATH at the tools.json copy"
is "$(json_get "$tcopy" 'd["profile"]["enable"]')" "True" "qwen3vl: the tools.json copy profiles"

rm -rf npu_profiling
"$MSPROF" -y --skip-checks --train-iters 16 bash examples/qwen3_5/finetune_qwen3_5_35B.sh > out 2> err
is "$?" 0 "qwen3_5 (FSDP2 engine, tools.profile): exit 0"
is "$(ranks_in npu_profiling)" "0" "qwen3_5: rank 0 profiled"
ycopy=$(ls npu_profiling/msprof-exec_*/*_qwen3_5_35B_config.yaml)
$PY - "$ycopy" > yaml.txt <<'EOF2'
import sys
sys.path.insert(0, __import__("os").environ["SIM_ROOT"] + "/lib")
from msprof_sim import yamlish
d = yamlish.load(open(sys.argv[1]).read())
p = d["tools"]["profile"]
print(p["enable"], p["static_param"]["start_step"], p["static_param"]["end_step"],
      p["static_param"]["save_path"], d["training"]["train_iters"], "memory_profile" in d["tools"])
EOF2
is "$(cat yaml.txt)" "True 10 12 ./npu_profiling 16 True" \
    "qwen3_5: tools.profile set field by field, train_iters replaced, the rest kept"

rm -rf npu_profiling
"$MSPROF" -y --skip-checks --train-iters 14 --no-analyse --json nj.json bash "$WAN" > out 2> err
is "$(ranks_in npu_profiling)" "0" "--no-analyse: raw data collected"
is "$(json_get nj.json 'd["launches"][0]["analyse"], d["outputs"][0]["analyse"]')" "False False" \
    "--no-analyse: the journal and the report know parsing was off"
is "$(parsed_in npu_profiling)" "" "--no-analyse: nothing parsed yet"
like "$(cat out)" "Next: parse the raw data: msprof-exec analyse" "--no-analyse: says to parse offline"
"$MSPROF" analyse npu_profiling > out 2> err
is "$?" 0 "msprof-exec analyse: exit 0"
like "$(parsed_in npu_profiling)" "trace_view.json" "msprof-exec analyse: ASCEND_PROFILER_OUTPUT written"

# Dynamic profiling: the job runs; msprof-exec trigger arms it while the
# job holds at iteration 3 (MSPROF_SIM_PAUSE).  It has 8 iterations, fewer
# than the static default window (steps 10 to 12) needs.
rm -rf npu_profiling
MSPROF_SIM_PAUSE=3:$T/dyn.go "$MSPROF" -y --skip-checks --mode dynamic --train-iters 8 bash "$WAN" > dyn.out 2> dyn.err &
bg=$!
wait_for "the job at iteration 3" test -e "$T/dyn.go.0"
ok "$([ -f npu_profiling/dynamic_profile/profiler_config.json ]; echo $?)" \
    "dynamic: the config directory and file are prepared"
"$MSPROF" trigger --now --active 2 npu_profiling/dynamic_profile > trig.out
wait_for "the monitor to take the trigger" monitor_took npu_profiling/dynamic_profile
: > "$T/dyn.go"
like "$(cat trig.out)" "the job starts collecting at its next step, for 2 step\(s\); data goes to ./npu_profiling" \
    "trigger: says what the job will do"
wait $bg
dyn_rc=$?
is "$dyn_rc" 0 "dynamic: the job ends normally"
is "$(ranks_in npu_profiling)" "0" "dynamic: the trigger collected rank 0"
is "$(json_get npu_profiling/dynamic_profile/profiler_config.json 'd["start_step"], d["active"], d["prof_dir"], d["activities"]')" \
    "-1 2 ./npu_profiling ['CPU', 'NPU']" "trigger: start_step -1, the rest kept"
is "$(json_get npu_profiling/dynamic_profile/profiler_config.json 'd["is_rank"], d["rank_list"]')" \
    "False []" "dynamic: is_rank off (it would turn online parsing off; MM picks the ranks)"
like "$(parsed_in npu_profiling)" "trace_view.json" "dynamic: the collected rank is parsed online"
like "$(cat dyn.out)" "pretrain_sora.py: dynamic \(msprof-exec trigger\), ranks 0" \
    "dynamic: the report says the launch was armed for a trigger, not a step window"
# No step window in dynamic mode: a run shorter than the static default
# window (steps 10 to 12) is not refused (the run above).
is "$dyn_rc" 0 "dynamic, 8 iterations: runs (no static window to check)"
unlike "$(cat dyn.out dyn.err)" "end after the last training step" "dynamic, 8 iterations: not refused"
rm -rf npu_profiling
"$MSPROF" -y --skip-checks --mode dynamic --train-iters 8 bash examples/qwen3vl/finetune_qwen3vl_8B.sh > out 2> err
is "$?" 0 "dynamic, YAML entry, 8 iterations: runs"
unlike "$(cat out err)" "end after the last training step" "dynamic, YAML entry, 8 iterations: not refused"

is "$(sums)" "$orig" "every user config file is byte-identical"
done_testing
