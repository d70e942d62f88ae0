#!/usr/bin/env bash
# Training launches reach the injector through every exec entry point: the
# real launcher runs once, with the profiling flags, without the shim and
# without MSPROF_EXEC_* variables; the session journal records the launch.
# PATH candidates that do not exist, directories and sh trampolines behave
# as glibc and CPython expect (reference 2.1, 2.9).
. "$(dirname "$0")/lib.sh"
plan 186

EXECS=$HELPERS/execs
unset LD_PRELOAD
for v in $(env | sed -n 's/^\(MSPROF_EXEC_[A-Za-z0-9_]*\)=.*/\1/p'); do
	unset "$v"
done
make_recorder torchrun
make_recorder msrun
make_py_recorder
export PATH="$RBIN:/usr/bin:/bin" PYTHONPATH="$PYREC"
cc -shared -fPIC -o "$T/other.so" -x c - <<'C'
int msprof_test_other;
C
ARGS="--nproc_per_node 1 pretrain_gpt.py --x"
WANT="$RBIN/torchrun $ARGS $DEFAULT_FLAGS"

# launch ARG...: msprof-exec -y ARG... in a fresh session and record area.
launch() {
	rm -rf profiling_output "$REC"/*.argv "$REC"/*.env
	"$MSPROF" -y --skip-checks "$@" > "$T/out" 2> "$T/err"
	rc=$?
}
# "INJECTED/RECORDS" of the journal.  (This file's helpers use shell
# builtins: it checks forty launches, five assertions each.)
journal_count() {
	local line text inj=0 all=0
	text=$(journal)
	while IFS= read -r line; do
		[ -n "$line" ] || continue
		all=$((all + 1))
		[[ $line == *'"status":"injected"'* ]] && inj=$((inj + 1))
	done <<< "$text"
	echo "$inj/$all"
}
# The driver's report, if any, says that the call worked.
called_ok() {
	local line
	while IFS= read -r line; do
		[[ $line =~ returned\ (-1|[1-9]) || $line == *'child status='[1-9]* ]] &&
		    return 1
	done < "$T/out"
	return 0
}
# first_recorded: $first is the first recorded argv file ("" when none).
first_recorded() {
	local f
	first=
	for f in "$REC"/*.argv; do [ -e "$f" ] && first=$f; break; done
}
# env_of VAR ARGV-FILE ERE: VAR is the lines of the environment recorded
# beside ARGV-FILE that match ERE, sorted, each followed by a space.
env_of() {
	local _l _k _s=() _i
	while IFS= read -r _l; do
		[[ $_l =~ $3 ]] || continue
		for ((_i = ${#_s[@]}; _i > 0; _i--)); do
			[[ ${_s[_i - 1]} > $_l ]] || break
			_s[_i]=${_s[_i - 1]}
		done
		_s[_i]=$_l
	done < "${2%.argv}.env"
	_k=
	for _l in "${_s[@]}"; do _k+="$_l "; done
	printf -v "$1" '%s' "$_k"
}
# check NAME WANT-ARGV: one launch, rewritten once, without the shim.
check() {
	if [ "$rc" -eq 0 ] && called_ok; then pass "$1: the call succeeds"
	else fail "$1: the call succeeds"; diag "status $rc" "$(cat "$T/out" "$T/err")"
	fi
	is "$(nrecorded)" 1 "$1: the launcher runs once"
	is "$(rec_argv)" "$2" "$1: the profiling flags are appended once"
	first_recorded
	env_of env "$first" 'MSPROF_EXEC_|msprof-exec-shim'
	is "$env" "" \
	    "$1: no MSPROF_EXEC_* and no shim in the launcher's environment"
	is "$(journal_count)" 1/1 "$1: one journal record, status injected"
}

# Each entry point, with the launcher's absolute path.
for fn in execve execv execl execle fexecve posix_spawn execvp execlp \
    execvpe posix_spawnp; do
	launch "$EXECS" "$fn" "$RBIN/torchrun" $ARGS
	check "$fn $RBIN/torchrun" "$WANT"
done
# The searching ones, with the name on PATH.
for fn in execvp execlp execvpe posix_spawnp; do
	launch "$EXECS" "$fn" torchrun $ARGS
	check "$fn torchrun (PATH)" "$WANT"
done

# An explicit envp with the shim among other preloads (twice: ld.so uses
# the last LD_PRELOAD): the launcher keeps the other preload, alone.
for fn in execve execle execvpe fexecve posix_spawn posix_spawnp; do
	launch "$EXECS" -e "LD_PRELOAD=$T/other.so:$SHIM" \
	    -e "LD_PRELOAD=$SHIM $T/other.so" -e "MSPROF_EXEC_X=1" \
	    -e "PATH=/usr/bin:/bin" -e KEEP=me "$fn" "$RBIN/torchrun" $ARGS
	first_recorded
	env_of env "$first" '^(LD_PRELOAD|KEEP|MSPROF_EXEC_[A-Z_]*)='
	is "$env" "KEEP=me LD_PRELOAD=$T/other.so " \
	    "$fn with an envp: launcher gets the other preload and KEEP only"
done

# What the shim itself hands the injector (contract.h): MODE SESSION PATH
# ARGV..., in an environment without the shim and the session variables
# (other preloads kept).  A stand-in injector records it.
cat > fakeinj <<EOS
#!/bin/sh
for a in "\$@"; do printf '%s\n' "\$a"; done > "$REC/inject.\$\$.argv"
env > "$REC/inject.\$\$.env"
EOS
chmod +x fakeinj
for fn in execve execv execl execle fexecve posix_spawn execvp execlp \
    execvpe posix_spawnp; do
	case $fn in
	posix_spawn*) mode=spawn ;;
	*p*) mode=search ;;
	*) mode=exec ;;
	esac
	case $mode in
	search) file=torchrun ;;
	*) file=$RBIN/torchrun ;;
	esac
	rm -f "$REC"/*.argv "$REC"/*.env
	(shim_session; export MSPROF_EXEC_INJECTOR=$T/fakeinj \
	    LD_PRELOAD="$SHIM:$T/other.so"; "$EXECS" "$fn" "$file" $ARGS) \
	    > "$T/out" 2>&1
	is "$(rec_argv)" "$mode $T/session $RBIN/torchrun $file $ARGS" \
	    "$fn: the shim runs the injector with MODE SESSION PATH ARGV"
	first_recorded
	env_of env "$first" '^(MSPROF_EXEC_[A-Z_]*|LD_PRELOAD)='
	is "$env" "LD_PRELOAD=$T/other.so " \
	    "$fn: the injector's environment: no shim, no session, other preload"
done

# The searching ones look in the caller's PATH, not in envp's.
for fn in execvpe posix_spawnp; do
	launch "$EXECS" -e PATH=/usr/bin:/bin -e "LD_PRELOAD=$SHIM" "$fn" \
	    torchrun $ARGS
	check "$fn torchrun, envp with another PATH" "$WANT"
done

# A bare name is not searched by execve: nothing to inject, the caller
# sees glibc's ENOENT.
launch "$EXECS" execve torchrun $ARGS
is "$(<"$T/out")" "execve returned -1 errno=ENOENT" \
    "execve torchrun (no slash): ENOENT as glibc"
is "$(nrecorded):$(journal_count)" "0:0/0" \
    "execve torchrun (no slash): nothing runs, nothing recorded"

# CPython runs every PATH candidate with execv (execve with env=): the
# missing ones must fail as usual so that its search goes on.
mkdir -p emptydir dirbin/torchrun noxbin
printf '#!/bin/sh\nexit 3\n' > noxbin/torchrun
chmod 644 noxbin/torchrun
SEARCH=/nonexistent1:$T/emptydir:$RBIN:/usr/bin:/bin
launch "$PY" -c "import subprocess
subprocess.run(['torchrun'] + '$ARGS'.split(), check=True)"
check "CPython subprocess.run, PATH search" "$WANT"
PATH=$SEARCH launch "$PY" -c "import subprocess
subprocess.run(['torchrun'] + '$ARGS'.split(), check=True)"
check "CPython subprocess.run, missing PATH candidates first" "$WANT"
PATH=$SEARCH launch "$PY" -c "import os, subprocess
subprocess.run(['torchrun'] + '$ARGS'.split(), check=True,
    env=dict(os.environ))"
check "CPython subprocess.run env=, missing PATH candidates first" "$WANT"

# A directory or a file without x bit named torchrun earlier on PATH is
# skipped, as glibc's and CPython's searches skip it.
SKIP=$T/dirbin:$T/noxbin:$RBIN:/usr/bin:/bin
for fn in execvp execlp execvpe posix_spawnp; do
	PATH=$SKIP launch "$EXECS" "$fn" torchrun $ARGS
	check "$fn, directory and no-x torchrun first on PATH" "$WANT"
done
PATH=$SKIP launch "$PY" -c "import subprocess
subprocess.run(['torchrun'] + '$ARGS'.split(), check=True)"
check "CPython subprocess.run, directory and no-x torchrun first" "$WANT"

# A torchrun whose #! interpreter is gone (a deleted venv) fails with
# ENOENT, and glibc's and CPython's searches go on to the next candidate.
mkdir -p stale
printf '#!%s/stale/python\n' "$T" > stale/torchrun
chmod +x stale/torchrun
STALE=$T/stale:$RBIN:/usr/bin:/bin
for how in "execvp" "posix_spawnp" "CPython"; do
	if [ "$how" = CPython ]; then
		PATH=$STALE launch "$PY" -c "import subprocess
subprocess.run(['torchrun'] + '$ARGS'.split(), check=True)"
	else
		PATH=$STALE launch "$EXECS" "$how" torchrun $ARGS
	fi
	if [ "$rc" -eq 0 ] && called_ok; then
		pass "$how, stale torchrun first on PATH: the search goes on"
	else
		fail "$how, stale torchrun first on PATH: the search goes on"
		diag "status $rc" "$(cat "$T/out" "$T/err")"
	fi
	is "$(nrecorded):$(rec_argv 2>/dev/null)" "1:$WANT" \
	    "$how, stale torchrun first on PATH: the next one runs, profiled"
done
# A candidate that fails otherwise (ELOOP) ends glibc's search.
mkdir -p loop
ln -s loop1 loop/loop2
ln -s loop2 loop/loop1
ln -s loop1 loop/torchrun
want="execvp returned -1 errno=ELOOP"
is "$(PATH=$T/loop:$PATH "$EXECS" execvp torchrun $ARGS 2>&1)" "$want" \
    "execvp, symlink loop named torchrun first on PATH: glibc says ELOOP"
PATH=$T/loop:$PATH launch "$EXECS" execvp torchrun $ARGS
is "$(grep '^execvp ' "$T/out"):$(nrecorded)" "$want:0" \
    "execvp, symlink loop named torchrun first on PATH: ELOOP, as glibc"

# A pip/distlib sh trampoline (long interpreter path): torchrun execs sh,
# which execs python on the same file, a second hop that must not be
# rewritten again.
mkdir -p tramp
cat > tramp/torchrun <<EOS
#!/bin/sh
'''exec' "$PY" "\$0" "\$@"
' '''
import os, sys
p = "$REC/torchrun.%d" % os.getpid()
open(p + ".argv", "w").write("\n".join(sys.argv) + "\n")
open(p + ".env", "w").write("".join("%s=%s\n" % kv
    for kv in os.environ.items()))
EOS
chmod +x tramp/torchrun
PATH=$T/tramp:$PATH launch "$EXECS" execvp torchrun $ARGS
TRAMPWANT="$T/tramp/torchrun $ARGS $DEFAULT_FLAGS"
check "sh trampoline torchrun via execvp" "$TRAMPWANT"
PATH=$T/tramp:$PATH launch bash -c "torchrun $ARGS"
check "sh trampoline torchrun from bash" "$TRAMPWANT"

# The other launch forms, through a few entry points.
launch "$EXECS" posix_spawn "$RBIN/msrun" --worker_num 1 pretrain_gpt.py
check "posix_spawn msrun" \
    "$RBIN/msrun --worker_num 1 pretrain_gpt.py $DEFAULT_FLAGS"
launch "$EXECS" execvp python3 -m torch.distributed.run $ARGS
check "execvp python3 -m torch.distributed.run" "run $ARGS $DEFAULT_FLAGS"
launch "$EXECS" -a python3 posix_spawn "$PY" -u -m torch.distributed.launch \
    $ARGS
check "posix_spawn python3 -u -m torch.distributed.launch" \
    "launch $ARGS $DEFAULT_FLAGS"
cat > pretrain_gpt.py <<EOS
import os, sys
p = "$REC/entry.%d" % os.getpid()
open(p + ".argv", "w").write("\n".join(sys.argv) + "\n")
open(p + ".env", "w").write("".join("%s=%s\n" % kv
    for kv in os.environ.items()))
EOS
launch "$EXECS" execl "$PY" pretrain_gpt.py --x
check "execl python pretrain_gpt.py" "pretrain_gpt.py --x $DEFAULT_FLAGS"
done_testing
