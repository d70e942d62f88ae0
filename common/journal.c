/*
 * Write and read the session journal.  One table lists the fields of a
 * launch record with their JSON keys and types; writing, reading, merging
 * and freeing a record all walk it, so a field is added in one row.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>
#include <unistd.h>

#include "shim/contract.h"
#include "journal.h"
#include "jsonfile.h"
#include "util.h"

enum ftype {
	F_STR,		/* char *, NULL unset */
	F_INT,		/* int, -1 unset */
	F_LONG,		/* long, -1 unset */
	F_I64,		/* int64_t, -1 unset */
	F_BOOL,		/* int, -1 unset */
	F_STRV,		/* struct strv, empty unset */
	F_INTS,		/* int * and its size_t count (at aux), NULL unset */
	F_RANKS,	/* "all" (ranks_all) or the ranks array */
	F_STATUS	/* enum launch_status, LAUNCH_UNKNOWN unset */
};

struct field {
	const char	*key;
	enum ftype	 type;
	size_t		 off, aux;
};

#define R(member)	offsetof(struct launch_record, member)

/* In the order they are written. */
static const struct field fields[] = {
	{ "time",		F_STR,	R(time), 0 },
	{ "start_ms",		F_I64,	R(start_ms), 0 },
	{ "pid",		F_LONG,	R(pid), 0 },
	{ "host",		F_STR,	R(host), 0 },
	{ "cwd",		F_STR,	R(cwd), 0 },
	{ "path",		F_STR,	R(path), 0 },
	{ "argv",		F_STRV,	R(argv), 0 },
	{ "cann",		F_BOOL,	R(cann), 0 },
	{ "env",		F_STRV,	R(env), 0 },
	{ "env_unset",		F_STRV,	R(env_unset), 0 },
	{ "engine",		F_STR,	R(engine), 0 },
	{ "framework",		F_STR,	R(framework), 0 },
	{ "script",		F_STR,	R(script), 0 },
	{ "node_rank",		F_INT,	R(place.node_rank), 0 },
	{ "node_rank_from",	F_STR,	R(place.node_rank_from), 0 },
	{ "nnodes",		F_INT,	R(place.nnodes), 0 },
	{ "nproc_per_node",	F_INT,	R(place.nproc_per_node), 0 },
	{ "first_rank",		F_INT,	R(place.first_rank), 0 },
	{ "world_size",		F_INT,	R(place.world_size), 0 },
	{ "master_addr",	F_STR,	R(place.master_addr), 0 },
	{ "master_port",	F_INT,	R(place.master_port), 0 },
	{ "status",		F_STATUS, R(status), 0 },
	{ "reason",		F_STR,	R(reason), 0 },
	{ "force",		F_STR,	R(force), 0 },
	{ "exit",		F_INT,	R(exit), 0 },
	{ "missing",		F_STRV,	R(missing), 0 },
	{ "save_path",		F_STR,	R(save_path), 0 },
	{ "step_start",		F_INT,	R(step_start), 0 },
	{ "step_end",		F_INT,	R(step_end), 0 },
	{ "loaded_iteration",	F_INT,	R(loaded_iteration), 0 },
	{ "ranks",		F_RANKS, R(ranks_all), 0 },
	{ "expected_ranks",	F_INTS,	R(expected), R(nexpected) },
	{ "level",		F_STR,	R(level), 0 },
	{ "analyse",		F_BOOL,	R(analyse), 0 },
	{ "mode",		F_STR,	R(mode), 0 },
	{ "copies",		F_STRV,	R(copies), 0 },
	{ "prof_config",	F_STR,	R(prof_config), 0 },
	{ "existing",		F_STRV,	R(existing), 0 },
	{ "new_argv",		F_STRV,	R(new_argv), 0 },
	{ "set",		F_STRV,	R(set), 0 },
};

