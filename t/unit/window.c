/*
 * Unit tests of the step window's meaning (engines/window.c): every
 * engine's convention, against what its training does (the simulation's
 * schedules, sim/lib/msprof_sim, and the e2e tests' ProfilerSteps).
 */
#include "tap.h"
#include "engines/dynamic.h"
#include "engines/window.h"

/* The schedule of ENGINE's window from START (LOADED), and ProfilerStep
   N's iteration, checked in one go. */
static void
schedule_is(enum engine e, int start, int loaded, long skip, long warmup,
    long step, long iteration, const char *what)
{
	struct step_window w = { e, start, loaded };

	is_int(window_skip_first(&w), skip, "%s: skip_first %ld", what, skip);
	is_int(window_warmup(&w), warmup, "%s: warm-up %ld", what, warmup);
	is_int(window_first_kept(&w), skip + warmup,
	    "%s: the first step kept is ProfilerStep#%ld", what, skip + warmup);
	is_int(window_iteration(&w, step), iteration,
	    "%s: ProfilerStep#%ld is iteration %ld", what, step, iteration);
}

/* MindSpeed-LLM (Megatron): steps are its log's iterations, from 1. */
static void
megatron(void)
{
	struct step_window w = { ENGINE_LLM_MCORE, 5000, 5000 };

	is_int(window_last_step(ENGINE_LLM_MCORE, 10), 10,
	    "mcore: 10 iterations reach step 10");
	is_int(window_log_iteration(ENGINE_LLM_MCORE, 7), 7,
	    "mcore: step 7 is iteration 7");
	is_int(window_last_iteration(ENGINE_LLM_MCORE, 4), 3,
	    "mcore: a window ending before 4 needs iteration 3");
	ok(window_fits(ENGINE_LLM_MCORE, 11, 10),
	    "mcore: steps 9:11 fit in 10 iterations");
	ok(!window_fits(ENGINE_LLM_MCORE, 12, 10),
	    "mcore: steps 10:12 do not fit in 10 iterations");
	schedule_is(ENGINE_LLM_MCORE, 2, 0, 0, 1, 1, 2,
	    "mcore, steps 2:4 from scratch");
	schedule_is(ENGINE_LLM_MCORE, 2, 0, 0, 1, 2, 3,
	    "mcore, steps 2:4 from scratch, the second step");
	schedule_is(ENGINE_LLM_MCORE, 5, 0, 3, 1, 4, 5,
	    "mcore, steps 5:7 from scratch");
	schedule_is(ENGINE_LLM_MCORE, 5002, 5000, 0, 1, 1, 5002,
	    "mcore resumed at 5000, steps 5002:5004");
	schedule_is(ENGINE_LLM_MCORE, 5003, 5000, 1, 1, 2, 5003,
	    "mcore resumed at 5000, steps 5003:5005");
	/* MindSpeed's skip_first is -1 there: torch_npu takes it as 0 */
	schedule_is(ENGINE_LLM_MCORE, 5001, 5000, 0, 0, 0, 5001,
	    "mcore resumed at 5000, steps 5001:5003");
	schedule_is(ENGINE_LLM_MCORE, 1, 0, 0, 0, 0, 1,
	    "mcore, steps 1:3 from scratch");
	is_int(window_first_kept(&w), -1,
	    "mcore: a start at the loaded iteration is never profiled");
	is_int(window_iteration(&w, 0), -1,
	    "mcore: ... and its steps are no iteration");
}

/* MindSpeed-LLM's FSDP2 trainer: steps from 0, one warm-up step. */
static void
fsdp2(void)
{
	is_int(window_last_step(ENGINE_LLM_FSDP2, 10), 9,
	    "FSDP2: 10 steps end at step 9");
	is_int(window_log_iteration(ENGINE_LLM_FSDP2, 3), 4,
	    "FSDP2: step 3 is iteration 4");
	is_int(window_last_iteration(ENGINE_LLM_FSDP2, 4), 4,
	    "FSDP2: a window ending before 4 needs iteration 4");
	ok(window_fits(ENGINE_LLM_FSDP2, 10, 10),
	    "FSDP2: steps 8:10 fit in 10 steps");
	ok(!window_fits(ENGINE_LLM_FSDP2, 11, 10),
	    "FSDP2: steps 9:11 do not fit in 10 steps");
	schedule_is(ENGINE_LLM_FSDP2, 2, 0, 1, 1, 2, 3,
	    "FSDP2, steps 2:4");
	schedule_is(ENGINE_LLM_FSDP2, 2, 0, 1, 1, 3, 4,
	    "FSDP2, steps 2:4, the second step");
	schedule_is(ENGINE_LLM_FSDP2, 0, 0, 0, 0, 0, 1,
	    "FSDP2, steps 0:2 (no warm-up)");
	schedule_is(ENGINE_LLM_FSDP2, 4, 100, 3, 1, 4, 5,
	    "FSDP2 counts from its own start, whatever was loaded");
}

