/* The checks that spare a wasted run: NPU, CANN, torch_npu. */
#include <sys/wait.h>

#include <ctype.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>
#include <unistd.h>

#include "shim/match.h"
#include "preflight.h"
#include "common/plan.h"
#include "common/platconf.h"
#include "common/util.h"

/*
 * Where CANN puts set_env.sh, newest layout first: the root install under
 * /usr/local/Ascend, then the usual install of a user without root,
 * $HOME/Ascend.
 */
static const char *const set_env_dirs[] = { "cann", "ascend-toolkit", NULL };
#define SET_ENV_ROOT	"/usr/local/Ascend"

/* What the script sets up for itself before its launch. */
struct setup {
	char	*cann;		/* the set_env.sh line it sources, or NULL */
	char	*python;	/* the conda/venv line it activates, or NULL */
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
	warnx(_("No NPU detected in the current environment. Please "
	    "run in an environment with Ascend NPU."));
	return EX_UNAVAILABLE;
}

/*
 * The first set_env.sh that exists, a copy; NULL when none does.  *LOOKED
 * gets the list of places, for the message.
 */
static char *
set_env_find(char **looked)
{
	const char *home = getenv("HOME"), *roots[2] = { SET_ENV_ROOT, NULL };
	char *home_root = NULL, *p, *found = NULL, *list = NULL, *l;

	if (home != NULL && *home == '/')
		roots[1] = home_root = xasprintf("%s/Ascend", home);
	for (int r = 0; r < 2 && roots[r] != NULL; r++)
		for (int d = 0; set_env_dirs[d] != NULL; d++) {
			p = xasprintf("%s/%s/set_env.sh", roots[r],
			    set_env_dirs[d]);
			l = list == NULL ? xstrdup(p) :
			    xasprintf("%s, %s", list, p);
			free(list);
			list = l;
			if (found == NULL && access(p, R_OK) == 0)
				found = p;
			else
				free(p);
		}
	free(home_root);
	*looked = list;
	return found;
}

