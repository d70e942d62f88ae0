/*
 * msprof-exec [OPTIONS] [--] COMMAND [ARG...], the default command: run a
 * training script or command with the shim, so that every training launch
 * in it collects torch_npu profiling data, then report what was collected.
 */
#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>
#include <time.h>
#include <unistd.h>

#include "shim/contract.h"
#include "shim/envfix.h"
#include "shim/resolve.h"
#include "commands.h"
#include "advice/advice.h"
#include "arm.h"
#include "engines/content.h"
#include "common/install.h"
#include "common/journal.h"
#include "common/launchtab.h"
#include "options.h"
#include "common/plan.h"
#include "preflight.h"
#include "report/report.h"
#include "engines/paths.h"
#include "engines/pymodule.h"
#include "engines/rewrite.h"
#include "common/jsonfile.h"
#include "common/outfile.h"
#include "common/shimenv.h"
#include "run.h"
#include "scan/scan.h"
#include "table.h"
#include "common/util.h"

extern char **environ;

/* Where the command's program is, when it can be found. */
static char *
command_path(const char *name)
{
	char buf[PATH_MAX];

	if (strchr(name, '/') != NULL)
		return access(name, F_OK) == 0 ? xstrdup(name) : NULL;
	if (resolve_path(name, getenv("PATH"), buf, sizeof(buf)) == NULL)
		return NULL;
	return xstrdup(buf);
}

/* Where bash finds a script NAME: as given, else on PATH. */
static char *
script_path(const char *name)
{
	if (access(name, F_OK) == 0)
		return xstrdup(name);
	return strchr(name, '/') == NULL ? command_path(name) : NULL;
}

/*
 * NAME cannot be found: a subcommand mistyped is a usage error, anything
 * else a missing input; either way before a session folder exists.
 */
static void __attribute__((noreturn))
missing(const char *name, int script)
{
	if (!script)
		commands_suggest(name);
	if (script)
		errx(EX_NOINPUT, _("%s: no such script; check its path "
		    "(nothing was run)"), name);
	errx(EX_NOINPUT, _("%s: command not found; check its name and PATH "
	    "(nothing was run)"), name);
}

/* Does PATH start with a #! line? */
static int
has_shebang(const char *path)
{
	char head[2] = "";
	FILE *f = fopen(path, "rb");

	if (f == NULL)
		return 0;
	if (fread(head, 1, 2, f) != 2)
		head[0] = '\0';
	fclose(f);
	return head[0] == '#' && head[1] == '!';
}

/*
 * The command runs as given: a program is executed, and a script's #!
 * line chooses its interpreter.  Only a .sh file that is not executable,
 * or has no #! line (bash itself would run it), runs with bash, as
 * `bash FILE` would find it.  *EXEC: the file to execute when PATH must
 * not be searched for it (an executable .sh of the current directory),
 * else NULL.
 */
static void
command_argv(char **cmd, struct strv *out, char **exec)
{
	char *where;

	*exec = NULL;
	if (ends_with(cmd[0], ".sh")) {
		if ((where = script_path(cmd[0])) == NULL)
			missing(cmd[0], 1);
		if (access(where, X_OK) != 0 || !has_shebang(where))
			strv_push(out, "bash");
		else if (strchr(cmd[0], '/') == NULL &&
		    access(cmd[0], F_OK) == 0)
			*exec = xstrdup(cmd[0]);
		free(where);
	} else if ((where = command_path(cmd[0])) == NULL)
		missing(cmd[0], strchr(cmd[0], '/') != NULL);
	else
		free(where);
	for (; *cmd != NULL; cmd++)
		strv_push(out, *cmd);
}

/*
 * Questions are asked on the terminal: on stderr while it is one, else on
 * the terminal itself (/dev/tty), so that with the output redirected
 * (msprof-exec bash train.sh > run.log 2>&1) the table and the question
 * are seen, and an edit's complaint too.  Returns the stderr to put back
 * with tty_end(), or -1.
 */
static int
tty_begin(void)
{
	int tty, saved;

	if (isatty(STDERR_FILENO) ||
	    (tty = open("/dev/tty", O_WRONLY | O_NOCTTY | O_CLOEXEC)) == -1)
		return -1;
	fflush(stderr);
	if ((saved = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3)) != -1)
		dup2(tty, STDERR_FILENO);
	close(tty);
	return saved;
}

