/*
 * The report as text: results on stdout (nothing with -q), the failure,
 * its diagnosis and the causes of missing data on stderr.
 */
#include <sys/stat.h>

#include <dirent.h>
#include <libutil.h>
#include <limits.h>
#include <unistd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>	/* GNU basename: the path left alone */

#include "common/ranks.h"
#include "summary/summary.h"
#include "findings.h"
#include "model.h"
#include "summary_writers.h"

#define LIST_ITEMS	6	/* ranges of ranks on one line */
#define LIST_LINES	5	/* links and directories named one a line */
#define LIST_LAUNCHES	8	/* more launches: those alike said once */

static int quiet;	/* -q: only errors, on stderr */
static FILE *said;	/* where say() writes: stdout, unless collecting */

/* A result line on stdout, unless -q. */
static void __attribute__((format(printf, 1, 2)))
say(const char *fmt, ...)
{
	va_list ap;

	if (quiet)
		return;
	va_start(ap, fmt);
	vfprintf(said != NULL ? said : stdout, fmt, ap);
	va_end(ap);
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

/*
 * Processes the script detached (setsid, nohup) outlive the run: they may
 * still be collecting, and the report can be made again later.
 */
static void
print_running(const struct report_model *m)
{
	char *list = xstrdup(""), *t;

	if (m->nrunning == 0) {
		free(list);
		return;
	}
	for (size_t i = 0; i < m->nrunning; i++) {
		t = xasprintf("%s%s%d", list, i ? " " : "", m->running[i]);
		free(list);
		list = t;
	}
	fprintf(stderr, _("msprof-exec: %zu process(es) the script detached "
	    "(setsid, nohup) still run (PID %s): profiling may still be "
	    "running; check later with: msprof-exec report %s\n"),
	    m->nrunning, list, m->where);
	free(list);
}

/*
 * Not the training's failure: msprof-exec refused a launch, or a later
 * step failed once the training's data was complete.
 */
static int
print_other_ending(const struct report_model *m)
{
	if (m->ending == ENDING_OK || m->ending == ENDING_UNKNOWN ||
	    m->ending == ENDING_INTERRUPTED)
		return 0;
	if (m->refused && m->counts.injected == 0) {
		fprintf(stderr, _("msprof-exec did not start the training "
		    "launch: it refused it (see 'not started' below); the "
		    "training did not run.\n"));
		return 1;
	}
	if (!m->complete)
		return 0;
	if (m->ending == ENDING_SIGNAL)
		fprintf(stderr, _("The command was killed by signal %d after "
		    "its training launch(es) finished; their profiling data is "
		    "complete.\n"), m->ending_code);
	else if (m->ending == ENDING_EXIT)
		fprintf(stderr, _("The command failed (exit code: %d) after "
		    "its training launch(es) finished; their profiling data is "
		    "complete.\n"), m->ending_code);
	else
		fprintf(stderr, _("The command's output shows errors (exit "
		    "code: 0); the profiling data of its training launch(es) is "
		    "complete.\n"));
	return 1;
}

static void
print_ending(const struct report_model *m)
{
	if (print_other_ending(m)) {
		print_running(m);
		return;
	}
	switch (m->ending) {
	case ENDING_HIDDEN_FAILURE:
		fprintf(stderr, _("Training script execution failed (exit "
		    "code: 0, but the training reported errors: a pipeline such "
		    "as '| tee' hides the launcher's exit code). Profiling "
		    "collection requires training to run normally.\n"));
		break;
	case ENDING_EXIT:
		fprintf(stderr, _("Training script execution failed (exit code: "
		    "%d). Profiling collection requires training to run "
		    "normally.\n"), m->ending_code);
		break;
	case ENDING_SIGNAL:
		fprintf(stderr, _("Training script execution failed (killed by "
		    "signal %d). Profiling collection requires training to run "
		    "normally.\n"), m->ending_code);
		break;
	case ENDING_INTERRUPTED:
		fprintf(stderr, _("msprof-exec: the run was interrupted (%s, "
		    "passed on to the job); this report shows what was "
		    "collected until then.\n"), signal_name(m->interrupted));
		break;
	case ENDING_UNKNOWN:
	case ENDING_OK:
		break;
	}
	print_running(m);
}

/* "torchrun pretrain_gpt.py" or the first word of the command. */
static char *
launch_name(const struct launch_record *rec)
{
	const char *base = basename(rec->argv.n > 0 ? rec->argv.v[0] : "?");

	return rec->script != NULL ? xasprintf("%s %s", base, rec->script) :
	    xstrdup(base);
}

/* "all" or the ranks as ranges ("0-7, 12"). */
static char *
launch_ranks(const struct launch_record *rec)
{
	if (rec->ranks_all == 1)
		return xstrdup(_("all"));
	return ranks_text(rec->ranks, rec->nranks, 0);
}

/* A profiled launch: its window (or trigger), ranks, level, save path. */
static void
print_settings(const struct launch_record *rec, const char *name)
{
	char *ranks = launch_ranks(rec);
	const char *level = rec->level ? rec->level : "";
	const char *save = rec->save_path ? rec->save_path : "";

	if (rec->mode != NULL && strcmp(rec->mode, "dynamic") == 0)
		say(_("  %s: dynamic (msprof-exec trigger), ranks %s, %s -> %s\n"),
		    name, ranks, level, save);
	else
		say(_("  %s: steps %d to %d, excluding %d, ranks %s, %s -> %s\n"),
		    name, rec->step_start, rec->step_end, rec->step_end, ranks,
		    level, save);
	free(ranks);
	for (size_t i = 0; i < rec->copies.n; i++)
		say(_("    config copy: %s\n"), rec->copies.v[i]);
}

static void
print_launch(const struct launch_record *rec)
{
	char *name = launch_name(rec);
	const char *why = rec->reason != NULL ? rec->reason : "";

	switch (rec->status) {
	case LAUNCH_INJECTED:
		print_settings(rec, name);
		if (rec->reason != NULL)
			say(_("    taken for training: %s\n"), why);
		break;
	case LAUNCH_KEPT:
		if (rec->save_path != NULL)
			say(_("  %s: profiled with its own settings (--existing "
			    "keep) -> %s\n"), name, rec->save_path);
		else
			say(_("  %s: profiled with its own settings (--existing "
			    "keep); where they save the data is not known here: "
			    "check it with msprof-exec report DIR\n"), name);
		break;
	case LAUNCH_REFUSED:
	case LAUNCH_MISSING_PATHS:
		say(_("  %s: not started: %s\n"), name, why);
		break;
	case LAUNCH_FAILED:
		say(_("  %s: failed: %s\n"), name, why);
		break;
	case LAUNCH_LEFT_ALONE:
	case LAUNCH_UNKNOWN:
		say(_("  %s: left alone (%s)\n"), name, why);
		if (rec->force != NULL)
			say(_("    to profile it anyway: %s\n"), rec->force);
		break;
	}
	for (size_t i = 0; launch_profiled(rec) && i < rec->set.n; i++)
		say(_("    run with --set %s\n"), rec->set.v[i]);
	free(name);
}

/* Say why no launch was seen, as far as is known. */
static void
print_no_launch(const struct report_model *m)
{
	if (m->background && m->ending == ENDING_UNKNOWN)
		fprintf(stderr, _("msprof-exec: warning: no training launch was "
		    "seen yet, and processes of this session's command are still "
		    "running: run 'msprof-exec report %s' again when they have "
		    "ended\n"), m->session);
	else if (m->background)
		fprintf(stderr, _("msprof-exec: warning: no training launch was "
		    "seen yet, but the command left processes running in the "
		    "background (nohup or '&' without 'wait'): a launch there "
		    "may still start and profile; check later with 'msprof-exec "
		    "report %s'\n"), m->session);
	else if (m->ending == ENDING_EXIT || m->ending == ENDING_SIGNAL)
		fprintf(stderr, _("msprof-exec: warning: the command ended before "
		    "it started any training launch; nothing was profiled.\n"));
	else
		fprintf(stderr, _("msprof-exec: warning: no training launch was "
		    "seen; nothing was profiled. Static programs, setuid programs "
		    "and remote shells (ssh, pdsh) do not carry the shim: run "
		    "msprof-exec on each node.\n"));
}

/*
 * The torch engine: its PROF_CONFIG_PATH, how often msprof-exec armed it,
 * and the steps each torch_npu process says it collected.
 */
static void
print_torch(const struct report_model *m)
{
	const struct torchnpu *t = &m->torch;
	int idle = 0, unasked = 0, collected = 0;

	if (t->dir == NULL)
		return;
	say(_("  PROF_CONFIG_PATH %s: %zu torch_npu process(es)"), t->dir,
	    t->nprocs);
	if (t->arming != NULL && t->arming->armings > 0)
		say(_(", armed %d time(s)"), t->arming->armings);
	say("\n");
	for (size_t i = 0; i < t->nprocs; i++) {
		const struct torchnpu_proc *p = &t->procs[i];

		if (p->start < 0) {
			unasked += p->not_listed;
			idle += !p->not_listed;
			continue;
		}
		collected++;
		if (p->rank >= 0)
			say(_("    rank %d (pid %ld): "), p->rank, p->pid);
		else
			say(_("    pid %ld: "), p->pid);
		if (p->stop >= 0)
			say(_("collected steps %d to %d, excluding %d\n"),
			    p->start, p->stop, p->stop);
		else
			say(_("collecting from step %d, not finished\n"),
			    p->start);
	}
	if (unasked > 0)
		say(_("    %d process(es) of ranks not asked for (torch_npu's "
		    "rank_list)\n"), unasked);
	if (idle > 0 && collected + unasked > 0)
		say(_("    %d other process(es) collected nothing (launchers, "
		    "processes without an optimizer, or that never reached the "
		    "window)\n"), idle);
	else if (idle > 0)
		say(_("    none collected\n"));
}

/* Launch I's lines, as print_launch says them. */
static char *
launch_text(const struct journal *j, size_t i)
{
	char *text = NULL;
	size_t len = 0;

	if ((said = open_memstream(&text, &len)) == NULL)
		return xstrdup("");
	print_launch(&j->recs[i]);
	fclose(said);
	said = NULL;
	return text;
}

static int
by_text(const void *a, const void *b, void *arg)
{
	char *const *t = arg;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	int c = strcmp(t[x], t[y]);

	return c != 0 ? c : (x > y) - (x < y);
}

/*
 * Many launches (one a node of a large job): those said alike are said
 * once, with how many, in the order of their first.
 */
static void
print_alike(const struct journal *j)
{
	char **text = xcalloc(j->n, sizeof(*text));
	size_t *v = xcalloc(j->n, sizeof(*v)), *count = xcalloc(j->n,
	    sizeof(*count)), i, k;

	for (i = 0; i < j->n; i++) {
		text[i] = launch_text(j, i);
		v[i] = i;
	}
	qsort_r(v, j->n, sizeof(*v), by_text, text);
	for (i = 0; i < j->n; i = k) {	/* a run of one text: its first counts */
		for (k = i + 1; k < j->n && strcmp(text[v[i]], text[v[k]]) == 0;
		    k++)
			;
		count[v[i]] = k - i;
	}
	for (i = 0; i < j->n; i++)
		if (count[i] > 1) {
			say(_("  %zu launches, each:\n"), count[i]);
			say("%s", text[i]);
		} else if (count[i] == 1)
			say("%s", text[i]);
	for (i = 0; i < j->n; i++)
		free(text[i]);
	free(text);
	free(v);
	free(count);
}

static void
print_launches(const struct report_model *m)
{
	if (m->session == NULL)
		return;
	if (m->journal->n == 0) {
		if (m->nrunning == 0)	/* else print_running said it */
			print_no_launch(m);
		return;
	}
	say(_("msprof-exec: %d training launch(es) profiled, %d left alone\n"),
	    m->counts.injected, m->counts.unchanged);
	if (m->journal->n > LIST_LAUNCHES)
		print_alike(m->journal);
	else
		for (size_t i = 0; i < m->journal->n; i++)
			print_launch(&m->journal->recs[i]);
	print_torch(m);
}

/* The tree the model holds, sizes in human units. */
static void
print_tree(FILE *f, const struct report_tree *t)
{
	const struct tree_line *l;
	char *size, *indent, *name, *target;

	for (size_t i = 0; i < t->n; i++) {
		l = &t->v[i];
		indent = xasprintf("    %*s", 2 * l->level, "");
		/* names on disk: no control byte reaches the terminal */
		name = xescape(l->name != NULL ? l->name : "");
		if (l->kind == TREE_LINK) {
			target = xescape(l->target != NULL ? l->target : "");
			fprintf(f, "%s%s -> %s\n", indent, name, target);
			free(target);
		} else if (l->kind == TREE_DIR)
			fprintf(f, "%s%s/\n", indent, name);
		else if (l->kind == TREE_FILE) {
			size = human(l->size);
			fprintf(f, "%s%s  %s\n", indent, name, size);
			free(size);
		} else
			fprintf(f, _("%s... and %d more\n"), indent,
			    (int)l->size);
		free(name);
		free(indent);
	}
}

/* "rank 3" or "rank unknown" (no profiler_info_<rank>.json). */
static char *
rank_text(int rank)
{
	return rank >= 0 ? xasprintf(_("rank %d"), rank) :
	    xstrdup(_("rank unknown"));
}

/* Other jobs' sessions that wrote into O's directory at the same time. */
static void
print_mixed(const struct outdir *o)
{
	for (size_t i = 0; i < o->mixed.n; i++)
		fprintf(stderr, _("msprof-exec: warning: %s holds the data of two "
		    "jobs run at the same time: this one and the session %s "
		    "(another master address or port); %zu rank "
		    "director(ies) made while both ran cannot be told apart and "
		    "are counted for neither: give each job its own --output\n"),
		    o->path, o->mixed.v[i], o->unclear);
}

/* The heading of output I: the launch too when its path is not its own. */
static void
print_heading(const struct report_model *m, size_t i)
{
	const struct outdir *o = &m->verify.outs[i];
	int shared = 0;
	char *name;

	for (size_t k = 0; k < m->verify.nouts; k++)
		shared |= k != i && strcmp(m->verify.outs[k].path, o->path) == 0;
	if (!shared || o->launch == NULL) {
		say(_("Profiling data in %s:\n"), o->path);
		return;
	}
	name = launch_name(o->launch);
	say(_("Profiling data in %s of the launch %s started at %s:\n"),
	    o->path, name, o->launch->time != NULL ? o->launch->time : "?");
	free(name);
}

/* "rank 3" or "ranks 0-7, 12 and 5 more" of the N ranks V. */
static char *
ranks_said(const int *v, size_t n)
{
	char *list = ranks_text(v, n, LIST_ITEMS), *s;

	s = xasprintf(ranks_count(v, n) == 1 ? _("rank %s") : _("ranks %s"),
	    list);
	free(list);
	return s;
}

/* A line "  WHAT: ranks ..." when SET has any. */
static void
print_set(const char *what, const struct rankset *set)
{
	char *list;

	if (set->n == 0)
		return;
	list = ranks_said(set->v, set->n);
	say("  %s: %s\n", what, list);
	free(list);
}

/* Each rank directory on a line of its own: a small output. */
static void
print_dirs(const struct report_output *out)
{
	const struct outdir *o = out->dir;

	for (size_t k = 0; k < o->ndirs; k++) {
		const struct rankdir *rd = &o->dirs[k];
		char *size = human(rd->bytes), *rank = rank_text(rd->rank);
		char *name = xescape(basename(rd->path));

		/* TRANSLATORS: "rank 3" or "rank unknown", then the directory. */
		say(_("  %s: %s  %s%s%s\n"), rank, name,
		    size, rd->raw ? "" : _(", no raw data (PROF_*/device_*/data)"),
		    o->analyse && !rd->parsed ?
		    _(", not parsed (no ASCEND_PROFILER_OUTPUT)") : "");
		free(name);
		free(rank);
		free(size);
	}
	for (size_t k = 0; k < out->nmissing; k++)
		if (out->pending)
			say(_("  rank %d: no data yet\n"), out->missing[k]);
		else
			say(_("  rank %d: no data\n"), out->missing[k]);
}

/* The directories of no known rank, by name, a few. */
static void
print_unknown(const struct outdir *o, size_t n)
{
	char *names = xstrdup(""), *t;
	size_t shown = 0;

	for (size_t k = 0; k < o->ndirs; k++)
		if (o->dirs[k].rank < 0 && shown++ < LIST_LINES) {
			t = xasprintf("%s%s%s", names, *names ? ", " : "",
			    basename(o->dirs[k].path));
			free(names);
			names = t;
		}
	if (shown > LIST_LINES) {
		t = xasprintf(_("%s and %zu more"), names, shown - LIST_LINES);
		free(names);
		names = t;
	}
	say(_("  %zu director(ies) of no known rank (no "
	    "profiler_info_<rank>.json): %s\n"), n, names);
	free(names);
}

/* A large output: how many ranks and their sizes, then only the odd. */
static void
print_sum(const struct report_output *out)
{
	const struct unusual *u = &out->unusual;
	char *list = ranks_said(u->ranks.v, u->ranks.n);
	char *lo = human(u->lo), *hi = human(u->hi), *all = human(u->total);

	say(_("  %zu ranks with data (%s), %s to %s each, %s in all\n"),
	    u->nranks, list, lo, hi, all);
	free(list);
	free(lo);
	free(hi);
	free(all);
	if (u->unknown > 0)
		print_unknown(out->dir, u->unknown);
	if (out->nmissing > 0) {
		list = ranks_said(out->missing, out->nmissing);
		if (out->pending)
			say(_("  no data yet: %s (%zu)\n"), list, out->nmissing);
		else
			say(_("  no data: %s (%zu)\n"), list, out->nmissing);
		free(list);
	}
	print_set(_("empty"), &u->set[U_EMPTY]);
	print_set(_("no raw data (PROF_*/device_*/data)"), &u->set[U_NO_RAW]);
	print_set(_("not parsed (no ASCEND_PROFILER_OUTPUT)"),
	    &u->set[U_UNPARSED]);
}

/* At any size: what a listing of ranks would not show at a glance. */
static void
print_odd(const struct report_output *out)
{
	const struct unusual *u = &out->unusual;
	const struct outdir *o = out->dir;
	char *list;

	for (int f = 0; f < RANKDIR_NFILES; f++)
		if (u->lacking[f].n > 0) {
			list = ranks_said(u->lacking[f].v, u->lacking[f].n);
			say(_("  incomplete: %s without %s (%zu of %zu parsed "
			    "ranks have it)\n"), list, rankdir_files[f],
			    u->have[f], u->parsed);
			free(list);
		}
	if (u->set[U_OUTSIZED].n > 0) {
		char *med = human(u->median);

		list = ranks_said(u->set[U_OUTSIZED].v, u->set[U_OUTSIZED].n);
		say(_("  outsized: %s, more than %d times the median %s\n"),
		    list, OUTSIZED, med);
		free(list);
		free(med);
	}
	if (u->set[U_DUPLICATE].n > 0) {
		list = ranks_said(u->set[U_DUPLICATE].v, u->set[U_DUPLICATE].n);
		say(_("  two directories or more: %s; the summary reads the "
		    "newest run alone\n"), list);
		free(list);
	}
	for (size_t k = 0; k < o->broken.n && k < LIST_LINES; k++)
		say("  %s\n", o->broken.v[k]);
	if (o->broken.n > LIST_LINES)
		say(_("  and %zu more links not followed\n"),
		    o->broken.n - LIST_LINES);
}

/* One output directory: its ranks (each, or summed up), the tree. */
static void
print_output(const struct report_model *m, size_t i)
{
	const struct report_output *out = &m->outs[i];
	const struct outdir *o = out->dir;
	int large = out->large;

	print_heading(m, i);
	if (large)
		print_sum(out);
	else
		print_dirs(out);
	print_odd(out);
	if (out->pending && m->ending == ENDING_UNKNOWN)
		fprintf(stderr, _("msprof-exec: warning: processes of this "
		    "session's command are still running: data may still come; "
		    "run 'msprof-exec report %s' again when they have ended\n"),
		    m->session);
	else if (out->pending)
		fprintf(stderr, _("msprof-exec: warning: the command left its "
		    "training running in the background (nohup or '&' without "
		    "'wait'): it may still be profiling; check later with "
		    "'msprof-exec report %s'\n"), m->session);
	if (out->kept)
		say(_("  the launch kept its own profiling settings: they choose "
		    "the window and the ranks, so no rank is counted as missing; "
		    "this is what they collected\n"));
	if (out->unknown)
		say(_("  which ranks run on this node is not known (node rank "
		    "from %s): no rank is counted as missing\n"),
		    o->launch != NULL && o->launch->place.node_rank_from ?
		    o->launch->place.node_rank_from : "?");
	if (out->none_expected && o->nlocal == 1)	/* a per-rank launch */
		say(_("  this launch runs rank %d alone, which is not "
		    "profiled: no data is expected from it\n"), o->first_local);
	else if (out->none_expected)
		say(_("  no profiled rank runs on this node (it holds ranks "
		    "%d to %d): no data is expected here\n"), o->first_local,
		    o->first_local + o->nlocal - 1);
	print_mixed(o);
	/* The tree: each rank's directory and what it holds (-v: deeper). */
	if (!quiet)
		print_tree(stdout, &out->tree);
	if (large)
		say(_("  (each rank's directory, size and files: --json)\n"));
}

/*
 * Several runs under the paths: which one the summary is of, and the
 * path of each, to report another.
 */
static void
print_runs(const struct report_model *m)
{
	const struct summary_run *r = m->runs;

	if (m->nruns < 2)
		return;
	say(_("%zu runs in the paths given (a run: the rank directories of "
	    "one launch, in one save path); the summary is of the first "
	    "alone (the newest by the time in their names, else the first "
	    "by path):\n"), m->nruns);
	for (size_t i = 0; i < m->nruns; i++) {
		const char *t = r[i].stamp;

		say("  %s %s", i == 0 ? "*" : " ", r[i].path);
		/* runs in one directory are told apart by when they began */
		if (strlen(t) == 17)
			say(_(" (begun %.4s-%.2s-%.2s %.2s:%.2s:%.2s)"), t, t + 4,
			    t + 6, t + 8, t + 10, t + 12);
		say(": ");
		say(r[i].ndirs == 1 ? _("%zu rank directory") :
		    _("%zu rank directories"), r[i].ndirs);
		if (r[i].nparents > 1)
			say(_(" (and in %zu other directories)"),
			    r[i].nparents - 1);
		say("\n");
	}
	say(_("  to summarise another: msprof-exec report PATH (one of "
	    "these; of runs in one directory, give the rank directories)\n"));
}

/* What the profiling data says, drawn as the terminal allows. */
static void
print_summary(const struct report_model *m)
{
	if (quiet)
		return;
	print_runs(m);
	if (m->summary != NULL) {
		unsigned flags = summary_term_flags(stdout);

		summary_print(m->summary, stdout, flags);
		findings_print(m->summary, m->findings, stdout, flags);
		say("\n");
	} else if (m->summary_why != NULL)
		say(_("No summary of the profiling data: %s\n"), m->summary_why);
}

/* The errors the failed training's log gives: the cause, first. */
static void
print_log_errors(const struct report_model *m)
{
	/* the log's words as written, but no terminal control sequence */
	char *log = xescape(m->log_path != NULL ? m->log_path : "");

	for (size_t i = 0; i < m->errors.n; i++) {
		const struct log_error *e = &m->errors.v[i];
		char *text = xescape(e->text);

		if (e->more > 0)
			/* TRANSLATORS: the log's file:line, its error, the
			   number of other lines with the same */
			fprintf(stderr, _("msprof-exec: the training's error "
			    "(%s:%d): %s (and %d more like it)\n"), log, e->line,
			    text, e->more);
		else
			fprintf(stderr, _("msprof-exec: the training's error "
			    "(%s:%d): %s\n"), log, e->line, text);
		free(text);
	}
	free(log);
}

/* How the command ended, what its log shows, its launches. */
static void
print_head(const struct report_model *m)
{
	print_ending(m);
	print_log_errors(m);
	for (size_t i = 0; i < m->diagnosis.texts.n; i++)
		fprintf(stderr, _("msprof-exec: cause: %s\n"),
		    m->diagnosis.texts.v[i]);
	print_launches(m);
}

/* The summary and what to do next. */
static void
print_tail(const struct report_model *m)
{
	print_summary(m);
	if (m->next_step != NULL)
		say(_("Next: %s\n"), m->next_step);
	if (m->session != NULL && m->journal->n > 0)
		say(_("Session record: %s\n"), m->session);
}

/*
 * A folder with nothing the report reads: one line naming what was
 * looked for, not a section a summary that cannot be made.
 */
static void
print_empty(const struct report_model *m)
{
	char *where = xescape(m->where != NULL ? m->where : ".");

	say(_("No profiling data in %s: no rank directory (*_ascend_pt, "
	    "ASCEND_PROFILER_OUTPUT inside) and no msprof-exec session "
	    "(msprof-exec_*, with its plan.json) under it\n"), where);
	free(where);
}

/* Does the verification of M name something (a link leading nowhere)? */
static int
outputs_say(const struct report_model *m)
{
	for (size_t i = 0; i < m->verify.nouts; i++)
		if (m->verify.outs[i].broken.n > 0)
			return 1;
	return 0;
}

void
report_print(const struct report_model *m, int q)
{
	quiet = q;
	if (report_empty(m) && m->summary_why == NULL && !outputs_say(m) &&
	    m->diagnosis.texts.n == 0 && m->causes.n == 0) {
		print_empty(m);
		return;
	}
	print_head(m);
	for (size_t i = 0; i < m->verify.nouts; i++)
		print_output(m, i);
	for (size_t i = 0; i < m->causes.n; i++)
		fprintf(stderr, _("msprof-exec: possible cause: %s\n"),
		    m->causes.v[i]);
	print_tail(m);
}

/* The notes of single outputs, each said once for all. */
static void
print_notes(const struct report_model *m, size_t n)
{
	size_t kept = 0, none = 0, pending = 0;
	const struct report_output *unknown = NULL;

	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < m[i].verify.nouts; k++) {
			const struct report_output *out = &m[i].outs[k];

			kept += out->kept;
			none += out->none_expected;
			pending += out->pending;
			if (out->unknown && unknown == NULL)
				unknown = out;
			print_mixed(out->dir);
		}
	if (pending > 0)
		fprintf(stderr, _("msprof-exec: warning: processes of the "
		    "command are still running or were left in the background: "
		    "data may still come; run the report again when they have "
		    "ended\n"));
	if (kept > 0)
		say(_("  %zu launch(es) kept their own profiling settings: they "
		    "choose the window and the ranks, so none of their ranks is "
		    "counted as missing\n"), kept);
	if (unknown != NULL)
		say(_("  which ranks run on a node is not known (node rank from "
		    "%s): no rank is counted as missing there\n"),
		    unknown->dir->launch != NULL &&
		    unknown->dir->launch->place.node_rank_from ?
		    unknown->dir->launch->place.node_rank_from : "?");
	if (none > 0)
		say(_("  no profiled rank runs on %zu node(s): no data is "
		    "expected there\n"), none);
}

