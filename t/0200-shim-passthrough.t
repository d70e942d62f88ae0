#!/usr/bin/env bash
# For programs it does not target, the shim is invisible: each of the ten
# exec entry points returns, sets errno and searches PATH exactly as glibc
# does (issue: "return values, errno and PATH search behave exactly as
# glibc's"; reference exec-interposition.md 2.9, 2.11, 4).
. "$(dirname "$0")/lib.sh"

EXECS=$HELPERS/execs
unset LD_PRELOAD
for v in $(env | sed -n 's/^\(MSPROF_EXEC_[A-Za-z0-9_]*\)=.*/\1/p'); do
	unset "$v"
done
FUNCS="execve execv execl execle fexecve posix_spawn execvp execlp execvpe
posix_spawnp"
DEF=/usr/bin:/bin

# Fixtures, in the test's directory (the current directory).
printf '#!/bin/sh\necho hello "$@"\n' > hello
printf '#!/bin/sh\necho noexec\n' > noexec
printf 'echo script-ran "$0" "$@"\n' > noshebang
printf '\001\002\003garbage\377\376\000\001\n' > garbage
printf '#!/nonexistent/interp\necho x\n' > badinterp
chmod 755 hello noshebang garbage badinterp
chmod 644 noexec
: > notadir
mkdir -p dirA/prog dirB dirC dirG emptydir
cp noexec dirB/prog
cp hello dirC/prog
cp garbage dirG/gprog
cp noshebang dirG/tprog

# outcomes PATH [shim] < CASES: one execs -b run over CASES (a line each:
# the driver's arguments, tab-separated), started with PATH in its
# environment (PATH "-": without PATH), with "shim" the shim loaded in an
# active session; each call runs in a child of its own.  Sets the array
# OUTCOMES, an element a call: its stdout, "--stderr--", its stderr,
# "--status N--".
outcomes() {
	local text line rec=
	text=$(if [ "${2:-}" = shim ]; then
		shim_session
		export LD_PRELOAD=$SHIM
	    fi
	    if [ "$1" = - ]; then unset PATH; else PATH=$1; fi
	    exec "$EXECS" -b)
	OUTCOMES=()
	while IFS= read -r line; do
		if [ "$line" = --end-- ]; then
			OUTCOMES+=("${rec%$'\n'}")
			rec=
		else
			rec+=$line$'\n'
		fi
	done <<< "$text"
}

# has_exact OUT LINE: OUT has the line LINE.
has_exact() { [[ $'\n'$1$'\n' == *$'\n'"$2"$'\n'* ]]; }
# expected FUNCTION KIND OUTCOME: does the run without the shim show KIND?
#   ok:TEXT   the program ran and printed the line TEXT ('@' for a space)
#   ran       the exec itself succeeded (whatever the program then did)
#   EXXX      the call failed with that error
expected() {
	local fn=$1 kind=$2 out=$3 line
	line=${kind#ok:}
	line=${line//@/ }
	case $kind:$fn in
	ok:*:posix_spawn*)
		has_exact "$out" "$line" && has_exact "$out" "$fn returned 0" &&
		    has_exact "$out" 'child status=0' ;;
	ok:*)
		has_exact "$out" "$line" && [[ $out != *" returned "* ]] ;;
	ran:*)
		[[ $out != *" returned "* ]] ;;
	*:posix_spawn*)
		while IFS= read -r line; do
			[[ $line =~ ^$fn\ returned\ [0-9]+\ $kind$ ]] && return 0
		done <<< "$out"
		return 1 ;;
	*)
		has_exact "$out" "$fn returned -1 errno=$kind" ;;
	esac
}

# same NAME PATH OPTS FILE ARGS KINDS: for every function, the driver's
# outcome is KIND (from KINDS: "plain fexecve posix_spawn p-exec
# posix_spawnp") without the shim, and identical with it.  Each function
# is called in a child of one driver (one without the shim, one with it),
# started with PATH as given.
same() {
	local name=$1 path=$2 opts=$3 file=$4 args=$5 kinds=$6 fn kind
	local cases= line words i=0 base=() shim=()
	for fn in $FUNCS; do
		words=($opts "$fn" "$file" $args)	# OPTS, ARGS: word lists
		printf -v line '%s\t' "${words[@]}"
		cases+=${line%$'\t'}$'\n'
	done
	outcomes "$path" <<< "${cases%$'\n'}"
	base=("${OUTCOMES[@]}")
	outcomes "$path" shim <<< "${cases%$'\n'}"
	shim=("${OUTCOMES[@]}")
	set -- $kinds
	for fn in $FUNCS; do
		case $fn in
		fexecve) kind=$2 ;;
		posix_spawn) kind=$3 ;;
		execvp|execlp|execvpe) kind=$4 ;;
		posix_spawnp) kind=$5 ;;
		*) kind=$1 ;;
		esac
		if [ "${base[i]-}" = "${shim[i]-}" ] && [ -n "${base[i]-}" ] &&
		    expected "$fn" "$kind" "${base[i]}"; then
			pass "$fn, $name: $kind, same with the shim"
		else
			fail "$fn, $name: $kind, same with the shim"
			diag "without the shim:" "${base[i]-}" "with the shim:" "${shim[i]-}"
		fi
		i=$((i + 1))
	done
}