static void
tty_end(int saved)
{
	if (saved == -1)
		return;
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
}

/*
 * Show the table and wait for the engineer: y starts, n stops, e changes
 * an item the way its option would.  Without a terminal, --yes is needed:
 * a batch job must never hang on a question.
 */
static void
confirm(struct options *o, const struct facts *x)
{
	char answer[256], *name, *value, *save = NULL;
	int saved;

	if (o->yes)
		return;
	if (!isatty(STDIN_FILENO))
		errx(EX_USAGE, _("no terminal to confirm the plan on; add --yes "
		    "(-y) to start without confirmation"));
	saved = tty_begin();
	for (;;) {
		fprintf(stderr, _("msprof-exec will profile with:\n"));
		table_print(stderr, &o->plan, x);
		fprintf(stderr, _("Start? [y]es, [n]o, [e]dit an item: "));
		if (fgets(answer, sizeof(answer), stdin) == NULL ||
		    answer[0] == 'n' || answer[0] == 'N')
			errx(1, _("not started"));
		if (answer[0] == 'y' || answer[0] == 'Y')
			break;
		if (answer[0] != 'e' && answer[0] != 'E')
			continue;
		fprintf(stderr, _("Item and value (e.g. level level2, steps 5:7, "
		    "ranks 0,1, with memory, no-cpu, output DIR): "));
		if (fgets(answer, sizeof(answer), stdin) == NULL)
			errx(1, _("not started"));
		if ((name = strtok_r(answer, " \t\n", &save)) != NULL) {
			value = strtok_r(NULL, "\n", &save);
			if (value != NULL)
				value += strspn(value, " \t");
			options_edit(o, name, value != NULL && *value ? value :
			    NULL);
		}
	}
	tty_end(saved);
}

/* OUTPUT/msprof-exec_HOST_TIME_PID, absolute: the injector may cd. */
static char *
make_session(const char *output)
{
	char host[256] = "localhost", stamp[32], *abs, *dir;
	time_t now = time(NULL);
	struct tm tm;

	if (mkdirs(output, 0755) == -1)
		err(EX_CANTCREAT, _("cannot create the output directory %s; "
		    "choose another with -o"), output);
	if ((abs = realpath(output, NULL)) == NULL)
		err(EX_CANTCREAT, "%s", output);
	gethostname(host, sizeof(host) - 1);
	localtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	dir = xasprintf("%s/msprof-exec_%s_%s_%ld", abs, host, stamp,
	    (long)getpid());
	free(abs);
	if (mkdir(dir, 0755) == -1)
		err(EX_CANTCREAT, _("cannot create the session directory %s"),
		    dir);
	return dir;
}

/*
 * The environment of the command: ours plus the shim and its variables
 * (the launch table without its "auto" entries when the framework is
 * forced to llm or mm).
 */
static void
child_environ(const struct install *in, const struct launchtab *tab,
    const char *session, const char *framework, struct shimenv *env)
{
	char *match = launchtab_shim_match(tab, launch_reads_direct(framework));
	struct shim_session s = { in->shim, in->injector, session, match };

	if (shimenv_make(env, environ, &s) == -1)
		errx(EX_CONFIG, _("%s: the launch table is too large for the "
		    "shim (%zu bytes of session variables, at most %d); remove "
		    "entries, or use shorter paths (-o, the installation)"),
		    tab->path, env->size, SHIM_SAVED_BYTES);
	free(match);
}

/* What msprof-exec knows about the command before running it. */
struct job {
	struct strv	 cmd;		/* what runs (.sh with bash) */
	char		*exec;		/* run this file, not cmd[0] on PATH */
	char		*path;		/* cmd[0] found on PATH, or NULL */
	struct launch	 launch;	/* when cmd is itself a launch */
	struct scan	 scan;		/* when cmd runs a script */
	struct launch	*runs;		/* each scan.runs, classified */
	struct strv	 left_alone;	/* "ENTRY: why" */
	char		*unchecked;	/* what the scan could not follow */
	struct facts	 facts;		/* points into cmd and scan */
	char		*python;	/* the job's Python, or NULL */
};

