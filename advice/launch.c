/*
 * The profiled launch's own settings: does it already have the setting a
 * rule would advise?  A session knows the launches (the journal records
 * their command line, config copies and the environment variables the
 * rules consult); the ranks' profiler_metadata.json holds the variables
 * torch_npu recorded in the training process itself (ENV_VARIABLES),
 * which win over the journal for the names they have.  Without a session
 * and without those, a setting is not known.
 */
#include <stdlib.h>
#include <string.h>

#include "common/journal.h"
#include "common/yamldoc.h"
#include "engines/engine.h"
#include "rules.h"

/*
 * One launch's value of a setting: NULL not known; else *GIVEN says
 * whether the launch gives it at all ("" a flag without a value).
 */
typedef char *(*lookup_fn)(const struct launch_record *,
    const struct setting *, int *given);

/* Does the launch's engine read SCOPE's settings? */
static int
in_scope(const struct launch_record *rec, enum setting_scope scope)
{
	enum engine e = engine_parse(rec->engine != NULL ? rec->engine : "");

	switch (scope) {
	case SCOPE_MEGATRON:
		return e == ENGINE_LLM_MCORE || e == ENGINE_MM_MEGATRON;
	case SCOPE_MM_FSDP2:
		return e == ENGINE_MM_FSDP2;
	default:
		return 1;
	}
}

/* "--name value" or "--name=value": the value ("" for a bare flag). */
static char *
argv_flag(const struct launch_record *rec, const char *name)
{
	size_t n = strlen(name), i;
	char *const *v = rec->argv.v;

	for (i = rec->argv.n; i-- > 0;) {	/* the last one counts */
		if (strncmp(v[i], name, n) != 0)
			continue;
		if (v[i][n] == '=')
			return xstrdup(v[i] + n + 1);
		if (v[i][n] != '\0')
			continue;
		if (i + 1 < rec->argv.n && strncmp(v[i + 1], "--", 2) != 0)
			return xstrdup(v[i + 1]);
		return xstrdup("");
	}
	return NULL;
}

static char *
flag_lookup(const struct launch_record *rec, const struct setting *set,
    int *given)
{
	char *v = argv_flag(rec, set->name);

	*given = v != NULL;
	return v != NULL ? v : xstrdup("");
}

/* The variable in the journal, or NULL when it was not recorded. */
static char *
env_lookup(const struct launch_record *rec, const struct setting *set,
    int *given)
{
	size_t n = strlen(set->name), i;

	*given = 0;
	for (i = 0; i < rec->env.n; i++)
		if (strncmp(rec->env.v[i], set->name, n) == 0 &&
		    rec->env.v[i][n] == '=') {
			*given = 1;
			return xstrdup(rec->env.v[i] + n + 1);
		}
	for (i = 0; i < rec->env_unset.n; i++)
		if (strcmp(rec->env_unset.v[i], set->name) == 0)
			return xstrdup("");
	return NULL;
}

/* The YAML config copy of the launch ("ORIGINAL -> COPY"), or NULL. */
static const char *
yaml_copy(const struct launch_record *rec)
{
	size_t i;

	for (i = 0; i < rec->copies.n; i++) {
		const char *to = strstr(rec->copies.v[i], " -> ");

		if (to != NULL &&
		    (ends_with(to, ".yaml") || ends_with(to, ".yml")))
			return to + 4;
	}
	return NULL;
}

static char *
yaml_lookup(const struct launch_record *rec, const struct setting *set,
    int *given)
{
	const char *path = yaml_copy(rec);
	char *keys, *k, *save = NULL, *why = NULL, *v = NULL;
	struct ydoc d;
	int node;

	*given = 0;
	if (path == NULL || ydoc_load(&d, path, &why) == -1) {
		free(why);
		return NULL;
	}
	keys = xstrdup(set->name);
	node = ydoc_root(&d);
	for (k = strtok_r(keys, ".", &save); k != NULL && node != 0;
	    k = strtok_r(NULL, ".", &save))
		node = ydoc_is_map(&d, node) ? ydoc_get(&d, node, k) : 0;
	*given = node != 0;
	v = xstrdup(node != 0 && ydoc_scalar(&d, node) != NULL ?
	    ydoc_scalar(&d, node) : "");
	free(keys);
	ydoc_free(&d);
	return v;
}

/* The leading number of V ("1" of "1,npu0:0-3"); -1 when none. */
static long
leading(const char *v)
{
	char *end;
	long n = strtol(v, &end, 10);

	return end != v ? n : -1;
}

