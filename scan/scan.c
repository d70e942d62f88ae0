/*
 * The MindSpeed facts of a training script: the shell reader (sh.h)
 * reads the script the way the shell would, without running any of it,
 * and hands over each command it finds; here the commands that start a
 * MindSpeed training launch are recorded, with the counts, configuration
 * files and profiling settings they carry, and the model the script's
 * name says it trains.
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "shim/contract.h"
#include "shim/match.h"
#include "engines/classify.h"
#include "scan.h"
#include "sh.h"

#define MAX_LAUNCHES	64		/* launches recorded */

struct scanner {
	const struct launchtab	*tab;
	struct scan		*out;
	struct sh		*sh;		/* the shell running it */
	const struct sh_cmd	*cmd;		/* the command */
	int			 took_vars;
};

/* Add S (converted for the user) to SV unless it is there. */
static void
push_once(struct strv *sv, const char *s)
{
	char *p = sh_shown(s);

	if (!strv_has(sv, p))
		strv_push(sv, p);
	free(p);
}

/* A count or port: a non-negative int, or -1. */
static int
to_int(const char *s)
{
	long long v;

	return s != NULL && sh_parse_int(s, &v) && v >= 0 && v <= 0x7fffffff ?
	    (int)v : -1;
}

/* A variable as a count or port, -1 when unset, unknown or not a number. */
static int
var_int(struct scanner *sc, const char *name)
{
	struct sh_var *v = sh_lookup(&sc->sh->vars, name, strlen(name));

	return v != NULL && v->known ? to_int(v->value.s) : -1;
}

/* Launches. */

/* A launch as shown: words joined, quoted when they hold blanks. */
static char *
display(char *const argv[])
{
	struct buf b = { 0 };
	char *q, *s;

	for (size_t i = 0; argv[i] != NULL; i++) {
		const char *a = argv[i];

		q = *a == '\0' || a[strcspn(a, " \t\n'\"")] != '\0' ?
		    shell_quote(a) : xstrdup(a);
		if (i > 0)
			buf_add(&b, " ", 1);
		buf_add(&b, q, strlen(q));
		free(q);
	}
	s = sh_shown(b.s != NULL ? b.s : "");
	free(b.s);
	return s;
}

/*
 * The value of ARGV[I] when it is one of the options NAMES, as "--opt V"
 * (V before index TO) or "--opt=V"; NULL otherwise.
 */
static const char *
opt_at(char *const argv[], int i, int to, const char *const *names)
{
	size_t n;

	for (; *names != NULL; names++) {
		n = strlen(*names);
		if (strncmp(argv[i], *names, n) != 0)
			continue;
		if (argv[i][n] == '=')
			return argv[i] + n + 1;
		if (argv[i][n] == '\0' && i + 1 < to)
			return argv[i + 1];
	}
	return NULL;
}

/* The value of the last of the options NAMES in ARGV[FROM..TO), or NULL. */
static const char *
opt_value(char *const argv[], int from, int to, const char *const *names)
{
	const char *v = NULL, *w;

	for (int i = from; i < to; i++)
		if ((w = opt_at(argv, i, to, names)) != NULL)
			v = w;
	return v;
}

/* Counts from the variables, as they are when the first launch runs. */
static void
take_vars(struct scanner *sc)
{
	struct scan *s = sc->out;

	if (sc->took_vars++)
		return;
	s->npus_per_node = var_int(sc, "NPUS_PER_NODE");
	if (s->npus_per_node < 0)
		s->npus_per_node = var_int(sc, "GPUS_PER_NODE");
	s->nnodes = var_int(sc, "NNODES");
	s->node_rank = var_int(sc, "NODE_RANK");
	s->master_port = var_int(sc, "MASTER_PORT");
}

