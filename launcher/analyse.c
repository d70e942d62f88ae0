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

#include "commands.h"
#include "engines/engine.h"
#include "engines/pymodule.h"
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

/*
 * What torch_npu prints when its parse fails, though its analyse()
 * returns, and the process exits 0, all the same.
 */
static const char *const parse_failed[] = {
	"Profiling data parsing failed", "Failed to get acl to npu flow events",
	NULL
};

/* Does TEXT (LEN bytes, not terminated) hold one of parse_failed? */
static int
says_failed(const char *text, size_t len)
{
	for (int i = 0; parse_failed[i] != NULL; i++)
		if (memmem(text, len, parse_failed[i],
		    strlen(parse_failed[i])) != NULL)
			return 1;
	return 0;
}

/*
 * run_in(), with the parser's output (both streams, as one, to our
 * standard error) read on the way for parse_failed: *FAILED is set when
 * it says so.  A line is read whole when it fits in the buffer.
 */
static int
run_watched(const char *dir, struct strv *argv, int *failed)
{
	char buf[8192];
	size_t have = 0;
	ssize_t n;
	int fds[2], status;
	pid_t pid;

	*failed = 0;
	fflush(NULL);
	if (pipe(fds) == -1)
		err(EX_OSERR, "pipe");
	if ((pid = fork()) == 0) {
		close(fds[0]);
		if (dup2(fds[1], STDOUT_FILENO) == -1 ||
		    dup2(fds[1], STDERR_FILENO) == -1)
			_exit(EX_OSERR);
		if (dir != NULL && chdir(dir) == -1)
			err(EX_NOINPUT, "%s", dir);
		execvp(argv->v[0], argv->v);
		_exit(127);
	}
	close(fds[1]);
	if (pid == -1)
		err(EX_OSERR, "fork");
	while ((n = read(fds[0], buf + have, sizeof(buf) - have)) != 0) {
		const char *eol;
		size_t keep;

		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1)
			break;
		(void)!write(STDERR_FILENO, buf + have, (size_t)n);
		have += (size_t)n;
		*failed |= says_failed(buf, have);
		/* keep the last, unfinished line for the next read */
		eol = memrchr(buf, '\n', have);
		keep = eol != NULL ? have - (size_t)(eol + 1 - buf) : 0;
		if (keep == sizeof(buf))
			keep = 0;
		memmove(buf, buf + have - keep, keep);
		have = keep;
	}
	close(fds[0]);
	while (waitpid(pid, &status, 0) == -1 && errno == EINTR)
		;
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
	char *path, *toolpath = NULL, *own = NULL;
	const struct launch_record *rec;
	struct journal journal;
	int c, rc, failed;

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
		python = own = pymodule_python(rec->path);
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
	rc = run_watched(toolpath != NULL ? cwd : NULL, &cmd, &failed);
	if (rc == 0 && failed) {
		warnx(_("%s: the parser says the parse failed (see above), "
		    "though it exited 0: ASCEND_PROFILER_OUTPUT may be missing "
		    "or incomplete; keep the CANN, torch_npu and driver versions "
		    "in step and parse again"), path);
		rc = EX_DATAERR;
	}
	free(toolpath);
	free(own);
	free(path);
	strv_free(&cmd);
	strv_free(&types);
	journal_free(&journal);
	return rc;
}
