/*
 * Rewriting a launch: what every engine does the same way (defaults,
 * settings already present, notes), then the engine's own rewrite; and
 * the small helpers the engine modules share.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "common/argv.h"
#include "common/yamldoc.h"
#include "apply.h"
#include "rewrite.h"
#include "window.h"

int
rewrite_fail(struct rewrite_ctx *c, char *why)
{
	*c->why = why;
	return -1;
}

void
rewrite_copy_argv(struct rewrite_ctx *c)
{
	for (char *const *a = c->argv; *a != NULL; a++)
		strv_push(&c->out->argv, *a);
}

/* Does the window end within OWN iterations (always, when triggered)? */
static int
fits_own(const struct rewrite_ctx *c, int own)
{
	const struct engine_ops *e = engine_ops(c->launch->engine);

	if (strcmp(c->plan->mode, "dynamic") == 0 && !e->window_only)
		return 1;
	return window_fits(c->launch->engine, c->out->step_end, own);
}

int
rewrite_train_iters(struct rewrite_ctx *c, int own)
{
	int def = engine_ops(c->launch->engine)->train_iters, n = -1;

	if (c->plan->train_iters > 0)
		n = c->plan->train_iters;
	else if (c->plan->train_iters == 0 && def > 0)
		n = own > 0 && own <= def && fits_own(c, own) ? own : def;
	c->out->iters_from = own;
	c->out->iters = n > 0 ? n : own;
	return n;
}

int
count_value(const char *s)
{
	char *end;
	long n;

	if (s == NULL || *s < '0' || *s > '9')
		return -1;
	n = strtol(s, &end, 10);
	return *end == '\0' && n <= INT_MAX ? (int)n : -1;
}

int
count_option(char *const argv[], int script, const char *opt)
{
	return count_value(argv_last(argv, script + 1, opt));
}

/* A value after an option: not itself an option (a negative number is). */
static int
is_value(const char *a)
{
	if (a == NULL || strchr(a, '=') != NULL)
		return 0;
	if (a[0] != '-')
		return 1;
	return a[1] != '\0' && strspn(a + 1, "0123456789") == strlen(a + 1);
}

int
option_values(char *const *a, int max)
{
	int n = 0;

	if (strchr(a[0], '=') != NULL)
		return 0;
	while ((max < 0 || n < max) && is_value(a[n + 1]))
		n++;
	return n;
}

void
option_settings(char *const argv[], int script, int (*span)(char *const *),
    struct strv *out)
{
	struct strv words = { 0 };
	char *s;
	int n;

	for (int i = script + 1; argv[i] != NULL; i += n > 0 ? n : 1) {
		if ((n = span(argv + i)) == 0)
			continue;
		for (int k = 0; k < n; k++)
			strv_push(&words, argv[i + k]);
		s = shell_join(words.v);
		strv_push(out, s);
		free(s);
		strv_free(&words);
	}
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

const char *
yaml_value(const char *v)
{
	static const char *const null[] = { "", "~", "null", "Null", "NULL",
	    NULL };

	for (int i = 0; v != NULL && null[i] != NULL; i++)
		if (strcmp(v, null[i]) == 0)
			return NULL;
	return v;
}

char *
yaml_setting(const char *cfg, const char *key, const char *dflt)
{
	char *why = NULL, *path, *k, *next;
	const char *v;
	struct ydoc y;
	int node;

	if (cfg == NULL)
		return xstrdup_null(dflt);
	if (ydoc_load(&y, cfg, &why) == -1) {
		free(why);
		return NULL;
	}
	path = xstrdup(key);
	node = ydoc_root(&y);
	for (k = path; k != NULL && node != 0; k = next) {
		if ((next = strchr(k, '.')) != NULL)
			*next++ = '\0';
		node = ydoc_get(&y, node, k);
	}
	free(path);
	v = yaml_value(ydoc_scalar(&y, node));
	path = xstrdup_null(v != NULL ? v : dflt);
	ydoc_free(&y);
	return path;
}

const char *
yaml_argument(char *const argv[], int script)
{
	const char *a = script >= 0 ? argv[script + 1] : NULL;

	return a != NULL && (ends_with(a, ".yaml") || ends_with(a, ".yml")) ?
	    a : NULL;
}

int
rewrite_window_check(struct rewrite_ctx *c, int iters, const char *what)
{
	char *window;

	if (window_fits(c->launch->engine, c->out->step_end, iters))
		return 0;
	window = engine_window_text(c->launch->engine, c->plan,
	    c->out->step_start, c->out->step_end);
	*c->why = xasprintf(_("steps %s, end after the last training step "
	    "(%s); lower --steps or raise --train-iters"), window, what);
	free(window);
	return -1;
}

/* The save path the kept settings name, or NULL when not known. */
static void
keep_save_path(struct rewrite_ctx *c)
{
	const struct engine_ops *e = engine_ops(c->launch->engine);
	char *own = e->own_save_path != NULL ?
	    e->own_save_path(c->launch, c->argv, c->envp) : NULL;

	free(c->out->save_path);
	c->out->save_path = own;
}

/* --existing ask stops at settings the launch has; keep leaves them be. */
static int
settle_existing(struct rewrite_ctx *c)
{
	char *list;

	launch_existing(c->launch, c->argv, c->envp, &c->out->existing);
	if (c->out->existing.n == 0 || c->plan->existing == EXISTING_OVERRIDE)
		return 0;
	if (c->plan->existing == EXISTING_KEEP) {
		rewrite_copy_argv(c);
		keep_save_path(c);
		c->out->kept = 1;
		return 1;
	}
	list = strv_join(c->out->existing.v, ", ");
	*c->why = xasprintf(_("the launch already sets profiling options (%s); "
	    "choose with --existing keep (use them) or --existing override "
	    "(use msprof-exec's)"), list);
	free(list);
	return -1;
}

int
launch_rewrite(const struct plan *p, const struct launch *l,
    char *const argv[], char *const envp[], const char *session,
    struct rewrite *out, char **why)
{
	struct rewrite_ctx c = { p, l, argv, envp, session, out, why };
	const struct engine_ops *e = engine_ops(l->engine);
	int rc;

	memset(out, 0, sizeof(*out));
	out->iters_from = out->iters = out->loaded = -1;
	out->save_path = xstrdup(plan_output(p, l->engine));
	out->analyse = p->analyse || e->always_parses;
	out->mode = e->window_only ? "static" : p->mode;
	if (plan_window(p, l->engine, &out->step_start, &out->step_end,
	    why) == -1)
		return -1;
	if (l->engine == ENGINE_NONE || l->script < 0) {
		*why = xstrdup(l->why[0] ? l->why :
		    _("not a training entry"));
		return -1;
	}
	if (l->refused) {
		*why = xstrdup(l->why);
		return -1;
	}
	if (strcmp(p->level, "level_none") == 0 && engine_is_mm(l->engine)) {
		*why = xstrdup(_("--level level_none is for MindSpeed-LLM only; "
		    "MindSpeed-MM accepts level0, level1, level2"));
		return -1;
	}
	if (e->notes != NULL)
		e->notes(p, &out->notes);
	if ((rc = settle_existing(&c)) < 0 || (rc == 0 && e->rewrite(&c) == -1))
		return -1;
	return rewrite_settings(&c);
}

void
rewrite_free(struct rewrite *r)
{
	strv_free(&r->notes);
	strv_free(&r->set);
	strv_free(&r->argv);
	strv_free(&r->env);
	strv_free(&r->written);
	strv_free(&r->existing);
	free(r->save_path);
	free(r->loaded_from);
	free(r->prof_config);
	memset(r, 0, sizeof(*r));
}
