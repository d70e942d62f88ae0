/*
 * --set: the settings of the training the user asks the profiled launch
 * to run with.  The kind is read from the name: a leading dash is a flag,
 * an upper-case NAME an environment variable, anything else a dotted key
 * of the YAML config.  A name the settings table (common/settings.c)
 * knows is checked: its value here, its scope against the launch's
 * engine in the rewrite; any other name is passed as given, with a note.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "common/argv.h"
#include "common/settings.h"
#include "common/yamldoc.h"
#include "apply.h"
#include "rewrite.h"
#include "scope.h"

const char *
set_kind_text(enum set_kind k)
{
	switch (k) {
	case SETTING_FLAG:
		return _("flag");
	case SETTING_ENV:
		return _("environment variable");
	default:
		return _("YAML key");
	}
}

/* An environment variable's name: upper-case letters, digits and _. */
static int
env_name(const char *s, size_t n)
{
	if (n == 0 || isdigit((unsigned char)s[0]))
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!isupper((unsigned char)s[i]) && !isdigit((unsigned char)s[i]) &&
		    s[i] != '_')
			return 0;
	return 1;
}

/* A flag after its dashes, or a dotted key: words of [A-Za-z0-9_-.]. */
static int
word_chars(const char *s, size_t n, int dots)
{
	if (n == 0 || s[0] == '.' || s[n - 1] == '.')
		return 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '.' && (!dots || s[i + 1] == '.'))
			return 0;
		if (!isalnum((unsigned char)s[i]) && s[i] != '_' &&
		    s[i] != '-' && s[i] != '.')
			return 0;
	}
	return 1;
}

/*
 * Names msprof-exec sets itself: the profiling settings have options of
 * their own, and the shim's variables must not reach the training.
 */
static const char *
reserved(const struct set_item *s)
{
	static const char *const flags[] = { "--profile", "--training.profile",
	    "--train-iters", "--training.max_steps", "--mm-tool", NULL };
	static const char *const env[] = { "PROF_CONFIG_PATH", "LD_PRELOAD",
	    "MSPROF_EXEC_", "MM_TOOL", NULL };
	static const char *const keys[] = { "tools.profile", "training.profile",
	    "training.train_iters", "gpt_args.train_iters", "MM_TOOL_PATH",
	    NULL };
	const char *const *list = s->kind == SETTING_FLAG ? flags :
	    s->kind == SETTING_ENV ? env : keys;

	for (size_t i = 0; list[i] != NULL; i++)
		if (strncmp(s->name, list[i], strlen(list[i])) == 0)
			return list[i];
	return NULL;
}

void
set_item_free(struct set_item *s)
{
	free(s->name);
	free(s->value);
	memset(s, 0, sizeof(*s));
}

int
set_parse(const char *word, struct set_item *s, char **why)
{
	size_t n = strcspn(word, "="), dashes = strspn(word, "-");
	const char *r;

	memset(s, 0, sizeof(*s));
	if (dashes > 0) {
		s->kind = SETTING_FLAG;
		if (dashes > 2 || !word_chars(word + dashes, n - dashes, 1))
			goto bad;
	} else if (env_name(word, n))
		s->kind = SETTING_ENV;
	else if (word_chars(word, n, 1))
		s->kind = SETTING_YAML;
	else
		goto bad;
	s->name = xstrndup(word, n);
	s->value = word[n] == '=' ? xstrdup(word + n + 1) : NULL;
	if (s->kind != SETTING_FLAG && s->value == NULL) {
		*why = xasprintf(_("--set '%s': %s (%s) needs a value; give "
		    "%s=VALUE"), word, word, set_kind_text(s->kind), word);
		goto fail;
	}
	if (s->kind != SETTING_ENV && s->value != NULL && *s->value == '\0') {
		*why = xasprintf(_("--set '%s': the value is empty; give %s=VALUE, "
		    "or the flag alone"), word, s->name);
		goto fail;
	}
	if ((r = reserved(s)) != NULL) {
		*why = xasprintf(_("--set '%s': %s... is msprof-exec's to set "
		    "(profiling and its window have options of their own: --level, "
		    "--steps, --train-iters, ...; see msprof-exec --help)"), word,
		    r);
		goto fail;
	}
	return 0;
bad:
	*why = xasprintf(_("--set '%s': not a setting; give a flag of the "
	    "training (--overlap-grad-reduce, --num-workers=8), an upper-case "
	    "environment variable (TASK_QUEUE_ENABLE=2) or a dotted YAML key "
	    "(parallel.fsdp_plan.num_to_forward_prefetch=1)"), word);
fail:
	set_item_free(s);
	return -1;
}

