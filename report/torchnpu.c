/* The torch engine's part of the report (torchnpu.h). */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

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

void
torchnpu_causes(const struct torchnpu *t, struct strv *out)
{
	const struct torch_arming *a = t->arming;
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
	if (a != NULL && a->error != NULL)
		cause(out, xasprintf(_("msprof-exec could not arm the "
		    "config: %s"), a->error));
	else if (t->nprocs == 0)
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
	else if (!collected && !t->dynamic)
		cause(out, xstrdup(_("the config was armed, but no "
		    "torch_npu process reached the window's first step after "
		    "it: the training ran fewer steps, its optimizer does not "
		    "go through torch.optim.Optimizer.step, or the config came "
		    "after the start step (torch_npu then prints \"Dynamic "
		    "Profiler config is not effective\")")));
}

void
torchnpu_free(struct torchnpu *t)
{
	free(t->procs);
	memset(t, 0, sizeof(*t));
}
