/*
 * The settings that differ between the two launches, when both runs were
 * made under msprof-exec: each session's journal holds the launch's
 * command line as the caller gave it and the environment variables the
 * advice consults, so what an engineer changed between the runs (a flag,
 * a variable, the profiling window) is named beside what it did.
 *
 * What changes from run to run by itself is left out: the rendezvous
 * port and address, the session's own paths, a value that differs only
 * in a run of digits as long as a time's or a pid's (a log file named
 * after the time).  A command line is read as
 * options (a word starting with '-', its value the next word unless that
 * is an option too, or after '=') and positional arguments, compared by
 * their place: the same options in another order are the same launch.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "common/journal.h"
#include "compare_model.h"

/* Options and variables that differ between any two launches. */
static const char *const volatile_flags[] = {
	"--master_port", "--master-port", "--master_addr", "--master-addr",
	"--rdzv_endpoint", "--rdzv-endpoint", "--rdzv_id", "--rdzv-id",
	"--run_id", "--run-id", NULL
};
static const char *const volatile_env[] = {
	"MASTER_PORT", "MASTER_ADDR", "PET_MASTER_PORT", "PET_MASTER_ADDR",
	"PET_RDZV_ENDPOINT", "PET_RDZV_ID", "TORCHELASTIC_RUN_ID",
	"PROF_CONFIG_PATH", "LD_PRELOAD", "PWD", "OLDPWD", "SHLVL", "_", NULL
};

/* A command line read as options and arguments. */
struct cmdline {
	struct strv	keys, vals;	/* "--lr" and "1e-4", "--bf16" and "" */
	struct strv	args;		/* positional, in order */
};

static int
listed(const char *const list[], const char *s)
{
	for (; *list != NULL; list++)
		if (strcmp(*list, s) == 0)
			return 1;
	return 0;
}

/* A value that names the session itself (its copies, its directory). */
static int
session_path(const char *v)
{
	return v != NULL && strstr(v, "msprof-exec_") != NULL;
}

/* An option, not a negative number given as a value. */
static int
is_option(const char *a)
{
	return a[0] == '-' && a[1] != '\0' && !isdigit((unsigned char)a[1]) &&
	    a[1] != '.' && strcmp(a, "--") != 0;
}

static void
add_option(struct cmdline *cl, const char *key, size_t keylen,
    const char *val)
{
	char *k = xstrndup(key, keylen), *t;

	for (size_t i = 0; i < cl->keys.n; i++)
		if (strcmp(cl->keys.v[i], k) == 0) {
			/* given again: both values, in order (a flag
			 * without one given twice is given) */
			if (*val == '\0')
				t = xstrdup(cl->vals.v[i]);
			else if (*cl->vals.v[i] == '\0')
				t = xstrdup(val);
			else
				t = xasprintf("%s %s", cl->vals.v[i], val);
			free(cl->vals.v[i]);
			cl->vals.v[i] = t;
			free(k);
			return;
		}
	strv_push(&cl->keys, k);
	strv_push(&cl->vals, val);
	free(k);
}

static void
parse_cmdline(const struct strv *argv, struct cmdline *cl)
{
	const char *eq;

	memset(cl, 0, sizeof(*cl));
	for (size_t i = 1; i < argv->n; i++) {
		const char *a = argv->v[i];

		if (!is_option(a))
			strv_push(&cl->args, a);
		else if (strncmp(a, "--", 2) == 0 && (eq = strchr(a, '=')) !=
		    NULL)
			add_option(cl, a, (size_t)(eq - a), eq + 1);
		else if (i + 1 < argv->n && !is_option(argv->v[i + 1]))
			add_option(cl, a, strlen(a), argv->v[++i]);
		else
			add_option(cl, a, strlen(a), "");
	}
}

static void
free_cmdline(struct cmdline *cl)
{
	strv_free(&cl->keys);
	strv_free(&cl->vals);
	strv_free(&cl->args);
}

/* A number as given: "1e-4", "0.000125", "-3". */
static int
numeric(const char *v)
{
	return *v != '\0' && strspn(v, "0123456789.eE+-") == strlen(v);
}

