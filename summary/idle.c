/*
 * The device's idle time and its causes: what each rank's host was doing
 * while the device waited in the profiled steps, read from the timeline
 * (trace_view.json, or the db export's PYTORCH_API, CANN_API and TASK;
 * timeline.h).  Each cause has its host time and the device's idle time
 * under it, as a share of the step, on the rank where it is largest and
 * over all ranks; a synchronisation has the user's call sites that made
 * it, from the call stacks (with_stack).  The ranks are read on the
 * workers (prepare).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "idle.h"
#include "model.h"
#include "timeline.h"

const char *const idle_cause_name[TL_NCAUSE] = {
	N_("synchronisation"), N_("operator compilation"),
	N_("garbage collector"), N_("data loader"), N_("graph launch"),
};

static void
idle_rank_free(void *p)
{
	struct idle_rank *x = p;

	tl_result_free(x->r);
	free(x->why);
	free(x);
}

static const struct idle_rank *
idle_rank_of(const struct rank_data *rd)
{
	static const struct idle_rank none;
	const struct idle_rank *x = rank_own(rd, &kind_idle);

	return x != NULL ? x : &none;
}

const struct idle_rank *
idle_rank_at(const struct summary *s, size_t i)
{
	return idle_rank_of(&s->r[i]);
}

const struct tl_result *
idle_of(const struct summary *s, size_t i)
{
	if (summary_state(s, &kind_idle) == NULL)
		return NULL;
	return idle_rank_of(&s->r[i])->r;
}

static void *
idle_init(struct summary *s)
{
	return xcalloc(1, sizeof(struct idle));
}

static void
read_text(struct rank_data *rd, struct idle_rank *x, const char *path)
{
	struct timeline *t = tl_new();
	const char *reason;
	char *why;

	x->source = "trace_view.json";
	if (trace_view_read(path, t, &why, &reason) < 0) {
		tl_abort(t);
		rank_left_out(rd, path, reason, why);
		x->why = why;
		return;
	}
	if ((x->r = tl_finish(t)) == NULL)
		x->why = xasprintf(_("%s: no ProfilerStep in the timeline"),
		    path);
}

static void
read_db(struct idle_rank *x, struct db *db)
{
	struct timeline *t = tl_new();
	char *why;

	x->source = "PYTORCH_API, CANN_API, TASK";
	if (timeline_db_read(db, t, &why) < 0) {
		tl_abort(t);
		x->why = why;
		return;
	}
	if ((x->r = tl_finish(t)) == NULL)
		x->why = xasprintf(_("%s: no ProfilerStep in the timeline"),
		    db_path(db));
}

static void
idle_prepare(const struct summary *s, struct rank_data *rd,
    struct rank_files *rf)
{
	struct idle_rank *x = xcalloc(1, sizeof(*x));
	char *p = rank_file(rf, "trace_view.json");
	struct db *db;

	rank_own_set(rd, &kind_idle, x, idle_rank_free);
	if (p != NULL)
		read_text(rd, x, p);
	else if ((db = rank_profiler_db(rf)) != NULL)
		read_db(x, db);
	free(p);
}

static void
idle_rank(struct summary *s, void *state, struct rank_data *rd,
    struct rank_files *rf)
{
	struct idle *m = state;

	m->made += idle_rank_of(rd)->r != NULL;
}

static char *
idle_finish(struct summary *s, void *state)
{
	struct idle *m = state;
	size_t i;

	if (m->made > 0)
		return NULL;
	for (i = 0; i < s->nr; i++)
		if (idle_rank_of(&s->r[i])->why != NULL)
			return xasprintf(_("no rank has a timeline with steps "
			    "(%s: %s)"), s->r[i].name,
			    idle_rank_of(&s->r[i])->why);
	return xstrdup(_("no trace_view.json nor ascend_pytorch_profiler "
	    "db: no timeline"));
}

double
idle_share(const struct tl_result *r, double us)
{
	return r != NULL && r->step_us > 0 ? us / r->step_us : NAN;
}

/*
 * The rank whose host spends the largest share of its step in cause C,
 * and the share over all ranks (their host time over their step time).
 */
size_t
idle_most(const struct summary *s, int c, double *most, double *all)
{
	double host = 0, step = 0;
	size_t i, at = 0;

	*most = NAN;
	for (i = 0; i < s->nr; i++) {
		const struct tl_result *r = idle_of(s, i);

		if (r == NULL)
			continue;
		host += r->host_us[c];
		step += r->step_us;
		if (isnan(*most) || idle_share(r, r->host_us[c]) > *most) {
			*most = idle_share(r, r->host_us[c]);
			at = i;
		}
	}
	*all = step > 0 ? host / step : NAN;
	return at;
}

static void
idle_free(void *state)
{
	free(state);
}

const struct kind kind_idle = {
	"idle", N_("Device idle and what the host did (timeline)"),
	idle_init, idle_prepare, idle_rank, idle_finish, idle_free,
};
