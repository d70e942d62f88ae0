/*
 * The profiled launch's own settings: does it already have the setting a
 * rule would advise?  A session knows the launches (the journal records
 * their command line, config copies and the environment variables the
 * rules consult); the ranks' profiler_metadata.json holds the variables
 * torch_npu recorded in the training process itself (ENV_VARIABLES),
 * which win over the journal for the names they have.  Without a session
 * and without those, a setting is not known.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/journal.h"
#include "common/yamldoc.h"
#include "engines/scope.h"
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
	return engine_reads_scope(engine_parse(rec->engine != NULL ?
	    rec->engine : ""), scope);
}

/*
 * The command line the launch ran: the rewritten one (with the flags of
 * --set) when msprof-exec rewrote it, else the one it was given.
 */
static const struct strv *
run_argv(const struct launch_record *rec)
{
	return rec->new_argv.n > 0 ? &rec->new_argv : &rec->argv;
}

/* "--name value" or "--name=value": the value ("" for a bare flag). */
static char *
argv_flag(const struct launch_record *rec, const char *name)
{
	const struct strv *a = run_argv(rec);
	size_t n = strlen(name), i;
	char *const *v = a->v;

	for (i = a->n; i-- > 0;) {	/* the last one counts */
		if (strncmp(v[i], name, n) != 0)
			continue;
		if (v[i][n] == '=')
			return xstrdup(v[i] + n + 1);
		if (v[i][n] != '\0')
			continue;
		if (i + 1 < a->n && strncmp(v[i + 1], "--", 2) != 0)
			return xstrdup(v[i + 1]);
		return xstrdup("");
	}
	return NULL;
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

/*
 * The last word KEY=VALUE of the launch's command line: MindSpeed-MM's
 * FSDP2 trainer takes such overrides after its YAML, and they win over it.
 */
static const char *
argv_override(const struct launch_record *rec, const char *key)
{
	const struct strv *a = run_argv(rec);
	size_t n = strlen(key), i;

	for (i = a->n; i-- > 0;)
		if (strncmp(a->v[i], key, n) == 0 && a->v[i][n] == '=')
			return a->v[i] + n + 1;
	return NULL;
}

/* The node of the dotted KEY in D, or 0. */
static int
yaml_node(struct ydoc *d, const char *key)
{
	char *keys = xstrdup(key), *k, *save = NULL;
	int node = ydoc_root(d);

	for (k = strtok_r(keys, ".", &save); k != NULL && node != 0;
	    k = strtok_r(NULL, ".", &save))
		node = ydoc_is_map(d, node) ? ydoc_get(d, node, k) : 0;
	free(keys);
	return node;
}

/*
 * SET's key as the launch has it: an override on its command line, else
 * its YAML copy; the key of an earlier version where the current one is
 * not given.
 */
static char *
yaml_lookup(const struct launch_record *rec, const struct setting *set,
    int *given)
{
	const char *const *older = setting_older(set);
	const char *keys[8], *path = yaml_copy(rec);
	char *why = NULL, *v = NULL;
	struct ydoc d;
	size_t i, n = 0;
	int node = 0;

	keys[n++] = set->name;
	for (i = 0; older != NULL && older[i] != NULL && n < 8; i++)
		keys[n++] = older[i];
	*given = 0;
	for (i = 0; i < n; i++) {
		const char *o = argv_override(rec, keys[i]);

		if (o != NULL) {
			*given = 1;
			return xstrdup(o);
		}
	}
	if (path == NULL || ydoc_load(&d, path, &why) == -1) {
		free(why);
		return NULL;
	}
	for (i = 0; i < n && node == 0; i++)
		node = yaml_node(&d, keys[i]);
	*given = node != 0;
	v = xstrdup(node != 0 && ydoc_scalar(&d, node) != NULL ?
	    ydoc_scalar(&d, node) : "");
	ydoc_free(&d);
	return v;
}

/* A YAML boolean (PyYAML's true, yes, on and their negations): 1, 0, -1. */
static int
yaml_bool(const char *v)
{
	static const char *const yes[] = { "true", "yes", "on", NULL };
	static const char *const no[] = { "false", "no", "off", NULL };
	size_t i;

	for (i = 0; yes[i] != NULL; i++)
		if (strcasecmp(v, yes[i]) == 0)
			return 1;
	for (i = 0; no[i] != NULL; i++)
		if (strcasecmp(v, no[i]) == 0)
			return 0;
	return -1;
}

/*
 * A boolean as MindSpeed-MM reads it, in its YAML or its command-line
 * overrides (a number too): 1, 0, or -1 when V is none.
 */
static int
truth(const char *v)
{
	if (strcmp(v, "1") == 0 || strcmp(v, "0") == 0)
		return *v == '1';
	return yaml_bool(v);
}

/* Does V equal WANT, booleans by their truth? */
static int
equals(const char *v, const char *want)
{
	return strcmp(v, want) == 0 ||
	    (truth(want) != -1 && truth(v) == truth(want));
}

/*
 * Flag NAME of a MindSpeed-MM launch driven by its YAML (its command line
 * is rebuilt from gpt_args: true a bare flag, false none): its value, ""
 * bare; NULL, *KNOWN set, when not given; NULL, *KNOWN 0, without a copy.
 */
static char *
gpt_flag(const struct launch_record *rec, const char *name, int *known)
{
	const char *path = yaml_copy(rec), *v;
	char *why = NULL, *out = NULL;
	struct ydoc d;
	int leaf;

	*known = 0;
	if (path == NULL || ydoc_load(&d, path, &why) == -1) {
		free(why);
		return NULL;
	}
	*known = 1;
	leaf = ydoc_flag_leaf(&d, ydoc_get(&d, ydoc_root(&d), "gpt_args"),
	    name, NULL, NULL);
	v = leaf != 0 ? ydoc_scalar(&d, leaf) : NULL;
	if (leaf != 0 && (v == NULL || yaml_bool(v) != 0))
		out = xstrdup(v == NULL || yaml_bool(v) == 1 ? "" : v);
	ydoc_free(&d);
	return out;
}

/*
 * Flag NAME of the launch: its value ("" bare), or NULL when not given;
 * *KNOWN 0 when the launch's flags cannot be read.
 */
static char *
launch_flag_of(const struct launch_record *rec, const char *name,
    int *known)
{
	if (engine_parse(rec->engine != NULL ? rec->engine : "") ==
	    ENGINE_MM_YAML)
		return gpt_flag(rec, name, known);
	*known = 1;
	return argv_flag(rec, name);
}

static char *
flag_lookup(const struct launch_record *rec, const struct setting *set,
    int *given)
{
	int known;
	char *v = launch_flag_of(rec, set->name, &known);

	*given = v != NULL;
	if (v == NULL && !known)
		return NULL;
	return v != NULL ? v : xstrdup("");
}

/* Is V a number of digits only (torch_npu's isAllDigits)? */
static int
digits(const char *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i] < '0' || v[i] > '9')
			return 0;
	return n > 0;
}

