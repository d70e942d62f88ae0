/* The msprof-exec command line: options, their checks, the usage text. */
#ifndef MSPROF_OPTIONS_H
#define MSPROF_OPTIONS_H

#include <getopt.h>
#include <stdio.h>

#include "common/plan.h"

struct options {
	struct plan	 plan;
	int		 yes, dry_run, quiet, verbose, skip_checks, force;
	int		 strict;	/* failures the status would hide fail */
	int		 help, version;
	char		*cann_env, *json, *html, *log;
	char		*baseline;	/* --baseline: an earlier run to compare */
	char		**cmd;		/* the command, NULL-terminated */
};

/*
 * The options of a profiled run, for a subcommand that passes them on to
 * one (tune): getopt_long's table and short options.
 */
extern const struct option options_longopts[];
#define OPTIONS_SHORT	"+:l:s:r:w:o:ynqvhV"

/* Parse and check ARGV; a usage error exits with status 64. */
void	options_parse(int argc, char **argv, struct options *);
void	options_free(struct options *);
/*
 * Change one option (its long name, VALUE NULL for a flag) as the
 * command line would; -1 after saying why when the value is refused.
 */
int	options_edit(struct options *, const char *name, const char *value);
void	usage(FILE *);
/*
 * The whole number V of option OPT, at least MIN; else exit 64 saying so
 * (at the confirmation: say so and go back to the prompt).
 */
int	option_number(const char *opt, const char *v, int min);

#endif
