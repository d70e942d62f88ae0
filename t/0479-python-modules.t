#!/usr/bin/env bash
# python -m MODULE without a launcher (launchers.conf's 'entry-module *
# auto'): ESPnet's recipes run python3 -m espnet2.bin.asr_train, open_clip
# python -m training.main on one device.  The injector finds the module's
# file as Python does (the working directory, then PYTHONPATH, then the
# job Python's site-packages) and reads it as a script: a training gets
# PROF_CONFIG_PATH and collects rank 0 only; pip, json.tool and an
# inference module run exactly as without msprof-exec.
. "$(dirname "$0")/lib.sh"
. "$TOP/t/plain-python.sh"
own_pycache
sim_env
D=$TOP/t/data/libtrain
export MSPROF_SIM_DP_HOLD=$MSPROF_T_WAIT_LIMIT ITERS=8
OUT=$T/out

# profiled NAME DIR SUBDIR WHY-ERE COMMAND...: run COMMAND in SUBDIR of a
# copy of DIR; one launch injected for WHY-ERE, rank 0 collected only.
profiled() {
	local name=$1 dir=$2 sub=$3 why=$4
	shift 4
	rm -rf "$T/w" "$OUT"
	cp -R "$D/$dir" "$T/w"
	(cd "$T/w/$sub" && msprof -y --steps 3:5 -o "$OUT" "$@"
	    printf '%s\n' "$rc" > "$T/rc"; printf '%s\n' "$out" > "$T/o")
	is "$(< "$T/rc")" 0 "$name: exit 0"
	is "$(njournal injected "$OUT")" 1 "$name: taken for training"
	like "$(journal "$OUT")" "\"reason\":\"[^\"]*$why" "$name: for $why"
	like "$(journal "$OUT")" '"script":"[^"]*\.' "$name: the module is the entry"
	# one process, no rank of torch.distributed: profiler_info.json
	is "$(ls -d "$OUT"/*_ascend_pt/profiler_info*.json | wc -l | tr -d ' ')" 1 \
	    "$name: one process collected"
	like "$(journal "$OUT")" '"expected_ranks":\[0\]' "$name: rank 0, and only it"
}

ESP='espnet2/train/trainer.py:[0-9]+: loss.backward\(\), [^"]*espnet2/train/trainer.py:[0-9]+: optimizer.step\(\)'
profiled "ESPnet recipe: python3 -m espnet2.bin.asr_train (PYTHONPATH)" \
    espnet egs2/an4/asr1 "$ESP" bash run.sh
profiled "ESPnet: the package under the working directory" espnet . "$ESP" \
    python3 -m espnet2.bin.asr_train --ngpu 1 --max_epoch 1
profiled "open_clip on one device: python -m training.main" open_clip src \
    'training/train.py:[0-9]+: .*backward\(\)' \
    python3 -m training.main --train-data x.tar

# The dry run says why: the training's call, an inference's miss.
cd "$D/espnet"
msprof -n python3 -m espnet2.bin.asr_train --ngpu 1
like "$out" "training: $ESP" "-n: python3 -m espnet2.bin.asr_train is a training, and why"
msprof -n python3 -m espnet2.bin.asr_inference
unlike "$out" "^training: " "-n: asr_inference is no training"
like "$out" "left alone \(not a training entry: espnet2.bin.asr_inference is built on torch, and the loop of espnet2/train/trainer.py:[0-9]+: train_one_epoch\(\) is never called" \
    "... and says why: the loop it does not call"
msprof -n python3 -m no_such_module_here
unlike "$out" "^training: " "-n: a module that is not found is no training"
# The dry run finds the module through the PYTHONPATH the script exports
# (a path relative to where the launch runs, as Python reads it), and
# without that export it finds none.
cd "$D/espnet/egs2/an4/asr1"
msprof -n bash run.sh
like "$out" "training: ([^ ]*/)?$ESP" "-n: run.sh's exported PYTHONPATH finds espnet2.bin.asr_train"
rm -rf "$T/w"
cp -R "$D/espnet" "$T/w"
cd "$T/w/egs2/an4/asr1"
sed '/^export PYTHONPATH=/d' run.sh > noexport.sh
msprof -n bash noexport.sh
unlike "$out" "^training: " "-n: without the export the module is no training"
sed 's/^python3 -m/torchrun --nproc_per_node 1 -m/' run.sh > torchrun.sh
msprof -n bash torchrun.sh
like "$out" "training: ([^ ]*/)?$ESP" "-n: torchrun -m under the exported PYTHONPATH is a training"
sed '/^export PYTHONPATH=/d' torchrun.sh > torchrun_noexport.sh
msprof -n bash torchrun_noexport.sh
unlike "$out" "^training: " "-n: torchrun -m without the export is no training"
like "$out" "no file of module espnet2.bin.asr_train in the working directory, PYTHONPATH" \
    "... and says the module is not found"
# $PWD follows the script's cd: the PYTHONPATH made from it after the cd
# names the recipe's folder.
cd "$T/w"
printf '%s\n' 'cd egs2/an4/asr1' 'export PYTHONPATH=$PWD/../../..:$PYTHONPATH' \
    'python3 -m espnet2.bin.asr_train --ngpu 1' > cd_pwd.sh
msprof -n bash cd_pwd.sh
like "$out" "training: ([^ ]*/)?$ESP" "-n: \$PWD after the script's cd is where it went"
cd "$T/w/egs2/an4/asr1"
# The launch's PYTHONPATH is what the script leaves it: the launcher's
# own is inherited, and one the script sets replaces it.
PYTHONPATH=$T/w msprof -n bash noexport.sh
like "$out" "training: ([^ ]*/)?$ESP" "-n: the launcher's PYTHONPATH is inherited by the launch"
printf '%s\n' 'export PYTHONPATH=/nonexistent' \
    'python3 -m espnet2.bin.asr_train --ngpu 1' > own.sh
PYTHONPATH=$T/w msprof -n bash own.sh
unlike "$out" "^training: " "-n: the script's PYTHONPATH, not the launcher's, is searched"

# The run of each as without msprof-exec: output, exit status.
cd "$T"
same() {
	local name=$1
	shift
	"$@" > "$T/plain.out" 2> "$T/plain.err"
	local want=$?
	rm -rf "$OUT"
	"$MSPROF" --skip-checks -y -o "$OUT" "$@" > "$T/m.out" 2> "$T/m.err"
	is "$?" "$want" "$name: the same exit status ($want)"
	is "$(< "$T/m.out")" "$(< "$T/plain.out")" "$name: the same output"
	like "$(< "$T/m.err")" "$(tail -1 "$T/plain.err" | sed 's/[][\\.*^$(){}+?|]/\\&/g')" \
	    "$name: its own error output"
	is "$(journal "$OUT" | grep -c '"status"')" 0 "$name: nothing recorded"
}
printf '{"a": [1, 2]}\n' > "$T/in.json"
same "python3 -m json.tool" python3 -m json.tool "$T/in.json"
same "python3 -m json.tool on a missing file" python3 -m json.tool "$T/none.json"
same "python3 -m pip --version" python3 -m pip --version
same "python3 -m of a missing module" python3 -m no_such_module_here
# inside a job: bash runs them, the shim sees the execs
same "bash: python3 -m json.tool, then exit 3" bash -c \
    'python3 -m json.tool "$0" && exit 3' "$T/in.json"
done_testing
