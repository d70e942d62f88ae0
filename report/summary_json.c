/*
 * The summary as JSON: the ranks read, the files left out, then each
 * kind under its name, or why it was not made.  Each kind's writer is
 * here, reading the finished summary's model (summary/steps.h, ops.h and
 * the others), with its row in the table of writers: a new kind is its
 * writer and its row.
 */
#include <err.h>
#include <math.h>
#include <stdlib.h>

#include "common/jsonw.h"
#include "summary/cluster.h"
#include "summary/idle.h"
#include "summary/links.h"
#include "summary/memory.h"
#include "summary/mfu.h"
#include "summary/model.h"
#include "summary/ops.h"
#include "summary/steps.h"
#include "summary/wait.h"
#include "summary/writer.h"
#include "summary/summary.h"
#include "summary_writers.h"

/* --- the step breakdown (summary/steps.h) --- */

static cJSON *
row_json(const struct summary *s, const struct step_row *m)
{
	cJSON *o = cJSON_CreateObject();

	if (m->step >= 0) {
		cJSON_AddNumberToObject(o, "step", m->step);
		if (step_iteration(s, m->step) >= 0)
			cJSON_AddNumberToObject(o, "iteration",
			    step_iteration(s, m->step));
	}
	json_num(o, "step_us", m->step_time);
	json_num(o, "computing_us", m->comp);
	json_num(o, "communication_not_overlapped_us", m->comm_exposed);
	json_num(o, "free_us", m->free);
	json_num(o, "bubble_us", m->bubble);
	json_num(o, "compute_share", m->step_time > 0 ? m->comp / m->step_time : NAN);
	json_num(o, "exposed_communication_share",
	    m->step_time > 0 ? m->comm_exposed / m->step_time : NAN);
	json_num(o, "free_share", m->step_time > 0 ? m->free / m->step_time : NAN);
	json_num(o, "bubble_share", m->step_time > 0 ? m->bubble / m->step_time : NAN);
	json_num(o, "overlap", m->comm > 0 ? m->overlapped / m->comm : NAN);
	return o;
}

static cJSON *
steps_json(const struct summary *s, const void *state)
{
	cJSON *j = cJSON_CreateObject(), *a = cJSON_AddArrayToObject(j, "ranks");
	size_t i, k;

	for (i = 0; i < s->nr; i++) {
		const struct rank_data *r = &s->r[i];
		cJSON *o;

		if (r->steps_why != NULL) {
			o = cJSON_CreateObject();
			cJSON_AddStringToObject(o, "why", r->steps_why);
		} else {
			cJSON *steps;

			o = row_json(s, &r->mean);
			steps = cJSON_AddArrayToObject(o, "steps");
			for (k = 0; k < r->nsteps; k++)
				cJSON_AddItemToArray(steps,
				    row_json(s, &r->steps[k]));
		}
		json_rank(o, "rank", r->rank);
		cJSON_AddItemToArray(a, o);
	}
	return j;
}

/* --- the top operators (summary/ops.h) --- */

static cJSON *
ops_json(const struct summary *s, const void *state)
{
	const struct ops *o = state;
	struct op **v = optab_sorted(o->all);
	cJSON *j = cJSON_CreateObject(), *a;
	int i;

	cJSON_AddStringToObject(j, "source", o->source);
	cJSON_AddNumberToObject(j, "ranks", o->made);
	cJSON_AddNumberToObject(j, "total_us", o->all->total);
	cJSON_AddNumberToObject(j, "operator_types", o->all->n);
	a = cJSON_AddArrayToObject(j, "top");
	for (i = 0; i < s->opts.top_n && v[i] != NULL; i++) {
		cJSON *x = cJSON_CreateObject(), *fl;

		cJSON_AddStringToObject(x, "type", v[i]->type);
		cJSON_AddStringToObject(x, "core", v[i]->core);
		cJSON_AddNumberToObject(x, "count", v[i]->count);
		json_num(x, "total_us", v[i]->total);
		json_num(x, "share", op_share(s, v[i]));
		json_num(x, "mean_us", v[i]->total / v[i]->count);
		json_num(x, "median_us", op_median(v[i]));
		if (!isnan(op_median(v[i])))
			cJSON_AddBoolToObject(x, "median_exact",
			    op_exact(v[i]));
		json_num(x, "min_us", v[i]->min);
		json_num(x, "max_us", v[i]->max);
		fl = cJSON_AddArrayToObject(x, "flags");
		if (op_aicpu(v[i]))
			cJSON_AddItemToArray(fl, cJSON_CreateString("aicpu"));
		if (op_dynamic(v[i]))
			cJSON_AddItemToArray(fl, cJSON_CreateString("dynamic"));
		if (op_low_pipe(s, v[i]))
			cJSON_AddItemToArray(fl, cJSON_CreateString("low-pipe"));
		cJSON_AddItemToArray(a, x);
	}
	free(v);
	return j;
}