static void
job_free(struct job *j)
{
	strv_free(&j->cmd);
	free(j->exec);
	free(j->path);
	scan_free(&j->scan);
	free(j->runs);
	strv_free(&j->left_alone);
	free(j->unchecked);
	free(j->python);
}

/* A launch the table lists as left alone, with why and how to force it. */
static void
note_left_alone(struct job *j, const struct launch *l, char *const argv[])
{
	if (l->kind != LAUNCH_NONE && !l->quiet && l->engine == ENGINE_NONE)
		strv_pushf(&j->left_alone, "%s: %s", l->script >= 0 ?
		    argv[l->script] : argv[0], l->why);
}

/* The table shows what the first training launch will get. */
static void
first_training(struct job *j, const struct launch *l, char *const argv[],
    char *const envp[])
{
	if (j->facts.launch != NULL || l->engine == ENGINE_NONE)
		return;
	j->facts.engine = l->engine;
	j->facts.launch = l;
	j->facts.argv = argv;
	j->facts.envp = envp;
}

/* Classify each launch the scan found, as the injector will. */
static void
classify_runs(struct job *j, const struct launchtab *tab,
    const char *framework)
{
	struct scan_launch *r;

	j->runs = xcalloc(j->scan.nruns + 1, sizeof(*j->runs));
	for (size_t i = 0; i < j->scan.nruns; i++) {
		r = &j->scan.runs[i];
		scan_classify(tab, framework, r->cwd, r->env.n > 0 ? &r->env :
		    NULL, r->argv.v, &j->runs[i]);
		note_left_alone(j, &j->runs[i], r->argv.v);
		first_training(j, &j->runs[i], r->argv.v, r->env.n > 0 ?
		    r->env.v : environ);
	}
}

/* The Python that PATH runs (pymodule_python), a copy; NULL when unknown. */
static char *
python_of(const char *path)
{
	return pymodule_python(path);
}

/*
 * The shell script the command runs: the script of a shell (bash
 * train.sh), or the program itself (PATH, found on PATH) when its #! line
 * names a shell (./train.sh, a wrapper without .sh).
 */
static const char *
script_of(const struct strv *cmd, const char *path)
{
	static const char *const shells[] = { "bash", "sh", "dash", NULL };

	for (int i = 0; cmd->n > 1 && shells[i] != NULL; i++)
		if (strcmp(path_base(cmd->v[0]), shells[i]) == 0 &&
		    cmd->v[1][0] != '-')
			return cmd->v[1];
	return path != NULL && scan_is_shell_script(path) ? path : NULL;
}

/*
 * What the scan could not follow, said in the table: --existing ask can
 * only be settled before the run for the launches the scan found.
 */
static void
note_unchecked(struct job *j, const char *script, const char *why)
{
	if (j->launch.kind != LAUNCH_NONE)
		j->unchecked = NULL;	/* the command is the launch */
	else if (why != NULL)
		j->unchecked = xstrdup(why);
	else if (script == NULL)
		j->unchecked = xasprintf(_("%s is not a shell script msprof-exec "
		    "can read"), j->cmd.v[0]);
	else if (j->scan.nruns == 0)
		j->unchecked = xasprintf(_("no training launch was found in %s "
		    "before it runs"), script);
	j->facts.unchecked = j->unchecked;
}

/* bash stops at the first \r of a CRLF script: say so before it runs. */
static void
warn_crlf(const struct scan *s)
{
	if (s->crlf_file != NULL)
		warnx(_("%s has CRLF (Windows) line ends: bash will fail on "
		    "$'\\r'; convert it first, e.g. with dos2unix %s"),
		    s->crlf_file, s->crlf_file);
}