/* Is V a whole number (leading only: "1,npu0:0-3" leads with 1)? */
static int
number(const char *v, int leading_only)
{
	size_t n = strspn(v, "0123456789");

	return n > 0 && (leading_only || v[n] == '\0');
}

static int
is_bool(const char *v)
{
	static const char *const words[] = { "true", "false", "True", "False",
	    "yes", "no", "on", "off", "1", "0", NULL };

	for (size_t i = 0; words[i] != NULL; i++)
		if (strcmp(v, words[i]) == 0)
			return 1;
	return 0;
}

/*
 * The choices "full|selective" of the table's WANT (" full|selective"),
 * as a list; 0 when it names no choices.
 */
static int
choices(const char *want, struct strv *out)
{
	char *copy, *tok, *save = NULL;

	want += strspn(want, " =:");
	if (strchr(want, '|') == NULL)
		return 0;
	copy = xstrdup(want);
	for (tok = strtok_r(copy, "|", &save); tok != NULL;
	    tok = strtok_r(NULL, "|", &save))
		strv_push(out, tok);
	free(copy);
	return 1;
}

/* The value V of the known setting T: NULL when it fits, else why not. */
static char *
value_wrong(const struct setting *t, const struct set_item *s)
{
	const char *v = s->value, *want = t->want + strspn(t->want, " =:");
	struct strv list = { 0 };
	char *why = NULL, *text;

	if (t->kind == SET_FLAG && t->test == TEST_PRESENT && *want == '\0')
		return v == NULL ? NULL : xasprintf(_("%s is a switch and takes "
		    "no value; give --set %s"), s->name, s->name);
	if (v == NULL)
		return xasprintf(_("%s takes a value; give --set %s=VALUE (%s%s)"),
		    s->name, s->name, s->name, t->want);
	if (choices(t->want, &list) && !strv_has(&list, v)) {
		text = strv_join(list.v, ", ");
		why = xasprintf(_("%s takes one of %s"), s->name, text);
		free(text);
	} else if (t->test == TEST_AT_LEAST && !number(v, 1))
		why = xasprintf(_("%s takes a number (%s%s)"), s->name, s->name,
		    t->want);
	else if ((strcmp(want, "N") == 0 || strncmp(want, "N ", 2) == 0 ||
	    (t->test != TEST_AT_LEAST && ((t->value != NULL &&
	    number(t->value, 0)) || (t->dflt != NULL && number(t->dflt, 0))))) &&
	    !number(v, 0))
		why = xasprintf(_("%s takes a whole number"), s->name);
	else if (t->test == TEST_EQUALS && t->value != NULL &&
	    is_bool(t->value) && !number(t->value, 0) && !is_bool(v))
		why = xasprintf(_("%s takes true or false"), s->name);
	strv_free(&list);
	return why;
}

int
set_check(const char *word, char **note, char **why)
{
	const struct setting *t;
	struct set_item s;
	char *wrong;

	*note = NULL;
	if ((t = setting_named(word)) != NULL && t->kind == SET_CODE) {
		*why = xasprintf(_("--set '%s': that is set in the training's "
		    "code, not on its command line, in its environment or its "
		    "YAML; change the code"), word);
		return -1;
	}
	if (set_parse(word, &s, why) == -1)
		return -1;
	if ((t = setting_named(s.name)) == NULL) {
		*note = xasprintf(_("%s (%s) is not in msprof-exec's settings "
		    "table: passed as given, unchecked"), s.name,
		    set_kind_text(s.kind));
		set_item_free(&s);
		return 0;
	}
	if (t->kind == SET_CODE)
		wrong = xasprintf(_("%s is set in the training's code, not on "
		    "its command line"), s.name);
	else
		wrong = value_wrong(t, &s);
	set_item_free(&s);
	if (wrong == NULL)
		return 0;
	*why = xasprintf(_("--set '%s': %s"), word, wrong);
	free(wrong);
	return -1;
}

