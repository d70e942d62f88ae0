/*
 * The summary: each rank directory read once, rank by rank, by every
 * summary in the table below; then each summary computes its result and
 * findings.  A summary that cannot be made says why instead of showing
 * zeros.
 */
#include <sys/stat.h>

#include <err.h>
#include <langinfo.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "advice/advice.h"
#include "common/util.h"
#include "common/jsonfile.h"
#include "model.h"

/* The summaries, in the order they print.  A new one is a file and a row. */
static const struct kind *const kinds[NKINDS] = {
	&kind_steps, &kind_ops, &kind_cluster, &kind_wait, &kind_links,
	&kind_memory,
};

/* Is summary K read?  All are, unless the caller wants steps and operators. */
static int
wanted(const struct summary *s, size_t k)
{
	return !s->opts.steps_ops_only || kinds[k] == &kind_steps ||
	    kinds[k] == &kind_ops;
}

/*
 * cJSON records the position of a parse error in a global of its own:
 * parses on several threads would race on it, so they take turns.
 */
static pthread_mutex_t json_lock = PTHREAD_MUTEX_INITIALIZER;

static cJSON *
json_read_locked(const char *path, char **why)
{
	cJSON *j;

	pthread_mutex_lock(&json_lock);
	j = json_read(path, why);
	pthread_mutex_unlock(&json_lock);
	return j;
}

struct cached {
	char	*name;
	cJSON	*json;
	char	*why;
};

struct rank_files {
	char		*out;		/* ASCEND_PROFILER_OUTPUT */
	struct cached	 c[4];
	size_t		 nc;
	sqlite3		*db;
	int		 db_tried;
};

char *
rank_file(struct rank_files *rf, const char *name)
{
	char *p = xasprintf("%s/%s", rf->out, name);
	struct stat st;

	if (stat(p, &st) == 0 && S_ISREG(st.st_mode))
		return p;
	free(p);
	return NULL;
}

cJSON *
rank_json(struct rank_files *rf, const char *name, char **why)
{
	struct cached *c;
	char *p;
	size_t i;

	for (i = 0; i < rf->nc; i++)
		if (strcmp(rf->c[i].name, name) == 0) {
			*why = rf->c[i].why;
			return rf->c[i].json;
		}
	if (rf->nc == sizeof(rf->c) / sizeof(rf->c[0]))
		errx(70, "rank_json: too many files");
	c = &rf->c[rf->nc++];
	c->name = xstrdup(name);
	c->json = NULL;
	c->why = NULL;
	if ((p = rank_file(rf, name)) == NULL)
		c->why = xasprintf(_("no %s"), name);
	else if ((c->json = json_read_locked(p, &c->why)) == NULL && c->why == NULL)
		c->why = xasprintf(_("%s: not JSON"), p);
	free(p);
	*why = c->why;
	return c->json;
}

sqlite3 *
rank_db(struct rank_files *rf)
{
	char *p;

	if (rf->db_tried)
		return rf->db;
	rf->db_tried = 1;
	if ((p = rank_file(rf, "analysis.db")) == NULL)
		return NULL;
	if (sqlite3_open_v2(p, &rf->db, SQLITE_OPEN_READONLY, NULL) !=
	    SQLITE_OK) {
		sqlite3_close(rf->db);
		rf->db = NULL;
	}
	free(p);
	return rf->db;
}

static void
rank_files_close(struct rank_files *rf)
{
	size_t i;

	for (i = 0; i < rf->nc; i++) {
		free(rf->c[i].name);
		free(rf->c[i].why);
		cJSON_Delete(rf->c[i].json);
	}
	if (rf->db != NULL)
		sqlite3_close(rf->db);
	free(rf->out);
}

long
step_iteration(const struct summary *s, long step)
{
	const struct summary_opts *o = &s->opts;
	long first;

	if (step < 0)
		return -1;
	switch (o->step_convention) {
	case SUMMARY_STEPS_LLM:
		/*
		 * skip_first = start - loaded - 2 and one warm-up step (none
		 * when start = loaded + 1): the first active ProfilerStep is
		 * start - loaded - 1, and it is iteration start.
		 */
		first = (long)o->step_start - o->loaded_iter - 1;
		break;
	case SUMMARY_STEPS_MM:
		first = o->step_start;	/* skip_first = start, no warm-up */
		break;
	default:
		return -1;
	}
	return step - first + o->step_start;
}

