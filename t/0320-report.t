#!/usr/bin/env bash
# The report after the run: collected ranks against expected ones, the
# causes of missing data, the diagnosis of a failed training, --json, and
# msprof-exec report PATH on an existing output directory.
. "$(dirname "$0")/lib.sh"
pyq_start

export PATH="$RBIN:$PATH"
# A launcher stand-in that writes what torch_npu would for the ranks in
# $MAKE_RANKS (raw data; parsed output unless $NO_PARSE) once the test
# releases the gate $GATE (if any), prints Megatron
# iteration lines up to $ITERS and the text in $SAY, then exits $EXIT.
cat > "$RBIN/torchrun" <<'EOF2'
#!/bin/sh
save=./profiling_output
[ -n "${GATE:-}" ] && timeout "$MSPROF_T_WAIT_LIMIT" sh -c 'read x < "$1"' sh "$GATE"
for r in ${MAKE_RANKS:-}; do
	d=$save/$(uname -n)_$$${r}_$(date +%Y%m%d%H%M%S%3N)_ascend_pt
	mkdir -p $d/PROF_000001_20261202120000000_ABCDEFGH/device_$r/data $d/FRAMEWORK
	echo data > $d/PROF_000001_20261202120000000_ABCDEFGH/device_$r/data/x
	echo '{}' > $d/profiler_info_$r.json
	if [ -z "${NO_PARSE:-}" ]; then
		mkdir -p $d/ASCEND_PROFILER_OUTPUT
		echo '[]' > $d/ASCEND_PROFILER_OUTPUT/trace_view.json
	fi
done
i=1
while [ $i -le ${ITERS:-0} ]; do
	echo " [2026-12-02 12:00:0$i] iteration        $i/      10 | consumed samples: 8 |"
	i=$((i + 1))
done
[ -n "${SAY:-}" ] && echo "$SAY" >&2
exit ${EXIT:-0}
EOF2
chmod +x "$RBIN/torchrun"
go() { reset_run; msprof -y "$@"; }

MAKE_RANKS="0" ITERS=5 go --ranks 0,1 torchrun --nproc_per_node 2 pretrain_gpt.py
is "$rc" 0 "exit status of a good run"
like "$out" "Profiling data in $T/profiling_output:" "names the output directory"
like "$out" "rank 0: $(uname -n)_[0-9]+_[0-9]{17}_ascend_pt  [0-9.]+[KMG]?B" \
    "lists the rank's directory with its size"
like "$out" "rank 1: no data" "an expected rank without data is named"
like "$err" "possible cause: the CANN environment was not loaded" \
    "a cause for the missing rank"
like "$out" "Next: open $T/profiling_output in MindStudio Insight" "the next step"

MAKE_RANKS="0 1" ITERS=5 go --ranks 0,1 --json report.json torchrun --nproc_per_node 2 pretrain_gpt.py
unlike "$out" "no data" "both ranks collected: nothing missing"
pyq - report.json <<'EOF2' > json.txt
import json, sys
d = json.load(open(sys.argv[1]))
o = d["outputs"][0]
print(d["version"], o["expected_ranks"], sorted(f["rank"] for f in o["found"]),
      o["missing_ranks"], all(f["raw"] and f["parsed"] for f in o["found"]),
      len(d["launches"]), d["launches"][0]["status"], d["next_step"].startswith("open "))
EOF2
is "$(<json.txt)" "1 [0, 1] [0, 1] [] True 1 injected True" "--json: the documented fields"
pyq - report.json <<'EOF2' > launch.txt
import json, sys
l = json.load(open(sys.argv[1]))["launches"][0]
print(l["nproc_per_node"], l["expected_ranks"], l["framework"], l["start_ms"] > 1.7e12)
EOF2
is "$(<launch.txt)" "2 [0, 1] llm True" \
    "--json: the launch's processes per node, expected ranks, framework, start"

