/*
 * Build the report: how the command ended, what the log shows, the
 * launches, the output directories against the ranks each was to hold,
 * why anything is missing, and what to do next.
 */
#include <sys/wait.h>

#include <dirent.h>
#include <signal.h>

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "shim/contract.h"
#include "common/plan.h"
#include "common/rankname.h"
#include "engines/engine.h"
#include "engines/window.h"
#include "advice/advice.h"
#include "summary/inventory.h"
#include "summary/summary.h"
#include "model.h"

static void
count_launches(struct report_model *m)
{
	struct report *c = &m->counts;

	for (size_t i = 0; i < m->journal->n; i++)
		switch (m->journal->recs[i].status) {
		case LAUNCH_INJECTED:
		case LAUNCH_KEPT:
			c->injected++;
			break;
		case LAUNCH_LEFT_ALONE:
			c->unchanged++;
			break;
		case LAUNCH_REFUSED:
			c->refused++;
			break;
		case LAUNCH_MISSING_PATHS:
			c->missing_paths++;
			break;
		case LAUNCH_FAILED:
			c->failed++;
			break;
		case LAUNCH_UNKNOWN:
			break;
		}
}

const char *
signal_name(int sig)
{
	switch (sig) {
	case SIGHUP:	return "SIGHUP";
	case SIGINT:	return "SIGINT";
	case SIGQUIT:	return "SIGQUIT";
	case SIGTERM:	return "SIGTERM";
	default:	return "signal";
	}
}

static void
ending(const struct report_in *in, struct report_model *m)
{
	m->interrupted = in->interrupted;
	m->running = in->running;	/* detached, still running */
	m->nrunning = in->nrunning;
	m->where = in->session != NULL ? in->session : in->outdir;
	m->exited = in->status != -1 && WIFEXITED(in->status);
	if (in->status == -1)
		m->ending = ENDING_UNKNOWN;
	else if (in->interrupted > 0) {
		/* not a failure of the training's own */
		m->ending = ENDING_INTERRUPTED;
		m->ending_code = m->exited ? WEXITSTATUS(in->status) :
		    WTERMSIG(in->status);
	}
	else if (WIFEXITED(in->status) && WEXITSTATUS(in->status) == 0) {
		/* a pipeline such as '| tee' hides the launcher's status */
		m->ending = log_shows_failure(in->log) ? ENDING_HIDDEN_FAILURE :
		    ENDING_OK;
		m->hidden_code = log_exit_code(in->log);
	}
	else if (WIFEXITED(in->status)) {
		m->ending = ENDING_EXIT;
		m->ending_code = WEXITSTATUS(in->status);
	} else {
		m->ending = ENDING_SIGNAL;
		m->ending_code = WTERMSIG(in->status);
	}
}

/*
 * Did the training fail, as its status or its log says?  Then the errors
 * its log gives are the cause, said first.
 */
static void
log_errors_of(const struct report_in *in, struct report_model *m)
{
	int failed = m->ending == ENDING_EXIT || m->ending == ENDING_SIGNAL ||
	    m->ending == ENDING_HIDDEN_FAILURE ||
	    (m->ending == ENDING_UNKNOWN && log_shows_failure(in->log));

	if (!failed || in->log == NULL)
		return;
	log_errors_find(in->log, &m->errors);
	if (m->errors.n > 0)
		m->log_path = m->session != NULL ? xasprintf("%s/%s",
		    m->session, SESSION_LOG) : xstrdup(SESSION_LOG);
}

/* Did the session run MindSpeed-MM (whose advice differs at times)? */
static int
ran_mm(const struct journal *j)
{
	for (size_t i = 0; i < j->n; i++)
		if (j->recs[i].engine != NULL &&
		    engine_is_mm(engine_parse(j->recs[i].engine)))
			return 1;
	return 0;
}

/* Collected when triggered (--mode dynamic), not in a step window. */
static int
dynamic(const struct launch_record *rec)
{
	return rec->mode != NULL && strcmp(rec->mode, "dynamic") == 0;
}

/* The last iteration the window needs, as the log counts. */
static long
last_needed(const struct launch_record *rec)
{
	return window_last_iteration(engine_parse(rec->engine != NULL ?
	    rec->engine : ""), rec->step_end);
}

/* Did the training stop of a failure or a signal, not at its end? */
static int
stopped_early(const struct report_model *m)
{
	return m->diagnosis.texts.n > 0 || m->ending == ENDING_SIGNAL ||
	    m->ending == ENDING_EXIT || m->ending == ENDING_HIDDEN_FAILURE;
}