NCASES=22
plan $((NCASES * 10 + 28))

same "absolute path" $DEF "" /bin/echo "hi there" \
    "ok:hi@there ok:hi@there ok:hi@there ok:hi@there ok:hi@there"
same "missing file" $DEF "" "$T/missing" "hi" \
    "ENOENT EINVAL ENOENT ENOENT ENOENT"
same "file without x bit" $DEF "" "$T/noexec" "hi" \
    "EACCES EACCES EACCES EACCES EACCES"
same "a directory" $DEF "" "$T/dirA/prog" "hi" \
    "EACCES EACCES EACCES EACCES EACCES"
same "binary garbage" $DEF "" "$T/garbage" "hi" \
    "ENOEXEC ENOEXEC ENOEXEC ran ENOEXEC"
same "text without #!" $DEF "" "$T/noshebang" "hi" \
    "ENOEXEC ENOEXEC ENOEXEC ok:script-ran@$T/noshebang@hi ENOEXEC"
same "missing #! interpreter" $DEF "" "$T/badinterp" "hi" \
    "ENOENT ENOENT ENOENT ENOENT ENOENT"
same "relative path" $DEF "" ./hello "hi" \
    "ok:hello@hi ok:hello@hi ok:hello@hi ok:hello@hi ok:hello@hi"
same "empty name" $DEF "" "" "hi" \
    "ENOENT EINVAL ENOENT ENOENT ENOENT"
same "name on PATH" $DEF "" echo "hi" \
    "ENOENT EINVAL ENOENT ok:hi ok:hi"
same "missing name" $DEF "" no-such-program-xyz "hi" \
    "ENOENT EINVAL ENOENT ENOENT ENOENT"
same "name: a directory, then no x bit" "$T/dirA:$T/dirB" "" prog "hi" \
    "ENOENT EINVAL ENOENT EACCES EACCES"
same "name: a directory and no x bit skipped" "$T/dirA:$T/dirB:$T/dirC" "" \
    prog "hi" "ENOENT EINVAL ENOENT ok:hello@hi ok:hello@hi"
same "name: nonexistent directories first" \
    "/nonexistent1:/nonexistent2/sub:$T/notadir:$T/emptydir:$T/dirC" "" \
    prog "hi" "ENOENT EINVAL ENOENT ok:hello@hi ok:hello@hi"
same "name: binary garbage on PATH" "$T/dirG" "" gprog "hi" \
    "ENOENT EINVAL ENOENT ran ENOEXEC"
same "name: text without #! on PATH" "$T/emptydir:$T/dirG" "" tprog "hi" \
    "ENOENT EINVAL ENOENT ok:script-ran@$T/dirG/tprog@hi ENOEXEC"
same "name: empty PATH element last" "/nonexistent1:" "" hello "hi" \
    "ok:hello@hi ok:hello@hi ok:hello@hi ok:hello@hi ok:hello@hi"
same "name: empty PATH element first" ":/nonexistent1" "" hello "hi" \
    "ok:hello@hi ok:hello@hi ok:hello@hi ok:hello@hi ok:hello@hi"
same "name: empty PATH element inside" "$T/emptydir::/nonexistent1" "" \
    hello "hi" "ok:hello@hi ok:hello@hi ok:hello@hi ok:hello@hi ok:hello@hi"
same "name: PATH empty" "" "" hello "hi" \
    "ok:hello@hi ok:hello@hi ok:hello@hi ok:hello@hi ok:hello@hi"
same "name: no PATH (the C library default)" - "" echo "hi" \
    "ENOENT EINVAL ENOENT ok:hi ok:hi"
# The p-functions search the caller's PATH, not the one in envp.
same "name, envp with another PATH" $DEF "-e PATH=$T/dirC -e X=1" echo "hi" \
    "ENOENT EINVAL ENOENT ok:hi ok:hi"

