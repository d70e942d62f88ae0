/* Unit tests of the environment doctoring (shim/envfix.c). */
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "shim/envfix.h"

#define V(...) ((char *[]){ __VA_ARGS__, NULL })
#define SHIM "/opt/msprof/lib/msprof-exec/msprof-exec-shim.so"

static struct shim_env se = {
	SHIM, { "MSPROF_EXEC_SHIM=" SHIM, "MSPROF_EXEC_SESSION=/s" }, 2
};

/* The vector joined with '|', for comparison. */
static char *
join(char **v)
{
	static char buf[4096];

	buf[0] = '\0';
	for (; *v != NULL; v++) {
		strcat(buf, *v);
		if (v[1] != NULL)
			strcat(buf, "|");
	}
	return buf;
}

/* ENVP fixed (stripped, below) and joined, in join()'s buffer. */
static const char *
fixed(char **envp)
{
	char *out[64], *ld = malloc(env_preload_size(&se, envp));
	const char *s;

	env_fix(&se, envp, out, ld);
	s = join(out);
	free(ld);
	return s;
}

static const char *
stripped(char **envp)
{
	char *out[64], ld[4096];

	env_strip(SHIM, envp, out, ld);
	return join(out);
}

static void
needs_fix(void)
{
	ok(!env_needs_fix(&se, V("A=1", "LD_PRELOAD=" SHIM,
	    "MSPROF_EXEC_SHIM=" SHIM, "MSPROF_EXEC_SESSION=/s")),
	    "an intact environment is left alone");
	ok(!env_needs_fix(&se, V("LD_PRELOAD=/a.so " SHIM ":/b.so",
	    "MSPROF_EXEC_SESSION=/s", "MSPROF_EXEC_SHIM=" SHIM)),
	    "the shim among other preloads, space and colon separated");
	ok(env_needs_fix(&se, V("A=1")), "env -i");
	ok(env_needs_fix(&se, NULL), "a NULL envp");
	ok(env_needs_fix(&se, V("LD_PRELOAD=/other.so", "MSPROF_EXEC_SHIM=" SHIM,
	    "MSPROF_EXEC_SESSION=/s")), "LD_PRELOAD overwritten");
	ok(env_needs_fix(&se, V("LD_PRELOAD=" SHIM "x", "MSPROF_EXEC_SHIM=" SHIM,
	    "MSPROF_EXEC_SESSION=/s")), "a longer path is not the shim");
	ok(env_needs_fix(&se, V("LD_PRELOAD=" SHIM, "LD_PRELOAD=" SHIM,
	    "MSPROF_EXEC_SHIM=" SHIM, "MSPROF_EXEC_SESSION=/s")),
	    "duplicate LD_PRELOAD entries are merged");
	ok(env_needs_fix(&se, V("LD_PRELOAD=" SHIM, "MSPROF_EXEC_SHIM=" SHIM)),
	    "a session variable lost");
	ok(env_needs_fix(&se, V("LD_PRELOAD=" SHIM, "MSPROF_EXEC_SHIM=" SHIM,
	    "MSPROF_EXEC_SESSION=/other")), "a session variable changed");
	ok(env_needs_fix(&se, V("LD_PRELOAD=" SHIM, "MSPROF_EXEC_SHIM=" SHIM,
	    "MSPROF_EXEC_SESSION=/s", "MSPROF_EXEC_X=1")),
	    "an unknown session variable");
}

static void
fix(void)
{
	is_str(fixed(V("A=1")), "A=1|MSPROF_EXEC_SHIM=" SHIM
	    "|MSPROF_EXEC_SESSION=/s|LD_PRELOAD=" SHIM, "env -i: all put back");
	is_str(fixed(V("LD_PRELOAD=/other.so", "B=2")), "B=2|MSPROF_EXEC_SHIM="
	    SHIM "|MSPROF_EXEC_SESSION=/s|LD_PRELOAD=" SHIM ":/other.so",
	    "shim first, the other preload kept");
	is_str(fixed(V("LD_PRELOAD=/a.so", "LD_PRELOAD=/b.so " SHIM " /c.so")),
	    "MSPROF_EXEC_SHIM=" SHIM "|MSPROF_EXEC_SESSION=/s|LD_PRELOAD=" SHIM
	    ":/b.so:/c.so", "duplicates: the last (ld.so's) kept, shim once");
	is_str(fixed(V("MSPROF_EXEC_SESSION=/x", "C=3")), "C=3|MSPROF_EXEC_SHIM="
	    SHIM "|MSPROF_EXEC_SESSION=/s|LD_PRELOAD=" SHIM,
	    "a changed session variable is restored");
	is_str(fixed(NULL), "MSPROF_EXEC_SHIM=" SHIM "|MSPROF_EXEC_SESSION=/s"
	    "|LD_PRELOAD=" SHIM, "a NULL envp");
	is_str(fixed(V("LD_PRELOAD=::  :")), "MSPROF_EXEC_SHIM=" SHIM
	    "|MSPROF_EXEC_SESSION=/s|LD_PRELOAD=" SHIM, "empty preload tokens");
}

static void
strip(void)
{
	is_str(stripped(V("A=1", "LD_PRELOAD=" SHIM, "MSPROF_EXEC_SHIM=" SHIM,
	    "MSPROF_EXEC_SESSION=/s")), "A=1", "an LD_PRELOAD left empty goes");
	is_str(stripped(V("LD_PRELOAD=" SHIM ":/other.so", "B=2")),
	    "B=2|LD_PRELOAD=/other.so", "other preloads are kept");
	is_str(stripped(V("LD_PRELOAD=/a.so " SHIM, "LD_PRELOAD=" SHIM " /b.so")),
	    "LD_PRELOAD=/b.so", "every LD_PRELOAD entry is stripped");
	is_str(stripped(V("LD_PRELOAD=/x" SHIM)), "LD_PRELOAD=/x" SHIM,
	    "only the exact shim path is removed");
	is_str(stripped(V("MSPROF_EXEC_ANY=1", "MSPROF_EXECX=2")),
	    "MSPROF_EXECX=2", "every MSPROF_EXEC_ variable goes");
	is_str(stripped(V("A=1")), "A=1", "nothing to strip");
}

static void
lookup(void)
{
	is_str(env_value(V("PATHX=1", "PATH=/bin"), "PATH"), "/bin",
	    "env_value needs the '='");
	is_str(env_value(V("A=1"), "PATH"), NULL, "env_value: absent");
	is_int(vec_count(V("a", "b")), 2, "vec_count");
	is_int(vec_count(NULL), 0, "vec_count NULL");
}

int
main(void)
{
	needs_fix();
	fix();
	strip();
	lookup();
	return done_testing();
}