/* The state of SET at value V (GIVEN or not), with a detail to show. */
static enum setting_state
judge(const struct setting *set, const char *v, int given, char **detail)
{
	const char *eff = given ? v : set->dflt != NULL ? set->dflt : "";
	int on;

	*detail = NULL;
	switch (set->test) {
	case TEST_PRESENT:
		if (given && *v != '\0' && *set->want != '\0')
			*detail = xstrdup(v);
		return given ? STATE_ON : STATE_OFF;
	case TEST_SHOW:
		if (!given && set->dflt == NULL)
			return STATE_OFF;
		*detail = given ? xstrdup(v) :
		    xasprintf(_("%s, the default"), set->dflt);
		return STATE_VALUE;
	case TEST_EQUALS:
		on = strcmp(eff, set->value) == 0;
		break;
	case TEST_AT_LEAST:
		on = leading(eff) >= leading(set->value);
		break;
	default:
		on = strstr(eff, set->value) != NULL;
		break;
	}
	if (given && !on)
		*detail = xasprintf(_("the launch has %s"), v);
	else if (given && strcmp(v, set->value) != 0)
		*detail = xstrdup(v);
	else if (!given && *eff != '\0')
		*detail = xasprintf(_("%s by default"), eff);
	return on ? STATE_ON : STATE_OFF;
}

/*
 * The variable as torch_npu recorded it on every rank that has it: 1 and
 * its value ("" unset) in *V when they agree, -1 when they differ, 0 when
 * no rank recorded it.
 */
static int
data_env(const struct summary *s, const char *name, const char **v)
{
	size_t i, n = strlen(name), k;
	int found = 0;

	for (i = 0; i < s->nr; i++)
		for (k = 0; k < s->r[i].env.n; k++) {
			const char *e = s->r[i].env.v[k];

			if (strncmp(e, name, n) != 0 || e[n] != '=')
				continue;
			if (found && strcmp(*v, e + n + 1) != 0)
				return -1;
			*v = e + n + 1;
			found = 1;
		}
	return found;
}

const char *
rank_env(const struct rank_data *r, const char *name)
{
	size_t n = strlen(name), k;

	for (k = 0; k < r->env.n; k++)
		if (strncmp(r->env.v[k], name, n) == 0 && r->env.v[k][n] == '=')
			return r->env.v[k] + n + 1;
	return NULL;
}

/* The launches that ran with profiling (those whose data this is). */
static size_t
profiled(const struct journal *j)
{
	size_t i, n = 0;

	for (i = 0; j != NULL && i < j->n; i++)
		n += launch_profiled(&j->recs[i]);
	return n;
}

char *
launch_env(const struct summary *s, const char *name)
{
	const struct journal *j = s->opts.journal;
	struct setting set = { .kind = SET_ENV, .name = name };
	const char *v;
	char *got = NULL, *one;
	size_t i;
	int given;

	if (data_env(s, name, &v) == 1)
		return xstrdup(v);
	for (i = 0; j != NULL && i < j->n; i++) {
		if (!launch_profiled(&j->recs[i]))
			continue;
		if ((one = env_lookup(&j->recs[i], &set, &given)) == NULL ||
		    (got != NULL && strcmp(got, one) != 0)) {
			free(one);
			free(got);
			return NULL;	/* not recorded, or launches differ */
		}
		free(got);
		got = one;
	}
	return got;
}

char *
launch_flag(const struct summary *s, const char *name)
{
	const struct journal *j = s->opts.journal;
	size_t i;

	for (i = 0; j != NULL && i < j->n; i++) {
		char *v = launch_profiled(&j->recs[i]) ?
		    argv_flag(&j->recs[i], name) : NULL;

		if (v != NULL)
			return v;
	}
	return NULL;
}

enum setting_state
setting_state(const struct summary *s, const struct setting *set,
    char **detail, int *applies)
{
	static const lookup_fn lookup[] = {
		[SET_FLAG] = flag_lookup, [SET_ENV] = env_lookup,
		[SET_YAML] = yaml_lookup,
	};
	const struct journal *j = s->opts.journal;
	enum setting_state st = STATE_UNKNOWN, one;
	const char *dv;
	char *v, *d;
	size_t i, seen = 0;
	int given;

	*detail = NULL;
	*applies = 1;
	if (set->kind == SET_ENV && (i = data_env(s, set->name, &dv)) != 0) {
		if ((int)i == -1)
			return STATE_MIXED;
		/* torch_npu writes "" for a variable that is not set */
		return judge(set, dv, *dv != '\0', detail);
	}
	if (j == NULL || profiled(j) == 0) {
		*detail = xstrdup(j == NULL ? _("no session") :
		    _("no profiled launch"));
		return STATE_UNKNOWN;
	}
	for (i = 0; i < j->n; i++) {
		const struct launch_record *rec = &j->recs[i];

		if (!launch_profiled(rec) || !in_scope(rec, set->scope))
			continue;
		if ((v = lookup[set->kind](rec, set, &given)) == NULL) {
			one = STATE_UNKNOWN;
			d = xstrdup(_("not recorded"));
		} else
			one = judge(set, v, given, &d);
		free(v);
		if (seen++ == 0) {
			st = one;
			*detail = d;
		} else {
			free(d);
			if (one != st)
				st = STATE_MIXED;
		}
	}
	*applies = seen > 0;
	return st;
}
