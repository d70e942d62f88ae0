/*
 * The report after a run: launches from the journal, the verified output
 * tree, the causes of anything missing, the next step.  Results go to
 * stdout, failures to stderr; --json writes the same as one document.
 */
#include <sys/stat.h>
#include <sys/wait.h>

#include <dirent.h>
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <libutil.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>
#include <unistd.h>

#include "shim/contract.h"
#include "shim/match.h"
#include "diagnose.h"
#include "common/journal.h"
#include "common/jsonfile.h"
#include "common/outfile.h"
#include "report.h"
#include "common/session.h"
#include "common/util.h"
#include "verify.h"

#define TREE_ENTRIES	12	/* entries shown per directory */

static int quiet;	/* -q: only errors, on stderr */

/* A result line on stdout, unless -q. */
static void __attribute__((format(printf, 1, 2)))
say(const char *fmt, ...)
{
	va_list ap;

	if (quiet)
		return;
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
}

static const char *
str(const cJSON *rec, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(rec, key);

	return cJSON_IsString(v) ? v->valuestring : "";
}

static int
num(const cJSON *rec, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(rec, key);

	return cJSON_IsNumber(v) ? v->valueint : 0;
}

static char *
human(int64_t bytes)
{
	char buf[8];

	/* Five characters, as ls -h: 0B, 812B, 9.4K, 61K, 1.2M. */
	humanize_number(buf, 5, bytes, "", HN_AUTOSCALE,
	    HN_DECIMAL | HN_NOSPACE | HN_B);
	return xstrdup(buf);
}

/* "torchrun pretrain_gpt.py" or the first word of the command. */
static char *
launch_name(const cJSON *rec)
{
	const cJSON *a0 = cJSON_GetArrayItem(
	    cJSON_GetObjectItemCaseSensitive(rec, "argv"), 0);
	const char *base = cJSON_IsString(a0) ? a0->valuestring : "?";
	const char *script = str(rec, "script");

	if (strrchr(base, '/') != NULL)
		base = strrchr(base, '/') + 1;
	return *script ? xasprintf("%s %s", base, script) : xstrdup(base);
}

static char *
ranks_text(const cJSON *ranks)
{
	const cJSON *e;
	char *s = xstrdup(""), *t;

	if (cJSON_IsString(ranks))
		return xstrdup(_("all"));
	cJSON_ArrayForEach(e, ranks) {
		t = xasprintf("%s%s%d", s, *s ? "," : "", e->valueint);
		free(s);
		s = t;
	}
	return s;
}

/* Collected when triggered (--mode dynamic), not in a step window. */
static int
is_dynamic(const cJSON *rec)
{
	return strcmp(str(rec, "mode"), "dynamic") == 0;
}

static void
print_launch(const cJSON *rec)
{
	char *name = launch_name(rec), *ranks;
	const char *status = str(rec, "status");
	const cJSON *c;

	if (strcmp(status, "injected") == 0) {
		ranks = ranks_text(cJSON_GetObjectItemCaseSensitive(rec, "ranks"));
		if (is_dynamic(rec))
			say(_("  %s: dynamic (msprof-exec trigger), ranks %s, %s "
			    "-> %s\n"), name, ranks, str(rec, "level"),
			    str(rec, "save_path"));
		else
			say(_("  %s: steps %d to %d, excluding %d, ranks %s, %s "
			    "-> %s\n"), name, num(rec, "step_start"),
			    num(rec, "step_end"), num(rec, "step_end"), ranks,
			    str(rec, "level"), str(rec, "save_path"));
		free(ranks);
		cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(rec,
		    "copies"))
			say(_("    config copy: %s\n"), c->valuestring);
	} else if (strcmp(status, "refused") == 0)
		say(_("  %s: not started: %s\n"), name, str(rec, "reason"));
	else if (strcmp(status, "failed") == 0)
		say(_("  %s: failed: %s\n"), name, str(rec, "reason"));
	else if (strcmp(status, "kept") == 0)
		say(_("  %s: profiled with its own settings (--existing "
		    "keep)\n"), name);
	else
		say(_("  %s: left alone (%s)\n"), name, str(rec, "reason"));
	free(name);
}

