/*
 * The report after a run, and `msprof-exec report PATH`: the model is
 * built once (model.c), then printed (text.c) and, with --json, written
 * (json.c).
 */
#include <sys/stat.h>

#include <err.h>
#include <limits.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>
#include <unistd.h>

#include "shim/contract.h"
#include "common/jsonfile.h"
#include "common/session.h"
#include "attrib.h"
#include "model.h"

void
report_run(const struct report_in *in, struct report *r)
{
	struct report_model m;
	cJSON *doc;
	char *err = NULL;

	report_build(in, &m);
	report_print(&m, in->quiet, in->verbose);
	if (in->json != NULL) {
		doc = report_json(&m);
		if (json_write(doc, in->json, &err) == -1) {
			warnx("%s", err);
			free(err);
		}
		cJSON_Delete(doc);
	}
	*r = m.counts;
	report_model_free(&m);
}

static int
is_session(const char *path)
{
	char *plan = xasprintf("%s/%s", path, SESSION_PLAN);
	int yes = access(plan, R_OK) == 0;

	free(plan);
	return yes;
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
		free(more.recs);	/* the records are J's now */
	}
	strv_free(&others);
}

int
report_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", required_argument, NULL, 'j' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *use = _("usage: msprof-exec report [--json FILE] [-v] [-q] "
	    "PATH\n");
	struct report_in in = { 0 };
	struct journal journal = { 0 };
	struct report r;
	struct stat st;
	char *session = NULL, *plan, *logpath;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "+vqh", opts, NULL)) != -1) {
		if (c == 'j')
			in.json = optarg;
		else if (c == 'v')
			in.verbose = 1;
		else if (c == 'q')
			in.quiet = 1;
		else {
			fputs(use, c == 'h' ? stdout : stderr);
			return c == 'h' ? 0 : EX_USAGE;
		}
	}
	if (optind != argc - 1) {
		fputs(use, stderr);
		return EX_USAGE;
	}
	if (stat(argv[optind], &st) == -1)
		errx(EX_NOINPUT, _("%s: no such directory; give the output "
		    "directory of a run (or its msprof-exec_* session)"),
		    argv[optind]);
	if (!S_ISDIR(st.st_mode))
		errx(EX_NOINPUT, _("%s: not a directory; give the output "
		    "directory of a run (or its msprof-exec_* session)"),
		    argv[optind]);
	session = session_find(argv[optind]);
	in.status = -1;
	in.outdir = argv[optind];
	if (session != NULL) {
		plan = xasprintf("%s/%s", session, SESSION_PLAN);
		in.since = stat(plan, &st) == 0 ? st.st_mtime - 1 : 0;
		free(plan);
		logpath = xasprintf("%s/%s", session, SESSION_LOG);
		in.log = read_file(logpath, NULL);
		free(logpath);
		in.session = session;
	}
	if (session != NULL) {
		journal_read(session, &journal);
		if (!is_session(argv[optind]))
			add_job_sessions(session, &journal);
	}
	in.journal = &journal;
	report_run(&in, &r);
	journal_free(&journal);
	free((char *)in.log);
	free(session);
	/* by rank: a directory of no known rank (killed before stop())
	 * or a second one of the same rank does not stand for another */
	return r.missing > 0 || (r.found == 0 && r.expected == 0 &&
	    session == NULL) ? EX_DATAERR : 0;
}
