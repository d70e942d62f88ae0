#!/usr/bin/env bash
# Bad configuration input stops the launch with exit 78 and a message that
# names the file, the line and column, and the fix; existing profiling
# settings follow --existing; trigger writes its file atomically.  Nothing
# the user owns is written.
. "$(dirname "$0")/lib.sh"

make_recorder torchrun
export PATH="$RBIN:$PATH"
mkdir cfg
ok_tools='{"profile": {"enable": false, "static_param": {"level": "level1"}}, "memory_profile": {"enable": false}}'
# attempt ENTRY ARGS...: run one launch; sets rc, err.
attempt() {
	reset_run
	sums=$(md5sum cfg/* 2>/dev/null)
	msprof -y "$@"
	is "$(md5sum cfg/* 2>/dev/null)" "$sums" "$*: the config files are unchanged"
}

printf '{\n  "profile": {\n    "enable": false\n    "ranks": [0]\n  }\n}\n' > cfg/tools.json
attempt torchrun pretrain_sora.py --mm-tool cfg/tools.json
is "$rc" 78 "invalid JSON: exit 78"
like "$err" "cfg/tools.json:4:5: invalid JSON; fix the file" "invalid JSON: file, line and column"
is "$(nrecorded)" 0 "invalid JSON: the launch did not start"

echo '{"profile": 5}' > cfg/tools.json
attempt torchrun pretrain_sora.py --mm-tool=cfg/tools.json
is "$rc" 78 "profile not an object: exit 78"
like "$err" "cfg/tools.json: \"profile\" must be an object" "profile not an object: the message"

attempt torchrun pretrain_sora.py --train-iters 20
is "$rc" 78 "no --mm-tool: exit 78"
like "$err" "pretrain_sora.py has no --mm-tool.*add --mm-tool" "no --mm-tool: the fix"

echo "$ok_tools" > cfg/tools.json
printf 'gpt_args:\n  train_iters: 20\n' > cfg/noTool.yaml
attempt torchrun pretrain_transformers.py cfg/noTool.yaml
is "$rc" 78 "YAML without MM_TOOL_PATH: exit 78"
like "$err" "cfg/noTool.yaml has no top-level MM_TOOL_PATH: the training would stop with KeyError: \"The required keyword 'MM_TOOL_PATH' is missing from the configuration file.\"; add MM_TOOL_PATH" \
    "YAML without MM_TOOL_PATH: the KeyError and the fix"

printf 'MM_TOOL_PATH: cfg/tools.json\ngpt_args:\n  train_iters: [1, 2\n' > cfg/bad.yaml
attempt torchrun pretrain_transformers.py cfg/bad.yaml
is "$rc" 78 "invalid YAML: exit 78"
like "$err" "cfg/bad.yaml:[0-9]+:[0-9]+: invalid YAML: " "invalid YAML: file, line and column"

printf 'tools: 3\ntraining:\n  train_iters: 20\n' > cfg/fsdp.yaml
attempt torchrun mindspeed_mm/fsdp/train/trainer.py cfg/fsdp.yaml
is "$rc" 78 "FSDP2 'tools' not a mapping: exit 78"
like "$err" "cfg/fsdp.yaml: 'tools' must be a mapping of settings" "FSDP2 tools: the message"

printf 'training:\n  train_iters: 20\n' > cfg/fsdp.yaml
attempt --mode dynamic torchrun mindspeed_mm/fsdp/train/trainer.py cfg/fsdp.yaml
is "$rc" 78 "FSDP2 with --mode dynamic: exit 78"
like "$err" "profiles statically only" "FSDP2 dynamic: the message"

# An output directory whose name is not UTF-8: YAML holds text only, so a
# YAML copy cannot name it; the launch stops instead of profiling elsewhere.
odd=$(printf 'o\377ut')
printf 'training:\n  train_iters: 20\n' > cfg/fsdp.yaml
attempt -o "$T/$odd" torchrun mindspeed_mm/fsdp/train/trainer.py cfg/fsdp.yaml
is "$rc:$(nrecorded)" "78:0" "FSDP2, output path not UTF-8: exit 78, the launch did not start"
like "$err" "cfg/fsdp.yaml: tools.profile.static_param.save_path cannot hold .*: not UTF-8, and YAML holds text only; give -o a directory whose full path is UTF-8" \
    "FSDP2, output path not UTF-8: names the file, the field and the fix"
echo "$ok_tools" > cfg/tools.json
printf 'MM_TOOL_PATH: cfg/tools.json\ngpt_args:\n  train_iters: 20\n' > cfg/mm.yaml
attempt -o "$T/$odd" torchrun pretrain_transformers.py cfg/mm.yaml
is "$rc:$(nrecorded)" "78:0" "YAML entry, output path not UTF-8: exit 78, the launch did not start"
like "$err" "cfg/mm.yaml: MM_TOOL_PATH cannot hold .*: not UTF-8" \
    "YAML entry, output path not UTF-8: names the file and the field"
is "$(ls "$T/$odd"/msprof-exec_*/ | grep -c tools.json)" 0 "YAML entry, output path not UTF-8: no tools.json copy left behind"

# Existing settings.
echo '{"profile": {"enable": true, "static_param": {"start_step": 3}}}' > cfg/tools.json
attempt torchrun pretrain_sora.py --mm-tool cfg/tools.json
is "$rc" 78 "tools.json already profiling, --existing ask without a terminal: exit 78"
like "$err" "already sets profiling options \(\"profile\": \{\"enable\": true\} in cfg/tools.json\)" \
    "existing: names the setting and the file"
like "$err" "msprof-exec --existing keep --skip-checks -y torchrun pretrain_sora.py --mm-tool cfg/tools.json" \
    "existing: the keep command"
like "$err" "msprof-exec --existing override --skip-checks -y torchrun pretrain_sora.py" \
    "existing: the override command"
attempt --existing keep torchrun pretrain_sora.py --mm-tool cfg/tools.json
is "$rc" 0 "--existing keep: runs"
like "$(rec_argv)" "--mm-tool cfg/tools.json" "--existing keep: the user's tools.json as it is"
like "$(journal npu_profiling)" '"status":"kept"' "--existing keep: recorded as kept"
attempt --existing override torchrun pretrain_sora.py --mm-tool cfg/tools.json
like "$(rec_argv)" "--mm-tool [^ ]*/[0-9]+_tools.json" "--existing override: a copy with msprof-exec's settings"

printf 'training:\n  train_iters: 20\n' > cfg/fsdp.yaml
attempt torchrun mindspeed_mm/fsdp/train/trainer.py cfg/fsdp.yaml tools.profile.enable=true
is "$rc" 78 "FSDP2 key=value profiling override: an existing setting"
attempt --existing override torchrun mindspeed_mm/fsdp/train/trainer.py cfg/fsdp.yaml tools.profile.enable=true lr=1
unlike "$(rec_argv)" "tools.profile.enable=true" "--existing override drops the key=value override"
like "$(rec_argv)" " lr=1" "--existing override keeps the other overrides"

# --existing keep: the journal holds where the kept settings save the
# data, for each engine that reads them from a file.
saved() { journal "$1" | sed -n 's/.*"save_path":"\([^"]*\)".*/\1/p' | tail -n 1; }
keep_in() {	# keep_in OUTPUT ENTRY ARGS...
	local out=$1
	shift
	rm -rf "$out"
	attempt --existing keep "$@"
	is "$rc" 0 "--existing keep $*: runs"
}
echo '{"profile": {"enable": true, "static_param": {"save_path": "./mm_mine"}}}' > cfg/tools_on.json
printf 'MM_TOOL_PATH: cfg/tools_on.json\ngpt_args:\n  train_iters: 20\n' > cfg/mmk.yaml
keep_in npu_profiling torchrun pretrain_transformers.py cfg/mmk.yaml
is "$(saved npu_profiling)" "./mm_mine" "MM YAML: the save_path of the tools.json MM_TOOL_PATH names"
keep_in npu_profiling torchrun pretrain_sora.py --mm-tool cfg/tools_on.json
is "$(saved npu_profiling)" "./mm_mine" "MM --mm-tool: the save_path of that tools.json"
printf 'tools:\n  profile:\n    enable: true\n    static_param: {save_path: ./fsdp_mine}\ntraining:\n  train_iters: 20\n' > cfg/fsdp_on.yaml
keep_in npu_profiling torchrun mindspeed_mm/fsdp/train/trainer.py cfg/fsdp_on.yaml
is "$(saved npu_profiling)" "./fsdp_mine" "MM FSDP2: tools.profile.static_param.save_path of the YAML"
keep_in npu_profiling torchrun mindspeed_mm/fsdp/train/trainer.py cfg/fsdp_on.yaml \
    tools.profile.static_param.save_path=./cli_mine
is "$(saved npu_profiling)" "./cli_mine" "MM FSDP2: a key=value word wins over the YAML"
keep_in npu_profiling torchrun mindspeed_mm/fsdp/train/trainer.py cfg/fsdp.yaml tools.profile.enable=true
is "$(saved npu_profiling)" "./profiling" "MM FSDP2: else the engine's default ./profiling"
printf 'training:\n  profile: true\n  profile_save_path: ./llm_mine\n' > cfg/llm.yaml
keep_in profiling_output torchrun train_fsdp2.py cfg/llm.yaml
is "$(saved profiling_output)" "./llm_mine" "LLM FSDP2: training.profile_save_path of the YAML"
keep_in profiling_output torchrun train_fsdp2.py cfg/llm.yaml --training.profile_save_path ./llm_cli
is "$(saved profiling_output)" "./llm_cli" "LLM FSDP2: the command line wins over the YAML"
keep_in profiling_output torchrun train_fsdp2.py cfg/llm.yaml --training.profile_save_path=
is "$(saved profiling_output)" "./llm_mine" "LLM FSDP2: an empty option is no path"
printf 'training:\n  profile: true\n  profile_save_path: null\n' > cfg/llm.yaml
keep_in profiling_output torchrun train_fsdp2.py cfg/llm.yaml
is "$(saved profiling_output)" "./profile" "LLM FSDP2: a YAML null reads as none: its default ./profile"
printf 'tools:\n  profile:\n    enable: true\n    static_param: {save_path: ~}\n' > cfg/fsdp_on.yaml
keep_in npu_profiling torchrun mindspeed_mm/fsdp/train/trainer.py cfg/fsdp_on.yaml
is "$(saved npu_profiling)" "./profiling" "MM FSDP2: save_path ~ reads as none: ./profiling"

printf 'torchrun pretrain_gpt.py --profile --profile-step-start 5 --profile-ranks 0 1\n' > train.sh
attempt bash train.sh
is "$rc" 78 "a script that already profiles: settled before anything runs (exit 78)"
like "$err" "already sets profiling options \(--profile, --profile-step-start 5, --profile-ranks 0 1\)" \
    "the settings the static scan found"
like "$err" "msprof-exec --existing keep --skip-checks -y bash train.sh" "the keep command to run"
like "$err" "msprof-exec --existing override --skip-checks -y bash train.sh" "the override command to run"
ok "$([ ! -e profiling_output ]; echo $?)" "nothing was created"

echo '{"profile": {"enable": true}}' > cfg/tools.json
printf 'MM_TOOL=cfg/tools.json\ntorchrun pretrain_sora.py --mm-tool $MM_TOOL\n' > train.sh
attempt bash train.sh
is "$rc" 78 "a script whose tools.json already profiles: settled before anything runs"
like "$err" "already sets profiling options \(\"profile\": \{\"enable\": true\} in cfg/tools.json\)" \
    "the setting found in the config the script names"
is "$(nrecorded)" 0 "nothing ran"

# trigger: atomic, keeps the other fields, refuses a step that cannot fire.
mkdir dyn
echo '{"prof_dir": "./p", "start_step": 0, "active": 3, "custom": {"x": [1, 2]}}' > dyn/profiler_config.json
"$MSPROF" trigger --start 7 dyn > /dev/null
$PY -c 'import json; d = json.load(open("dyn/profiler_config.json")); print(d["start_step"], d["active"], d["custom"], d["prof_dir"])' > got
is "$(<got)" "7 3 {'x': [1, 2]} ./p" "trigger --start: the other fields are kept"
"$MSPROF" trigger --start 0 dyn > /dev/null 2> err
is "$?:$(grep -c 'use --now' err)" "64:1" "trigger --start 0 is refused, pointing at --now"
"$MSPROF" trigger --now nowhere > /dev/null 2>&1
is "$?" 66 "trigger on a missing directory: exit 66"
$PY - "$MSPROF" <<'EOF2' > atomic
import json, subprocess, sys, threading
stop, bad, reads = False, 0, 0
def reader():
    global bad, reads
    while not stop:
        try:
            json.load(open("dyn/profiler_config.json"))
        except (ValueError, FileNotFoundError):
            bad += 1
        reads += 1
t = threading.Thread(target=reader); t.start()
for i in range(60):
    subprocess.run([sys.argv[1], "trigger", "--start", str(i + 1), "dyn"], stdout=subprocess.DEVNULL)
stop = True; t.join()
print(bad, reads > 100)
EOF2
is "$(<atomic)" "0 True" "a reader polling while trigger writes never sees a partial file"
done_testing