/* --- the device memory (summary/memory.h) --- */

static cJSON *
memory_json(const struct summary *s, const void *state)
{
	cJSON *j = cJSON_CreateObject(), *a;
	size_t i;

	if (s->opts.device_mb > 0)
		cJSON_AddNumberToObject(j, "device_mb", s->opts.device_mb);
	else
		cJSON_AddNullToObject(j, "device_mb");
	a = cJSON_AddArrayToObject(j, "ranks");
	for (i = 0; i < s->nr; i++) {
		const struct mem_rank *m = mem_rank_of(s, i);
		cJSON *x = cJSON_CreateObject();

		json_rank(x, "rank", s->r[i].rank);
		if (isnan(m->peak_mb))
			cJSON_AddStringToObject(x, "why", m->why != NULL ?
			    m->why : "no memory_record.csv");
		else {
			cJSON_AddNumberToObject(x, "peak_mb", m->peak_mb);
			cJSON_AddStringToObject(x, "component", m->component);
		}
		cJSON_AddItemToArray(a, x);
	}
	return j;
}

/* --- the MFU (summary/mfu.h) --- */

static cJSON *
mfu_json(const struct summary *s, const void *state)
{
	const struct mfu *u = state;
	const struct shape *m = &u->m;
	cJSON *j = cJSON_CreateObject(), *x;
	double a = mfu_achieved(u);
	const char *why = mfu_why(u);

	json_num(j, "flops_per_step", u->flops);
	if (isnan(u->flops))
		cJSON_AddStringToObject(j, "flops_why", u->flops_why);
	else {
		x = cJSON_AddObjectToObject(j, "model");
		json_num(x, "num_layers", m->layers);
		json_num(x, "hidden_size", m->hidden);
		json_num(x, "ffn_hidden_size", m->ffn);
		json_num(x, "num_attention_heads", m->heads);
		json_num(x, "num_query_groups", m->groups);
		json_num(x, "kv_channels", m->kv);
		json_num(x, "seq_length", m->seq);
		json_num(x, "global_batch_size", m->batch);
		json_num(x, "padded_vocab_size", m->vocab);
		cJSON_AddStringToObject(x, "vocab_from", m->vocab_from);
		cJSON_AddBoolToObject(x, "swiglu", m->swiglu);
		json_num(x, "num_experts", m->experts);
		if (!isnan(m->experts)) {
			json_num(x, "moe_router_topk", m->topk);
			json_num(x, "moe_ffn_hidden_size", m->moe_ffn);
			json_num(x, "moe_shared_expert_intermediate_size",
			    m->shared);
			json_num(x, "moe_layer_freq", m->freq);
		}
		json_num(x, "mtp_num_layers", m->mtp);
	}
	json_num(j, "step_ms", u->step_us / 1000);
	cJSON_AddNumberToObject(j, "step_ranks", (double)u->nranks);
	if (u->world > 0) {
		cJSON_AddNumberToObject(j, "world_size", u->world);
		cJSON_AddStringToObject(j, "world_from", u->world_from);
	} else
		cJSON_AddNullToObject(j, "world_size");
	json_num(j, "tflops_per_device", a / 1e12);
	x = cJSON_AddObjectToObject(j, "peak");
	json_num(x, "tflops", u->peak / 1e12);
	if (isnan(u->peak))
		cJSON_AddStringToObject(x, "why", u->peak_why);
	else {
		cJSON_AddStringToObject(x, "source", u->chip != NULL ?
		    "npu-smi" : "info.json");
		if (u->chip != NULL)
			cJSON_AddStringToObject(x, "chip", u->chip);
		/* the info.json, or the platform_config ini */
		cJSON_AddStringToObject(x, "path", u->peak_path);
		cJSON_AddNumberToObject(x, "ai_cores", u->cores);
		cJSON_AddNumberToObject(x, "aic_mhz", u->mhz);
		cJSON_AddNumberToObject(x, "ops_per_cycle", CUBE_OPS);
	}
	json_num(j, "mfu", why == NULL ? a / u->peak : NAN);
	if (why != NULL)
		cJSON_AddStringToObject(j, "mfu_why", why);
	if (u->log_n > 0) {
		x = cJSON_AddObjectToObject(j, "log");
		cJSON_AddNumberToObject(x, "tflops_per_device", u->log_tflops);
		cJSON_AddNumberToObject(x, "first_iteration", u->log_first);
		cJSON_AddNumberToObject(x, "last_iteration", u->log_last);
		json_num(x, "relative_difference", mfu_log_difference(u));
	} else
		cJSON_AddNullToObject(j, "log");
	return j;
}