/* The CANN environment: already loaded, or loaded from a set_env.sh. */
int
preflight_cann(const char *cann_env)
{
	char *why = NULL, *looked = NULL, *found = NULL;
	int rc;

	if (cann_env == NULL && (getenv("ASCEND_TOOLKIT_HOME") != NULL ||
	    getenv("ASCEND_HOME_PATH") != NULL))
		return 0;
	if (cann_env != NULL) {
		if (access(cann_env, R_OK) == -1) {
			warn(_("--cann-env %s"), cann_env);
			return EX_NOINPUT;
		}
	} else
		cann_env = found = set_env_find(&looked);
	if (cann_env == NULL) {
		warnx(_("the CANN environment is not loaded and no set_env.sh "
		    "was found (looked for %s); source it before running, or "
		    "give --cann-env FILE"), looked);
		free(looked);
		return EX_UNAVAILABLE;
	}
	free(looked);
	rc = cann_load(cann_env, &why) == -1 ? EX_UNAVAILABLE : 0;
	if (rc != 0)
		warnx("%s", why);
	free(why);
	free(found);
	return rc;
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

/* Does LINE source (source or ".") a file whose name ends in ENDING? */
static int
sources(const char *line, const char *ending)
{
	size_t n, e = strlen(ending);
	char word[PATH_MAX];

	line += strspn(line, " \t");
	if (strncmp(line, "source", 6) == 0 && strchr(" \t", line[6]) != NULL)
		line += 6;
	else if (line[0] == '.' && strchr(" \t", line[1]) != NULL)
		line += 1;
	else
		return 0;
	line += strspn(line, " \t");
	n = strcspn(line, " \t;&|#");
	if (n == 0 || n >= sizeof(word))
		return 0;
	memcpy(word, line, n);
	word[n] = '\0';
	/* Quotes around the path: "$ASCEND/set_env.sh". */
	while (n > 0 && (word[n - 1] == '"' || word[n - 1] == '\''))
		word[--n] = '\0';
	return n >= e && strcmp(word + n - e, ending) == 0;
}

/* Does LINE activate a conda environment or a virtualenv? */
static int
activates(const char *line)
{
	const char *p = line + strspn(line, " \t");

	return strncmp(p, "conda activate ", 15) == 0 ||
	    strncmp(p, "source activate ", 16) == 0 ||
	    sources(p, "/bin/activate");
}

/*
 * What SCRIPT sets up for itself: a set_env.sh it sources, a conda or
 * virtual environment it activates (each the first such line).  The line
 * is read as written; only the script's own lines are looked at.
 */
static void
script_setup(const char *script, struct setup *su)
{
	char *text, *line, *next;

	memset(su, 0, sizeof(*su));
	if (script == NULL || (text = read_file(script, NULL)) == NULL)
		return;
	for (line = text; line != NULL && *line != '\0'; line = next) {
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		if (su->cann == NULL && sources(line, "set_env.sh"))
			su->cann = xstrdup(line + strspn(line, " \t"));
		if (su->python == NULL && activates(line))
			su->python = xstrdup(line + strspn(line, " \t"));
	}
	free(text);
}

static int
cann_loaded(void)
{
	return getenv("ASCEND_TOOLKIT_HOME") != NULL ||
	    getenv("ASCEND_HOME_PATH") != NULL;
}

/*
 * The device memory npu-smi info shows, in MB: the total of "HBM-Usage(MB)
 * used / total", the last pair of each chip line (the one with a bus id),
 * the smallest over the cards; 0 when the table has no such column.
 */
static int
hbm_mb(const char *text)
{
	const char *line, *p;
	long total, least = 0;

	if (text == NULL || strstr(text, "HBM-Usage(MB)") == NULL)
		return 0;
	for (line = text; *line != '\0'; line = p + (*p != '\0')) {
		const char *pair = NULL;

		p = line + strcspn(line, "\n");
		for (const char *q = line; q < p; q++)
			if (q[0] == ' ' && q[1] == '/' && q[2] == ' ')
				pair = q + 3;
		if (pair == NULL || memchr(line, ':', (size_t)(p - line)) == NULL)
			continue;
		total = strtol(pair, NULL, 10);
		if (total > 0 && (least == 0 || total < least))
			least = total;
	}
	return least > INT_MAX ? 0 : (int)least;
}

/* Is P a PCI bus id ("0000:C1:00.0")? */
static int
bus_id(const char *p)
{
	static const char shape[] = "xxxx:xx:xx.x";

	for (size_t i = 0; i < sizeof(shape) - 1; i++)
		if (shape[i] == 'x' ? !isxdigit((unsigned char)p[i]) :
		    p[i] != shape[i])
			return 0;
	return 1;
}

/*
 * The NPUs npu-smi info lists: its chip lines, each with its bus id (a
 * card of two chips has two).
 */
static int
npu_count(const char *text)
{
	const char *line, *eol;
	int n = 0;

	for (line = text; line != NULL && *line != '\0';
	    line = *eol != '\0' ? eol + 1 : eol) {
		eol = line + strcspn(line, "\n");
		for (const char *p = line; p + 12 <= eol; p++)
			if ((p == line || p[-1] == ' ') && bus_id(p)) {
				n++;
				break;
			}
	}
	return n;
}

int
preflight_npus(struct plan *plan)
{
	const char *argv[] = { "npu-smi", "info", NULL };
	char *smi = NULL;

	if (succeeded(capture(argv, STDOUT_FILENO, &smi)))
		plan->npus_listed = npu_count(smi);
	free(smi);
	return plan->npus_listed;
}

void
preflight_npus_warn(const struct plan *plan, int npus)
{
	if (plan->npus_listed > 0 && npus > plan->npus_listed)
		warnx(_("warning: the launch runs %d processes a node "
		    "(--nproc_per_node, NPUS_PER_NODE), but npu-smi info lists "
		    "%d NPUs here: a rank past them fails to set its device "
		    "(CANN's EE1001: Invalid device ID); give it %d or fewer"),
		    npus, plan->npus_listed, plan->npus_listed);
}

/*
 * The chip npu-smi info names: the word after the NPU's number in the
 * first cell of its first card line ("| 0     910B3     | OK ..."; the
 * chip lines below it hold two numbers there), a copy; NULL when none.
 */
static char *
chip_name(const char *text)
{
	const char *line, *eol, *p;
	size_t n;

	for (line = text; line != NULL && *line != '\0';
	    line = *eol != '\0' ? eol + 1 : eol) {
		eol = line + strcspn(line, "\n");
		if (*line != '|')
			continue;
		p = line + 1 + strspn(line + 1, " ");
		n = strspn(p, "0123456789");
		if (n == 0 || (p[n] != ' ' && p[n] != '\t'))
			continue;
		p += n + strspn(p + n, " \t");
		n = strcspn(p, " \t|\n");
		/* the chip's name has a letter; the next cell follows it */
		if (n == 0 || strcspn(p, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
		    "abcdefghijklmnopqrstuvwxyz") >= n ||
		    p[n + strspn(p + n, " \t")] != '|')
			continue;
		return xstrndup(p, n);
	}
	return NULL;
}

/*
 * For the MFU: the chip npu-smi names and, from CANN's platform_config,
 * its AI cores and cube clock; why not, when not.
 */
static void
chip_record(const char *smi, struct plan *plan)
{
	struct platconf pc;

	free(plan->chip);
	free(plan->chip_ini);
	free(plan->chip_why);
	plan->chip_ini = plan->chip_why = NULL;
	plan->chip_cores = plan->chip_mhz = 0;
	if ((plan->chip = chip_name(smi)) == NULL) {
		plan->chip_why = xstrdup(_("npu-smi info names no chip"));
		return;
	}
	if (platconf_read(plan->chip, &pc, &plan->chip_why) == -1)
		return;
	plan->chip_cores = pc.cores;
	plan->chip_mhz = pc.mhz;
	plan->chip_ini = pc.path;
}

int
preflight(const char *python, const char *cann_env, const char *script,
    int quiet, struct plan *plan)
{
	const char *argv[] = { "npu-smi", "info", NULL };
	struct setup su;
	char *smi = NULL;
	int rc = 0;

	script_setup(script, &su);
	/*
	 * A script that loads CANN itself, or its own Python, has an
	 * environment here that the job will not have: what depends on it
	 * is left to the job, and said so.
	 */
	if (cann_env == NULL && !cann_loaded() && su.cann != NULL) {
		if (!quiet)
			warnx(_("the script loads its own CANN environment "
			    "(%s): the CANN and torch_npu checks are left to "
			    "the job"), su.cann);
	} else if ((rc = preflight_cann(cann_env)) != 0)
		goto out;
	if (!succeeded(capture(argv, STDOUT_FILENO, &smi))) {
		rc = no_npu(quiet);
		goto out;
	}
	plan->device_mb = hbm_mb(smi);
	plan->npus_listed = npu_count(smi);
	chip_record(smi, plan);
	if (su.cann != NULL && cann_env == NULL && !cann_loaded())
		goto out;
	if (su.python != NULL) {
		if (!quiet)
			warnx(_("the script activates its own Python (%s): the "
			    "torch_npu check is left to the job"), su.python);
		goto out;
	}
	rc = torch_npu(python != NULL ? python : "python3");
out:
	if (rc != 0)
		warnx(_("to run without these checks, add --skip-checks"));
	free(su.cann);
	free(su.python);
	free(smi);
	return rc;
}
