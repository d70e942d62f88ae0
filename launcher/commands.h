/*
 * The commands of msprof-exec: one table (launcher/commands.c) drives the
 * dispatch, the synopsis of --help and "did you mean"; the bash completion
 * and the man page's SYNOPSIS are checked against it (t/0510-man.t).
 */
#ifndef MSPROF_COMMANDS_H
#define MSPROF_COMMANDS_H

#include <stdio.h>

/* Print each subcommand's synopsis line of --help, in the table's order. */
void	commands_synopsis(FILE *);

/*
 * NAME, which the default command could not find as a program, is close
 * to a subcommand's name: exit 64 saying which one was meant; else return.
 */
void	commands_suggest(const char *name);

/*
 * The commands of launcher/: each NAME_main(argc, argv) parses its own
 * options, argv[0] its name, and returns the exit status.
 */
/* The default: msprof-exec [OPTIONS] [--] COMMAND [ARG...] (profile.c) */
int	profile_main(int argc, char **argv);
/* msprof-exec trigger [--start N | --now] [--active K] DIR (trigger.c) */
int	trigger_main(int argc, char **argv);
/* msprof-exec analyse [--export-type text|db]... PATH (analyse.c) */
int	analyse_main(int argc, char **argv);
/* msprof-exec tune [OPTIONS] [--tries N] [--baseline DIR] [--] COMMAND... (tune.c) */
int	tune_main(int argc, char **argv);

#endif