/* How the command ended, when it failed, in a few words; or NULL. */
static char *
ending_said(const struct report_model *m)
{
	switch (m->ending) {
	case ENDING_EXIT:
		return xasprintf(_("it exited with status %d"),
		    m->ending_code);
	case ENDING_SIGNAL:
		return xasprintf(_("it was killed by signal %d"),
		    m->ending_code);
	case ENDING_HIDDEN_FAILURE:
		return xstrdup(_("its log shows errors (a pipeline such as "
		    "'| tee' hid its exit status)"));
	default:
		return NULL;
	}
}

/* Why the expected data of O is missing, most likely first. */
static void
causes(const struct report_in *in, const struct report_model *m,
    const struct outdir *o, struct strv *out)
{
	const struct launch_record *rec = o->launch;
	int last = in->log != NULL ? log_last_iteration(in->log) : -1;

	/* a torch training's log has no Megatron iteration lines */
	if (rec != NULL && rec->prof_config != NULL) {
		struct torch_evidence ev = { .log = in->log, .rec = rec,
		    .explained = m->diagnosis.texts.n > 0 };
		char *how = ending_said(m);

		ev.failed = how != NULL;
		ev.ending = how;
		torchnpu_causes(&m->torch, &ev, out);
		free(how);
	} else if (rec != NULL && rec->framework != NULL &&
	    strcmp(rec->framework, "torch") == 0) {
		/* a failure the log names is the cause, said above */
		if (rec->status == LAUNCH_KEPT && !stopped_early(m))
			torchnpu_kept_causes(rec, out);
	} else if (rec != NULL && !dynamic(rec)) {
		if (last >= 0 && last < last_needed(rec) &&
		    stopped_early(m))
			strv_pushf(out, _("training stopped at iteration %d, "
			    "before the end of the window (steps %d to %d, "
			    "excluding %d): the failure or interruption above "
			    "ended it"), last, rec->step_start, rec->step_end,
			    rec->step_end);
		else if (last >= 0 && last < last_needed(rec))
			strv_pushf(out, _("the window was never reached or not "
			    "finished: steps %d to %d, excluding %d, but the log "
			    "shows training stopped at iteration %d; lower --steps "
			    "or raise --train-iters"), rec->step_start,
			    rec->step_end, rec->step_end, last);
		else if (last < 0 && m->errors.n > 0)
			strv_pushf(out, _("the training failed before its "
			    "first iteration (the log shows none), so its window "
			    "(steps %d to %d, excluding %d) was never reached: the "
			    "error above ended it"), rec->step_start,
			    rec->step_end, rec->step_end);
		else if (last < 0 && in->log != NULL)
			strv_pushf(out, _("a guess, as the log gives no error: "
			    "the window may never have been reached: steps %d to "
			    "%d, excluding %d (the log shows no iteration)"),
			    rec->step_start, rec->step_end, rec->step_end);
	}
	if (rec != NULL && rec->cann == 0)
		strv_push(out, _("the CANN environment was not loaded (no "
		    "ASCEND_TOOLKIT_HOME): source set_env.sh or give --cann-env"));
	if (!o->analyse)
		strv_pushf(out, _("online parsing was off: run 'msprof-exec "
		    "analyse %s' to parse the raw data"), o->path);
}

/* Output directory I: what was found against what was expected. */
static void
check_output(const struct report_in *in, struct report_model *m, size_t i)
{
	const struct outdir *o = &m->verify.outs[i];
	struct report_output *out = &m->outs[i];

	out->dir = o;
	unusual_find(o, &out->unusual);
	out->missing = xcalloc(o->nexpected + 1, sizeof(*out->missing));
	for (size_t k = 0; k < o->nexpected; k++)
		if (outdir_found(o, o->expected[k]) == NULL)
			out->missing[out->nmissing++] = o->expected[k];
	m->counts.found += (int)o->ndirs;
	m->counts.expected += (int)o->nexpected;
	m->counts.missing += (int)out->nmissing;
	out->kept = o->launch != NULL && o->launch->status == LAUNCH_KEPT;
	out->unknown = m->session != NULL && !o->known && !out->kept;
	out->none_expected = m->session != NULL && o->known &&
	    o->nexpected == 0;
	/* a launch still running: its data may yet come */
	out->pending = m->background && out->nmissing > 0;
	if (out->pending)
		m->counts.missing -= (int)out->nmissing;
	else if (out->nmissing > 0 || (o->ndirs == 0 && (m->session == NULL ||
	    out->kept)))
		causes(in, m, o, &m->causes);
}

