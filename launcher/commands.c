/*
 * msprof-exec's entry: the table of its commands.  The first word chooses
 * a subcommand; anything else is the default command, which profiles the
 * command it is given (launcher/profile.c).
 *
 * Adding a command is one row: its name, its NAME_main(argc, argv) in a
 * file of its own that parses its own options (argv[0] is the command's
 * name), and its synopsis as --help shows it.  Then add it to the bash
 * completion (completion/msprof-exec) and to the SYNOPSIS and the
 * description of man/msprof-exec.1: t/0510-man.t fails until both agree
 * with --help.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <err.h>
#include <sysexits.h>

#include "commands.h"
#include "common/i18n.h"
#include "common/util.h"
#include "report/report.h"

struct command {
	const char	*name;		/* the word after msprof-exec */
	int		(*main)(int argc, char **argv);
	const char	*synopsis;	/* its usage, after "msprof-exec " */
};

/* In the order --help, the man page and the completion list them. */
static const struct command commands[] = {
	{ "trigger", trigger_main,	/* launcher/trigger.c */
	    "trigger [--start N | --now] [--active K] DIR" },
	{ "analyse", analyse_main,	/* launcher/analyse.c */
	    "analyse [--export-type text|db]... PATH" },
	{ "report", report_main,	/* report/report.c */
	    "report [--json FILE] [--html FILE] [-v] [-q] PATH..." },
	{ "compare", compare_main,	/* report/compare.c */
	    "compare [--json FILE] [--html FILE] BASE NEW" },
	{ "tune", tune_main,		/* launcher/tune.c */
	    "tune [OPTIONS] [--tries N] [--baseline DIR] [--] COMMAND [ARG...]" },
};
#define NCOMMANDS	(sizeof(commands) / sizeof(commands[0]))

void
commands_synopsis(FILE *f)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(f, "       msprof-exec %s\n", commands[i].synopsis);
}

/* The Levenshtein distance of A and B, for names of a few letters. */
static size_t
distance(const char *a, const char *b)
{
	size_t row[32], la = strlen(a), lb = strlen(b), diag, up;

	if (la >= 32 || lb >= 32)
		return SIZE_MAX;
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		diag = row[0];
		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			up = row[j];
			row[j] = a[i - 1] == b[j - 1] ? diag : 1 + (diag < up ?
			    (diag < row[j - 1] ? diag : row[j - 1]) :
			    (up < row[j - 1] ? up : row[j - 1]));
			diag = up;
		}
	}
	return row[lb];
}

/* "trigger, analyse, report and compare": the names, as a sentence says. */
static char *
names_said(void)
{
	char *s = xstrdup(commands[0].name), *t;

	for (size_t i = 1; i < NCOMMANDS; i++) {
		t = xasprintf("%s%s%s", s, i + 1 < NCOMMANDS ? _(", ") :
		    _(" and "), commands[i].name);
		free(s);
		s = t;
	}
	return s;
}

void
commands_suggest(const char *name)
{
	const struct command *best = NULL;
	size_t d, least = 3;	/* two typos at the most */

	if (strchr(name, '/') != NULL)
		return;
	for (size_t i = 0; i < NCOMMANDS; i++)
		if ((d = distance(name, commands[i].name)) < least) {
			least = d;
			best = &commands[i];
		}
	if (best != NULL)
		errx(EX_USAGE, _("%s: no such command; did you mean "
		    "'msprof-exec %s'? The subcommands are %s (msprof-exec "
		    "--help)"), name, best->name, names_said());
}

int
main(int argc, char **argv)
{
	i18n_init();
	for (size_t i = 0; argc > 1 && i < NCOMMANDS; i++)
		if (strcmp(argv[1], commands[i].name) == 0) {
			/* getopt's messages start with argv[0]: one prefix */
			argv[1] = xasprintf("msprof-exec %s", commands[i].name);
			return commands[i].main(argc - 1, argv + 1);
		}
	return profile_main(argc, argv);
}
