/*
 * The report after a run, and `msprof-exec report PATH...`: the model of
 * each output directory is built once (model.c), then printed (text.c)
 * and, with --json, written (json.c); with --html the summary's page is
 * written too.
 */
#include <sys/stat.h>

#include <dirent.h>
#include <err.h>
#include <errno.h>
#include <limits.h>
#include <getopt.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>
#include <unistd.h>

#include "shim/contract.h"
#include "common/jsonfile.h"
#include "common/jsonw.h"
#include "common/outfile.h"
#include "common/rankname.h"
#include "common/session.h"
#include "summary/inventory.h"
#include "summary/model.h"
#include "summary/summary.h"
#include "attrib.h"
#include "findings.h"
#include "model.h"
#include "summary_writers.h"

int
report_html_check(const char *path, char **why)
{
	char *err = NULL;

	if (outfile_check(path, OUTFILE_REPLACE, &err) == -1) {
		*why = xasprintf("--html: %s", err);
		free(err);
		return -1;
	}
	return 0;
}

/* The findings first: what to change, then the figures behind it. */
int
report_data_page(const struct summary *s, const struct findings *fs,
    FILE *fp)
{
	html_page_head(fp, "summary", ".why{color:#a33}\n"
	    ".finding{color:#a33;font-weight:bold}\n");
	fprintf(fp, "<p>%zu %s</p>\n", s->nr, s->nr == 1 ? "rank" : "ranks");
	findings_html(s, fs, fp);
	summary_html_sections(s, fp);
	html_page_end(fp);
	return fflush(fp) == 0 && !ferror(fp) ? 0 : -1;
}

/* What the page is of. */
struct data {
	const struct summary	*s;
	const struct findings	*fs;
};

static int
page(FILE *f, void *arg)
{
	const struct data *d = arg;

	return report_data_page(d->s, d->fs, f);
}

static void
write_html(const struct report_model *m, const char *path)
{
	struct data d = { m->summary, m->findings };
	char *why = NULL;

	if (m->summary == NULL)
		warnx(_("%s: not written: there is no summary (%s)"), path,
		    m->summary_why != NULL ? m->summary_why :
		    _("nothing was profiled"));
	else if (outfile_write(path, page, &d, &why) == -1) {
		warnx("%s", why);
		free(why);
	}
}

struct reports {
	const struct report_model *m;
	size_t		 n;
	const struct report_together *t;	/* or NULL */
};

/* The report of N output directories as JSON, into FP as it is made. */
static int
json_doc(FILE *fp, void *arg)
{
	const struct reports *r = arg;
	const struct report_model *m = r->m;
	size_t n = r->n;
	struct jsonw w;

	jw_init(&w, fp);
	if (n == 1) {
		report_json_write(&m[0], &w, 1);
		return 0;
	}
	/*
	 * several: {version, reports [...], together (when the text says
	 * them together), summary} (the last one's)
	 */
	jw_open(&w, NULL, '{');
	jw_number(&w, "version", 1);
	jw_open(&w, "reports", '[');
	for (size_t i = 0; i < n; i++)
		report_json_write(&m[i], &w, 0);
	jw_close(&w, ']');
	if (r->t != NULL)
		report_together_write(r->t, &w, "together");
	report_summary_write(&m[n - 1], &w);
	jw_close(&w, '}');
	return 0;
}

/*
 * One JSON document, written through what the user named (a regular
 * file replaced atomically once complete).
 */
static void
write_json(const struct report_model *m, size_t n,
    const struct report_together *t, const char *path)
{
	struct reports r = { m, n, t };
	char *err = NULL;

	if (outfile_write(path, json_doc, &r, &err) == -1) {
		warnx("--json: %s", err);
		free(err);
	}
}

/* PATH is a rank directory itself ({host}_{pid}_{stamp}_ascend_pt). */
static int
rank_dir(const char *path)
{
	size_t n = path != NULL ? strlen(path) : 0;
	size_t suffix = strlen(RANKDIR_SUFFIX);

	while (n > 1 && path[n - 1] == '/')
		n--;
	return n >= suffix && strncmp(path + n - suffix, RANKDIR_SUFFIX,
	    suffix) == 0;
}

