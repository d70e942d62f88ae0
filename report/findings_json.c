/*
 * The findings as JSON: a list of objects, each with its rule and family,
 * its ranks (and the directories of no known rank), its text and
 * figures, the rule's evidence and threshold, and its settings with the
 * launch's state of each.
 */
#include "advice/advice.h"
#include "summary/model.h"
#include "summary/writer.h"
#include "findings.h"

static const char *
state_key(enum setting_state st)
{
	static const char *const keys[] = {
		[STATE_UNKNOWN] = "not known", [STATE_ON] = "on",
		[STATE_OFF] = "not set", [STATE_VALUE] = "value",
		[STATE_MIXED] = "mixed",
	};

	return keys[st];
}

static cJSON *
finding_json(const struct summary *s, const struct finding *f)
{
	cJSON *o = cJSON_CreateObject(), *a, *x;
	size_t i, known = 0;

	cJSON_AddStringToObject(o, "rule", f->rule->id);
	cJSON_AddStringToObject(o, "family", f->family);
	a = cJSON_AddArrayToObject(o, "ranks");
	for (i = 0; i < f->nwho; i++)
		if (s->r[f->who[i]].rank >= 0) {
			cJSON_AddItemToArray(a,
			    cJSON_CreateNumber(s->r[f->who[i]].rank));
			known++;
		}
	if (known < f->nwho) {
		a = cJSON_AddArrayToObject(o, "directories");
		for (i = 0; i < f->nwho; i++)
			if (s->r[f->who[i]].rank < 0)
				cJSON_AddItemToArray(a, cJSON_CreateString(
				    s->r[f->who[i]].path));
	}
	if (f->nwho == 1)
		json_rank(o, "rank", s->r[f->who[0]].rank);
	cJSON_AddStringToObject(o, "text", f->text);
	x = cJSON_AddObjectToObject(o, "evidence");
	for (i = 0; i < f->nfig; i++)
		cJSON_AddNumberToObject(x, f->fig[i].key, f->fig[i].value);
	cJSON_AddStringToObject(o, "reads", f->rule->evidence);
	cJSON_AddNumberToObject(o, "threshold", f->rule->threshold);
	cJSON_AddStringToObject(o, "threshold_text", f->rule->threshold_text);
	if (f->rule->fix != NULL)
		cJSON_AddStringToObject(o, "fix", _(f->rule->fix));
	if (f->note != NULL)
		cJSON_AddStringToObject(o, "note", f->note);
	a = cJSON_AddArrayToObject(o, "settings");
	for (i = 0; i < f->nset; i++) {
		const struct finding_setting *fs = &f->set[i];

		x = cJSON_CreateObject();
		cJSON_AddStringToObject(x, "name", fs->setting->name);
		if (fs->setting->kind == SET_CODE)
			cJSON_AddStringToObject(x, "where", "code");
		cJSON_AddStringToObject(x, "want", fs->setting->want);
		cJSON_AddStringToObject(x, "what", _(fs->setting->what));
		cJSON_AddStringToObject(x, "state", state_key(fs->state));
		if (fs->detail != NULL)
			cJSON_AddStringToObject(x, "detail", fs->detail);
		cJSON_AddItemToArray(a, x);
	}
	return o;
}

cJSON *
findings_json(const struct summary *s, const struct findings *fs)
{
	cJSON *a = cJSON_CreateArray();
	size_t i;

	if (fs->why != NULL)	/* a list, empty when the rules did not run */
		return a;
	for (i = 0; i < fs->n; i++)
		cJSON_AddItemToArray(a, finding_json(s, &fs->f[i]));
	return a;
}