/* The first launch that profiled a window (not triggered), or NULL. */
static const struct launch_record *
window_launch(const struct journal *j)
{
	for (size_t i = 0; i < j->n; i++)
		if (launch_profiled(&j->recs[i]) && !dynamic(&j->recs[i]) &&
		    j->recs[i].engine != NULL && j->recs[i].step_start >= 0 &&
		    j->recs[i].step_end > j->recs[i].step_start)
			return &j->recs[i];
	return NULL;
}

/*
 * The window by which the summary names torch_npu's ProfilerSteps (as
 * engines/window.h maps them to iterations): that of the first launch
 * that profiled one.  None when no launch did, or its engine is not
 * known: the steps are then shown as torch_npu numbers them.
 */
static void
step_window(const struct report_model *m, struct summary_opts *o)
{
	const struct launch_record *rec = window_launch(m->journal);

	if (rec == NULL)
		return;
	o->window.engine = engine_parse(rec->engine);
	o->window.start = rec->step_start;
	o->window.loaded = rec->loaded_iteration;	/* 0: from scratch */
}

/*
 * What the summary and the advice check the data against: the session's
 * launches, and the device memory its preflight recorded in the plan; and
 * the log, in which the MFU finds the training's own figures.
 */
static void
launch_facts(const struct report_in *in, struct report_model *m,
    struct summary_opts *o)
{
	struct plan *p;
	char *path;

	if (m->session == NULL)
		return;
	o->journal = m->journal;
	o->log = in->log;
	path = xasprintf("%s/%s", m->session, SESSION_PLAN);
	if (m->plan == NULL) {
		m->plan = xcalloc(1, sizeof(*m->plan));
		if (plan_read(m->plan, path, &m->plan_why) == -1)
			plan_free(m->plan);
	}
	free(path);
	p = m->plan;
	o->device_mb = p->device_mb;
	o->chip = p->chip;
	o->chip_ini = p->chip_ini;
	o->chip_why = m->plan_why != NULL ? m->plan_why : p->chip_why;
	o->chip_cores = p->chip_cores;
	o->chip_mhz = p->chip_mhz;
}

/*
 * The data summary, once verification has found the rank directories:
 * over those (one per rank, the newest), or over the rank directories
 * under the paths msprof-exec report was given; none when nothing was to
 * be profiled.  What it could not make it says itself.
 */
/*
 * Did verification name LINK?  It names the links its listings hold not
 * followed (in its output directory's form); the listings are the
 * inventory's, one a directory however it is reached.
 */
static int
verified_link(const struct report_model *m, struct inventory *inv,
    const char *link)
{
	char *dir = xstrdup(link);
	const char *name = strrchr(link, '/') + 1;
	const struct inv_listing *l;
	int yes = 0;

	*strrchr(dir, '/') = '\0';
	l = inventory_list(inv, dir);
	for (size_t i = 0; i < m->verify.nouts && !yes; i++)
		yes = inventory_list(inv, m->verify.outs[i].path) == l;
	for (size_t k = 0; k < l->n && yes; k++)
		if (strcmp(l->e[k].name, name) == 0)
			yes = l->e[k].kind == INV_NOTE;
	free(dir);
	return yes;
}

static void
summarise(const struct report_in *in, struct report_model *m,
    struct inventory *inv)
{
	struct summary_opts o = { 0 };
	struct summary_rank *ranks;
	struct strv paths = { 0 }, notes = { 0 }, links = { 0 };
	char *const *v = in->summary_paths;
	size_t n = in->nsummary_paths, nranks;
	char *why = NULL;