int
report_empty(const struct report_model *m)
{
	const struct report *c = &m->counts;

	return m->session == NULL && c->found == 0 && c->expected == 0 &&
	    !rank_dir(m->where);
}

static void
add_counts(struct report *r, const struct report_model *m)
{
	const struct report *c = &m->counts;

	r->injected += c->injected;
	r->unchanged += c->unchanged;
	r->refused += c->refused;
	r->missing_paths += c->missing_paths;
	r->failed += c->failed;
	r->expected += c->expected;
	r->found += c->found;
	r->missing += c->missing;
	if (m->ending == ENDING_HIDDEN_FAILURE && r->hidden_failure == 0)
		r->hidden_failure = m->hidden_code;
	/* a bare directory without rank directories: nothing to report on */
	r->empty += report_empty(m);
	/* files there that the summary could not read: data missing too */
	r->partial += m->summary != NULL && summary_nleft_out(m->summary) > 0;
	for (size_t i = 0; i < m->verify.nouts; i++)
		for (size_t k = 0; k < m->verify.outs[i].ndirs; k++)
			r->with_data += m->verify.outs[i].dirs[k].raw ||
			    m->verify.outs[i].dirs[k].parsed;
}

void
report_run(const struct report_in *in, size_t n, struct report *r)
{
	struct report_model *m = xcalloc(n, sizeof(*m));
	struct report_together t;
	struct report_in one;
	int many;

	memset(r, 0, sizeof(*r));
	for (size_t i = 0; i < n; i++) {
		one = in[i];
		one.no_summary = i + 1 < n;
		report_build(&one, &m[i]);
		add_counts(r, &m[i]);
	}
	many = report_together(m, n, &t);
	if (many)
		report_print_many(m, n, &t, in[0].quiet);
	else
		for (size_t i = 0; i < n; i++)
			report_print(&m[i], in[0].quiet);
	if (in[0].json != NULL)
		write_json(m, n, many ? &t : NULL, in[0].json);
	if (in[0].html != NULL)
		write_html(&m[n - 1], in[0].html);
	report_together_free(&t);
	for (size_t i = 0; i < n; i++)
		report_model_free(&m[i]);
	free(m);
}

/* Is S among the strings of V from FROM on? */
static int
listed(const struct strv *v, size_t from, const char *s)
{
	for (size_t i = from; i < v->n; i++)
		if (strcmp(v->v[i], s) == 0)
			return 1;
	return 0;
}

/* Does DIR hold a rank directory (*_ascend_pt) of its own? */
static int
holds_rankdirs(struct inventory *inv, const char *dir)
{
	const struct inv_listing *l = inventory_list(inv, dir);

	for (size_t k = 0; k < l->n; k++)
		if (ends_with(l->e[k].name, RANKDIR_SUFFIX))
			return 1;
	return 0;
}

/*
 * session_find from the inventory's listing of PATH: the directory is
 * listed once for the rank directories and the sessions both.
 */
static char *
session_of(struct inventory *inv, const char *path)
{
	const struct inv_listing *l;
	const char **names;
	char *s;

	if (session_is(path))
		return realpath(path, NULL);
	l = inventory_list(inv, path);
	names = xcalloc(l->n + 1, sizeof(*names));
	for (size_t k = 0; k < l->n; k++)
		names[k] = l->e[k].kind == INV_SUBDIR ? l->e[k].name : "";
	s = session_newest(path, names, l->n);
	free(names);
	return s;
}

/*
 * The output directories PATH stands for: PATH itself when it is one (it
 * has a session or rank directories of its own), else each directory
 * below it that holds rank directories: the shared directory of several
 * nodes is verified node by node, as when each node's is given.
 */