/* --- the cluster step table (summary/cluster.h) --- */

static const char *const pos_name[5] = { "pp", "dp", "cp", "tp", "ep" };
/* The columns' keys, as in the step breakdown's. */
static const char *const col_key[NCOLS] = {
	"computing_us", "communication_not_overlapped_us", "free_us",
	"bubble_us",
};

static cJSON *
cluster_json(const struct summary *s, const void *state)
{
	const struct cluster *c = state;
	cJSON *j = cJSON_CreateObject(), *a, *x;
	size_t i;
	int k, p;

	if (c->layout) {
		x = cJSON_AddObjectToObject(j, "layout");
		cJSON_AddNumberToObject(x, "tp", c->tp);
		cJSON_AddNumberToObject(x, "pp", c->pp);
		cJSON_AddNumberToObject(x, "dp", c->dp);
		cJSON_AddNumberToObject(x, "cp", c->cp);
		cJSON_AddNumberToObject(x, "ep", c->ep);
	}
	cJSON_AddNumberToObject(j, "mean_step_us", c->mean_step);
	a = cJSON_AddArrayToObject(j, "ranks");
	for (i = 0; i < s->nr; i++) {
		const struct rank_data *r = &s->r[i];
		int v[5];

		if (r->steps_why != NULL)
			continue;
		cluster_position(c, r->rank, v);
		x = cJSON_CreateObject();
		json_rank(x, "rank", r->rank);
		/* null where the layout is unknown, as the text omits them */
		for (p = 0; p < 5; p++)
			json_rank(x, pos_name[p], r->rank >= 0 && c->layout ?
			    v[p] : -1);
		cJSON_AddNumberToObject(x, "step_us", r->mean.step_time);
		for (k = 0; k < NCOLS; k++)
			cJSON_AddNumberToObject(x, col_key[k], cluster_col(r, k));
		cJSON_AddItemToArray(a, x);
	}
	a = cJSON_AddArrayToObject(j, "spread");
	for (k = 0; k < NCOLS; k++) {
		x = cJSON_CreateObject();
		cJSON_AddStringToObject(x, "column", col_key[k]);
		cJSON_AddNumberToObject(x, "spread_us", c->hi[k] - c->lo[k]);
		json_rank(x, "worst_rank", s->r[cluster_worst(c, k)].rank);
		cJSON_AddBoolToObject(x, "flagged", c->flagged[k]);
		cJSON_AddItemToArray(a, x);
	}
	if (c->pp > 1)
		cJSON_AddNumberToObject(j, "worst_stage", c->worst_stage);
	a = cJSON_AddArrayToObject(j, "operator_difference");
	for (i = 0; i < c->ndiff; i++) {
		x = cJSON_CreateObject();
		cJSON_AddStringToObject(x, "type", c->diff[i].type);
		cJSON_AddNumberToObject(x, "slow_rank_us", c->diff[i].slow);
		cJSON_AddNumberToObject(x, "fast_rank_us", c->diff[i].fast);
		cJSON_AddItemToArray(a, x);
	}
	if (c->ndiff > 0) {
		json_rank(j, "slow_rank", s->r[c->slow].rank);
		json_rank(j, "fast_rank", s->r[c->fast].rank);
	}
	return j;
}

