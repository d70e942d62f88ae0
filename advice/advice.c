/*
 * The advice engine: every rule of every family over a finished summary,
 * then for each finding the state of each setting that addresses it in
 * the profiled launch.  What a rule looks at and when it fires is the
 * rule's (rules.h, one file a family); how the findings read is the
 * report's (report/findings.h).
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "rules.h"

/* The families, in the order their findings are printed. */
static const struct family *const families[] = {
	&family_steps, &family_operators, &family_communication,
	&family_memory, &family_environment, &family_idle,
};
#define NFAMILIES	(sizeof(families) / sizeof(families[0]))

void
advice_env_names(struct strv *out)
{
	const struct setting *const *set;
	size_t f, r;

	for (f = 0; f < NFAMILIES; f++)
		for (r = 0; r < families[f]->n; r++)
			for (set = families[f]->rules[r].settings;
			    set != NULL && *set != NULL; set++)
				if ((*set)->kind == SET_ENV &&
				    !strv_has(out, (*set)->name))
					strv_push(out, (*set)->name);
}

static const char *
family_of(const struct rule *rule)
{
	size_t f;

	for (f = 0; f < NFAMILIES; f++)
		if (rule >= families[f]->rules &&
		    rule < families[f]->rules + families[f]->n)
			return families[f]->name;
	return "";
}

struct finding *
finding_new(struct advice *a, const struct rule *rule)
{
	struct findings *fs = a->found;
	struct finding *f;

	fs->f = xreallocarray(fs->f, fs->n + 1, sizeof(*fs->f));
	f = &fs->f[fs->n++];
	memset(f, 0, sizeof(*f));
	f->rule = rule;
	f->family = family_of(rule);
	return f;
}

void
finding_who(struct finding *f, size_t who)
{
	f->who = xreallocarray(f->who, f->nwho + 1, sizeof(*f->who));
	f->who[f->nwho++] = who;
}

struct finding *
finding_over(struct advice *a, const struct rule *rule,
    double (*share)(const struct rule *, const struct summary *, size_t),
    int above, double *most, size_t *at)
{
	struct finding *f = NULL;
	double v;

	*most = 0;
	*at = 0;
	for (size_t i = 0; i < a->s->nr; i++) {
		v = share(rule, a->s, i);
		if (above ? !(v > rule->threshold) : !(v >= rule->threshold))
			continue;
		if (f == NULL)
			f = finding_new(a, rule);
		finding_who(f, i);
		if (v > *most) {
			*most = v;
			*at = i;
		}
	}
	return f;
}

void
finding_text(struct finding *f, const char *fmt, ...)
{
	va_list ap;

	free(f->text);
	va_start(ap, fmt);
	if (vasprintf(&f->text, fmt, ap) < 0)
		f->text = NULL;
	va_end(ap);
	if (f->text == NULL)
		f->text = xstrdup("");
}

void
finding_note(struct finding *f, const char *fmt, ...)
{
	va_list ap;

	free(f->note);
	va_start(ap, fmt);
	if (vasprintf(&f->note, fmt, ap) < 0)
		f->note = NULL;
	va_end(ap);
}

void
finding_figure(struct finding *f, const char *key, double v)
{
	if (f->nfig < FINDING_FIGURES && isfinite(v)) {
		f->fig[f->nfig].key = key;
		f->fig[f->nfig++].value = v;
	}
}

void
finding_settings(struct finding *f, const struct setting *const *settings)
{
	f->own = settings;
	f->has_own = 1;
}

/*
 * A parallel size of the job: the data's layout (distributed_args), else
 * the launch's flag FLAG; 0 when neither says.
 */
static int
job_size(const struct advice *a, int data, const char *flag)
{
	return a->lay.known && data > 0 ? data : launch_size(a, flag);
}

/*
 * Is SET for this job's layout (an MoE setting where experts are split,
 * a context-parallel one with context parallel)?  Yes when the layout is
 * not known from the data nor from the launch's flags.
 */
static int
for_layout(const struct advice *a, const struct setting *set)
{
	int ep = job_size(a, a->lay.ep, "--expert-model-parallel-size");
	int cp = job_size(a, a->lay.cp, "--context-parallel-size");
	int tp = job_size(a, a->lay.tp, "--tensor-model-parallel-size");

	if ((set->when & WHEN_MOE) && ep > 0 && ep <= 1)
		return 0;
	if ((set->when & WHEN_CP) && cp > 0 && cp <= 1)
		return 0;
	if ((set->when & WHEN_TP) && tp > 0 && tp <= 1)
		return 0;
	return 1;
}

