/*
 * The report as data: built once from the journal, the verified output
 * directories and the training log, then printed as text (text.c) or
 * written as JSON (json.c).  Neither output decides anything.
 */
#ifndef MSPROF_REPORT_MODEL_H
#define MSPROF_REPORT_MODEL_H

#include "common/journal.h"
#include "diagnose.h"
#include "report.h"
#include "verify.h"

struct summary;		/* what the profiling data says (summary/) */

/* How the command ended. */
enum report_ending {
	ENDING_UNKNOWN,		/* not run here (msprof-exec report) */
	ENDING_OK,		/* exit 0, no failure in the log */
	ENDING_HIDDEN_FAILURE,	/* exit 0, but the log shows a failure */
	ENDING_EXIT,		/* a non-zero exit status */
	ENDING_SIGNAL		/* killed by a signal */
};

/* One output directory, against what its launch was to collect. */
struct report_output {
	const struct outdir	*dir;
	int			*missing;	/* expected ranks without data */
	size_t			 nmissing;
	int			 none_expected;	/* no profiled rank on this node */
	int			 unknown;	/* which ranks run here is unknown */
	int			 pending;	/* its launch may still be running */
};

struct report_model {
	const char		*session;	/* NULL: a bare output directory */
	const struct journal	*journal;	/* the launches */
	enum report_ending	 ending;
	int			 ending_code;	/* exit status or signal */
	struct diagnosis	 diagnosis;	/* known failures in the log */
	struct verify		 verify;
	struct report_output	*outs;		/* parallel to verify.outs */
	struct strv		 causes;	/* of missing data, likeliest first */
	char			*next_step;	/* what to do with the data */
	/*
	 * The data summary of the verified rank directories (step breakdown,
	 * top operators, slow rank, slow link); NULL until the summary
	 * library is built in (see summarise() in model.c).
	 */
	struct summary		*summary;
	/*
	 * Processes of the command still running (left in the background
	 * with nohup or '&' without 'wait'): data may still come.
	 */
	int			 running;
	int			 refused;	/* msprof-exec stopped a launch */
	int			 complete;	/* every expected rank has data */
	struct report		 counts;	/* for the exit status */
};

void	report_build(const struct report_in *, struct report_model *);
void	report_model_free(struct report_model *);

/* The text report: results on stdout (none if QUIET), failures on stderr. */
void	report_print(const struct report_model *, int quiet, int verbose);
/* The JSON report (one document). */
cJSON	*report_json(const struct report_model *);

#endif
