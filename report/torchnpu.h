/*
 * The torch engine's part of the report: what msprof-exec did to arm
 * torch_npu's PROF_CONFIG_PATH config, and what torch_npu's own logs in
 * that directory say of each process (log/dp_HOST_PID_rank_RANK.log:
 * "Start Dynamic Profiler at N step.", "Stop Dynamic Profiler at M
 * step.", "Rank R not in valid rank_list").
 */
#ifndef MSPROF_TORCHNPU_H
#define MSPROF_TORCHNPU_H

#include "common/journal.h"
#include "engines/torch.h"

struct torchnpu_proc {
	long	 pid;
	int	 rank;		/* RANK when it started; -1: none */
	int	 start, stop;	/* collected steps start to stop - 1; -1 */
	int	 not_listed;	/* not a rank of rank_list */
	int	 created;	/* created the node's shared memory */
	int	 connected;	/* connected to one that was there */
};

struct torchnpu {
	const char	*dir;		/* PROF_CONFIG_PATH; NULL: none */
	int		 dynamic;	/* armed by msprof-exec trigger */
	/* What msprof-exec did to arm it; NULL: not known here. */
	const struct torch_arming *arming;
	struct torchnpu_proc *procs;
	size_t		 nprocs;
	size_t		 monitors;	/* monitors' logs (monitor_dp_...) */
};

/* Read the torch launches of J and their directory into T. */
void	torchnpu_read(const struct journal *j, const struct torch_arming *,
	    struct torchnpu *t);
/* What else the report knows of the run, for the causes. */
struct torch_evidence {
	const char	*log;		/* the training's output, or NULL */
	const struct launch_record *rec;	/* the launch missing data */
	int		 failed;	/* it failed: a status, a signal, or
					   errors its log shows */
	const char	*ending;	/* how it ended, said, or NULL */
	int		 explained;	/* a rule of the log's names a cause */
};

/*
 * Why T's launches collected nothing or less than asked, into OUT: from
 * the evidence first (the training's error, torch_npu's logs, the last
 * step of the training's log), a guess only when there is none, and said
 * to be one.
 */
void	torchnpu_causes(const struct torchnpu *t, const struct torch_evidence *,
	    struct strv *out);
/*
 * Why the launch REC, which kept its own PROF_CONFIG_PATH, collected
 * nothing: torch_npu waits for a change of its config.
 */
void	torchnpu_kept_causes(const struct launch_record *rec, struct strv *out);
void	torchnpu_free(struct torchnpu *t);

#endif