/* --- which rank the collectives wait for (summary/wait.h) --- */

/* "by_group": each group and kind, as the text has it. */
static void
split_json(const struct summary *s, cJSON *j)
{
	cJSON *a = cJSON_AddArrayToObject(j, "by_group"), *x, *m;
	size_t n, most = 0;
	double mean;
	int g, k;

	for (g = 0; g < CG_N; g++)
		for (k = 0; k < CK_N; k++) {
			struct comm_split c;

			if ((n = wait_split_most(s, g, k, &most, &mean)) == 0)
				continue;
			c = comm_split_of(s, most, g, k);
			x = cJSON_CreateObject();
			cJSON_AddStringToObject(x, "group", comm_group_names[g]);
			cJSON_AddStringToObject(x, "kind", comm_kind_names[k]);
			cJSON_AddNumberToObject(x, "ranks", n);
			json_num(x, "mean_exposed_ms", mean);
			m = cJSON_AddObjectToObject(x, "most");
			json_rank(m, "rank", s->r[most].rank);
			json_num(m, "exposed_ms", c.exposed);
			json_num(m, "waiting_ms", c.wait);
			json_num(m, "moving_ms", c.xfer);
			cJSON_AddItemToArray(a, x);
		}
}

static cJSON *
wait_json(const struct summary *s, const void *state)
{
	const struct wait *w = state;
	cJSON *j = cJSON_CreateObject(), *a;
	size_t i;

	cJSON_AddNumberToObject(j, "ranks", w->ranks);
	cJSON_AddNumberToObject(j, "collectives", w->counted);
	cJSON_AddNumberToObject(j, "dropped_groups", w->dropped_groups);
	cJSON_AddNumberToObject(j, "collectives_of_two", w->counted2);
	a = cJSON_AddArrayToObject(j, "votes");
	for (i = 0; i < s->nr; i++) {
		cJSON *x;

		if (w->seen[i] == 0 && w->nratio[i] == 0 && w->seen2[i] == 0)
			continue;
		x = cJSON_CreateObject();
		json_rank(x, "rank", s->r[i].rank);
		cJSON_AddNumberToObject(x, "last", w->votes[i]);
		cJSON_AddNumberToObject(x, "collectives", w->seen[i]);
		if (w->seen2[i] > 0) {
			cJSON_AddNumberToObject(x, "last_of_two", w->last2[i]);
			cJSON_AddNumberToObject(x, "collectives_of_two",
			    w->seen2[i]);
		}
		if (w->nratio[i] > 0) {
			cJSON_AddNumberToObject(x, "wait_ratio",
			    w->wait_sum[i] / w->nratio[i]);
			cJSON_AddNumberToObject(x, "sync_ratio",
			    w->sync_sum[i] / w->nratio[i]);
		}
		cJSON_AddItemToArray(a, x);
	}
	split_json(s, j);
	return j;
}

/* --- the links (summary/links.h) --- */

static cJSON *
links_json(const struct summary *s, const void *state)
{
	const struct links *l = state;
	cJSON *j = cJSON_CreateObject(), *a, *x;
	size_t i;
	int tr;

	cJSON_AddNumberToObject(j, "ranks", l->ranks);
	a = cJSON_AddArrayToObject(j, "transports");
	for (tr = 0; tr < COMM_NTRANS; tr++) {
		if (l->count[tr] == 0)
			continue;
		x = cJSON_CreateObject();
		cJSON_AddStringToObject(x, "type", comm_transports[tr]);
		cJSON_AddNumberToObject(x, "links", l->count[tr]);
		cJSON_AddNumberToObject(x, "mean_gb_s", l->mean[tr]);
		cJSON_AddItemToArray(a, x);
	}
	a = cJSON_AddArrayToObject(j, "links");
	for (i = 0; i < l->n; i++) {
		x = cJSON_CreateObject();
		cJSON_AddNumberToObject(x, "src", l->v[i]->src);
		cJSON_AddNumberToObject(x, "dst", l->v[i]->dst);
		cJSON_AddStringToObject(x, "type", comm_transports[l->v[i]->tr]);
		cJSON_AddNumberToObject(x, "size_mb", l->v[i]->size);
		cJSON_AddNumberToObject(x, "time_ms", l->v[i]->time);
		if (!isnan(link_gb_s(l->v[i])))
			cJSON_AddNumberToObject(x, "gb_s", link_gb_s(l->v[i]));
		cJSON_AddBoolToObject(x, "slow", link_slow(s, l->v[i]));
		cJSON_AddItemToArray(a, x);
	}
	return j;
}

