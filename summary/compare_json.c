/*
 * The comparison as JSON: everything the text shows, every operator type
 * and every rank (the text keeps to the largest changes), in µs.
 */
#include <math.h>
#include <stdlib.h>

#include "common/jsonfile.h"
#include "compare_model.h"

/* The figures' keys, in the order of cmp_part_names. */
static const char *const part_keys[CP_N] = {
	"step", "computing", "communication_not_overlapped", "free", "bubble",
};

static cJSON *
run_json(const struct cmp_run *run)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "path", run->name);
	cJSON_AddNumberToObject(o, "rank_directories", (double)run->s->nr);
	cJSON_AddNumberToObject(o, "ranks_with_steps", (double)run->nsteps);
	cJSON_AddNumberToObject(o, "ranks_with_operators", (double)run->nops);
	if (run->level != NULL)
		cJSON_AddStringToObject(o, "level", run->level);
	if (run->layout != NULL)
		cJSON_AddStringToObject(o, "layout", run->layout);
	json_num(o, "step_variation", run->variation);
	cJSON_AddNumberToObject(o, "ranks_with_variation", (double)run->nvar);
	if (run->nsteps > 0) {
		cJSON *m = cJSON_AddObjectToObject(o, "mean_us");

		for (int p = 0; p < CP_N; p++)
			json_num(m, part_keys[p], run->mean[p]);
	}
	return o;
}

static cJSON *
margin_json(const struct compare *c)
{
	cJSON *o = cJSON_CreateObject();

	json_num(o, "share", c->margin);
	json_num(o, "us", c->margin * c->scale);
	cJSON_AddStringToObject(o, "of", c->steps_why == NULL ?
	    "base step" : "base operator time per rank");
	cJSON_AddStringToObject(o, "from", c->from_floor ? "floor" :
	    "variation");
	cJSON_AddNumberToObject(o, "floor", COMPARE_FLOOR);
	cJSON_AddStringToObject(o, "certainty", cmp_noise_keys[c->noise]);
	return o;
}

static cJSON *
steps_json(const struct compare *c)
{
	const double *b = c->run[BASE].mean, *n = c->run[NEW].mean;
	cJSON *o = cJSON_CreateObject(), *a;

	if (c->steps_why != NULL) {
		cJSON_AddFalseToObject(o, "compared");
		cJSON_AddStringToObject(o, "why", c->steps_why);
		return o;
	}
	cJSON_AddTrueToObject(o, "compared");
	a = cJSON_AddArrayToObject(o, "figures");
	for (int p = 0; p < CP_N; p++) {
		cJSON *f = cJSON_CreateObject();

		cJSON_AddStringToObject(f, "figure", part_keys[p]);
		json_num(f, "base_us", b[p]);
		json_num(f, "new_us", n[p]);
		json_num(f, "change_us", n[p] - b[p]);
		json_num(f, "change_of_base_step", b[CP_STEP] > 0 ?
		    (n[p] - b[p]) / b[CP_STEP] : NAN);
		json_num(f, "base_share", b[CP_STEP] > 0 ? b[p] / b[CP_STEP] : NAN);
		json_num(f, "new_share", n[CP_STEP] > 0 ? n[p] / n[CP_STEP] : NAN);
		cJSON_AddBoolToObject(f, "significant", c->sig[p]);
		cJSON_AddItemToArray(a, f);
	}
	return o;
}

static cJSON *
ops_json(const struct compare *c)
{
	cJSON *o = cJSON_CreateObject(), *a;

	if (c->ops_why != NULL) {
		cJSON_AddFalseToObject(o, "compared");
		cJSON_AddStringToObject(o, "why", c->ops_why);
		return o;
	}
	cJSON_AddTrueToObject(o, "compared");
	cJSON_AddStringToObject(o, "per", c->per_step ? "rank and step" :
	    "rank");
	json_num(o, "margin_us", c->margin * c->op_scale);
	cJSON_AddNumberToObject(o, "significant", (double)c->nops_sig);
	a = cJSON_AddArrayToObject(o, "types");
	for (size_t i = 0; i < c->nops; i++) {
		const struct cmp_op *op = &c->ops[i];
		cJSON *x = cJSON_CreateObject();

		cJSON_AddStringToObject(x, "type", op->type);
		cJSON_AddStringToObject(x, "core", op->core[NEW] != NULL ?
		    op->core[NEW] : op->core[BASE]);
		for (int k = BASE; k <= NEW; k++)
			if (op->core[k] != NULL)
				cJSON_AddStringToObject(x, k == BASE ?
				    "base_core" : "new_core", op->core[k]);
			else
				cJSON_AddNullToObject(x, k == BASE ?
				    "base_core" : "new_core");
		cJSON_AddBoolToObject(x, "moved", op->moved);
		cJSON_AddStringToObject(x, "change",
		    cmp_change_keys[op->change]);
		json_num(x, "base_us", op->us[BASE]);
		json_num(x, "new_us", op->us[NEW]);
		json_num(x, "change_us", op->delta);
		json_num(x, "base_calls", op->calls[BASE]);
		json_num(x, "new_calls", op->calls[NEW]);
		cJSON_AddBoolToObject(x, "significant", op->significant);
		cJSON_AddItemToArray(a, x);
	}
	return o;
}