# The runs above did load the shim.
like "$(shim_session; LD_PRELOAD=$SHIM cat /proc/self/maps)" \
    "${SHIM##*/}" "the shim is loaded in the runs with it"

# The shim's constructor leaves errno alone: without a session, in one,
# and in one whose files are missing or whose variables overflow its copy.
ERRNO0=$HELPERS/errno0
base=$("$ERRNO0")
is "$(LD_PRELOAD=$SHIM "$ERRNO0")" "$base" "errno in main: no session"
is "$(shim_session; LD_PRELOAD=$SHIM "$ERRNO0")" "$base" \
    "errno in main: an active session"
big=$(head -c 6000 /dev/zero | tr '\0' x)
is "$(shim_session; export MSPROF_EXEC_SHIM=$T/missing.so \
    MSPROF_EXEC_INJECTOR=$T/missing MSPROF_EXEC_SESSION=$T/missing \
    MSPROF_EXEC_A=$big MSPROF_EXEC_B=$big MSPROF_EXEC_C=$big
    for i in $(seq 1 20); do export MSPROF_EXEC_X$i=$i; done
    LD_PRELOAD=$SHIM "$ERRNO0")" "$base" \
    "errno in main: missing session files, too many variables"

# CPython: subprocess (vfork + execv/execve per PATH candidate, or
# posix_spawn) and os.posix_spawnp give the same results and exceptions.
cat > sub.py <<PY
import os, subprocess, sys
T = "$T"
DEF = "$DEF"
def show(label, f):
    try:
        r = f()
    except OSError as e:
        r = "%s errno=%s" % (type(e).__name__, e.errno)
    print("%s: %s" % (label, r))
def run(args, **kw):
    p = subprocess.run(args, capture_output=True, **kw)
    return "rc=%d out=%r err=%r" % (p.returncode, p.stdout, p.stderr)
def spawn(fn, path, args, env=None, path_list=DEF):
    os.environ["PATH"] = path_list     # posix_spawnp searches the caller's
    pid = fn(path, args, os.environ if env is None else env)
    os.environ["PATH"] = DEF
    return "status=%d" % os.waitpid(pid, 0)[1]
show("missing program", lambda: run(["no-such-program-xyz"]))
show("not executable, by name", lambda: run(["noexec"], env={"PATH": T}))
show("not executable, by path", lambda: run([T + "/noexec"]))
show("normal program", lambda: run(["echo", "hi"]))
show("normal program, env=", lambda: run(["echo", "hi"], env={"PATH": DEF}))
show("missing program, env=", lambda: run(["no-such-program-xyz"],
    env={"PATH": "/nonexistent1:" + T + "/emptydir"}))
show("directory then no x bit", lambda: run(["prog"],
    env={"PATH": T + "/dirA:" + T + "/dirB"}))
show("directory and no x bit skipped", lambda: run(["prog"],
    env={"PATH": T + "/dirA:" + T + "/dirB:" + T + "/dirC"}))
show("binary garbage", lambda: run([T + "/garbage"]))
show("posix_spawn path", lambda: run([T + "/hello", "x"], close_fds=False))
show("posix_spawn path, no x bit", lambda: run([T + "/noexec"],
    close_fds=False))
show("os.posix_spawnp", lambda: spawn(os.posix_spawnp, "echo", ["echo", "hi"]))
show("os.posix_spawnp missing", lambda: spawn(os.posix_spawnp,
    "no-such-program-xyz", ["x"]))
show("os.posix_spawnp garbage", lambda: spawn(os.posix_spawnp, "gprog",
    ["gprog"], {}, "/nonexistent1:" + T + "/dirG"))
show("os.posix_spawnp directory then found", lambda: spawn(os.posix_spawnp,
    "prog", ["prog"], {}, T + "/dirA:" + T + "/dirB:" + T + "/dirC"))
show("os.posix_spawn no x bit", lambda: spawn(os.posix_spawn, T + "/noexec",
    ["noexec"], {}))
