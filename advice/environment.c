/*
 * Rules of the launch's environment that no reading of the data alone can
 * give: a measurement taken with every kernel launch made synchronous, or
 * with CANN logging at debug or info.  The value comes from the ranks'
 * profiler_metadata.json (torch_npu records these variables), else from
 * the session's journal; without either nothing is said.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rules.h"

/* The median share of Free in the step over the ranks named in F. */
static double
free_share(const struct summary *s, const struct finding *f)
{
	double *v = xcalloc(f->nwho + 1, sizeof(*v)), m;
	size_t i, n = 0;

	for (i = 0; i < f->nwho; i++) {
		const struct rank_data *r = &s->r[f->who[i]];

		if (r->steps_why == NULL && r->mean.step_time > 0)
			v[n++] = r->mean.free / r->mean.step_time;
	}
	m = median(v, n);
	free(v);
	return m;
}

/*
 * A finding naming the ranks whose NAME is BAD (BAD decides on the value),
 * each rank's value from its metadata, else the launch's; NULL when none.
 * The value found in *VALUE (the caller's to free).
 */
static struct finding *
env_finding(const struct rule *rule, struct advice *a, const char *name,
    int (*bad)(const char *), char **value)
{
	const struct summary *s = a->s;
	char *launch = launch_env(a, name);
	struct finding *f = NULL;
	size_t i;

	*value = NULL;
	for (i = 0; i < s->nr; i++) {
		const char *v = rank_env(&s->r[i], name);

		if (v == NULL)
			v = launch;
		if (v == NULL || !bad(v))
			continue;
		if (f == NULL) {
			f = finding_new(a, rule);
			*value = xstrdup(v);
		}
		finding_who(f, i);
	}
	free(launch);
	return f;
}

static int
blocking(const char *v)
{
	return strcmp(v, "1") == 0;
}

static void
check_launch_blocking(const struct rule *rule, struct advice *a)
{
	char *v;
	struct finding *f = env_finding(rule, a, "ASCEND_LAUNCH_BLOCKING",
	    blocking, &v);
	double fs;

	if (f == NULL)
		return;
	fs = free_share(a->s, f);
	finding_text(f, _("the launch ran with ASCEND_LAUNCH_BLOCKING=%s: each "
	    "kernel launch waits for the kernel to finish and the dispatch "
	    "queue is off, so this measures a debugging configuration (Free "
	    "is %.1f %% of the step, median)"), v, 100 * fs);
	finding_figure(f, "free_share_median", fs);
	free(v);
}

static int
verbose(const char *v)
{
	char *end;
	long n = strtol(v, &end, 10);

	return end != v && n >= 0 && n < 3;
}

static void
check_log_level(const struct rule *rule, struct advice *a)
{
	static const char *const level[] = { N_("debug"), N_("info"),
	    N_("warning") };
	char *v;
	struct finding *f = env_finding(rule, a, "ASCEND_GLOBAL_LOG_LEVEL",
	    verbose, &v);
	double fs;

	if (f == NULL)
		return;
	fs = free_share(a->s, f);
	finding_text(f, _("the launch ran with ASCEND_GLOBAL_LOG_LEVEL=%s (%s): "
	    "CANN's logging slows the host (Free is %.1f %% of the step, "
	    "median)"), v, _(level[atoi(v)]), 100 * fs);
	finding_figure(f, "log_level", atof(v));
	finding_figure(f, "free_share_median", fs);
	free(v);
}

static const struct setting *const blocking_settings[] = {
	&set_launch_blocking, NULL,
};
static const struct setting *const log_settings[] = {
	&set_log_level, NULL,
};

static const struct rule rules[] = {
	{ "launch-blocking", "ASCEND_LAUNCH_BLOCKING of the launch", 1,
	    "set to 1",
	    N_("measure without it: it is for finding the operator that "
	    "fails, and makes every step host-bound"), blocking_settings,
	    check_launch_blocking },
	{ "debug-logging", "ASCEND_GLOBAL_LOG_LEVEL of the launch", 3,
	    "below 3 (error)", NULL, log_settings, check_log_level },
};

const struct family family_environment = {
	"environment", rules, sizeof(rules) / sizeof(rules[0]),
};