/* --- the device idle and its causes (summary/idle.h) --- */

static cJSON *
idle_rank_json(const struct rank_data *rd, const struct idle_rank *x)
{
	const struct tl_result *r = x->r;
	cJSON *j = cJSON_CreateObject(), *c, *a;
	size_t i;
	int k;

	json_rank(j, "rank", rd->rank);
	if (r == NULL) {
		cJSON_AddStringToObject(j, "why", x->why != NULL ? x->why :
		    "no timeline");
		return j;
	}
	cJSON_AddStringToObject(j, "source", x->source);
	cJSON_AddNumberToObject(j, "steps", (double)r->nsteps);
	cJSON_AddNumberToObject(j, "step_ms", r->step_us / 1e3);
	cJSON_AddNumberToObject(j, "idle_ms", r->idle_us / 1e3);
	cJSON_AddNumberToObject(j, "explained_ms", r->explained_us / 1e3);
	cJSON_AddNumberToObject(j, "launch_gaps_ms", r->short_us / 1e3);
	cJSON_AddNumberToObject(j, "gc_gaps_ms", r->gc_gap_us / 1e3);
	cJSON_AddNumberToObject(j, "device_tasks", (double)r->ntasks);
	cJSON_AddBoolToObject(j, "stacks", r->stacks);
	cJSON_AddBoolToObject(j, "approximate", r->approx);
	c = cJSON_AddObjectToObject(j, "host");
	for (k = 0; k < TL_NCAUSE; k++) {
		cJSON *o = cJSON_AddObjectToObject(c, tl_cause_key[k]);

		cJSON_AddNumberToObject(o, "host_ms", r->host_us[k] / 1e3);
		cJSON_AddNumberToObject(o, "idle_ms", r->idle_by[k] / 1e3);
		cJSON_AddNumberToObject(o, "events", (double)r->count[k]);
		json_num(o, "share", idle_share(r, r->host_us[k]));
	}
	a = cJSON_AddArrayToObject(j, "sync_sites");
	for (i = 0; i < r->nframes; i++) {
		const struct tl_frame *f = &r->frames[i];
		cJSON *o = cJSON_CreateObject();

		cJSON_AddStringToObject(o, "where", f->where);
		cJSON_AddStringToObject(o, "path", f->path);
		cJSON_AddNumberToObject(o, "host_ms", f->host_us / 1e3);
		cJSON_AddNumberToObject(o, "idle_ms", f->idle_us / 1e3);
		cJSON_AddNumberToObject(o, "calls", (double)f->n);
		cJSON_AddBoolToObject(o, "formats_tensor", f->formats);
		cJSON_AddBoolToObject(o, "to_host", f->to_host);
		cJSON_AddItemToArray(a, o);
	}
	return j;
}

static cJSON *
idle_json(const struct summary *s, const void *state)
{
	cJSON *j = cJSON_CreateObject(), *a, *b;
	double most, all;
	size_t i, at;
	int c;

	a = cJSON_AddArrayToObject(j, "ranks");
	for (i = 0; i < s->nr; i++)
		cJSON_AddItemToArray(a, idle_rank_json(&s->r[i],
		    idle_rank_at(s, i)));
	b = cJSON_AddObjectToObject(j, "by_cause");
	for (c = 0; c < TL_NCAUSE; c++) {
		cJSON *o = cJSON_AddObjectToObject(b, tl_cause_key[c]);

		at = idle_most(s, c, &most, &all);
		json_num(o, "share_most", most);
		if (isnan(most))
			cJSON_AddNullToObject(o, "rank_most");
		else
			json_rank(o, "rank_most", s->r[at].rank);
		json_num(o, "share_all", all);
	}
	return j;
}

