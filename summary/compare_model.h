/*
 * The comparison of two runs as data: built once (compare.c), then
 * printed as text, JSON or a page (compare_out.c), which decide nothing.
 * Internal to summary/.
 */
#ifndef MSPROF_COMPARE_MODEL_H
#define MSPROF_COMPARE_MODEL_H

#include "common/util.h"
#include "compare.h"
#include "model.h"
#include "strmap.h"
#include "writer.h"

enum { BASE, NEW };	/* the two runs, in this order everywhere */

/* The figures of a step that are compared (µs, means per step). */
enum { CP_STEP, CP_COMP, CP_COMM, CP_FREE, CP_BUBBLE, CP_N };

struct cmp_run {
	const char		*name;		/* as the user gave it */
	const char		*label;		/* "base" or "new", N_() marked */
	const struct summary	*s;
	size_t			 nsteps;	/* ranks with step data */
	size_t			 nops;		/* ranks with operator data */
	size_t			 unknown;	/* rank directories of no rank */
	double			 mean[CP_N];	/* over the ranks with steps */
	/*
	 * The step-to-step variation, relative to the step: a robust
	 * standard deviation (1.4826 x the median absolute deviation of a
	 * rank's steps from their median), the median over the ranks with
	 * two steps or more; NAN when none has.
	 */
	double			 variation;
	size_t			 nvar;		/* ranks it is measured on */
	double			 per;		/* rank-steps (or ranks) of the ops */
	double			 optotal;	/* operator time per rank(-step) */
	char			*level;		/* "Level1", "mixed", or NULL */
	char			*layout;	/* "tp 2, pp 1, ...", or NULL */
	char			*model_part;	/* the sizes but dp: what a rank holds */
	/*
	 * Every compared rank's operators merged by type alone, each with
	 * the cores it ran on as its core ("AI_CORE+AI_VECTOR_CORE"), and
	 * the same by type name.
	 */
	struct optab		*ops;
	struct strmap		 types;
};

/* OP_SAME: in both runs, the change within the margin. */
enum op_change { OP_SLOWER, OP_FASTER, OP_ADDED, OP_REMOVED, OP_SAME };
/* The word of each change (N_() marked), the same in every format. */
extern const char *const cmp_change_words[];
/* Its JSON key. */
extern const char *const cmp_change_keys[];

/* One operator type, in either run or both. */
struct cmp_op {
	const char	*type;		/* in the runs' merged tables */
	const char	*core[2];	/* its cores in each run; NULL: absent */
	int		 moved;		/* to other cores, both known */
	double		 us[2], calls[2];	/* per rank and step (or rank) */
	double		 delta;		/* us[NEW] - us[BASE] */
	enum op_change	 change;
	int		 significant;	/* beyond the margin */
};

/* A rank with step data in both runs. */
struct cmp_rank {
	int			 rank;
	const struct rank_data	*r[2];
	double			 d[CP_N];	/* NEW - BASE, µs */
	int			 part;		/* the figure most unlike the others' */
	double			 unlike;	/* |d[part] - its median|, µs */
	int			 named;		/* unlike beyond the margin */
};

/*
 * How far the margin can be trusted: the noise measured in both runs
 * (ranks with two steps or more), in one of them, or in neither (then the
 * margin is the floor, a guess).
 */
enum noise { NOISE_MEASURED, NOISE_ONE_RUN, NOISE_GUESS };

/*
 * A setting of the launch that differs between the runs: a flag of its
 * command line, an environment variable, or a profiling setting.  BASE or
 * NEW NULL: absent in that run (a flag not given, a variable not set).
 */
enum set_kind { CS_COMMAND, CS_FLAG, CS_ARG, CS_ENV, CS_PROFILING };

struct cmp_setting {
	enum set_kind	 kind;
	char		*name;
	char		*v[2];
};

struct compare {
	struct cmp_run	 run[2];
	double		 margin;	/* share of the base step (or op time) */
	enum noise	 noise;
	double		 scale;		/* µs that share is of */
	double		 op_scale;	/* the same for the operator types */
	int		 from_floor;	/* the margin is the floor */
	char		*steps_why;	/* the steps not compared: why */
	char		*ops_why;	/* the operators not compared: why */
	int		 per_step;	/* ops per rank and step, else per rank */
	int		 sig[CP_N];	/* step figure beyond the margin */
	struct cmp_op	*ops;		/* by |delta|, largest first */
	size_t		 nops, nops_sig;
	struct cmp_rank	*ranks;		/* in rank order */
	size_t		 nranks, nnamed;
	size_t		*named;		/* indexes into ranks, most unlike first */
	double		 median[CP_N];	/* of the ranks' d */
	int		*only[2];	/* ranks in one run only */
	size_t		 nonly[2];
	/*
	 * Some rank has steps (operators) in both runs: then the means are
	 * over such ranks alone, never over different sets of ranks.
	 */
	int		 both_steps, both_ops;
	size_t		 nmoved;	/* operator types on other cores */
	size_t		 half_steps;	/* ranks in both, without steps in one */
	struct strv	 caveats;
	int		 changed;	/* anything beyond the margin */
	/*
	 * The launches' settings that differ, when both runs have a session
	 * (compare_settings); else why they are not known.
	 */
	int		 settings_set;	/* compare_settings was called */
	char		*settings_why;
	struct cmp_setting *settings;
	size_t		 nsettings;
};

#define TOP_OPS		10	/* operator types in the text */
#define TOP_RANKS	5	/* ranks unlike the others in the text */
#define RANK_ITEMS	8	/* ranges in a list of ranks */

extern const char *const cmp_part_names[CP_N];	/* N_() marked */

/* The result in one sentence (ARROW between two figures); free it. */
char	*cmp_result(const struct compare *, const char *arrow);
/* How certain it is, in one sentence (translated); free it. */
char	*cmp_certainty(const struct compare *);
/* A setting's value in run K as said: "not set", "not given", "given". */
const char *cmp_setting_value(const struct cmp_setting *, int k);
void	 cmp_settings_free(struct compare *);
/* The JSON key of the noise's certainty. */
extern const char *const cmp_noise_keys[];
/* The word for each kind of setting (N_() marked), and its JSON key. */
extern const char *const cmp_setting_words[];
extern const char *const cmp_setting_keys[];

#endif