#define NFIELDS	(sizeof(fields) / sizeof(fields[0]))
#define AT(rec, off, type)	((type *)((char *)(rec) + (off)))
#define CAT(rec, off, type)	((const type *)((const char *)(rec) + (off)))

/*
 * The names as written: a launch stopped for missing paths is "refused"
 * with exit status 66, as every refusal carries the exit it asks for.
 */
static const char *const status_names[] = {
	[LAUNCH_UNKNOWN] = NULL,
	[LAUNCH_INJECTED] = "injected",
	[LAUNCH_KEPT] = "kept",
	[LAUNCH_LEFT_ALONE] = "unchanged",
	[LAUNCH_REFUSED] = "refused",
	[LAUNCH_MISSING_PATHS] = "refused",
	[LAUNCH_FAILED] = "failed",
};

const char *
launch_status_name(enum launch_status s)
{
	return (size_t)s < sizeof(status_names) / sizeof(status_names[0]) &&
	    status_names[s] != NULL ? status_names[s] : "unknown";
}

static enum launch_status
status_of(const char *name)
{
	for (size_t s = 1; s < sizeof(status_names) / sizeof(status_names[0]);
	    s++)
		if (strcmp(name, status_names[s]) == 0)
			return (enum launch_status)s;
	return LAUNCH_UNKNOWN;
}

int
launch_profiled(const struct launch_record *r)
{
	return r->status == LAUNCH_INJECTED || r->status == LAUNCH_KEPT;
}

/* Free field F of R and leave it unset. */
static void
clear_field(struct launch_record *r, const struct field *f)
{
	switch (f->type) {
	case F_STR:
		free(*AT(r, f->off, char *));
		*AT(r, f->off, char *) = NULL;
		break;
	case F_STRV:
		strv_free(AT(r, f->off, struct strv));
		break;
	case F_INTS:
		free(*AT(r, f->off, int *));
		*AT(r, f->off, int *) = NULL;
		*AT(r, f->aux, size_t) = 0;
		break;
	case F_RANKS:
		free(r->ranks);
		r->ranks = NULL;
		r->nranks = 0;
		r->ranks_all = -1;
		break;
	case F_INT:
	case F_BOOL:
		*AT(r, f->off, int) = -1;
		break;
	case F_LONG:
		*AT(r, f->off, long) = -1;
		break;
	case F_I64:
		*AT(r, f->off, int64_t) = -1;
		break;
	case F_STATUS:
		r->status = LAUNCH_UNKNOWN;
		break;
	}
}

void
launch_record_init(struct launch_record *r)
{
	memset(r, 0, sizeof(*r));
	for (size_t i = 0; i < NFIELDS; i++)
		clear_field(r, &fields[i]);
}

void
launch_record_free(struct launch_record *r)
{
	for (size_t i = 0; i < NFIELDS; i++)
		clear_field(r, &fields[i]);
}

static int
field_set(const struct launch_record *r, const struct field *f)
{
	switch (f->type) {
	case F_STR:
		return *CAT(r, f->off, char *) != NULL;
	case F_INT:
	case F_BOOL:
		return *CAT(r, f->off, int) != -1;
	case F_LONG:
		return *CAT(r, f->off, long) != -1;
	case F_I64:
		return *CAT(r, f->off, int64_t) != -1;
	case F_STRV:
		return CAT(r, f->off, struct strv)->n > 0;
	case F_INTS:
		return *CAT(r, f->off, int *) != NULL;	/* [] says none */
	case F_RANKS:
		return r->ranks_all != -1;
	case F_STATUS:
		return r->status != LAUNCH_UNKNOWN;
	}
	return 0;
}

