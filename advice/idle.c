/*
 * Rules of the host while the device is idle, from the timeline
 * (summary/idle.c, timeline.h): a synchronisation in the user's code
 * (named by its file and line when the data has call stacks), operator
 * compilation, the data loader, Python's garbage collector, and launching
 * kernels one by one more slowly than the device runs them.  The checks
 * msprof-analyze's advisor makes on the same timeline
 * (advisor/analyzer/schedule/ and dataloader/) have these thresholds,
 * used here: a step's dataloader time above 10,000 us
 * (dataloader.yaml), GC events of 1,000 us or more (gc.yaml), free time
 * of 200,000 us or more with almost no host event (conjectured_gc.yaml;
 * timeline.h), and operator compilation reported from 20
 * aclopCompileAndExecute calls on (MAX_OP_COMPILE_NUM).  It names no
 * line of the user's code; these rules do.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "summary/timeline.h"
#include "rules.h"

#define DATALOADER_US	10000.0	/* a step's loading (advisor) */
#define GC_US		1000.0	/* a step's collections (advisor) */

/* What to change in the code for a call site that synchronises. */
static const char *
sync_remedy(const struct tl_frame *f)
{
	if (f->formats)
		return _("formats a tensor each step: log every N steps, or "
		    "keep the value on the device and format it only when "
		    "printed");
	if (f->to_host)
		return _("copies a tensor to the host each step: do it every N "
		    "steps, or keep the computation on the device");
	return _("reads a value back from the device each step (.item(), "
	    ".cpu()): read it every N steps, or keep it on the device");
}

static void
check_sync(const struct rule *rule, struct advice *a)
{
	const struct summary *s = a->s;
	const struct tl_result *r;
	const struct tl_frame *fr;
	struct finding *f;
	double most, all;
	size_t at;
	char lab[LABEL_MAX];

	at = idle_most(s, TL_SYNC, &most, &all);
	if (!(most >= rule->threshold))
		return;
	r = idle_of(s, at);
	f = finding_new(a, rule);
	finding_who(f, at);
	rank_label(&s->r[at], lab, sizeof(lab));
	if (r->nframes == 0 || !(idle_share(r, r->frames[0].host_us) >=
	    rule->threshold)) {
		finding_text(f, _("synchronisations with the device "
		    "(aten::item, aclrtSynchronize*) take %.1f ms of a %.1f ms "
		    "step (%s; %.1f %% over all ranks; threshold %.0f %%)"),
		    r->host_us[TL_SYNC] / 1e3 / r->nsteps,
		    r->step_us / 1e3 / r->nsteps, lab, 100 * all,
		    100 * rule->threshold);
		if (!r->stacks)
			finding_note(f, "%s", _("the timeline has no call "
			    "stacks: collect them with msprof-exec --with "
			    "stack to name the line"));
	} else {
		fr = &r->frames[0];
		finding_text(f, _("%s %s (synchronisation with the device: "
		    "%.1f ms of a %.1f ms step, %s; threshold %.0f %%)"),
		    fr->where, sync_remedy(fr), fr->host_us / 1e3 / r->nsteps,
		    r->step_us / 1e3 / r->nsteps, lab, 100 * rule->threshold);
		finding_figure(f, "site_share", idle_share(r, fr->host_us));
	}
	finding_figure(f, "share_most", most);
	finding_figure(f, "share_all", all);
}

/* Cause C over RULE's threshold of the step on the rank where it is most. */
static struct finding *
over_share(const struct rule *rule, struct advice *a, int c, size_t *at,
    double *most)
{
	double all;
	struct finding *f;

	*at = idle_most(a->s, c, most, &all);
	if (!(*most >= rule->threshold))
		return NULL;
	f = finding_new(a, rule);
	finding_who(f, *at);
	finding_figure(f, "share_most", *most);
	finding_figure(f, "share_all", all);
	return f;
}

static void
check_compile(const struct rule *rule, struct advice *a)
{
	const struct tl_result *r;
	struct finding *f;
	double most;
	size_t at;
	char lab[LABEL_MAX];

	if ((f = over_share(rule, a, TL_COMPILE, &at, &most)) == NULL)
		return;
	r = idle_of(a->s, at);
	finding_text(f, _("operators are compiled while the step runs "
	    "(aclopCompile*: %.1f ms of a %.1f ms step, %s; threshold %.0f "
	    "%%)"), r->host_us[TL_COMPILE] / 1e3 / r->nsteps,
	    r->step_us / 1e3 / r->nsteps,
	    rank_label(&a->s->r[at], lab, sizeof(lab)),
	    100 * rule->threshold);
}

/* Per step, over the ranks: the most of cause C, in us. */
static double
per_step_most(const struct summary *s, int c, size_t *at)
{
	double most = 0;
	size_t i;

	*at = 0;
	for (i = 0; i < s->nr; i++) {
		const struct tl_result *r = idle_of(s, i);

		if (r != NULL && r->nsteps > 0 &&
		    r->host_us[c] / r->nsteps > most) {
			most = r->host_us[c] / r->nsteps;
			*at = i;
		}
	}
	return most;
}