/* The launcher's own options (before the script) override variables. */
static void
launcher_options(struct scanner *sc, char *const argv[], int script)
{
	static const char *const nproc[] = { "--nproc_per_node",
	    "--nproc-per-node", "--local_worker_num", "--num_gpus",
	    "--num_accelerators", NULL };
	static const char *const nnodes[] = { "--nnodes", "--num_nodes",
	    "--num_machines", NULL };
	static const char *const workers[] = { "--worker_num", NULL };
	static const char *const total[] = { "--num_processes", NULL };
	static const char *const rank[] = { "--node_rank", "--node-rank",
	    "--machine_rank", NULL };
	static const char *const port[] = { "--master_port", "--master-port",
	    "--main_process_port", NULL };
	struct scan *s = sc->out;
	const char *v;
	int w;

	if ((v = opt_value(argv, 1, script, nproc)) != NULL)
		s->npus_per_node = to_int(v);
	if ((v = opt_value(argv, 1, script, nnodes)) != NULL)
		s->nnodes = to_int(v);
	else if ((w = to_int(opt_value(argv, 1, script, workers))) > 0 &&
	    s->npus_per_node > 0 && w % s->npus_per_node == 0)
		s->nnodes = w / s->npus_per_node;	/* msrun: all workers */
	/* accelerate: its processes over all machines */
	if (opt_value(argv, 1, script, nproc) == NULL &&
	    (w = to_int(opt_value(argv, 1, script, total))) > 0)
		s->npus_per_node = w / (s->nnodes > 0 ? s->nnodes : 1);
	if ((v = opt_value(argv, 1, script, rank)) != NULL)
		s->node_rank = to_int(v);
	if ((v = opt_value(argv, 1, script, port)) != NULL)
		s->master_port = to_int(v);
}

/* The name users know the launcher by. */
static const char *
launcher_name(struct scanner *sc, char *const argv[])
{
	struct launch_match m;

	switch (match_launch(sc->tab->match, argv[0], argv, &m)) {
	case LAUNCH_PY_MODULE:
		return m.operand;
	case LAUNCH_PY_SCRIPT:
		if (table_has(sc->tab->match, MATCH_KEY_LAUNCHER, m.operand))
			return path_base(m.operand); /* python .../torchrun */
		break;
	default:
		break;
	}
	return path_base(argv[0]);
}

static void
first_launch(struct scanner *sc, char *const argv[], const struct launch *l)
{
	static const char *const iters[] = { "--train-iters", NULL };
	struct scan *s = sc->out;
	int argc = 0;

	while (argv[argc] != NULL)
		argc++;
	s->engine = l->engine;
	s->entry = sh_shown(argv[l->script]);
	s->launcher = sh_shown(launcher_name(sc, argv));
	take_vars(sc);
	launcher_options(sc, argv, l->script);
	s->train_iters = to_int(opt_value(argv, l->script + 1, argc, iters));
}

static int
yaml_engine(enum engine e)
{
	return engine_ops(e)->yaml_first;
}

/* Configuration files a launch names. */
static void
configs(struct scanner *sc, char *const argv[], const struct launch *l)
{
	static const char *const mm[] = { "--mm-tool", "--mm-data",
	    "--mm-model", NULL };
	const char *a, *v;
	struct sh_var *tool;
	int yaml = yaml_engine(l->engine), argc = 0;

	while (argv[argc] != NULL)
		argc++;
	for (int i = l->script + 1; (a = argv[i]) != NULL; i++) {
		if (yaml && (ends_with(a, ".yaml") || ends_with(a, ".yml"))) {
			push_once(&sc->out->configs, a);
			yaml = 0;
		}
		if ((v = opt_at(argv, i, argc, mm)) != NULL && *v != '\0')
			push_once(&sc->out->configs, v);
	}
	tool = sh_lookup(&sc->sh->vars, "MM_TOOL", 7);
	if (tool != NULL && tool->known && tool->value.len > 0)
		push_once(&sc->out->configs, tool->value.s);
}

/*
 * Profiling settings a launch already carries: its engine's rule, with
 * the environment it runs with (ENV, as keep_launch() found it).
 */
static void
existing(struct scanner *sc, char *const argv[], const struct strv *env,
    const struct launch *l)
{
	struct strv found = { 0 };

	launch_existing(l, argv, env->v, &found);
	for (size_t i = 0; i < found.n; i++)
		push_once(&sc->out->existing, found.v[i]);
	strv_free(&found);
}

/* The value of NAME in ENV (NAME=value entries), or NULL. */
static const char *
env_value(const struct strv *env, const char *name)
{
	size_t n = strlen(name);

	for (size_t i = 0; i < env->n; i++)
		if (strncmp(env->v[i], name, n) == 0 && env->v[i][n] == '=')
			return env->v[i] + n + 1;
	return NULL;
}

/*
 * Give this process the PYTHONPATH of ENV (unset when ENV has none), as
 * the launch will have it: the content reader looks for modules there.
 * *SAVED is the one it had (NULL: unset), for put_pythonpath() to put back.
 */
static void
take_pythonpath(const struct strv *env, char **saved)
{
	const char *was = getenv("PYTHONPATH"), *v = env_value(env,
	    "PYTHONPATH");

	*saved = xstrdup_null(was);
	if (v != NULL)
		setenv("PYTHONPATH", v, 1);
	else
		unsetenv("PYTHONPATH");
}