static cJSON *
field_json(const struct launch_record *r, const struct field *f)
{
	switch (f->type) {
	case F_STR:
		return cJSON_CreateString(*CAT(r, f->off, char *));
	case F_INT:
		return cJSON_CreateNumber(*CAT(r, f->off, int));
	case F_LONG:
		return cJSON_CreateNumber(*CAT(r, f->off, long));
	case F_I64:
		return cJSON_CreateNumber((double)*CAT(r, f->off, int64_t));
	case F_BOOL:
		return cJSON_CreateBool(*CAT(r, f->off, int));
	case F_STRV:
		return json_strv(CAT(r, f->off, struct strv)->v);
	case F_INTS:
		return json_ints(*CAT(r, f->off, int *),
		    *CAT(r, f->aux, size_t));
	case F_RANKS:
		return r->ranks_all ? cJSON_CreateString("all") :
		    json_ints(r->ranks, r->nranks);
	case F_STATUS:
		return cJSON_CreateString(launch_status_name(r->status));
	}
	return cJSON_CreateNull();
}

cJSON *
launch_record_json(const struct launch_record *r)
{
	cJSON *o = cJSON_CreateObject();

	for (size_t i = 0; i < NFIELDS; i++)
		if (field_set(r, &fields[i]))
			cJSON_AddItemToObject(o, fields[i].key,
			    field_json(r, &fields[i]));
	return o;
}

/* A JSON number that is a whole number in [MIN, MAX]. */
static int
whole(const cJSON *v, double min, double max)
{
	return cJSON_IsNumber(v) && v->valuedouble >= min &&
	    v->valuedouble <= max && v->valuedouble == (double)(int64_t)
	    v->valuedouble;
}

/* An array of whole numbers in int range; -1 if V is not one. */
static int
read_ints(const cJSON *v, int **out, size_t *n)
{
	const cJSON *e;
	size_t k = 0;

	if (!cJSON_IsArray(v))
		return -1;
	cJSON_ArrayForEach(e, v)
		if (!whole(e, -2147483648.0, 2147483647.0))
			return -1;
	*out = xcalloc((size_t)cJSON_GetArraySize(v) + 1, sizeof(**out));
	cJSON_ArrayForEach(e, v)
		(*out)[k++] = (int)e->valuedouble;
	*n = k;
	return 0;
}

static void
read_strv(const cJSON *v, struct strv *out)
{
	const cJSON *e;

	cJSON_ArrayForEach(e, v)
		if (!cJSON_IsString(e))
			return;
	cJSON_ArrayForEach(e, v)
		strv_push(out, e->valuestring);
}

/* Field F from V into R (already cleared), if V has F's type. */
static void
field_read(struct launch_record *r, const struct field *f, const cJSON *v)
{
	switch (f->type) {
	case F_STR:
		if (cJSON_IsString(v))
			*AT(r, f->off, char *) = xstrdup(v->valuestring);
		break;
	case F_INT:
		if (whole(v, 0, 2147483647.0))
			*AT(r, f->off, int) = (int)v->valuedouble;
		break;
	case F_LONG:
		if (whole(v, 0, 2147483647.0))
			*AT(r, f->off, long) = (long)v->valuedouble;
		break;
	case F_I64:
		if (whole(v, 0, 9007199254740992.0))
			*AT(r, f->off, int64_t) = (int64_t)v->valuedouble;
		break;
	case F_BOOL:
		if (cJSON_IsBool(v))
			*AT(r, f->off, int) = cJSON_IsTrue(v);
		break;
	case F_STRV:
		if (cJSON_IsArray(v))
			read_strv(v, AT(r, f->off, struct strv));
		break;
	case F_INTS:
		read_ints(v, AT(r, f->off, int *), AT(r, f->aux, size_t));
		break;
	case F_RANKS:
		if (cJSON_IsString(v) && strcmp(v->valuestring, "all") == 0)
			r->ranks_all = 1;
		else if (read_ints(v, &r->ranks, &r->nranks) == 0)
			r->ranks_all = 0;
		break;
	case F_STATUS:
		if (cJSON_IsString(v))
			r->status = status_of(v->valuestring);
		break;
	}
}

