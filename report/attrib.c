/* Attribute rank directories to the launches that made them. */
#include <sys/stat.h>

#include <dirent.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "shim/contract.h"
#include "common/util.h"
#include "attrib.h"

static int
str_eq(const char *a, const char *b)
{
	return strcmp(a != NULL ? a : "", b != NULL ? b : "") == 0;
}

/* A launch's save path, absolute, as it resolves now. */
static char *
save_dir(const struct launch_record *rec)
{
	const char *save = rec->save_path != NULL ? rec->save_path : "";
	char *path, *abs;

	path = save[0] == '/' || rec->cwd == NULL ? xstrdup(save) :
	    xasprintf("%s/%s", rec->cwd, save);
	if ((abs = realpath(path, NULL)) == NULL)
		return path;
	free(path);
	return abs;
}

static void
add_session(struct claims *c, const char *path)
{
	char *abs = realpath(path, NULL);

	if (abs == NULL)
		return;
	for (size_t i = 0; i < c->nsessions; i++)
		if (strcmp(c->sessions[i], abs) == 0) {
			free(abs);
			return;
		}
	c->sessions = xreallocarray(c->sessions, c->nsessions + 1,
	    sizeof(*c->sessions));
	c->sessions[c->nsessions++] = abs;
}

/* The msprof-exec_* directories with a journal directly under DIR. */
static void
sessions_in(struct claims *c, const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char *journal;

	if (d == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		if (strncmp(e->d_name, "msprof-exec_", 12) != 0)
			continue;
		journal = xasprintf("%s/%s/%s", dir, e->d_name,
		    SESSION_JOURNAL);
		if (access(journal, R_OK) == 0) {
			journal[strlen(journal) - strlen(SESSION_JOURNAL) - 1] =
			    '\0';
			add_session(c, journal);
		}
		free(journal);
	}
	closedir(d);
}

/*
 * When SESSION ended: the last write to the command's output (the
 * journal's, the plan's when there is none).
 */
static int64_t
session_end(const char *session)
{
	static const char *const files[] = { SESSION_LOG, SESSION_JOURNAL,
	    SESSION_PLAN, NULL };
	struct stat st;
	char *path;
	int ok;

	for (int i = 0; files[i] != NULL; i++) {
		path = xasprintf("%s/%s", session, files[i]);
		ok = stat(path, &st) == 0;
		free(path);
		if (ok)
			return (int64_t)st.st_mtim.tv_sec * 1000 +
			    st.st_mtim.tv_nsec / 1000000;
	}
	return INT64_MAX;
}

/*
 * The difference between msprof-exec's time zone and REC's at its start,
 * in ms: REC's time is local time with its UTC offset (+0800).
 */
static int64_t
tz_fix(const struct launch_record *rec)
{
	const char *z;
	time_t t = (time_t)(rec->start_ms / 1000);
	struct tm tm;
	int off;

	if (rec->time == NULL || rec->start_ms < 0 ||
	    strlen(rec->time) < 5 || localtime_r(&t, &tm) == NULL)
		return 0;
	z = rec->time + strlen(rec->time) - 5;
	if ((z[0] != '+' && z[0] != '-') || strspn(z + 1, "0123456789") != 4)
		return 0;
	off = ((z[1] - '0') * 10 + z[2] - '0') * 3600 +
	    ((z[3] - '0') * 10 + z[4] - '0') * 60;
	if (z[0] == '-')
		off = -off;
	return ((int64_t)tm.tm_gmtoff - off) * 1000;
}

/*
 * The launches run with msprof-exec's save path (a launch that kept its
 * own settings writes where they say).
 */
static void
add_claims(struct claims *c, size_t s, int64_t since_ms)
{
	const struct journal *j = &c->journals[s];
	const struct launch_record *rec;
	int64_t end = session_end(c->sessions[s]);
	struct claim *cl;

	for (size_t i = 0; i < j->n; i++) {
		rec = &j->recs[i];
		if ((rec->status != LAUNCH_INJECTED &&
		    rec->status != LAUNCH_KEPT) || rec->save_path == NULL)
			continue;
		c->v = xreallocarray(c->v, c->n + 1, sizeof(*c->v));
		cl = &c->v[c->n++];
		cl->rec = rec;
		cl->dir = save_dir(rec);
		cl->session = c->sessions[s];
		cl->start_ms = rec->start_ms >= 0 ? rec->start_ms : since_ms;
		cl->end_ms = end;
		cl->tz_fix_ms = tz_fix(rec);
	}
}

void
claims_gather(struct claims *c, const char *session,
    const struct journal *j, int64_t since_ms)
{
	char *copy = xstrdup(session), *dir;
	int own;

	memset(c, 0, sizeof(*c));
	add_session(c, session);
	/* SESSION's own journal, when J is it, is not read again */
	own = c->nsessions == 1 && !j->merged;
	sessions_in(c, dirname(copy));
	free(copy);
	for (size_t i = 0; i < j->n; i++)
		if ((j->recs[i].status == LAUNCH_INJECTED ||
		    j->recs[i].status == LAUNCH_KEPT) &&
		    j->recs[i].save_path != NULL) {
			dir = save_dir(&j->recs[i]);
			sessions_in(c, dir);
			free(dir);
		}
	/* Read every journal first: the claims point into them. */
	c->journals = xcalloc(c->nsessions + 1, sizeof(*c->journals));
	for (size_t s = 0; s < c->nsessions; s++)
		if (s == 0 && own) {
			c->journals[0] = *j;	/* the records stay J's */
			c->borrowed = 1;
		} else
			journal_read(c->sessions[s], &c->journals[s]);
	for (size_t s = 0; s < c->nsessions; s++)
		add_claims(c, s, since_ms);
}