/*
 * Can --set give the launch (engine E) the table's settings of SCOPE?
 * Those its engine reads, but not DDP's and DeepSpeed's, which live in
 * the training's code, where no rewrite reaches.
 */
static int
in_scope(enum engine e, enum setting_scope scope)
{
	return scope != SCOPE_DDP && scope != SCOPE_DEEPSPEED &&
	    engine_reads_scope(e, scope);
}

static const char *
scope_text(enum setting_scope scope)
{
	switch (scope) {
	case SCOPE_MEGATRON:
		return _("an argument of Megatron (MindSpeed-LLM and "
		    "MindSpeed-MM on Megatron)");
	case SCOPE_MM_FSDP2:
		return _("a key of MindSpeed-MM's FSDP2 YAML");
	default:
		return _("a setting of the training's code");
	}
}

/*
 * OPT VALUE (OPT alone: VALUE NULL) on the command line after FROM: every
 * earlier OPT goes, with the value that follows it, so that the launch
 * has the setting once, at the end, as argparse's last one wins anyway.
 */
static void
flag_put(struct strv *argv, int from, const char *opt, const char *value)
{
	struct strv out = { 0 };
	size_t n = strlen(opt), i;

	for (i = 0; i < argv->n; i++) {
		const char *a = argv->v[i];

		if ((int)i < from || strncmp(a, opt, n) != 0 ||
		    (a[n] != '\0' && a[n] != '=')) {
			strv_push(&out, a);
			continue;
		}
		if (value == NULL && a[n] == '\0') {	/* already there */
			strv_free(&out);
			return;
		}
		if (a[n] == '\0' && value != NULL && option_values(argv->v + i,
		    1) == 1)
			i++;
	}
	strv_push(&out, opt);
	if (value != NULL)
		strv_push(&out, value);
	strv_free(argv);
	*argv = out;
}

/* NAME=VALUE in the launch's environment, once. */
static void
env_put(struct strv *env, const char *name, const char *value)
{
	size_t n = strlen(name);

	for (size_t i = 0; i < env->n; i++)
		if (strncmp(env->v[i], name, n) == 0 && env->v[i][n] == '=') {
			free(env->v[i]);
			env->v[i] = xasprintf("%s=%s", name, value);
			return;
		}
	strv_pushf(env, "%s=%s", name, value);
}

/* The YAML copy the engine wrote ("ORIGINAL -> COPY"), or NULL. */
static const char *
yaml_written(const struct rewrite *r, const char **original, size_t *olen)
{
	for (size_t i = 0; i < r->written.n; i++) {
		const char *w = r->written.v[i], *to = strstr(w, " -> ");

		if (to != NULL && (ends_with(to, ".yaml") || ends_with(to, ".yml"))) {
			*original = w;
			*olen = (size_t)(to - w);
			return to + 4;
		}
	}
	return NULL;
}

/*
 * Set S in the loaded YAML: a dotted key, or (GPT) a flag as the leaf of
 * gpt_args it becomes, true for a flag without a value.  0, or -1 with
 * *why naming CFG.
 */
static int
yaml_put(struct ydoc *d, const struct set_item *s, int gpt, const char *cfg,
    char **why)
{
	char *path = xstrdup(s->name), *k, *next, *key;
	const char *leaf = NULL;
	int map = ydoc_root(d), holder;

	if (gpt) {
		if ((map = ydoc_map(d, map, "gpt_args")) == 0)
			goto notmap;
		if (ydoc_flag_leaf(d, map, s->name, &holder, &leaf) != 0)
			map = holder;
		key = leaf != NULL ? xstrdup(leaf) : xstrdup(s->name +
		    strspn(s->name, "-"));
		for (k = key; leaf == NULL && *k != '\0'; k++)
			if (*k == '-')
				*k = '_';
		ydoc_set(d, map, key, s->value != NULL ? s->value : "true");
		free(key);
		free(path);
		return 0;
	}
	for (k = path; (next = strchr(k, '.')) != NULL; k = next) {
		*next++ = '\0';
		if ((map = ydoc_map(d, map, k)) == 0)
			goto notmap;
	}
	ydoc_set(d, map, k, s->value);
	free(path);
	return 0;
notmap:
	*why = xasprintf(_("--set %s: %s has something other than a mapping "
	    "on the way to that key; give a key the file's structure holds"),
	    s->name, cfg);
	free(path);
	return -1;
}

