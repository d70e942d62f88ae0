/*
 * msprof-exec tune [OPTIONS] [--tries N] [--baseline DIR] [--] COMMAND:
 * the settings the baseline's report advises, tried one by one.
 *
 * A baseline run (or the earlier run --baseline names), then one short
 * run of the command per advised setting its launch does not have yet,
 * the most promising first (the finding with the largest share of the
 * step), at most --tries; only settings the table marks safe to try
 * (common/settings.c: no change of the numerics or of the checkpoints),
 * and before them those the user names with --set.  Each run is an
 * ordinary `msprof-exec -o DIR/NN-NAME --set NAME ... COMMAND`, started
 * as a process of its own: its data, its report and the diagnosis of a
 * failure are those of any run, and a failed try leaves the others
 * going.  Each is compared with the baseline by `msprof-exec compare`
 * (its noise margin decides); the end is one table, the command line
 * with the settings that helped, and a run with them together when two
 * or more did.  SIGINT ends the current try (the run passes it on to its
 * job) and the table of the tries done is still printed.
 */
#include <sys/stat.h>
#include <sys/wait.h>

#include <dirent.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>
#include <unistd.h>

#include "common/i18n.h"
#include "common/jsonfile.h"
#include "common/settings.h"
#include "common/util.h"
#include "options.h"
#include "report/report.h"
#include "commands.h"

#define DEFAULT_TRIES	5
#define MAX_SLUG	40

/* The parts of a step, as `compare` names them in its JSON. */
enum { P_STEP, P_COMP, P_COMM, P_FREE, P_BUBBLE, P_N };
static const char *const part_keys[P_N] = { "step", "computing",
    "communication_not_overlapped", "free", "bubble" };
static const char *const part_names[P_N] = { N_("step"), N_("computing"),
    N_("exposed communication"), N_("free"), N_("bubble") };

enum outcome { O_PENDING, O_COMPARED, O_FAILED, O_INTERRUPTED,
    O_NOT_COMPARED };

struct trial {
	struct strv	 sets;		/* as --set takes them */
	char		*label;		/* shown */
	char		*dir;		/* its output folder */
	int		 asked;		/* named with --set */
	enum outcome	 outcome;
	char		*why;		/* failed, not compared: why */
	double		 before[P_N], after[P_N];	/* µs per step */
	double		 change;	/* of the base step */
	double		 margin;	/* share of the base step */
	int		 significant, kept;
};

struct tune {
	struct strv	 pass;		/* options passed on to every run */
	struct strv	 sets;		/* --set: tried first, whatever the table */
	char		**cmd;
	char		*out;		/* -o: the runs' folders go under it */
	char		*baseline;	/* --baseline DIR */
	char		*json;		/* --json FILE: the table */
	char		*self;		/* this program */
	int		 tries, yes, quiet;
	int		 base_done;	/* the baseline's report is there */
	char		*base_dir;	/* the baseline's output */
	char		*base_why;	/* the baseline failed: why */
	struct trial	*t;
	size_t		 n;
	struct trial	 together;
	int		 has_together;
};

static volatile sig_atomic_t interrupted;
static volatile pid_t child;

/*
 * A signal from the terminal reached the run already (it is in this
 * group); one sent to tune alone (kill) is passed on to the run.
 */
static void
on_signal(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	interrupted = sig;
	if (si != NULL && si->si_code <= 0 && child > 0)
		kill(child, sig);
}

static void
catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_signal;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

