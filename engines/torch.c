/*
 * Any other training on torch_npu (torchrun, torch_npu_run, deepspeed,
 * accelerate launch, msrun, python -m torch.distributed.run|launch, a
 * python train.py a script starts once per rank): torch_npu's
 * non-intrusive mode.  The launch's environment gets PROF_CONFIG_PATH, a
 * directory of the session holding profiler_config.json; its command line
 * is not changed.  torch_npu reads the variable at import and counts a
 * step at each step() of the last optimizer made, so a window S:E starts
 * after the S-th step() and collects E - S steps: step 0 cannot be
 * collected.  It acts on a config only when the file was modified after
 * the process started: msprof-exec arms it once the workers have started
 * (launcher/arm.c); with --mode dynamic, msprof-exec trigger does.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "shim/contract.h"
#include "common/jsonfile.h"
#include "dynamic.h"
#include "rewrite.h"
#include "torch.h"

/* The bytes of the character at S torch_npu's path rule takes, or 0. */
static size_t
allowed(const unsigned char *s)
{
	size_t n;

	if (*s != '\0' && (strchr("_./~- \t\n\r\f\v", *s) != NULL ||
	    (*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'z') ||
	    (*s >= 'A' && *s <= 'Z')))
		return 1;
	/* U+4E00 .. U+9FA5: E4 B8 80 .. E9 BE A5 */
	if ((n = utf8_seq(s)) != 3 || memcmp(s, "\xe4\xb8\x80", 3) < 0 ||
	    memcmp(s, "\xe9\xbe\xa5", 3) > 0)
		return 0;
	return n;
}

int
torch_path_check(const char *path, const char **bad)
{
	const unsigned char *s = (const unsigned char *)path, *part = s;
	size_t n;

	*bad = path;
	if (strlen(path) > 4096 || *path == '\0')
		return -1;
	for (; *s != '\0'; s += n) {
		if (*s == '/')
			part = s + 1;
		else if (s - part >= 255)
			break;
		if ((n = allowed(s)) == 0)
			break;
	}
	*bad = (const char *)s;
	return *s == '\0' ? 0 : -1;
}

int
torch_config_write(const char *dir, const struct plan *p, int one,
    time_t mtime, char **why)
{
	struct dynamic_window w = { 0 };
	static const int rank0[] = { 0 };
	int start, end, zero = p->nranks == 0;

	plan_steps(p, ENGINE_TORCH, &start, &end);
	for (size_t i = 0; i < p->nranks; i++)
		zero |= p->ranks[i] == 0;
	/* start_step 0 never fires: msprof-exec trigger sets it */
	w.start = strcmp(p->mode, "dynamic") == 0 ? 0 : start;
	w.active = end - start;
	w.is_rank = !p->ranks_all && !(one && zero);
	w.ranks = p->nranks > 0 ? p->ranks : rank0;
	w.nranks = p->nranks > 0 ? p->nranks : 1;
	w.mtime = mtime;
	return dynamic_write(dir, p, plan_output(p, ENGINE_TORCH), &w, why);
}

/* The launch's own PROF_CONFIG_PATH, or NULL (empty is none to torch_npu). */
static const char *
own_config(char *const envp[])
{
	size_t n = strlen(TORCH_ENV);

	for (; envp != NULL && *envp != NULL; envp++)
		if (strncmp(*envp, TORCH_ENV "=", n + 1) == 0 &&
		    (*envp)[n + 1] != '\0')
			return *envp + n + 1;
	return NULL;
}

static void
existing(const struct launch *l, char *const argv[], char *const envp[],
    struct strv *out)
{
	const char *own = own_config(envp);

	if (own != NULL)
		strv_pushf(out, "%s=%s", TORCH_ENV, own);
}

/* The prof_dir of the launch's own profiler_config.json ("./" by default). */
static char *
own_save_path(const struct launch *l, char *const argv[], char *const envp[])
{
	const char *own = own_config(envp);
	char *path, *why = NULL, *save = NULL;
	const cJSON *v;
	cJSON *j;

	if (own == NULL)
		return NULL;
	path = xasprintf("%s/%s", own, DYNAMIC_CONFIG);
	if ((j = json_read(path, &why)) != NULL &&
	    cJSON_IsString(v = cJSON_GetObjectItemCaseSensitive(j, "prof_dir")))
		save = xstrdup(v->valuestring);
	cJSON_Delete(j);
	free(why);
	free(path);
	return save != NULL ? save : xstrdup("./");
}

/*
 * Is the launch one process without a rank: a script started directly
 * with none of the variables a rank is told by (torchrun's, or RANK_ID of
 * the per-rank loops of Ascend's model zoo), which does not start its
 * ranks itself either (mp.spawn, detectron2's launch(main, ...)): those
 * ranks have their rank, and only the plan's are to collect.
 */
static int
one_process(const struct rewrite_ctx *c)
{
	static const char *const vars[] = { "RANK=", "RANK_ID=", "WORLD_SIZE=",
	    "RANK_SIZE=", "LOCAL_RANK=", NULL };

	if (!c->launch->direct || c->launch->spawns)
		return 0;
	for (char *const *e = c->envp; e != NULL && *e != NULL; e++)
		for (int i = 0; vars[i] != NULL; i++)
			if (strncmp(*e, vars[i], strlen(vars[i])) == 0)
				return 0;
	return 1;
}

/* PATH made absolute, as a process in the current directory reads it. */
static char *
absolute(const char *path)
{
	char cwd[PATH_MAX], *real = realpath(path, NULL);

	if (real != NULL || path[0] == '/')
		return real != NULL ? real : xstrdup(path);
	if (getcwd(cwd, sizeof(cwd)) == NULL)
		return xstrdup(path);
	return xasprintf("%s/%s", cwd, path);
}