/* Read the command, and the script it runs, without running anything. */
static void
prepare(struct job *j, const struct launchtab *tab, const char *framework,
    char **argv)
{
	const char *script;
	char *why = NULL, *lpath = NULL;

	memset(j, 0, sizeof(*j));
	launch_classify(tab, framework, NULL, NULL, &j->launch);
	j->facts = (struct facts){ .npus = -1, .left_alone = &j->left_alone };
	command_argv(argv, &j->cmd, &j->exec);
	if ((j->path = j->exec != NULL ? xstrdup(j->exec) :
	    command_path(j->cmd.v[0])) != NULL)
		launch_classify(tab, framework, j->path, j->cmd.v, &j->launch);
	if (j->launch.quiet)	/* python3 tool.py: no launch, runs as it is */
		j->launch.kind = LAUNCH_NONE;
	script = script_of(&j->cmd, j->launch.kind == LAUNCH_NONE ? j->path :
	    NULL);
	if (script != NULL && (lpath = script_path(script)) == NULL)
		missing(script, 1);
	free(lpath);
	note_left_alone(j, &j->launch, j->cmd.v);
	first_training(j, &j->launch, j->cmd.v, environ);
	j->python = python_of(j->path);
	if (script == NULL || scan_script(tab, script, environ, &j->scan,
	    &why) == -1) {
		note_unchecked(j, script, why);
		free(why);
		return;
	}
	warn_crlf(&j->scan);
	j->facts.script = script;
	j->facts.model = j->scan.model;
	j->facts.npus = j->scan.npus_per_node;
	classify_runs(j, tab, framework);
	note_unchecked(j, script, NULL);
	if (j->scan.configs.n > 0)
		j->facts.config = j->scan.configs.v[0];
	if (j->scan.launcher != NULL &&
	    (lpath = command_path(j->scan.launcher)) != NULL) {
		free(j->python);
		j->python = python_of(lpath);
		free(lpath);
	}
}

static void
push_once(struct strv *v, const char *s)
{
	for (size_t i = 0; i < v->n; i++)
		if (strcmp(v->v[i], s) == 0)
			return;
	strv_push(v, s);
}

/*
 * Profiling settings the command already has: each launch's engine says,
 * by the rule the injector applies.
 */
static void
existing_settings(const struct job *j, struct strv *out)
{
	struct strv found = { 0 };

	launch_existing(&j->launch, j->cmd.v, environ, &found);
	for (size_t i = 0; i < j->scan.nruns; i++)
		launch_existing(&j->runs[i], j->scan.runs[i].argv.v,
		    j->scan.runs[i].env.n > 0 ? j->scan.runs[i].env.v : environ,
		    &found);
	for (size_t i = 0; i < found.n; i++)
		push_once(out, found.v[i]);
	strv_free(&found);
}

/*
 * The dry run of one launch: its engine's rewrite, the config copies it
 * would write, or the refusal the injector would give, with its status.
 */
static int
dry_launch(const struct plan *p, const struct launch *l, char *const argv[],
    char *const envp[])
{
	struct strv missing = { 0 };
	struct rewrite rw;
	char *why = NULL, *text;
	int rc = 0;

	if (l->engine == ENGINE_NONE) {
		printf(_("left alone (%s):\n"), l->why);
		text = shell_join(argv);
		printf("%s\n", text);
		free(text);
		return 0;
	}
	printf(_("%s:\n"), _(engine_ops(l->engine)->label));
	if (l->because[0] != '\0')
		printf(_("training: %s\n"), l->because);
	if (engine_ops(l->engine)->limits != NULL)
		printf(_("limits: %s\n"), _(engine_ops(l->engine)->limits));
	launch_missing_paths(l, argv, &missing);
	if (missing.n > 0) {
		text = strv_join(missing.v, "\n  ");
		warnx(_("the launch names paths that do not exist; it would not "
		    "be started:\n  %s"), text);
		free(text);
		strv_free(&missing);
		return EX_NOINPUT;
	}
	if (launch_rewrite(p, l, argv, envp, NULL, &rw, &why) == -1) {
		warnx("%s", why);
		rc = EX_CONFIG;
	} else {
		for (size_t i = 0; !rw.kept && i < rw.notes.n; i++)
			printf(_("note: %s\n"), rw.notes.v[i]);
		if (!rw.kept && rw.iters_from >= 0 && rw.iters != rw.iters_from)
			printf(_("train iterations: %d -> %d\n"), rw.iters_from,
			    rw.iters);
		for (size_t i = 0; i < rw.written.n; i++)
			printf(_("would write %s\n"), rw.written.v[i]);
		for (size_t i = 0; i < rw.env.n; i++)
			printf(_("would set %s\n"), rw.env.v[i]);
		for (size_t i = 0; i < rw.set.n; i++)
			printf(_("--set %s\n"), rw.set.v[i]);
		if (rw.kept)
			printf(_("its own profiling settings are kept "
			    "(--existing keep)\n"));
		text = shell_join(rw.argv.v);
		printf("%s\n", text);
		free(text);
	}
	free(why);
	rewrite_free(&rw);
	return rc;
}

