#!/usr/bin/env bash
# The shim finds its real exec functions as dlsym(RTLD_NEXT) would, but
# reads them from the C library's symbol table itself when nothing lies
# between (shim/next.c).  A probe library built from the same source
# compares its answers with dlsym(RTLD_NEXT) for many names, alone and
# with other preloads before and after it, and when loaded with dlopen;
# LD_DEBUG shows when it asked the loader.  Then the shim itself, with a
# preload after it that wraps the exec functions: each call goes through
# that wrapper, as RTLD_NEXT requires.
. "$(dirname "$0")/lib.sh"

unset LD_PRELOAD
for v in $(env | sed -n 's/^\(MSPROF_EXEC_[A-Za-z0-9_]*\)=.*/\1/p'); do
	unset "$v"
done
export PATH=/usr/bin:/bin
EXECS=$HELPERS/execs
other_preloads
FIVE="execve execvpe fexecve posix_spawn posix_spawnp"
# Plain functions, several versions (posix_spawn, realpath), an IFUNC
# (memcpy), data (environ), a name libc lacks.
NAMES="$FIVE malloc realpath pthread_create memcpy environ getenv
no_such_function_msprof"

cat > probe.c <<'C'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include "next.h"

static const char *const names[] = { NAMES };
#define N (sizeof(names) / sizeof(names[0]))

static const char *
where(void *p)
{
	Dl_info info;
	const char *s;

	if (p == NULL)
		return "NULL";
	if (dladdr(p, &info) == 0 || info.dli_fname == NULL)
		return "?";
	s = strrchr(info.dli_fname, '/');
	return s != NULL ? s + 1 : info.dli_fname;
}

__attribute__((constructor)) static void
probe(void)
{
	void *mine[N];
	size_t i;

	fprintf(stderr, "probe: start\n");
	next_symbols(names, NULL, mine, N);
	fprintf(stderr, "probe: done\n");
	for (i = 0; i < N; i++) {
		void *ref = dlsym(RTLD_NEXT, names[i]);

		printf("%s %s %s\n", names[i], mine[i] == ref ? "same" : "DIFFERENT",
		    where(mine[i]));
	}
	fflush(stdout);
}
C
quoted=$(printf '"%s", ' $NAMES)
cc -shared -fPIC -O2 -D_GNU_SOURCE -DNAMES="${quoted%, }" -I"$TOP/shim" \
    -o probe.so probe.c "$TOP/shim/next.c" -ldl 2> cc.err ||
    { echo "1..0 # SKIP no C compiler: $(head -n 1 cc.err)"; exit 0; }

# A preload that wraps the five functions: it notes the call, then calls
# the next definition, as interposers do.
cat > wrap.c <<'C'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>

static void
note(const char *fn)
{
	const char *f = getenv("WRAP_LOG");
	FILE *o = f != NULL ? fopen(f, "a") : NULL;

	if (o != NULL) {
		fprintf(o, "wrap %s\n", fn);
		fclose(o);
	}
}

#define NEXT(fn) ((__typeof__(&fn))dlsym(RTLD_NEXT, #fn))
int execve(const char *p, char *const a[], char *const e[])
{ note("execve"); return NEXT(execve)(p, a, e); }
int execvpe(const char *p, char *const a[], char *const e[])
{ note("execvpe"); return NEXT(execvpe)(p, a, e); }
int fexecve(int fd, char *const a[], char *const e[])
{ note("fexecve"); return NEXT(fexecve)(fd, a, e); }
int posix_spawn(pid_t *pid, const char *p, const posix_spawn_file_actions_t *f,
    const posix_spawnattr_t *at, char *const a[], char *const e[])
{ note("posix_spawn"); return NEXT(posix_spawn)(pid, p, f, at, a, e); }
int posix_spawnp(pid_t *pid, const char *p, const posix_spawn_file_actions_t *f,
    const posix_spawnattr_t *at, char *const a[], char *const e[])
{ note("posix_spawnp"); return NEXT(posix_spawnp)(pid, p, f, at, a, e); }
C
cc -shared -fPIC -O2 -o wrap.so wrap.c -ldl || fail "cc wrap.so"
WRAP=$T/wrap.so

