/* The torch engine's part of the report (torchnpu.h). */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "diagnose.h"
#include "torchnpu.h"

/* The number after "Start ... at " in LINE's text, or -1. */
static int
step_of(const char *text, const char *what)
{
	const char *p = strstr(text, what);

	return p != NULL ? atoi(p + strlen(what)) : -1;
}

/* One process: its log, read for what torch_npu did. */
static void
read_log(const char *path, struct torchnpu_proc *p)
{
	char *text = read_file(path, NULL);

	p->start = p->stop = -1;
	if (text == NULL)
		return;
	p->start = step_of(text, "Start Dynamic Profiler at ");
	p->stop = p->start >= 0 ? step_of(strstr(text,
	    "Start Dynamic Profiler at "), "Stop Dynamic Profiler at ") : -1;
	p->not_listed = strstr(text, "not in valid rank_list") != NULL;
	p->created = strstr(text, "shared memory is created") != NULL;
	p->connected = strstr(text, "shared memory is connected") != NULL;
	free(text);
}

static int
by_rank(const void *a, const void *b)
{
	const struct torchnpu_proc *x = a, *y = b;

	return x->rank != y->rank ? (x->rank > y->rank) - (x->rank < y->rank) :
	    (x->pid > y->pid) - (x->pid < y->pid);
}

void
torchnpu_read(const struct journal *j, const struct torch_arming *arming,
    struct torchnpu *t)
{
	struct torchnpu_proc p;
	char *logdir;
	DIR *d;

	memset(t, 0, sizeof(*t));
	for (size_t i = 0; i < j->n && t->dir == NULL; i++)
		if (j->recs[i].prof_config != NULL &&
		    j->recs[i].status == LAUNCH_INJECTED) {
			t->dir = j->recs[i].prof_config;
			t->dynamic = j->recs[i].mode != NULL &&
			    strcmp(j->recs[i].mode, "dynamic") == 0;
		}
	if (t->dir == NULL)
		return;
	t->arming = arming;
	logdir = xasprintf("%s/log", t->dir);
	if ((d = opendir(logdir)) != NULL) {
		const struct dirent *e;
		int monitor;

		while ((e = readdir(d)) != NULL) {
			char *path;

			memset(&p, 0, sizeof(p));
			if (torch_log_name(e->d_name, &p.pid, &p.rank,
			    &monitor) == -1)
				continue;
			if (monitor) {
				t->monitors++;
				continue;
			}
			path = xasprintf("%s/%s", logdir, e->d_name);
			read_log(path, &p);
			free(path);
			t->procs = xreallocarray(t->procs, t->nprocs + 1,
			    sizeof(*t->procs));
			t->procs[t->nprocs++] = p;
		}
		closedir(d);
	}
	free(logdir);
	if (t->nprocs > 0)
		qsort(t->procs, t->nprocs, sizeof(*t->procs), by_rank);
}

/* Add the cause S (taken) to OUT unless it is there: launches share one. */
static void
cause(struct strv *out, char *s)
{
	if (!strv_has(out, s))
		strv_push(out, s);
	free(s);
}

/*
 * Did T's processes read their config through a shared memory none of
 * them created, with no monitor of theirs: another job's on the node?
 */
static int
foreign_memory(const struct torchnpu *t)
{
	int connected = 0;

	for (size_t i = 0; i < t->nprocs; i++) {
		if (t->procs[i].created)
			return 0;
		connected |= t->procs[i].connected;
	}
	return connected && t->monitors == 0;
}

/* Did a process of rank R write a log of torch_npu's? */
static int
has_rank(const struct torchnpu *t, int r)
{
	for (size_t i = 0; i < t->nprocs; i++)
		if (t->procs[i].rank == r)
			return 1;
	return 0;
}

/*
 * The ranks this node was to profile that no torch_npu process ever ran
 * as: they failed before importing torch_npu, or were never started.
 * Not known when a process took its rank from torch.distributed, later.
 */
static void
never_started(const struct torchnpu *t, const struct launch_record *rec,
    struct strv *out)
{
	for (size_t i = 0; i < t->nprocs; i++)
		if (t->procs[i].rank < 0)
			return;
	for (size_t k = 0; rec != NULL && k < rec->nexpected; k++)
		if (!has_rank(t, rec->expected[k]))
			cause(out, xasprintf(_("rank %d never started torch_npu: "
			    "%s/log has no log of it (its process failed before "
			    "importing torch_npu, or the launch started fewer "
			    "processes than the job has ranks)"),
			    rec->expected[k], t->dir));
}

/* "steps S to E, excluding E" of REC's window. */
static char *
window(const struct launch_record *rec)
{
	return xasprintf(_("steps %d to %d, excluding %d"), rec->step_start,
	    rec->step_end, rec->step_end);
}

/*
 * The training failed: its own error is the cause, with the last step
 * its log shows against the window.
 */
static void
failure(const struct torch_evidence *ev, const char *error, struct strv *out)
{
	char *line = NULL, *w = window(ev->rec), *how;
	int last = log_last_step(ev->log, &line);

	how = error != NULL ? xasprintf("%s", error) : xstrdup(ev->ending !=
	    NULL ? ev->ending : _("an error"));
	if (last >= 0)
		cause(out, xasprintf(_("the training failed before its window "
		    "(%s) was collected, at step %d of its log (\"%s\"): %s; "
		    "its log above says where"), w, last, line, how));
	else
		cause(out, xasprintf(_("the training failed before its window "
		    "(%s) was collected: %s; its log above says where"), w,
		    how));
	free(how);
	free(line);
	free(w);
}