/* V with each run of STAMP_DIGITS digits or more as one '#'. */
#define STAMP_DIGITS	6
static char *
unstamped(const char *v)
{
	char *out = xstrdup(v), *o = out;
	size_t run;

	while (*v != '\0') {
		run = strspn(v, "0123456789");
		if (run >= STAMP_DIGITS) {
			*o++ = '#';
			v += run;
		} else if (run > 0) {
			memcpy(o, v, run);
			o += run;
			v += run;
		} else
			*o++ = *v++;
	}
	*o = '\0';
	return out;
}

/*
 * Do A and B differ only in a timestamp or a pid (a log file, a
 * checkpoint directory named after the time)?  Numbers given as values
 * are settings, never stamps.
 */
static int
stamps_only(const char *a, const char *b)
{
	char *x, *y;
	int same;

	if (numeric(a) || numeric(b))
		return 0;
	x = unstamped(a);
	y = unstamped(b);
	same = strcmp(x, y) == 0;
	free(x);
	free(y);
	return same;
}

/*
 * Record a difference; equal values (both NULL too) are none, nor those
 * that differ in what changes from run to run by itself.
 */
static void
differ(struct compare *c, enum set_kind kind, const char *name,
    const char *b, const char *n)
{
	struct cmp_setting *s;

	if ((b == NULL && n == NULL) || (b != NULL && n != NULL &&
	    (strcmp(b, n) == 0 || stamps_only(b, n))) || session_path(b) ||
	    session_path(n))
		return;
	c->settings = xreallocarray(c->settings, c->nsettings + 1,
	    sizeof(*c->settings));
	s = &c->settings[c->nsettings++];
	s->kind = kind;
	s->name = xstrdup(name);
	s->v[BASE] = xstrdup_null(b);
	s->v[NEW] = xstrdup_null(n);
}

static const char *
option(const struct cmdline *cl, const char *key)
{
	for (size_t i = 0; i < cl->keys.n; i++)
		if (strcmp(cl->keys.v[i], key) == 0)
			return cl->vals.v[i];
	return NULL;
}

static const char *
base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash != NULL ? slash + 1 : path;
}

static void
diff_argv(struct compare *c, const struct launch_record *b,
    const struct launch_record *n)
{
	struct cmdline cb, cn;
	char num[32];
	size_t i;

	if (b->argv.n == 0 || n->argv.n == 0)
		return;
	differ(c, CS_COMMAND, "", base_name(b->argv.v[0]),
	    base_name(n->argv.v[0]));
	parse_cmdline(&b->argv, &cb);
	parse_cmdline(&n->argv, &cn);
	for (i = 0; i < cb.keys.n; i++)
		if (!listed(volatile_flags, cb.keys.v[i]))
			differ(c, CS_FLAG, cb.keys.v[i], cb.vals.v[i],
			    option(&cn, cb.keys.v[i]));
	for (i = 0; i < cn.keys.n; i++)
		if (!listed(volatile_flags, cn.keys.v[i]) &&
		    option(&cb, cn.keys.v[i]) == NULL)
			differ(c, CS_FLAG, cn.keys.v[i], NULL, cn.vals.v[i]);
	for (i = 0; i < cb.args.n || i < cn.args.n; i++) {
		snprintf(num, sizeof(num), "%zu", i + 1);
		differ(c, CS_ARG, num, i < cb.args.n ? cb.args.v[i] : NULL,
		    i < cn.args.n ? cn.args.v[i] : NULL);
	}
	free_cmdline(&cb);
	free_cmdline(&cn);
}

/*
 * NAME's value in R's environment: *known 0 when the launch did not
 * record it (a version of msprof-exec that consulted other variables).
 */
static const char *
env_value(const struct launch_record *r, const char *name, int *known)
{
	size_t len = strlen(name);

	*known = 1;
	for (size_t i = 0; i < r->env.n; i++)
		if (strncmp(r->env.v[i], name, len) == 0 &&
		    r->env.v[i][len] == '=')
			return r->env.v[i] + len + 1;
	*known = strv_has(&r->env_unset, name);
	return NULL;
}