/* Every output directory of the reports said as one. */
static void
print_all_outputs(const struct report_model *m, size_t n,
    const struct report_together *t)
{
	if (t->parent != NULL)
		say(_("Profiling data in %zu output directories under %s:\n"),
		    t->outs, t->parent);
	else
		say(_("Profiling data in %zu output directories:\n"), t->outs);
	print_sum(&t->out);
	print_odd(&t->out);
	print_notes(m, n);
	say(_("  (each output directory, its rank directories, their sizes "
	    "and files: --json)\n"));
}

void
report_print_many(const struct report_model *m, size_t n,
    const struct report_together *t, int q)
{
	struct strv causes = { 0 };
	int seen;

	quiet = q;
	for (size_t i = 0; i < n; i++)
		print_head(&m[i]);
	print_all_outputs(m, n, t);
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < m[i].causes.n; k++) {
			seen = 0;
			for (size_t j = 0; j < causes.n && !seen; j++)
				seen = strcmp(causes.v[j], m[i].causes.v[k]) == 0;
			if (!seen) {
				strv_push(&causes, m[i].causes.v[k]);
				fprintf(stderr, _("msprof-exec: possible cause: "
				    "%s\n"), m[i].causes.v[k]);
			}
		}
	strv_free(&causes);
	print_tail(&m[n - 1]);
}
