/* Arming torch_npu's PROF_CONFIG_PATH config while the job runs (arm.h). */
#include <sys/stat.h>
#include <sys/types.h>

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "shim/contract.h"
#include "common/journal.h"
#include "arm.h"

#define LOOK_EVERY	0.1	/* s between looks at log/ */
#define QUIET		1.0	/* s without a new process before arming */
#define AT_MOST		5.0	/* s a process waits at most to be armed */
#define AHEAD		5	/* s the config's time is set ahead */

struct arm_proc {
	long	 pid;
	int	 rank;		/* from its log's name; -1: none */
	double	 seen;		/* when its log was found, monotonic s */
	int	 covered;	/* an arming came after it started */
	int	 sub;		/* a subprocess of a torch_npu process of
				   its rank (a DataLoader worker) */
	int	 monitor;	/* the monitor of a shared memory */
	int	 ended;		/* msprof-exec ended it, an orphan */
};

void
arm_init(struct arm *a, const char *session, const struct plan *p)
{
	memset(a, 0, sizeof(*a));
	/*
	 * Even under --framework llm or mm: an entry the table lists as
	 * torch keeps that engine.  A job without a torch launch costs one
	 * stat of a directory that is never made, a look.
	 */
	if (strcmp(p->mode, "dynamic") == 0)
		return;		/* msprof-exec trigger arms */
	a->session = xstrdup(session);
	a->dir = xasprintf("%s/%s", session, SESSION_PROF_CONFIG);
	a->logdir = xasprintf("%s/log", a->dir);
	a->plan = p;
}

static struct arm_proc *
find(struct arm *a, long pid, int monitor)
{
	for (size_t i = 0; i < a->nprocs; i++)
		if (a->procs[i].pid == pid && a->procs[i].monitor == monitor)
			return &a->procs[i];
	return NULL;
}

/* The parent of PID, from /proc/PID/stat; -1 when it is gone. */
static long
parent_of(long pid)
{
	char path[64], buf[512], *p;
	FILE *f;
	long ppid = -1;

	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	if ((f = fopen(path, "re")) == NULL)
		return -1;
	if (fgets(buf, sizeof(buf), f) != NULL &&
	    (p = strrchr(buf, ')')) != NULL)
		sscanf(p + 1, " %*c %ld", &ppid);
	fclose(f);
	return ppid;
}

static int
alive(long pid)
{
	return kill((pid_t)pid, 0) == 0 || errno == EPERM;
}

/*
 * A new process: is it a subprocess of one of its rank?  A new monitor
 * waits to be armed as a process does: it read the config's time before
 * it wrote its log, and passes on only a config modified after that.
 */
static void
add(struct arm *a, long pid, int rank, int monitor, double t)
{
	struct arm_proc *parent = monitor ? NULL : find(a, parent_of(pid), 0);
	/* read before the array grows: PARENT points into it */
	int sub = parent != NULL && rank >= 0 && parent->rank == rank;
	struct arm_proc *n;

	a->procs = xreallocarray(a->procs, a->nprocs + 1, sizeof(*a->procs));
	n = &a->procs[a->nprocs++];
	*n = (struct arm_proc){ pid, rank, t, 0, 0, monitor, 0 };
	n->sub = sub;
	if (!n->sub)
		a->last_new = t;
	if (!n->sub && !monitor)
		a->done.processes++;
}

/* Read log/ for processes not seen yet, when it changed. */
static void
look(struct arm *a, double t)
{
	struct stat st;
	struct dirent *e;
	DIR *d;
	long pid;
	int rank, monitor;

	if (stat(a->logdir, &st) == -1 ||
	    (st.st_mtim.tv_sec == a->log_mtime.tv_sec &&
	    st.st_mtim.tv_nsec == a->log_mtime.tv_nsec))
		return;
	if ((d = opendir(a->logdir)) == NULL)
		return;
	a->log_mtime = st.st_mtim;
	while ((e = readdir(d)) != NULL)
		if (torch_log_name(e->d_name, &pid, &rank, &monitor) == 0 &&
		    find(a, pid, monitor) == NULL)
			add(a, pid, rank, monitor, t);
	closedir(d);
}

/*
 * Is the job one process with no rank (python train.py on one NPU),
 * which "rank 0" means: no launch recorded of more than one process, no
 * torch_npu process given a rank, and one of them running?
 */
static int
one_process(const struct arm *a)
{
	struct journal j;
	int n = 0, many = 0;

	for (size_t i = 0; i < a->nprocs; i++)
		if (!a->procs[i].sub && !a->procs[i].monitor &&
		    (a->procs[i].rank >= 0 || (alive(a->procs[i].pid) &&
		    ++n > 1)))
			return 0;
	journal_read(a->session, &j);
	for (size_t i = 0; i < j.n; i++)
		many |= j.recs[i].prof_config != NULL &&
		    j.recs[i].place.world_size != 1;
	journal_free(&j);
	return !many;
}

/*
 * Write the config, dated ahead: every process started by now takes it.
 * Each arming is dated later than the one before, even when the clock
 * was set back: a monitor passes on any other time, but a process takes
 * only a time later than the last it took.
 */
static void
arm(struct arm *a)
{
	time_t mtime = time(NULL) + AHEAD;
	char *why = NULL;

	if (a->done.armings > 0 && mtime <= a->done.mtime)
		mtime = a->done.mtime + 1;

	if (torch_config_write(a->dir, a->plan, one_process(a), mtime,
	    &why) == -1) {
		a->done.error = why;	/* said in the report; not again */
		return;
	}
	for (size_t i = 0; i < a->nprocs; i++)
		a->procs[i].covered = 1;
	a->done.armings++;
	a->done.mtime = mtime;
}

void
arm_tick(void *arg)
{
	struct arm *a = arg;
	double t = monotonic_s(), oldest = t;
	int waiting = 0;

	if (a->dir == NULL || a->done.error != NULL || t < a->next)
		return;
	a->next = t + LOOK_EVERY;
	look(a, t);
	for (size_t i = 0; i < a->nprocs; i++) {
		struct arm_proc *p = &a->procs[i];

		if (p->covered || p->sub || !alive(p->pid))
			continue;
		waiting = 1;
		if (p->seen < oldest)
			oldest = p->seen;
	}
	if (waiting && (t - a->last_new >= QUIET || t - oldest >= AT_MOST))
		arm(a);
}

int
arm_stray(void *arg, pid_t pid)
{
	struct arm *a = arg;
	struct arm_proc *m;

	if (a->dir == NULL)
		return 0;
	look(a, monotonic_s());
	if ((m = find(a, (long)pid, 1)) == NULL || find(a, (long)pid, 0) != NULL)
		return 0;		/* not a monitor of its own process */
	if (!m->ended) {
		m->ended = 1;
		fprintf(stderr, _("msprof-exec: ended torch_npu's monitor "
		    "process %ld, which its process, killed by a signal, left "
		    "running\n"), m->pid);
	}
	/* not SIGTERM: a handler of the training's, forked with it, would run */
	kill(pid, SIGKILL);
	return 1;
}

const struct torch_arming *
arm_finish(struct arm *a)
{
	if (a->dir == NULL)
		return NULL;
	look(a, monotonic_s());
	a->done.unarmed = 0;
	for (size_t i = 0; i < a->nprocs; i++)
		a->done.unarmed += !a->procs[i].covered && !a->procs[i].sub &&
		    !a->procs[i].monitor;
	return &a->done;
}