# probe_run PRELOAD...: run /bin/true with the preloads; sets $res (the
# probe's table) and $asked (the names it asked the loader for).
probe_run() {
	LD_DEBUG=symbols LD_PRELOAD="$*" /bin/true > res 2> debug
	res=$(<res)
	asked=$(sed -n '/probe: start/,/probe: done/p' debug |
	    sed -n 's/.*symbol=\([A-Za-z_0-9]*\);.*/\1/p' | sort -u | tr '\n' ' ')
}
all_same() { printf '%s\n' "$res" | grep -c ' same ' | tr -d ' '; }
from() { printf '%s\n' "$res" | awk -v n="$1" '$1 == n { print $3 }'; }
nnames=$(printf '%s\n' $NAMES | wc -l | tr -d ' ')

probe_run "$T/probe.so"
is "$(all_same)" "$nnames" "alone: every name as dlsym(RTLD_NEXT) has it"
for fn in $FIVE; do
	is "$(from "$fn")" libc.so.6 "alone: $fn from libc.so.6"
done
for fn in $FIVE; do
	unlike "$asked" "(^| )$fn " "alone: $fn read from libc's table, not asked"
done
like "$asked" "(^| )memcpy " "an IFUNC goes to the loader"
like "$asked" "(^| )environ " "data goes to the loader"

probe_run "$T/probe.so" "$OTHER" "$OTHER2"
is "$(all_same)" "$nnames" "preloads after it that define none: the same"
unlike "$asked" "(^| )execve " "... and execve still from libc's table"

probe_run "$OTHER" "$T/probe.so" "$WRAP"
is "$(all_same)" "$nnames" "a wrapper after it: the same as dlsym"
for fn in $FIVE; do
	is "$(from "$fn")" wrap.so "a wrapper after it: $fn is the wrapper's"
done
is "$(from malloc)" libc.so.6 "... malloc still libc's"

probe_run "$WRAP" "$T/probe.so"
is "$(all_same)" "$nnames" "a wrapper before it: the same as dlsym"
is "$(from execve)" libc.so.6 "a wrapper before it: execve from libc.so.6"

# Loaded with dlopen (by CPython's ctypes): the loader answers.
out=$(LD_DEBUG=symbols "$PY" -c 'import ctypes, sys; ctypes.CDLL(sys.argv[1])' \
    "$T/probe.so" 2> debug)
is "$(printf '%s\n' "$out" | grep -c ' same ' | tr -d ' ')" "$nnames" \
    "loaded with dlopen: every name as dlsym(RTLD_NEXT) has it"
like "$(sed -n '/probe: start/,/probe: done/p' debug)" "symbol=execve;" \
    "loaded with dlopen: it asks the loader"

# The shim itself, preloaded alone in a session: it asks the loader for
# none of the five (its GNU hashes of them are right, and the walk from the
# shim to libc finds them).
(shim_session; LD_DEBUG=symbols LD_PRELOAD=$SHIM /bin/true) 2> debug
asked=$(sed -n 's/.*symbol=\([A-Za-z_0-9]*\);.*/\1/p' debug | sort -u | tr '\n' ' ')
like "$asked" "(^| )environ " "LD_DEBUG shows the shim's own lookups"
for fn in $FIVE; do
	unlike "$asked" "(^| )$fn " "the shim alone: $fn not asked of the loader"
done

# The shim itself with the wrapper after it: every exec entry point goes
# through the wrapper's function (execv and execvp as execve and execvpe).
shim_session
export WRAP_LOG=$T/wrap.log
want() {
	case $1 in
	execv|execl|execle) echo execve ;;
	execvp|execlp|execvpe) echo execvpe ;;
	*) echo "$1" ;;
	esac
}
for fn in execve execv execvp execvpe execl execle execlp fexecve \
    posix_spawn posix_spawnp; do
	: > "$WRAP_LOG"
	out=$(LD_PRELOAD="$SHIM:$WRAP" "$EXECS" "$fn" /bin/echo hi 2>&1)
	like "$out" "^hi" "shim then wrapper: $fn runs the program"
	is "$(<"$WRAP_LOG")" "wrap $(want "$fn")" \
	    "shim then wrapper: $fn goes through the wrapper's $(want "$fn")"
done
: > "$WRAP_LOG"
out=$(LD_PRELOAD="$WRAP:$SHIM" "$EXECS" execve /bin/echo hi 2>&1)
is "$out" "hi" "wrapper then shim: execve runs the program once"
is "$(<"$WRAP_LOG")" "wrap execve" "wrapper then shim: the wrapper, once"
unset WRAP_LOG
done_testing