PY
want="missing program: FileNotFoundError errno=2
not executable, by name: PermissionError errno=13
not executable, by path: PermissionError errno=13
normal program: rc=0 out=b'hi\n' err=b''
normal program, env=: rc=0 out=b'hi\n' err=b''
missing program, env=: FileNotFoundError errno=2
directory then no x bit: PermissionError errno=13
directory and no x bit skipped: rc=0 out=b'hello\n' err=b''
binary garbage: OSError errno=8
posix_spawn path: rc=0 out=b'hello x\n' err=b''
posix_spawn path, no x bit: PermissionError errno=13
hi
os.posix_spawnp: status=0
os.posix_spawnp missing: FileNotFoundError errno=2
os.posix_spawnp garbage: OSError errno=8
hello
os.posix_spawnp directory then found: status=0
os.posix_spawn no x bit: PermissionError errno=13"
base=$(PATH=$DEF "$PY" -u sub.py 2>&1)
is "$base" "$want" "CPython without the shim: the expected results"
shim=$(shim_session; PATH=$DEF LD_PRELOAD=$SHIM "$PY" -u sub.py 2>&1)
# first_with VAR TEXT STRING: VAR is the first line of TEXT with STRING.
first_with() {
	local _l
	printf -v "$1" '%s' ''
	while IFS= read -r _l; do
		[[ $_l == *"$3"* ]] && { printf -v "$1" '%s' "$_l"; return; }
	done <<< "$2"
}
while IFS= read -r line; do
	[[ $line == *": "* ]] || continue
	label=${line%%: *}
	first_with got "$shim" "$label: "
	first_with want "$base" "$label: "
	is "$got" "$want" "CPython, $label: same with the shim"
done <<< "$base"
is "$shim" "$base" "CPython: the whole output is the same with the shim"
# At the size limit of argv + envp (E2BIG), putting the shim back into an
# environment that lost it must not turn a working exec into a failing one:
# the original call is retried (reference 2.10, rule 11).
cat > big.py <<'PY'
import os, resource, sys
def attempt(how, n):
    pid = os.fork()
    if pid == 0:
        resource.setrlimit(resource.RLIMIT_STACK,
            (256 * 1024, resource.RLIM_INFINITY))    # limit: 128 KiB
        args = ["true", "x" * n]
        try:
            if how == "execve":
                os.execve("/bin/true", args, {})
            p = os.posix_spawn("/bin/true", args, {})
            os._exit(os.waitstatus_to_exitcode(os.waitpid(p, 0)[1]))
        except OSError as e:
            os._exit(100 + e.errno)
    return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
how = sys.argv[1]
if len(sys.argv) == 2:
    lo, hi = 1000, 200000       # the largest argument that works
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if attempt(how, mid) == 0 else (lo, mid)
    print(lo)
else:
    r = attempt(how, int(sys.argv[2]))
    print("ok" if r == 0 else "errno=%d" % (r - 100))
PY
for how in execve posix_spawn; do
	n=$("$PY" big.py $how)
	base=$("$PY" big.py $how "$n")
	shim=$(shim_session; LD_PRELOAD=$SHIM "$PY" big.py $how "$n")
	is "$base:$shim" "ok:ok" \
	    "$how with env={} at the argument size limit: works with the shim"
done

# glibc's own argument checks come first, even for a launcher: fexecve with
# no argv or no environment fails with EINVAL.
make_recorder torchrun
cat > edge.c <<'EOF2'
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
int
main(int argc, char **argv)
{
	char *av[] = { "torchrun", "x", NULL }, *ev[] = { "A=1", NULL };
	int fd = open(argv[1], O_RDONLY);

	if (strcmp(argv[2], "noenv") == 0)
		fexecve(fd, av, NULL);
	else
		fexecve(fd, NULL, ev);
	printf("errno=%d\n", errno);
	return 0;
}
EOF2
cc -o edge edge.c
for how in noenv noargv; do
	base=$(./edge "$RBIN/torchrun" $how 2>&1)
	shim=$(shim_session; LD_PRELOAD=$SHIM ./edge "$RBIN/torchrun" $how 2>&1)
	is "$shim" "$base" "fexecve $how, active session: as glibc ($base)"
done
is "$(nrecorded)" 0 "fexecve with no argv or no environment: nothing ran"
# execl takes as many arguments as glibc's (the shim's other bounds are
# 65536): 70000 here.
{
	echo '#include <unistd.h>'
	echo '#define X10 "x","x","x","x","x","x","x","x","x","x"'
	echo '#define X100 X10,X10,X10,X10,X10,X10,X10,X10,X10,X10'
	echo '#define X1000 X100,X100,X100,X100,X100,X100,X100,X100,X100,X100'
	echo '#define X10000 X1000,X1000,X1000,X1000,X1000,X1000,X1000,X1000,X1000,X1000'
	echo 'int main(void) { execl("/bin/true", X10000, X10000, X10000, X10000, X10000, X10000, X10000, (char *)0); return 9; }'
} > many.c
cc -o many many.c
./many; base=$?
shim=$(shim_session; LD_PRELOAD=$SHIM ./many; echo $?)
is "$base:$shim" "0:0" "execl with 70000 arguments, active session: runs, as without the shim"
done_testing