static void
say(const struct tune *tu, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* A progress line, on stderr. */
static void
say(const struct tune *tu, const char *fmt, ...)
{
	va_list ap;

	if (tu->quiet)
		return;
	fprintf(stderr, "msprof-exec tune: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void __attribute__((noreturn))
tune_usage(int status)
{
	fprintf(status == 0 ? stdout : stderr, _(
"usage: msprof-exec tune [OPTIONS] [--tries N] [--baseline DIR] [--] COMMAND [ARG...]\n"
"\n"
"Run COMMAND once as a baseline (or take the run --baseline names), then once\n"
"per setting its report advises and its launch lacks, most promising first,\n"
"each compared with the baseline against the noise margin; settings that\n"
"change the numerics or the checkpoints are tried only when named with --set.\n"
"Each try is one launch of the job for the profiled window.\n"
"\n"
"      --tries N        at most N tries (%d); 0: show what would be tried\n"
"      --set NAME[=V]   try this setting too, first (repeatable)\n"
"      --baseline DIR   an earlier run of COMMAND as the baseline\n"
"  -o, --output DIR     the runs' folders go under DIR (./profiling_output/tune)\n"
"      --json FILE      the table as JSON\n"
"  -y, --yes            do not ask for confirmation of the first run\n"
"Every other option of a profiled run (msprof-exec --help) is passed on.\n"),
	    DEFAULT_TRIES);
	exit(status);
}

/* The options of tune itself; the others are a profiled run's. */
enum { OPT_TRIES = 1000, OPT_TJSON, OPT_TSET, OPT_TBASE };

static const struct option own[] = {
	{ "tries",	required_argument, NULL, OPT_TRIES },
	{ "json",	required_argument, NULL, OPT_TJSON },
	{ "set",	required_argument, NULL, OPT_TSET },
	{ "baseline",	required_argument, NULL, OPT_TBASE },
};
#define NOWN	(sizeof(own) / sizeof(own[0]))

/* Tune's options first: a name in both is tune's. */
static struct option *
all_options(void)
{
	size_t n = 0, k;
	struct option *all;

	while (options_longopts[n].name != NULL)
		n++;
	all = xcalloc(NOWN + n + 1, sizeof(*all));
	memcpy(all, own, sizeof(own));
	for (k = 0; k < n; k++)
		all[NOWN + k] = options_longopts[k];
	return all;
}

/* An option of a run, passed on in its canonical spelling. */
static void
pass_on(struct tune *tu, const struct option *all, int c, int idx)
{
	char opt[3] = { '-', (char)c, '\0' };

	if (c < 256 && idx < 0)
		strv_push(&tu->pass, opt);
	else
		strv_pushf(&tu->pass, "--%s", all[idx].name);
	if (optarg != NULL)
		strv_push(&tu->pass, optarg);
}

/*
 * A file every run would write in turn (--html, --log) is refused: each
 * run's log and report are in its own folder.
 */
static void
refuse_shared(const struct option *all, int idx)
{
	if (idx >= 0 && (strcmp(all[idx].name, "html") == 0 ||
	    strcmp(all[idx].name, "log") == 0))
		errx(EX_USAGE, _("--%s is not an option of tune: each run "
		    "writes its log and report in its own folder under -o "
		    "(msprof-exec.txt, report.json)"), all[idx].name);
}

static int
tries_value(const char *v)
{
	char *end;
	long n = strtol(v, &end, 10);

	if (*v == '\0' || *end != '\0' || n < 0 || n > 1000)
		errx(EX_USAGE, _("--tries '%s': give a whole number from 0 to "
		    "1000"), v);
	return (int)n;
}

static void
parse(int argc, char **argv, struct tune *tu)
{
	struct option *all = all_options();
	int c, idx;

	tu->tries = DEFAULT_TRIES;
	optind = 0;
	opterr = 0;
	while (idx = -1, (c = getopt_long(argc, argv, OPTIONS_SHORT, all,
	    &idx)) != -1) {
		switch (c) {
		case '?':
			errx(EX_USAGE, _("unknown option '%s'; see 'msprof-exec "
			    "tune --help'"), argv[optind - 1]);
		case ':':
			errx(EX_USAGE, _("option '%s' needs a value; see "
			    "'msprof-exec tune --help'"), argv[optind - 1]);
		case 'h':
			tune_usage(0);
		case 'V':
		case 'n':
			errx(EX_USAGE, _("'%s' is not an option of tune; to see "
			    "what it would try, give --tries 0"),
			    argv[optind - 1]);

		case OPT_TRIES: tu->tries = tries_value(optarg); break;
		case OPT_TJSON: free(tu->json); tu->json = xstrdup(optarg);
			break;
		case OPT_TSET: strv_push(&tu->sets, optarg); break;
		case OPT_TBASE: free(tu->baseline);
			tu->baseline = xstrdup(optarg);
			break;
		case 'o': free(tu->out); tu->out = xstrdup(optarg); break;
		case 'y': tu->yes = 1; break;
		case 'q': tu->quiet = 1; pass_on(tu, all, c, idx); break;
		default:
			refuse_shared(all, idx);
			pass_on(tu, all, c, idx);
			break;
		}
	}
	free(all);
	tu->cmd = argv + optind;
	if (tu->cmd[0] == NULL) {
		warnx(_("tune needs the training's command"));
		tune_usage(EX_USAGE);
	}
	if (tu->out == NULL)
		tu->out = xstrdup("profiling_output/tune");
}

/*
 * Every value checked as a profiled run checks it (64 on a bad one),
 * before anything runs: the options passed on and each --set.
 */
static void
check_values(const struct tune *tu)
{
	struct strv v = { 0 };
	struct options o;

	strv_push(&v, "msprof-exec");
	for (size_t i = 0; i < tu->pass.n; i++)
		strv_push(&v, tu->pass.v[i]);
	for (size_t i = 0; i < tu->sets.n; i++) {
		strv_push(&v, "--set");
		strv_push(&v, tu->sets.v[i]);
	}
	strv_push(&v, "--");
	for (char **c = tu->cmd; *c != NULL; c++)
		strv_push(&v, *c);
	optind = 0;	/* getopt starts afresh on another vector */
	options_parse((int)v.n, v.v, &o);
	options_free(&o);
	strv_free(&v);
}

/* The output folder must be new or empty: the tries' data must not mix. */
static void
check_output(const struct tune *tu)
{
	DIR *d;
	struct dirent *e;

	if ((d = opendir(tu->out)) != NULL) {
		while ((e = readdir(d)) != NULL)
			if (strcmp(e->d_name, ".") != 0 &&
			    strcmp(e->d_name, "..") != 0) {
				closedir(d);
				errx(EX_CANTCREAT, _("-o %s: not empty; give a "
				    "new folder for the tries (each run makes "
				    "one inside)"), tu->out);
			}
		closedir(d);
	}
	if (mkdirs(tu->out, 0777) == -1)
		err(EX_CANTCREAT, _("-o %s: cannot create it; give a path in "
		    "a writable directory"), tu->out);
}

/*
 * Run ARGV, its output into LOG, until it ends; its wait status, or -1
 * when it could not start.
 */
static int
spawn(char *const argv[], const char *log)
{
	sigset_t block, old;
	int fd, status;
	pid_t pid;

	if ((fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
	    0666)) == -1) {
		warn(_("cannot write %s"), log);
		return -1;
	}
	fflush(NULL);
	/* no signal may fall between the fork and knowing the child */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigprocmask(SIG_BLOCK, &block, &old);
	if ((pid = fork()) == -1) {
		warn("fork");
		sigprocmask(SIG_SETMASK, &old, NULL);
		close(fd);
		return -1;
	}
	if (pid == 0) {
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		sigprocmask(SIG_SETMASK, &old, NULL);
		dup2(fd, STDOUT_FILENO);
		dup2(fd, STDERR_FILENO);
		execv(argv[0], argv);
		fprintf(stderr, "msprof-exec tune: %s: %s\n", argv[0],
		    strerror(errno));
		_exit(127);
	}
	child = pid;
	sigprocmask(SIG_SETMASK, &old, NULL);
	close(fd);
	while (waitpid(pid, &status, 0) == -1)
		if (errno != EINTR) {
			status = -1;
			break;
		}
	child = 0;
	return status;
}

/* One profiled run of the command with SETS, into DIR; its status. */
static int
run_with(const struct tune *tu, const struct strv *sets, const char *dir,
    int first)
{
	struct strv v = { 0 };
	char *log = xasprintf("%s/msprof-exec.txt", dir);
	int status;

	if (mkdirs(dir, 0777) == -1)
		err(EX_CANTCREAT, _("cannot create %s"), dir);
	strv_push(&v, tu->self);
	for (size_t i = 0; i < tu->pass.n; i++)
		strv_push(&v, tu->pass.v[i]);
	if (!first || tu->yes)
		strv_push(&v, "-y");
	/* a training that failed behind '| tee' is a failed try */
	strv_push(&v, "--strict");
	strv_push(&v, "-o");
	strv_push(&v, dir);
	strv_push(&v, "--json");
	strv_pushf(&v, "%s/report.json", dir);
	for (size_t i = 0; i < sets->n; i++) {
		strv_push(&v, "--set");
		strv_push(&v, sets->v[i]);
	}
	strv_push(&v, "--");
	for (char **c = tu->cmd; *c != NULL; c++)
		strv_push(&v, *c);
	status = spawn(v.v, log);
	strv_free(&v);
	free(log);
	return status;
}

/*
 * LINE as argparse ends a launch it refuses ("pretrain_gpt.py: error:
 * unrecognized arguments: --x", after a launcher's "[default0]:" if
 * any), from the program's name on; or NULL.
 */
static char *
argparse_error(const char *line)
{
	const char *e = strstr(line, ": error: "), *prog = e;

	if (e == NULL)
		return NULL;
	while (prog > line && strchr(" ]:", prog[-1]) == NULL)
		prog--;
	return prog < e ? xstrdup(prog) : NULL;
}

/*
 * The first line of the run's output that names a Python exception
 * ("AssertionError: ..."; the launcher's own error about its failed
 * workers comes after it) or argparse's refusal: what a failure the
 * diagnosis does not know says of itself; NULL without one.
 */
static char *
exception_line(const char *dir)
{
	char *path = xasprintf("%s/msprof-exec.txt", dir), *text, *line;
	char *found = NULL, *save = NULL, *colon;

	text = read_file(path, NULL);
	free(path);
	for (line = text != NULL ? strtok_r(text, "\n", &save) : NULL;
	    line != NULL; line = strtok_r(NULL, "\n", &save)) {
		if ((found = argparse_error(line)) != NULL)
			break;
		colon = strstr(line, ": ");
		if (colon == NULL || line[strspn(line, "abcdefghijklmnopqrstuvwxyz"
		    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.")] != ':')
			continue;
		if ((colon - line > 5 && strncmp(colon - 5, "Error", 5) == 0) ||
		    (colon - line > 9 && strncmp(colon - 9, "Exception", 9) == 0)) {
			found = xasprintf("%.*s: %s", (int)(colon - line), line,
			    colon + 1 + strspn(colon + 1, " "));
			break;
		}
	}
	free(text);
	return found;
}

/*
 * What a run that failed says: the error its log gives, else its report's
 * diagnosis, else the exception in its output, else its status.
 */
static char *
failure(const char *dir, int status)
{
	char *path = xasprintf("%s/report.json", dir), *why = NULL, *text;
	cJSON *doc = json_read(path, &why), *d;

	free(path);
	free(why);
	/* the error its log gives first (not torchrun's), else the known one */
	d = cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "errors"), 0);
	d = strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(d, "kind")) ?: "",
	    "child_failed") != 0 ? cJSON_GetObjectItem(d, "text") : NULL;
	if (!cJSON_IsString(d))
		d = cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "diagnosis"), 0);
	if (cJSON_IsString(d))
		text = xstrdup(d->valuestring);
	else if ((text = exception_line(dir)) != NULL)
		;
	else if (status == -1)
		text = xstrdup(_("could not start"));
	else if (WIFSIGNALED(status))
		text = xasprintf(_("ended by signal %d"), WTERMSIG(status));
	else
		text = xasprintf(_("exit status %d"), WEXITSTATUS(status));
	cJSON_Delete(doc);
	return text;
}

