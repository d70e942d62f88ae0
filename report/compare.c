/*
 * msprof-exec compare [--json FILE] [--html FILE] BASE NEW: did a change
 * help?  Each run is an output directory or a session directory, its rank
 * directories found as `msprof-exec report PATH` finds them; both are read
 * at once, each by the summary's worker threads, then compared
 * (summary/compare.h) and printed, with the JSON and the page written
 * through what the user named (common/outfile.h).
 */
#include <sys/stat.h>

#include <err.h>
#include <getopt.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>

#include "common/jsonfile.h"
#include "common/outfile.h"
#include "common/session.h"
#include "summary/compare.h"
#include "report.h"

/* One run: its path as given, its rank directories, their summary. */
struct run {
	const char		*path;
	struct strv		 paths;
	struct summary_rank	*ranks;
	size_t			 nranks;
	struct summary_run	*runs;		/* found under it, newest first */
	size_t			 nruns;
	struct summary		*s;
};

/* A path the user gave must be a directory: else exit 66, naming it. */
static void
check_input(const char *path)
{
	struct stat st;

	if (stat(path, &st) == -1)
		errx(EX_NOINPUT, _("%s: no such directory; give the output "
		    "directory of a run (or its msprof-exec_* session)"), path);
	if (!S_ISDIR(st.st_mode))
		errx(EX_NOINPUT, _("%s: not a directory; give the output "
		    "directory of a run (or its msprof-exec_* session)"), path);
}

/* The rank directories of RUN; exit 66 or 65 when it has none to read. */
static void
find_ranks(struct run *run)
{
	char *path = (char *)run->path, *why = NULL;

	report_summary_paths(&path, 1, &run->paths);
	if (summary_find_runs(run->paths.v, run->paths.n, &run->ranks,
	    &run->nranks, &run->runs, &run->nruns, NULL, NULL, &why) == -1)
		errx(EX_NOINPUT, "%s", why);
	if (run->nranks > 0)
		return;
	if (session_is(run->path))
		errx(EX_DATAERR, _("%s: no rank data: the launches of this "
		    "session made no *_ascend_pt directory (msprof-exec report "
		    "%s says why)"), run->path, run->path);
	errx(EX_DATAERR, _("%s: no rank data: no *_ascend_pt directory under "
	    "it (the rank directories torch_npu writes, ASCEND_PROFILER_OUTPUT "
	    "inside)"), run->path);
}

static void *
read_run(void *arg)
{
	struct run *run = arg;
	struct summary_opts o = { .steps_ops_only = 1 };

	run->s = summary_build(run->ranks, run->nranks, &o);
	return NULL;
}

/*
 * Both runs at once: each summary reads its ranks on worker threads of
 * its own, so a run does not wait for the other to be read.
 */
static void
read_runs(struct run runs[2])
{
	pthread_t tid;
	int started = pthread_create(&tid, NULL, read_run, &runs[1]) == 0;

	read_run(&runs[0]);
	if (started)
		pthread_join(tid, NULL);
	else
		read_run(&runs[1]);
}

/* The page, rendered in memory, then written as one file; 0 or -1. */
static int
write_html(const struct compare *c, const char *path)
{
	char *buf = NULL, *why = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int rc = -1;

	if (f != NULL) {
		rc = compare_html(c, f);
		rc = fclose(f) == 0 ? rc : -1;
	}
	if (rc == 0 && outfile_put(path, buf, len, &why) == -1) {
		warnx("%s", why);
		rc = -1;
	} else if (rc != 0)
		warnx(_("cannot write %s: out of memory"), path);
	free(buf);
	free(why);
	return rc;
}

static int
write_json(const struct compare *c, const char *path)
{
	cJSON *doc = compare_json(c);
	char *why = NULL;
	int rc = json_write(doc, path, &why);

	if (rc == -1)
		warnx("%s", why);
	free(why);
	cJSON_Delete(doc);
	return rc;
}

