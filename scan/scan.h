/*
 * A static scan of a training script: what msprof-exec shows the user
 * before anything runs.  The script is read, never executed: shell
 * variables are followed through simple assignments, and whatever would
 * need a command to run stays unknown.
 */
#ifndef MSPROF_SCAN_H
#define MSPROF_SCAN_H

#include "common/launchtab.h"
#include "engines/engine.h"
#include "common/util.h"

/*
 * What a scan finds.
 *
 * The counts are the values as the first launch runs: its own options
 * (--nproc_per_node, --nnodes, --node_rank, --master_port and the msrun
 * forms) over NPUS_PER_NODE (or GPUS_PER_NODE), NNODES, NODE_RANK and
 * MASTER_PORT; with no launch, the variables as the script ends.
 *
 * launches: every command that starts a MindSpeed training launch, from
 * the launcher on, words expanded and joined with spaces (quoted when they
 * hold blanks); what could not be evaluated is shown as written, e.g.
 * "--master_addr $(head -n1 $HOSTFILE)".
 *
 * configs: the values of --mm-tool, --mm-data and --mm-model, the YAML
 * argument of a YAML-driven entry, and MM_TOOL; each once.
 *
 * existing: after the entry, --profile* and --training.profile* options
 * with their values ("--profile-ranks 0 1") and tools.profile.*=value
 * overrides; each once.
 */
/*
 * One training launch as the scan found it: the words from the launcher on,
 * expanded as far as the script allows (a word that needs a command to run
 * is kept as written), so that a dry run can rewrite it with its engine.
 *
 * env: the environment it runs with, NAME=value: the environment the
 * script started with, the variables the script exported (export, declare
 * -x, set -a) as they are then, and its own (MM_TOOL=x torchrun ..., env
 * X=y torchrun ...); unset and unexported variables are not there.
 */
struct scan_launch {
	struct strv	 argv;
	struct strv	 env;		/* exported NAME=value as it runs */
	int		 line;		/* in the script; 0: unknown */
	char		*script;	/* the script it is in (a wrapper
					   runs others) */
	char		*cwd;		/* where it runs: "" the command's
					   directory, "DIR/" after a cd;
					   NULL: not known */
	int		 guarded;	/* in a block or after && or ||:
					   the script may not run it; or
					   after a cd it may not run, CWD
					   a guess */
};

struct scan {
	char		*model;		/* qwen3_8b (see scan.c), or NULL */
	int		 npus_per_node;	/* -1: unknown */
	int		 nnodes, node_rank;	/* -1: unknown */
	int		 master_port;	/* -1: unknown */
	enum engine	 engine;	/* of the first training launch */
	char		*entry;		/* its entry script as written */
	char		*launcher;	/* torchrun, msrun, python... */
	struct strv	 launches;	/* each launch, expanded */
	struct scan_launch *runs;	/* every launcher-started entry, as
					   argv: left alone ones too */
	size_t		 nruns;
	struct strv	 configs;	/* config files it names */
	struct strv	 existing;	/* profiling options, with values */
	int		 train_iters;	/* of the first launch; -1: none */
	int		 crlf;		/* a script has CRLF line ends (bash
					   then fails on $'\r') */
	char		*crlf_file;	/* the first such script */
};

/*
 * Is the program PATH a shell script, so that running it directly runs a
 * shell on it: its #! line names a shell (sh, bash, dash, env bash, ...),
 * or it has no #! line and its name ends in .sh.
 */
int	scan_is_shell_script(const char *path);

/*
 * Scan the script PATH with the launch table and the environment ENVP
 * (NULL: empty) it will run with.  The scripts it runs (bash X, sh X,
 * source X, . X, ./X) are read too, relative to the current directory as
 * the shell would resolve them.  A script whose #! line names another
 * interpreter (python) is not read as shell: nothing is found in it.  Returns 0; what cannot be worked out
 * stays -1 or NULL.  Returns -1 with a message in *why only when the
 * script cannot be read.  Call scan_free() in either case.
 */
int	scan_script(const struct launchtab *, const char *path,
	    char *const envp[], struct scan *, char **why);
void	scan_free(struct scan *);

struct launch;
/*
 * launch_classify() of ARGV as it runs in CWD, relative to the current
 * directory (a scan_launch's cwd; NULL or "": here), with the environment
 * ENV (a scan_launch's env; NULL: this process's): its entry and the
 * modules it imports are read from there, through ENV's PYTHONPATH.
 */
void	scan_classify(const struct launchtab *, const char *framework,
	    const char *cwd, const struct strv *env, char *const argv[],
	    struct launch *);

#endif