static int
was_interrupted(int status)
{
	return interrupted || (status != -1 && ((WIFSIGNALED(status) &&
	    WTERMSIG(status) == SIGINT) || (WIFEXITED(status) &&
	    WEXITSTATUS(status) == 128 + SIGINT)));
}

/* A number of an object, NAN when absent. */
static double
num(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItem(o, key);

	return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

/* Read the comparison of T's run with the baseline (compare.json). */
static void
read_compare(struct trial *t, const char *path)
{
	char *why = NULL;
	cJSON *doc = json_read(path, &why), *steps, *f;
	const cJSON *key;

	if (doc == NULL) {
		t->outcome = O_NOT_COMPARED;
		t->why = why != NULL ? why : xstrdup(_("no comparison"));
		return;
	}
	steps = cJSON_GetObjectItem(doc, "steps");
	if (!cJSON_IsTrue(cJSON_GetObjectItem(steps, "compared"))) {
		key = cJSON_GetObjectItem(steps, "why");
		t->outcome = O_NOT_COMPARED;
		t->why = xstrdup(cJSON_IsString(key) ? key->valuestring :
		    _("the steps were not compared"));
		cJSON_Delete(doc);
		return;
	}
	t->margin = num(cJSON_GetObjectItem(doc, "noise_margin"), "share");
	cJSON_ArrayForEach(f, cJSON_GetObjectItem(steps, "figures")) {
		key = cJSON_GetObjectItem(f, "figure");
		for (int p = 0; p < P_N; p++)
			if (cJSON_IsString(key) &&
			    strcmp(key->valuestring, part_keys[p]) == 0) {
				t->before[p] = num(f, "base_us");
				t->after[p] = num(f, "new_us");
				if (p == P_STEP) {
					t->change = num(f,
					    "change_of_base_step");
					t->significant = cJSON_IsTrue(
					    cJSON_GetObjectItem(f,
					    "significant"));
				}
			}
	}
	t->outcome = O_COMPARED;
	t->kept = t->significant && t->change < 0;
	cJSON_Delete(doc);
}

/* Compare T's run with the baseline by `msprof-exec compare`. */
static void
compare_try(const struct tune *tu, struct trial *t)
{
	char *json = xasprintf("%s/compare.json", t->dir);
	char *log = xasprintf("%s/compare.txt", t->dir);
	char *argv[] = { tu->self, (char *)"compare", (char *)"--json", json,
	    tu->base_dir, t->dir, NULL };

	unlink(json);
	spawn(argv, log);
	read_compare(t, json);
	free(json);
	free(log);
}

/* Run and judge one trial. */
static void
try_one(const struct tune *tu, struct trial *t)
{
	int status = run_with(tu, &t->sets, t->dir, 0);

	if (was_interrupted(status)) {
		t->outcome = O_INTERRUPTED;
		return;
	}
	if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		t->outcome = O_FAILED;
		t->why = failure(t->dir, status);
		return;
	}
	compare_try(tu, t);
}

