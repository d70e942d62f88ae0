/*
 * Advice: the rules that read a finished summary (summary/model.h) and
 * say what to change.  Each rule is a row of its family's table
 * (advice/steps.c, operators.c, communication.c, memory.c,
 * environment.c, idle.c; the row is described in advice/rules.h): its
 * evidence and threshold, the settings that address it (rows of
 * common/settings.c), and for each setting whether the profiled launch
 * already has it (its command line, config copies and environment, from
 * the session's journal; not known without a session).  advice_run makes
 * the findings; the report prints them (report/findings.h).
 */
#ifndef MSPROF_ADVICE_H
#define MSPROF_ADVICE_H

#include <stddef.h>

#include "common/settings.h"
#include "common/util.h"

struct summary;

/*
 * The environment variables the rules consult, appended to OUT once each:
 * msprof-exec puts them in the plan, and the injector records their
 * values in the journal (only these, so the journal stays small and holds
 * nothing else of the environment).
 */
void	 advice_env_names(struct strv *out);

struct advice;

/* A rule: one row of its family's table (rules.h). */
struct rule {
	const char		*id;
	const char		*evidence;	/* the figure it reads */
	double			 threshold;
	const char		*threshold_text;	/* with its unit */
	const char		*fix;	/* N_(): what to do besides the settings */
	const struct setting *const *settings;	/* NULL-terminated, or NULL */
	void			(*check)(const struct rule *, struct advice *);
};

/* The profiled launch's state of a setting. */
enum setting_state {
	STATE_UNKNOWN,		/* no session, or not recorded */
	STATE_ON,		/* the launch has it: "already on" */
	STATE_OFF,		/* the launch does not: "not set" */
	STATE_VALUE,		/* a value to show, not on or off */
	STATE_MIXED		/* some launches have it, some not */
};

struct finding_setting {
	const struct setting	*setting;
	enum setting_state	 state;
	char			*detail;	/* the launch's value, or NULL */
};

#define FINDING_FIGURES	6

/*
 * A finding: the rule that made it (and its family), the ranks it names
 * (indexes into the summary's ranks), what it found with its figures,
 * and each setting that addresses it with the profiled launch's state of
 * it.
 */
struct finding {
	const struct rule	*rule;
	const char		*family;	/* "steps", "operators", ... */
	size_t			*who;		/* indexes into s->r */
	size_t			 nwho;
	char			*text;		/* what, with its evidence */
	struct figure {
		const char	*key;		/* JSON key, with its unit */
		double		 value;
	}			 fig[FINDING_FIGURES];
	size_t			 nfig;
	struct finding_setting	*set;
	size_t			 nset;
	char			*note;		/* more advice, or NULL */
	/* The settings offered, when not the rule's (finding_settings). */
	const struct setting *const *own;
	int			 has_own;
};

/*
 * The framework of the profiled job, whose settings are offered: from the
 * session's engines, else from the data (distributed_args in
 * profiler_metadata.json is Megatron's; a metadata file without it, a job
 * without Megatron, whose collectives tell DDP from sharded data
 * parallelism).  Not known: every framework's, said so.
 */
enum framework {
	FW_UNKNOWN,
	FW_MEGATRON,
	FW_MM_FSDP2,
	FW_TORCH,	/* no Megatron: DDP, FSDP or DeepSpeed, not known */
	FW_DDP,		/* no Megatron, and all-reduce only */
	FW_SHARDED,	/* no Megatron, all-gather and reduce-scatter: FSDP or
			   DeepSpeed ZeRO */
	FW_OTHER	/* an engine none of the scopes is for */
};

/* The findings of a summary, in the order of the families and their rows. */
struct findings {
	struct finding	*f;
	size_t		 n;
	enum framework	 fw;	/* the job's */
	/* The rules did not run: why (no rank, steps and operators only). */
	char		*why;
	/* No rank had a step breakdown nor operators: nothing to judge. */
	int		 no_data;
};

/*
 * What the rules check the data against besides the summary: the
 * session's launches, whose settings the findings name (NULL without a
 * session: then not known), and the device's memory in MB the session's
 * checks recorded (npu-smi's HBM; 0 unknown).
 */
struct journal;
struct advice_in {
	const struct journal	*journal;
	int			 device_mb;
};

/*
 * Every rule over the finished summary S, with what IN gives: the
 * findings, freed with advice_free.
 */
struct findings	*advice_run(const struct summary *s,
		    const struct advice_in *in);
void		 advice_free(struct findings *);

#endif