static void
count(const cJSON *journal, struct report *r)
{
	const cJSON *rec;
	const char *s;

	cJSON_ArrayForEach(rec, journal) {
		s = str(rec, "status");
		r->injected += strcmp(s, "injected") == 0 ||
		    strcmp(s, "kept") == 0;
		r->unchanged += strcmp(s, "unchanged") == 0;
		r->failed += strcmp(s, "failed") == 0;
		if (strcmp(s, "refused") == 0) {
			if (num(rec, "exit") == EX_NOINPUT)
				r->missing_paths++;
			else
				r->refused++;
		}
	}
}

/* The directory tree under PATH, DEPTH levels, sizes in human units. */
static void
print_tree(FILE *f, const char *path, const char *indent, int depth)
{
	struct dirent **names;
	struct stat st;
	char *sub, *size, *next;
	int n = scandir(path, &names, NULL, alphasort), shown = 0;

	for (int i = 0; i < n; i++) {
		const char *name = names[i]->d_name;

		if (strcmp(name, ".") != 0 && strcmp(name, "..") != 0 &&
		    strncmp(name, "msprof-exec_", 12) != 0 &&
		    shown++ < TREE_ENTRIES) {
			sub = xasprintf("%s/%s", path, name);
			if (lstat(sub, &st) == 0) {
				int dir = S_ISDIR(st.st_mode);

				size = human(dir ? 0 : st.st_size);
				fprintf(f, "%s%s%s%s%s\n", indent, name,
				    dir ? "/" : "", dir ? "" : "  ",
				    dir ? "" : size);
				free(size);
				next = xasprintf("%s  ", indent);
				if (dir && depth > 1)
					print_tree(f, sub, next, depth - 1);
				free(next);
			}
			free(sub);
		}
		free(names[i]);
	}
	if (shown > TREE_ENTRIES)
		fprintf(f, _("%s... and %d more\n"), indent,
		    shown - TREE_ENTRIES);
	if (n >= 0)
		free(names);
}

/* The first injected record that wrote to OUT (for its window). */
static const cJSON *
launch_of(const cJSON *journal, const struct outdir *o)
{
	const cJSON *rec;
	const char *save;
	char *path, *abs;
	int same;

	cJSON_ArrayForEach(rec, journal) {
		if (strcmp(str(rec, "status"), "injected") != 0)
			continue;
		save = str(rec, "save_path");
		path = save[0] == '/' ? xstrdup(save) :
		    xasprintf("%s/%s", str(rec, "cwd"), save);
		abs = realpath(path, NULL);
		same = strcmp(abs != NULL ? abs : path, o->path) == 0;
		free(abs);
		free(path);
		if (same)
			return rec;
	}
	return NULL;
}

/* Why expected data is missing, most likely first. */
static void
causes(const struct report_in *in, const struct outdir *o,
    struct strv *out)
{
	const cJSON *rec = launch_of(in->journal, o);
	int last = in->log ? log_last_iteration(in->log) : -1;
	int start = num(rec, "step_start"), end = num(rec, "step_end");
	/*
	 * The last iteration the window needs, as the log counts (from 1):
	 * MCore steps are iterations, [S, E) ends with E - 1; the others
	 * count steps from 0, and step E - 1 is iteration E.
	 */
	int needed = strcmp(str(rec, "engine"), "llm-mcore") == 0 ? end - 1 :
	    end;