static void
output_dirs(char *path, struct inventory *inv, struct strv *out)
{
	struct summary_rank *ranks;
	char *session = session_of(inv, path), *why = NULL, *parent;
	size_t n, before = out->n;

	if (session == NULL && !holds_rankdirs(inv, path) &&
	    summary_find_runs_in(inv, &path, 1, &ranks, &n, NULL, NULL, NULL,
	    NULL, &why) == 0) {
		for (size_t i = 0; i < n; i++) {
			parent = xstrdup(ranks[i].path);
			*strrchr(parent, '/') = '\0';
			if (strcmp(ranks[i].path, path) != 0 &&
			    !listed(out, before, parent))
				strv_push(out, parent);
			free(parent);
		}
		summary_ranks_free(ranks, n);
	}
	free(why);
	free(session);
	if (out->n == before)
		strv_push(out, path);
}

/*
 * A session whose launches were verified to learn the summary's paths,
 * kept for its report: its journal is read and its launches verified
 * once per report.
 */
struct verified {
	char		*session;	/* the real path */
	struct journal	 journal;
	struct verify	 verify;	/* points into journal */
	int		 taken;		/* verify handed to a report */
};

static void
verified_free(struct verified *kept, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (!kept[i].taken)
			verify_free(&kept[i].verify);
		journal_free(&kept[i].journal);
		free(kept[i].session);
	}
	free(kept);
}

/* The verification kept of SESSION not yet handed to a report, or NULL. */
static struct verified *
kept_of(struct verified *kept, size_t n, const char *session)
{
	for (size_t i = 0; i < n; i++)
		if (!kept[i].taken && strcmp(kept[i].session, session) == 0)
			return &kept[i];
	return NULL;
}

/* The report's input for the output directory PATH: session, log, journal. */
static void	add_job_sessions(const char *, struct journal *);

/* When SESSION began: data older than this is not its own. */
static time_t
session_since(const char *session)
{
	char *plan = xasprintf("%s/%s", session, SESSION_PLAN);
	struct stat st;
	time_t t = stat(plan, &st) == 0 ? st.st_mtime - 1 : 0;

	free(plan);
	return t;
}

static void
load_input(const char *path, struct inventory *inv, struct report_in *in,
    struct journal *j, struct verified *kept, size_t nkept)
{
	char *session = session_of(inv, path), *logpath;
	struct verified *v;

	in->status = -1;
	in->outdir = path;
	if (session != NULL) {
		in->since = session_since(session);
		logpath = xasprintf("%s/%s", session, SESSION_LOG);
		in->log = read_file(logpath, NULL);
		free(logpath);
		/*
		 * A session given itself was verified for the summary's
		 * paths: its report takes that journal and verification.
		 */
		if (session_is(path) &&
		    (v = kept_of(kept, nkept, session)) != NULL) {
			v->taken = 1;
			in->verified = &v->verify;
			j = &v->journal;
		} else
			journal_read(session, j);
		if (j->moved_from != NULL)
			warnx(_("note: this run was made in %s and has moved to "
			    "%s: its recorded paths are read from there"),
			    j->moved_from, j->moved_to);
		/* the other nodes' sessions of the same job, beside it */
		if (!session_is(path))
			add_job_sessions(session, j);
	}
	in->session = session;
	in->journal = j;
}

/* report_summary_paths, keeping each session verified into *KEPT. */
static void
summary_paths(char *const paths[], size_t n, struct inventory *inv,
    struct strv *out, struct verified **kept, size_t *nkept)
{
	struct verified *v;
	char *session;

	*kept = NULL;
	*nkept = 0;
	for (size_t i = 0; i < n; i++) {
		if (!session_is(paths[i]) ||
		    (session = realpath(paths[i], NULL)) == NULL) {
			strv_push(out, paths[i]);
			continue;
		}
		*kept = xreallocarray(*kept, *nkept + 1, sizeof(**kept));
		v = &(*kept)[(*nkept)++];
		memset(v, 0, sizeof(*v));
		v->session = session;
		journal_read(session, &v->journal);
		verify_journal(&v->journal, session, session_since(session),
		    inv, &v->verify);
		for (size_t k = 0; k < v->verify.nouts; k++)
			for (size_t d = 0; d < v->verify.outs[k].ndirs; d++)
				strv_push(out, v->verify.outs[k].dirs[d].path);
	}
}