const char *
rank_label(const struct rank_data *r, char *buf, size_t len)
{
	if (r->rank >= 0)
		snprintf(buf, len, _("rank %d"), r->rank);
	else
		snprintf(buf, len, _("rank unknown (%s)"), r->name);
	return buf;
}

int
label_width(const struct summary *s, int min)
{
	char lab[LABEL_MAX];
	size_t i;
	int w = min;

	for (i = 0; i < s->nr; i++) {
		int n = (int)strlen(rank_label(&s->r[i], lab, sizeof(lab)));

		if (n > w)
			w = n;
	}
	return w;
}

void
json_rank(cJSON *o, const char *key, int rank)
{
	if (rank >= 0)
		cJSON_AddNumberToObject(o, key, rank);
	else
		cJSON_AddNullToObject(o, key);
}

static char *
jstr(const cJSON *o, const char *a, const char *b)
{
	const cJSON *j = cJSON_GetObjectItemCaseSensitive(o, a);

	if (b != NULL)
		j = cJSON_GetObjectItemCaseSensitive(j, b);
	return cJSON_IsString(j) ? xstrdup(j->valuestring) : NULL;
}

static int
jint(const cJSON *o, const char *k)
{
	const cJSON *j = cJSON_GetObjectItemCaseSensitive(o, k);

	return cJSON_IsNumber(j) && j->valuedouble > 0 ? j->valueint : 0;
}

/* The environment torch_npu recorded, "NAME=value" each. */
static void
read_env(struct rank_data *rd, const cJSON *meta)
{
	const cJSON *e;

	cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(meta,
	    "ENV_VARIABLES"))
		if (e->string != NULL && cJSON_IsString(e))
			strv_pushf(&rd->env, "%s=%s", e->string, e->valuestring);
}

/*
 * profiler_info_{rank}.json: level and export type; metadata: layout and
 * the environment.
 */
static void
read_meta(struct rank_data *rd)
{
	char *p = rd->rank >= 0 ?
	    xasprintf("%s/profiler_info_%d.json", rd->path, rd->rank) :
	    xasprintf("%s/profiler_info.json", rd->path);
	char *why = NULL;
	cJSON *j = json_read_locked(p, &why), *cfg, *da;

	free(p);
	free(why);
	cfg = cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(j, "config"), "experimental_config");
	rd->level = jstr(cfg, "_profiler_level", NULL);
	rd->export_type = jstr(cfg, "_export_type", NULL);
	cJSON_Delete(j);
	p = xasprintf("%s/profiler_metadata.json", rd->path);
	why = NULL;
	j = json_read_locked(p, &why);
	free(p);
	free(why);
	da = cJSON_GetObjectItemCaseSensitive(j, "distributed_args");
	rd->tp = jint(da, "tensor_model_parallel_size");
	rd->pp = jint(da, "pipeline_model_parallel_size");
	rd->dp = jint(da, "data_parallel_size");
	rd->cp = jint(da, "context_parallel_size");
	rd->ep = jint(da, "expert_model_parallel_size");
	rd->world = jint(da, "world_size");
	read_env(rd, j);
	cJSON_Delete(j);
}

/*
 * Ranks are read on worker threads (one per CPU, at most MAX_WORKERS): the
 * large files (kernel_details.csv, the communication JSON) while the main
 * thread hands the ranks already read to the summaries in rank order, so
 * the result does not depend on timing.  Workers stay at most WINDOW
 * ranks ahead, which bounds the memory held by ranks read but not yet
 * summarised.
 */
#define MAX_WORKERS	8
#define WINDOW		(2 * MAX_WORKERS)

struct pool {
	struct summary			*s;
	const struct summary_rank	*ranks;
	struct rank_files		*rf;
	unsigned char			*ready;
	size_t				 n, next, merged;
	pthread_mutex_t			 mu;
	pthread_cond_t			 cv;
};

static void
prepare(struct summary *s, size_t i, const struct summary_rank *sr,
    struct rank_files *rf)
{
	struct rank_data *rd = &s->r[i];
	const char *base = strrchr(sr->path, '/');
	char *why;
	size_t k;

	rd->path = xstrdup(sr->path);
	rd->name = xstrdup(base ? base + 1 : sr->path);
	rd->rank = sr->rank;
	read_meta(rd);
	rf->out = xasprintf("%s/ASCEND_PROFILER_OUTPUT", rd->path);
	for (k = 0; k < NKINDS; k++)
		if (kinds[k]->prepare != NULL && wanted(s, k))
			kinds[k]->prepare(s, rd, rf);
	if (s->opts.steps_ops_only)
		return;
	rank_json(rf, "communication.json", &why);
	rank_json(rf, "communication_matrix.json", &why);
}

