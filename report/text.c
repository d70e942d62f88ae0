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

#include "common/ranks.h"
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
	const char *base = rec->argv.n > 0 ? rec->argv.v[0] : "?";

	if (strrchr(base, '/') != NULL)
		base = strrchr(base, '/') + 1;
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
	for (size_t i = 0; i < m->journal->n; i++)
		print_launch(&m->journal->recs[i]);
	print_torch(m);
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

/* One output directory: each rank found, each one missing, the tree. */
static void
print_output(const struct report_model *m, size_t i, int verbose)
{
	const struct report_output *out = &m->outs[i];
	const struct outdir *o = out->dir;
	char *size, *rank;
	int first = 1;

	print_heading(m, i);
	for (size_t k = 0; k < i; k++)
		first &= strcmp(m->verify.outs[k].path, o->path) != 0;
	for (size_t k = 0; k < o->ndirs; k++) {
		const struct rankdir *rd = &o->dirs[k];

		size = human(rd->bytes);
		rank = rank_text(rd->rank);
		/* TRANSLATORS: "rank 3" or "rank unknown", then the directory. */
		say(_("  %s: %s  %s%s%s\n"), rank, path_base(rd->path),
		    size, rd->raw ? "" : _(", no raw data (PROF_*/device_*/data)"),
		    o->analyse && !rd->parsed ?
		    _(", not parsed (no ASCEND_PROFILER_OUTPUT)") : "");
		free(rank);
		free(size);
	}
	for (size_t k = 0; k < out->nmissing; k++)
		if (out->pending)
			say(_("  rank %d: no data yet\n"), out->missing[k]);
		else
			say(_("  rank %d: no data\n"), out->missing[k]);
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
	if (o->ndirs > 0 && first && !quiet)
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
		print_output(m, i, verbose);
	for (size_t i = 0; i < m->causes.n; i++)
		fprintf(stderr, _("msprof-exec: possible cause: %s\n"),
		    m->causes.v[i]);
	print_summary(m);
	if (m->next_step != NULL)
		say(_("Next: %s\n"), m->next_step);
	if (m->session != NULL && m->journal->n > 0)
		say(_("Session record: %s\n"), m->session);
}
