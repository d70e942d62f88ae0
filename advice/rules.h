/*
 * The rules table.  A rule is one row of its family's table, in the
 * family's file (steps.c, operators.c, communication.c, memory.c,
 * environment.c, idle.c): its id, the evidence it reads, its threshold,
 * the settings that address what it finds, and the function that checks
 * the data (struct rule, advice.h).  A new rule is one row and its check in
 * one of those files; a setting it names is a row of common/settings.c,
 * where each name says where it was verified upstream.
 *
 * A check reads the finished summary (summary/model.h: the rank data and
 * the summaries' results) and, when the data calls for it, makes one
 * finding (advice.h): the ranks as rank directories, a sentence of
 * evidence with the figures that support it, and its threshold.  The
 * engine (advice.c) adds the state of each setting in the launch.  Checks
 * need a margin against the rank's peers and against what is normal for
 * a model (a matrix multiply dominating a transformer is not a finding):
 * clean data gets no finding.
 */
#ifndef MSPROF_ADVICE_RULES_H
#define MSPROF_ADVICE_RULES_H

#include <stddef.h>

#include "summary/model.h"
#include "advice.h"

struct family {
	const char		*name;
	const struct rule	*rules;
	size_t			 n;
};

extern const struct family family_steps, family_operators,
    family_communication, family_memory, family_environment, family_idle;

/*
 * What a check gets: the summary, the launches and the device, the layout
 * it ran in, its findings.
 */
struct advice {
	const struct summary *s;
	struct advice_in in;
	struct findings	*found;
	struct layout	 lay;	/* the job's */
	enum framework	 fw;	/* the job's */
};

/*
 * Making a finding (advice.c): new, its ranks (rank directories, by
 * index), its text and figures, a note.  Call finding_new only when the
 * rule fires.
 */
struct finding	*finding_new(struct advice *, const struct rule *);
void		 finding_who(struct finding *, size_t who);
void		 finding_text(struct finding *, const char *fmt, ...)
		    __attribute__((format(printf, 2, 3)));
void		 finding_figure(struct finding *, const char *key, double v);
/*
 * The ranks whose SHARE (NaN: not known) reaches RULE's threshold (passes
 * it, with ABOVE) make one finding that names them all: it, or NULL when
 * none does; *MOST the largest share, *AT its rank (the first).
 */
struct finding	*finding_over(struct advice *, const struct rule *,
		    double (*share)(const struct rule *,
		    const struct summary *, size_t), int above, double *most,
		    size_t *at);
void		 finding_note(struct finding *, const char *fmt, ...)
		    __attribute__((format(printf, 2, 3)));

/*
 * The environment variable NAME of the profiled launch: its value (the
 * caller's to free; "" when it was not set), or NULL when not known.
 * From the ranks' profiler_metadata.json when torch_npu recorded it,
 * else from the journal (launch.c).
 */
char		*launch_env(const struct advice *, const char *name);
/* NAME as torch_npu recorded it for rank R ("" unset), or NULL. */
const char	*rank_env(const struct rank_data *r, const char *name);
/*
 * The framework of the profiled job (launch.c), from the launches and
 * the data's layout (A's lay).
 */
enum framework	 job_framework(const struct advice *);
/*
 * A parallel size of the profiled Megatron launches (launch.c), flag FLAG
 * ("--context-parallel-size"): the largest they give, 1 (the default)
 * when their flags are known and lack it, 0 when not known (no session,
 * no Megatron launch, or flags that cannot be read).
 */
int		 launch_size(const struct advice *, const char *flag);
/*
 * The settings F offers instead of its rule's (NULL-ended; an empty list
 * offers none): for a rule whose finding knows better (advice.c).
 */
void		 finding_settings(struct finding *f,
		    const struct setting *const *settings);
/* The value of flag NAME in the profiled launch, or NULL (launch.c). */
char		*launch_flag(const struct advice *, const char *name);
/* The state of setting SET in the profiled launches; *detail to free. */
enum setting_state setting_state(const struct advice *,
		    const struct setting *, char **detail, int *applies);

#endif
