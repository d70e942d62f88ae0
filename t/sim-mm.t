#!/usr/bin/env bash
# Self-test of the simulation: MindSpeed-MM (tools.json, YAML entries, FSDP2 engine, dynamic mode).
. "$(dirname "$0")/../sim/testlib.sh"
TOOLS=$MM_DIR/mindspeed_mm/tools/tools.json
# The runs come one after another, but for two side by side (dynamic mode),
# the second of which takes PORT2 (each free_port is a python3 of its own).
export MASTER_PORT
MASTER_PORT=$(free_port)
PORT2=$(free_port)
# sora TOOLS_JSON EXTRA...: mm_sora on the port of MASTER_PORT.
sora() {
    local tool=$1; shift
    (cd "$MM_DIR" && torchrun --nproc_per_node 2 --master_port "$MASTER_PORT" pretrain_sora.py \
        --mm-data examples/wan2.1/1.3b/t2v/feature_data.json --mm-model examples/wan2.1/1.3b/t2v/pretrain_model.json \
        --mm-tool "$tool" "$@" 2>&1)
}
# col NAME FILE...: the values of CSV column NAME, each followed by a space
# (csv_col without a python3 per call; the columns read here hold no commas).
col() {
    awk -F, -v c="$1" 'FNR == 1 { n = 0; sub(/\r$/, ""); for (i = 1; i <= NF; i++) if ($i == c) n = i; next }
        { sub(/\r$/, ""); printf "%s ", n ? $n : "NO-COLUMN-" c }' "${@:2}"
}

# The master tools.json's content, and the copies of it the runs below
# take: json_set TOOLS into each OUT, all in one python3.
# tools_copies OUT KEY=VALUE... [-- OUT KEY=VALUE...]...
tools_copies() {
    python3 - "$TOOLS" "$@" <<'PY'
import json, sys
src, args = sys.argv[1], sys.argv[2:]
d = json.load(open(src))
p = d["profile"]
print(p["enable"], p["profile_type"], p["ranks"], p["static_param"]["start_step"], p["static_param"]["end_step"],
      p["static_param"]["analyse_flag"], p["dynamic_param"]["config_path"], sorted(d))
while args:
    end = args.index("--") if "--" in args else len(args)
    dst, items, args = args[0], args[1:end], args[end + 1:]
    data = json.load(open(src))
    for item in items:
        key, value = item.split("=", 1)
        node = data
        parts = key.split(".")
        for part in parts[:-1]:
            node = node.setdefault(part, {})
        if value == "DELETE":
            node.pop(parts[-1], None)
        else:
            node[parts[-1]] = json.loads(value)
    json.dump(data, open(dst, "w"), indent=4)
PY
}
master=$(tools_copies \
    $TMP/t1.json profile.enable=true "profile.static_param.save_path=\"$TMP/p1\"" -- \
    $TMP/t2.json profile.enable=true profile.ranks=[0] profile.static_param.start_step=2 \
        profile.static_param.end_step=4 profile.static_param.analyse_flag=false "profile.static_param.save_path=\"$TMP/p2\"" -- \
    $TMP/t3.json profile.enable=true profile.static_param.level='"level_none"' -- \
    $TMP/t4.json profile.enable=true profile.profile_type='"both"' -- \
    $TMP/t5.json profile.enable=true profile.static_param.aic_metrics_type='"Memory"' -- \
    $TMP/t6.json profile.enable=true profile.static_param.analyse_flag=DELETE -- \
    $TMP/t7.json profile.enable=true profile.static_param.start_step=1 "profile.static_param.save_path=\"$TMP/p7\"" -- \
    $TMP/d1.json profile.enable=true profile.profile_type='"dynamic"' profile.ranks=[0] -- \
    $TMP/d2.json profile.enable=true profile.profile_type='"dynamic"' profile.ranks=[0] \
        "profile.dynamic_param.config_path=\"$TMP/dyn\"" -- \
    $TMP/d3.json profile.enable=true profile.profile_type='"dynamic"' profile.ranks=[0] \
        "profile.dynamic_param.config_path=\"$TMP/dyn3\"" -- \
    $TMP/ty.json profile.enable=true profile.ranks=[-1] profile.static_param.start_step=3 \
        profile.static_param.end_step=4 "profile.static_param.save_path=\"$TMP/py\"")
like "$master" \
     "^False static \[0, 1, 2, 3\] 10 11 True path to dynamic config folder \['memory_profile', 'profile', 'sorafeature'\]$" \
     "tools.json has the master content"