/*
 * The number V says, as torch_npu reads CPU_AFFINITY_CONF's mode: V when
 * all digits, else the first item of digits of its comma list or its
 * "mode:N" item ("2,npu0:0-23", "mode:1,npu_affine:1"); -1 when none.
 */
static long
mode_of(const char *v)
{
	const char *item = v, *end, *colon;
	size_t n;

	if (digits(v, strlen(v)))
		return strtol(v, NULL, 10);
	for (; *item != '\0'; item = *end == ',' ? end + 1 : end) {
		end = item + strcspn(item, ",");
		n = (size_t)(end - item);
		colon = memchr(item, ':', n);
		if (colon == NULL && digits(item, n))
			return strtol(item, NULL, 10);
		if (colon != NULL && colon - item == 4 &&
		    strncmp(item, "mode", 4) == 0)
			return digits(colon + 1, (size_t)(end - colon - 1)) ?
			    strtol(colon + 1, NULL, 10) : -1;
	}
	return -1;
}

/*
 * The value of KEY in the allocator's list V, as torch_npu lexes
 * PYTORCH_NPU_ALLOC_CONF: ',', ':', '[' and ']' each a token, spaces
 * dropped, the last KEY outside brackets counting ("max_split_size_mb:
 * 128, expandable_segments:True"); NULL when V does not set it.
 */
static char *
list_item(const char *v, const char *key)
{
	size_t len = strlen(v), n = 0, i;
	char **tok = xreallocarray(NULL, len + 1, sizeof(*tok));
	char *buf = xmalloc(2 * len + 2), *b = buf, *found = NULL;
	int depth = 0;

	for (; *v != '\0'; v++) {
		if (*v == ' ')
			continue;
		if (strchr(",:[]", *v) != NULL) {
			if (b > buf && b[-1] != '\0')
				*b++ = '\0';
			tok[n++] = b;
			*b++ = *v;
			*b++ = '\0';
			continue;
		}
		if (b == buf || b[-1] == '\0')
			tok[n++] = b;
		*b++ = *v;
	}
	*b = '\0';
	for (i = 0; i < n; i++) {
		depth += strcmp(tok[i], "[") == 0;
		depth -= strcmp(tok[i], "]") == 0;
		if (depth == 0 && strcmp(tok[i], key) == 0 && i + 2 < n &&
		    strcmp(tok[i + 1], ":") == 0) {
			free(found);
			found = xstrdup(tok[i + 2]);
		}
	}
	free(tok);
	free(buf);
	return found;
}

