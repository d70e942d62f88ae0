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
#include "common/journal.h"
#include "common/launchtab.h"
#include "engines/paths.h"
#include "common/plan.h"
#include "engines/rewrite.h"
#include "common/util.h"

extern char **environ;

static void
add_time(cJSON *rec)
{
	char buf[64];
	time_t now = time(NULL);
	struct tm tm;

	localtime_r(&now, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%S%z", &tm);
	cJSON_AddStringToObject(rec, "time", buf);
}

static cJSON *
new_record(const char *path, char *const argv[])
{
	cJSON *rec = cJSON_CreateObject();
	char cwd[PATH_MAX], host[256];

	add_time(rec);
	cJSON_AddNumberToObject(rec, "pid", getpid());
	if (gethostname(host, sizeof(host)) == 0) {
		host[sizeof(host) - 1] = '\0';
		cJSON_AddStringToObject(rec, "host", host);
	}
	if (getcwd(cwd, sizeof(cwd)) != NULL)
		cJSON_AddStringToObject(rec, "cwd", cwd);
	cJSON_AddStringToObject(rec, "path", path);
	cJSON_AddItemToObject(rec, "argv", json_strings(argv));
	/* Without it torch_npu collects nothing from the device. */
	cJSON_AddBoolToObject(rec, "cann", getenv("ASCEND_TOOLKIT_HOME") ||
	    getenv("ASCEND_HOME_PATH"));
	return rec;
}

/* What the launch will collect, for the report. */
static void
add_settings(cJSON *rec, const struct plan *p, const struct rewrite *rw)
{
	cJSON *r;

	cJSON_AddStringToObject(rec, "save_path", rw->save_path);
	cJSON_AddNumberToObject(rec, "step_start", rw->step_start);
	cJSON_AddNumberToObject(rec, "step_end", rw->step_end);
	if (p->ranks_all)
		cJSON_AddStringToObject(rec, "ranks", "all");
	else {
		r = cJSON_AddArrayToObject(rec, "ranks");
		for (size_t i = 0; i < p->nranks; i++)
			cJSON_AddItemToArray(r, cJSON_CreateNumber(p->ranks[i]));
		if (p->nranks == 0)
			cJSON_AddItemToArray(r, cJSON_CreateNumber(0));
	}
	cJSON_AddStringToObject(rec, "level", p->level);
	/* What really happens: the engine may not have the plan's choice. */
	cJSON_AddBoolToObject(rec, "analyse", rw->analyse);
	cJSON_AddStringToObject(rec, "mode", rw->mode);
	if (rw->written.n > 0)
		cJSON_AddItemToObject(rec, "copies", json_strings(rw->written.v));
	if (rw->existing.n > 0)
		cJSON_AddItemToObject(rec, "existing",
		    json_strings(rw->existing.v));
}

static void
record(const char *session, cJSON *rec, const char *status, const char *why)
{
	cJSON_AddStringToObject(rec, "status", status);
	if (why != NULL)
		cJSON_AddStringToObject(rec, "reason", why);
	if (journal_append(session, rec) == -1)
		warn(_("cannot write the journal in %s"), session);
	cJSON_Delete(rec);
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
refuse_missing(const char *session, cJSON *rec, const struct launch *l,
    char *const cmd[])
{
	struct strv missing = { 0 };
	char *list;

	launch_missing_paths(l, cmd, &missing);
	if (missing.n == 0)
		return 0;
	list = strv_join(missing.v, "\n  ");
	warnx(_("the launch names paths that do not exist (relative to %s); "
	    "it was not started:\n  %s"), cJSON_GetStringValue(
	    cJSON_GetObjectItemCaseSensitive(rec, "cwd")), list);
	cJSON_AddItemToObject(rec, "missing", json_strings(missing.v));
	cJSON_AddNumberToObject(rec, "exit", EX_NOINPUT);
	free(list);
	list = strv_join(missing.v, ", ");
	record(session, rec, "refused", list);
	free(list);
	strv_free(&missing);
	return 1;
}

/* A later word on this process's launch (journal.h merges it). */
static void
record_update(const char *session, const char *path, const char *status,
    const char *why)
{
	cJSON *rec = new_record(path, NULL);

	cJSON_DeleteItemFromObjectCaseSensitive(rec, "argv");
	record(session, rec, status, why);
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
	size_t n;
	int e;
	char *why;

	execve(path, argv, envp);
	if (errno == E2BIG && argv != orig) {
		warnx(_("the profiled command line is too long for this system; "
		    "running %s without profiling"), path);
		record_update(session, path, "unchanged",
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
	record_update(session, path, "failed", why);
	free(why);
	free(envp);
	free(ld);
	return e == ENOENT ? 127 : 126;
}

/*
 * Give the launch of PATH (CMD) the plan's settings and run it; returns
 * only when it does not run, with the exit status.
 */
static int
inject(const struct plan *plan, const struct launchtab *tab,
    const char *mode, const char *session, const char *path, char **cmd,
    cJSON *rec)
{
	struct launch l;
	struct rewrite rw;
	char *why = NULL;
	int status;

	launch_classify(tab, plan->framework, path, cmd, &l);
	cJSON_AddStringToObject(rec, "engine", engine_name(l.engine));
	if (l.script >= 0)
		cJSON_AddStringToObject(rec, "script", cmd[l.script]);
	if (l.engine == ENGINE_NONE) {
		record(session, rec, "unchanged", l.why);
		return run(session, mode, path, cmd, cmd, plan->shim, NULL);
	}
	if (refuse_missing(session, rec, &l, cmd))
		return EX_NOINPUT;
	if (launch_rewrite(plan, &l, cmd, environ, session, &rw, &why) == -1) {
		warnx("%s", why);
		record(session, rec, "refused", why);
		free(why);
		rewrite_free(&rw);
		return EX_CONFIG;
	}
	add_settings(rec, plan, &rw);
	for (size_t i = 0; !rw.kept && i < rw.notes.n; i++)
		warnx(_("note: %s"), rw.notes.v[i]);
	if (rw.kept) {
		record(session, rec, "kept",
		    _("the launch's own profiling settings were kept"));
		status = run(session, mode, path, cmd, cmd, plan->shim, NULL);
	} else {
		cJSON_AddItemToObject(rec, "new_argv", json_strings(rw.argv.v));
		record(session, rec, "injected", NULL);
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
	cJSON *rec;
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
	rec = new_record(path, cmd);
	plan_path = xasprintf("%s/%s", session, SESSION_PLAN);

	if (plan_read(&plan, plan_path, &why) == -1 ||
	    launchtab_load(&tab, plan.launchtab ? plan.launchtab : "", &why) == -1) {
		warnx(_("%s; running the launch without profiling"), why);
		record(session, rec, "unchanged", why);
		status = run(session, mode, path, cmd, cmd, plan.shim, NULL);
	} else
		status = inject(&plan, &tab, mode, session, path, cmd, rec);
	free(why);
	free(plan_path);
	launchtab_free(&tab);
	plan_free(&plan);
	return status;
}
