/*
 * Fuzz target "scan": the static scan of a training script
 * (scan/scan.c scan_script, over the shell reader scan/sh*.c) on a
 * file holding the input, with the repository's launch table and a small
 * environment.  The file is named
 * like a MindSpeed example, so the model-name rule runs too.
 *
 * Checked besides memory safety: the counts are -1 or not negative, every
 * string the scan returns is there, a launch is recorded when an engine
 * is, and each launch kept has its words, a line and a script.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "scan/scan.h"

static char *envp[] = {
	(char *)"PATH=/usr/bin:/bin", (char *)"NPUS_PER_NODE=8",
	(char *)"MASTER_PORT=6000", (char *)"NNODES=1", (char *)"HOME=/root",
	(char *)"X+=y", (char *)"=odd", (char *)"NOVALUE", NULL
};

static void
check_strv(const struct strv *v, const char *what)
{
	FUZZ_CHECK(v->n == 0 || (v->v != NULL && v->v[v->n] == NULL), what);
	for (size_t i = 0; i < v->n; i++)
		FUZZ_CHECK(v->v[i] != NULL, what);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path;
	struct scan s;
	char *why = NULL;

	fuzz_table();
	fuzz_enter();
	path = fuzz_file("pretrain_fuzz_8b_4K_ptd.sh", data, size);
	if (scan_script(fuzz_table(), path, envp, &s, &why) == -1)
		fuzz_fail("scan_script failed on a readable file", why);
	FUZZ_CHECK(s.npus_per_node >= -1 && s.nnodes >= -1 &&
	    s.node_rank >= -1 && s.master_port >= -1 && s.train_iters >= -1,
	    "a count below -1");
	check_strv(&s.launches, "launches");
	check_strv(&s.configs, "configs");
	check_strv(&s.existing, "existing");
	FUZZ_CHECK(s.engine == ENGINE_NONE || s.launches.n > 0,
	    "an engine without a launch");
	for (size_t i = 0; i < s.launches.n; i++)
		FUZZ_CHECK(strchr(s.launches.v[i], '\001') == NULL,
		    "an internal hard space shown to the user");
	FUZZ_CHECK(s.nruns == s.launches.n, "a launch without its argv");
	for (size_t i = 0; i < s.nruns; i++) {
		check_strv(&s.runs[i].argv, "a launch's argv");
		check_strv(&s.runs[i].env, "a launch's environment");
		FUZZ_CHECK(s.runs[i].argv.n > 0 && s.runs[i].line > 0 &&
		    s.runs[i].script != NULL, "a launch without words, line "
		    "or script");
		for (size_t k = 0; k < s.runs[i].argv.n; k++)
			FUZZ_CHECK(strchr(s.runs[i].argv.v[k], '\001') == NULL,
			    "an internal hard space in an argv");
	}
	scan_free(&s);
	fuzz_leave();
	return 0;
}
