/*
 * What the profiling data says: step breakdown, top operators, the cluster
 * step table with its slow rank and stage, the ranks collectives wait for,
 * the slow links, the device memory and the MFU, read from the
 * ASCEND_PROFILER_OUTPUT of each *_ascend_pt rank directory (or its
 * analysis.db), in memory bounded by the number of ranks and distinct
 * operators, never by file size.  What it calls for is the advice's
 * (advice/), which reads the finished summary.
 */
#ifndef MSPROF_SUMMARY_H
#define MSPROF_SUMMARY_H

#include <stddef.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "engines/window.h"

/* One rank directory ({host}_{pid}_{timestamp}_ascend_pt) and its rank. */
struct inv_rankdir;
struct summary_rank {
	const char	*path;
	int		 rank;	/* -1: unknown (profiler_info.json) */
	/* what the inventory found in it, or NULL: read from the disk */
	const struct inv_rankdir *inv;
};

struct journal;

struct summary_opts {
	int		 top_n;		/* operators in the top table; 0: 10 */
	/*
	 * The window profiled, which names torch_npu's ProfilerStep#N by
	 * the iteration it is; its engine ENGINE_NONE (0): the steps are
	 * shown as torch_npu numbers them.
	 */
	struct step_window window;
	/*
	 * Read the step breakdown and the operators only (compare): the
	 * communication files, the larger part of a rank's small files, are
	 * not read, and the summaries made from them say so.
	 */
	int		 steps_ops_only;
	/*
	 * The session's launches, whose arguments the MFU reads (NULL
	 * without a session), and the device memory in MB it recorded,
	 * against which the memory summary sets the peaks (npu-smi's HBM;
	 * 0 unknown).
	 */
	const struct journal *journal;
	int		 device_mb;
	/*
	 * The chip the session's checks recorded (the plan's): the name
	 * npu-smi gives it, and the AI cores and cube clock (MHz) CANN's
	 * platform_config CHIP_INI gives for it; 0 when not known, and then
	 * CHIP_WHY says why (NULL: the checks did not look).  The MFU's peak
	 * when the data does not describe its chip.
	 */
	const char	*chip, *chip_ini, *chip_why;
	int		 chip_cores, chip_mhz;
	/*
	 * The training's output (the session's log; NULL without one): the
	 * MFU reads Megatron's padded vocabulary and its own TFLOP/s there.
	 */
	const char	*log;
};

/* The flags of the summary's text (report/summary_writers.h). */
#define SUMMARY_UTF8	0x1	/* Unicode blocks for bars, else ASCII */
#define SUMMARY_COLOUR	0x2	/* ANSI colours */

struct summary;

/*
 * Find the rank directories under PATHS (each a rank directory, or a
 * directory holding them at any depth up to 6) and read those of one run,
 * the newest, when they hold several (summary_find_runs says which):
 * sorted by rank, the directories whose rank is unknown last.  The array
 * and its paths are the caller's (summary_ranks_free); -1 and *why when a
 * path cannot be read.
 */
int	 summary_find_ranks(char *const paths[], size_t npaths,
	    struct summary_rank **ranks, size_t *nranks, char **why);
/*
 * The same, with a line in NOTES for each symbolic link not followed (it
 * leads nowhere or back into the walk, a loop), naming it, and its path
 * in LINKS.
 */
struct strv;
int	 summary_find_ranks_noted(char *const paths[], size_t npaths,
	    struct summary_rank **ranks, size_t *nranks, struct strv *notes,
	    struct strv *links, char **why);
void	 summary_ranks_free(struct summary_rank *, size_t);
/*
 * A run: the rank directories one launch wrote, in one directory (a save
 * path), or in several that share no rank (a job's nodes).
 */
struct summary_run {
	char	*path;		/* the directory (of the first, when several) */
	size_t	 nparents;	/* how many directories */
	size_t	 ndirs;		/* its rank directories */
	char	*stamp;		/* its newest's YYYYMMDDhhmmssmmm, or "" */
};
/*
 * The same, and every run found, newest first, in *RUNS (*NRUNS of them;
 * the first is the one whose ranks are in *RANKS); RUNS may be NULL.
 */
int	 summary_find_runs(char *const paths[], size_t npaths,
	    struct summary_rank **ranks, size_t *nranks,
	    struct summary_run **runs, size_t *nruns, struct strv *notes,
	    struct strv *links, char **why);
void	 summary_runs_free(struct summary_run *, size_t);
/*
 * The same from the inventory INV (inventory.h): what it listed and read
 * is not read again, and what it lists and reads now it keeps.  The
 * ranks' inv point into it.
 */
struct inventory;
int	 summary_find_runs_in(struct inventory *inv, char *const paths[],
	    size_t npaths, struct summary_rank **ranks, size_t *nranks,
	    struct summary_run **runs, size_t *nruns, struct strv *notes,
	    struct strv *links, char **why);

struct summary	*summary_build(const struct summary_rank *, size_t,
		    const struct summary_opts *);
/*
 * The flags a terminal on FP supports (a UTF-8 locale, isatty, NO_COLOR);
 * call it after setlocale(LC_CTYPE, "").
 */
unsigned	 summary_term_flags(FILE *);
void		 summary_free(struct summary *);

/* How many files the summary left out, whole or in part (it names them). */
size_t		 summary_nleft_out(const struct summary *);

/*
 * The threads that read N ranks: one per CPU, at most 8, or MSPROF_THREADS
 * (a shared login node may want fewer); 0 when the calling thread reads
 * alone and no thread is started.
 */
size_t		 summary_workers(size_t n);

#endif