	if (in->no_summary || (v == NULL && m->verify.nouts == 0))
		return;
	if (v == NULL) {
		for (size_t i = 0; i < m->verify.nouts; i++)
			for (size_t k = 0; k < m->verify.outs[i].ndirs; k++)
				strv_push(&paths, m->verify.outs[i].dirs[k].path);
		v = paths.v;
		n = paths.n;
	}
	if (summary_find_runs_in(inv, v, n, &ranks, &nranks, &m->runs,
	    &m->nruns, &notes, &links, &why) == -1)
		m->summary_why = why;
	else {
		struct advice_in ai;

		step_window(m, &o);
		launch_facts(in, m, &o);
		/* the advice checks the same launches and device */
		ai = (struct advice_in){ o.journal, o.device_mb };
		m->summary = summary_build(ranks, nranks, &o);
		m->findings = advice_run(m->summary, &ai);
		for (size_t i = 0; i < nranks; i++)
			strv_push(&m->run_dirs, ranks[i].path);
		summary_ranks_free(ranks, nranks);
	}
	/* links below the paths given, not followed: with verification's */
	for (size_t i = 0; i < notes.n && m->verify.nouts > 0; i++)
		if (!verified_link(m, inv, links.v[i]))
			strv_push(&m->verify.outs[0].broken, notes.v[i]);
	strv_free(&notes);
	strv_free(&links);
	strv_free(&paths);
}

/* Is PATH directly in DIR (both absolute, or as given)? */
static int
directly_in(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return strncmp(path, dir, n) == 0 && path[n] == '/' &&
	    strchr(path + n + 1, '/') == NULL;
}

/* Is PATH (a rank directory) one of RANKS? */
static int
among(const char *path, const struct summary_rank *ranks, size_t n)
{
	char *real = realpath(path, NULL), *r;
	int found = 0;

	for (size_t i = 0; i < n && real != NULL && !found; i++) {
		r = realpath(ranks[i].path, NULL);
		found = r != NULL && strcmp(r, real) == 0;
		free(r);
	}
	free(real);
	return found;
}

/*
 * The rank directories in O of the run reported, when O holds other
 * runs' too (as summary_find_runs tells runs apart: a node's part of a
 * job is of its run); else none.  The run's: the newest of O when the
 * run reported is (every node's part of it), else those reported.
 */
static void
run_dirs(const struct report_model *m, struct inventory *inv,
    const struct outdir *o, struct strv *out, size_t *total)
{
	struct summary_rank *ranks;
	struct summary_run *runs;
	size_t nranks, nruns;
	char *path = o->path, *why = NULL, *dir = realpath(o->path, NULL), *real;
	const char *mine = m->run_dirs.n > 0 ? m->run_dirs.v[0] :
	    o->ndirs > 0 ? o->dirs[0].path : NULL;

	*total = 0;
	if (dir == NULL || mine == NULL || summary_find_runs_in(inv, &path, 1,
	    &ranks, &nranks, &runs, &nruns, NULL, NULL, &why) == -1) {
		free(dir);
		free(why);
		return;
	}
	for (size_t i = 0; i < nruns && nruns > 1; i++)
		*total += runs[i].ndirs;
	if (nruns > 1 && among(mine, ranks, nranks))
		for (size_t i = 0; i < nranks; i++)
			strv_push(out, ranks[i].path);
	else if (nruns > 1)
		for (size_t i = 0; i < m->run_dirs.n; i++) {
			real = realpath(m->run_dirs.v[i], NULL);
			if (real != NULL && directly_in(real, dir))
				strv_push(out, real);
			free(real);
		}
	for (size_t i = 0; i < out->n; i++)
		if ((real = realpath(out->v[i], NULL)) != NULL) {
			free(out->v[i]);
			out->v[i] = real;
		}
	summary_ranks_free(ranks, nranks);
	summary_runs_free(runs, nruns);
	free(dir);
}

/*
 * A folder for the run's own links, beside DIR and named after the time
 * in the name of its rank directory RANKDIR ({host}_{pid}_{time}_ascend_pt).
 */
static char *
run_folder(const char *dir, const char *rankdir)
{
	const char *name = strrchr(rankdir, '/') != NULL ?
	    strrchr(rankdir, '/') + 1 : rankdir;
	size_t n = strlen(name), suffix = strlen(RANKDIR_SUFFIX), start;

	if (!ends_with(name, RANKDIR_SUFFIX))
		return xasprintf("%s-run", dir);
	n -= suffix;
	for (start = n; start > 0 && name[start - 1] != '_'; start--)
		continue;
	return xasprintf("%s-run-%.*s", dir, (int)(n - start), name + start);
}

#define LINKS_LISTED	8	/* rank directories in a command to type */

/*
 * O holds rank directories of other runs too (a launch before into the
 * same save path): MindStudio Insight would load them all with this
 * run's, so the next step is this run's alone, linked into a folder of
 * its own.
 */
