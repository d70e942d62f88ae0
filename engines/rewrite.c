/*
 * Rewriting a launch: find the training script behind the launcher's own
 * options, then give it the plan's profiling settings the way its engine
 * reads them.  This file: the analysis, the MindSpeed-LLM engines and what
 * all engines share; mm.c: the MindSpeed-MM engines.
 */
#include <stdlib.h>
#include <string.h>

#include "shim/contract.h"
#include "common/argv.h"
#include "rewrite.h"
#include "common/yamldoc.h"

/* The option grammar of the launcher NAME (a program or module name). */
static const struct optset *
grammar(const struct launchtab *t, const char *key, const char *name)
{
	int i = table_find(t->match, key, name);
	const struct strv *sets = key[0] == 'm' ? &t->module_sets :
	    &t->launcher_sets;

	return i < 0 ? NULL : launchtab_set(t, sets->v[i]);
}

static int
is_flag(const struct optset *set, const char *arg)
{
	for (size_t i = 0; set != NULL && i < set->flags.n; i++)
		if (strcmp(set->flags.v[i], arg) == 0)
			return 1;
	return 0;
}

/* Skip a launcher's options from START; the index of its script or -1. */
static int
script_after_options(const struct optset *set, char *const argv[], int start)
{
	int i;
	const char *a;

	for (i = start; (a = argv[i]) != NULL; i++) {
		if (strcmp(a, "--") == 0)
			return argv[i + 1] != NULL ? i + 1 : -1;
		if (a[0] != '-' || a[1] == '\0')
			return i;
		if (strchr(a, '=') != NULL || is_flag(set, a))
			continue;
		if (a[1] != '-' && a[2] != '\0')
			continue;		/* -r3: value attached */
		if (argv[++i] == NULL)
			return -1;
	}
	return -1;
}

void
launch_analyse(const struct launchtab *t, const char *path,
    char *const argv[], struct launch *l)
{
	struct launch_match m;
	const struct optset *set = NULL;
	int start = 1;

	l->script = -1;
	l->engine = ENGINE_NONE;
	l->kind = match_launch(t->match, path, argv, &m);
	switch (l->kind) {
	case LAUNCH_NONE:
		return;
	case LAUNCH_LAUNCHER:
		set = grammar(t, MATCH_KEY_LAUNCHER, path);
		break;
	case LAUNCH_PY_MODULE:
		set = grammar(t, MATCH_KEY_MODULE, m.operand);
		start = m.next;
		break;
	case LAUNCH_PY_SCRIPT:
		set = grammar(t, MATCH_KEY_LAUNCHER, m.operand);
		if (set == NULL)
			l->script = m.next - 1;	/* python entry.py */
		start = m.next;
		break;
	}
	if (argv == NULL || argv[0] == NULL)
		return;
	if (l->script < 0)
		l->script = script_after_options(set, argv, start);
	if (l->script >= 0)
		l->engine = launchtab_engine(t, argv[l->script]);
}

void
launch_force_framework(struct launch *l, const char *framework,
    char *const argv[])
{
	const char *first, *tool;
	int yaml;

	if (l->engine != ENGINE_NONE || l->script < 0 ||
	    strcmp(framework, "auto") == 0)
		return;
	first = argv[l->script + 1];
	yaml = first != NULL && (ends_with(first, ".yaml") ||
	    ends_with(first, ".yml"));
	if (strcmp(framework, "llm") == 0)
		l->engine = yaml ? ENGINE_LLM_FSDP2 : ENGINE_LLM_MCORE;
	else if (argv_find(argv, l->script + 1, "--mm-tool", &tool) >= 0)
		l->engine = ENGINE_MM_MEGATRON;
	else if (yaml)
		l->engine = ENGINE_MM_YAML;
}

int
is_int_word(const char *a)
{
	if (*a == '-')
		a++;
	return *a != '\0' && strspn(a, "0123456789") == strlen(a);
}

/* An option and the values after it (words not starting with "--"). */
static int
option_words(char *const *a)
{
	int n = 1;

	if (strchr(a[0], '=') == NULL)
		while (a[n] != NULL && strncmp(a[n], "--", 2) != 0)
			n++;
	return n;
}