/* Does the list V set WANT's key to WANT's value ("KEY:VALUE")? */
static int
has_item(const char *v, const char *want)
{
	const char *colon = strchr(want, ':');
	char *key, *got;
	int on;

	if (colon == NULL)
		return 0;
	key = xstrndup(want, (size_t)(colon - want));
	got = list_item(v, key);
	on = got != NULL && strcmp(got, colon + 1) == 0;
	free(got);
	free(key);
	return on;
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
		on = equals(eff, set->value);
		break;
	case TEST_AT_LEAST:
		on = mode_of(eff) >= mode_of(set->value);
		break;
	default:
		on = has_item(eff, set->value);
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
launch_env(const struct advice *a, const char *name)
{
	const struct summary *s = a->s;
	const struct journal *j = a->in.journal;
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

/* The framework a launch's engine runs; FW_UNKNOWN for none. */
static enum framework
launch_framework(const struct launch_record *rec)
{
	switch (engine_parse(rec->engine != NULL ? rec->engine : "")) {
	case ENGINE_LLM_MCORE:
	case ENGINE_MM_MEGATRON:
	case ENGINE_MM_YAML:
		return FW_MEGATRON;
	case ENGINE_MM_FSDP2:
		return FW_MM_FSDP2;
	case ENGINE_TORCH:
		return FW_TORCH;
	case ENGINE_LLM_FSDP2:
		return FW_OTHER;
	default:
		return FW_UNKNOWN;
	}
}

/*
 * A job without Megatron by its collectives: DDP all-reduces the
 * gradients; FSDP and DeepSpeed's ZeRO gather the parameters and
 * reduce-scatter the gradients.  FW_TORCH when no rank's were read.
 */
static enum framework
torch_kind(const struct summary *s)
{
	size_t i, colls = 0, sharded = 0;

	for (i = 0; i < s->nr; i++) {
		colls += transfers_of(s, i)->colls;
		sharded += transfers_of(s, i)->sharded_colls;
	}
	if (colls == 0)
		return FW_TORCH;
	return sharded > 0 ? FW_SHARDED : FW_DDP;
}

/*
 * The session's launches say it when they agree.  Without them, the data:
 * MindSpeed's Megatron writes distributed_args into profiler_metadata.json
 * (the layout, A's lay); torch_npu writes ENV_VARIABLES there for any
 * job, so a rank with those and no distributed_args ran without Megatron.
 */
enum framework
job_framework(const struct advice *a)
{
	const struct summary *s = a->s;
	const struct journal *j = a->in.journal;
	enum framework fw = FW_UNKNOWN, one;
	size_t i;

	for (i = 0; j != NULL && i < j->n; i++) {
		if (!launch_profiled(&j->recs[i]))
			continue;
		one = launch_framework(&j->recs[i]);
		if (fw != FW_UNKNOWN && one != fw)
			return FW_UNKNOWN;
		fw = one;
	}
	if (fw == FW_TORCH)
		return torch_kind(s);
	if (fw != FW_UNKNOWN)
		return fw;
	if (a->lay.known)
		return FW_MEGATRON;
	for (i = 0; i < s->nr; i++)
		if (s->r[i].env.n > 0)
			return torch_kind(s);
	return FW_UNKNOWN;
}

char *
launch_flag(const struct advice *a, const char *name)
{
	const struct journal *j = a->in.journal;
	size_t i;

	int known;

	for (i = 0; j != NULL && i < j->n; i++) {
		char *v = launch_profiled(&j->recs[i]) ?
		    launch_flag_of(&j->recs[i], name, &known) : NULL;

		if (v != NULL)
			return v;
	}
	return NULL;
}

int
launch_size(const struct advice *a, const char *flag)
{
	const struct journal *j = a->in.journal;
	size_t i;
	int size = 0, known;
	long one;

	for (i = 0; j != NULL && i < j->n; i++) {
		char *v;

		if (!launch_profiled(&j->recs[i]) ||
		    launch_framework(&j->recs[i]) != FW_MEGATRON)
			continue;
		v = launch_flag_of(&j->recs[i], flag, &known);
		if (!known) {
			free(v);
			return 0;
		}
		/* not given: Megatron's default, 1 */
		one = v != NULL && *v != '\0' ? strtol(v, NULL, 10) : 1;
		free(v);
		if (one > size)
			size = one > INT_MAX ? INT_MAX : (int)one;
	}
	return size;
}

enum setting_state
setting_state(const struct advice *a, const struct setting *set,
    char **detail, int *applies)
{
	static const lookup_fn lookup[] = {
		[SET_FLAG] = flag_lookup, [SET_ENV] = env_lookup,
		[SET_YAML] = yaml_lookup,
	};
	const struct journal *j = a->in.journal;
	enum setting_state st = STATE_UNKNOWN, one;
	const char *dv;
	char *v, *d;
	size_t i, seen = 0;
	int given;

	*detail = NULL;
	*applies = 1;
	if (set->kind == SET_CODE) {
		int any = 0, fits = 0;

		/* a line of the code: no launch record says it */
		for (i = 0; j != NULL && i < j->n; i++)
			if (launch_profiled(&j->recs[i])) {
				any = 1;
				fits |= in_scope(&j->recs[i], set->scope);
			}
		*applies = !any || fits;
		return STATE_UNKNOWN;
	}
	if (set->kind == SET_ENV && (i = data_env(a->s, set->name, &dv)) != 0) {
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
