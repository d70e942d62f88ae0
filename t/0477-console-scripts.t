#!/usr/bin/env bash
# Console scripts of Python packages (launchers.conf's 'console' rows):
# the kernel runs fairseq-train's "#!" Python, so the shim sees the exec
# of the script itself; it is read as python fairseq-train would be, and
# its cli_main() of fairseq_cli.train (a row of trainings.conf) makes it
# a training: PROF_CONFIG_PATH, one process collected.  A console script
# no row names (fairseq-generate) runs exactly as without msprof-exec.
. "$(dirname "$0")/lib.sh"
. "$TOP/t/plain-python.sh"
own_pycache
sim_env
D=$TOP/t/data/libtrain/fairseq
export MSPROF_SIM_DP_HOLD=$MSPROF_T_WAIT_LIMIT ITERS=8
export PATH=$T/w/bin:$PATH PYTHONPATH=$T/w/lib:$PYTHONPATH
OUT=$T/out
WHY='fairseq-train:[0-9]+: cli_main\(\) \(fairseq\)'

# profiled NAME COMMAND...: run COMMAND in a copy of the checkout; one
# launch injected for the row's call, one process collected.
profiled() {
	local name=$1
	shift
	rm -rf "$T/w" "$OUT"
	cp -R "$D" "$T/w"
	(cd "$T/w" && msprof -y --steps 3:5 -o "$OUT" "$@"
	    printf '%s\n' "$rc" > "$T/rc"; printf '%s\n' "$out" > "$T/o")
	is "$(< "$T/rc")" 0 "$name: exit 0"
	is "$(njournal injected "$OUT")" 1 "$name: taken for training"
	like "$(journal "$OUT")" "\"reason\":\"[^\"]*$WHY" "$name: for cli_main()"
	like "$(journal "$OUT")" '"script":"[^"]*fairseq-train"' "$name: the console script is the entry"
	is "$(ls -d "$OUT"/*_ascend_pt/profiler_info*.json | wc -l | tr -d ' ')" 1 \
	    "$name: one process collected"
	like "$(journal "$OUT")" '"expected_ranks":\[0\]' "$name: rank 0, and only it"
}
profiled "fairseq-train by name" fairseq-train data-bin/iwslt14 --arch \
    transformer --max-epoch 1
profiled "train.sh running fairseq-train" bash train.sh
profiled "python3 bin/fairseq-train" python3 bin/fairseq-train data-bin/x

# The dry run reads it from PATH, as the shell would run it.
cd "$T/w"
msprof -n fairseq-train data-bin/iwslt14 --arch transformer
like "$out" "training: [^ ]*$WHY" "-n: fairseq-train is a training, and why"
msprof -n bash train.sh
like "$out" "training: [^ ]*$WHY" "-n: train.sh's fairseq-train too"

# fairseq-generate, which no row names: as without msprof-exec.
same() {
	local name=$1
	shift
	"$@" > "$T/plain.out" 2> "$T/plain.err"
	local want=$?
	rm -rf "$OUT"
	"$MSPROF" --skip-checks -y -o "$OUT" "$@" > "$T/m.out" 2> "$T/m.err"
	is "$?" "$want" "$name: the same exit status ($want)"
	is "$(< "$T/m.out")" "$(< "$T/plain.out")" "$name: the same output"
	is "$(journal "$OUT" | grep -c '"status"')" 0 "$name: nothing recorded"
}
same "fairseq-generate" fairseq-generate data-bin/iwslt14 --path x.pt
same "bash: fairseq-generate, exit 4" bash -c 'fairseq-generate d && exit 4'
same "a console script of the table that is not there" bash -c \
    'exec /nonexistent/bin/fairseq-train x'
done_testing
