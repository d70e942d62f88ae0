/*
 * Rewriting a launch: find the training script behind the launcher's own
 * options, then append the profiling flags, which the launcher passes on
 * to the script untouched.
 */
#include <stdlib.h>
#include <string.h>

#include "../shim/contract.h"
#include "rewrite.h"

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

static int
is_profile_opt(const char *a)
{
	return strcmp(a, "--profile") == 0 || strncmp(a, "--profile-", 10) == 0 ||
	    strncmp(a, "--profile=", 10) == 0;
}

int
launch_existing(const struct launch *l, char *const argv[], struct strv *found)
{
	if (l->script < 0)
		return 0;
	for (int i = l->script + 1; argv[i] != NULL; i++)
		if (is_profile_opt(argv[i]))
			strv_push(found, argv[i]);
	return found->n > 0;
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

/* Is A a value of a list option (an integer, possibly negative)? */
static int
is_int(const char *a)
{
	if (*a == '-')
		a++;
	return *a != '\0' && strspn(a, "0123456789") == strlen(a);
}

/* Index after the option at I and its values. */
static int
skip_profile_opt(char *const argv[], int i)
{
	const char *a = argv[i];
	static const char *const one[] = { "--profile-step-start",
	    "--profile-step-end", "--profile-level", "--profile-export-type",
	    "--profile-save-path" };

	if (strchr(a, '=') != NULL)
		return i + 1;
	if (strcmp(a, "--profile-ranks") == 0) {
		while (argv[i + 1] != NULL && is_int(argv[i + 1]))
			i++;
		return i + 1;
	}
	for (size_t k = 0; k < sizeof(one) / sizeof(*one); k++)
		if (strcmp(a, one[k]) == 0 && argv[i + 1] != NULL)
			return i + 2;
	return i + 1;
}

/* Copy ARGV, without profiling options when DROP, --train-iters set. */
static void
copy_args(const struct plan *p, const struct launch *l, char *const argv[],
    int drop, struct strv *out)
{
	int i = 0, iters_done = p->train_iters <= 0;

	while (argv[i] != NULL) {
		const char *a = argv[i];

		if (i > l->script && drop && is_profile_opt(a)) {
			i = skip_profile_opt(argv, i);
			continue;
		}
		if (i > l->script && p->train_iters > 0 &&
		    (strcmp(a, "--train-iters") == 0 ||
		    strncmp(a, "--train-iters=", 14) == 0)) {
			if (strchr(a, '=') != NULL)
				strv_pushf(out, "--train-iters=%d", p->train_iters);
			else {
				strv_push(out, a);
				strv_pushf(out, "%d", p->train_iters);
				i += argv[i + 1] != NULL;
			}
			iters_done = 1;
			i++;
			continue;
		}
		strv_push(out, a);
		i++;
	}
	if (!iters_done) {
		strv_push(out, "--train-iters");
		strv_pushf(out, "%d", p->train_iters);
	}
}

int
launch_rewrite(const struct plan *p, const struct launch *l,
    char *const argv[], struct strv *out, char **why)
{
	struct strv found = { 0 };
	int existing = launch_existing(l, argv, &found), rc = -1;
	char *list;

	if (l->engine != ENGINE_LLM_MCORE)
		*why = xasprintf(_("engine %s is not supported"),
		    engine_name(l->engine));
	else if (strcmp(p->level, "level_none") == 0 &&
	    strcmp(p->export_type, "db") == 0)
		*why = xstrdup(_("--level level_none cannot be combined with "
		    "--export-type db"));
	else if (existing && p->existing == EXISTING_ASK) {
		list = shell_join(found.v);
		*why = xasprintf(_("the launch already sets profiling options "
		    "(%s); choose with --existing keep (use them) or --existing "
		    "override (use msprof-exec's)"), list);
		free(list);
	} else {
		copy_args(p, l, argv,
		    existing && p->existing == EXISTING_OVERRIDE, out);
		if (!existing || p->existing == EXISTING_OVERRIDE)
			llm_flags(p, out);
		rc = 0;
	}
	strv_free(&found);
	return rc;
}