static void
put_pythonpath(char *saved)
{
	if (saved != NULL)
		setenv("PYTHONPATH", saved, 1);
	else
		unsetenv("PYTHONPATH");
	free(saved);
}

void
scan_classify(const struct launchtab *tab, const char *framework,
    const char *cwd, const struct strv *env, char *const argv[],
    struct launch *l)
{
	int here = -1;
	char *saved = NULL;

	/* the entry and the modules it imports are read from where it runs */
	if (cwd != NULL && *cwd != '\0' &&
	    (here = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)) != -1 &&
	    chdir(cwd) == -1) {
		close(here);
		here = -1;
	}
	/* and through the PYTHONPATH the script gave it (export ...) */
	if (env != NULL)
		take_pythonpath(env, &saved);
	launch_classify(tab, framework, argv[0], argv, l);
	if (env != NULL)
		put_pythonpath(saved);
	if (here != -1) {
		if (fchdir(here) == -1)
			err(1, "fchdir");
		close(here);
	}
}

/* Keep ARGV as it is for the dry run, with where and how it runs. */
static void
keep_launch(struct scanner *sc, char *const argv[])
{
	struct scan *s = sc->out;
	struct scan_launch *r;
	char *a;

	s->runs = xreallocarray(s->runs, s->nruns + 1, sizeof(*s->runs));
	r = &s->runs[s->nruns++];
	memset(r, 0, sizeof(*r));
	for (size_t i = 0; argv[i] != NULL; i++) {
		strv_push(&r->argv, (a = sh_shown(argv[i])));
		free(a);
	}
	sh_environ(sc->sh, sc->cmd, &r->env);
	r->line = sc->cmd->line;
	r->script = xstrdup(sc->cmd->file);
	r->cwd = xstrdup_null(sc->sh->cwd);
	r->guarded = sc->sh->blocks > 0 || sc->sh->cond ||
	    sc->sh->cwd_unsure;
}

/* ARGV (a command after its prefixes) if it is a training launch. */
static void
try_launch(struct scanner *sc, char *const argv[])
{
	struct launch l;
	struct scan *s = sc->out;
	struct strv env = { 0 };
	char *shown_launch;

	sh_environ(sc->sh, sc->cmd, &env);
	scan_classify(sc->tab, NULL, sc->sh->cwd, &env, argv, &l);
	strv_free(&env);
	if (l.kind == LAUNCH_NONE || l.quiet || l.script < 0 ||
	    s->nruns >= MAX_LAUNCHES)
		return;
	keep_launch(sc, argv);	/* left alone ones too: the table says why */
	if (l.engine == ENGINE_NONE)
		return;
	shown_launch = display(argv);
	strv_push(&s->launches, shown_launch);
	free(shown_launch);
	if (s->launches.n == 1)
		first_launch(sc, argv, &l);
	configs(sc, argv, &l);
	existing(sc, argv, &s->runs[s->nruns - 1].env, &l);
}

/*
 * The model a script trains, from its file name.  MindSpeed names its
 * examples TASK_MODEL_TAGS.sh.  The rule: the base name without ".sh"
 * must start with pretrain_, finetune_, tune_ or posttrain_ (otherwise
 * there is no model name), which is removed; then "_"-separated tags are
 * removed from the end while they are a sequence length (4K, 32k) or one
 * of ptd, ms, mcore, fsdp2, full, lora, qlora, pack, quant, A2, A3, A5,
 * or what a copy renamed by hand adds (edited, copy, bak, backup, orig,
 * new, old, tmp), in any case.  The first part always stays.  A script
 * named for its task alone (MindSpeed-MM's examples/wan2.1/1.3b/t2v/
 * pretrain.sh) trains the model its directories under examples/ name.
 *	pretrain_qwen3_8b_4K_ptd.sh		qwen3_8b
 *	tune_deepseek3_671b_16k_lora_A3_ptd.sh	deepseek3_671b
 *	pretrain_qwen3_8b_4K_ptd_edited.sh	qwen3_8b
 *	examples/wan2.1/1.3b/t2v/pretrain.sh	wan2.1_1.3b_t2v
 *	pretrain.sh, data_convert_qwen3.sh	NULL
 */