	if (rec == NULL || is_dynamic(rec))
		;		/* no window to compare */
	else if (last >= 0 && last < needed)
		strv_pushf(out, _("the window was never reached or not "
		    "finished: steps %d to %d, excluding %d, but the log shows "
		    "training stopped at iteration %d; lower --steps or raise "
		    "--train-iters"), start, end, end, last);
	else if (last < 0 && in->log != NULL)
		strv_pushf(out, _("the window may never have been reached: "
		    "steps %d to %d, excluding %d (the log shows no iteration)"),
		    start, end, end);
	if (o->nexpected == 0)
		strv_pushf(out, _("no profiled rank runs on this node (it holds "
		    "ranks %d to %d): no data is expected here"),
		    o->first_local, o->first_local + o->nlocal - 1);
	if (rec != NULL && cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(rec,
	    "cann")))
		strv_push(out, _("the CANN environment was not loaded (no "
		    "ASCEND_TOOLKIT_HOME): source set_env.sh or give --cann-env"));
	if (!o->analyse)
		strv_pushf(out, _("online parsing was off: run 'msprof-exec "
		    "analyse %s' to parse the raw data"), o->path);
}

static cJSON *
json_ints(const int *v, size_t n)
{
	cJSON *a = cJSON_CreateArray();

	for (size_t i = 0; i < n; i++)
		cJSON_AddItemToArray(a, cJSON_CreateNumber(v[i]));
	return a;
}

/* One output directory: found against expected, as text and JSON. */
static cJSON *
report_outdir(const struct report_in *in, const struct outdir *o,
    struct report *r, struct strv *why)
{
	cJSON *j = cJSON_CreateObject(), *found, *d, *miss;
	char *size;

	cJSON_AddStringToObject(j, "path", o->path);
	cJSON_AddBoolToObject(j, "analyse", o->analyse);
	cJSON_AddItemToObject(j, "expected_ranks",
	    json_ints(o->expected, o->nexpected));
	found = cJSON_AddArrayToObject(j, "found");
	miss = cJSON_AddArrayToObject(j, "missing_ranks");
	say(_("Profiling data in %s:\n"), o->path);
	for (size_t i = 0; i < o->ndirs; i++) {
		const struct rankdir *rd = &o->dirs[i];

		size = human(rd->bytes);
		say(_("  rank %d: %s  %s%s%s\n"), rd->rank,
		    path_base(rd->path), size,
		    rd->raw ? "" : _(", no raw data (PROF_*/device_*/data)"),
		    o->analyse && !rd->parsed ?
		    _(", not parsed (no ASCEND_PROFILER_OUTPUT)") : "");
		free(size);
		d = cJSON_CreateObject();
		cJSON_AddNumberToObject(d, "rank", rd->rank);
		cJSON_AddStringToObject(d, "path", rd->path);
		cJSON_AddBoolToObject(d, "raw", rd->raw);
		cJSON_AddBoolToObject(d, "parsed", rd->parsed);
		cJSON_AddNumberToObject(d, "bytes", (double)rd->bytes);
		cJSON_AddItemToArray(found, d);
	}
	r->found += (int)o->ndirs;
	r->expected += (int)o->nexpected;
	for (size_t k = 0; k < o->nexpected; k++)
		if (outdir_found(o, o->expected[k]) == NULL) {
			r->missing++;
			say(_("  rank %d: no data\n"), o->expected[k]);
			cJSON_AddItemToArray(miss,
			    cJSON_CreateNumber(o->expected[k]));
		}
	if (o->nexpected == 0 && in->session != NULL)
		say(_("  no profiled rank runs on this node (it holds ranks "
		    "%d to %d): no data is expected here\n"), o->first_local,
		    o->first_local + o->nlocal - 1);
	else if (cJSON_GetArraySize(miss) > 0 || (o->ndirs == 0 &&
	    in->session == NULL))
		causes(in, o, why);
	/* The tree: each rank's directory and what it holds (-v: deeper). */
	if (o->ndirs > 0 && !quiet)
		print_tree(stdout, o->path, "    ", in->verbose ? 3 : 2);
	return j;
}