/* 66 (missing paths) before 78 (refused), as the report exits. */
static int
worse(int a, int b)
{
	return a == EX_NOINPUT || b == EX_NOINPUT ? EX_NOINPUT : a ? a : b;
}

/* Where the scan found launch R, said: "train.sh, line 2: ". */
static char *
where(const struct scan_launch *r)
{
	if (r->script != NULL && r->line > 0)
		return xasprintf(_("%s, line %d: "), r->script, r->line);
	return xstrdup("");
}

/*
 * The entry script of launch L (ARGV), run from CWD ("" here, "DIR/"
 * after a cd of its script; NULL unknown), does not exist: the launcher
 * would start and fail on it, after the script's first commands.  66
 * after saying so (AT: where the launch is), or 0.
 */
static int
missing_entry(const struct launch *l, char *const argv[], const char *cwd,
    const char *at)
{
	const char *word;
	char *path;
	int gone;

	/*
	 * An entry the launch table lists is taken by its name: its file is
	 * the launcher's to open.  One that had to be read, and could not,
	 * would be left alone, and the launcher fail on it.
	 */
	if (l->kind == LAUNCH_NONE || l->script < 0 || cwd == NULL ||
	    l->engine != ENGINE_NONE || !l->forcible)
		return 0;
	word = argv[l->script];
	/* a value the scan could not know, or a module, not a file */
	if (strpbrk(word, "$`") != NULL || !ends_with(word, ".py"))
		return 0;
	path = *word == '/' ? xstrdup(word) : xasprintf("%s%s", cwd, word);
	gone = access(path, F_OK) == -1 && errno == ENOENT;
	if (gone)
		warnx(_("%s%s: no such file, the training script of %s; check "
		    "its name and directory (nothing was started)"), at, path,
		    path_base(argv[0]));
	free(path);
	return gone ? EX_NOINPUT : 0;
}

/*
 * What the injector would refuse when launch L starts, refused before
 * anything of the command runs (its script's first commands, the
 * directories they make): paths it names that do not exist, a save path
 * or a window its engine cannot serve.  Relative paths are read from
 * here: after a cd of the script the injector checks them.  A launch
 * the script may not reach (GUARDED: in an if, a loop, after && or ||)
 * is checked when it starts, as it would be without this: a file that
 * is missing there may be one the script never needs.  0, or the exit
 * status (66, 78) after saying why.
 */
static int
doomed_launch(const struct plan *p, const struct launch *l,
    char *const argv[], char *const envp[], const char *cwd, const char *at,
    int guarded)
{
	struct strv missing = { 0 };
	struct rewrite rw;
	char *why = NULL, *text;
	int rc;

	if (!guarded && (rc = missing_entry(l, argv, cwd, at)) != 0)
		return rc;
	if (l->engine == ENGINE_NONE || cwd == NULL || *cwd != '\0')
		return 0;
	if (!guarded)
		launch_missing_paths(l, argv, &missing);
	if (missing.n > 0) {
		text = strv_join(missing.v, "\n  ");
		warnx(_("%sthe launch names paths that do not exist (nothing "
		    "was started):\n  %s"), at, text);
		free(text);
		strv_free(&missing);
		return EX_NOINPUT;
	}
	if (launch_rewrite(p, l, argv, envp, NULL, &rw, &why) == -1) {
		warnx(_("%s%s (nothing was started)"), at, why);
		rc = EX_CONFIG;
	}
	free(why);
	rewrite_free(&rw);
	return rc;
}

/* doomed_launch() for the command, or each launch its script starts. */
static int
doomed(const struct plan *p, const struct job *j)
{
	const struct scan_launch *r;
	char *at;
	int rc = 0;

	if (j->launch.kind != LAUNCH_NONE)
		return doomed_launch(p, &j->launch, j->cmd.v, environ, "", "", 0);
	for (size_t i = 0; i < j->scan.nruns; i++) {
		r = &j->scan.runs[i];
		at = where(r);
		rc = worse(rc, doomed_launch(p, &j->runs[i], r->argv.v,
		    r->env.n > 0 ? r->env.v : environ, r->cwd, at, r->guarded));
		free(at);
	}
	return rc;
}