static char *
model_of_dirs(const char *path)
{
	static const char *const tasks[] = { "pretrain.sh", "finetune.sh",
	    "tune.sh", "posttrain.sh", "train.sh", NULL };
	const char *ex = NULL, *base = path_base(path);
	char *name;

	for (const char *p = path; (p = strstr(p, "examples/")) != NULL; p++)
		if (p == path || p[-1] == '/')
			ex = p + strlen("examples/");
	if (ex == NULL || base <= ex)
		return NULL;
	for (const char *const *t = tasks; *t != NULL; t++)
		if (strcmp(base, *t) == 0) {
			name = xstrndup(ex, (size_t)(base - 1 - ex));
			for (char *c = name; *c != '\0'; c++)
				if (*c == '/')
					*c = '_';
			return name;
		}
	return NULL;
}

static char *
model_name(const char *path)
{
	static const char *const prefixes[] = { "pretrain_", "finetune_",
	    "tune_", "posttrain_", NULL };
	static const char *const tags[] = { "ptd", "ms", "mcore", "fsdp2",
	    "full", "lora", "qlora", "pack", "quant", "A2", "A3", "A5",
	    "edited", "copy", "bak", "backup", "orig", "new", "old", "tmp",
	    NULL };
	const char *base = path_base(path), *const *p;
	char *name, *cut, *tag;
	const char *const *t;

	for (p = prefixes; *p != NULL; p++)
		if (strncmp(base, *p, strlen(*p)) == 0)
			break;
	if (*p == NULL)
		return model_of_dirs(path);
	name = xstrdup(base + strlen(*p));
	if (ends_with(name, ".sh"))
		name[strlen(name) - 3] = '\0';
	while ((cut = strrchr(name, '_')) != NULL) {
		tag = cut + 1;
		for (t = tags; *t != NULL && strcasecmp(*t, tag) != 0; t++)
			;
		if (*t == NULL && !(strspn(tag, "0123456789") > 0 &&
		    strcasecmp(tag + strspn(tag, "0123456789"), "k") == 0))
			break;
		*cut = '\0';
	}
	if (*name == '\0' || *name == '_') {
		free(name);
		return NULL;
	}
	return name;
}

/* Each command the shell reads. */
static void
command_hook(struct sh *sh, const struct sh_cmd *cmd, void *arg)
{
	struct scanner *sc = arg;

	size_t before = sc->out->nruns;

	sc->sh = sh;
	sc->cmd = cmd;
	try_launch(sc, cmd->argv);
	/* A wrapper trains the model of the script it runs. */
	if (before == 0 && sc->out->nruns == 1 && sc->out->model == NULL)
		sc->out->model = model_name(cmd->file);
}

int
scan_script(const struct launchtab *tab, const char *path,
    char *const envp[], struct scan *s, char **why)
{
	struct scanner sc = { .tab = tab, .out = s };
	struct sh_run run = { .hook = command_hook, .arg = &sc };
	struct sh sh;
	char *text;

	memset(s, 0, sizeof(*s));
	s->npus_per_node = s->nnodes = s->node_rank = s->master_port = -1;
	s->train_iters = -1;
	s->engine = ENGINE_NONE;
	if ((text = read_file(path, NULL)) == NULL) {
		*why = xasprintf(_("cannot read %s: %s"), path,
		    read_error(errno));
		return -1;
	}
	s->model = model_name(path);
	sh_init(&sh, &run, path, envp);
	sc.sh = &sh;
	if (sh_is_shell_script(text))
		sh_run_text(&sh, path, text);
	s->crlf = run.crlf != 0;
	s->crlf_file = run.crlf_file;
	sc.sh = &sh;
	take_vars(&sc);		/* no launch: as the script ends */
	sh_free(&sh);
	free(text);
	return 0;
}

int
scan_is_shell_script(const char *path)
{
	char head[512];
	ssize_t n;
	int fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return 0;
	n = read(fd, head, sizeof(head) - 1);
	close(fd);
	if (n < 0)
		return 0;
	head[n] = '\0';
	if (strncmp(head, "#!", 2) != 0)
		return ends_with(path, ".sh");
	return sh_is_shell_script(head);
}

void
scan_free(struct scan *s)
{
	free(s->model);
	free(s->entry);
	free(s->launcher);
	strv_free(&s->launches);
	for (size_t i = 0; i < s->nruns; i++) {
		strv_free(&s->runs[i].argv);
		strv_free(&s->runs[i].env);
		free(s->runs[i].script);
		free(s->runs[i].cwd);
	}
	free(s->runs);
	strv_free(&s->configs);
	strv_free(&s->existing);
	free(s->crlf_file);
	memset(s, 0, sizeof(*s));
}