static void
check_dataloader(const struct rule *rule, struct advice *a)
{
	struct finding *f;
	size_t at;
	double us = per_step_most(a->s, TL_DATALOADER, &at);
	char lab[LABEL_MAX];

	if (!(us > rule->threshold))
		return;
	f = finding_new(a, rule);
	finding_who(f, at);
	finding_text(f, _("the data loader takes %.1f ms a step (%s; threshold "
	    "%.0f ms)"), us / 1e3, rank_label(&a->s->r[at], lab, sizeof(lab)),
	    rule->threshold / 1e3);
	finding_figure(f, "dataloader_ms", us / 1e3);
}

static void
check_gc(const struct rule *rule, struct advice *a)
{
	const struct summary *s = a->s;
	struct finding *f;
	size_t at, i, gaps = 0;
	double us = per_step_most(s, TL_GC, &at), gap_us = 0;
	char lab[LABEL_MAX];

	for (i = 0; i < s->nr; i++) {
		const struct tl_result *r = idle_of(s, i);

		if (r != NULL && r->gc_gap_us > gap_us) {
			gap_us = r->gc_gap_us;
			gaps = i;
		}
	}
	if (us >= rule->threshold) {
		f = finding_new(a, rule);
		finding_who(f, at);
		finding_text(f, _("Python's garbage collector runs %.1f ms a "
		    "step (%s; threshold %.0f ms)"), us / 1e3,
		    rank_label(&s->r[at], lab, sizeof(lab)),
		    rule->threshold / 1e3);
	} else if (gap_us > 0) {
		f = finding_new(a, rule);
		finding_who(f, gaps);
		finding_text(f, _("the device is idle %.1f ms in gaps of %.0f "
		    "ms or more with almost no host event (%s): likely "
		    "Python's garbage collector"), gap_us / 1e3,
		    TL_GC_GAP_NS / 1e6,
		    rank_label(&s->r[gaps], lab, sizeof(lab)));
	}
}

static void
check_launch(const struct rule *rule, struct advice *a)
{
	const struct summary *s = a->s;
	const struct tl_result *r;
	struct finding *f;
	double most = NAN;
	size_t i, at = 0;
	char lab[LABEL_MAX];

	for (i = 0; i < s->nr; i++) {
		r = idle_of(s, i);
		/* a captured graph is launched whole: no dispatch to tune */
		if (r != NULL && r->count[TL_GRAPH] > 0)
			return;
		if (r != NULL && (isnan(most) ||
		    idle_share(r, r->short_us) > most)) {
			most = idle_share(r, r->short_us);
			at = i;
		}
	}
	if (!(most >= rule->threshold))
		return;
	r = idle_of(s, at);
	f = finding_new(a, rule);
	finding_who(f, at);
	finding_text(f, _("the device waits between kernels for the host to "
	    "launch the next: %.1f ms of a %.1f ms step in %zu gaps below "
	    "%.0f us (%s; threshold %.0f %%)"), r->short_us / 1e3 / r->nsteps,
	    r->step_us / 1e3 / r->nsteps, r->nshort, TL_SHORT_GAP_NS / 1e3,
	    rank_label(&s->r[at], lab, sizeof(lab)), 100 * rule->threshold);
	finding_figure(f, "share_most", most);
}

static const struct setting *const launch_settings[] = {
	&set_task_queue, NULL,
};

static const struct rule rules[] = {
	{ "host-sync", "the host's synchronisations in the step (aten::item, "
	    "_local_scalar_dense, aclrtSynchronize*) and the user's call site "
	    "of each (timeline, call stacks)", 0.10, "10 % of the step",
	    N_("read values back from the device less often"), NULL,
	    check_sync },
	{ "op-compile", "aclopCompile* in the step (timeline)", 0.10,
	    "10 % of the step",
	    N_("in your code: "
	    "torch_npu.npu.set_compile_mode(jit_compile=False)"),
	    NULL, check_compile },
	{ "slow-dataloader", "the data loader's time in the step (timeline; "
	    "msprof-analyze advisor, dataloader.yaml)", DATALOADER_US,
	    "10 ms a step",
	    N_("more DataLoader workers (num_workers), pin_memory=True, "
	    "faster storage for the data"), NULL, check_dataloader },
	{ "gc", "Python's garbage collection in the step, and long idle gaps "
	    "with no host event (timeline; msprof-analyze advisor, gc.yaml, "
	    "conjectured_gc.yaml)", GC_US, "1 ms a step; gaps of 200 ms",
	    N_("in your code: gc.freeze() after building the model, or "
	    "gc.disable() with gc.collect() every N steps"), NULL, check_gc },
	{ "launch-bound", "idle gaps between kernels below 100 us with no "
	    "other cause (timeline)", 0.10, "10 % of the step",
	    N_("launch fewer, larger kernels: fused operators, or a captured "
	    "graph"), launch_settings, check_launch },
};

const struct family family_idle = {
	"idle", rules, sizeof(rules) / sizeof(rules[0]),
};
