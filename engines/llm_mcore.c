/*
 * MindSpeed-LLM on Megatron (mcore): pretrain_gpt.py and the other
 * Megatron entries read --profile* options, appended after the entry.
 * Their steps are iterations: --profile-step-start S --profile-step-end E
 * collects iterations S to E - 1.
 */
#include <stdlib.h>
#include <string.h>

#include "common/argv.h"
#include "common/resume.h"
#include "rewrite.h"

/*
 * A MindSpeed-LLM profiling option and its values: the switches take none,
 * --profile-ranks a list, the others one.
 */
static int
profile_span(char *const *a)
{
	static const char *const switches[] = { "--profile",
	    "--profile-with-cpu", "--profile-with-memory", "--profile-with-stack",
	    "--profile-record-shapes", "--profile-data-simplification", NULL };

	if (strcmp(a[0], "--profile") != 0 && strncmp(a[0], "--profile-", 10) != 0 &&
	    strncmp(a[0], "--profile=", 10) != 0)
		return 0;
	for (int i = 0; switches[i] != NULL; i++)
		if (strcmp(a[0], switches[i]) == 0)
			return 1;
	return 1 + option_values(a, strncmp(a[0], "--profile-ranks", 15) == 0 ?
	    -1 : 1);
}

static void
existing(const struct launch *l, char *const argv[], char *const envp[],
    struct strv *out)
{
	option_settings(argv, l->script, profile_span, out);
}

/* The flags appended to the launch. */
static void
flags(const struct plan *p, const struct rewrite *r, struct strv *out)
{
	strv_push(out, "--profile");
	strv_push(out, "--profile-step-start");
	strv_pushf(out, "%d", r->step_start);
	strv_push(out, "--profile-step-end");
	strv_pushf(out, "%d", r->step_end);
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
	strv_push(out, r->save_path);
}

/*
 * A launch that resumes from a checkpoint at iteration I runs iterations
 * I + 1 on, and MindSpeed-LLM asserts that profile_step_start is greater
 * than I.  The default window moves to the same steps after I; a window
 * the user gave that starts at or before I is refused, with one that works.
 */
static int
resume_window(struct rewrite_ctx *c)
{
	const struct plan *p = c->plan;
	struct rewrite *r = c->out;
	struct resume res;
	char *why = NULL;
	int given = p->step_start != 0 || p->step_end != 0, i;

	if (resume_read(c->argv, c->launch->script + 1, NULL, &res,
	    &why) == -1) {
		if (!given)
			return rewrite_fail(c, why);
		free(why);	/* the user's window: theirs to place */
		return 0;
	}
	r->loaded = i = res.iteration;
	r->loaded_from = res.tracker;	/* taken */
	if (i == 0)
		return 0;
	if (given && r->step_start <= i)
		return rewrite_fail(c, xasprintf(_("the launch resumes from "
		    "iteration %d (%s), and MindSpeed-LLM profiles only the "
		    "steps after it (it stops with \"profile_step_start should "
		    "be greater than %d\"); give --steps %d:%d, or leave --steps "
		    "out for the steps just after it"), i, r->loaded_from, i,
		    i + r->step_start, i + r->step_end));
	if (!given) {
		r->step_start += i;
		r->step_end += i;
		strv_pushf(&r->notes, _("the launch resumes from iteration %d "
		    "(%s): the steps move to %d to %d, excluding %d"), i,
		    r->loaded_from, r->step_start, r->step_end, r->step_end);
	}
	return 0;
}

/* MindSpeed-LLM's --profile-save-path, whose default is ./profile_dir. */
static char *
own_save_path(const struct launch *l, char *const argv[], char *const envp[])
{
	const char *p = argv_last(argv, l->script + 1, "--profile-save-path");

	return xstrdup(p != NULL ? p : "./profile_dir");
}

static int
rewrite(struct rewrite_ctx *c)
{
	const struct plan *p = c->plan;
	int from = c->launch->script + 1, iters, rc, n;
	char *what, text[16];

	if (resume_window(c) == -1)
		return -1;
	rewrite_copy_argv(c);
	argv_drop(&c->out->argv, from, profile_span);
	n = rewrite_train_iters(c, count_option(c->argv, c->launch->script,
	    "--train-iters"));
	if (n > 0) {
		snprintf(text, sizeof(text), "%d", n);
		argv_set(&c->out->argv, from, "--train-iters", text);
	}
	flags(p, c->out, &c->out->argv);
	iters = count_option(c->out->argv.v, c->launch->script, "--train-iters");
	what = xasprintf("--train-iters %d", iters);
	rc = rewrite_window_check(c, iters, what);
	free(what);
	return rc;
}

/*
 * What MindSpeed-LLM does not let the plan set: it hard-codes the AI Core
 * metrics (PipeUtilization), always parses online and has no dynamic mode.
 */
void
mindspeed_llm_notes(const struct plan *p, struct strv *out)
{
	if (strcmp(p->aic_metrics, "PipeUtilization") != 0)
		strv_pushf(out, _("MindSpeed-LLM sets the AI Core metrics itself "
		    "(PipeUtilization): --aic-metrics %s is not applied"),
		    p->aic_metrics);
	if (!p->analyse)
		strv_push(out, _("MindSpeed-LLM always parses online: "
		    "--no-analyse is not applied"));
	if (strcmp(p->mode, "dynamic") == 0)
		strv_push(out, _("MindSpeed-LLM profiles a step window only: "
		    "--mode dynamic is not applied"));
}

const struct engine_ops llm_mcore_engine = {
	.name = "llm-mcore",
	.framework = "llm",
	.label = N_("MindSpeed-LLM, Megatron (mcore)"),
	.step_start = 2, .step_end = 4,
	.output = "./profiling_output",
	.base = STEPS_FROM_1,
	.schedule = SCHEDULE_MEGATRON,
	.window_only = 1,
	.always_parses = 1,
	.existing = existing,
	.own_save_path = own_save_path,
	.rewrite = rewrite,
	.notes = mindspeed_llm_notes,
};