MAKE_RANKS="" ITERS=3 go --steps 5:7 torchrun --nproc_per_node 1 pretrain_gpt.py
like "$err" "the window was never reached or not finished: steps 5 to 7, excluding 7, but the log shows training stopped at iteration 3" \
    "window past the end: compared with the iterations in the log"
# MCore steps are iterations: [5, 7) is complete once iteration 6 ran.
MAKE_RANKS="" ITERS=6 go --steps 5:7 torchrun --nproc_per_node 1 pretrain_gpt.py
unlike "$err" "the window was never reached" \
    "MCore window [5, 7) and a log up to iteration 6: the window was reached"

MAKE_RANKS="" ITERS=3 go torchrun --nproc_per_node 8 --nnodes 2 --node_rank 1 pretrain_gpt.py
like "$out" "no profiled rank runs on this node \(it holds ranks 8 to 15\): no data is expected here" \
    "the second node of a two-node job expects nothing"
unlike "$out$err" "rank 0: no data" "and reports no error for rank 0"
like "$(journal)" '"node_rank":1,"node_rank_from":"--node_rank","nnodes":2,"nproc_per_node":8,"first_rank":8,"world_size":16,.*"expected_ranks":\[\]' \
    "the journal has the launch's place in the job, and no rank expected on node 1"

# torchrun takes what its command line does not say from PET_* variables.
PET_NNODES=2 PET_NODE_RANK=1 PET_NPROC_PER_NODE=8 MAKE_RANKS="" ITERS=3 go torchrun pretrain_gpt.py
like "$out" "no profiled rank runs on this node \(it holds ranks 8 to 15\)" \
    "PET_NNODES, PET_NODE_RANK, PET_NPROC_PER_NODE: the node is read as torchrun reads it"
is "$rc" 0 "and nothing is missing"
# With a rendezvous the node learns its rank only when the job starts.
MAKE_RANKS="" ITERS=3 go --json rdzv.json torchrun --nnodes 2 --nproc_per_node 8 --rdzv_backend c10d pretrain_gpt.py
like "$out" "which ranks run on this node is not known \(node rank from rendezvous\): no rank is counted as missing" \
    "node rank from a rendezvous: unknown, and said so"
unlike "$out" "no data" "and no rank is reported missing"
is "$(pyq -c 'import json,sys; print(json.load(open(sys.argv[1]))["outputs"][0]["expected_ranks"])' rdzv.json)" \
    "None" "--json: expected_ranks null when unknown"

MAKE_RANKS="0" NO_PARSE=1 ITERS=5 go torchrun pretrain_gpt.py
like "$out" "not parsed \(no ASCEND_PROFILER_OUTPUT\)" "raw data without the parsed output is flagged"
like "$out" "Next: parse the raw data: msprof-exec analyse $T/profiling_output" \
    "raw data only: the next step is the offline parse"

SAY="RuntimeError: NPU out of memory. Tried to allocate 5.03 GiB (NPU 3; 60.96 GiB total capacity)" \
    EXIT=1 go torchrun pretrain_gpt.py
is "$rc" 1 "a failed training: its exit status"
like "$err" "Training script execution failed \(exit code: 1\). Profiling collection requires training to run normally." \
    "a failed training: the message"
like "$err" "cause: NPU out of memory: lower --micro-batch-size" "diagnosis: out of memory"

SAY="[W socket.cpp:426] [c10d] The server socket has failed to bind to [::]:6000 (errno: 98 - Address already in use)." \
    EXIT=1 go torchrun pretrain_gpt.py
like "$err" "cause: MASTER_PORT 6000 is already in use on this node .*set MASTER_PORT to a free port, e.g. [0-9]+" \
    "diagnosis: port in use, with a free port"

SAY="RuntimeError: Error(s) in loading state_dict: size mismatch for embedding.word_embeddings.weight: copying a param with shape torch.Size([75968, 4096]) from checkpoint, the shape in current model is torch.Size([37984, 4096])." \
    EXIT=1 go torchrun pretrain_gpt.py
