/*
 * The step breakdown (steps.c) as the floors above read it: each rank's
 * steps and their mean are its rank_data's (steps, nsteps, mean,
 * steps_why, summary/model.h); its state says what it found of them all.
 */
#ifndef MSPROF_SUMMARY_STEPS_H
#define MSPROF_SUMMARY_STEPS_H

#include <stddef.h>

struct rank_data;

/* The state of kind_steps. */
struct steps {
	size_t	 made;		/* ranks with steps */
	double	 longest;	/* the longest mean step, to scale bars */
};

/* The parts a step is the sum of: compute, exposed communication, free. */
#define STEP_NPARTS	3
extern const char *const step_part_names[STEP_NPARTS];	/* N_() */

/*
 * V[0..N) by mean step time, the longest first; ranks without steps last;
 * then in their order in the summary.
 */
void	 steps_by_time(const struct rank_data **v, size_t n);

#endif
