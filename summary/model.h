/*
 * The summary's model: what was read from each rank, the table of
 * summaries (one file each: steps.c, ops.c, cluster.c, wait.c, links.c,
 * memory.c, mfu.c, idle.c, a row each of the table in summary.c, and
 * each one's finished state in its NAME.h) and what they found.  Read by
 * the summaries themselves and, once the summary is finished, by the
 * floors above: the advice's rules (advice/) and the report's writers
 * (report/, with what they share in writer.h).  Nothing here knows a
 * rule nor prints.
 */
#ifndef MSPROF_SUMMARY_MODEL_H
#define MSPROF_SUMMARY_MODEL_H

#include <stdio.h>

#include "common/util.h"
#include "summary.h"
#include "comm.h"
#include "optab.h"

/* The small-packet size of each transport (links.c), MB; 0: none. */
extern const double small_mb[COMM_NTRANS];
/* A link below this share of its transport's median bandwidth is slow. */
#define SLOW_LINK	0.20
/*
 * Byte alignment of a transfer (links.c): sizes over ALIGN_MIN bytes
 * should be multiples of ALIGN_BYTES.  The files' MB is 10^6 bytes.
 */
#define ALIGN_BYTES	512
#define ALIGN_MIN	512
#define BYTES_PER_MB	1e6

/* The averages of one rank's step_trace_time rows (µs). */
struct step_row {
	long	 step;		/* torch_npu's Step, -1 when empty */
	double	 comp, comm_exposed, overlapped, comm, free, bubble;
	double	 step_time;	/* comp + comm_exposed + free */
};

/*
 * Did the rank's profiler_info say it exported TYPE ("text", "db")?  Not
 * when it says nothing: analysis.db sits beside a text export too.
 */
struct rank_data;
int		 rank_exports(const struct rank_data *, const char *type);

/* A file of a rank left out of the summary, and why. */
struct left_out {
	char		*path;
	const char	*reason;	/* a few words (N_), to group files by */
	char		*why;		/* the message, naming the file */
};

/* What the summaries read from one rank directory. */
struct rank_data {
	char		*path, *name;	/* the directory and its base name */
	int		 rank;		/* -1: unknown */
	/* What the inventory found in the directory, or NULL (inventory.h) */
	const struct inv_rankdir *inv;
	char		*level, *export_type;	/* from profiler_info */
	int		 tp, pp, dp, cp, ep, world;	/* 0: unknown */
	/* Steps (steps.c). */
	struct step_row	*steps;
	size_t		 nsteps;
	struct step_row	 mean;
	char		*steps_why;	/* why there are none */
	/* Operators (ops.c): per rank, totals only. */
	struct optab	*ops;
	char		*ops_why;
	const char	*ops_source;
	char		*ratio[OP_NRATIO];	/* its pipe-ratio columns */
	size_t		 nratio;
	/*
	 * profiler_metadata.json's ENV_VARIABLES, "NAME=value" (torch_npu
	 * writes "" for a variable that is not set).
	 */
	struct strv	 env;
	/*
	 * profiler_metadata.json's parallel_group_info: "KEY=NAME" for each
	 * communication group of the rank, KEY the HCCL group's name
	 * ("group_name_5"), NAME Megatron's ("dp_cp", "pp", "tp", ...).
	 */
	struct strv	 groups;
	/*
	 * What each summary keeps of the rank for itself, by its row
	 * (rank_own): a new summary needs no field here.
	 */
	struct rank_own	*own;
	/* Files that are there but were not read: damaged, not files. */
	struct left_out	*left;
	size_t		 nleft;
};

/* A summary's own data of one rank, and what frees it. */
struct rank_own {
	void	*p;
	void	 (*free)(void *);
};

/*
 * Name a file of RD that the summary leaves out, whole or in part (any
 * thread: RD's own); a path named twice is kept once.
 */
void		 rank_left_out(struct rank_data *rd, const char *path,
		    const char *reason, const char *why);
/*
 * What no profiler writes, one rule set for both exports (damage.c): a
 * field that should hold a number and holds text, and a figure out of the
 * bounds of what it measures (a struct bound).  The text export counts
 * them in a CSV's records, the db export in a table's rows (db.c); the
 * record is skipped, the others read, and the file named as read in part
 * with the first one's column, value and place.  A blank field of a CSV
 * is no damage (torch_npu's blank and summary lines); an odd figure would
 * make a negative step or an infinite share of one.
 */