like "$err" "cause: the checkpoint does not fit the model.*TP/PP" "diagnosis: size mismatch"

reset_run
printf 'torchrun pretrain_gpt.py | tee logs/train.log\n' > train.sh
msprof -y bash train.sh
like "$err" "cause: the script logs with '\| tee logs/...' but the logs directory does not exist: run 'mkdir -p logs' first" \
    "diagnosis: missing logs/ for tee"

# torch_npu's warnings when it collects nothing (reference section 6).
SAY="[WARNING] [123] dynamic_profile.py: Dynamic Profiler config is not effective. The start_step=-1, current_step=7" \
    EXIT=0 go torchrun pretrain_gpt.py
like "$err" "cause: the dynamic profiler ignored the trigger: .*needs torch_npu 2.7.1 or later.*trigger --start N" \
    "diagnosis: a dynamic trigger that was not effective"
SAY="Incorrect schedule: Stop profiler while current state is WARMUP which may result in incomplete parsed data." \
    EXIT=0 go torchrun pretrain_gpt.py
like "$err" "cause: training ended while the profiler was still warming up" "diagnosis: stopped in warm-up"
SAY="The path '/x/dyn' is invalid, and profiler will not be enabled." EXIT=0 go torchrun pretrain_gpt.py
like "$err" "cause: torch_npu refused the config directory /x/dyn \(PROF_CONFIG_PATH" "diagnosis: invalid dynamic config path"
SAY="[ERROR] [77] profiler.py: Profiling data parsing failed, error: KeyError" EXIT=0 go torchrun pretrain_gpt.py
like "$err" "cause: torch_npu could not parse the data online: .*msprof-exec analyse" "diagnosis: an online parse that failed"
SAY="AssertionError: profile_step_start should be greater than 0 but now it is 0" EXIT=1 go torchrun pretrain_gpt.py
like "$err" "cause: MindSpeed refused profile_step_start 0" "diagnosis: the start step assertion"
SAY="AssertionError: When loading checkpoint, iteration will be loaded from checkpoint, profile_step_start should be greater than 1000 but now it is 2." \
    EXIT=1 go torchrun pretrain_gpt.py
like "$err" "cause: the run resumes from iteration 1000 .*--steps 1001:1003" \
    "diagnosis: resumed past the window"

# msprof-exec report PATH redoes it for an existing output directory.
MAKE_RANKS="0" ITERS=5 go torchrun --nproc_per_node 2 pretrain_gpt.py
"$MSPROF" report profiling_output > rep.out 2> rep.err
is "$?" 0 "report PATH: exit 0 when everything expected is there"
like "$(<rep.out)" "rank 0: $(uname -n)_[0-9]+_[0-9]{17}_ascend_pt" "report PATH: finds the data"
like "$(<rep.out)" "torchrun pretrain_gpt.py: steps 2 to 4, excluding 4" \
    "report PATH: the launches from the session journal"