/* The folder of trial I: "NN-" and the setting, in safe letters. */
static char *
trial_dir(const struct tune *tu, size_t i, const char *name)
{
	char slug[MAX_SLUG + 1];
	size_t k = 0;

	for (name += strspn(name, "-"); *name != '\0' && k < MAX_SLUG;
	    name++)
		slug[k++] = (*name >= 'a' && *name <= 'z') || (*name >= 'A' &&
		    *name <= 'Z') || (*name >= '0' && *name <= '9') ||
		    *name == '.' || *name == '_' ? *name : '-';
	slug[k] = '\0';
	return xasprintf("%s/%02zu-%s", tu->out, i, slug);
}

/* Is SET a setting of NAME (the part before any '=')? */
static int
same_name(const char *set, const char *name)
{
	size_t n = strcspn(name, "=");

	return strncmp(set, name, n) == 0 && strcspn(set, "=") == n;
}

/* The setting of NAME among SETS, or NULL. */
static const char *
find_set(const struct strv *sets, const char *name)
{
	for (size_t k = 0; k < sets->n; k++)
		if (same_name(sets->v[k], name))
			return sets->v[k];
	return NULL;
}

/*
 * Is NAME tried already?  A trial's own setting comes first in its sets;
 * those after it are what it needs, and do not stand for a try of theirs.
 */
static int
planned(const struct tune *tu, const char *name)
{
	for (size_t i = 0; i < tu->n; i++)
		if (same_name(tu->t[i].sets.v[0], name))
			return 1;
	return 0;
}