struct bound {
	double		 max;		/* above it, or negative: odd */
	const char	*what;		/* what it is not, for the message */
};
#define TIME_MAX_US	86400e6		/* a day: no step nor kernel is longer */
#define MEM_MAX_MB	1048576.0	/* 1 TB: no device has more */
extern const struct bound bound_time_us, bound_time_ns, bound_time_ms,
    bound_mem_mb, bound_mem_bytes, bound_size_mb;
struct bad_rows {
	unsigned long	 n, line;	/* how many; the first one's record */
	const char	*col;		/* its column (lives as long) */
	char		 text[24];	/* and its text, cut */
	int		 null;		/* it was SQL's NULL */
	unsigned long	 nodd, odd_line;	/* the same for odd figures */
	const char	*odd_col;
	double		 odd;
	const struct bound *odd_bound;
};
/* Is V out of F's bounds (NaN is not: a missing figure is no figure)? */
int		 bound_odd(const struct bound *f, double v);
/*
 * Record WHERE's column COL holds TEXT (LEN bytes; NULL: SQL's NULL),
 * which is no number: 1 and counted when that is damage (not blank text
 * unless BLANK_BAD, nor "nan").
 */
int		 value_text(struct bad_rows *, unsigned long where,
		    const char *col, const char *text, size_t len, int blank_bad);
/* Record WHERE's column COL holds V, odd for F: 1 and counted. */
int		 value_odd(struct bad_rows *, unsigned long where,
		    const char *col, double v, const struct bound *f);
/*
 * BAD as clauses of *MSG ("; " between them), *REASON the first's: the
 * records of a CSV when TABLE is NULL, else the rows of the db's TABLE.
 */
void		 bad_rows_say(const struct bad_rows *bad, const char *table,
		    char **msg, const char **reason);
void		 clause(char **msg, const char **reason, const char *why,
		    char *what);
struct csv;
/* Field COL of C's last record, TEXT (LEN bytes), is no number: damage? */
int		 bad_row(struct bad_rows *, const struct csv *c, int col,
		    const char *text, size_t len);
/* Field COL of C's last record, the time V (µs), is odd: damage, counted. */
int		 odd_time(struct bad_rows *, const struct csv *c, int col,
		    double v);
/* The same for bound F. */
int		 odd_bound(struct bad_rows *, const struct csv *c, int col,
		    double v, const struct bound *f);
/* After the last record of C (RC and WHY of csv_next): a read error, a
 * file cut short or records skipped (BAD, or NULL) is named. */
void		 csv_left_out(struct rank_data *rd, const struct csv *c,
		    const char *path, int rc, const char *why,
		    const struct bad_rows *bad);

/* The files of one rank, opened once and shared by the summaries. */
struct rank_files;
char		*rank_file(struct rank_files *, const char *name);	/* path if it exists */
/* The communication files (comm.h), read once. */
const struct comm *rank_comm(struct rank_files *);
/*
 * The db export's databases, opened once (NULL when absent, or left out
 * when no database): analysis.db, and ascend_pytorch_profiler_<rank>.db.
 */
struct db	*rank_db(struct rank_files *);
struct db	*rank_profiler_db(struct rank_files *);

/* One summary: one table row in summary.c. */
struct kind {
	const char	*name;		/* JSON key */
	const char	*title;
	void	*(*init)(struct summary *);
	/*
	 * Optional: read a rank's large files into its rank_data.  Runs on
	 * worker threads, several ranks at once: touch nothing shared.
	 */
	void	 (*prepare)(const struct summary *, struct rank_data *,
		    struct rank_files *);
	/* Read what it needs of one rank (called rank by rank). */
	void	 (*rank)(struct summary *, void *, struct rank_data *,
		    struct rank_files *);	/* optional */
	/* After all ranks: compute; a reason when not made. */
	char	*(*finish)(struct summary *, void *);
	void	 (*free)(void *);
};

extern const struct kind kind_steps, kind_ops, kind_cluster, kind_wait,
    kind_links, kind_memory, kind_mfu, kind_idle;

/* One link of the communication matrix (links.c). */
struct link {
	int	 src, dst, tr;
	double	 size, time;	/* MB, ms */
};

struct summary {
	struct summary_opts	 opts;
	struct rank_data	*r;
	size_t			 nr;
	void			**state;	/* each row's, in the table's order */
	char			**why;		/* not made: why */
};

/*
 * What the summaries found, each kept in its own state (or of a rank, in
 * its rank_own), for those who read a finished summary: the advice's
 * rules, and the report's writers.
 */
/*
 * Every rank's operators together (ops.c), NULL when no rank has
 * operators; *STEPS (STEPS may be NULL), the rank-steps they cover.
 */
