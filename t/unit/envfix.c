/* Unit tests of the environment doctoring (shim/envfix.c). */
#include <sys/mman.h>

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "shim/envfix.h"

#define V(...) ((char *[]){ __VA_ARGS__, NULL })
#define SHIM "/opt/msprof/lib/msprof-exec/msprof-exec-shim.so"

static struct shim_env se = {
	.shim = SHIM,
	.saved = { "MSPROF_EXEC_SHIM=" SHIM, "MSPROF_EXEC_SESSION=/s" },
	.nsaved = 2,
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

/*
 * A copy of S that ends at the end of a readable page, the next page
 * unmapped: a read past the page would crash the test.
 */
static char *
at_page_end(char *page, size_t pagesize, const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(page + pagesize - n, s, n);
}

/*
 * env_needs_fix reads words: never across the end of a string's page.
 * Each case is tried with the string ending on the last byte of a page
 * followed by an unmapped one.
 */
static void
page_ends(void)
{
	static const char *const intact[] = {
		"MSPROF_EXEC_SHIM=" SHIM, "MSPROF_EXEC_SESSION=/s",
		"LD_PRELOAD=" SHIM, "LD_PRELOAD=/a.so:" SHIM,
		"LD_PRELOAD=" SHIM " /b.so",
	};
	static const char *const broken[] = {
		"MSPROF_EXEC_SESSION=/", "MSPROF_EXEC_SESSION=", "MSPROF_EXEC_S",
		"MSPROF_EXEC_SHIM=/opt", "LD_PRELOAD=/opt/msprof",
		"LD_PRELOAD=" SHIM "x", "LD_PRELOAD=/a.so:/opt", "LD_PRELOAD=",
		"MSPROF_EXEC_SESSION=/sx",
	};
	size_t ps = (size_t)sysconf(_SC_PAGESIZE), i;
	char *map = mmap(NULL, 3 * ps, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), *page = map + ps;
	int right = 0, total = 0;

	if (map == MAP_FAILED || mprotect(map + 2 * ps, ps, PROT_NONE) != 0) {
		ok(0, "mmap two pages and a guard page");
		return;
	}
	/* Every intact variable, in turn, at the page end. */
	for (i = 0; i < sizeof(intact) / sizeof(intact[0]); i++) {
		char *env[] = { "A=1", "MSPROF_EXEC_SHIM=" SHIM,
		    "MSPROF_EXEC_SESSION=/s", "LD_PRELOAD=" SHIM, NULL };
		char *e = at_page_end(page, ps, intact[i]);

		env[strncmp(e, "LD_", 3) == 0 ? 3 :
		    strncmp(e, "MSPROF_EXEC_SHIM", 16) == 0 ? 1 : 2] = e;
		right += !env_needs_fix(&se, env);
		total++;
	}
	/* Each broken one in place of its intact variable. */
	for (i = 0; i < sizeof(broken) / sizeof(broken[0]); i++) {
		char *env[] = { "A=1", "MSPROF_EXEC_SHIM=" SHIM,
		    "MSPROF_EXEC_SESSION=/s", "LD_PRELOAD=" SHIM, NULL };
		char *e = at_page_end(page, ps, broken[i]);

		env[strncmp(e, "LD_", 3) == 0 ? 3 :
		    strncmp(e, "MSPROF_EXEC_SHIM", 16) == 0 ? 1 : 2] = e;
		right += env_needs_fix(&se, env);
		total++;
	}
	is_int(right, total, "strings that end a page: %d cases judged right, "
	    "no read past the page", total);

	/* Strings that run from one page into the next, at any alignment. */
	right = 0;
	for (i = 0; i < 16; i++) {
		char *env[] = { "MSPROF_EXEC_SHIM=" SHIM, NULL, NULL, NULL };
		char *e = page - 12 + i, *l = page + 100 + i;

		memcpy(e, "MSPROF_EXEC_SESSION=/s", 23);
		memcpy(l, "LD_PRELOAD=" SHIM, sizeof("LD_PRELOAD=" SHIM));
		env[1] = e;
		env[2] = l;
		right += !env_needs_fix(&se, env);
		e[21] = 'x';
		right += env_needs_fix(&se, env);
		l = page - 30 + i;
		memcpy(l, "LD_PRELOAD=" SHIM, sizeof("LD_PRELOAD=" SHIM));
		e = page + 100 + i;
		memcpy(e, "MSPROF_EXEC_SESSION=/s", 23);
		env[1] = e;
		env[2] = l;
		right += !env_needs_fix(&se, env);
		l[40] = 'x';
		right += env_needs_fix(&se, env);
	}
	is_int(right, 64, "variables across a page boundary, at any alignment");
	munmap(map, 3 * ps);
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
	env_measure(&se);
	needs_fix();
	page_ends();
	fix();
	strip();
	lookup();
	return done_testing();
}
