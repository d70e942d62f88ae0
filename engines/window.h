/*
 * The step window's meaning, for every engine, in one place: the last step
 * a training reaches, the iteration its log prints for a step, and which
 * of torch_npu's ProfilerStep#N is which iteration, from what torch_npu
 * skips and warms up before the first step it keeps.  An engine states
 * its convention in its row of operations (engine.h: base, how it counts
 * steps; schedule, how its training makes torch_npu's schedule); the
 * rewrite, the report and the summary ask here and work out nothing of
 * their own.
 */
#ifndef MSPROF_WINDOW_H
#define MSPROF_WINDOW_H

#include "engine.h"

/* The window a launch profiled: [start, end) in its engine's steps. */
struct step_window {
	enum engine	 engine;	/* ENGINE_NONE: not known */
	int		 start;
	/* The iteration a checkpoint loaded (MindSpeed-LLM counts from it) */
	int		 loaded;
};

/*
 * The last step a training of ITERS iterations reaches (-1 when ITERS is
 * unknown, 0 or less), and the iteration its log prints for STEP.
 */
int	 window_last_step(enum engine, int iters);
long	 window_log_iteration(enum engine, long step);
/* The last iteration, as the log prints it, of a window ending before END. */
long	 window_last_iteration(enum engine, int end);
/*
 * Does a window ending before step END end within ITERS iterations?  Yes
 * too when ITERS is unknown (0 or less).
 */
int	 window_fits(enum engine, int end, int iters);

/*
 * torch_npu's schedule of W: the ProfilerSteps it skips (skip_first, as
 * torch_npu takes it: never below 0), then the steps it warms up on, and
 * so the first ProfilerStep it keeps.  -1 each when W's engine states no
 * schedule, or W cannot be profiled (MindSpeed-LLM refuses a start at or
 * before the loaded iteration).
 */
long	 window_skip_first(const struct step_window *);
long	 window_warmup(const struct step_window *);
long	 window_first_kept(const struct step_window *);
/* The iteration of ProfilerStep#STEP in W, or -1 when it is not known. */
long	 window_iteration(const struct step_window *, long step);

#endif