static void
next_step(const struct verify *v, cJSON *doc)
{
	const char *what = NULL;
	char *text = NULL;

	for (size_t i = 0; i < v->nouts && what == NULL; i++) {
		const struct outdir *o = &v->outs[i];

		for (size_t k = 0; k < o->ndirs && what == NULL; k++)
			if (o->dirs[k].parsed)
				what = o->path;
			else if (o->dirs[k].raw)
				text = xasprintf(_("parse the raw data: "
				    "msprof-exec analyse %s"), o->path);
	}
	if (what != NULL) {
		free(text);
		text = xasprintf(_("open %s in MindStudio Insight"), what);
	}
	if (text != NULL) {
		say(_("Next: %s\n"), text);
		cJSON_AddStringToObject(doc, "next_step", text);
	}
	free(text);
}

/* Signs in the log that a launcher failed although the script did not. */
static int
log_failed(const char *log)
{
	static const char *const marks[] = { "ChildFailedError",
	    "Traceback (most recent call last):", "[ERROR] failed (exitcode:",
	    NULL };

	for (int i = 0; log != NULL && marks[i] != NULL; i++)
		if (strstr(log, marks[i]) != NULL)
			return 1;
	return 0;
}

/*
 * The run was cut short by a signal sent to msprof-exec: the data is
 * what was collected until then.  Processes the script detached may still
 * be collecting: the report can be made again later.
 */
static void
interruption(const struct report_in *in, cJSON *doc)
{
	static const char *const names[] = { [SIGHUP] = "SIGHUP",
	    [SIGINT] = "SIGINT", [SIGQUIT] = "SIGQUIT", [SIGTERM] = "SIGTERM" };
	const char *name = in->interrupted > 0 && in->interrupted <= SIGTERM &&
	    names[in->interrupted] != NULL ? names[in->interrupted] : "signal";
	cJSON *pids;
	char *list = xstrdup("");

	if (in->interrupted > 0) {
		fprintf(stderr, _("msprof-exec: the run was interrupted (%s, "
		    "passed on to the job); this report shows what was "
		    "collected until then.\n"), name);
		cJSON_AddStringToObject(doc, "interrupted", name);
	}
	if (in->nrunning == 0) {
		free(list);
		return;
	}
	pids = cJSON_AddArrayToObject(doc, "still_running");
	for (size_t i = 0; i < in->nrunning; i++) {
		char *t = xasprintf("%s%s%d", list, i ? " " : "", in->running[i]);

		free(list);
		list = t;
		cJSON_AddItemToArray(pids, cJSON_CreateNumber(in->running[i]));
	}
	fprintf(stderr, _("msprof-exec: %zu process(es) the script detached "
	    "(setsid, nohup) still run (PID %s): profiling may still be "
	    "running; check later with: msprof-exec report %s\n"),
	    in->nrunning, list, in->session != NULL ? in->session :
	    in->outdir);
	free(list);
}

static void
failure(const struct report_in *in, cJSON *doc)
{
	if (in->status == -1)
		return;
	if (in->interrupted > 0) {
		if (WIFEXITED(in->status))
			cJSON_AddNumberToObject(doc, "exit_status",
			    WEXITSTATUS(in->status));
		else if (WIFSIGNALED(in->status))
			cJSON_AddNumberToObject(doc, "signal",
			    WTERMSIG(in->status));
		return;		/* not a failure of the training's own */
	}
	if (WIFEXITED(in->status) && WEXITSTATUS(in->status) == 0) {
		if (log_failed(in->log)) {
			fprintf(stderr, _("Training script execution failed "
			    "(exit code: 0, but the training reported errors: a "
			    "pipeline such as '| tee' hides the launcher's exit "
			    "code). Profiling collection requires training to run "
			    "normally.\n"));
			cJSON_AddBoolToObject(doc, "training_failed", 1);
		}
		return;
	}
	if (WIFEXITED(in->status)) {
		fprintf(stderr, _("Training script execution failed (exit code: "
		    "%d). Profiling collection requires training to run "
		    "normally.\n"), WEXITSTATUS(in->status));
		cJSON_AddNumberToObject(doc, "exit_status",
		    WEXITSTATUS(in->status));
	} else {
		fprintf(stderr, _("Training script execution failed (killed by "
		    "signal %d). Profiling collection requires training to run "
		    "normally.\n"), WTERMSIG(in->status));
		cJSON_AddNumberToObject(doc, "signal", WTERMSIG(in->status));
	}
}

