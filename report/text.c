/*
 * The report as text: results on stdout (nothing with -q), the failure,
 * its diagnosis and the causes of missing data on stderr.
 */
#include <sys/stat.h>

#include <dirent.h>
#include <libutil.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shim/match.h"
#include "summary/summary.h"
#include "model.h"

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

static void
print_ending(const struct report_model *m)
{
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
	const char *base = rec->argv.n > 0 ? rec->argv.v[0] : "?";

	if (strrchr(base, '/') != NULL)
		base = strrchr(base, '/') + 1;
	return rec->script != NULL ? xasprintf("%s %s", base, rec->script) :
	    xstrdup(base);
}

static char *
ranks_text(const struct launch_record *rec)
{
	char *s, *t;

	if (rec->ranks_all == 1)
		return xstrdup(_("all"));
	s = xstrdup("");
	for (size_t i = 0; i < rec->nranks; i++) {
		t = xasprintf("%s%s%d", s, *s ? "," : "", rec->ranks[i]);
		free(s);
		s = t;
	}
	return s;
}

/* A profiled launch: its window (or trigger), ranks, level, save path. */
static void
print_settings(const struct launch_record *rec, const char *name)
{
	char *ranks = ranks_text(rec);
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
		break;
	case LAUNCH_KEPT:
		say(_("  %s: profiled with its own settings (--existing "
		    "keep)\n"), name);
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
	free(name);
}

static void
print_launches(const struct report_model *m)
{
	if (m->session == NULL)
		return;
	if (m->journal->n == 0 && m->nrunning == 0) {
		fprintf(stderr, _("msprof-exec: warning: no training launch was "
		    "seen; nothing was profiled. Static programs, setuid programs "
		    "and remote shells (ssh, pdsh) do not carry the shim: run "
		    "msprof-exec on each node.\n"));
		return;
	}
	say(_("msprof-exec: %d training launch(es) profiled, %d left alone\n"),
	    m->counts.injected, m->counts.unchanged);
	for (size_t i = 0; i < m->journal->n; i++)
		print_launch(&m->journal->recs[i]);
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

/* One output directory: each rank found, each one missing, the tree. */
static void
print_output(const struct report_output *out, int verbose)
{
	const struct outdir *o = out->dir;
	char *size;

	say(_("Profiling data in %s:\n"), o->path);
	for (size_t i = 0; i < o->ndirs; i++) {
		const struct rankdir *rd = &o->dirs[i];

		size = human(rd->bytes);
		say(_("  rank %d: %s  %s%s%s\n"), rd->rank, path_base(rd->path),
		    size, rd->raw ? "" : _(", no raw data (PROF_*/device_*/data)"),
		    o->analyse && !rd->parsed ?
		    _(", not parsed (no ASCEND_PROFILER_OUTPUT)") : "");
		free(size);
	}
	for (size_t k = 0; k < out->nmissing; k++)
		say(_("  rank %d: no data\n"), out->missing[k]);
	if (out->unknown)
		say(_("  which ranks run on this node is not known (node rank "
		    "from %s): no rank is counted as missing\n"),
		    o->launch != NULL && o->launch->place.node_rank_from ?
		    o->launch->place.node_rank_from : "?");
	if (out->none_expected)
		say(_("  no profiled rank runs on this node (it holds ranks "
		    "%d to %d): no data is expected here\n"), o->first_local,
		    o->first_local + o->nlocal - 1);
	/* The tree: each rank's directory and what it holds (-v: deeper). */
	if (o->ndirs > 0 && !quiet)
		print_tree(stdout, o->path, "    ", verbose ? 3 : 2);
}

/* What the profiling data says, drawn as the terminal allows. */
static void
print_summary(const struct report_model *m)
{
	if (quiet)
		return;
	if (m->summary != NULL) {
		summary_print(m->summary, stdout, summary_term_flags(stdout));
		say("\n");
	} else if (m->summary_why != NULL)
		say(_("No summary of the profiling data: %s\n"), m->summary_why);
}

void
report_print(const struct report_model *m, int q, int verbose)
{
	quiet = q;
	print_ending(m);
	for (size_t i = 0; i < m->diagnosis.texts.n; i++)
		fprintf(stderr, _("msprof-exec: cause: %s\n"),
		    m->diagnosis.texts.v[i]);
	print_launches(m);
	for (size_t i = 0; i < m->verify.nouts; i++)
		print_output(&m->outs[i], verbose);
	for (size_t i = 0; i < m->causes.n; i++)
		fprintf(stderr, _("msprof-exec: possible cause: %s\n"),
		    m->causes.v[i]);
	print_summary(m);
	if (m->next_step != NULL)
		say(_("Next: %s\n"), m->next_step);
	if (m->session != NULL && m->journal->n > 0)
		say(_("Session record: %s\n"), m->session);
}
