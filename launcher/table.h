/* The configuration table shown before a run, as an engineer checks it. */
#ifndef MSPROF_TABLE_H
#define MSPROF_TABLE_H

#include <stdio.h>

#include "common/plan.h"

struct launch;

/* What msprof-exec found about the job before running it. */
struct facts {
	const char	*model, *script, *config;	/* NULL: unknown */
	int		 npus;				/* -1: unknown */
	enum engine	 engine;
	const struct strv *left_alone;	/* "ENTRY: why", or NULL */
	/*
	 * The first training launch, as it will run (ARGV in ENVP): the
	 * table shows what its engine makes of the plan (the window after a
	 * resumed checkpoint, the iterations).  NULL: none found.
	 */
	const struct launch *launch;
	char *const	*argv, *const *envp;
	/*
	 * What the scan could not follow, so that profiling settings the
	 * launches already have could not be checked (NULL: all checked).
	 */
	const char	*unchecked;
};

void	table_print(FILE *, const struct plan *, const struct facts *);

#endif
