/*
 * Offline parsing: data collected with online parsing off has no
 * ASCEND_PROFILER_OUTPUT until it is parsed.  The right parser is the one
 * of the job's engine (MindSpeed-MM ships its own tools), else torch_npu's
 * analyse(), run by the Python that ran the job.
 */
#include <sys/stat.h>
#include <sys/wait.h>

#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>
#include <unistd.h>

#include "analyse.h"
#include "engines/engine.h"
#include "common/journal.h"
#include "preflight.h"
#include "common/session.h"
#include "common/util.h"

/* torch_npu's own entry point; arguments: PATH [EXPORT_TYPE...]. */
static const char torch_npu_analyse[] =
    "import sys\n"
    "from torch_npu.profiler.profiler import analyse\n"
    "analyse(sys.argv[1], export_type=sys.argv[2:] or None)\n";

/* The first profiled launch of the session of PATH (or its parent). */
static const struct launch_record *
find_launch(const char *path, struct journal *journal)
{
	char *copy = xstrdup(path), *session = session_find(path);

	if (session == NULL)
		session = session_find(dirname(copy));
	free(copy);
	memset(journal, 0, sizeof(*journal));
	if (session != NULL)
		journal_read(session, journal);
	free(session);
	for (size_t i = 0; i < journal->n; i++)
		if (journal->recs[i].status == LAUNCH_INJECTED)
			return &journal->recs[i];
	return NULL;
}

static int
run_in(const char *dir, struct strv *argv)
{
	int status;
	pid_t pid;

	fflush(NULL);
	if ((pid = fork()) == 0) {
		if (dir != NULL && chdir(dir) == -1)
			err(EX_NOINPUT, "%s", dir);
		execvp(argv->v[0], argv->v);
		_exit(127);
	}
	while (pid > 0 && waitpid(pid, &status, 0) == -1 && errno == EINTR)
		;
	if (pid == -1)
		err(EX_OSERR, "fork");
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* Can PYTHON import torch_npu?  Says why not. */
static int
python_ready(const char *python)
{
	struct strv check = { 0 };
	int rc;

	strv_push(&check, python);
	strv_push(&check, "-c");
	strv_push(&check, "import torch_npu");
	rc = run_in(NULL, &check);
	strv_free(&check);
	if (rc == 127)
		warnx(_("%s: not found; the Python that ran the job is needed to "
		    "parse its data"), python);
	else if (rc != 0)
		warnx(_("%s cannot import torch_npu (see above); parse with the "
		    "Python environment the job ran in"), python);
	return rc == 0;
}

int
analyse_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "export-type", required_argument, NULL, 'e' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *use = _("usage: msprof-exec analyse [--export-type "
	    "text|db]... PATH\n");
	struct strv types = { 0 }, cmd = { 0 };
	const char *python = NULL, *engine = NULL, *cwd = NULL, *tool;
	char *path, *toolpath = NULL;
	const struct launch_record *rec;
	struct journal journal;
	int c, rc;

	optind = 1;
	while ((c = getopt_long(argc, argv, "+h", opts, NULL)) != -1) {
		if (c != 'e' || (strcmp(optarg, "text") != 0 &&
		    strcmp(optarg, "db") != 0)) {
			fputs(use, c == 'h' ? stdout : stderr);
			return c == 'h' ? 0 : EX_USAGE;
		}
		strv_push(&types, optarg);
	}
	if (optind != argc - 1) {
		fputs(use, stderr);
		return EX_USAGE;
	}
	if ((path = realpath(argv[optind], NULL)) == NULL)
		err(EX_NOINPUT, "%s", argv[optind]);
	if ((rec = find_launch(path, &journal)) != NULL) {
		python = job_python(rec->path);
		engine = rec->engine;
		cwd = rec->cwd;
	}
	if (python == NULL)
		python = "python3";
	if (!python_ready(python))
		return EX_UNAVAILABLE;
	tool = engine_ops(engine_parse(engine ? engine : ""))->analyse_tool;
	if (tool != NULL && cwd != NULL)
		toolpath = xasprintf("%s/%s", cwd, tool);
	strv_push(&cmd, python);
	if (toolpath != NULL && access(toolpath, R_OK) == 0) {
		strv_push(&cmd, toolpath);
		strv_push(&cmd, "--profiler-path");
		strv_push(&cmd, path);
		for (size_t i = 0; i < types.n; i++) {
			strv_push(&cmd, "--export-type");
			strv_push(&cmd, types.v[i]);
		}
	} else {
		strv_push(&cmd, "-c");
		strv_push(&cmd, torch_npu_analyse);
		strv_push(&cmd, path);
		for (size_t i = 0; i < types.n; i++)
			strv_push(&cmd, types.v[i]);
	}
	rc = run_in(toolpath != NULL ? cwd : NULL, &cmd);
	free(toolpath);
	free(path);
	strv_free(&cmd);
	strv_free(&types);
	journal_free(&journal);
	return rc;
}
