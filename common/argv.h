/* Command-line editing on a copy of a launch's argv (a struct strv). */
#ifndef MSPROF_ARGV_H
#define MSPROF_ARGV_H

#include "util.h"

/*
 * The index of option OPT ("--opt value" or "--opt=value") at or after
 * FROM, or -1; *value is set to its value (NULL if it has none).
 */
int	argv_find(char *const argv[], int from, const char *opt,
	    const char **value);
/*
 * The value of the last OPT ("--opt value" or "--opt=value") at or after
 * FROM, as argparse takes it, or NULL.
 */
const char *argv_last(char *const argv[], int from, const char *opt);
/* Set OPT's value after FROM in the form it has, or append "OPT VALUE". */
void	argv_set(struct strv *, int from, const char *opt, const char *value);
/* Replace element I. */
void	argv_replace(struct strv *, int i, const char *value);
/*
 * Remove, after FROM, every argument for which DROP returns non-zero,
 * with the values DROP says follow it (its return value minus one).
 */
void	argv_drop(struct strv *, int from, int (*drop)(char *const *));

#endif
