/*
 * msprof-exec compare [--json FILE] [--html FILE] BASE NEW: did a change
 * help?  Each run is an output directory or a session directory, its rank
 * directories found as `msprof-exec report PATH` finds them; both are read
 * at once, each by the summary's worker threads, then compared
 * (summary/compare.h) and printed, with the JSON and the page written
 * through what the user named (common/outfile.h).  Each run is read as
 * the report reads it, every summary's files: a file the report would
 * name as left out, whole or in part, compare names too, and exits 65 as
 * the report does.
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
#include "common/journal.h"
#include "common/ranks.h"
#include "common/session.h"
#include "summary/compare.h"
#include "summary/inventory.h"
#include "summary/model.h"
#include "summary_writers.h"
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
	struct inventory	 inv;	/* what the ranks' summaries read */
};

/*
 * The rank directories of RUN: 0, or the exit status (66, 65) with *why
 * when it has none to read.
 */
static int
ranks_of(struct run *run, char **why)
{
	char *path = (char *)run->path;
	int rc;

	report_summary_paths(&path, 1, &run->inv, &run->paths);
	rc = summary_find_runs_in(&run->inv, run->paths.v, run->paths.n,
	    &run->ranks, &run->nranks, &run->runs, &run->nruns, NULL, NULL, why);
	if (rc == -1)
		return EX_NOINPUT;
	if (run->nranks > 0)
		return 0;
	if (session_is(run->path))
		*why = xasprintf(_("%s: no rank data: the launches of this "
		    "session made no *_ascend_pt directory (msprof-exec report "
		    "%s says why)"), run->path, run->path);
	else
		*why = xasprintf(_("%s: no rank data: no *_ascend_pt directory "
		    "under it (the rank directories torch_npu writes, "
		    "ASCEND_PROFILER_OUTPUT inside)"), run->path);
	return EX_DATAERR;
}

/* The rank directories of RUN; exit 66 or 65 when it has none to read. */
static void
find_ranks(struct run *run)
{
	char *why = NULL;
	int rc = ranks_of(run, &why);

	if (rc != 0)
		errx(rc, "%s", why);
}