/* A trial of SET, with the settings WITH it needs (or NULL). */
static void
add_trial(struct tune *tu, const char *set, const struct strv *with,
    int asked)
{
	struct trial *t;
	char *label;

	tu->t = xreallocarray(tu->t, tu->n + 1, sizeof(*tu->t));
	t = &tu->t[tu->n];
	memset(t, 0, sizeof(*t));
	strv_push(&t->sets, set);
	t->label = xstrdup(set);
	for (size_t k = 0; with != NULL && k < with->n; k++) {
		strv_push(&t->sets, with->v[k]);
		label = xasprintf(k == 0 ? _("%s with %s") : "%s, %s",
		    t->label, with->v[k]);
		free(t->label);
		t->label = label;
	}
	t->asked = asked;
	tu->n++;
	t->dir = trial_dir(tu, tu->n, set);
}

/*
 * The --set a table row is tried with: a flag given bare, a variable or
 * key with the value its test wants; NULL when the row has no such value
 * (the user must choose one).
 */
static char *
trial_setting(const struct setting *row)
{
	if (row->kind == SET_FLAG && row->test == TEST_PRESENT)
		return xstrdup(row->name);
	if ((row->kind == SET_ENV || row->kind == SET_YAML) &&
	    row->value != NULL && (row->test == TEST_EQUALS ||
	    row->test == TEST_AT_LEAST || row->test == TEST_CONTAINS))
		return xasprintf("%s=%s", row->name, row->value);
	return NULL;
}

/* How promising a finding is: its largest share of the step. */
static double
promise(const cJSON *finding)
{
	const cJSON *e;
	double best = 0;

	cJSON_ArrayForEach(e, cJSON_GetObjectItem(finding, "evidence"))
		if (cJSON_IsNumber(e) && strstr(e->string, "share") != NULL &&
		    e->valuedouble > best && e->valuedouble <= 1)
			best = e->valuedouble;
	return best;
}

/* Does the baseline's launch have NAME on, as a finding of FINDINGS says? */
static int
launch_has(const cJSON *findings, const char *name)
{
	const cJSON *f, *s, *n, *st;

	cJSON_ArrayForEach(f, findings)
		cJSON_ArrayForEach(s, cJSON_GetObjectItem(f, "settings")) {
			n = cJSON_GetObjectItem(s, "name");
			st = cJSON_GetObjectItem(s, "state");
			if (cJSON_IsString(n) && strcmp(n->valuestring, name) == 0 &&
			    cJSON_IsString(st) && strcmp(st->valuestring, "on") == 0)
				return 1;
		}
	return 0;
}

/*
 * The settings ROW cannot run without that the launch lacks, into WITH:
 * the user's own value when --set names it, else the table's when it is
 * safe to try; -1, said why, when one is neither.
 */
static int
needed(const struct tune *tu, const cJSON *findings,
    const struct setting *row, struct strv *with)
{
	const struct setting *const *needs = setting_needs(row, NULL);
	const struct setting *need;
	const char *named;
	char *set;

	for (size_t i = 0; needs != NULL && needs[i] != NULL; i++) {
		need = needs[i];
		if ((named = find_set(&tu->sets, need->name)) != NULL) {
			strv_push(with, named);
			continue;
		}
		if (launch_has(findings, need->name))
			continue;
		set = need->trial == TRIAL_SAFE ? trial_setting(need) : NULL;
		if (set == NULL) {
			say(tu, _("not tried: %s (the training refuses it "
			    "without %s, which tune does not try unasked; "
			    "name both with --set to try them)"), row->name,
			    need->name);
			return -1;
		}
		strv_push(with, set);
		free(set);
	}
	return 0;
}

/* The setting S of a finding: a trial, or a line saying why not. */
static void
consider(struct tune *tu, const cJSON *findings, const cJSON *s)
{
	const cJSON *name = cJSON_GetObjectItem(s, "name");
	const cJSON *state = cJSON_GetObjectItem(s, "state");
	const struct setting *row;
	struct strv with = { 0 };
	char *set;

	if (!cJSON_IsString(name) || planned(tu, name->valuestring))
		return;
	if (cJSON_IsString(state) && strcmp(state->valuestring, "on") == 0)
		return;
	if ((row = setting_named(name->valuestring)) == NULL ||
	    row->kind == SET_CODE)
		return;
	if (row->trial != TRIAL_SAFE) {
		say(tu, _("not tried: %s (it changes the numerics or the "
		    "checkpoints; name it with --set to try it)"), row->name);
		return;
	}
	if ((set = trial_setting(row)) == NULL) {
		say(tu, _("not tried: %s (it needs a value: --set %s=VALUE)"),
		    row->name, row->name);
		return;
	}
	if (needed(tu, findings, row, &with) == 0)
		add_trial(tu, set, &with, 0);
	strv_free(&with);
	free(set);
}

static int
by_promise(const void *a, const void *b)
{
	double pa = promise(*(cJSON *const *)a), pb = promise(*(cJSON *const *)b);

	return pa < pb ? 1 : pa > pb ? -1 : 0;
}

/*
 * The trials: the user's --set first, then the settings the baseline's
 * report (REPORT) advises, findings in order of promise.
 */