/*
 * "dp_HOST_PID_rank_RANK.log" (torch_npu's init_logger), or with
 * "monitor_" first the log of a monitor: 0, or -1.
 */
int
torch_log_name(const char *name, long *pid, int *rank, int *monitor)
{
	const char *r, *p;
	char *end;

	*monitor = strncmp(name, "monitor_", 8) == 0;
	if (*monitor)
		name += 8;
	if (strncmp(name, "dp_", 3) != 0 || strlen(name) < 4 ||
	    strcmp(name + strlen(name) - 4, ".log") != 0 ||
	    (r = strstr(name, "_rank_")) == NULL)
		return -1;
	for (const char *q = r; (q = strstr(q + 1, "_rank_")) != NULL; )
		r = q;				/* the last, after the host */
	*rank = (int)strtol(r + 6, &end, 10);
	if (strcmp(end, ".log") != 0)
		return -1;
	for (p = r; p > name && p[-1] != '_'; p--)
		;
	*pid = strtol(p, &end, 10);
	return end == r && *pid > 0 ? 0 : -1;
}

/*
 * Why torch_npu refuses PATH, which torch_path_check() stopped at BAD,
 * as NAME (PROF_CONFIG_PATH, prof_dir): a character, or a length.
 */
static char *
refusal(const char *name, const char *path, const char *bad)
{
	int n = (int)utf8_seq((const unsigned char *)bad);

	if (*bad == '\0' || allowed((const unsigned char *)bad) > 0)
		return xasprintf(_("%s: torch_npu refuses this %s, longer "
		    "than 4096 bytes or with a name longer than 255, and would "
		    "profile nothing; choose a shorter output directory with "
		    "-o"), path, name);
	return xasprintf(_("%s: torch_npu refuses this %s for the '%.*s' in "
	    "it (it takes only letters, digits, white space, Chinese "
	    "characters and _ . / ~ -) and would profile nothing; choose an "
	    "output directory without it with -o"), path, name, n > 0 ? n : 1,
	    bad);
}

/*
 * torch_npu refuses PROF_CONFIG_PATH (DIR) or the save path it resolves
 * with a character outside its rule, and then profiles nothing: refuse
 * the launch instead, before its training starts, with the fix.
 */
static int
check_paths(struct rewrite_ctx *c, const char *dir)
{
	char *save = absolute(c->out->save_path), *why = NULL;
	const char *bad;

	if (c->session != NULL && torch_path_check(dir, &bad) == -1)
		why = refusal(TORCH_ENV, dir, bad);
	else if (torch_path_check(save, &bad) == -1)
		why = refusal("prof_dir", save, bad);
	free(save);
	return why == NULL ? 0 : rewrite_fail(c, why);
}

/*
 * The config the workers are started with: in the session, written once
 * (the first launch of a per-rank loop), and armed by msprof-exec later.
 * It is dated an hour back: the time torch_npu's monitor reads first then
 * differs from any arming's (msprof-exec's clock, ahead), even when the
 * file server's clock, which dates a file written now, is ahead too.
 */
static int
prepare(struct rewrite_ctx *c, const char *dir)
{
	char *path = xasprintf("%s/%s", dir, DYNAMIC_CONFIG);
	int rc = 0;

	if (mkdirs(dir, 0755) == -1) {
		rc = rewrite_fail(c, xasprintf(_("cannot create %s: %s"), dir,
		    i18n_strerror(errno)));
	} else if (access(path, F_OK) == -1)
		rc = torch_config_write(dir, c->plan, one_process(c),
		    time(NULL) - 3600, c->why);
	free(path);
	return rc;
}

static int
rewrite(struct rewrite_ctx *c)
{
	char *dir = xasprintf("%s/%s", c->session != NULL ? c->session :
	    "SESSION", SESSION_PROF_CONFIG);

	c->out->prof_config = dir;
	if (check_paths(c, dir) == -1)
		return -1;
	rewrite_copy_argv(c);
	strv_pushf(&c->out->env, "%s=%s", TORCH_ENV, dir);
	return c->session != NULL ? prepare(c, dir) : 0;
}

/* What torch_npu's non-intrusive mode has no place for. */
static void
notes(const struct plan *p, struct strv *out)
{
	if (p->train_iters > 0)
		strv_pushf(out, _("torch_npu cannot change how many steps a "
		    "training runs: --train-iters %d is not applied"),
		    p->train_iters);
	if (p->dynamic_dir != NULL)
		strv_pushf(out, _("torch_npu's config directory is the "
		    "session's prof_config: --dynamic-dir %s is not used"),
		    p->dynamic_dir);
}

/*
 * The default window: steps 10 and 11 (0-based, after the 10th step()).
 * Step 0 is never possible, and the first steps compile operators and
 * grow the memory pools; torch_npu's monitor polls the config every 2 s,
 * and msprof-exec arms it only once the workers have started: ten steps
 * of setup and training leave it time to arrive.
 */
const struct engine_ops torch_engine = {
	.name = "torch",
	.framework = "torch",
	.label = N_("torch_npu (PROF_CONFIG_PATH)"),
	.step_start = 10, .step_end = 12,
	.output = "./profiling_output",
	.base = STEPS_FROM_0,
	.schedule = SCHEDULE_DYNAMIC,
	.limits = N_("step 0 cannot be collected; torch_npu counts the "
	    "step() calls of the last optimizer made (one that does not go "
	    "through torch.optim.Optimizer.step is not counted); a launch "
	    "whose environment sets PROF_CONFIG_PATH profiles itself "
	    "(--existing)"),
	.existing = existing,
	.own_save_path = own_save_path,
	.rewrite = rewrite,
	.notes = notes,
};