const struct optab *ops_all(const struct summary *, size_t *steps);
/*
 * Rank I's time compiling operators while the job ran (opCompile and
 * aclopCompile of its api_statistic.csv, ops.c), µs; NaN when not known.
 */
double	 ops_compile_us(const struct summary *, size_t i);
/*
 * The links (links.c), by transport and then bandwidth, in *V: how many;
 * 0 when not made.
 */
size_t	 links_all(const struct summary *, struct link *const **v);
/* The median bandwidth of transport TR's links, GB/s; 0: none. */
double	 link_median(const struct summary *, int tr);
/* What a rank moved (links.c), from its communication files or the db. */
struct rank_transfers {
	/* Volume per transport and its part in small transfers, MB. */
	double	 vol_mb[COMM_NTRANS], small_mb[COMM_NTRANS];
	/*
	 * The operators that moved data over each transport, and those that
	 * moved less than its small size, and their transit times, ms.
	 */
	double	 xfer_ops[COMM_NTRANS], small_ops[COMM_NTRANS];
	double	 xfer_ms[COMM_NTRANS], small_xfer_ms[COMM_NTRANS];
	/*
	 * The time of the HCCS, PCIE and SDMA transfers over ALIGN_MIN
	 * bytes whose size is known to the byte, and of those whose size is
	 * no multiple of ALIGN_BYTES, ms.
	 */
	double	 align_ms, unaligned_ms;
	/*
	 * Its collectives: how many were read, and how many gather or
	 * scatter parameters and gradients (all-gather, reduce-scatter), as
	 * sharded data parallelism does and DDP not.
	 */
	size_t	 colls, sharded_colls;
};
const struct rank_transfers *transfers_of(const struct summary *, size_t i);
/* A rank in the collectives (wait.c). */
struct rank_wait {
	size_t	 votes;		/* arrived last, an outlier... */
	size_t	 collectives;	/* ...of those compared */
	double	 wait_ratio, sync_ratio;	/* means; NaN: no ratio */
};
struct rank_wait wait_of(const struct summary *, size_t i);
/*
 * Rank I's timeline (idle.c, timeline.h): the device's idle time in its
 * steps and what the host did; NULL when not read.
 */
struct tl_result;
const struct tl_result *idle_of(const struct summary *, size_t i);
/* US as a share of R's step time; NaN without one. */
double	 idle_share(const struct tl_result *r, double us);
/*
 * The rank whose host spends the largest share of its step in cause C
 * (timeline.h), that share (*MOST, NaN: no rank) and the share over all
 * ranks (*ALL).
 */
size_t	 idle_most(const struct summary *, int c, double *most, double *all);
/*
 * The collectives of ranks A and B alone, two ranks (wait.c), where no
 * outlier test applies: how many had both elapses, and in how many each
 * arrived last (the shorter elapse: the other waited for it).
 */
struct pair_wait {
	size_t	 n, a_last, b_last;
};
struct pair_wait wait_pair(const struct summary *, size_t a, size_t b);
/*
 * The communication of each rank by parallel group and kind of operator
 * (wait.c), from communication.json (or CommAnalyzerTime) and the group
 * names of parallel_group_info: for each, its time in the operators, the
 * part spent waiting for another rank (its elapse above the shortest of
 * the same operator on the group's other ranks: they arrived later), and
 * the part moving data (the longest Transit Time of its transports).
 */
enum comm_group {
	CG_DP, CG_TP, CG_PP, CG_CP, CG_EP,
	CG_OTHER,	/* named, of none of those (mp, the world's) */
	CG_UNNAMED,	/* no name in parallel_group_info */
	CG_N
};
enum comm_kind {
	CK_ALLREDUCE, CK_REDUCESCATTER, CK_ALLGATHER, CK_ALLTOALL,
	CK_SENDRECV, CK_BROADCAST, CK_OTHER, CK_N
};
extern const char *const comm_group_names[CG_N];
extern const char *const comm_kind_names[CK_N];
/* The pipeline stages the split tells apart (a stage past them: the last). */
#define COMM_STAGES	16
struct comm_split {
	/*
	 * ms a step, scaled by the share of the rank's communication that is
	 * exposed (Communication(Not Overlapped) / Communication).
	 */
	double	 exposed, wait, xfer;
};
/* Rank I's, of group G and kind K (K CK_N: every kind); zeros: none. */
struct comm_split comm_split_of(const struct summary *, size_t i, int g,
	    int k);
/*
 * ms a step rank I waited, exposed, for the ranks of pipeline stage P in
 * the pipeline's groups (sends, receives, the embedding's all-reduce).
 */