static int
is_mcore_profile(const char *a)
{
	return strcmp(a, "--profile") == 0 || strncmp(a, "--profile-", 10) == 0 ||
	    strncmp(a, "--profile=", 10) == 0;
}

static int
drop_mcore_profile(char *const *a)
{
	return is_mcore_profile(a[0]) ? option_words(a) : 0;
}

static int
is_fsdp2_profile(const char *a)
{
	return strncmp(a, "--training.profile", 18) == 0 &&
	    (a[18] == '\0' || a[18] == '_' || a[18] == '=');
}

static int
drop_fsdp2_profile(char *const *a)
{
	return is_fsdp2_profile(a[0]) ? option_words(a) : 0;
}

/* Record each option after the script that IS calls a profiling setting. */
static void
find_existing(struct rewrite_ctx *c, int (*is)(const char *))
{
	char *const *argv = c->argv;
	struct strv words = { 0 };
	char *s;
	int n;

	for (int i = c->launch->script + 1; argv[i] != NULL; i += n) {
		n = is(argv[i]) ? option_words(argv + i) : 1;
		if (n == 1 && !is(argv[i]))
			continue;
		for (int k = 0; k < n; k++)
			strv_push(&words, argv[i + k]);
		s = shell_join(words.v);
		strv_push(&c->out->existing, s);
		free(s);
		strv_free(&words);
	}
}

int
existing_refused(struct rewrite_ctx *c)
{
	char *list;

	if (c->out->existing.n == 0 || c->plan->existing != EXISTING_ASK)
		return 0;
	list = strv_join(c->out->existing.v, ", ");
	*c->why = xasprintf(_("the launch already sets profiling options (%s); "
	    "choose with --existing keep (use them) or --existing override "
	    "(use msprof-exec's)"), list);
	free(list);
	return -1;
}

int
window_check(struct rewrite_ctx *c, int last, const char *what)
{
	if (last < 0 || c->out->step_end - 1 <= last)
		return 0;
	*c->why = xasprintf(_("steps %d to %d, excluding %d, end after the "
	    "last training step (%s); lower --steps or raise --train-iters"),
	    c->out->step_start, c->out->step_end, c->out->step_end, what);
	return -1;
}

static void
copy_argv(struct rewrite_ctx *c)
{
	for (char *const *a = c->argv; *a != NULL; a++)
		strv_push(&c->out->argv, *a);
}

void
llm_flags(const struct plan *p, struct strv *out)
{
	int start, end;

	plan_steps(p, ENGINE_LLM_MCORE, &start, &end);
	strv_push(out, "--profile");
	strv_push(out, "--profile-step-start");
	strv_pushf(out, "%d", start);
	strv_push(out, "--profile-step-end");
	strv_pushf(out, "%d", end);
	strv_push(out, "--profile-ranks");
	if (p->ranks_all)
		strv_push(out, "-1");		/* MindSpeed: [-1] is all */
	else if (p->nranks == 0)
		strv_push(out, "0");
	for (size_t i = 0; !p->ranks_all && i < p->nranks; i++)
		strv_pushf(out, "%d", p->ranks[i]);
	strv_push(out, "--profile-level");
	strv_push(out, p->level);
	if (p->with_cpu)
		strv_push(out, "--profile-with-cpu");
	if (p->with_memory)
		strv_push(out, "--profile-with-memory");
	if (p->with_stack)
		strv_push(out, "--profile-with-stack");
	if (p->record_shapes)
		strv_push(out, "--profile-record-shapes");
	if (strcmp(p->export_type, "text") != 0) {
		strv_push(out, "--profile-export-type");
		strv_push(out, p->export_type);
	}
	if (p->data_simplification)
		strv_push(out, "--profile-data-simplification");
	strv_push(out, "--profile-save-path");
	strv_push(out, plan_output(p, ENGINE_LLM_MCORE));
}

/* The last value of OPT after the script as a number, or -1. */
static int
int_option(struct rewrite_ctx *c, const char *opt)
{
	const char *v = NULL;
	int i = c->launch->script + 1, last = -1;

	while ((i = argv_find(c->out->argv.v, i, opt, &v)) >= 0) {
		last = v != NULL && is_int_word(v) ? atoi(v) : -1;
		i++;
	}
	return last;
}