static cJSON *
pair_json(const struct cmp_rank *r)
{
	cJSON *o = cJSON_CreateObject(), *d;

	cJSON_AddNumberToObject(o, "rank", r->rank);
	json_num(o, "base_step_us", r->r[BASE]->mean.step_time);
	json_num(o, "new_step_us", r->r[NEW]->mean.step_time);
	d = cJSON_AddObjectToObject(o, "change_us");
	for (int p = 0; p < CP_N; p++)
		json_num(d, part_keys[p], r->d[p]);
	cJSON_AddStringToObject(o, "most_unlike", part_keys[r->part]);
	json_num(o, "unlike_us", r->unlike);
	cJSON_AddBoolToObject(o, "named", r->named);
	return o;
}

static cJSON *
ranks_json(const struct compare *c)
{
	cJSON *o = cJSON_CreateObject(), *a;
	int *v = xcalloc(c->nranks + 1, sizeof(*v));
	size_t i;

	for (i = 0; i < c->nranks; i++)
		v[i] = c->ranks[i].rank;
	cJSON_AddItemToObject(o, "both", json_ints(v, c->nranks));
	for (i = 0; i < c->nnamed; i++)
		v[i] = c->ranks[c->named[i]].rank;
	cJSON_AddItemToObject(o, "unlike", json_ints(v, c->nnamed));
	free(v);
	cJSON_AddNumberToObject(o, "steps_in_one_run_only",
	    (double)c->half_steps);
	cJSON_AddItemToObject(o, "only_base", json_ints(c->only[BASE],
	    c->nonly[BASE]));
	cJSON_AddItemToObject(o, "only_new", json_ints(c->only[NEW],
	    c->nonly[NEW]));
	if (c->nranks > 0) {
		cJSON *m = cJSON_AddObjectToObject(o, "median_change_us");

		for (int p = 0; p < CP_N; p++)
			json_num(m, part_keys[p], c->median[p]);
	}
	a = cJSON_AddArrayToObject(o, "per_rank");
	for (i = 0; i < c->nranks; i++)
		cJSON_AddItemToArray(a, pair_json(&c->ranks[i]));
	return o;
}

/* A value in run K: the string, or null when absent from it. */
static void
add_value(cJSON *o, const char *key, const char *v)
{
	if (v != NULL)
		cJSON_AddStringToObject(o, key, v);
	else
		cJSON_AddNullToObject(o, key);
}

static cJSON *
settings_json(const struct compare *c)
{
	cJSON *o = cJSON_CreateObject(), *a;

	cJSON_AddBoolToObject(o, "known", c->settings_why == NULL);
	if (c->settings_why != NULL) {
		cJSON_AddStringToObject(o, "why", c->settings_why);
		return o;
	}
	a = cJSON_AddArrayToObject(o, "differ");
	for (size_t i = 0; i < c->nsettings; i++) {
		const struct cmp_setting *s = &c->settings[i];
		cJSON *x = cJSON_CreateObject();

		cJSON_AddStringToObject(x, "kind", cmp_setting_keys[s->kind]);
		cJSON_AddStringToObject(x, "name", s->name);
		add_value(x, "base", s->v[BASE]);
		add_value(x, "new", s->v[NEW]);
		cJSON_AddItemToArray(a, x);
	}
	return o;
}

cJSON *
compare_json(const struct compare *c)
{
	cJSON *j = cJSON_CreateObject(), *runs;
	char *result = cmp_result(c, "->"), *certainty = cmp_certainty(c);

	cJSON_AddNumberToObject(j, "version", 1);
	cJSON_AddBoolToObject(j, "changed", c->changed);
	cJSON_AddStringToObject(j, "result", result);
	free(result);
	cJSON_AddItemToObject(j, "noise_margin", margin_json(c));
	cJSON_AddStringToObject(j, "certainty", certainty);
	free(certainty);
	runs = cJSON_AddObjectToObject(j, "runs");
	cJSON_AddItemToObject(runs, "base", run_json(&c->run[BASE]));
	cJSON_AddItemToObject(runs, "new", run_json(&c->run[NEW]));
	cJSON_AddItemToObject(j, "caveats", json_strv(c->caveats.v));
	if (c->settings_set)
		cJSON_AddItemToObject(j, "settings", settings_json(c));
	cJSON_AddItemToObject(j, "steps", steps_json(c));
	cJSON_AddItemToObject(j, "operators", ops_json(c));
	cJSON_AddItemToObject(j, "ranks", ranks_json(c));
	return j;
}