# --- the example script, with a tools.json copy that enables profiling -------------------------------
sed "s|^MM_TOOL=.*|MM_TOOL=\"$TMP/t1.json\"|" "$MM_DIR/examples/wan2.1/1.3b/t2v/pretrain.sh" > $TMP/wan.sh
out=$(cd "$MM_DIR" && bash $TMP/wan.sh 2>&1)
like "$out" 'iteration +20/ +20' "wan2.1 example trains 20 iterations"
like "$out" "Profiler won't be using warmup, this can skew profiler results" "MM static profiler warns about warmup 0"
is "$(count_dirs $TMP/p1)" 2 "ranks [0,1,2,3] on 2 workers: both ranks profiled"
is "$(col Step $(ls $TMP/p1/*/ASCEND_PROFILER_OUTPUT/step_trace_time.csv | head -n1))" "10 " \
   "start 10 end 11: 0-based step 10 (the 11th iteration)"
like "$out" 'Elapsed Time Per iteration: [0-9.]+' "the script's post-run step-time summary works on the log"

# --- analyse_flag false, then offline analyse ---------------------------------------------------------
out=$(sora $TMP/t2.json --train-iters 6)
D=$(ls -d $TMP/p2/*_ascend_pt 2>/dev/null | head -n1)
[ -n "$D" ] && [ -d "$D/FRAMEWORK" ] && ls -d "$D"/PROF_*/device_0/data >/dev/null 2>&1; ok $? "analyse_flag false: raw data written"
[ -n "$D" ] && [ ! -e "$D/ASCEND_PROFILER_OUTPUT" ]; ok $? "analyse_flag false: no ASCEND_PROFILER_OUTPUT"
unlike "$out" 'Start parsing profiling data' "analyse_flag false: no online parse"
out=$(python3 -c "from torch_npu.profiler.profiler import analyse; analyse('$TMP/p2')" 2>&1)
like "$out" "Start parsing profiling data in sync mode at: $D" "offline analyse() logs the parse of the directory"
like "$out" 'All profiling data parsed in a total time of' "offline analyse() finishes"
[ -f "$D/ASCEND_PROFILER_OUTPUT/kernel_details.csv" ] && [ -f "$D/ASCEND_PROFILER_OUTPUT/analyse.done" ]
ok $? "analyse() creates ASCEND_PROFILER_OUTPUT"
is "$(col Step $D/ASCEND_PROFILER_OUTPUT/step_trace_time.csv)" "2 3 " "steps [2,4) recorded"
out=$(cd "$MM_DIR" && python3 mindspeed_mm/tools/profiler.py --profiler-path $TMP/p2 --export-type db 2>&1)
[ -f "$D/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_0.db" ]; ok $? "mindspeed_mm/tools/profiler.py --export-type db parses offline to db"
out=$(python3 -c "from torch_npu.profiler.profiler import analyse; analyse('$D', export_type=['text', 'db'])" 2>&1)
[ -f "$D/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler_0.db" ] && [ -f "$D/ASCEND_PROFILER_OUTPUT/trace_view.json" ]
ok $? "analyse() of one *_ascend_pt with both export types"

# --- tools.json errors ---------------------------------------------------------------------------
out=$(sora $TMP/t3.json --train-iters 2)
like "$out" 'profiler_level only supports level0, 1, and 2, but gets level_none' "MM rejects level_none"
like "$(sora $TMP/t4.json --train-iters 2)" 'profile_type only supports static and dynamic, but gets both' "bad profile_type"
like "$(sora $TMP/t5.json --train-iters 2)" 'aic_metrics_type only supports PipeUtilization and ArithmeticUtilization' "bad aic_metrics_type"
like_exc "$(sora $TMP/t6.json --train-iters 2)" "AttributeError" "'ConfigReader' object has no attribute 'analyse_flag'" \
     "an old tools.json without analyse_flag fails on master code"
out=$(sora $TMP/missing.json --train-iters 2)
like "$out" "Warning: Config file not found: $TMP/missing.json" "missing --mm-tool file: warning"
like_exc "$out" 'RuntimeError' 'One or more config files failed to load\. See above errors\.' "missing --mm-tool file: RuntimeError"
out=$(cd "$MM_DIR" && torchrun --nproc_per_node 1 --master_port $MASTER_PORT pretrain_sora.py --mm-data examples/wan2.1/1.3b/t2v/feature_data.json --train-iters 2 2>&1)
like_exc "$out" "AttributeError" "'MMConfig' object has no attribute 'tool'" "no --mm-tool at all: AttributeError"
out=$(OOTB_OPTIMIZER_PROFILING=TRUE sora $TMP/t7.json --train-iters 3)
like "$out" 'iteration +3/ +3' "OOTB_OPTIMIZER_PROFILING=TRUE: training runs"
[ ! -e $TMP/p7 ]; ok $? "OOTB_OPTIMIZER_PROFILING=TRUE skips the profiler"

# --- dynamic mode --------------------------------------------------------------------------------
# torch_npu's path rule takes white space: MindSpeed-MM's placeholder is a valid
# relative path, made in the working directory with the config template
out=$(sora $TMP/d1.json --train-iters 3)
unlike "$out" "is invalid" "dynamic with the placeholder config_path: not refused (torch_npu's path rule takes white space)"
[ -f "$MM_DIR/path to dynamic config folder/profiler_config.json" ]
ok $? "... the placeholder's directory is made in the working directory, with profiler_config.json"
rm -rf "$MM_DIR/path to dynamic config folder"
like "$(cd "$MM_DIR" && python3 -c '
from torch_npu.profiler import dynamic_profile
dynamic_profile.init("bad|path")' 2>&1)" "The path 'bad\|path' is invalid, and profiler will not be enabled\." \
     "a character outside the rule (|): invalid path"
# Both runs hold at iteration 3 (MSPROF_SIM_PAUSE) while their configs are rewritten.
(MSPROF_SIM_PAUSE=3:$TMP/go2 sora $TMP/d2.json --train-iters 8 > $TMP/dyn.out; echo "rc=$?" >> $TMP/dyn.out) &
bg=$!
(MASTER_PORT=$PORT2 MSPROF_SIM_PAUSE=3:$TMP/go3 sora $TMP/d3.json --train-iters 8 > $TMP/dyn3.out) &
bg3=$!
wait_for "both runs at iteration 3" test -e $TMP/go2.0 -a -e $TMP/go2.1 -a -e $TMP/go3.0 -a -e $TMP/go3.1
[ -s $TMP/dyn/profiler_config.json ]; ok $? "dp.init() creates profiler_config.json from the template"
# The template's values; then both configs rewritten (json_set's rules).
# torch_npu compares mtimes in whole seconds, later than the second of
# init(): the new files are dated a second ahead, as msprof-exec trigger does.
template=$(python3 - "$TMP" <<'PY'
import json, os, sys, time
tmp = sys.argv[1]
c = json.load(open(os.path.join(tmp, "dyn", "profiler_config.json")))
print(c["start_step"], c["active"], c["prof_dir"], c["analyse"], c["experimental_config"]["profiler_level"],
      c["experimental_config"]["export_type"])
ahead = int(time.time()) + 1
for d, new in (("dyn", {"start_step": -1, "active": 2, "analyse": True, "prof_dir": os.path.join(tmp, "dynout")}),
               ("dyn3", {"start_step": 1, "prof_dir": os.path.join(tmp, "dynout3")})):
    p = os.path.join(tmp, d, "profiler_config.json")
    c = json.load(open(p))
    c.update(new)
    json.dump(c, open(p + ".new", "w"), indent=4)
    os.utime(p + ".new", (ahead, ahead))
    os.replace(p + ".new", p)
PY
)
like "$template" "^0 1 \./ False Level0 \['text'\]$" "template values"
# the monitor polls every 2 s: the runs go on once each has passed its config on
wait_for "the monitors to take the new configs" monitor_took $TMP/dyn
wait_for "the monitors to take the new configs" monitor_took $TMP/dyn3
: > $TMP/go2
: > $TMP/go3
wait $bg $bg3
out=$(cat $TMP/dyn.out)
like "$out" 'rc=0' "dynamic run finishes"
like "$out" 'Start Dynamic Profiler at [0-9]+ step\.' "rewriting the config with start_step -1 starts the profiler"
like "$out" 'Stop Dynamic Profiler at [0-9]+ step\.' "it stops after active steps"
is "$(count_dirs $TMP/dynout)" 1 "dynamic profile written for rank 0 only"
steps=$(col Step $TMP/dynout/*/ASCEND_PROFILER_OUTPUT/step_trace_time.csv)
like "$steps" "^([0-9]+) $(( ${steps%% *} + 1 )) $" "active 2: two steps, named from the step the trigger came at"
like "$(cat $TMP/dyn3.out)" 'Dynamic Profiler config is not effective\. The start_step=1, current_step=[0-9]+' "a start_step in the past is not effective"
[ ! -e $TMP/dynout3 ]; ok $? "not effective: nothing written"

# --- pretrain_transformers.py <yaml> ---------------------------------------------------------------
# The example, with "--train-iters 3" added by hand to its command line:
# every CLI argument but the YAML is dropped.
Y=$MM_DIR/examples/qwen3vl/qwen3vl_full_sft_8B.yaml
sed "s|^MM_TOOL_PATH:.*|MM_TOOL_PATH: $TMP/ty.json|" $Y > $TMP/y.yaml
sed -e "s|^config_path=.*|config_path=\"$TMP/y.yaml\"|" -e "s|--distributed-backend nccl|& --train-iters 3|" \
    "$MM_DIR/examples/qwen3vl/finetune_qwen3vl_8B.sh" > $TMP/vl.sh
out=$(cd "$MM_DIR" && bash $TMP/vl.sh 2>&1)
like "$out" 'iteration +20/ +20' "qwen3vl example: train_iters from gpt_args"
like "$out" 'global batch size: +2 \|' "qwen3vl example: global_batch_size from gpt_args"
is "$(count_dirs $TMP/py)" 2 "MM_TOOL_PATH tools.json drives profiling (ranks [-1] = all)"
grep -v '^MM_TOOL_PATH' $Y > $TMP/nokey.yaml
dropped=$out
out=$(cd "$MM_DIR" && torchrun --nproc_per_node 1 --master_port $MASTER_PORT pretrain_transformers.py $TMP/nokey.yaml 2>&1)
like_exc "$out" "KeyError" "\"The required keyword 'MM_TOOL_PATH' is missing from the configuration file\.\"" \
     "pretrain_transformers.py without MM_TOOL_PATH: KeyError"
grep -q -- '--train-iters 3' $TMP/vl.sh && printf '%s' "$dropped" | grep -Eq 'iteration +20/ +20'
ok $? "other CLI arguments are dropped (--train-iters 3 has no effect)"

# --- FSDP2 engine: trainer.py <yaml> key=value ---------------------------------------------------------
F=examples/qwen3_5/qwen3_5_35B_config.yaml
out=$(cd "$MM_DIR" && torchrun --nproc_per_node 2 --master_port $MASTER_PORT mindspeed_mm/fsdp/train/trainer.py $F \
      tools.profile.enable=true tools.profile.static_param.start_step=2 tools.profile.static_param.end_step=4 \
      tools.profile.static_param.save_path=$TMP/pf training.train_iters=6 2>&1)
like "$out" 'iteration +6/ +6' "key=value override of training.train_iters"
is "$(count_dirs $TMP/pf)" 1 "tools.profile.ranks [0] from the YAML: rank 0 only"
is "$(col Step $TMP/pf/*/ASCEND_PROFILER_OUTPUT/step_trace_time.csv)" "2 3 " "FSDP engine steps [2,4)"
out=$(cd "$MM_DIR" && torchrun --nproc_per_node 1 --master_port $MASTER_PORT mindspeed_mm/fsdp/train/trainer.py $F \
      tools.profile.enable=true tools.profile.profile_type=dynamic 2>&1)
like "$out" 'profile_type only supports static, but gets dynamic' "FSDP engine is static only"
out=$(cd "$MM_DIR" && torchrun --nproc_per_node 1 --master_port $MASTER_PORT mindspeed_mm/fsdp/train/trainer.py $F \
      --tools.profile.enable true 2>&1)
like "$out" 'Only key=value format is supported' "FSDP engine refuses --key value arguments"
sed '/^tools:/,$d' "$MM_DIR/$F" > $TMP/notools.yaml
out=$(cd "$MM_DIR" && torchrun --nproc_per_node 1 --master_port $MASTER_PORT mindspeed_mm/fsdp/train/trainer.py $TMP/notools.yaml \
      tools.profile.enable=true tools.profile.static_param.start_step=1 tools.profile.static_param.end_step=2 training.train_iters=3 2>&1)
like "$(ls $MM_DIR/profiling 2>/dev/null; echo "$out")" 'iteration +3/ +3' "YAML without a tools section: defaults apply"
[ -d "$MM_DIR/profiling" ] && ls "$MM_DIR"/profiling/*_ascend_pt >/dev/null 2>&1; ok $? "default save_path ./profiling"
rm -rf "$MM_DIR/profiling"

done_testing