int
rewrite_llm_mcore(struct rewrite_ctx *c)
{
	const struct plan *p = c->plan;
	int from = c->launch->script + 1;
	char *what;

	find_existing(c, is_mcore_profile);
	if (existing_refused(c) == -1)
		return -1;
	copy_argv(c);
	if (c->out->existing.n > 0 && p->existing == EXISTING_KEEP) {
		c->out->kept = 1;
		return 0;
	}
	argv_drop(&c->out->argv, from, drop_mcore_profile);
	if (p->train_iters > 0) {
		char n[16];

		snprintf(n, sizeof(n), "%d", p->train_iters);
		argv_set(&c->out->argv, from, "--train-iters", n);
	}
	llm_flags(p, &c->out->argv);
	what = xasprintf("--train-iters %d", int_option(c, "--train-iters"));
	from = window_check(c, int_option(c, "--train-iters"), what);
	free(what);
	return from;
}

static void
push_bool(struct strv *v, const char *opt, int on)
{
	strv_push(v, opt);
	strv_push(v, on ? "true" : "false");
}

/* The MindSpeed-LLM FSDP2 options, every one explicit: they win over the YAML. */
static void
fsdp2_flags(const struct plan *p, struct rewrite *r, struct strv *out)
{
	push_bool(out, "--training.profile", 1);
	strv_push(out, "--training.profile_step_start");
	strv_pushf(out, "%d", r->step_start);
	strv_push(out, "--training.profile_step_end");
	strv_pushf(out, "%d", r->step_end);
	strv_push(out, "--training.profile_ranks");
	if (p->ranks_all || p->nranks == 0)
		strv_push(out, p->ranks_all ? "-1" : "0");
	for (size_t i = 0; !p->ranks_all && i < p->nranks; i++)
		strv_pushf(out, "%d", p->ranks[i]);
	strv_push(out, "--training.profile_level");
	strv_push(out, p->level);
	strv_push(out, "--training.profile_export_type");
	strv_push(out, p->export_type);
	push_bool(out, "--training.profile_with_cpu", p->with_cpu);
	push_bool(out, "--training.profile_with_memory", p->with_memory);
	push_bool(out, "--training.profile_with_stack", p->with_stack);
	push_bool(out, "--training.profile_record_shapes", p->record_shapes);
	push_bool(out, "--training.profile_data_simplification",
	    p->data_simplification);
	strv_push(out, "--training.profile_save_path");
	strv_push(out, r->save_path);
}

int
yaml_true(const char *v)
{
	static const char *const yes[] = { "true", "True", "TRUE", "yes", "Yes",
	    "YES", "on", "On", "ON", NULL };

	for (int i = 0; v != NULL && yes[i] != NULL; i++)
		if (strcmp(v, yes[i]) == 0)
			return 1;
	return 0;
}

/* The YAML argument of an entry (the first after it), or NULL. */
const char *
yaml_argument(struct rewrite_ctx *c)
{
	const char *a = c->argv[c->launch->script + 1];

	return a != NULL && (ends_with(a, ".yaml") || ends_with(a, ".yml")) ?
	    a : NULL;
}

int
rewrite_llm_fsdp2(struct rewrite_ctx *c)
{
	const struct plan *p = c->plan;
	const char *cfg = yaml_argument(c), *v;
	int from = c->launch->script + 1, max_steps = -1, training;
	struct ydoc y;
	char *what;

	if (cfg != NULL) {
		if (ydoc_load(&y, cfg, c->why) == -1)
			return -1;
		training = ydoc_get(&y, ydoc_root(&y), "training");
		if (yaml_true(ydoc_scalar(&y, ydoc_get(&y, training, "profile"))))
			strv_pushf(&c->out->existing, _("training.profile: %s in %s"),
			    ydoc_scalar(&y, ydoc_get(&y, training, "profile")), cfg);
		v = ydoc_scalar(&y, ydoc_get(&y, training, "max_steps"));
		if (v != NULL && is_int_word(v))
			max_steps = atoi(v);
		ydoc_free(&y);
	}
	find_existing(c, is_fsdp2_profile);
	if (existing_refused(c) == -1)
		return -1;
	copy_argv(c);
	if (c->out->existing.n > 0 && p->existing == EXISTING_KEEP) {
		c->out->kept = 1;
		return 0;
	}
	argv_drop(&c->out->argv, from, drop_fsdp2_profile);
	if (p->train_iters > 0) {
		char n[16];

		snprintf(n, sizeof(n), "%d", p->train_iters);
		argv_set(&c->out->argv, from, "--training.max_steps", n);
	}
	fsdp2_flags(p, c->out, &c->out->argv);
	if (int_option(c, "--training.max_steps") > 0)
		max_steps = int_option(c, "--training.max_steps");
	what = xasprintf("training.max_steps %d", max_steps);
	/* Steps count from 0: the last one is max_steps - 1. */
	from = window_check(c, max_steps > 0 ? max_steps - 1 : -1, what);
	free(what);
	return from;
}