/*
 * S into the engine's YAML copy: the copy is read back and written again
 * (in a dry run, the original is read, to check the key's path).
 */
static int
yaml_copy_put(struct rewrite_ctx *c, const struct set_item *s, int gpt)
{
	const char *copy, *orig;
	char *src, *why = NULL;
	struct ydoc d;
	size_t olen;
	int rc;

	if ((copy = yaml_written(c->out, &orig, &olen)) == NULL)
		return rewrite_fail(c, xasprintf(_("--set %s: the launch's "
		    "config is not copied (its own profiling settings are kept); "
		    "use --existing override"), s->name));
	src = c->session != NULL ? xstrdup(copy) : xstrndup(orig, olen);
	if (ydoc_load(&d, src, &why) == -1) {
		free(src);
		return rewrite_fail(c, why);
	}
	if (yaml_put(&d, s, gpt, src, c->why) == -1) {
		ydoc_free(&d);
		free(src);
		return -1;
	}
	if (c->session != NULL)
		rc = ydoc_write(&d, copy, c->why);
	else {
		ydoc_free(&d);
		rc = 0;
	}
	free(src);
	return rc;
}

/* KEY=VALUE after the MindSpeed-MM FSDP2 YAML wins over it: replaced. */
static void
override_put(struct strv *argv, int from, const struct set_item *s)
{
	size_t n = strlen(s->name);

	for (size_t i = (size_t)from; i < argv->n; i++)
		if (strncmp(argv->v[i], s->name, n) == 0 &&
		    argv->v[i][n] == '=') {
			free(argv->v[i]);
			argv->v[i] = xasprintf("%s=%s", s->name, s->value);
		}
}

/* A flag S for this launch. */
static int
put_flag(struct rewrite_ctx *c, const struct set_item *s, const char **how)
{
	enum engine e = c->launch->engine;

	if (e == ENGINE_MM_FSDP2)
		return rewrite_fail(c, xasprintf(_("--set %s: the MindSpeed-MM "
		    "FSDP2 trainer takes no flags, only its YAML's keys; give "
		    "the dotted key instead (--set KEY=VALUE)"), s->name));
	if (e == ENGINE_MM_YAML) {
		*how = _("in gpt_args of the config copy");
		return yaml_copy_put(c, s, 1);
	}
	*how = _("on the command line");
	flag_put(&c->out->argv, c->launch->script + 1, s->name, s->value);
	return 0;
}

/* A YAML key S for this launch. */
static int
put_key(struct rewrite_ctx *c, const struct set_item *s, const char **how)
{
	char *opt;

	switch (c->launch->engine) {
	case ENGINE_LLM_FSDP2:
		/* its --section.field options win over the YAML */
		*how = _("on the command line, over the YAML");
		opt = xasprintf("--%s", s->name);
		flag_put(&c->out->argv, c->launch->script + 1, opt, s->value);
		free(opt);
		return 0;
	case ENGINE_MM_FSDP2:
		override_put(&c->out->argv, c->launch->script + 1, s);
		/* FALLTHROUGH */
	case ENGINE_MM_YAML:
		*how = _("in the config copy");
		return yaml_copy_put(c, s, 0);
	default:
		return rewrite_fail(c, xasprintf(_("--set %s: this launch (%s) "
		    "has no YAML config; give a flag or an environment variable"),
		    s->name, _(engine_ops(c->launch->engine)->label)));
	}
}