void
report_run(const struct report_in *in, struct report *r)
{
	cJSON *doc = cJSON_CreateObject(), *outs;
	struct strv diag = { 0 }, why = { 0 };
	struct verify v;
	const cJSON *rec;
	char *err = NULL;
	int mm = 0;

	memset(r, 0, sizeof(*r));
	count(in->journal, r);
	cJSON_ArrayForEach(rec, in->journal)
		mm |= strncmp(str(rec, "engine"), "mm-", 3) == 0;
	cJSON_AddNumberToObject(doc, "version", 1);
	if (in->session != NULL)
		cJSON_AddStringToObject(doc, "session", in->session);
	quiet = in->quiet;
	interruption(in, doc);
	failure(in, doc);
	diagnose_log(in->log, mm, &diag);
	for (size_t i = 0; i < diag.n; i++)
		fprintf(stderr, _("msprof-exec: cause: %s\n"), diag.v[i]);
	if (in->session != NULL)
		verify_journal(in->journal, in->since, &v);
	else
		verify_dir(in->outdir, &v);
	if (in->session != NULL && cJSON_GetArraySize(in->journal) == 0 &&
	    in->nrunning == 0)
		fprintf(stderr, _("msprof-exec: warning: no training launch was "
		    "seen; nothing was profiled. Static programs, setuid programs "
		    "and remote shells (ssh, pdsh) do not carry the shim: run "
		    "msprof-exec on each node.\n"));
	else if (in->session != NULL) {
		say(_("msprof-exec: %d training launch(es) profiled, %d left "
		    "alone\n"), r->injected, r->unchanged);
		cJSON_ArrayForEach(rec, in->journal)
			print_launch(rec);
	}
	outs = cJSON_AddArrayToObject(doc, "outputs");
	for (size_t i = 0; i < v.nouts; i++)
		cJSON_AddItemToArray(outs, report_outdir(in, &v.outs[i], r, &why));
	for (size_t i = 0; i < why.n; i++)
		fprintf(stderr, _("msprof-exec: possible cause: %s\n"),
		    why.v[i]);
	next_step(&v, doc);
	if (in->session != NULL && cJSON_GetArraySize(in->journal) > 0)
		say(_("Session record: %s\n"), in->session);
	cJSON_AddItemToObject(doc, "launches",
	    cJSON_Duplicate(in->journal, 1));
	cJSON_AddItemToObject(doc, "diagnosis", json_strings(diag.v));
	cJSON_AddItemToObject(doc, "causes", json_strings(why.v));
	if (in->json != NULL && json_write(doc, in->json, &err) == -1) {
		warnx("%s", err);
		free(err);
	}
	verify_free(&v);
	strv_free(&diag);
	strv_free(&why);
	cJSON_Delete(doc);
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
	struct report r;
	struct stat st;
	char *session = NULL, *plan, *logpath, *err = NULL;
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
	if (in.json != NULL && outfile_check(in.json, OUTFILE_REPLACE,
	    &err) == -1)
		errx(EX_CANTCREAT, "--json: %s", err);
	if (stat(argv[optind], &st) == -1 || !S_ISDIR(st.st_mode))
		errx(EX_NOINPUT, _("%s: no such directory; give the output "
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
	in.journal = session != NULL ? journal_read(session) :
	    cJSON_CreateArray();
	report_run(&in, &r);
	cJSON_Delete(in.journal);
	free((char *)in.log);
	free(session);
	/* by rank: a directory of no known rank (killed before stop())
	 * or a second one of the same rank does not stand for another */
	return r.missing > 0 || (r.found == 0 && r.expected == 0 &&
	    session == NULL) ? EX_DATAERR : 0;
}