/*
 * Settings the engine has no field for (reference 1.4, 3.1): said, not
 * silently dropped.  MindSpeed-LLM hard-codes PipeUtilization, always
 * parses online and has no dynamic mode; MindSpeed-MM's static profiler
 * has no export type.
 */
static void
engine_notes(const struct plan *p, enum engine e, struct rewrite *out)
{
	int mm = strcmp(engine_framework(e), "mm") == 0;

	if (mm && strcmp(p->export_type, "db") == 0 &&
	    strcmp(p->mode, "dynamic") != 0)	/* dynamic: experimental_config */
		strv_push(&out->notes, _("MindSpeed-MM has no export type "
		    "setting: the data is exported as text; run 'msprof-exec "
		    "analyse --export-type db' on it afterwards for .db files"));
	if (!mm && strcmp(p->aic_metrics, "PipeUtilization") != 0)
		strv_pushf(&out->notes, _("MindSpeed-LLM sets the AI Core "
		    "metrics itself (PipeUtilization): --aic-metrics %s is not "
		    "applied"), p->aic_metrics);
	if (!mm && !p->analyse)
		strv_push(&out->notes, _("MindSpeed-LLM always parses online: "
		    "--no-analyse is not applied"));
	if (!mm && strcmp(p->mode, "dynamic") == 0)
		strv_push(&out->notes, _("MindSpeed-LLM profiles a step window "
		    "only: --mode dynamic is not applied"));
}

int
launch_rewrite(const struct plan *p, const struct launch *l,
    char *const argv[], char *const envp[], const char *session,
    struct rewrite *out, char **why)
{
	struct rewrite_ctx c = { p, l, argv, envp, session, out, why };
	static int (*const engines[])(struct rewrite_ctx *) = {
		[ENGINE_LLM_MCORE] = rewrite_llm_mcore,
		[ENGINE_LLM_FSDP2] = rewrite_llm_fsdp2,
		[ENGINE_MM_MEGATRON] = rewrite_mm_megatron,
		[ENGINE_MM_YAML] = rewrite_mm_yaml,
		[ENGINE_MM_FSDP2] = rewrite_mm_fsdp2,
	};

	memset(out, 0, sizeof(*out));
	plan_steps(p, l->engine, &out->step_start, &out->step_end);
	out->save_path = xstrdup(plan_output(p, l->engine));
	if (out->step_end <= out->step_start) {
		/* Only --step-end was given, at or before the default start. */
		*why = xasprintf(_("--step-end %d is not after the start step %d "
		    "of this engine; give both with --steps S:E"),
		    out->step_end, out->step_start);
		return -1;
	}
	if (l->engine == ENGINE_NONE || l->script < 0) {
		*why = xstrdup(_("not a MindSpeed training entry"));
		return -1;
	}
	if (strcmp(p->level, "level_none") == 0 &&
	    strcmp(engine_framework(l->engine), "mm") == 0) {
		*why = xstrdup(_("--level level_none is for MindSpeed-LLM only; "
		    "MindSpeed-MM accepts level0, level1, level2"));
		return -1;
	}
	engine_notes(p, l->engine, out);
	return engines[l->engine](&c);
}

void
rewrite_free(struct rewrite *r)
{
	strv_free(&r->notes);
	strv_free(&r->argv);
	strv_free(&r->env);
	strv_free(&r->written);
	strv_free(&r->existing);
	free(r->save_path);
	memset(r, 0, sizeof(*r));
}