/* Move field F from SRC to DST (its old value freed); SRC loses it. */
static void
move_field(struct launch_record *dst, struct launch_record *src,
    const struct field *f)
{
	clear_field(dst, f);
	switch (f->type) {
	case F_STR:
		*AT(dst, f->off, char *) = *AT(src, f->off, char *);
		*AT(src, f->off, char *) = NULL;
		break;
	case F_STRV:
		*AT(dst, f->off, struct strv) = *AT(src, f->off, struct strv);
		memset(AT(src, f->off, struct strv), 0, sizeof(struct strv));
		break;
	case F_INTS:
		*AT(dst, f->off, int *) = *AT(src, f->off, int *);
		*AT(dst, f->aux, size_t) = *AT(src, f->aux, size_t);
		*AT(src, f->off, int *) = NULL;
		*AT(src, f->aux, size_t) = 0;
		break;
	case F_RANKS:
		dst->ranks_all = src->ranks_all;
		dst->ranks = src->ranks;
		dst->nranks = src->nranks;
		src->ranks = NULL;
		src->nranks = 0;
		src->ranks_all = -1;
		break;
	case F_INT:
	case F_BOOL:
		*AT(dst, f->off, int) = *AT(src, f->off, int);
		break;
	case F_LONG:
		*AT(dst, f->off, long) = *AT(src, f->off, long);
		break;
	case F_I64:
		*AT(dst, f->off, int64_t) = *AT(src, f->off, int64_t);
		break;
	case F_STATUS:
		dst->status = src->status;
		break;
	}
	clear_field(src, f);
}

/* The fields set in LATER replace those of R; LATER is left empty. */
static void
merge(struct launch_record *r, struct launch_record *later)
{
	for (size_t i = 0; i < NFIELDS; i++)
		if (field_set(later, &fields[i]))
			move_field(r, later, &fields[i]);
}

/* A refusal's exit status says which refusal it was. */
static void
settle(struct launch_record *r)
{
	if (r->status == LAUNCH_REFUSED || r->status == LAUNCH_MISSING_PATHS)
		r->status = r->exit == EX_NOINPUT ? LAUNCH_MISSING_PATHS :
		    LAUNCH_REFUSED;
}

void
launch_record_from_json(struct launch_record *r, const cJSON *o)
{
	struct launch_record got;
	const cJSON *v;

	launch_record_init(&got);
	for (size_t i = 0; i < NFIELDS; i++)
		if ((v = cJSON_GetObjectItemCaseSensitive(o, fields[i].key)))
			field_read(&got, &fields[i], v);
	merge(r, &got);
	launch_record_free(&got);
	settle(r);
}

int
journal_append(const char *session, const struct launch_record *rec)
{
	char *path = xasprintf("%s/%s", session, SESSION_JOURNAL);
	cJSON *o = launch_record_json(rec);
	char *text = json_print(o, 0), *line;
	int fd, rc = -1, saved;
	size_t len;

	line = xasprintf("%s\n", text != NULL ? text : "{}");
	len = strlen(line);
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd != -1) {
		rc = write(fd, line, len) == (ssize_t)len ? 0 : -1;
		saved = errno;
		close(fd);
		errno = saved;
	}
	cJSON_Delete(o);
	free(path);
	free(line);
	free(text);
	return rc;
}

/* The earlier record of the same process (pid and host), or NULL. */
static struct launch_record *
same_process(struct journal *j, const struct launch_record *rec)
{
	if (rec->pid < 0 || rec->host == NULL)
		return NULL;
	for (size_t i = 0; i < j->n; i++)
		if (j->recs[i].pid == rec->pid && j->recs[i].host != NULL &&
		    strcmp(j->recs[i].host, rec->host) == 0)
			return &j->recs[i];
	return NULL;
}

