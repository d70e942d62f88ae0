/*
 * Fuzz target "launch": the launch matcher of the shim (shim/match.c) over
 * an arbitrary launch table and command, and the injector's
 * classification and rewrite (engines/) of an arbitrary command with the
 * repository's launch table and a fixed plan, as a dry run (no session:
 * nothing is written).
 *
 * Input: one byte choosing the plan (fuzz_plan), then NUL-separated
 * strings: the table string as the shim reads it (contract.h), the path
 * being executed, then argv.  Example: "\x02launcher=torchrun\0
 * /usr/bin/torchrun\0torchrun\0--nproc_per_node\0008\0pretrain_gpt.py".
 *
 * Checked besides memory safety: the matcher's operand is an element (or
 * the tail of an element) of argv; the script index is inside argv; a
 * rewrite leaves everything up to the training script as it was and the
 * vectors it returns NULL-terminated; rewriting the rewritten command
 * again with --existing override gives the same command (LLM engines).
 */
#include <stdlib.h>
#include <string.h>

#include "shim/contract.h"
#include "shim/match.h"
#include "fuzz.h"
#include "engines/rewrite.h"

static char *envp[] = {
	(char *)"PATH=/usr/bin:/bin", (char *)"MM_TOOL=tools.json",
	(char *)"MASTER_PORT=6000", NULL
};

static void
check_strv(const struct strv *v, const char *what)
{
	FUZZ_CHECK(v->n == 0 || v->v != NULL, what);
	FUZZ_CHECK(v->v == NULL || v->v[v->n] == NULL, what);
	for (size_t i = 0; i < v->n; i++)
		FUZZ_CHECK(v->v[i] != NULL, what);
}

static void
matcher(char *const *s, size_t n)
{
	static const char *const keys[] = { MATCH_KEY_LAUNCHER,
	    MATCH_KEY_PYTHON, MATCH_KEY_MODULE, MATCH_KEY_ENTRY,
	    MATCH_KEY_ENTRY_MODULE, MATCH_KEY_CONSOLE, NULL };
	const char *table = s[0], *path = n > 1 ? s[1] : NULL;
	char *const *argv = n > 2 ? s + 2 : s + n;
	struct launch_match m;
	int found;

	match_launch(table, path, argv, &m);
	if (m.kind == LAUNCH_PY_MODULE || m.kind == LAUNCH_PY_SCRIPT ||
	    m.kind == LAUNCH_PY_ENTRY_MODULE) {
		found = 0;
		for (size_t i = 0; argv[i] != NULL; i++)
			if (m.operand >= argv[i] &&
			    m.operand <= argv[i] + strlen(argv[i]))
				found = 1;
		FUZZ_CHECK(found, "operand outside argv");
		FUZZ_CHECK(m.next >= 1 && (size_t)m.next <= n - 2,
		    "next outside argv");
	}
	match_launch(table, path, NULL, &m);
	for (int k = 0; keys[k] != NULL; k++)
		for (size_t i = 1; i < n; i++) {
			found = table_find(table, keys[k], s[i]);
			FUZZ_CHECK(found == -1 || table_has(table, keys[k], s[i]),
			    "table_find and table_has disagree");
		}
	/* An arbitrary key too. */
	if (n > 2)
		table_find(table, s[2], s[1]);
	(void)path_base(table);
}

/* Rewrite ARGV; returns 0 with *out filled, or -1. */
static int
rewrite(const struct plan *p, const char *path, char *const argv[],
    struct launch *l, struct rewrite *out)
{
	char *why = NULL;
	int rc;

	launch_classify(fuzz_table(), NULL, path, argv, l);
	if (l->script >= 0) {
		size_t argc = 0;

		while (argv[argc] != NULL)
			argc++;
		FUZZ_CHECK((size_t)l->script < argc, "script index past argv");
	}
	if (l->engine == ENGINE_NONE)
		return -1;
	rc = launch_rewrite(p, l, argv, envp, NULL, out, &why);
	FUZZ_CHECK(rc == 0 || why != NULL, "failed without a reason");
	free(why);
	if (rc == -1) {
		rewrite_free(out);
		return -1;
	}
	check_strv(&out->argv, "argv");
	check_strv(&out->env, "env");
	check_strv(&out->written, "written");
	check_strv(&out->existing, "existing");
	/* Kept settings may name no save path the engine can read. */
	FUZZ_CHECK(out->save_path != NULL || out->kept, "no save path");
	return 0;
}

static void
rewriter(unsigned sel, char *const *s, size_t n)
{
	const char *path = n > 1 ? s[1] : "";
	char *const *argv = n > 2 ? s + 2 : s + 1;
	char *one[] = { (char *)path, NULL };
	struct plan p, over;
	struct launch l, l2;
	struct rewrite rw, rw2;

	/* The injector always has an argv[0] (the shim puts PATH there). */
	if (argv[0] == NULL)
		argv = one;
	fuzz_plan(&p, sel);
	if (rewrite(&p, path, argv, &l, &rw) == -1) {
		plan_free(&p);
		return;
	}
	if (!rw.kept) {
		for (int i = 0; i <= l.script; i++)
			FUZZ_CHECK(i < (int)rw.argv.n &&
			    strcmp(rw.argv.v[i], argv[i]) == 0,
			    "the launcher part of the command changed");
	}
	/* LLM: the flags replace themselves; a second pass changes nothing. */
	if (!rw.kept && (l.engine == ENGINE_LLM_MCORE ||
	    (l.engine == ENGINE_LLM_FSDP2 && rw.argv.n > (size_t)l.script + 1 &&
	    !ends_with(rw.argv.v[l.script + 1], ".yaml") &&
	    !ends_with(rw.argv.v[l.script + 1], ".yml")))) {
		over = p;
		over.existing = EXISTING_OVERRIDE;
		if (rewrite(&over, path, rw.argv.v, &l2, &rw2) == 0) {
			FUZZ_CHECK(l2.script == l.script, "script moved");
			FUZZ_CHECK(rw2.argv.n == rw.argv.n,
			    "a second rewrite changed the length");
			for (size_t i = 0; i < rw.argv.n; i++)
				FUZZ_CHECK(strcmp(rw.argv.v[i], rw2.argv.v[i]) == 0,
				    "a second rewrite changed the command");
			rewrite_free(&rw2);
		}
	}
	rewrite_free(&rw);
	plan_free(&p);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char **s;
	size_t n;

	if (size < 1)
		return 0;
	fuzz_table();
	fuzz_enter();
	s = fuzz_strings(data + 1, size - 1, &n);
	matcher(s, n);
	rewriter(data[0], s, n);
	fuzz_strings_free(s);
	fuzz_leave();
	return 0;
}