static int
apply_one(struct rewrite_ctx *c, const char *word)
{
	const struct setting *t;
	const char *how = _("set for the launch");
	struct set_item s;
	int rc = 0;

	if (set_parse(word, &s, c->why) == -1)
		return -1;
	if ((t = setting_named(s.name)) == NULL)
		strv_pushf(&c->out->notes, _("--set %s (%s) is not in "
		    "msprof-exec's settings table: passed as given, unchecked"),
		    s.name, set_kind_text(s.kind));
	if (t != NULL && !in_scope(c->launch->engine, t->scope))
		rc = rewrite_fail(c, xasprintf(_("--set %s: %s; this launch "
		    "(%s) does not read it; drop it from this run"), s.name,
		    scope_text(t->scope),
		    _(engine_ops(c->launch->engine)->label)));
	else if (s.kind == SETTING_ENV)
		env_put(&c->out->env, s.name, s.value);
	else if (s.kind == SETTING_FLAG)
		rc = put_flag(c, &s, &how);
	else
		rc = put_key(c, &s, &how);
	if (rc == 0)
		strv_pushf(&c->out->set, "%s (%s, %s)", word,
		    set_kind_text(s.kind), how);
	set_item_free(&s);
	return rc;
}

/*
 * Flag NAME on the command line the launch will run, after FROM: its
 * value ("" bare), or NULL when not given; the last one counts.
 */
static const char *
flag_given(const struct strv *argv, int from, const char *name)
{
	size_t n = strlen(name), i;

	for (i = argv->n; i-- > (size_t)from;) {
		const char *a = argv->v[i];

		if (strncmp(a, name, n) != 0)
			continue;
		if (a[n] == '=')
			return a + n + 1;
		if (a[n] == '\0')
			return i + 1 < argv->n &&
			    strncmp(argv->v[i + 1], "--", 2) != 0 ?
			    argv->v[i + 1] : "";
	}
	return NULL;
}

/* Does the launch's command line have flag T on, as the table tests it? */
static int
flag_on(const struct rewrite_ctx *c, const struct setting *t)
{
	const char *v = flag_given(&c->out->argv, c->launch->script + 1,
	    t->name);

	if (v == NULL)
		return 0;
	return t->test != TEST_EQUALS || strcmp(v, t->value) == 0;
}

/*
 * A note for each flag the setting of WORD needs that the launch, as
 * rewritten, lacks, and for each it is refused with that it has: the
 * training would stop at its start (or the setting do nothing).  Only
 * where flags are on the command line.
 */
static void
check_needs(struct rewrite_ctx *c, const char *word)
{
	const struct setting *t, *const *l;
	struct set_item s;
	char *why = NULL;

	if (c->launch->engine != ENGINE_LLM_MCORE &&
	    c->launch->engine != ENGINE_MM_MEGATRON)
		return;
	if (set_parse(word, &s, &why) == -1) {
		free(why);
		return;
	}
	if ((t = setting_named(s.name)) != NULL && t->kind == SET_FLAG) {
		for (l = setting_needs(t, s.value); l != NULL && *l != NULL;
		    l++)
			if ((*l)->kind == SET_FLAG && !flag_on(c, *l))
				strv_pushf(&c->out->notes, _("--set %s: the "
				    "training refuses it, or it does nothing, "
				    "without %s%s, which neither the launch nor "
				    "--set gives"), s.name, (*l)->name,
				    (*l)->test == TEST_EQUALS ? (*l)->want : "");
		for (l = setting_conflicts(t, s.value); l != NULL && *l != NULL;
		    l++)
			if ((*l)->kind == SET_FLAG && flag_on(c, *l))
				strv_pushf(&c->out->notes, _("--set %s: the "
				    "training refuses it together with %s, "
				    "which the launch has"), s.name, (*l)->name);
	}
	set_item_free(&s);
}

int
rewrite_settings(struct rewrite_ctx *c)
{
	for (size_t i = 0; i < c->plan->set.n; i++)
		if (apply_one(c, c->plan->set.v[i]) == -1)
			return -1;
	for (size_t i = 0; i < c->plan->set.n; i++)
		check_needs(c, c->plan->set.v[i]);
	return 0;
}
