/* The checks that spare a wasted run: NPU, CANN, torch_npu. */
#include <sys/wait.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>
#include <unistd.h>

#include "shim/match.h"
#include "preflight.h"
#include "common/util.h"

/* Where CANN puts set_env.sh, newest layout first. */
static const char *const set_envs[] = {
	"/usr/local/Ascend/cann/set_env.sh",
	"/usr/local/Ascend/ascend-toolkit/set_env.sh",
	NULL
};

extern char **environ;

/*
 * Run ARGV (searched on PATH) and return its wait status, or -1 when it
 * could not start.  With TEXT, what it writes on descriptor FD (stdout or
 * stderr) is returned there; everything else goes to /dev/null.
 */
static int
capture(const char *const argv[], int fd, char **text)
{
	int p[2], status = -1, null;
	pid_t pid;

	if (pipe2(p, O_CLOEXEC) == -1)
		return -1;
	if ((pid = fork()) == 0) {
		null = open("/dev/null", O_RDWR);
		dup2(null, STDIN_FILENO);
		dup2(null, STDOUT_FILENO);
		dup2(null, STDERR_FILENO);
		if (text != NULL)
			dup2(p[1], fd);
		execvp(argv[0], (char *const *)argv);
		_exit(127);
	}
	close(p[1]);
	if (text != NULL)
		*text = pid > 0 ? read_fd(p[0], NULL) : NULL;
	close(p[0]);
	while (pid > 0 && waitpid(pid, &status, 0) == -1 && errno == EINTR)
		;
	return pid > 0 ? status : -1;
}

static int
succeeded(int status)
{
	return status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

int
cann_load(const char *set_env, char **why)
{
	const char *argv[] = { "bash", "-c",
	    ". \"$1\" >/dev/null 2>&1 && env -0", "msprof-exec", set_env, NULL };
	char *out = NULL, *p, *end;
	size_t len = 0;
	int status;

	if (access(set_env, R_OK) == -1) {
		*why = xasprintf(_("%s: %s; give the CANN set_env.sh with "
		    "--cann-env"), set_env, strerror(errno));
		return -1;
	}
	status = capture(argv, STDOUT_FILENO, &out);
	if (!succeeded(status) || out == NULL) {
		*why = xasprintf(_("sourcing %s failed; check the CANN "
		    "installation"), set_env);
		free(out);
		return -1;
	}
	/* env -0: NAME=value entries separated by NUL bytes. */
	for (p = out; *p != '\0'; p = end + 1) {
		end = p + strlen(p);
		len = strcspn(p, "=");
		if (p[len] == '=') {
			p[len] = '\0';
			if (strcmp(p, "_") != 0 && strcmp(p, "SHLVL") != 0 &&
			    strcmp(p, "PWD") != 0)
				setenv(p, p + len + 1, 1);
		}
	}
	free(out);
	return 0;
}

static int
no_npu(int quiet)
{
	(void)quiet;
	fprintf(stderr, _("No NPU detected in the current environment. Please "
	    "run in an environment with Ascend NPU.\n"));
	return EX_UNAVAILABLE;
}

/* The CANN environment: already loaded, or loaded from a set_env.sh. */
static int
cann(const char *cann_env)
{
	char *why = NULL, *looked;

	if (cann_env == NULL && (getenv("ASCEND_TOOLKIT_HOME") != NULL ||
	    getenv("ASCEND_HOME_PATH") != NULL))
		return 0;
	if (cann_env != NULL) {
		if (access(cann_env, R_OK) == -1) {
			warn(_("--cann-env %s"), cann_env);
			return EX_NOINPUT;
		}
	} else {
		for (int i = 0; set_envs[i] != NULL && cann_env == NULL; i++)
			if (access(set_envs[i], R_OK) == 0)
				cann_env = set_envs[i];
	}
	if (cann_env == NULL) {
		looked = xasprintf("%s, %s", set_envs[0], set_envs[1]);
		warnx(_("the CANN environment is not loaded and no set_env.sh "
		    "was found (looked for %s); source it before running, or "
		    "give --cann-env FILE"), looked);
		free(looked);
		return EX_UNAVAILABLE;
	}
	if (cann_load(cann_env, &why) == -1) {
		warnx("%s", why);
		free(why);
		return EX_UNAVAILABLE;
	}
	return 0;
}

/* The last non-empty line of TEXT (an exception's message). */
static char *
last_line(char *text)
{
	char *p;

	if (text == NULL)
		return xstrdup("");
	while ((p = strrchr(text, '\n')) != NULL && p[1] == '\0')
		*p = '\0';
	p = strrchr(text, '\n');
	return xstrdup(p != NULL ? p + 1 : text);
}

static int
torch_npu(const char *python)
{
	const char *argv[] = { python, "-c", "import torch, torch_npu, sys\n"
	    "sys.exit(0 if torch.npu.is_available() else 3)", NULL };
	char *errtext = NULL, *line;
	int status = capture(argv, STDERR_FILENO, &errtext);

	if (succeeded(status)) {
		free(errtext);
		return 0;
	}
	line = last_line(errtext);
	if (status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 3)
		warnx(_("torch.npu.is_available() is False for %s: the driver "
		    "or the CANN environment does not match torch_npu; check "
		    "npu-smi info and the CANN, torch_npu and driver versions"),
		    python);
	else if (status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 127)
		warnx(_("%s: not found; the job's Python must be on PATH"),
		    python);
	else
		warnx(_("%s cannot import torch and torch_npu (%s); install the "
		    "torch_npu that matches your torch and CANN"), python, line);
	free(line);
	free(errtext);
	return EX_UNAVAILABLE;
}

int
preflight(const char *python, const char *cann_env, int quiet)
{
	const char *argv[] = { "npu-smi", "info", NULL };
	int rc;

	if ((rc = cann(cann_env)) != 0)
		return rc;
	if (!succeeded(capture(argv, STDOUT_FILENO, NULL)))
		return no_npu(quiet);
	return torch_npu(python != NULL ? python : "python3");
}

/*
 * The Python that will run the job: the command itself, or the
 * interpreter of its #! line (torchrun's); python3 when unknown.
 */
const char *
job_python(const char *path)
{
	static char line[256];
	char *text, *p;
	if (path == NULL)
		return NULL;
	if (strncmp(path_base(path), "python", 6) == 0)
		return path;
	if ((text = read_file(path, NULL)) == NULL || strncmp(text, "#!", 2)) {
		free(text);
		return NULL;
	}
	snprintf(line, sizeof(line), "%s", text + 2);
	free(text);
	line[strcspn(line, "\n")] = '\0';
	/* #!/usr/bin/env python3 names the interpreter second. */
	if ((p = strtok(line, " \t")) != NULL && strcmp(path_base(p), "env") == 0)
		p = strtok(NULL, " \t");
	return p != NULL && strncmp(path_base(p), "python", 6) == 0 ? p : NULL;
}