static void *
read_run(void *arg)
{
	struct run *run = arg;
	struct summary_opts o = { 0 };

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

static int
page(FILE *f, void *c)
{
	return compare_html(c, f);
}

/* The page, written as one file (replaced once complete); 0 or -1. */
static int
write_html(const struct compare *c, const char *path)
{
	char *why = NULL;
	int rc = outfile_write(path, page, (void *)c, &why);

	if (rc == -1)
		warnx("%s", why);
	free(why);
	return rc;
}

/* The files of both runs left out, as the report lists them. */
static void
left_out(const struct run runs[2], FILE *fp)
{
	for (int k = 0; k < 2; k++)
		left_out_print(runs[k].s, fp);
}

static int
nleft_out(const struct run runs[2])
{
	return summary_nleft_out(runs[0].s) + summary_nleft_out(runs[1].s) > 0;
}

static int
write_json(const struct compare *c, const struct run runs[2],
    const char *path)
{
	cJSON *doc = compare_json(c), *l;
	char *why = NULL;
	int rc;

	l = cJSON_AddObjectToObject(doc, "left_out");
	cJSON_AddItemToObject(l, "base", left_out_json(runs[0].s));
	cJSON_AddItemToObject(l, "new", left_out_json(runs[1].s));
	rc = json_write(doc, path, &why);

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

static void
run_free(struct run *run)
{
	summary_free(run->s);
	summary_ranks_free(run->ranks, run->nranks);
	summary_runs_free(run->runs, run->nruns);
	strv_free(&run->paths);
	inventory_free(&run->inv);
	memset(run, 0, sizeof(*run));
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
		session_input_check(runs[k].path);
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
	left_out(runs, stdout);
	if (nleft_out(runs))
		status = EX_DATAERR;
	if (fflush(stdout) != 0)
		status = EX_IOERR;
	if (json != NULL && write_json(c, runs, json) == -1)
		status = EX_CANTCREAT;
	if (html != NULL && write_html(c, html) == -1)
		status = EX_CANTCREAT;
	compare_free(c);
	for (int k = 0; k < 2; k++)
		run_free(&runs[k]);
	return status;
}

int
compare_baseline_check(const char *base, char **why)
{
	struct run run = { .path = base };
	struct stat st;
	int rc;

	if (stat(base, &st) == -1 || !S_ISDIR(st.st_mode)) {
		*why = xasprintf(_("--baseline %s: no such directory; give the "
		    "output directory of an earlier run (or its msprof-exec_* "
		    "session)"), base);
		return EX_NOINPUT;
	}
	if ((rc = ranks_of(&run, why)) != 0) {
		char *t = xasprintf("--baseline %s", *why);

		free(*why);
		*why = t;
	}
	run_free(&run);
	return rc;
}

static int
int_cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return x < y ? -1 : x > y;
}

/*
 * What a run collected: its ranks (known ones), or the steps of its
 * ranks (torch_npu's Step numbers), sorted, without repeats.
 */
static size_t
collected(const struct summary *s, int steps, int **out)
{
	size_t n = 0, cap = 0, k = 0;
	int *v = NULL;

	for (size_t i = 0; i < s->nr; i++) {
		const struct rank_data *r = &s->r[i];
		size_t m = steps ? r->nsteps : 1;

		for (size_t j = 0; j < m; j++) {
			long x = steps ? r->steps[j].step : r->rank;

			if (x < 0)
				continue;
			if (n == cap)
				v = xreallocarray(v, cap = cap ? cap * 2 : 16,
				    sizeof(*v));
			v[n++] = (int)x;
		}
	}
	if (n > 0)
		qsort(v, n, sizeof(*v), int_cmp);
	for (size_t i = 0; i < n; i++)
		if (k == 0 || v[k - 1] != v[i])
			v[k++] = v[i];
	*out = v;
	return k;
}

/*
 * "none", and why when the summary knows: the first file it left out
 * (which names the file and what was wrong: cut short, not a regular
 * file...), else the first rank's reason for having no steps.
 */
static char *
none_why(const struct summary *s)
{
	for (size_t i = 0; i < s->nr; i++)
		if (s->r[i].nleft > 0)
			return xasprintf(_("none (%s)"), s->r[i].left[0].why);
	for (size_t i = 0; i < s->nr; i++)
		if (s->r[i].steps_why != NULL)
			return xasprintf(_("none (%s: %s)"), s->r[i].name,
			    s->r[i].steps_why);
	return xstrdup(_("none"));
}

/*
 * Are the ranks (STEPS 0) or steps (1) of the two runs the same?  Else
 * *why says which, with both lists.
 */
static int
same(const struct summary *base, const struct summary *new, int steps,
    char **why)
{
	int *a, *b;
	size_t na = collected(base, steps, &a), nb = collected(new, steps, &b);
	int ok = na == nb && (na == 0 || memcmp(a, b, na * sizeof(*a)) == 0);
	char *ta, *tb;

	if (!ok) {
		ta = na > 0 ? ranks_text(a, na, 0) : none_why(base);
		tb = nb > 0 ? ranks_text(b, nb, 0) : none_why(new);
		*why = steps ? xasprintf(_("the windows differ: the baseline "
		    "collected steps %s, this run steps %s (torch_npu's step "
		    "numbers)"), ta, tb) :
		    xasprintf(_("the ranks differ: the baseline profiled ranks "
		    "%s, this run ranks %s; run with the baseline's --ranks"),
		    ta, tb);
		free(ta);
		free(tb);
	}
	free(a);
	free(b);
	return ok;
}

/*
 * The window the profiled launches of the session at or under PATH were
 * given, in the training's own steps, "S to E, excluding E"; NULL when
 * there is no session or its launches differ.
 */
static char *
window_of(const char *path)
{
	char *session = session_find(path), *text = NULL;
	struct journal j;
	int start = -1, end = -1, mixed = 0;

	if (session == NULL)
		return NULL;
	journal_read(session, &j);
	for (size_t i = 0; i < j.n; i++) {
		const struct launch_record *r = &j.recs[i];

		if (!launch_profiled(r) || r->step_start < 0)
			continue;
		mixed |= start >= 0 && (r->step_start != start ||
		    r->step_end != end);
		start = r->step_start;
		end = r->step_end;
	}
	if (start >= 0 && !mixed)
		text = xasprintf(_("%d to %d, excluding %d"), start, end, end);
	journal_free(&j);
	free(session);
	return text;
}

/*
 * The steps of the two runs differ: said in the training's steps when
 * both sessions tell them, after torch_npu's numbers in *WHY.
 */
static void
window_said(const char *base, const char *new, char **why)
{
	char *a = window_of(base), *b = window_of(new), *t;

	if (a != NULL && b != NULL && strcmp(a, b) != 0) {
		t = xasprintf(_("%s; the baseline was given steps %s, this run "
		    "steps %s"), *why, a, b);
		free(*why);
		*why = t;
	}
	t = xasprintf(_("%s; run with the baseline's --steps"), *why);
	free(*why);
	*why = t;
	free(a);
	free(b);
}

int
compare_baseline(const char *base, const char *new, FILE *f)
{
	struct run runs[2] = { { .path = base }, { .path = new } };
	struct compare *c = NULL;
	char *why = NULL;
	int rc = -1;

	fprintf(f, _("\nCompared with the baseline %s\n"), base);
	if (ranks_of(&runs[0], &why) != 0 || ranks_of(&runs[1], &why) != 0)
		goto out;
	read_runs(runs);
	if (!same(runs[0].s, runs[1].s, 0, &why))
		goto out;
	if (!same(runs[0].s, runs[1].s, 1, &why)) {
		window_said(base, new, &why);
		goto out;
	}
	if ((c = compare_build(runs[0].s, base, runs[1].s, new, &why)) == NULL)
		goto out;
	runs_caveat(c, &runs[0], _("base"));
	compare_print(c, f, summary_term_flags(f));
	rc = 0;
out:
	if (rc == -1) {
		fprintf(f, _("  not compared: %s\n"), why);
		warnx(_("--baseline %s: not compared: %s"), base, why);
	}
	free(why);
	if (c != NULL)
		compare_free(c);
	run_free(&runs[0]);
	run_free(&runs[1]);
	return rc;
}
