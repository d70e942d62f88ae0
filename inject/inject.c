/*
 * msprof-exec-inject: run by the shim in place of a training launcher.
 *
 *	msprof-exec-inject MODE SESSION PATH ARGV0 ARGS...
 *
 * It reads the session's plan, works out the framework and engine from the
 * real command line, rewrites it, records the launch in the journal, and
 * execs the real launcher with the caller's semantics.  Its environment is
 * the one the caller gave the launcher, already without the shim.  When it
 * cannot do its work it runs the launch unchanged: a broken profiling set-up
 * must not cost a training run.  Only a plan that cannot apply (the user
 * must choose) stops the launch, with exit status 78.
 */
#include <sys/types.h>

#include <err.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>
#include <time.h>
#include <unistd.h>

#include "shim/contract.h"
#include "shim/envfix.h"
#include "shim/match.h"
#include "common/topology.h"
#include "common/journal.h"
#include "common/launchtab.h"
#include "common/shimenv.h"
#include "engines/paths.h"
#include "common/plan.h"
#include "engines/rewrite.h"
#include "common/util.h"

extern char **environ;

/* When the launch started, as local time and in ms since the epoch. */
static void
add_time(struct launch_record *rec)
{
	char buf[64];
	struct timespec now;
	struct tm tm;

	clock_gettime(CLOCK_REALTIME, &now);
	localtime_r(&now.tv_sec, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%S%z", &tm);
	rec->time = xstrdup(buf);
	rec->start_ms = (int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

/* This process (pid and host: the journal merges its later records). */
static void
new_record(struct launch_record *rec, const char *path, char *const argv[])
{
	char cwd[PATH_MAX], host[256];

	launch_record_init(rec);
	rec->pid = getpid();
	if (gethostname(host, sizeof(host)) == 0) {
		host[sizeof(host) - 1] = '\0';
		rec->host = xstrdup(host);
	}
	if (argv == NULL)
		return;		/* a later word on the same launch */
	add_time(rec);
	if (getcwd(cwd, sizeof(cwd)) != NULL)
		rec->cwd = xstrdup(cwd);
	rec->path = xstrdup(path);
	for (; *argv != NULL; argv++)
		strv_push(&rec->argv, *argv);
	/* Without it torch_npu collects nothing from the device. */
	rec->cann = getenv("ASCEND_TOOLKIT_HOME") ||
	    getenv("ASCEND_HOME_PATH");
}

/*
 * The variables the plan names (those the advice consults), as the
 * launch has them: "NAME=value", or "NAME" alone when unset.
 */
static void
add_env(struct launch_record *rec, const struct plan *p)
{
	for (size_t i = 0; i < p->record_env.n; i++) {
		const char *v = getenv(p->record_env.v[i]);

		if (v != NULL)
			strv_pushf(&rec->env, "%s=%s", p->record_env.v[i], v);
		else
			strv_push(&rec->env_unset, p->record_env.v[i]);
	}
}

/*
 * The option grammar of the launch's launcher ("torchrun", "msrun"; NULL
 * for an entry started directly) and, in *FIRST, its first option.
 */
static const char *
launcher_grammar(const struct launchtab *t, const char *path,
    char *const cmd[], int *first)
{
	struct launch_match m;
	const char *key = MATCH_KEY_LAUNCHER, *name = path;
	const struct strv *sets = &t->launcher_sets;
	int i;

	*first = 1;
	switch (match_launch(t->match, path, cmd, &m)) {
	case LAUNCH_PY_MODULE:
		key = MATCH_KEY_MODULE;
		sets = &t->module_sets;
		/* FALLTHROUGH */
	case LAUNCH_PY_SCRIPT:
		name = m.operand;
		*first = m.next;
		break;
	case LAUNCH_LAUNCHER:
		break;
	case LAUNCH_PY_ENTRY_MODULE:
		*first = m.next;	/* python's own options only */
		return NULL;
	case LAUNCH_CONSOLE:		/* its options are its own */
		return NULL;
	default:
		return NULL;
	}
	i = table_find(t->match, key, name);
	return i >= 0 && (size_t)i < sets->n ? sets->v[i] : NULL;
}

/* Where the launch's processes run, as its launcher reads it. */
static void
add_place(struct launch_record *rec, const struct launchtab *t,
    const char *path, char *const cmd[], int script)
{
	struct launch_place *p = &rec->place;
	struct topology c;
	int first;
	const char *grammar = launcher_grammar(t, path, cmd, &first);

	topology_read(grammar, cmd, first, script >= 0 ? script :
	    (int)vec_count(cmd), environ, &c);
	p->node_rank = c.node_rank;
	p->node_rank_from = xstrdup(c.node_rank_from);
	p->nnodes = c.nnodes;
	p->nproc_per_node = c.nlocal;
	p->first_rank = c.first_rank;
	p->world_size = c.world;
	p->master_addr = c.master_addr[0] != '\0' ? xstrdup(c.master_addr) :
	    NULL;
	p->master_port = c.master_port;
}

/* What the launch is: its engine, script and place in the job. */
static void
describe(struct launch_record *rec, const struct launchtab *t,
    const char *path, const struct launch *l, char *const cmd[])
{
	rec->engine = xstrdup(engine_name(l->engine));
	rec->framework = xstrdup(engine_framework(l->engine));
	if (l->script >= 0)
		rec->script = xstrdup(cmd[l->script]);
	add_place(rec, t, path, cmd, l->script);
	/*
	 * An entry that starts its ranks itself (mp.spawn) is one process
	 * to its launcher, not to torch_npu: how many ranks it runs is not
	 * known here, and it is no single process for the arming.
	 */
	if (l->spawns && rec->place.world_size <= 1) {
		rec->place.world_size = -1;
		rec->place.nproc_per_node = -1;
	}
}

/* The profiled ranks that run on this node (unknown: NULL). */
static void
add_expected(struct launch_record *rec)
{
	int first = rec->place.first_rank, n = rec->place.nproc_per_node;

	if (first < 0 || n < 1)
		return;
	rec->expected = xcalloc((size_t)n, sizeof(*rec->expected));
	for (int r = first; r < first + n; r++) {
		int want = rec->ranks_all;

		for (size_t i = 0; i < rec->nranks; i++)
			want |= rec->ranks[i] == r;
		if (want)
			rec->expected[rec->nexpected++] = r;
	}
}

/*
 * The recorded variables as the launch gets them: those the rewrite sets
 * (--set, the engine's own) replace what the caller's environment had.
 */
static void
set_env(struct launch_record *rec, const struct strv *set)
{
	struct strv env = { 0 }, unset = { 0 };
	size_t n;
	int recorded;

	for (size_t i = 0; i < set->n; i++) {
		n = strcspn(set->v[i], "=");
		recorded = 0;
		for (size_t k = 0; k < rec->env.n; k++)
			if (strncmp(rec->env.v[k], set->v[i], n + 1) == 0) {
				rec->env.v[k][0] = '\0';	/* replaced */
				recorded = 1;
			}
		for (size_t k = 0; k < rec->env_unset.n; k++)
			if (strlen(rec->env_unset.v[k]) == n &&
			    strncmp(rec->env_unset.v[k], set->v[i], n) == 0) {
				rec->env_unset.v[k][0] = '\0';
				recorded = 1;
			}
		if (recorded)
			strv_push(&rec->env, set->v[i]);
	}
	for (size_t k = 0; k < rec->env.n; k++)
		if (rec->env.v[k][0] != '\0')
			strv_push(&env, rec->env.v[k]);
	for (size_t k = 0; k < rec->env_unset.n; k++)
		if (rec->env_unset.v[k][0] != '\0')
			strv_push(&unset, rec->env_unset.v[k]);
	strv_free(&rec->env);
	strv_free(&rec->env_unset);
	rec->env = env;
	rec->env_unset = unset;
}

/* What the launch will collect, for the report. */
static void
add_settings(struct launch_record *rec, const struct plan *p,
    const struct rewrite *rw)
{

	rec->save_path = xstrdup_null(rw->save_path);
	rec->step_start = rw->step_start;
	rec->step_end = rw->step_end;
	rec->loaded_iteration = rw->loaded;
	rec->ranks_all = p->ranks_all != 0;
	if (!p->ranks_all) {
		rec->nranks = p->nranks > 0 ? p->nranks : 1;
		rec->ranks = xcalloc(rec->nranks, sizeof(*rec->ranks));
		for (size_t i = 0; i < p->nranks; i++)
			rec->ranks[i] = p->ranks[i];
	}
	add_expected(rec);
	rec->level = xstrdup(p->level);
	/* What really happens: the engine may not have the plan's choice. */
	rec->analyse = rw->analyse;
	rec->mode = xstrdup(rw->mode);
	for (size_t i = 0; i < rw->written.n; i++)
		strv_push(&rec->copies, rw->written.v[i]);
	rec->prof_config = xstrdup_null(rw->prof_config);
	for (size_t i = 0; i < rw->existing.n; i++)
		strv_push(&rec->existing, rw->existing.v[i]);
	for (size_t i = 0; i < p->set.n; i++)
		strv_push(&rec->set, p->set.v[i]);
	set_env(rec, &rw->env);
}

/* Append REC with STATUS and WHY to the journal, and free it. */
static void
record(const char *session, struct launch_record *rec,
    enum launch_status status, const char *why)
{
	rec->status = status;
	if (why != NULL)
		rec->reason = xstrdup(why);
	if (journal_append(session, rec) == -1)
		warn(_("cannot write the journal in %s"), session);
	launch_record_free(rec);
}

/*
 * The environment for the launcher: without the shim and the session
 * variables, with SET ("NAME=value") applied.  The vector and *LD, the
 * buffer of its LD_PRELOAD entry, are the caller's to free.
 */
static char **
launcher_environ(const char *shim, const struct strv *set, char **ld)
{
	size_t n = 0, size = 16, k;
	char **out;

	/* One pass: the count, and the room for the LD_PRELOAD entries. */
	for (char **e = environ; *e != NULL; e++, n++)
		if ((*e)[0] == 'L' && strncmp(*e, "LD_PRELOAD=", 11) == 0)
			size += strlen(*e);
	out = xcalloc(n + (set ? set->n : 0) + 1, sizeof(*out));
	*ld = xmalloc(size);
	env_strip(shim != NULL ? shim : "", environ, out, *ld);
	for (size_t i = 0; set != NULL && i < set->n; i++) {
		size_t len = strcspn(set->v[i], "=") + 1;

		for (k = 0; out[k] != NULL && strncmp(out[k], set->v[i], len); k++)
			;
		if (out[k] == NULL)
			out[k + 1] = NULL;
		out[k] = set->v[i];
	}
	return out;
}

/*
 * Stop a launch whose input paths are missing, before the training
 * allocates anything: msprof-exec exits 66 with the list.
 */
static int
refuse_missing(const char *session, struct launch_record *rec,
    const struct launch *l, char *const cmd[])
{
	char *list;

	launch_missing_paths(l, cmd, &rec->missing);
	if (rec->missing.n == 0)
		return 0;
	list = strv_join(rec->missing.v, "\n  ");
	warnx(_("the launch names paths that do not exist (relative to %s); "
	    "it was not started:\n  %s"), rec->cwd, list);
	free(list);
	rec->exit = EX_NOINPUT;
	list = strv_join(rec->missing.v, ", ");
	record(session, rec, LAUNCH_MISSING_PATHS, list);
	free(list);
	return 1;
}

/* A later word on this process's launch (the journal merges it). */
static void
record_update(const char *session, const char *path,
    enum launch_status status, const char *why)
{
	struct launch_record rec;

	new_record(&rec, path, NULL);
	record(session, &rec, status, why);
}

/*
 * Run the launcher as the caller asked, in ENVP; returns only on failure,
 * with the exit status.
 */
static int
run_in(const char *session, const char *mode, const char *path,
    char *const argv[], char *const orig[], char *const envp[])
{
	size_t n;
	int e;
	char *why;

	execve(path, argv, envp);
	if (errno == E2BIG && argv != orig) {
		warnx(_("the profiled command line is too long for this system; "
		    "running %s without profiling"), path);
		record_update(session, path, LAUNCH_LEFT_ALONE,
		    _("the profiled command line is too long for this system"));
		execve(path, orig, envp);
		argv = orig;	/* for the shell below too */
	}
	if (errno == ENOEXEC && strcmp(mode, INJECT_MODE_SEARCH) == 0) {
		/* execvp runs a file without #! with the shell. */
		n = vec_count(argv);
		char **sh = xcalloc(n + 2, sizeof(*sh));

		sh[0] = (char *)"/bin/sh";
		sh[1] = (char *)path;
		for (size_t i = 1; i < n; i++)
			sh[i + 1] = argv[i];
		execve(sh[0], sh, envp);
		free(sh);
		errno = ENOEXEC;
	}
	e = errno;
	warn(_("cannot run %s"), path);
	why = xasprintf(_("cannot run %s: %s"), path, i18n_strerror(e));
	record_update(session, path, LAUNCH_FAILED, why);
	free(why);
	return e == ENOENT ? 127 : 126;
}

/*
 * Run the launcher as the caller asked, in launcher_environ(SHIM, SET);
 * returns only on failure, with the exit status.
 */
static int
run(const char *session, const char *mode, const char *path,
    char *const argv[], char *const orig[], const char *shim,
    const struct strv *set)
{
	char *ld, **envp = launcher_environ(shim, set, &ld);
	int status = run_in(session, mode, path, argv, orig, envp);

	free(envp);
	free(ld);
	return status;
}

/*
 * What the shim handed over was no launch after all (accelerate config,
 * python tools/x.py): run it as it was, with the shim back in its
 * environment, so that what it starts is still seen; nothing recorded.
 * Without the plan's shim it runs without it.
 */
static int
pass_on(const struct plan *plan, const struct launchtab *tab,
    const char *injector, const char *mode, const char *session,
    const char *path, char **cmd)
{
	char *match = launchtab_shim_match(tab, launch_reads_direct(
	    plan->framework));
	struct shim_session s = { plan->shim, injector, session, match };
	struct shimenv env = { 0 };
	int status;

	if (plan->shim == NULL || *injector != '/' ||
	    shimenv_make(&env, environ, &s) == -1)
		status = run(session, mode, path, cmd, cmd, plan->shim, NULL);
	else
		status = run_in(session, mode, path, cmd, cmd, env.envp);
	shimenv_free(&env);
	free(match);
	return status;
}

/*
 * Give the launch of PATH (CMD) the plan's settings and run it; returns
 * only when it does not run, with the exit status.
 */
static int
inject(const struct plan *plan, const struct launchtab *tab,
    const char *injector, const char *mode, const char *session,
    const char *path, char **cmd, struct launch_record *rec)
{
	struct launch l;
	struct rewrite rw;
	char *why = NULL;
	int status;

	launch_classify(tab, plan->framework, path, cmd, &l);
	if (l.kind == LAUNCH_NONE || l.quiet) {
		launch_record_free(rec);
		return pass_on(plan, tab, injector, mode, session, path, cmd);
	}
	describe(rec, tab, path, &l, cmd);
	add_env(rec, plan);
	if (l.engine == ENGINE_NONE) {
		if (l.forcible)
			rec->force = xstrdup(l.direct ? "--framework torch" :
			    "--framework llm|mm|torch");
		record(session, rec, LAUNCH_LEFT_ALONE, l.why);
		/* a script started directly is one process: the shim stays */
		if (l.direct)
			return pass_on(plan, tab, injector, mode, session,
			    path, cmd);
		return run(session, mode, path, cmd, cmd, plan->shim, NULL);
	}
	if (refuse_missing(session, rec, &l, cmd))
		return EX_NOINPUT;
	if (launch_rewrite(plan, &l, cmd, environ, session, &rw, &why) == -1) {
		warnx("%s", why);
		rec->exit = EX_CONFIG;
		record(session, rec, LAUNCH_REFUSED, why);
		free(why);
		rewrite_free(&rw);
		return EX_CONFIG;
	}
	add_settings(rec, plan, &rw);
	for (size_t i = 0; !rw.kept && i < rw.notes.n; i++)
		warnx(_("note: %s"), rw.notes.v[i]);
	if (rw.kept) {
		/* Its own settings choose the ranks: none is expected. */
		free(rec->expected);
		rec->expected = NULL;
		rec->nexpected = 0;
		record(session, rec, LAUNCH_KEPT,
		    _("the launch's own profiling settings were kept"));
		/* the launch as it was, with the settings of --set */
		status = run(session, mode, path, rw.argv.v, cmd, plan->shim,
		    &rw.env);
	} else {
		for (size_t i = 0; i < rw.argv.n; i++)
			strv_push(&rec->new_argv, rw.argv.v[i]);
		/* by its content: the call that makes it a training */
		record(session, rec, LAUNCH_INJECTED, l.because[0] != '\0' ?
		    l.because : NULL);
		status = run(session, mode, path, rw.argv.v, cmd, plan->shim,
		    &rw.env);
	}
	rewrite_free(&rw);
	return status;
}

int
main(int argc, char **argv)
{
	const char *mode, *session, *path;
	char **cmd, *why = NULL, *plan_path;
	struct plan plan;
	struct launchtab tab = { 0 };	/* stays empty when no plan is read */
	struct launch_record rec;
	int status;

	/* No i18n_init(): the catalogue is bound at the first message. */
	if (argc <= INJECT_ARGV_CMD) {
		fprintf(stderr, _("%s is run by the msprof-exec shim, not by "
		    "hand\n"), argv[0]);
		return EX_USAGE;
	}
	mode = argv[INJECT_ARGV_MODE];
	session = argv[INJECT_ARGV_SESSION];
	path = argv[INJECT_ARGV_PATH];
	cmd = argv + INJECT_ARGV_CMD;
	new_record(&rec, path, cmd);
	plan_path = xasprintf("%s/%s", session, SESSION_PLAN);

	if (plan_read(&plan, plan_path, &why) == -1 ||
	    launchtab_load(&tab, plan.launchtab ? plan.launchtab : "",
	    engine_names(), &why) == -1) {
		warnx(_("%s; running the launch without profiling"), why);
		record(session, &rec, LAUNCH_LEFT_ALONE, why);
		status = run(session, mode, path, cmd, cmd, plan.shim, NULL);
	} else
		status = inject(&plan, &tab, argv[0], mode, session, path, cmd,
		    &rec);
	free(why);
	free(plan_path);
	launchtab_free(&tab);
	plan_free(&plan);
	return status;
}
