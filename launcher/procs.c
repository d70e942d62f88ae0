/* The process table as /proc shows it, for the job's lifetime. */
#include <ctype.h>
#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "procs.h"
#include "common/util.h"

/* /proc/PID/stat into P; 0, or -1 when gone or a zombie. */
static int
read_stat(pid_t pid, struct proc *p)
{
	char path[64], *text, *s;
	char state;
	int ppid, pgrp, sid, rc = -1;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if ((text = read_file(path, NULL)) == NULL)
		return -1;
	/* the command name is in parentheses and may hold any of them */
	if ((s = strrchr(text, ')')) != NULL &&
	    sscanf(s + 1, " %c %d %d %d", &state, &ppid, &pgrp, &sid) == 4 &&
	    state != 'Z' && state != 'X') {
		*p = (struct proc){ pid, ppid, pgrp, sid };
		rc = 0;
	}
	free(text);
	return rc;
}

size_t
procs_below(pid_t root, struct proc **out)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	struct proc *all = NULL;
	size_t n = 0, cap = 0, nbelow = 0;
	char *mark;
	int changed = 1;

	while (d != NULL && (e = readdir(d)) != NULL) {
		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		if (n == cap)
			all = xreallocarray(all, cap = cap ? cap * 2 : 256,
			    sizeof(*all));
		if (read_stat((pid_t)atoi(e->d_name), &all[n]) == 0)
			n++;
	}
	if (d != NULL)
		closedir(d);
	/* a process is below ROOT when its parent is ROOT or below it */
	mark = xcalloc(n + 1, 1);
	while (changed) {
		changed = 0;
		for (size_t i = 0; i < n; i++) {
			if (mark[i])
				continue;
			for (size_t j = 0; j < n && !mark[i]; j++)
				mark[i] = all[i].ppid == root ||
				    (mark[j] && all[i].ppid == all[j].pid);
			changed |= mark[i];
		}
	}
	for (size_t i = 0; i < n; i++)
		if (mark[i])
			all[nbelow++] = all[i];
	free(mark);
	*out = all;
	return nbelow;
}

int
proc_ignores(pid_t pid, int sig)
{
	char path[64], *text, *line;
	uint64_t mask = 0;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	if ((text = read_file(path, NULL)) == NULL)
		return 0;
	if ((line = strstr(text, "\nSigIgn:")) != NULL)
		sscanf(line + 8, "%" SCNx64, &mask);
	free(text);
	return (mask >> (sig - 1)) & 1;
}