/*
 * No process collected: is the window past the last step the log shows?
 * A training's own count may start at 0 or 1, torch_npu's window counts
 * step() calls: past means beyond either.
 */
static int
past_the_end(const struct torch_evidence *ev, struct strv *out)
{
	char *line = NULL, *w;
	int last = log_last_step(ev->log, &line), s;

	if (last < 0 || last + 1 >= ev->rec->step_end) {
		free(line);
		return 0;
	}
	w = window(ev->rec);
	s = last >= 4 ? (last + 1) / 2 : 1;
	if (last + 1 < ev->rec->step_start)
		cause(out, xasprintf(_("window never reached: the training "
		    "ran to step %d of its log (\"%s\"), and the window is %s; "
		    "choose one within the run, e.g. --steps %d:%d"), last,
		    line, w, s, s + 2 <= last + 1 ? s + 2 : s + 1));
	else
		cause(out, xasprintf(_("window not finished: the training "
		    "ran to step %d of its log (\"%s\"), before the end of the "
		    "window, %s; end it earlier, e.g. --steps %d:%d"), last,
		    line, w, s, s + 2 <= last + 1 ? s + 2 : s + 1));
	free(line);
	free(w);
	return 1;
}

void
torchnpu_causes(const struct torchnpu *t, const struct torch_evidence *ev,
    struct strv *out)
{
	const struct torch_arming *a = t->arming;
	char *error;
	int collected = 0;

	if (t->dir == NULL)
		return;
	for (size_t i = 0; i < t->nprocs; i++) {
		const struct torchnpu_proc *p = &t->procs[i];

		collected |= p->start >= 0;
		if (p->start >= 0 && p->stop < 0)
			cause(out, xasprintf(_("torch_npu process %ld (rank %d) "
			    "started collecting at step %d and ended before its "
			    "window did: the training ran fewer steps"), p->pid,
			    p->rank, p->start));
	}
	if (t->nprocs > 0)
		never_started(t, ev->rec, out);
	error = log_error(ev->log);
	if (a != NULL && a->error != NULL)
		cause(out, xasprintf(_("msprof-exec could not arm the "
		    "config: %s"), a->error));
	else if (!collected && ev->rec != NULL && (error != NULL ||
	    ev->failed)) {
		failure(ev, error, out);
		if (t->nprocs == 0)
			cause(out, xasprintf(_("no process imported torch_npu "
			    "with PROF_CONFIG_PATH (%s/log is empty): the job "
			    "ended before it could"), t->dir));
	}
	else if (!collected && t->dynamic)
		cause(out, xasprintf(_("dynamic mode collects only when "
		    "triggered, and no trigger came while the training ran: "
		    "run 'msprof-exec trigger %s' during the training"),
		    t->dir));
	else if (t->nprocs == 0 && !ev->explained)
		cause(out, xasprintf(_("no process imported torch_npu with "
		    "PROF_CONFIG_PATH (%s/log is empty): the job ended before, "
		    "the training never loads torch_npu (before torch 2.5 it "
		    "needs 'import torch_npu'; TORCH_DEVICE_BACKEND_AUTOLOAD=0 "
		    "stops it), or its torch_npu predates PROF_CONFIG_PATH "
		    "(6.0.RC3)"), t->dir));
	else if (a != NULL && !t->dynamic && a->armings == 0)
		cause(out, xasprintf(_("the job ended before msprof-exec "
		    "could arm the config: its %d torch_npu process(es) ended "
		    "within a second of starting"), a->processes));
	else if (a != NULL && !t->dynamic && a->unarmed > 0)
		cause(out, xasprintf(_("%d torch_npu process(es) started "
		    "after the last arming and ended before they could be "
		    "armed"), a->unarmed));
	else if (!collected && foreign_memory(t))
		cause(out, xstrdup(_("torch_npu's processes read their "
		    "config through a shared memory that another job on this "
		    "node made (one per node and hour: "
		    "/dev/shm/DynamicProfileNpuShm<YYYYmmddHH>), whose monitor "
		    "watches that job's config, not this one's: run when no "
		    "other job on the node uses PROF_CONFIG_PATH, or remove the "
		    "file if its job is gone")));
	else if (!collected && ev->rec != NULL && past_the_end(ev, out))
		;
	else if (!collected && !ev->explained && t->nprocs > 0)
		cause(out, xstrdup(_("a guess, as nothing in the log or in "
		    "torch_npu's own logs says why: the config was armed, but "
		    "no torch_npu process reached the window's first step "
		    "after it; the training ran fewer steps than its log "
		    "shows, its optimizer does not go through "
		    "torch.optim.Optimizer.step, or the config came after the "
		    "start step")));
	free(error);
}

void
torchnpu_kept_causes(const struct launch_record *rec, struct strv *out)
{
	static const char env[] = TORCH_ENV "=";

	for (size_t i = 0; i < rec->existing.n; i++)
		if (strncmp(rec->existing.v[i], env, sizeof(env) - 1) == 0)
			cause(out, xasprintf(_("the launch kept its own "
			    "PROF_CONFIG_PATH (%s): torch_npu's dynamic mode "
			    "collects only when %s/profiler_config.json changes "
			    "while the training runs; run 'msprof-exec trigger "
			    "%s' during the training, or let msprof-exec arm a "
			    "window with --existing override"),
			    rec->existing.v[i] + sizeof(env) - 1,
			    rec->existing.v[i] + sizeof(env) - 1,
			    rec->existing.v[i] + sizeof(env) - 1));
}

void
torchnpu_free(struct torchnpu *t)
{
	free(t->procs);
	memset(t, 0, sizeof(*t));
}