static char *
open_own(const struct outdir *o, const struct strv *dirs, size_t total)
{
	char *folder = run_folder(o->path, dirs->v[0]), *list, *s;

	if (dirs->n > LINKS_LISTED)
		s = xasprintf(_("%s holds %zu rank directories, %zu of them "
		    "this run's, and MindStudio Insight would load them all: "
		    "link this run's (msprof-exec report --json FILE names "
		    "them) into a folder of their own, e.g. %s, and open it"),
		    o->path, total, dirs->n, folder);
	else {
		list = strv_join(dirs->v, " ");
		s = xasprintf(_("%s holds %zu rank directories, %zu of them "
		    "this run's, and MindStudio Insight would load them all: "
		    "open this run's alone, linked into a folder of their own: "
		    "mkdir %s && ln -s %s %s/"), o->path, total, dirs->n,
		    folder, list, folder);
		free(list);
	}
	free(folder);
	return s;
}

/* Open the parsed data; else parse the raw data. */
static void
next_step(struct report_model *m, struct inventory *inv)
{
	const struct outdir *parsed = NULL;
	const char *raw = NULL;
	struct strv dirs = { 0 };
	size_t total;

	for (size_t i = 0; i < m->verify.nouts && parsed == NULL; i++) {
		const struct outdir *o = &m->verify.outs[i];

		for (size_t k = 0; k < o->ndirs && parsed == NULL; k++)
			if (o->dirs[k].parsed)
				parsed = o;
			else if (o->dirs[k].raw && raw == NULL)
				raw = o->path;
	}
	if (parsed != NULL) {
		run_dirs(m, inv, parsed, &dirs, &total);
		if (dirs.n > 0 && total > dirs.n)
			m->next_step = open_own(parsed, &dirs, total);
		else
			m->next_step = xasprintf(_("open %s in MindStudio "
			    "Insight"), parsed->path);
		strv_free(&dirs);
	} else if (raw != NULL)
		m->next_step = xasprintf(_("parse the raw data: msprof-exec "
		    "analyse %s"), raw);
}

/* Is WANT the string number AT (-1: any) of /proc/PID/WHAT? */
static int
proc_has(const char *pid, const char *what, int at, const char *want)
{
	char *path = xasprintf("/proc/%s/%s", pid, what), *v;
	size_t len, off;
	int yes = 0, i = 0;

	v = read_file(path, &len);
	free(path);
	for (off = 0; v != NULL && off < len && !yes;
	    off += strlen(v + off) + 1, i++)
		yes = (at < 0 || i == at) && strcmp(v + off, want) == 0;
	free(v);
	return yes;
}

/*
 * Is process PID of SESSION: the session in its environment, or the
 * injector's argument (which does not pass it on in the environment)?
 */
static int
in_session(const char *pid, const char *session)
{
	char *var = xasprintf("%s=%s", MSPROF_ENV_SESSION, session);
	int yes = proc_has(pid, "environ", -1, var) ||
	    proc_has(pid, "cmdline", INJECT_ARGV_SESSION, session);

	free(var);
	return yes;
}

/* When the system booted, in ms since the epoch; -1 unknown. */
static int64_t
boot_ms(void)
{
	char *stat = read_file("/proc/stat", NULL), *p;
	int64_t ms = -1;

	if (stat != NULL && (p = strstr(stat, "\nbtime ")) != NULL)
		ms = strtoll(p + 7, NULL, 10) * 1000;
	free(stat);
	return ms;
}

/* When process PID started, in ms since the epoch; -1 not running. */
static int64_t
process_start_ms(long pid)
{
	char *path = xasprintf("/proc/%ld/stat", pid), *stat, *p;
	int64_t boot = boot_ms(), ms = -1;
	long tick = sysconf(_SC_CLK_TCK);
	int field = 2;

	stat = read_file(path, NULL);
	free(path);
	/* after "pid (comm)": field 3, the state, ... field 22, the start */
	if (stat != NULL && (p = strrchr(stat, ')')) != NULL && p[1] == ' ' &&
	    p[2] != 'Z' && boot >= 0 && tick > 0) {
		for (p++; *p != '\0' && field < 22; p++)
			field += *p == ' ';
		if (field == 22)
			ms = boot + strtoll(p, NULL, 10) * 1000 / tick;
	}
	free(stat);
	return ms;
}

/* Is REC's process still running here (the same process, not its pid's reuse)? */
static int
launch_running(const struct launch_record *rec)
{
	char host[256] = "";
	int64_t start;

	if (rec->pid <= 0 || rec->start_ms < 0 || rec->host == NULL ||
	    gethostname(host, sizeof(host) - 1) == -1 ||
	    strcmp(host, rec->host) != 0)
		return 0;
	start = process_start_ms(rec->pid);
	/* a pid used again started after the launch had ended */
	return start >= 0 && start <= rec->start_ms + 1000;
}