static void
plan_trials(struct tune *tu, const char *report)
{
	char *why = NULL;
	cJSON *doc = json_read(report, &why), *f, *findings;
	cJSON **v = NULL;
	size_t n = 0;

	for (size_t i = 0; i < tu->sets.n; i++)
		if (!planned(tu, tu->sets.v[i]))
			add_trial(tu, tu->sets.v[i], NULL, 1);
	if (doc == NULL) {
		say(tu, _("no advice: %s"), why);
		free(why);
		return;
	}
	findings = cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "summary"),
	    "findings");
	cJSON_ArrayForEach(f, findings) {
		v = xreallocarray(v, n + 1, sizeof(*v));
		v[n++] = f;
	}
	if (n > 0)
		qsort(v, n, sizeof(*v), by_promise);
	for (size_t i = 0; i < n; i++) {
		const cJSON *s;

		cJSON_ArrayForEach(s, cJSON_GetObjectItem(v[i], "settings"))
			consider(tu, findings, s);
	}
	free(v);
	cJSON_Delete(doc);
}

/* The baseline: a run of the command, or the run --baseline names. */
static int
baseline(struct tune *tu, char **report)
{
	struct strv none = { 0 };
	char *why = NULL, *log;
	int status;

	if (tu->baseline != NULL) {
		if ((status = compare_baseline_check(tu->baseline, &why)) != 0)
			errx(status, "--baseline: %s", why);
		tu->base_dir = xstrdup(tu->baseline);
		*report = xasprintf("%s/baseline-report.json", tu->out);
		log = xasprintf("%s/baseline-report.txt", tu->out);
		char *argv[] = { tu->self, (char *)"report", (char *)"--json",
		    *report, tu->base_dir, NULL };
		say(tu, _("baseline: %s (its report: %s)"), tu->base_dir, log);
		spawn(argv, log);
		free(log);
		return 0;
	}
	tu->base_dir = xasprintf("%s/00-baseline", tu->out);
	*report = xasprintf("%s/report.json", tu->base_dir);
	say(tu, _("baseline: running the command (output %s)"),
	    tu->base_dir);
	status = run_with(tu, &none, tu->base_dir, 1);
	if (was_interrupted(status)) {
		say(tu, _("baseline interrupted: nothing tried"));
		return -2;
	}
	if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		why = failure(tu->base_dir, status);
		warnx(_("tune: the baseline run failed: %s; its output: "
		    "%s/msprof-exec.txt"), why, tu->base_dir);
		tu->base_why = why;
		return status == -1 ? EX_OSERR : WIFEXITED(status) ?
		    WEXITSTATUS(status) : 128 + WTERMSIG(status);
	}
	return 0;
}

static void
fmt_ms(char *buf, size_t n, double us)
{
	if (isnan(us))
		snprintf(buf, n, "-");
	else
		snprintf(buf, n, "%.1f", us / 1000.0);
}

static const char *
verdict(const struct trial *t, char *buf, size_t n)
{
	switch (t->outcome) {
	case O_COMPARED:
		if (t->kept)
			return _("kept");
		snprintf(buf, n, "%s", t->significant ?
		    _("dropped: slower") : _("dropped: within the noise"));
		return buf;
	case O_FAILED:
		snprintf(buf, n, _("failed: %s"), t->why);
		return buf;
	case O_NOT_COMPARED:
		snprintf(buf, n, _("not compared: %s"), t->why);
		return buf;
	case O_INTERRUPTED:
		return _("interrupted");
	default:
		return _("not run");
	}
}

/* One row of the table, and the step's parts under it. */
static void
print_row(const struct trial *t)
{
	char b[32], a[32], word[512];
	int first = 1;

	printf("  %-32s ", t->label);
	if (t->outcome != O_COMPARED) {
		printf("%s\n", verdict(t, word, sizeof(word)));
		return;
	}
	fmt_ms(b, sizeof(b), t->before[P_STEP]);
	fmt_ms(a, sizeof(a), t->after[P_STEP]);
	printf("%9s -> %9s  %+6.1f %%  %5.1f %%  %s\n", b, a,
	    100.0 * t->change, 100.0 * t->margin,
	    verdict(t, word, sizeof(word)));
	printf("  %-32s ", "");
	for (int p = P_COMP; p < P_N; p++) {
		if (isnan(t->before[p]) || (t->before[p] == 0 &&
		    t->after[p] == 0))
			continue;
		fmt_ms(b, sizeof(b), t->before[p]);
		fmt_ms(a, sizeof(a), t->after[p]);
		printf("%s%s %s -> %s", first ? "" : ", ", _(part_names[p]),
		    b, a);
		first = 0;
	}
	printf("\n");
}

static void
print_table(const struct tune *tu)
{
	printf("\n%s\n", _("Tried settings (step time per step in ms, "
	    "baseline -> with the setting; change of the baseline's step "
	    "against the noise margin)"));
	/* Padded by columns, not bytes: the names may be translated. */
	fputs("  ", stdout);
	fput_cols(stdout, _("setting"), -32);
	fputc(' ', stdout);
	fput_cols(stdout, _("baseline"), 9);
	fputs("    ", stdout);
	fput_cols(stdout, _("tried"), 9);
	fputs("  ", stdout);
	fput_cols(stdout, _("change"), 8);
	fputs("  ", stdout);
	fput_cols(stdout, _("margin"), 7);
	printf("  %s\n", _("result"));
	for (size_t i = 0; i < tu->n; i++)
		if (tu->t[i].outcome != O_PENDING)
			print_row(&tu->t[i]);
	if (tu->has_together)
		print_row(&tu->together);
}

