/*
 * The name torch_npu gives a rank's output directory,
 * {host}_{pid}_{YYYYMMDDhhmmssmmm}_ascend_pt: the host that wrote it, the
 * worker's pid, and when the profiler started, in the writer's local time
 * to the millisecond.  The host name may itself hold underscores, so the
 * name is read from its end.
 */
#ifndef MSPROF_RANKNAME_H
#define MSPROF_RANKNAME_H

#include <stdint.h>

#define RANKDIR_SUFFIX	"_ascend_pt"

struct rankname {
	char	 host[256];
	long	 pid;
	int64_t	 ms;		/* milliseconds since the epoch */
};

/* Read NAME (a file name, not a path); 0, or -1 when it has another form. */
int	rankname_parse(const char *name, struct rankname *);
/*
 * The rank of profiler_info_{rank}.json, the file torch_npu writes in a
 * rank directory (its rank is taken from the name, as msprof-analyze
 * does); -1 for any other name.
 */
int	rankname_info(const char *name);

#endif