rm -rf profiling_output/*_ascend_pt
"$MSPROF" report profiling_output > rep.out 2> rep.err
is "$?" 65 "report PATH: exit 65 when expected data is missing"
like "$(<rep.out)" "rank 0: no data" "report PATH: names the missing rank"
# A directory of no known rank (no profiler_info_<rank>.json: killed
# before stop()) does not stand for the missing rank 0.
mkdir -p "profiling_output/$(uname -n)_99_$(date +%Y%m%d%H%M%S%3N)_ascend_pt/FRAMEWORK"
"$MSPROF" report --json unknown.json profiling_output > rep.out 2> rep.err
is "$?" 65 "report PATH: a directory of unknown rank does not hide a missing rank"
like "$(<rep.out)" "  rank unknown: $(uname -n)_99_" "a directory of unknown rank shows as 'rank unknown'"
unlike "$(<rep.out)" "rank -1" "never as 'rank -1'"
is "$(pyq -c 'import json,sys; print([f["rank"] for f in json.load(open(sys.argv[1]))["outputs"][0]["found"]])' unknown.json)" \
    "[None]" "--json: its rank is null (-1 would mean all ranks)"
"$MSPROF" report nowhere > /dev/null 2> rep.err
is "$?" 66 "report of a missing directory: exit 66"
"$MSPROF" report /etc/passwd > /dev/null 2> rep.err
is "$?" 66 "report of a file: exit 66"
like "$(<rep.err)" "/etc/passwd: not a directory" "report of a file: says it is not a directory"

# The messages say what happened, not what usually does.
# Training left running in the background: no shim warning, check later.
reset_run
printf 'nohup torchrun --nproc_per_node 1 pretrain_gpt.py > bg.log 2>&1 &\necho $! > bg.pid\n' > bg.sh
gate "$T/bg.gate"
GATE=$T/bg.gate MAKE_RANKS=0 ITERS=5 msprof -y bash bg.sh
like "$err" "(in the background \(nohup or '&' without 'wait'\)|the script detached \(setsid, nohup\) still run).*check later with:? '?msprof-exec report " \
    "training left in the background: it may still be running, check later"
unlike "$err" "Static programs" "... and no word of static programs, setuid or ssh"
"$MSPROF" report profiling_output > rep.out 2> rep.err
like "$(<rep.err)" "still running: .*again when they have ended" \
    "report while it still runs: data may still come"
release "$T/bg.gate"
wait_for "the background launch to end" gone "$(<bg.pid)"
"$MSPROF" report profiling_output > rep.out 2> rep.err
is "$?" 0 "report later: the background launch's data is there"
like "$(<rep.out)" "  rank 0: .*_ascend_pt" "report later: rank 0 found"
# A script that fails before any launch.
reset_run
printf 'cd ./no-such-dir || exit 3\ntorchrun pretrain_gpt.py\n' > early.sh
msprof -y bash early.sh
is "$rc" 3 "a script failing before any launch: its exit status"
like "$err" "the command ended before it started any training launch" \
    "failing before any launch: said so"
unlike "$err" "Static programs" "... not the shim warning"
# A step after the training fails; the training's data is complete.
reset_run
printf 'torchrun --nproc_per_node 1 pretrain_gpt.py\necho "convert: bad input" >&2; exit 2\n' > conv.sh
MAKE_RANKS=0 ITERS=5 msprof -y bash conv.sh
is "$rc" 2 "a conversion failing after training: its exit status"
like "$err" "The command failed \(exit code: 2\) after its training launch\(es\) finished; their profiling data is complete" \
    "a later step failing: the training's data is complete, and said so"
unlike "$err" "Training script execution failed" "... not a training failure"
# msprof-exec's own refusal is not the training's failure.  (A launch the
# scan finds is refused before the script runs: this one it cannot see.)
reset_run
printf 'eval "torchrun pretrain_gpt.py --load missing_ckpt"\n' > refused.sh
msprof -y bash refused.sh
is "$rc" 66 "a refused launch (missing --load): exit 66"
like "$err" "msprof-exec did not start the training launch: it refused it" \
    "a refusal: said to be msprof-exec's"
unlike "$err" "Training script execution failed" "... not a training failure"
# Training stopped inside the window by a failure or Ctrl-C: not a window
# past the end of training.
SAY="RuntimeError: NPU out of memory. Tried to allocate 5.03 GiB" ITERS=2 EXIT=1 go torchrun pretrain_gpt.py
like "$err" "training stopped at iteration 2, before the end of the window \(steps 2 to 4, excluding 4\): the failure or interruption above ended it" \
    "OOM inside the window: the failure ended it"
unlike "$err" "raise --train-iters" "OOM inside the window: no advice to lower --steps"
ITERS=2 EXIT=130 go torchrun pretrain_gpt.py
unlike "$err" "raise --train-iters" "Ctrl-C inside the window: no advice to lower --steps"
done_testing
