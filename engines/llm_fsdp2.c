/*
 * MindSpeed-LLM on FSDP2: train_fsdp2.py CONFIG.yaml [--training.KEY V].
 * The options after the YAML win over it, so every profiling option is
 * appended explicitly.  Steps count from 0.
 */
#include <stdlib.h>
#include <string.h>

#include "common/argv.h"
#include "common/yamldoc.h"
#include "paths.h"
#include "rewrite.h"

#define SAVE_DEFAULT	"./profile"	/* training.profile_save_path's */

/* --training.profile* and its value (a list for profile_ranks). */
static int
profile_span(char *const *a)
{
	const char *o = a[0];

	if (strncmp(o, "--training.profile", 18) != 0 ||
	    (o[18] != '\0' && o[18] != '_' && o[18] != '='))
		return 0;
	return 1 + option_values(a, strncmp(o, "--training.profile_ranks", 24) ==
	    0 ? -1 : 1);
}

/*
 * training.profile of the YAML into EXISTING (unless NULL); returns its
 * training.max_steps (-1: none), or -2 with *why when it cannot be read.
 */
static int
yaml_training(const char *cfg, struct strv *existing, char **why)
{
	struct ydoc y;
	const char *v;
	int training, max_steps;

	if (ydoc_load(&y, cfg, why) == -1)
		return -2;
	training = ydoc_get(&y, ydoc_root(&y), "training");
	v = ydoc_scalar(&y, ydoc_get(&y, training, "profile"));
	if (existing != NULL && yaml_true(v))
		strv_pushf(existing, _("training.profile: %s in %s"), v, cfg);
	max_steps = count_value(ydoc_scalar(&y, ydoc_get(&y, training,
	    "max_steps")));
	ydoc_free(&y);
	return max_steps;
}

static void
existing(const struct launch *l, char *const argv[], char *const envp[],
    struct strv *out)
{
	const char *cfg = yaml_argument(argv, l->script);
	char *why = NULL;

	if (cfg != NULL)
		yaml_training(cfg, out, &why);
	free(why);
	option_settings(argv, l->script, profile_span, out);
}

static void
push_bool(struct strv *v, const char *opt, int on)
{
	strv_push(v, opt);
	strv_push(v, on ? "true" : "false");
}

/* Every option explicit: they win over the YAML. */
static void
flags(const struct plan *p, const struct rewrite *r, struct strv *out)
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

/*
 * --training.profile_save_path on the command line, which wins over the
 * YAML's training.profile_save_path, else the default; NULL when the YAML
 * cannot be read.
 */
static char *
own_save_path(const struct launch *l, char *const argv[], char *const envp[])
{
	const char *v = argv_last(argv, l->script + 1,
	    "--training.profile_save_path");

	if (v != NULL && *v != '\0')	/* an empty option is no path */
		return xstrdup(v);
	return yaml_setting(yaml_argument(argv, l->script),
	    "training.profile_save_path", SAVE_DEFAULT);
}

static int
rewrite(struct rewrite_ctx *c)
{
	const struct plan *p = c->plan;
	const char *cfg = yaml_argument(c->argv, c->launch->script);
	int from = c->launch->script + 1, max_steps = -1, rc, n;
	char *what, text[16];

	if (cfg != NULL && (max_steps = yaml_training(cfg, NULL, c->why)) == -2)
		return -1;
	rewrite_copy_argv(c);
	argv_drop(&c->out->argv, from, profile_span);
	if ((n = count_option(c->argv, c->launch->script,
	    "--training.max_steps")) > 0)
		max_steps = n;
	if ((n = rewrite_train_iters(c, max_steps)) > 0) {
		snprintf(text, sizeof(text), "%d", n);
		argv_set(&c->out->argv, from, "--training.max_steps", text);
	}
	flags(p, c->out, &c->out->argv);
	if (count_option(c->out->argv.v, c->launch->script,
	    "--training.max_steps") > 0)
		max_steps = count_option(c->out->argv.v, c->launch->script,
		    "--training.max_steps");
	what = xasprintf("training.max_steps %d", max_steps);
	rc = rewrite_window_check(c, max_steps, what);
	free(what);
	return rc;
}

/*
 * The model, tokenizer and data the training loads before its first
 * step (its options win over its YAML).
 */
static void
input_paths(const struct launch *l, char *const argv[], struct strv *missing)
{
	static const char *const keys[] = { "model.model_name_or_path",
	    "model.tokenizer_name_or_path", "data.dataset", NULL };

	paths_check_settings(l, argv, keys, 1, missing);
}

const struct engine_ops llm_fsdp2_engine = {
	.name = "llm-fsdp2",
	.framework = "llm",
	.label = N_("MindSpeed-LLM, FSDP2"),
	.step_start = 2, .step_end = 4,
	.output = "./profiling_output",
	.base = STEPS_FROM_0,
	.schedule = SCHEDULE_WARM_ONE,
	.yaml_first = 1,
	.window_only = 1,
	.always_parses = 1,
	.existing = existing,
	.own_save_path = own_save_path,
	.rewrite = rewrite,
	.notes = mindspeed_llm_notes,
	.input_paths = input_paths,
};