/* Is SET for the job's framework (all of them when it is not known)? */
static int
for_framework(const struct advice *a, const struct setting *set)
{
	switch (set->scope) {
	case SCOPE_MEGATRON:
		return a->fw == FW_UNKNOWN || a->fw == FW_MEGATRON;
	case SCOPE_MM_FSDP2:
		return a->fw == FW_UNKNOWN || a->fw == FW_MM_FSDP2;
	case SCOPE_DDP:
		return a->fw == FW_UNKNOWN || a->fw == FW_TORCH ||
		    a->fw == FW_DDP;
	case SCOPE_DEEPSPEED:
		return a->fw == FW_UNKNOWN || a->fw == FW_TORCH ||
		    a->fw == FW_SHARDED;
	default:
		return 1;
	}
}

/* Does F list SET already? */
static int
listed(const struct finding *f, const struct setting *set)
{
	for (size_t i = 0; i < f->nset; i++)
		if (f->set[i].setting == set)
			return 1;
	return 0;
}

/* A setting the launch has on that the training refuses SET with. */
static const struct setting *
refused_with(const struct advice *a, const struct setting *set)
{
	const struct setting *const *c = setting_conflicts(set, set->value);
	char *detail;
	int applies, on;

	for (; c != NULL && *c != NULL; c++) {
		on = setting_state(a, *c, &detail, &applies) == STATE_ON &&
		    applies;
		free(detail);
		if (on)
			return *c;
	}
	return NULL;
}

/*
 * SET, when it applies, with the launch's state of it, into F; said to be
 * refused with a setting the launch has.
 */
static void
add_setting(const struct advice *a, struct finding *f,
    const struct setting *set)
{
	const struct setting *against;
	struct finding_setting *fs;
	enum setting_state st;
	char *detail;
	int applies;

	if (listed(f, set) || !for_layout(a, set) || !for_framework(a, set))
		return;
	st = setting_state(a, set, &detail, &applies);
	if (!applies) {
		free(detail);
		return;
	}
	if (st != STATE_ON && (against = refused_with(a, set)) != NULL) {
		free(detail);
		detail = xasprintf(_("refused with %s, which the launch has"),
		    against->name);
	}
	f->set = xreallocarray(f->set, f->nset + 1, sizeof(*f->set));
	fs = &f->set[f->nset++];
	fs->setting = set;
	fs->state = st;
	fs->detail = detail;
}

/*
 * Each setting of F's rule that applies, with the launch's state of it;
 * then what each needs at the value advised (the training refuses it, or
 * it does nothing, without them), so that the launch's state of those
 * shows too.
 */
static void
settings_of(const struct advice *a, struct finding *f)
{
	const struct setting *const *set, *const *need;
	size_t i, n;

	for (set = f->has_own ? f->own : f->rule->settings;
	    set != NULL && *set != NULL; set++)
		add_setting(a, f, *set);
	for (i = 0, n = f->nset; i < n; i++) {
		need = setting_needs(f->set[i].setting,
		    f->set[i].setting->value);
		for (; need != NULL && *need != NULL; need++)
			add_setting(a, f, *need);
	}
}

/* Does any rank have a step breakdown or operators for the rules? */
static int
any_data(const struct summary *s)
{
	for (size_t i = 0; i < s->nr; i++)
		if (s->r[i].steps_why == NULL || s->r[i].ops != NULL)
			return 1;
	return 0;
}

struct findings *
advice_run(const struct summary *s, const struct advice_in *in)
{
	struct findings *fs = xcalloc(1, sizeof(*fs));
	struct advice a = { .s = s, .in = *in, .found = fs };
	size_t f, r;

	if (s->nr == 0) {
		fs->why = xstrdup(_("no *_ascend_pt rank directory"));
		return fs;
	}
	if (s->opts.steps_ops_only) {
		fs->why = xstrdup(_("not read (steps and operators only)"));
		return fs;
	}
	summary_layout(s, &a.lay);
	a.fw = fs->fw = job_framework(&a);
	for (f = 0; f < NFAMILIES; f++)
		for (r = 0; r < families[f]->n; r++)
			families[f]->rules[r].check(&families[f]->rules[r], &a);
	for (f = 0; f < fs->n; f++)
		settings_of(&a, &fs->f[f]);
	fs->no_data = fs->n == 0 && !any_data(s);
	return fs;
}

void
advice_free(struct findings *fs)
{
	size_t i, k;

	if (fs == NULL)
		return;
	for (i = 0; i < fs->n; i++) {
		struct finding *f = &fs->f[i];

		free(f->who);
		free(f->text);
		free(f->note);
		for (k = 0; k < f->nset; k++)
			free(f->set[k].detail);
		free(f->set);
	}
	free(fs->f);
	free(fs->why);
	free(fs);
}