/* The three MindSpeed-MM engines: steps from 0, skip_first START. */
static void
mm(void)
{
	static const enum engine mms[] = { ENGINE_MM_MEGATRON, ENGINE_MM_YAML,
	    ENGINE_MM_FSDP2 };

	for (size_t i = 0; i < sizeof(mms) / sizeof(mms[0]); i++) {
		enum engine e = mms[i];
		const char *name = engine_name(e);

		is_int(window_last_step(e, 10), 9,
		    "%s: 10 iterations end at step 9", name);
		is_int(window_log_iteration(e, 11), 12,
		    "%s: its log prints step 11 as iteration 12", name);
		is_int(window_last_iteration(e, 12), 12,
		    "%s: a window ending before 12 needs iteration 12", name);
		ok(window_fits(e, 10, 10), "%s: steps 8:10 fit in 10", name);
		ok(!window_fits(e, 11, 10), "%s: 9:11 do not fit in 10",
		    name);
		/* step 10 (from 0) is the iteration its log prints as 11 */
		schedule_is(e, 10, 0, 10, 0, 10, 11, name);
		schedule_is(e, 10, 0, 10, 0, 11, 12, name);
		/* the loaded iteration is MindSpeed-LLM's alone */
		schedule_is(e, 4, 100, 4, 0, 4, 5, name);
	}
}

/* The torch engine: torch_npu's dynamic profiling from step() START. */
static void
torch(void)
{
	is_int(window_last_step(ENGINE_TORCH, 10), 9,
	    "torch: 10 step() calls end at step 9");
	is_int(window_log_iteration(ENGINE_TORCH, 10), 11,
	    "torch: step 10 is iteration 11");
	schedule_is(ENGINE_TORCH, 10, 0, 10, DYNAMIC_WARMUP, 10, 11,
	    "torch, steps 10:12");
	schedule_is(ENGINE_TORCH, 10, 0, 10, DYNAMIC_WARMUP, 11, 12,
	    "torch, steps 10:12, the second step");
	schedule_is(ENGINE_TORCH, 3, 0, 3, DYNAMIC_WARMUP, 3, 4,
	    "torch, steps 3:5");
}

/* No engine, or none known: no schedule, the steps are no iteration. */
static void
unknown(void)
{
	struct step_window none = { 0 };
	struct step_window bad = { ENGINE_COUNT, 10, 0 };
	struct step_window before = { ENGINE_MM_YAML, -1, 0 };

	is_int(window_skip_first(&none), -1, "no engine: no skip_first");
	is_int(window_warmup(&none), -1, "no engine: no warm-up");
	is_int(window_first_kept(&none), -1, "no engine: no first step");
	is_int(window_iteration(&none, 4), -1, "no engine: no iteration");
	is_int(window_iteration(&bad, 10), -1,
	    "an engine out of the table: no iteration");
	is_int(window_iteration(&before, 4), -1,
	    "a start before step 0: no iteration");
	is_int(window_iteration(&(struct step_window){ ENGINE_LLM_MCORE, 5,
	    0 }, -1), -1, "an empty Step (-1) stays unknown");
	ok(window_fits(ENGINE_LLM_MCORE, 1000, 0),
	    "iterations not known: any window may fit");
	ok(window_fits(ENGINE_MM_YAML, 1000, -1),
	    "iterations not known (-1): any window may fit");
	is_int(window_last_step(ENGINE_MM_YAML, 0), -1,
	    "no iterations: no last step");
}

/* Each engine of the table states its convention. */
static void
every_engine(void)
{
	for (int e = ENGINE_NONE + 1; e < ENGINE_COUNT; e++) {
		const struct engine_ops *o = engine_ops((enum engine)e);
		struct step_window w = { (enum engine)e, 6, 0 };

		ok(o->schedule != SCHEDULE_UNKNOWN, "%s states its schedule",
		    o->name);
		is_int(window_first_kept(&w), window_skip_first(&w) +
		    window_warmup(&w), "%s: the first step kept follows what "
		    "is skipped and warmed up", o->name);
		ok(window_iteration(&w, window_first_kept(&w) + 1) ==
		    window_iteration(&w, window_first_kept(&w)) + 1,
		    "%s: the next ProfilerStep is the next iteration", o->name);
	}
	is_int(engine_ops(ENGINE_NONE)->schedule, SCHEDULE_UNKNOWN,
	    "no engine: no schedule");
}

int
main(void)
{
	megatron();
	fsdp2();
	mm();
	torch();
	unknown();
	every_engine();
	return done_testing();
}
