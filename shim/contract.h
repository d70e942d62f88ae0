/*
 * The contract between msprof-exec (the launcher), the LD_PRELOAD shim and
 * the injector.  Every name the three share is defined here and nowhere
 * else.
 */
#ifndef MSPROF_CONTRACT_H
#define MSPROF_CONTRACT_H

/*
 * Environment the launcher gives the command.  The shim copies every
 * variable that starts with MSPROF_ENV_PREFIX when it loads and puts them
 * back into the environment of any non-target exec that lost them; the
 * injector removes them all from the target's environment.
 */
#define MSPROF_ENV_PREFIX	"MSPROF_EXEC_"
#define MSPROF_ENV_SHIM		"MSPROF_EXEC_SHIM"	/* absolute path of the shim */
#define MSPROF_ENV_INJECTOR	"MSPROF_EXEC_INJECTOR"	/* absolute path of the injector */
#define MSPROF_ENV_SESSION	"MSPROF_EXEC_SESSION"	/* session directory */
#define MSPROF_ENV_MATCH	"MSPROF_EXEC_MATCH"	/* launch table, see below */

/*
 * The launch table as the shim reads it: "KEY=item,item;KEY=item,...".
 * Keys are the MATCH_KEY_* names; the launcher builds the string from
 * config/launchers.conf.  Items of "launcher", "python" and "entry" are
 * compared with the path being executed (an item with a '/' must match the
 * end of the path at a component boundary, one without must match its
 * last component; a trailing '*' matches the rest of the last component,
 * and a leading '*' of an item without '/' its start, as in "*.py");
 * "module" and "entry-module" items are compared whole (a trailing '*':
 * any suffix).  "module" names the launchers run as python -m NAME
 * (torch.distributed.run); "entry-module" the modules that python -m runs
 * as a training entry (espnet2.bin.asr_train, or "*": any other), whose
 * file the injector finds and reads as it reads a script's.  "console"
 * items are compared as "launcher" ones: a console script of a Python
 * package (fairseq-train), which the kernel runs with its "#!" Python, is
 * a training entry read as python SCRIPT would be.
 *
 * The table may start with a "filter" segment: the shim's first test of
 * an exec (match.h, struct launch_filter), which msprof-exec works out
 * once from the other segments and writes as filter_write() does, so
 * that no process under the shim has to read the whole table to build
 * it.  Without one, the shim builds it from the table.
 */
#define MATCH_KEY_LAUNCHER	"launcher"
#define MATCH_KEY_PYTHON	"python"
#define MATCH_KEY_MODULE	"module"
#define MATCH_KEY_ENTRY		"entry"
#define MATCH_KEY_ENTRY_MODULE	"entry-module"
#define MATCH_KEY_CONSOLE	"console"
#define MATCH_KEY_FILTER	"filter"

/*
 * The shim replaces a matched exec with
 *	INJECTOR MODE SESSION PATH ARGV[0] ARGV[1] ...
 * where PATH is the file the caller would have executed (after the PATH
 * search, when the caller asked for one) and MODE tells how the caller
 * wanted it run.
 */
#define INJECT_MODE_EXEC	"exec"	/* execve: run PATH as is */
#define INJECT_MODE_SEARCH	"search"/* execvp: on ENOEXEC run PATH with /bin/sh */
#define INJECT_MODE_SPAWN	"spawn"	/* posix_spawn(p): no shell fallback */
#define INJECT_ARGV_MODE	1
#define INJECT_ARGV_SESSION	2
#define INJECT_ARGV_PATH	3
#define INJECT_ARGV_CMD		4	/* first element of the original argv */

/* Files of a session directory. */
#define SESSION_PLAN		"plan.json"
#define SESSION_JOURNAL		"journal.jsonl"
#define SESSION_LOG		"train.log"		/* the command's output */
#define SESSION_PROF_CONFIG	"prof_config"	/* torch_npu's PROF_CONFIG_PATH */

/* Bounds the shim works within (the stack, or mmap for large arrays). */
#define SHIM_MAX_ARGS		65536	/* argv elements it will copy */
#define SHIM_MAX_ENV		65536	/* environment entries it will copy */
#define SHIM_MAX_SAVED		16	/* MSPROF_EXEC_* variables it keeps */
#define SHIM_SAVED_BYTES	16384	/* their total size */
#define SHIM_STACK_BYTES	65536	/* arrays on the stack; larger ones mapped */

#endif