/* Options; exits 64 on a usage error, 0 after --help. */
static int
parse(int argc, char **argv, const char **json, const char **html)
{
	static const struct option opts[] = {
		{ "json", required_argument, NULL, 'j' },
		{ "html", required_argument, NULL, 'H' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *use = _("usage: msprof-exec compare [--json FILE] [--html "
	    "FILE] BASE NEW\n");
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "+h", opts, NULL)) != -1) {
		if (c == 'j')
			*json = optarg;
		else if (c == 'H')
			*html = optarg;
		else {
			fputs(use, c == 'h' ? stdout : stderr);
			exit(c == 'h' ? 0 : EX_USAGE);
		}
	}
	if (argc - optind != 2) {
		warnx(_("compare takes two runs, BASE and NEW (%d given)"),
		    argc - optind);
		fputs(use, stderr);
		exit(EX_USAGE);
	}
	return optind;
}

/*
 * The session of RUN: the path itself when it is one, else the newest
 * under the path given or under the directory of the run compared (the
 * newest run, as the newest session; NULL when none was made there).
 */
static char *
run_session(const struct run *run)
{
	char *session = session_find(run->path);

	if (session != NULL || run->nruns == 0)
		return session;
	return session_find(run->runs[0].path);
}

static void
settings(struct compare *c, const struct run runs[2])
{
	char *b = run_session(&runs[0]), *n = run_session(&runs[1]);

	compare_settings(c, b, n);
	free(b);
	free(n);
}

/*
 * A path that holds several runs is compared by its first (the newest):
 * which, and where the others are, to compare one of them instead.
 */
static void
runs_caveat(struct compare *c, const struct run *run, const char *label)
{
	char *s, *t;

	if (run->nruns < 2)
		return;
	s = xasprintf(_("%s %s holds %zu runs (rank directories of one "
	    "launch, in one save path): compared is %s (the newest by the time "
	    "in their names, else the first by path); give one of the others "
	    "to compare it:"), label, run->path, run->nruns, run->runs[0].path);
	for (size_t i = 1; i < run->nruns; i++) {
		t = xasprintf("%s%s %s", s, i > 1 ? "," : "", run->runs[i].path);
		free(s);
		s = t;
	}
	compare_caveat(c, s);
	free(s);
}

int
compare_main(int argc, char **argv)
{
	struct run runs[2] = { { 0 }, { 0 } };
	const char *json = NULL, *html = NULL;
	struct compare *c;
	char *why = NULL;
	int first = parse(argc, argv, &json, &html), status = 0;

	for (int k = 0; k < 2; k++) {
		runs[k].path = argv[first + k];
		check_input(runs[k].path);
	}
	if (json != NULL && outfile_check(json, OUTFILE_REPLACE, &why) == -1)
		errx(EX_CANTCREAT, "--json: %s", why);
	if (html != NULL && outfile_check(html, OUTFILE_REPLACE, &why) == -1)
		errx(EX_CANTCREAT, "--html: %s", why);
	for (int k = 0; k < 2; k++)
		find_ranks(&runs[k]);
	read_runs(runs);
	if ((c = compare_build(runs[0].s, runs[0].path, runs[1].s,
	    runs[1].path, &why)) == NULL)
		errx(EX_DATAERR, "%s", why);
	settings(c, runs);
	runs_caveat(c, &runs[0], _("base"));
	runs_caveat(c, &runs[1], _("new"));
	compare_print(c, stdout, summary_term_flags(stdout));
	if (fflush(stdout) != 0)
		status = EX_IOERR;
	if (json != NULL && write_json(c, json) == -1)
		status = EX_CANTCREAT;
	if (html != NULL && write_html(c, html) == -1)
		status = EX_CANTCREAT;
	compare_free(c);
	for (int k = 0; k < 2; k++) {
		summary_free(runs[k].s);
		summary_ranks_free(runs[k].ranks, runs[k].nranks);
		summary_runs_free(runs[k].runs, runs[k].nruns);
		strv_free(&runs[k].paths);
	}
	return status;
}
