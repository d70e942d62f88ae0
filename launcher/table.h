/* The configuration table shown before a run, as an engineer checks it. */
#ifndef MSPROF_TABLE_H
#define MSPROF_TABLE_H

#include <stdio.h>

#include "common/plan.h"

/* What msprof-exec found about the job before running it. */
struct facts {
	const char	*model, *script, *config;	/* NULL: unknown */
	int		 npus;				/* -1: unknown */
	enum engine	 engine;
	const struct strv *left_alone;	/* "ENTRY: why", or NULL */
};

void	table_print(FILE *, const struct plan *, const struct facts *);

#endif
