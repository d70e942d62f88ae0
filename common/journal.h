/*
 * The session journal: what happened to every launch the shim handed to
 * the injector.  The injector appends one record a launch (several
 * processes may append at once, so each record is a single write of one
 * JSON line to an O_APPEND file); the report, the verification and
 * `msprof-exec analyse` read it back.  This header is the whole contract:
 * nothing else knows the keys of a line.
 */
#ifndef MSPROF_JOURNAL_H
#define MSPROF_JOURNAL_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "util.h"

/* What the injector did with a launch. */
enum launch_status {
	LAUNCH_UNKNOWN = 0,	/* no (readable) status: a torn record */
	LAUNCH_INJECTED,	/* run with the plan's profiling settings */
	LAUNCH_KEPT,		/* run with its own settings (--existing keep) */
	LAUNCH_LEFT_ALONE,	/* run unchanged: see reason and force */
	LAUNCH_REFUSED,		/* not started: the plan cannot apply (78) */
	LAUNCH_MISSING_PATHS,	/* not started: input paths missing (66) */
	LAUNCH_FAILED		/* the launcher could not be executed */
};

/*
 * Where a launch's processes run, as its launcher reads its options and
 * environment (common/cluster.c); -1 (NULL) unknown.
 */
struct launch_place {
	int		 node_rank;
	int		 nnodes;
	int		 nproc_per_node;	/* ranks started on this node */
	int		 first_rank;	/* global rank of the first of them */
	int		 world_size;
	char		*master_addr;
	int		 master_port;
	char		*node_rank_from;	/* "--node_rank", "PET_NODE_RANK"... */
};

/*
 * One launch.  Unset fields (NULL pointers, empty string vectors, -1
 * numbers) are not written, so that a later record of the same process
 * (a failed exec) only changes what it sets.
 */
struct launch_record {
	/* The process. */
	char		*time;		/* local time, ISO 8601 */
	int64_t		 start_ms;	/* start, ms since the epoch */
	long		 pid;
	char		*host;
	char		*cwd;
	char		*path;		/* the launcher's executable */
	struct strv	 argv;		/* the command as the caller gave it */
	int		 cann;		/* the CANN environment was loaded */
	/*
	 * The environment variables the advice rules consult (the plan
	 * names them; nothing else of the environment is kept): those set,
	 * "NAME=value", and those not set, "NAME".
	 */
	struct strv	 env;
	struct strv	 env_unset;

	/* What it is. */
	char		*engine;	/* engine name; "none" when not training */
	char		*framework;	/* "llm", "mm" or "torch" */
	char		*script;	/* the training script as given */
	struct launch_place place;

	/* What happened. */
	enum launch_status status;
	char		*reason;	/* why it was left alone, refused, failed */
	char		*force;		/* left alone: how to profile it anyway */
	int		 exit;		/* not started: msprof-exec's exit status */
	struct strv	 missing;	/* LAUNCH_MISSING_PATHS: the paths */

	/* The profiling settings (injected and kept launches). */
	char		*save_path;	/* as given to the launch (maybe relative) */
	int		 step_start, step_end;	/* [start, end) in the engine's steps */
	int		 loaded_iteration;	/* resumed after it (Megatron LLM) */
	int		 ranks_all;	/* every rank profiled */
	int		*ranks;		/* else the profiled ranks */
	size_t		 nranks;
	int		*expected;	/* profiled ranks of this node; NULL unknown */
	size_t		 nexpected;
	char		*level;
	int		 analyse;	/* online parsing on */
	char		*mode;		/* "static" or "dynamic" */
	struct strv	 copies;	/* config copies: "ORIGINAL -> COPY" */
	char		*prof_config;	/* torch_npu's PROF_CONFIG_PATH it got */
	struct strv	 existing;	/* profiling settings the launch had */
	struct strv	 new_argv;	/* the command run (LAUNCH_INJECTED) */
	struct strv	 set;		/* --set: "NAME[=VALUE]" it ran with */
};

/* All launches of a session, in the order they started. */
struct journal {
	struct launch_record	*recs;
	size_t			 n;
	/* Records of other sessions were added: not one session's own. */
	int			 merged;
	/*
	 * The session was moved or copied since it ran (mv, cp -r, tar to
	 * another machine): the folder that held it then, and the one that
	 * holds it now.  The records' paths under the first were found again
	 * under the second as they were read; NULL when it did not move.
	 */
	char			*moved_from, *moved_to;
};

/* A record with everything unset. */
void	 launch_record_init(struct launch_record *);
void	 launch_record_free(struct launch_record *);

/* "injected", "kept", "unchanged", "refused", "failed" (as written). */
const char *launch_status_name(enum launch_status);
/* Was the launch run with profiling settings (injected or kept)? */
int	 launch_profiled(const struct launch_record *);

/* The record as its journal line's object (also the report's "launches"). */
cJSON	*launch_record_json(const struct launch_record *);
/* The fields of object O that have the right type; others stay as they are. */
void	 launch_record_from_json(struct launch_record *, const cJSON *o);

/* Append REC; -1 with errno set on failure. */
int	 journal_append(const char *session, const struct launch_record *rec);
/*
 * Read the journal of SESSION (empty when there is none); lines that are
 * not JSON objects are skipped, and a later record of the same process
 * (pid and host) updates the fields of its first one.  When the session
 * is no longer where its plan says it was made, the paths recorded under
 * its old folder (save paths, configuration copies, PROF_CONFIG_PATH) are
 * made absolute under the folder that holds it now.
 */
void	 journal_read(const char *session, struct journal *);
void	 journal_free(struct journal *);

#endif