void
claims_free(struct claims *c)
{
	for (size_t i = 0; i < c->n; i++)
		free(c->v[i].dir);
	for (size_t s = 0; s < c->nsessions; s++) {
		if (s > 0 || !c->borrowed)
			journal_free(&c->journals[s]);
		free(c->sessions[s]);
	}
	free(c->v);
	free(c->journals);
	free(c->sessions);
	memset(c, 0, sizeof(*c));
}

const struct claim *
claims_of(const struct claims *c, const struct launch_record *rec)
{
	for (size_t i = 0; i < c->n; i++) {
		const struct launch_record *r = c->v[i].rec;

		if (r->pid == rec->pid && r->start_ms == rec->start_ms &&
		    str_eq(r->host, rec->host) &&
		    str_eq(r->save_path, rec->save_path))
			return &c->v[i];
	}
	return NULL;
}

int
claims_same_job(const struct claim *a, const struct claim *b)
{
	const struct launch_place *p = &a->rec->place, *q = &b->rec->place;

	if (a->session == b->session)
		return 1;
	return p->master_port > 0 && p->master_port == q->master_port &&
	    str_eq(p->master_addr, q->master_addr);
}

/* Could A have made a directory on HOST at T in DIR? */
static int
could_have(const struct claim *a, const char *dir, const char *host,
    int64_t t)
{
	return strcmp(a->dir, dir) == 0 && a->start_ms <= t + a->tz_fix_ms &&
	    (a->rec->host == NULL || strcmp(a->rec->host, host) == 0);
}

/*
 * Had A made way for B by T: a later launch of its session into the same
 * save path, or a launch that started after A's session had ended?
 */
static int
superseded(const struct claim *a, const struct claim *b)
{
	return b->start_ms > a->start_ms &&
	    (b->session == a->session || b->start_ms >= a->end_ms);
}

/* Does RANK run in A's launch (its node's ranks), as far as is known? */
static int
holds(const struct claim *a, int rank)
{
	const struct launch_place *p = &a->rec->place;

	if (rank < 0 || p->first_rank < 0 || p->nproc_per_node < 1)
		return -1;
	return rank >= p->first_rank && rank < p->first_rank +
	    p->nproc_per_node;
}

/*
 * Could A have made the directory of RANK on HOST at T in DIR, and no
 * later launch that may run RANK (the launches of a per-rank loop run
 * side by side, each its own rank)?
 */
static int
live(const struct claims *c, const struct claim *a, const char *dir,
    const struct rankname *rn, int rank)
{
	if (!could_have(a, dir, rn->host, rn->ms))
		return 0;
	for (size_t k = 0; k < c->n; k++)
		if (could_have(&c->v[k], dir, rn->host, rn->ms) &&
		    superseded(a, &c->v[k]) && holds(&c->v[k], rank) != 0)
			return 0;
	return 1;
}

const struct claim *
claims_owner(const struct claims *c, const char *dir,
    const struct rankname *rn, int rank, int *mixed)
{
	const struct claim *owner = NULL, *first = NULL, *maybe = NULL, *a;
	size_t unknown = 0;

	*mixed = 0;
	for (size_t i = 0; i < c->n; i++) {
		a = &c->v[i];
		if (!live(c, a, dir, rn, rank))
			continue;
		if (first != NULL && !claims_same_job(first, a)) {
			*mixed = 1;
			return NULL;
		}
		first = first != NULL ? first : a;
		/* One job: the node that runs the rank. */
		switch (holds(a, rank)) {
		case 1:
			owner = a;
			break;
		case -1:
			maybe = a;
			unknown++;
			break;
		}
	}
	if (owner != NULL)
		return owner;
	/* A directory of unknown rank is one launch's only when one could. */
	return unknown == 1 ? maybe : NULL;
}

int
claims_overlap(const struct claim *a, const struct claim *b)
{
	return a->start_ms < b->end_ms && b->start_ms < a->end_ms;
}

void
claims_job_sessions(const struct claims *c, const char *session,
    struct strv *out)
{
	const struct claim *a, *b;
	int seen;

	for (size_t i = 0; i < c->n; i++) {
		a = &c->v[i];
		if (strcmp(a->session, session) != 0)
			continue;
		for (size_t k = 0; k < c->n; k++) {
			b = &c->v[k];
			if (strcmp(b->session, session) == 0 ||
			    !claims_same_job(a, b) || !claims_overlap(a, b))
				continue;
			seen = 0;
			for (size_t s = 0; s < out->n; s++)
				seen |= strcmp(out->v[s], b->session) == 0;
			if (!seen)
				strv_push(out, b->session);
		}
	}
}