static void *
worker(void *arg)
{
	struct pool *p = arg;
	size_t i;

	pthread_mutex_lock(&p->mu);
	for (;;) {
		while (p->next < p->n && p->next >= p->merged + WINDOW)
			pthread_cond_wait(&p->cv, &p->mu);
		if (p->next >= p->n)
			break;
		i = p->next++;
		pthread_mutex_unlock(&p->mu);
		prepare(p->s, i, &p->ranks[i], &p->rf[i]);
		pthread_mutex_lock(&p->mu);
		p->ready[i] = 1;
		pthread_cond_broadcast(&p->cv);
	}
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

size_t
summary_workers(size_t n)
{
	const char *env = getenv("MSPROF_THREADS");
	long cpus = env != NULL && *env != '\0' ? strtol(env, NULL, 10) :
	    sysconf(_SC_NPROCESSORS_ONLN);
	size_t w = cpus > 0 ? (size_t)cpus : 1;

	if (w > MAX_WORKERS)
		w = MAX_WORKERS;
	if (w <= 1)
		return 0;
	return w < n ? w : n;
}

static void
read_ranks(struct summary *s, const struct summary_rank *ranks, size_t n)
{
	struct pool p = { .s = s, .ranks = ranks, .n = n };
	pthread_t tid[MAX_WORKERS];
	size_t i, k, nw = summary_workers(n), started = 0;

	p.rf = xcalloc(n + 1, sizeof(*p.rf));
	p.ready = xcalloc(n + 1, 1);
	pthread_mutex_init(&p.mu, NULL);
	pthread_cond_init(&p.cv, NULL);
	for (i = 0; i < nw; i++)
		started += pthread_create(&tid[started], NULL, worker, &p) == 0;
	for (i = 0; i < n; i++) {
		pthread_mutex_lock(&p.mu);
		while (!p.ready[i] && started > 0)
			pthread_cond_wait(&p.cv, &p.mu);
		if (!p.ready[i])	/* no thread could be started */
			p.next = i + 1;
		pthread_mutex_unlock(&p.mu);
		if (!p.ready[i])
			prepare(s, i, &ranks[i], &p.rf[i]);
		for (k = 0; k < NKINDS; k++)
			if (wanted(s, k))
				kinds[k]->rank(s, s->state[k], &s->r[i], &p.rf[i]);
		rank_files_close(&p.rf[i]);
		pthread_mutex_lock(&p.mu);
		p.merged = i + 1;
		pthread_cond_broadcast(&p.cv);
		pthread_mutex_unlock(&p.mu);
	}
	for (i = 0; i < started; i++)
		pthread_join(tid[i], NULL);
	pthread_mutex_destroy(&p.mu);
	pthread_cond_destroy(&p.cv);
	free(p.rf);
	free(p.ready);
}

struct summary *
summary_build(const struct summary_rank *ranks, size_t n,
    const struct summary_opts *opts)
{
	struct summary *s = xcalloc(1, sizeof(*s));
	size_t k;

	s->opts = *opts;
	if (s->opts.top_n <= 0)
		s->opts.top_n = 10;
	s->r = xcalloc(n + 1, sizeof(*s->r));
	s->nr = n;
	for (k = 0; k < NKINDS; k++)
		s->state[k] = kinds[k]->init(s);
	read_ranks(s, ranks, n);
	for (k = 0; k < NKINDS; k++)
		s->why[k] = n == 0 ? xstrdup(_("no *_ascend_pt rank directory")) :
		    !wanted(s, k) ? xstrdup(_("not read (steps and operators "
		    "only)")) : kinds[k]->finish(s, s->state[k]);
	if (!s->opts.steps_ops_only)
		advice_run(s);
	return s;
}

unsigned
summary_term_flags(FILE *fp)
{
	const char *cs = nl_langinfo(CODESET), *nc = getenv("NO_COLOR");
	unsigned f = 0;

	if (cs != NULL && strcmp(cs, "UTF-8") == 0)
		f |= SUMMARY_UTF8;
	if (isatty(fileno(fp)) && (nc == NULL || *nc == '\0'))
		f |= SUMMARY_COLOUR;
	return f;
}

void
summary_print(const struct summary *s, FILE *fp, unsigned flags)
{
	struct out o = { fp, flags };
	size_t k;

	for (k = 0; k < NKINDS; k++) {
		fprintf(fp, "\n%s\n", _(kinds[k]->title));
		if (s->why[k] != NULL)
			fprintf(fp, _("  not made: %s\n"), s->why[k]);
		else
			kinds[k]->print(s, s->state[k], &o);
	}
	fprintf(fp, "\n%s\n", _("Findings"));
	advice_print(s, &o);
}

cJSON *
summary_json(const struct summary *s)
{
	cJSON *j = cJSON_CreateObject(), *a, *o;
	size_t k, i;

	a = cJSON_AddArrayToObject(j, "ranks");
	for (i = 0; i < s->nr; i++) {
		const struct rank_data *r = &s->r[i];

		o = cJSON_CreateObject();
		json_rank(o, "rank", r->rank);
		cJSON_AddStringToObject(o, "path", r->path);
		if (r->level != NULL)
			cJSON_AddStringToObject(o, "level", r->level);
		if (r->export_type != NULL)
			cJSON_AddStringToObject(o, "export_type", r->export_type);
		cJSON_AddItemToArray(a, o);
	}
	o = cJSON_AddObjectToObject(j, "summaries");
	for (k = 0; k < NKINDS; k++) {
		cJSON *x;

		if (s->why[k] != NULL) {
			x = cJSON_CreateObject();
			cJSON_AddFalseToObject(x, "made");
			cJSON_AddStringToObject(x, "why", s->why[k]);
		} else {
			x = kinds[k]->json(s, s->state[k]);
			cJSON_AddTrueToObject(x, "made");
		}
		cJSON_AddItemToObject(o, kinds[k]->name, x);
	}
	cJSON_AddItemToObject(j, "findings", advice_json(s));
	return j;
}

static const char html_head[] =
"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
"<!DOCTYPE html>\n"
"<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n"
"<head>\n<meta charset=\"UTF-8\"/>\n<title>msprof-exec summary</title>\n"
"<style>\n"
"body{font-family:sans-serif;margin:2em;color:#222}\n"
"table{border-collapse:collapse;margin:0.5em 0}\n"
"td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}\n"
"td.l,th.l{text-align:left}\n"
".why{color:#a33}\n.finding{color:#a33;font-weight:bold}\n"
"</style>\n</head>\n<body>\n<h1>msprof-exec summary</h1>\n";

int
summary_html(const struct summary *s, FILE *fp)
{
	size_t k;

	fputs(html_head, fp);
	fprintf(fp, "<p>%zu %s</p>\n", s->nr, s->nr == 1 ? "rank" : "ranks");
	fputs("<h2>Findings</h2>\n", fp);
	advice_html(s, fp);
	for (k = 0; k < NKINDS; k++) {
		fputs("<h2>", fp);
		html_text(fp, kinds[k]->title);
		fputs("</h2>\n", fp);
		if (s->why[k] != NULL) {
			fputs("<p class=\"why\">not made: ", fp);
			html_text(fp, s->why[k]);
			fputs("</p>\n", fp);
		} else
			kinds[k]->html(s, s->state[k], fp);
	}
	fputs("</body>\n</html>\n", fp);
	return fflush(fp) == 0 && !ferror(fp) ? 0 : -1;
}

size_t
summary_nfindings(const struct summary *s)
{
	return s->nf;
}

const char *
summary_finding(const struct summary *s, size_t i, const char **text)
{
	if (i >= s->nf)
		return NULL;
	if (text != NULL)
		*text = s->f[i].text;
	return advice_rule_id(s->f[i].rule);
}

void
summary_free(struct summary *s)
{
	size_t i, k;

	if (s == NULL)
		return;
	for (k = 0; k < NKINDS; k++) {
		kinds[k]->free(s->state[k]);
		free(s->why[k]);
	}
	for (i = 0; i < s->nr; i++) {
		struct rank_data *r = &s->r[i];

		free(r->path);
		free(r->name);
		free(r->level);
		free(r->export_type);
		free(r->steps);
		free(r->steps_why);
		optab_free(r->ops);
		free(r->ops_why);
		for (k = 0; k < r->nratio; k++)
			free(r->ratio[k]);
		strv_free(&r->env);
		free(r->mem_why);
	}
	free(s->r);
	advice_free(s);
	free(s);
}