void
report_summary_paths(char *const paths[], size_t n, struct inventory *inv,
    struct strv *out)
{
	struct verified *kept;
	size_t nkept;

	summary_paths(paths, n, inv, out, &kept, &nkept);
	verified_free(kept, nkept);
}

/*
 * Over an output directory, the report is the job's: the launches of the
 * sessions of SESSION's job that ran with it (the other nodes sharing
 * the directory) join J.
 */
static void
add_job_sessions(const char *session, struct journal *j)
{
	struct claims c;
	struct strv others = { 0 };
	struct journal more;

	char *abs = realpath(session, NULL);

	if (abs == NULL)
		return;
	claims_gather(&c, abs, j, 0);
	claims_job_sessions(&c, abs, &others);
	claims_free(&c);
	free(abs);
	for (size_t i = 0; i < others.n; i++) {
		journal_read(others.v[i], &more);
		j->recs = xreallocarray(j->recs, j->n + more.n + 1,
		    sizeof(*j->recs));
		memcpy(j->recs + j->n, more.recs, more.n * sizeof(*more.recs));
		j->n += more.n;
		j->merged = 1;
		free(more.recs);	/* the records are J's now */
	}
	strv_free(&others);
}

int
report_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", required_argument, NULL, 'j' },
		{ "html", required_argument, NULL, 'H' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *use = _("usage: msprof-exec report [--json FILE] [--html "
	    "FILE] [-v] [-q] PATH...\n");
	struct report_in opt = { 0 }, *in;
	struct journal *journals;
	struct strv outs = { 0 }, sums = { 0 };
	struct report r;
	struct inventory inv;
	struct verified *kept;
	size_t nkept;
	char *why = NULL;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "+vqh", opts, NULL)) != -1) {
		if (c == 'j')
			opt.json = optarg;
		else if (c == 'H')
			opt.html = optarg;
		else if (c == 'v')
			opt.verbose = 1;
		else if (c == 'q')
			opt.quiet = 1;
		else {
			fputs(use, c == 'h' ? stdout : stderr);
			return c == 'h' ? 0 : EX_USAGE;
		}
	}
	if (optind >= argc) {
		fputs(use, stderr);
		return EX_USAGE;
	}
	for (int i = optind; i < argc; i++)
		session_input_check(argv[i]);
	if (opt.json != NULL && outfile_check(opt.json, OUTFILE_REPLACE,
	    &why) == -1)
		errx(EX_CANTCREAT, "--json: %s", why);
	if (opt.html != NULL && report_html_check(opt.html, &why) == -1)
		errx(EX_CANTCREAT, "%s", why);
	inventory_init(&inv);
	opt.inv = &inv;
	for (int i = optind; i < argc; i++)
		output_dirs(argv[i], &inv, &outs);
	summary_paths(argv + optind, (size_t)(argc - optind), &inv, &sums,
	    &kept, &nkept);
	in = xcalloc(outs.n, sizeof(*in));
	journals = xcalloc(outs.n, sizeof(*journals));
	for (size_t i = 0; i < outs.n; i++) {
		in[i] = opt;
		in[i].summary_paths = sums.v;
		in[i].nsummary_paths = sums.n;
		load_input(outs.v[i], &inv, &in[i], &journals[i], kept,
		    nkept);
	}
	report_run(in, outs.n, &r);
	for (size_t i = 0; i < outs.n; i++) {
		journal_free(&journals[i]);
		free((char *)in[i].log);
		free((char *)in[i].session);
	}
	free(journals);
	free(in);
	verified_free(kept, nkept);
	strv_free(&outs);
	strv_free(&sums);
	inventory_free(&inv);
	/* by rank: a directory of no known rank (killed before stop())
	 * or a second one of the same rank does not stand for another */
	/* rank directories, but not one with data: nothing was collected */
	return r.missing > 0 || r.empty > 0 || r.partial > 0 ||
	    (r.found > 0 && r.with_data == 0) ? EX_DATAERR : 0;
}
