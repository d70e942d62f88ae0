/*
 * What msprof-exec tells the user after the command ends (and what
 * `msprof-exec report PATH` tells again): the launches, what was
 * collected against what was expected, why anything is missing, and what
 * to do next, then what the profiling data says (the summary); as text, as
 * JSON with --json, and the summary as an HTML page with --html.
 */
#ifndef MSPROF_REPORT_H
#define MSPROF_REPORT_H

#include <stdio.h>
#include <time.h>

#include "common/journal.h"
#include "engines/torch.h"

struct verify;

struct report_in {
	const char	*session;	/* NULL: a bare output directory */
	const char	*outdir;	/* with no session: the directory to check */
	const struct journal *journal;
	const char	*log;		/* the training output, or NULL */
	int		 status;	/* wait status; -1 unknown */
	int		 interrupted;	/* the signal that interrupted the run
					   (sent to msprof-exec), or 0 */
	const int	*running;	/* processes the script detached that
					   were still running at the end */
	/* What msprof-exec did to arm torch_npu's config, or NULL. */
	const struct torch_arming *arming;
	size_t		 nrunning;
	time_t		 since;		/* data older than this is not ours */
	int		 quiet, verbose;
	const char	*json;		/* --json FILE, or NULL */
	const char	*html;		/* --html FILE, or NULL */
	/*
	 * Where the summary finds its rank directories: under these paths
	 * (msprof-exec report PATH...), or NULL for those verification found.
	 */
	char *const	*summary_paths;
	size_t		 nsummary_paths;
	int		 no_summary;	/* set by report_run: not the last */
	/*
	 * The inventory of the directories (summary/inventory.h) shared by
	 * every report of one command, or NULL: each report makes its own.
	 */
	struct inventory *inv;
	/*
	 * The session's launches, verified already against its journal
	 * (report/verify.h), or NULL: the report takes it over instead of
	 * verifying again.
	 */
	struct verify	*verified;
};

/* What the exit status depends on. */
struct report {
	int	injected, unchanged, refused, missing_paths, failed;
	int	expected, found;
	int	missing;	/* expected ranks without a directory */
	int	empty;		/* bare directories without rank directories */
	/*
	 * The log shows the training failed though its status was 0 (a
	 * pipeline hid it): the launcher's exit code it names, or 1; else 0.
	 */
	int	hidden_failure;
	int	partial;	/* files the summary could not read (whole) */
	int	with_data;	/* rank directories with raw or parsed data */
};

/*
 * Print the report of N output directories (and write the JSON and the
 * page): each verified, then one summary after the last, over the rank
 * directories of all (from IN[N - 1]); the options are IN[0]'s.  Fills
 * OUT, summed, for the exit status.
 */
void	report_run(const struct report_in *in, size_t n, struct report *out);

/*
 * Can the page of --html be written at PATH?  0, or -1 and *why; checked
 * before anything runs.
 */
int	report_html_check(const char *path, char **why);

/*
 * The paths whose rank directories the summary of PATHS reads, into OUT:
 * each path as given (the rank directories at any depth under it), or
 * for a session directory (msprof-exec_*) the rank directories its
 * launches made, as verification attributes them.  `report` and
 * `compare` resolve their paths with it.
 */
struct inventory;
void	report_summary_paths(char *const paths[], size_t n,
	    struct inventory *inv, struct strv *out);

/* msprof-exec report [--json FILE] [--html FILE] [-v] [-q] PATH... */
int	report_main(int argc, char **argv);

/* msprof-exec compare [--json FILE] [--html FILE] BASE NEW */
int	compare_main(int argc, char **argv);
/*
 * --baseline BASE, before the run: 0 when BASE is a directory with rank
 * data to compare with, else the exit status (66, 65) with *why.
 */
int	compare_baseline_check(const char *base, char **why);
/*
 * --baseline BASE, after the run: the comparison of the run NEW (its
 * session) with BASE on F, when both collected the same ranks and steps;
 * else -1 after saying which differ (or why there is nothing to compare).
 */
int	compare_baseline(const char *base, const char *new, FILE *f);

#endif