/*
 * Are processes of SESSION's command still running?  They were left in
 * the background, as the command has ended.  Until its launch starts, a
 * process carries the session in its environment (the injector, in its
 * arguments); from then on its record in the journal names it.  Read in
 * this order, none is missed.
 */
static int
session_running(const char *session)
{
	DIR *d;
	struct dirent *e;
	struct journal j;
	int n = 0;

	if (session == NULL || (d = opendir("/proc")) == NULL)
		return 0;
	while ((e = readdir(d)) != NULL)
		if (e->d_name[0] >= '1' && e->d_name[0] <= '9' &&
		    atol(e->d_name) != (long)getpid() &&
		    in_session(e->d_name, session))
			n++;
	closedir(d);
	journal_read(session, &j);
	for (size_t i = 0; i < j.n; i++)
		n += launch_running(&j.recs[i]);
	journal_free(&j);
	return n;
}

static void
judge(struct report_model *m)
{
	m->refused = m->counts.refused + m->counts.missing_paths > 0;
	m->complete = m->counts.injected > 0 && m->counts.expected > 0 &&
	    m->counts.missing == 0 && !m->background;
}

/*
 * Which outputs are summed up, and the tree of those that are not: for
 * the first output of each directory (a directory of several launches
 * is shown once).
 */
static void
outputs_shown(const struct report_in *in, struct report_model *m,
    struct inventory *inv)
{
	for (size_t i = 0; i < m->verify.nouts; i++) {
		struct report_output *out = &m->outs[i];
		const struct outdir *o = &m->verify.outs[i];
		int first = 1;

		out->large = o->ndirs > LIST_RANKS || out->nmissing > LIST_RANKS;
		for (size_t k = 0; k < i; k++)
			first &= strcmp(m->verify.outs[k].path, o->path) != 0;
		if (o->ndirs > 0 && first && !out->large)
			report_tree(inv, o->path, in->verbose ? 3 : 2,
			    &out->tree);
	}
}

void
report_build(const struct report_in *in, struct report_model *m)
{
	struct inventory own, *inv = in->inv != NULL ? in->inv : &own;

	if (in->inv == NULL)
		inventory_init(&own);
	memset(m, 0, sizeof(*m));
	m->session = in->session;
	m->journal = in->journal;
	count_launches(m);
	ending(in, m);
	log_errors_of(in, m);
	torchnpu_read(in->journal, in->arming, &m->torch);
	diagnose_log(in->log, ran_mm(in->journal), &m->torch, &m->diagnosis);
	if (in->verified != NULL) {
		m->verify = *in->verified;
		memset(in->verified, 0, sizeof(*in->verified));
	} else if (in->session != NULL)
		verify_journal(in->journal, in->session, in->since, inv,
		    &m->verify);
	else
		verify_dir(in->outdir, inv, &m->verify);
	m->background = session_running(in->session);
	m->outs = xcalloc(m->verify.nouts + 1, sizeof(*m->outs));
	for (size_t i = 0; i < m->verify.nouts; i++)
		check_output(in, m, i);
	judge(m);
	outputs_shown(in, m, inv);
	/* the last report's trees are made, and the summary comes next */
	if (!in->no_summary)
		inventory_drop_trees(inv);
	summarise(in, m, inv);
	next_step(m, inv);
	if (in->inv == NULL)
		inventory_free(&own);
}

void
report_model_free(struct report_model *m)
{
	for (size_t i = 0; i < m->verify.nouts; i++) {
		free(m->outs[i].missing);
		unusual_free(&m->outs[i].unusual);
		report_tree_free(&m->outs[i].tree);
	}
	free(m->outs);
	verify_free(&m->verify);
	torchnpu_free(&m->torch);
	diagnosis_free(&m->diagnosis);
	log_errors_free(&m->errors);
	free(m->log_path);
	strv_free(&m->causes);
	free(m->next_step);
	advice_free(m->findings);
	summary_free(m->summary);
	free(m->summary_why);
	summary_runs_free(m->runs, m->nruns);
	strv_free(&m->run_dirs);
	if (m->plan != NULL)
		plan_free(m->plan);
	free(m->plan);
	free(m->plan_why);
	memset(m, 0, sizeof(*m));
}