/* The variable NAME=... or NAME of an environment list. */
static char *
env_name(const char *item)
{
	const char *eq = strchr(item, '=');

	return eq != NULL ? xstrndup(item, (size_t)(eq - item)) :
	    xstrdup(item);
}

/*
 * The variables of LIST (base's) that both launches recorded: a name
 * only one recorded is not known of the other.
 */
static void
diff_env_list(struct compare *c, const struct launch_record *b,
    const struct launch_record *n, const struct strv *list)
{
	const char *vb, *vn;
	int kb, kn;

	for (size_t i = 0; i < list->n; i++) {
		char *name = env_name(list->v[i]);

		vb = env_value(b, name, &kb);
		vn = env_value(n, name, &kn);
		if (kb && kn && !listed(volatile_env, name) &&
		    strncmp(name, "MSPROF_EXEC_", 12) != 0)
			differ(c, CS_ENV, name, vb, vn);
		free(name);
	}
}

static void
diff_env(struct compare *c, const struct launch_record *b,
    const struct launch_record *n)
{
	diff_env_list(c, b, n, &b->env);
	diff_env_list(c, b, n, &b->env_unset);
}

/* "S:E" of a launch's window, or NULL when it has none. */
static char *
window(const struct launch_record *r)
{
	if (r->step_start < 0 || r->step_end < 0)
		return NULL;
	return xasprintf("%d:%d", r->step_start, r->step_end);
}

static void
diff_profiling(struct compare *c, const struct launch_record *b,
    const struct launch_record *n)
{
	char *wb = window(b), *wn = window(n);

	if (b->level != NULL && n->level != NULL)
		differ(c, CS_PROFILING, "level", b->level, n->level);
	if (wb != NULL && wn != NULL)
		differ(c, CS_PROFILING, "steps", wb, wn);
	if (b->framework != NULL && n->framework != NULL)
		differ(c, CS_PROFILING, "framework", b->framework,
		    n->framework);
	free(wb);
	free(wn);
}

/* The launch a run's data came from: the first profiled, else the first. */
static const struct launch_record *
profiled_launch(const struct journal *j)
{
	for (size_t i = 0; i < j->n; i++)
		if (launch_profiled(&j->recs[i]))
			return &j->recs[i];
	return j->n > 0 ? &j->recs[0] : NULL;
}

void
compare_settings(struct compare *c, const char *base_session,
    const char *new_session)
{
	const char *session[2] = { base_session, new_session };
	const struct launch_record *rec[2];
	struct journal j[2];
	int k;

	c->settings_set = 1;
	for (k = BASE; k <= NEW; k++)
		if (session[k] == NULL) {
			c->settings_why = xasprintf(_("not known (no session): "
			    "%s %s was not run under msprof-exec, or its "
			    "msprof-exec_* directory is elsewhere"),
			    _(c->run[k].label), c->run[k].name);
			return;
		}
	for (k = BASE; k <= NEW; k++)
		journal_read(session[k], &j[k]);
	for (k = BASE; k <= NEW; k++)
		if ((rec[k] = profiled_launch(&j[k])) == NULL) {
			c->settings_why = xasprintf(_("not known: the session "
			    "of %s (%s) recorded no launch"), _(c->run[k].label),
			    session[k]);
			break;
		}
	if (c->settings_why == NULL) {
		diff_argv(c, rec[BASE], rec[NEW]);
		diff_env(c, rec[BASE], rec[NEW]);
		diff_profiling(c, rec[BASE], rec[NEW]);
	}
	journal_free(&j[BASE]);
	journal_free(&j[NEW]);
}

/* "not given", "not set" or the value ("given" for a flag alone). */
const char *
cmp_setting_value(const struct cmp_setting *s, int k)
{
	if (s->v[k] == NULL)
		return s->kind == CS_ENV ? _("not set") : _("not given");
	if (*s->v[k] == '\0' && s->kind == CS_FLAG)
		return _("given");
	return s->v[k];
}

void
cmp_settings_free(struct compare *c)
{
	for (size_t i = 0; i < c->nsettings; i++) {
		free(c->settings[i].name);
		free(c->settings[i].v[BASE]);
		free(c->settings[i].v[NEW]);
	}
	free(c->settings);
	free(c->settings_why);
}