double	 comm_wait_for_stage(const struct summary *, size_t i, int p);
/* Does any rank's communication have a named group? */
int	 comm_groups_named(const struct summary *);

/* Rank I's peak device memory (memory.c), MB; NaN when unknown. */
double	 mem_peak_of(const struct summary *, size_t i);

/*
 * Row K of the summaries' table (summary.c), in the order they print;
 * NULL past the last.  Its state in a finished summary S is
 * S->state[K], and S->why[K] says why it was not made.
 */
const struct kind *summary_kind(size_t k);
/* The state of row K in S (what its init made). */
void	*summary_state(const struct summary *, const struct kind *k);
/*
 * What row K keeps of rank RD for itself: P, freed with RELEASE (or
 * NULL) with the summary; set once, from K's prepare or rank.  NULL when
 * K kept nothing.
 */
void	 rank_own_set(struct rank_data *rd, const struct kind *k, void *p,
	    void (*release)(void *));
void	*rank_own(const struct rank_data *rd, const struct kind *k);

/* Operator flags of the top table (ops.c), also read by the rules. */
#define AICPU_LONG_US	20.0	/* an AI_CPU task this long or longer */
int	 op_aicpu(const struct op *);
int	 op_dynamic(const struct op *);
int	 op_low_pipe(const struct summary *, const struct op *);
#define LOW_PIPE	0.4	/* every pipe ratio below this... */
#define LOW_PIPE_SHARE	0.05	/* ...in an operator of this share or more */
/* The bandwidth of a link, GB/s (MB/ms); NaN without a time. */
double	 link_gb_s(const struct link *);
/* Slow: below 20 % of its transport's median (links.c marks it so). */
int	 link_slow(const struct summary *, const struct link *);
/* The median of V, sorted in place; NAN for none (stats.c). */
double	 median(double *v, size_t n);
/* 1.4826 x the median absolute deviation: a robust standard deviation. */
double	 robust_sd(const double *v, size_t n, double med);

/*
 * The job's parallel sizes, from the first rank that knows them: one
 * layout for every summary and rule, so that a stage is always one of
 * the job's stages even when an old rank directory says otherwise.
 */
struct layout {
	int	 tp, pp, dp, cp, ep;	/* 0: unknown */
	int	 known;
};
void	 summary_layout(const struct summary *, struct layout *);
/* The pipeline stage of RANK in L (0 when unknown): below L's pp. */
int	 layout_stage(const struct layout *, int rank);
/*
 * The iteration torch step S is in the window profiled (engines/window.h),
 * or -1 when unknown.
 */
long	 step_iteration(const struct summary *, long step);
/* A rank's label: "rank 3", or "rank unknown (DIR)" naming its directory. */
#define LABEL_MAX	320
const char *rank_label(const struct rank_data *, char *buf, size_t len);
/* The widest label of the ranks, at least MIN: the text tables' column. */
int	 label_width(const struct summary *, int min);
/*
 * The db export (db.c): PATH opened read-only, changing nothing beside
 * it; NULL, and the file named as left out of RD, when it is no database.
 */
struct db	*db_open(struct rank_data *rd, const char *path);
void		 db_close(struct db *);
const char	*db_path(const struct db *);
/*
 * SQL's rows handed to ROW as text and numbers (NaN: NULL or not a
 * number); -1 and *WHY when the query fails, the file named as left out.
 */
int		 db_rows(struct db *, const char *sql,
		    int (*row)(void *, int ncol, const char *const col[],
		    const double num[]), void *arg, char **why);
/*
 * What a column of a checked query holds, judged by the text export's
 * rules (damage.c): NAME (as messages give it: "TASK.endNs"; NULL: not
 * checked) must be a number, within BOUND when there is one, and not NULL
 * unless NULL_OK.
 */
struct db_check {
	const char		*name;
	const struct bound	*bound;
	int			 null_ok;
};
/*
 * db_rows for SQL whose first column is the rowid of TABLE's row, CHECK
 * (NCHECK of them) the columns after it: a row that fails is not handed
 * to ROW (which sees the columns after the rowid), and the file is named
 * as read in part with the table, column, value and rowid.  The rows
 * skipped, or -1 and *WHY as db_rows.
 */
int		 db_rows_checked(struct db *, const char *table,
		    const char *sql, const struct db_check check[],
		    size_t ncheck, int (*row)(void *, int ncol,
		    const char *const col[], const double num[]), void *arg,
		    char **why);
int		 db_has_table(struct db *, const char *);
/* NULL when the table is there; else why, the file named as left out. */
char		*db_need_table(struct db *, const char *);

#endif