/*
 * -n: the table, then every launch the command starts (itself, or each
 * one the scan found in its script) rewritten by its own engine.  Nothing
 * is written; what the run would refuse is refused with its exit status.
 */
static int
dry_run(const struct plan *p, const struct job *j)
{
	const struct scan_launch *r;
	char *text, *why = NULL;
	int start, end, rc = 0;

	printf(_("msprof-exec: dry run, nothing is started\n"));
	table_print(stdout, p, &j->facts);
	if (j->launch.kind != LAUNCH_NONE)
		return worse(missing_entry(&j->launch, j->cmd.v, "", ""),
		    dry_launch(p, &j->launch, j->cmd.v, environ));
	for (size_t i = 0; i < j->scan.nruns; i++) {
		r = &j->scan.runs[i];
		if (r->line > 0)
			printf(_("launch %zu of %zu (%s, line %d), "), i + 1,
			    j->scan.nruns, j->facts.script, r->line);
		else
			printf(_("launch %zu of %zu, "), i + 1, j->scan.nruns);
		/* as the run: a launch the script may not reach, or not from
		   there, is checked when it starts */
		if (!r->guarded)
			rc = worse(rc, missing_entry(&j->runs[i], r->argv.v,
			    r->cwd, ""));
		rc = worse(rc, dry_launch(p, &j->runs[i], r->argv.v,
		    r->env.n > 0 ? r->env.v : environ));
	}
	if (j->scan.nruns > 0)
		return rc;
	if (plan_window(p, ENGINE_NONE, &start, &end, &why) == -1)
		errx(EX_USAGE, "%s", why);
	text = shell_join(j->cmd.v);
	printf(_("runs: %s\nNo training launch was found in it "
	    "before it runs: each one it starts is rewritten by its own engine "
	    "when it starts.\n"), text);
	free(text);
	return 0;
}

/*
 * --existing ask is settled before anything runs: on a terminal the
 * engineer answers; otherwise msprof-exec stops with the two commands to
 * choose from.
 */
static void
settle_existing(struct options *o, const struct job *j, char **argv)
{
	struct strv found = { 0 };
	char answer[64], *list, *rest;
	int saved;

	if (o->plan.existing != EXISTING_ASK)
		return;
	existing_settings(j, &found);
	if (found.n == 0)
		return;
	list = strv_join(found.v, ", ");
	if (o->yes || !isatty(STDIN_FILENO)) {
		rest = shell_join(argv + 1);
		errx(EX_CONFIG, _("the command already sets profiling options "
		    "(%s); run one of:\n  msprof-exec --existing keep %s\n  "
		    "msprof-exec --existing override %s"), list, rest, rest);
	}
	saved = tty_begin();
	fprintf(stderr, _("The command already sets profiling options: %s\n"
	    "Keep them (k) or use msprof-exec's settings (o)? "), list);
	if (fgets(answer, sizeof(answer), stdin) == NULL ||
	    (answer[0] != 'k' && answer[0] != 'o'))
		errx(1, _("not started"));
	tty_end(saved);
	o->plan.existing = answer[0] == 'k' ? EXISTING_KEEP : EXISTING_OVERRIDE;
	free(list);
	strv_free(&found);
}

/*
 * The files the run writes for the user are checked before anything
 * runs: a training of hours must not end in "cannot write".
 */
static void
check_outputs(const struct options *o)
{
	char *why = NULL;
	int rc;

	if (o->json != NULL &&
	    outfile_check(o->json, OUTFILE_REPLACE, &why) == -1)
		errx(EX_CANTCREAT, _("--json: %s; give a path in a writable "
		    "directory"), why);
	if (o->log != NULL && outfile_check(o->log, OUTFILE_STREAM, &why) == -1)
		errx(EX_CANTCREAT, _("--log: %s; give a path in a writable "
		    "directory"), why);
	/* a training of hours must not end in "nothing to compare with" */
	if (o->baseline != NULL && (rc = compare_baseline_check(o->baseline,
	    &why)) != 0)
		errx(rc, "%s", why);
}