/* The settings that helped, as --set arguments, into OUT. */
static void
helped(const struct tune *tu, struct strv *out)
{
	for (size_t i = 0; i < tu->n; i++)
		if (tu->t[i].kept)
			for (size_t k = 0; k < tu->t[i].sets.n; k++)
				if (find_set(out, tu->t[i].sets.v[k]) == NULL)
					strv_push(out, tu->t[i].sets.v[k]);
}

/*
 * The command line of a run with the settings that helped: the user's own
 * options (ranks, steps, --cann-env... and -y), so that it runs as pasted
 * and profiles what the tries profiled; tune's own (-o, --tries, --json)
 * are not options of a run.
 */
static char *
command_line(const struct tune *tu, const struct strv *sets)
{
	struct strv v = { 0 };
	char *line;

	strv_push(&v, "msprof-exec");
	if (tu->yes)
		strv_push(&v, "-y");
	for (size_t i = 0; i < tu->pass.n; i++)
		strv_push(&v, tu->pass.v[i]);
	for (size_t i = 0; i < sets->n; i++) {
		strv_push(&v, "--set");
		strv_push(&v, sets->v[i]);
	}
	if (tu->cmd[0][0] == '-')
		strv_push(&v, "--");
	for (char **c = tu->cmd; *c != NULL; c++)
		strv_push(&v, *c);
	line = shell_join(v.v);
	strv_free(&v);
	return line;
}

static cJSON *
trial_json(const struct trial *t)
{
	static const char *const outcomes[] = { "not_run", "compared",
	    "failed", "interrupted", "not_compared" };
	cJSON *o = cJSON_CreateObject(), *parts;

	cJSON_AddItemToObject(o, "settings", json_strv(t->sets.v));
	cJSON_AddStringToObject(o, "output", t->dir);
	cJSON_AddBoolToObject(o, "asked", t->asked);
	cJSON_AddStringToObject(o, "outcome", outcomes[t->outcome]);
	if (t->why != NULL)
		cJSON_AddStringToObject(o, "why", t->why);
	if (t->outcome == O_COMPARED) {
		parts = cJSON_AddObjectToObject(o, "baseline_us");
		for (int p = 0; p < P_N; p++)
			cJSON_AddNumberToObject(parts, part_keys[p],
			    t->before[p]);
		parts = cJSON_AddObjectToObject(o, "tried_us");
		for (int p = 0; p < P_N; p++)
			cJSON_AddNumberToObject(parts, part_keys[p],
			    t->after[p]);
		cJSON_AddNumberToObject(o, "change_of_baseline_step",
		    t->change);
		cJSON_AddNumberToObject(o, "noise_margin", t->margin);
		cJSON_AddBoolToObject(o, "beyond_margin", t->significant);
	}
	cJSON_AddBoolToObject(o, "kept", t->kept);
	return o;
}

static int
write_json(const struct tune *tu, const struct strv *kept, const char *line)
{
	cJSON *doc = cJSON_CreateObject(), *a;
	char *why = NULL;
	int rc;

	cJSON_AddNumberToObject(doc, "version", 1);
	cJSON_AddStringToObject(doc, "baseline", tu->base_dir);
	if (interrupted)
		cJSON_AddBoolToObject(doc, "interrupted", 1);
	if (tu->base_why != NULL)
		cJSON_AddStringToObject(doc, "baseline_failed", tu->base_why);
	cJSON_AddBoolToObject(doc, "baseline_done", tu->base_done);
	a = cJSON_AddArrayToObject(doc, "tries");
	for (size_t i = 0; i < tu->n; i++)
		if (tu->t[i].outcome != O_PENDING)
			cJSON_AddItemToArray(a, trial_json(&tu->t[i]));
	cJSON_AddItemToObject(doc, "kept", json_strv(kept->v));
	if (kept->n > 0)
		cJSON_AddStringToObject(doc, "command", line);
	if (tu->has_together)
		cJSON_AddItemToObject(doc, "together",
		    trial_json(&tu->together));
	rc = json_write(doc, tu->json, &why);
	if (rc == -1) {
		warnx("--json: %s", why);
		free(why);
	}
	cJSON_Delete(doc);
	return rc;
}

static void
progress(const struct tune *tu, size_t i, const struct trial *t)
{
	char word[512];

	if (t->outcome == O_COMPARED)
		say(tu, _("try %zu/%zu: %s: step %.1f -> %.1f ms (%+.1f %%, "
		    "margin %.1f %%): %s"), i + 1, tu->n, t->label,
		    t->before[P_STEP] / 1000.0, t->after[P_STEP] / 1000.0,
		    100.0 * t->change, 100.0 * t->margin,
		    verdict(t, word, sizeof(word)));
	else
		say(tu, _("try %zu/%zu: %s: %s (output %s)"), i + 1, tu->n,
		    t->label, verdict(t, word, sizeof(word)), t->dir);
}