/* --- the table of writers, and the JSON of a summary --- */

typedef cJSON	*json_writer(const struct summary *, const void *);

/* The writer of each kind: every kind has its row. */
static const struct {
	const struct kind	*kind;
	json_writer		*write;
} writers[] = {
	{ &kind_steps, steps_json },
	{ &kind_ops, ops_json },
	{ &kind_cluster, cluster_json },
	{ &kind_wait, wait_json },
	{ &kind_links, links_json },
	{ &kind_memory, memory_json },
	{ &kind_mfu, mfu_json },
	{ &kind_idle, idle_json },
};

static json_writer *
writer_of(const struct kind *k)
{
	for (size_t i = 0; i < sizeof(writers) / sizeof(writers[0]); i++)
		if (writers[i].kind == k)
			return writers[i].write;
	errx(1, "no JSON writer for the summary kind %s", k->name);
}

/* The files left out, every one. */
cJSON *
left_out_json(const struct summary *s)
{
	cJSON *a = cJSON_CreateArray(), *o;

	for (size_t i = 0; i < s->nr; i++)
		for (size_t k = 0; k < s->r[i].nleft; k++) {
			o = cJSON_CreateObject();
			json_rank(o, "rank", s->r[i].rank);
			cJSON_AddStringToObject(o, "path", s->r[i].left[k].path);
			cJSON_AddStringToObject(o, "reason",
			    s->r[i].left[k].reason);
			cJSON_AddStringToObject(o, "why", s->r[i].left[k].why);
			cJSON_AddItemToArray(a, o);
		}
	return a;
}

/* What the summary read of rank I. */
static cJSON *
rank_json(const struct summary *s, size_t i)
{
	const struct rank_data *r = &s->r[i];
	cJSON *o = cJSON_CreateObject();

	json_rank(o, "rank", r->rank);
	cJSON_AddStringToObject(o, "path", r->path);
	if (r->level != NULL)
		cJSON_AddStringToObject(o, "level", r->level);
	if (r->export_type != NULL)
		cJSON_AddStringToObject(o, "export_type", r->export_type);
	return o;
}

/* Summary K, or why it was not made. */
static cJSON *
part_json(const struct summary *s, size_t k)
{
	cJSON *x;

	if (s->why[k] != NULL) {
		x = cJSON_CreateObject();
		cJSON_AddFalseToObject(x, "made");
		cJSON_AddStringToObject(x, "why", s->why[k]);
	} else {
		x = writer_of(summary_kind(k))(s, s->state[k]);
		cJSON_AddTrueToObject(x, "made");
	}
	return x;
}

/*
 * The summary's JSON, written as it is made: a rank, then a summary, at a
 * time, so that memory holds the largest summary's JSON, not all of it.
 * The one builder: summary_json_write wraps it in an object, summary_json
 * parses that back, and the report adds the findings beside it.
 */
void
summary_json_members(const struct summary *s, struct jsonw *w)
{
	const struct kind *k;
	size_t i;

	jw_open(w, "ranks", '[');
	for (i = 0; i < s->nr; i++)
		jw_take(w, NULL, rank_json(s, i));
	jw_close(w, ']');
	jw_take(w, "left_out", left_out_json(s));
	jw_open(w, "summaries", '{');
	for (i = 0; (k = summary_kind(i)) != NULL; i++)
		jw_take(w, k->name, part_json(s, i));
	jw_close(w, '}');
}

void
summary_json_write(const struct summary *s, struct jsonw *w, const char *key)
{
	jw_open(w, key, '{');
	summary_json_members(s, w);
	jw_close(w, '}');
}

cJSON *
summary_json(const struct summary *s)
{
	struct jsonw w;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	cJSON *j;

	if (f == NULL)
		err(1, "open_memstream");
	jw_init(&w, f);
	summary_json_write(s, &w, NULL);
	if (fclose(f) != 0)
		err(1, "open_memstream");
	j = cJSON_ParseWithLength(text, len);
	free(text);
	return j;
}