/* Create the session and run the command in it, until the job is gone. */
static void
start(struct options *o, struct job *j, const struct install *in,
    const struct launchtab *tab, char **session, char **log,
    struct arm *arm, struct run_end *end)
{
	struct strv iargv = { 0 };
	struct run_tick tick = { arm_tick, NULL, arm_stray };
	struct shimenv env;
	struct capture cap;
	char *plan_path, *why = NULL;
	pid_t pid;

	*session = make_session(plan_output(&o->plan, j->facts.engine));
	o->plan.session = xstrdup(*session);
	o->plan.shim = xstrdup(in->shim);
	o->plan.launchtab = xstrdup(in->launchtab);
	advice_env_names(&o->plan.record_env);
	plan_path = xasprintf("%s/%s", *session, SESSION_PLAN);
	if (plan_write(&o->plan, plan_path) == -1)
		err(EX_CANTCREAT, _("cannot write %s"), plan_path);
	free(plan_path);
	*log = xasprintf("%s/%s", *session, SESSION_LOG);
	if (capture_open(&cap, *log, o->log, &why) == -1)
		errx(EX_CANTCREAT, "%s", why);
	if (j->launch.kind != LAUNCH_NONE) {
		/* The command is itself the launcher: no shim needed. */
		strv_push(&iargv, in->injector);
		strv_push(&iargv, INJECT_MODE_SEARCH);
		strv_push(&iargv, *session);
		strv_push(&iargv, j->path);
		for (size_t i = 0; i < j->cmd.n; i++)
			strv_push(&iargv, j->cmd.v[i]);
		pid = run_start(iargv.v[0], iargv.v, environ, &cap);
	} else {
		child_environ(in, tab, *session, o->plan.framework, &env);
		pid = run_start(j->exec, j->cmd.v, env.envp, &cap);
		shimenv_free(&env);
	}
	strv_free(&iargv);
	if (pid == -1)
		err(EX_OSERR, "fork");
	arm_init(arm, *session, &o->plan);
	tick.arg = arm;
	run_wait(pid, &cap, end, &tick);
}

/*
 * --strict, for batch jobs and CI: a failure the command's status hides
 * is a failure.  A training that failed exits with its own status (a
 * pipeline such as '| tee' turns it into 0: then the status its
 * launcher's report names, or 1); one that ran but left a profiled rank
 * without data, or collected nothing at all, exits 65.
 */
static void
strict_exit(int status, const struct report *r)
{
	if (status == 0 && r->hidden_failure > 0) {
		warnx(_("--strict: the training failed (its log shows it, "
		    "though its status was 0): exit status %d"),
		    r->hidden_failure);
		exit(r->hidden_failure);
	}
	if (status == 0 && (r->missing > 0 || (r->injected > 0 &&
	    r->found == 0))) {
		warnx(_("--strict: %s: exit status %d"), r->missing > 0 ?
		    _("a rank asked for collected nothing") :
		    _("nothing was collected"), EX_DATAERR);
		exit(EX_DATAERR);
	}
}

/* Report, and exit as the command did (or 66/78 for refused launches). */
static void __attribute__((noreturn))
finish(const struct options *o, const char *session, const char *log,
    struct arm *arm, const struct run_end *end)
{
	struct report_in rin = { 0 };
	struct journal journal;
	struct report r;
	struct stat st;
	char *plan_path = xasprintf("%s/%s", session, SESSION_PLAN), *text;

	rin.session = session;
	journal_read(session, &journal);
	rin.journal = &journal;
	rin.log = text = read_file(log, NULL);
	rin.status = end->status;
	rin.interrupted = end->signal;
	rin.arming = arm_finish(arm);
	rin.running = end->running;
	rin.nrunning = end->nrunning;
	rin.since = stat(plan_path, &st) == 0 ? st.st_mtime - 1 : 0;
	rin.quiet = o->quiet;
	rin.verbose = o->verbose;
	rin.json = o->json;
	rin.html = o->html;
	free(plan_path);
	report_run(&rin, 1, &r);
	journal_free(&journal);
	free(text);
	if (o->baseline != NULL && r.found > 0) {
		fflush(stdout);
		compare_baseline(o->baseline, session, stdout);
	} else if (o->baseline != NULL)
		warnx(_("--baseline %s: not compared: this run collected no "
		    "rank data"), o->baseline);
	if (r.missing_paths > 0)
		exit(EX_NOINPUT);
	if (r.refused > 0)
		exit(EX_CONFIG);
	if (o->strict && end->signal == 0)
		strict_exit(end->status, &r);
	run_exit_like(end->status);
}

