/*
 * Test driver of the summary library and the advice's findings over it,
 * printed as msprof-exec report prints them:
 *   summary [--json | --html | --text] [--utf8] [--colour] [--term] [--top N]
 *           [--llm START LOADED | --mm START] [--steps-ops] PATH...
 * Text goes to stdout in ASCII without colour unless asked (tests compare
 * it), or as the terminal supports with --term (locale, isatty, NO_COLOR);
 * exit 0, or 2 on bad usage, 1 when a path cannot be read.
 */
#include <err.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "advice/advice.h"
#include "report/findings.h"
#include "report/summary_writers.h"
#include "summary/summary.h"

int
main(int argc, char *argv[])
{
	struct summary_opts o = { 0 };
	struct advice_in none = { NULL, 0 };	/* no session, no device */
	struct summary_rank *ranks;
	struct summary *s;
	struct findings *fs;
	size_t n;
	unsigned flags = 0;
	const char *mode = "text";
	char *why = NULL;
	int i;

	setlocale(LC_ALL, "");
	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (strcmp(argv[i], "--json") == 0)
			mode = "json";
		else if (strcmp(argv[i], "--html") == 0)
			mode = "html";
		else if (strcmp(argv[i], "--text") == 0)
			mode = "text";
		else if (strcmp(argv[i], "--utf8") == 0)
			flags |= SUMMARY_UTF8;
		else if (strcmp(argv[i], "--colour") == 0)
			flags |= SUMMARY_COLOUR;
		else if (strcmp(argv[i], "--term") == 0)
			flags = summary_term_flags(stdout);
		else if (strcmp(argv[i], "--steps-ops") == 0)
			o.steps_ops_only = 1;	/* what compare reads */
		else if (strcmp(argv[i], "--top") == 0 && i + 1 < argc)
			o.top_n = atoi(argv[++i]);
		else if (strcmp(argv[i], "--llm") == 0 && i + 2 < argc) {
			o.window.engine = ENGINE_LLM_MCORE;
			o.window.start = atoi(argv[++i]);
			o.window.loaded = atoi(argv[++i]);
		} else if (strcmp(argv[i], "--mm") == 0 && i + 1 < argc) {
			o.window.engine = ENGINE_MM_MEGATRON;
			o.window.start = atoi(argv[++i]);
		} else
			errx(2, "usage: summary [--json|--html|--text] [--utf8] "
			    "[--colour] [--top N] [--llm START LOADED|--mm START] "
			    "[--steps-ops] PATH...");
	}
	if (i == argc)
		errx(2, "no path");
	if (summary_find_ranks(argv + i, argc - i, &ranks, &n, &why) < 0)
		errx(1, "%s", why);
	s = summary_build(ranks, n, &o);
	fs = advice_run(s, &none);
	if (strcmp(mode, "json") == 0) {
		cJSON *j = summary_json(s);
		char *t;

		cJSON_AddItemToObject(j, "findings", findings_json(s, fs));
		t = cJSON_Print(j);
		puts(t);
		free(t);
		cJSON_Delete(j);
	} else if (strcmp(mode, "html") == 0) {
		if (report_data_page(s, fs, stdout) < 0)
			err(1, "stdout");
	} else {
		summary_print(s, stdout, flags);
		findings_print(s, fs, stdout, flags);
	}
	advice_free(fs);
	summary_free(s);
	summary_ranks_free(ranks, n);
	return 0;
}
