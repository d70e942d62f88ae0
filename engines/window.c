/*
 * The step window's meaning: the conventions the engines state in their
 * rows (engine.h) worked out for the rewrite, the report and the summary.
 */
#include "dynamic.h"
#include "window.h"

int
window_last_step(enum engine e, int iters)
{
	if (iters <= 0)
		return -1;
	return engine_ops(e)->base == STEPS_FROM_0 ? iters - 1 : iters;
}

long
window_log_iteration(enum engine e, long step)
{
	return engine_ops(e)->base == STEPS_FROM_0 ? step + 1 : step;
}

long
window_last_iteration(enum engine e, int end)
{
	return window_log_iteration(e, end - 1L);
}

int
window_fits(enum engine e, int end, int iters)
{
	return iters <= 0 || end - 1 <= window_last_step(e, iters);
}

/*
 * What torch_npu skips (*SKIP) and warms up on (*WARMUP) before the first
 * ProfilerStep of W it keeps; -1 when that is not known.
 */
static int
schedule(const struct step_window *w, long *skip, long *warmup)
{
	long s = w->start;

	if (s < 0)
		return -1;
	switch (engine_ops(w->engine)->schedule) {
	case SCHEDULE_MEGATRON:
		/*
		 * Its ProfilerStep#0 is the iteration after the loaded one,
		 * and it asserts that the start comes after that one.  At
		 * that start its skip_first is -1, which torch_npu takes
		 * as 0, and there is no warm-up.
		 */
		if (s <= w->loaded)
			return -1;
		*warmup = s > w->loaded + 1;
		*skip = s - w->loaded - 1 - *warmup;
		return 0;
	case SCHEDULE_WARM_ONE:
		*warmup = s > 0;
		*skip = s - *warmup;
		return 0;
	case SCHEDULE_SKIP_START:
		*skip = s;
		*warmup = 0;
		return 0;
	case SCHEDULE_DYNAMIC:
		/* started after START step() calls, numbering from there */
		*skip = s;
		*warmup = DYNAMIC_WARMUP;
		return 0;
	case SCHEDULE_UNKNOWN:
		break;
	}
	return -1;
}

long
window_skip_first(const struct step_window *w)
{
	long skip, warmup;

	return schedule(w, &skip, &warmup) == 0 ? skip : -1;
}

long
window_warmup(const struct step_window *w)
{
	long skip, warmup;

	return schedule(w, &skip, &warmup) == 0 ? warmup : -1;
}

long
window_first_kept(const struct step_window *w)
{
	long skip, warmup;

	return schedule(w, &skip, &warmup) == 0 ? skip + warmup : -1;
}

long
window_iteration(const struct step_window *w, long step)
{
	long first = window_first_kept(w), s;

	if (step < 0 || first < 0)
		return -1;
	s = w->start + (step - first);	/* the step, as the engine counts */
	return window_log_iteration(w->engine, s);	/* as its log prints it */
}