#ifndef GIT_REVISION
#define GIT_REVISION "unknown"	/* built outside a git checkout */
#endif

/*
 * -V: the version, the git revision it was built from and the oldest
 * glibc the preloaded shim loads into (the one without libdl.so.2 uses
 * dlsym from libc itself, which glibc has from 2.34 on; the other needs
 * nothing newer than 2.17, aarch64's first glibc).
 */
static void
print_version(const struct install *in)
{
	printf("msprof-exec %s\n", VERSION);
	printf("%s: %s\n", _("revision"), GIT_REVISION);
	printf("%s: %s\n", _("shim"), in->shim);
	printf(_("shim needs glibc %s or newer\n"),
	    ends_with(in->shim, "/" SHIM_234_NAME) ? "2.34" : "2.17");
}

/*
 * The default command.  What it holds lasts as long as msprof-exec: it is
 * freed on the way out; the exits below it (errx, finish) leave it
 * reachable in its frame.
 */
/*
 * -n runs nothing, so a machine without an NPU, CANN or torch_npu (a login
 * node, a laptop) only warns: the plan is still right.  What would make
 * the launch itself fail (a missing file, 66) keeps -y's status.
 */
static int
dry_run_status(int status)
{
	if (status != EX_UNAVAILABLE)
		return status;
	warnx(_("dry run: a real run would stop at the check above "
	    "(exit %d); nothing was run"), EX_UNAVAILABLE);
	return 0;
}

int
profile_main(int argc, char **argv)
{
	struct options o;
	struct install in = { 0 };
	struct launchtab tab = { 0 };
	struct job j = { 0 };
	struct arm arm;
	struct run_end end;
	char *why = NULL, *session, *log;
	int status = 0;

	options_parse(argc, argv, &o);
	if (o.help) {
		usage(stdout);
		goto out;
	}
	if (install_locate(&in, &why) == -1)
		errx(EX_SOFTWARE, "%s", why);
	if (o.version) {
		print_version(&in);
		goto out;
	}
	if (o.cmd[0] == NULL) {
		warnx(_("profiling needs a runnable training script or command"));
		usage(stderr);
		status = EX_USAGE;
		goto out;
	}
	check_outputs(&o);
	if (launchtab_load(&tab, in.launchtab, engine_names(), &why) == -1 ||
	    trainings_load_default(&why) == -1)
		errx(EX_CONFIG, "%s", why);
	prepare(&j, &tab, o.plan.framework, o.cmd);
	if (o.dry_run) {
		/* the plan says the NPUs this node has against the launch's */
		if (!o.skip_checks && j.facts.npus > 0)
			preflight_npus(&o.plan);
		status = dry_run(&o.plan, &j);
		preflight_npus_warn(&o.plan, j.facts.npus);
		if (status == 0 && !o.skip_checks)
			status = preflight(j.python, o.cann_env,
			    j.facts.script, o.quiet, &o.plan);
		else if (status == 0 && o.cann_env != NULL)
			status = preflight_cann(o.cann_env);
		status = dry_run_status(status);
		goto out;
	}
	settle_existing(&o, &j, argv);
	if ((status = doomed(&o.plan, &j)) != 0)
		goto out;
	/* --skip-checks skips the checks, not a --cann-env given with it */
	if (o.skip_checks)
		status = o.cann_env != NULL ? preflight_cann(o.cann_env) : 0;
	else
		status = preflight(j.python, o.cann_env, j.facts.script,
		    o.quiet, &o.plan);
	if (status != 0)
		goto out;
	preflight_npus_warn(&o.plan, j.facts.npus);
	confirm(&o, &j.facts);
	start(&o, &j, &in, &tab, &session, &log, &arm, &end);
	finish(&o, session, log, &arm, &end);
out:
	job_free(&j);
	launchtab_free(&tab);
	install_free(&in);
	options_free(&o);
	return status;
}