/* A line of the journal: a new launch, or news of an earlier one. */
static void
add_line(struct journal *j, const char *line)
{
	cJSON *o = json_parse(line, NULL);
	struct launch_record rec, *old;

	if (cJSON_IsObject(o)) {
		launch_record_init(&rec);
		launch_record_from_json(&rec, o);
		if ((old = same_process(j, &rec)) != NULL) {
			merge(old, &rec);
			launch_record_free(&rec);
			settle(old);
		} else {
			j->recs = xreallocarray(j->recs, j->n + 1,
			    sizeof(*j->recs));
			j->recs[j->n++] = rec;
		}
	}
	cJSON_Delete(o);
}

/* The length of PATH's folder part (an absolute path: at least "/"). */
static size_t
dir_len(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash == NULL ? 0 : slash == path ? 1 : (size_t)(slash - path);
}

/*
 * Where SESSION was made (its plan's "session"), and whether it is there
 * still: the folders that held it then and now into J, else nothing.
 */
static void
find_moved(const char *session, struct journal *j)
{
	char *path = xasprintf("%s/%s", session, SESSION_PLAN), *why = NULL;
	cJSON *plan = json_read(path, &why);
	const char *was = cJSON_GetStringValue(cJSON_GetObjectItem(plan,
	    "session"));
	char *now = realpath(session, NULL), *then;

	free(path);
	free(why);
	if (was != NULL && now != NULL && was[0] == '/' &&
	    strcmp(was, now) != 0) {
		then = realpath(was, NULL);
		if (then == NULL || strcmp(then, now) != 0) {
			j->moved_from = path_fold(xstrndup(was, dir_len(was)));
			j->moved_to = xstrndup(now, dir_len(now));
		}
		free(then);
	}
	free(now);
	cJSON_Delete(plan);
}

/* *P, absolute with CWD, found again under J's new folder when it moved. */
static void
rebase(const struct journal *j, const char *cwd, char **p)
{
	size_t n = strlen(j->moved_from);
	char *abs;

	if (*p == NULL)
		return;
	abs = path_fold((*p)[0] == '/' || cwd == NULL ? xstrdup(*p) :
	    xasprintf("%s/%s", cwd, *p));
	if (strncmp(abs, j->moved_from, n) == 0 &&
	    (abs[n] == '/' || abs[n] == '\0')) {
		free(*p);
		*p = xasprintf("%s%s", j->moved_to, abs + n);
	}
	free(abs);
}

/* A moved session's records: their paths under its old folder, found again. */
static void
rebase_records(struct journal *j)
{
	struct launch_record *r;
	char *copy, *arrow;

	for (size_t i = 0; i < j->n; i++) {
		r = &j->recs[i];
		rebase(j, r->cwd, &r->save_path);
		rebase(j, r->cwd, &r->prof_config);
		for (size_t k = 0; k < r->copies.n; k++)
			if ((arrow = strstr(r->copies.v[k], " -> ")) != NULL) {
				copy = xstrdup(arrow + 4);
				rebase(j, r->cwd, &copy);
				arrow[4] = '\0';
				arrow = xasprintf("%s%s", r->copies.v[k], copy);
				free(copy);
				free(r->copies.v[k]);
				r->copies.v[k] = arrow;
			}
	}
}

void
journal_read(const char *session, struct journal *j)
{
	char *path = xasprintf("%s/%s", session, SESSION_JOURNAL);
	char *text = read_file(path, NULL), *line, *next;

	memset(j, 0, sizeof(*j));
	free(path);
	for (line = text; line != NULL && *line != '\0'; line = next) {
		next = strchr(line, '\n');
		if (next != NULL)
			*next++ = '\0';
		add_line(j, line);
	}
	free(text);
	find_moved(session, j);
	if (j->moved_from != NULL)
		rebase_records(j);
}

void
journal_free(struct journal *j)
{
	for (size_t i = 0; i < j->n; i++)
		launch_record_free(&j->recs[i]);
	free(j->recs);
	free(j->moved_from);
	free(j->moved_to);
	memset(j, 0, sizeof(*j));
}
