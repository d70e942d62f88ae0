/*
 * The report as data: built once from the journal, the verified output
 * directories (verify.c, from the inventory of summary/inventory.c) and
 * the training log, with the tree shown (tree.c) and what several reports
 * say together (together.c); then printed as text (text.c) or written as
 * JSON (json.c), and the summary's page (report_data_page), the advice's
 * findings over the summary in each (findings_*.c).  As for compare
 * (a model, summary/compare.c, and compare_text.c, compare_json.c,
 * compare_html.c), each output only prints what the model holds: neither
 * decides anything.
 */
#ifndef MSPROF_REPORT_MODEL_H
#define MSPROF_REPORT_MODEL_H

#include "common/journal.h"
#include "diagnose.h"
#include "logerrors.h"
#include "report.h"
#include "torchnpu.h"
#include "tree.h"
#include "unusual.h"
#include "verify.h"

struct plan;

struct summary;		/* what the profiling data says (summary/) */
struct findings;	/* what it calls for (advice/) */

#define LIST_RANKS	16	/* more rank directories are summed up */

/* How the command ended. */
enum report_ending {
	ENDING_UNKNOWN,		/* not run here (msprof-exec report) */
	ENDING_OK,		/* exit 0, no failure in the log */
	ENDING_HIDDEN_FAILURE,	/* exit 0, but the log shows a failure */
	ENDING_EXIT,		/* a non-zero exit status */
	ENDING_SIGNAL,		/* killed by a signal */
	ENDING_INTERRUPTED	/* a signal sent to msprof-exec cut it short */
};

/* One output directory, against what its launch was to collect. */
struct report_output {
	const struct outdir	*dir;
	int			*missing;	/* expected ranks without data */
	size_t			 nmissing;
	int			 none_expected;	/* no profiled rank on this node */
	int			 unknown;	/* which ranks run here is unknown */
	int			 kept;		/* its own settings were kept */
	int			 pending;	/* its launch may still be running */
	struct unusual		 unusual;	/* what is odd about its ranks */
	/* so many ranks, or missing, that they are summed up */
	int			 large;
	/*
	 * What it holds, a few levels down (-v: one more), shown for the
	 * first output of a directory with a few ranks; else empty.
	 */
	struct report_tree	 tree;
};

struct report_model {
	const char		*session;	/* NULL: a bare output directory */
	const struct journal	*journal;	/* the launches */
	enum report_ending	 ending;
	int			 ending_code;	/* exit status or signal */
	int			 hidden_code;	/* HIDDEN_FAILURE: the status
						   the log names, or 1 */
	int			 exited;	/* ending_code is an exit status */
	int			 interrupted;	/* the signal sent to msprof-exec */
	const int		*running;	/* detached processes still running */
	size_t			 nrunning;
	const char		*where;		/* session or directory, to look again */
	/*
	 * When the training failed: the errors its log gives, the cause
	 * said first; LOG_PATH, the log they are in (or NULL).
	 */
	struct log_errors	 errors;
	char			*log_path;
	struct diagnosis	 diagnosis;	/* known failures in the log */
	struct verify		 verify;
	struct report_output	*outs;		/* parallel to verify.outs */
	struct strv		 causes;	/* of missing data, likeliest first */
	struct torchnpu		 torch;		/* the torch engine's config */
	char			*next_step;	/* what to do with the data */
	/*
	 * The data summary (step breakdown, top operators, slow rank, slow
	 * link) of the rank directories verification found, or of those
	 * under the paths given to msprof-exec report; NULL when there is
	 * none (no profiled launch, or the last of several outputs), and
	 * then SUMMARY_WHY says why when that is worth saying.
	 */
	struct summary		*summary;
	char			*summary_why;
	/* The advice's findings over the summary (with it, or NULL). */
	struct findings		*findings;
	/*
	 * The runs found under the paths, newest first, when there are
	 * several: the summary is of the first alone (summary_find_runs).
	 */
	struct summary_run	*runs;
	size_t			 nruns;
	struct strv		 run_dirs;	/* the rank directories summarised */
	/*
	 * The session's plan, what its checks recorded of the machine; NULL
	 * without a session.  PLAN_WHY: why it could not be read.
	 */
	struct plan		*plan;
	char			*plan_why;
	/*
	 * Processes of the command still running (left in the background
	 * with nohup or '&' without 'wait'): data may still come.
	 */
	int			 background;
	int			 refused;	/* msprof-exec stopped a launch */
	int			 complete;	/* every expected rank has data */
	struct report		 counts;	/* for the exit status */
};

/* "SIGTERM" for the signals msprof-exec passes on, else "signal". */
const char *signal_name(int);

void	report_build(const struct report_in *, struct report_model *);
void	report_model_free(struct report_model *);

/* The text report: results on stdout (none if QUIET), failures on stderr. */
void	report_print(const struct report_model *, int quiet);
/*
 * Nothing of what the report reads is there: no session, no launch
 * expected, no rank directory found, and the path is no rank directory.
 */
int	report_empty(const struct report_model *);
/*
 * N reports said as one (together.c): every output directory as one
 * output of all their rank directories and missing ranks.
 */
struct report_together {
	size_t			 outs;		/* output directories */
	char			*parent;	/* the directory holding them, or NULL */
	struct outdir		 all;		/* the reports' rank directories */
	struct report_output	 out;		/* all as one output */
};

/*
 * Do the N reports verify so many output directories and ranks that they
 * are said together?  Then 1, and T is what they say together; else 0.
 */
int	report_together(const struct report_model *, size_t n,
	    struct report_together *t);
void	report_together_free(struct report_together *);
/* The text of N reports said together: T, then the summary. */
void	report_print_many(const struct report_model *, size_t n,
	    const struct report_together *t, int quiet);
/*
 * The JSON report, written as it is made (one object); its summary too
 * unless !SUMMARY, then written apart by report_summary_write.
 */
struct jsonw;
void	report_json_write(const struct report_model *, struct jsonw *,
	    int summary);
/* Reports said together, as JSON (KEY in the object being written). */
void	report_together_write(const struct report_together *,
	    struct jsonw *, const char *key);
void	report_summary_write(const struct report_model *, struct jsonw *);

#endif
