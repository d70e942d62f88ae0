/*
 * Build the report: how the command ended, what the log shows, the
 * launches, the output directories against the ranks each was to hold,
 * why anything is missing, and what to do next.
 */
#include <sys/wait.h>

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "shim/contract.h"
#include "engines/engine.h"
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

static void
ending(const struct report_in *in, struct report_model *m)
{
	if (in->status == -1)
		m->ending = ENDING_UNKNOWN;
	else if (WIFEXITED(in->status) && WEXITSTATUS(in->status) == 0)
		/* a pipeline such as '| tee' hides the launcher's status */
		m->ending = log_shows_failure(in->log) ? ENDING_HIDDEN_FAILURE :
		    ENDING_OK;
	else if (WIFEXITED(in->status)) {
		m->ending = ENDING_EXIT;
		m->ending_code = WEXITSTATUS(in->status);
	} else {
		m->ending = ENDING_SIGNAL;
		m->ending_code = WTERMSIG(in->status);
	}
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
static int
window_last_iteration(const struct launch_record *rec)
{
	return engine_log_iteration(engine_parse(rec->engine != NULL ?
	    rec->engine : ""), rec->step_end - 1);
}

/* Did the training stop of a failure or a signal, not at its end? */
static int
stopped_early(const struct report_model *m)
{
	return m->diagnosis.texts.n > 0 || m->ending == ENDING_SIGNAL ||
	    m->ending == ENDING_EXIT || m->ending == ENDING_HIDDEN_FAILURE;
}

/* Why the expected data of O is missing, most likely first. */
static void
causes(const struct report_in *in, const struct report_model *m,
    const struct outdir *o, struct strv *out)
{
	const struct launch_record *rec = o->launch;
	int last = in->log != NULL ? log_last_iteration(in->log) : -1;

	if (rec != NULL && !dynamic(rec)) {
		if (last >= 0 && last < window_last_iteration(rec) &&
		    stopped_early(m))
			strv_pushf(out, _("training stopped at iteration %d, "
			    "before the end of the window (steps %d to %d, "
			    "excluding %d): the failure or interruption above "
			    "ended it"), last, rec->step_start, rec->step_end,
			    rec->step_end);
		else if (last >= 0 && last < window_last_iteration(rec))
			strv_pushf(out, _("the window was never reached or not "
			    "finished: steps %d to %d, excluding %d, but the log "
			    "shows training stopped at iteration %d; lower --steps "
			    "or raise --train-iters"), rec->step_start,
			    rec->step_end, rec->step_end, last);
		else if (last < 0 && in->log != NULL)
			strv_pushf(out, _("the window may never have been "
			    "reached: steps %d to %d, excluding %d (the log shows "
			    "no iteration)"), rec->step_start, rec->step_end,
			    rec->step_end);
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
	out->missing = xcalloc(o->nexpected + 1, sizeof(*out->missing));
	for (size_t k = 0; k < o->nexpected; k++)
		if (outdir_found(o, o->expected[k]) == NULL)
			out->missing[out->nmissing++] = o->expected[k];
	m->counts.found += (int)o->ndirs;
	m->counts.expected += (int)o->nexpected;
	m->counts.missing += (int)out->nmissing;
	out->unknown = m->session != NULL && !o->known;
	out->none_expected = m->session != NULL && o->known &&
	    o->nexpected == 0;
	/* a launch still running: its data may yet come */
	out->pending = m->running && out->nmissing > 0;
	if (out->pending)
		m->counts.missing -= (int)out->nmissing;
	else if (out->nmissing > 0 || (o->ndirs == 0 && m->session == NULL))
		causes(in, m, o, &m->causes);
}

/*
 * The data summary plugs in here, once verification has found the rank
 * directories: summary_build() over the path and rank of each
 * m->verify.outs[].dirs[], with the window and step convention of
 * m->verify.outs[].launch; report_print() and report_json()
 * then give it with summary_print() and summary_json().  Until the
 * summary library is built in there is none.
 */
static void
summarise(struct report_model *m)
{
	m->summary = NULL;
}

/* Open the parsed data; else parse the raw data. */
static void
next_step(struct report_model *m)
{
	const char *parsed = NULL, *raw = NULL;

	for (size_t i = 0; i < m->verify.nouts && parsed == NULL; i++) {
		const struct outdir *o = &m->verify.outs[i];

		for (size_t k = 0; k < o->ndirs && parsed == NULL; k++)
			if (o->dirs[k].parsed)
				parsed = o->path;
			else if (o->dirs[k].raw && raw == NULL)
				raw = o->path;
	}
	if (parsed != NULL)
		m->next_step = xasprintf(_("open %s in MindStudio Insight"),
		    parsed);
	else if (raw != NULL)
		m->next_step = xasprintf(_("parse the raw data: msprof-exec "
		    "analyse %s"), raw);
}

/* Does process PID have SESSION in its environment? */
static int
in_session(const char *pid, const char *session)
{
	char *path = xasprintf("/proc/%s/environ", pid), *env, *var;
	size_t len, off;
	int yes = 0;

	env = read_file(path, &len);
	free(path);
	var = xasprintf("%s=%s", MSPROF_ENV_SESSION, session);
	for (off = 0; env != NULL && off < len && !yes;
	    off += strlen(env + off) + 1)
		yes = strcmp(env + off, var) == 0;
	free(var);
	free(env);
	return yes;
}

/*
 * Are processes of SESSION's command still running?  They carry the
 * session in their environment; the command has ended, so they were left
 * running in the background.
 */
static int
session_running(const char *session)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	int n = 0;

	if (d == NULL || session == NULL) {
		if (d != NULL)
			closedir(d);
		return 0;
	}
	while ((e = readdir(d)) != NULL)
		if (e->d_name[0] >= '1' && e->d_name[0] <= '9' &&
		    atol(e->d_name) != (long)getpid() &&
		    in_session(e->d_name, session))
			n++;
	closedir(d);
	return n;
}

static void
judge(struct report_model *m)
{
	m->refused = m->counts.refused + m->counts.missing_paths > 0;
	m->complete = m->counts.injected > 0 && m->counts.expected > 0 &&
	    m->counts.missing == 0 && !m->running;
}

void
report_build(const struct report_in *in, struct report_model *m)
{
	memset(m, 0, sizeof(*m));
	m->session = in->session;
	m->journal = in->journal;
	count_launches(m);
	ending(in, m);
	diagnose_log(in->log, ran_mm(in->journal), &m->diagnosis);
	if (in->session != NULL)
		verify_journal(in->journal, in->session, in->since,
		    &m->verify);
	else
		verify_dir(in->outdir, &m->verify);
	m->running = session_running(in->session);
	m->outs = xcalloc(m->verify.nouts + 1, sizeof(*m->outs));
	for (size_t i = 0; i < m->verify.nouts; i++)
		check_output(in, m, i);
	judge(m);
	summarise(m);
	next_step(m);
}

void
report_model_free(struct report_model *m)
{
	for (size_t i = 0; i < m->verify.nouts; i++)
		free(m->outs[i].missing);
	free(m->outs);
	verify_free(&m->verify);
	diagnosis_free(&m->diagnosis);
	strv_free(&m->causes);
	free(m->next_step);
	memset(m, 0, sizeof(*m));
}