/* Two settings or more helped: one run with them all. */
static void
together(struct tune *tu, const struct strv *kept)
{
	struct trial *t = &tu->together;

	memset(t, 0, sizeof(*t));
	for (size_t i = 0; i < kept->n; i++)
		strv_push(&t->sets, kept->v[i]);
	t->label = xasprintf(_("together (%zu settings)"), kept->n);
	t->dir = xasprintf("%s/%02zu-together", tu->out, tu->n + 1);
	tu->has_together = 1;
	say(tu, _("the %zu settings that helped, together (output %s)"),
	    kept->n, t->dir);
	try_one(tu, t);
}

static void
trial_free(struct trial *t)
{
	strv_free(&t->sets);
	free(t->label);
	free(t->dir);
	free(t->why);
}

static void
tune_free(struct tune *tu)
{
	for (size_t i = 0; i < tu->n; i++)
		trial_free(&tu->t[i]);
	free(tu->t);
	if (tu->has_together)
		trial_free(&tu->together);
	strv_free(&tu->pass);
	strv_free(&tu->sets);
	free(tu->out);
	free(tu->baseline);
	free(tu->json);
	free(tu->self);
	free(tu->base_dir);
	free(tu->base_why);
}

static void __attribute__((noreturn))
end_interrupted(void)
{
	int sig = interrupted ? interrupted : SIGINT;

	fflush(NULL);
	signal(sig, SIG_DFL);
	raise(sig);
	exit(128 + sig);
}

static char *
self_path(void)
{
	char buf[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);

	if (n <= 0)
		err(EX_OSERR, _("cannot find msprof-exec itself "
		    "(/proc/self/exe)"));
	buf[n] = '\0';
	return xstrdup(buf);
}

/*
 * The baseline did not end well (interrupted, failed): the result so far
 * on stdout, and in --json when interrupted (a failure's is written by
 * the caller, before it exits with the run's status).
 */
static void
no_baseline(const struct tune *tu, const struct strv *kept)
{
	if (interrupted)
		printf("\n%s\n", _("Interrupted during the baseline run: no "
		    "setting was tried."));
	else
		printf("\n%s\n", _("The baseline run failed: no setting was "
		    "tried."));
	printf(_("  the baseline's output: %s\n"), tu->base_dir);
	if (interrupted && tu->json != NULL)
		write_json(tu, kept, NULL);
}

/* Run the trials, at most --tries, until done or interrupted. */
static void
run_trials(struct tune *tu)
{
	for (size_t i = 0; i < tu->n && !interrupted; i++) {
		say(tu, _("try %zu/%zu: %s (output %s)"), i + 1, tu->n,
		    tu->t[i].label, tu->t[i].dir);
		try_one(tu, &tu->t[i]);
		progress(tu, i, &tu->t[i]);
	}
}

int
tune_main(int argc, char **argv)
{
	struct tune tu = { 0 };
	struct strv kept = { 0 };
	char *report = NULL, *line;
	int rc;

	parse(argc, argv, &tu);
	check_values(&tu);
	if (tu.json != NULL && access(tu.json, F_OK) == 0 &&
	    access(tu.json, W_OK) != 0)
		errx(EX_CANTCREAT, _("--json %s: not writable; give a path "
		    "in a writable directory"), tu.json);
	tu.self = self_path();
	check_output(&tu);
	catch_signals();
	if ((rc = baseline(&tu, &report)) != 0) {
		no_baseline(&tu, &kept);
		if (rc == -2)
			end_interrupted();
		if (tu.json != NULL && write_json(&tu, &kept, NULL) == -1)
			rc = EX_CANTCREAT;
		tune_free(&tu);
		free(report);
		return rc;
	}
	tu.base_done = 1;
	plan_trials(&tu, report);
	free(report);
	if (tu.tries == 0) {
		for (size_t i = 0; i < tu.n; i++)
			printf(_("would try: %s\n"), tu.t[i].label);
		tune_free(&tu);
		return 0;
	}
	if ((size_t)tu.tries < tu.n) {
		for (size_t i = tu.tries; i < tu.n; i++)
			trial_free(&tu.t[i]);
		tu.n = (size_t)tu.tries;
	}
	if (tu.n == 0)
		say(&tu, _("nothing to try: the baseline's report advises no "
		    "setting its launch lacks that is safe to try"));
	else
		run_trials(&tu);
	helped(&tu, &kept);
	if (kept.n >= 2 && !interrupted)
		together(&tu, &kept);
	if (tu.n > 0)
		print_table(&tu);
	line = command_line(&tu, &kept);
	if (kept.n > 0)
		printf("\n%s\n  %s\n", _("The settings that helped, applied "
		    "by msprof-exec (or add the flags to the training's "
		    "arguments and export the variables):"), line);
	if (interrupted)
		printf("\n%s\n", _("Interrupted: the current try was ended "
		    "and no other started."));
	else if (kept.n == 0 && tu.n > 0)
		printf("\n%s\n", _("No setting helped beyond the noise "
		    "margin."));
	if (tu.json != NULL && write_json(&tu, &kept, line) == -1)
		rc = EX_CANTCREAT;
	free(line);
	if (interrupted)
		end_interrupted();
	strv_free(&kept);
	tune_free(&tu);
	return rc;
}
