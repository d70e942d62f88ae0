/*
 * Launch classification (classify.h): find the entry script behind the
 * launcher's own options, then its engine from the launch table, from what
 * the script imports and calls, or from --framework; the mode of an MM
 * launch from its arguments.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "shim/contract.h"
#include "common/argv.h"
#include "common/yamldoc.h"
#include "classify.h"
#include "content.h"
#include "pymodule.h"
#include "rewrite.h"

/* Entries that never train, whatever they import: left as they are. */
static const char *const not_training[] = {
	"inference*.py", "evaluation.py", "evaluate*.py", "convert_ckpt*.py",
	"preprocess_*.py", NULL
};

/*
 * The option grammar of the launcher NAME (a program or module name), and
 * in *SUB the subcommand it needs first ("" for none).
 */
static const struct optset *
grammar(const struct launchtab *t, const char *key, const char *name,
    const char **sub)
{
	int i = table_find(t->match, key, name);
	int mod = key[0] == 'm';
	const struct strv *sets = mod ? &t->module_sets : &t->launcher_sets;

	*sub = i < 0 || mod ? "" : t->launcher_subs.v[i];
	return i < 0 ? NULL : launchtab_set(t, sets->v[i]);
}

static int
is_flag(const struct optset *set, const char *arg)
{
	for (size_t i = 0; set != NULL && i < set->flags.n; i++)
		if (strcmp(set->flags.v[i], arg) == 0)
			return 1;
	return 0;
}

/*
 * Skip a launcher's options from START; the index of its script or -1.
 * *MODULE is set when they make it a module's name (torchrun -m).
 */
static int
script_after_options(const struct optset *set, char *const argv[], int start,
    int *module)
{
	int i;
	const char *a;

	for (i = start; (a = argv[i]) != NULL; i++) {
		if (strcmp(a, "--") == 0)
			return argv[i + 1] != NULL ? i + 1 : -1;
		if (a[0] != '-' || a[1] == '\0')
			return i;
		if (strcmp(a, "-m") == 0 || strcmp(a, "--module") == 0)
			*module = is_flag(set, a) && argv[i + 1] != NULL &&
			    strchr(argv[i + 1], '/') == NULL &&
			    !ends_with(argv[i + 1], ".py");
		if (strchr(a, '=') != NULL || is_flag(set, a))
			continue;
		if (a[1] != '-' && a[2] != '\0')
			continue;		/* -r3: value attached */
		if (argv[++i] == NULL)
			return -1;
	}
	return -1;
}

/*
 * The launch kind and the index of its entry script (or -1).  A launcher
 * that needs a subcommand (accelerate launch) is no launch without it.
 */
static void
find_script(const struct launchtab *t, const char *path, char *const argv[],
    struct launch *l)
{
	struct launch_match m;
	const struct optset *set = NULL;
	const char *sub = "";
	int start = 1;

	l->kind = match_launch(t->match, path, argv, &m);
	switch (l->kind) {
	case LAUNCH_NONE:
		return;
	case LAUNCH_LAUNCHER:
		set = grammar(t, MATCH_KEY_LAUNCHER, path, &sub);
		break;
	case LAUNCH_PY_MODULE:
		set = grammar(t, MATCH_KEY_MODULE, m.operand, &sub);
		start = m.next;
		break;
	case LAUNCH_PY_SCRIPT:
		set = grammar(t, MATCH_KEY_LAUNCHER, m.operand, &sub);
		if (set == NULL) {
			l->script = m.next - 1;	/* python entry.py */
			l->direct = 1;
		}
		start = m.next;
		break;
	case LAUNCH_PY_ENTRY_MODULE:
		l->script = m.next - 1;		/* python -m pkg.train */
		l->direct = 1;
		l->module = 1;
		start = m.next;
		break;
	case LAUNCH_CONSOLE:
		l->script = 0;			/* fairseq-train: its #! python */
		l->direct = 1;
		l->console = 1;
		break;
	}
	if (argv == NULL || argv[0] == NULL)
		return;
	if (*sub != '\0') {
		if (argv[start] == NULL || strcmp(argv[start], sub) != 0) {
			l->kind = LAUNCH_NONE;	/* accelerate config, ... */
			return;
		}
		start++;
	}
	if (l->script < 0)
		l->script = script_after_options(set, argv, start,
		    &l->module);
}

static void __attribute__((format(printf, 2, 3)))
reason(struct launch *l, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(l->why, sizeof(l->why), fmt, ap);
	va_end(ap);
}

/*
 * A launch left alone that --framework would profile: how to say so (a
 * script started directly only --framework torch makes a launch).
 */
static const char *
force_hint(struct launch *l)
{
	l->forcible = 1;
	return l->direct ? _("force it with --framework torch") :
	    _("force it with --framework llm, mm or torch");
}

/* How to make a training msprof-exec does not see one. */
static const char *
row_hint(void)
{
	return _("or add a 'train PACKAGE CALL NAME' row for the library "
	    "call that trains to ~/.config/msprof-exec/trainings.conf");
}

/*
 * The framework of the entry at SCRIPT by its content ("llm", "mm",
 * "torch"), or NULL and why.  A MindSpeed entry is one by its own lines;
 * a torch training may have its loop in the modules it imports, or in a
 * library the training table names.  A module (-m NAME) is read from its
 * file, a console script from the file executed (PROGRAM: as the shim
 * gives it, or found on PATH as a shell would).
 */
static const char *
by_content(const char *program, const char *script, char *const argv[],
    struct launch *l)
{
	struct entry_facts f;
	const char *eval, *need;
	size_t nlen = 0;
	char *file = l->module ? entry_module_file(script, program) :
	    l->console ? entry_program_file(program) : NULL;
	const char *path = file != NULL ? file : script;
	int rc;

	if (l->console && file == NULL) {
		reason(l, _("not a training entry: %s is not found on PATH; %s"),
		    program, force_hint(l));
		return NULL;
	}
	if (l->module && file == NULL) {
		reason(l, _("not a training entry: no file of module %s in the "
		    "working directory, PYTHONPATH or the installed packages "
		    "of %s; %s"), script, program, force_hint(l));
		return NULL;
	}
	rc = l->module ? entry_module_facts_read(path, program, l->direct, &f) :
	    entry_facts_read(path, program, l->direct, &f);
	free(file);
	if (rc == -1) {
		reason(l, _("not a training entry: cannot read %s (%s); %s"),
		    script, i18n_strerror(errno), force_hint(l));
		return NULL;
	}
	l->torch = f.torch != NULL || f.llm || f.mm;
	l->spawns = f.spawn;
	if ((f.llm || f.mm) && f.loop)
		return f.mm ? "mm" : "llm";
	if (f.llm || f.mm)
		reason(l, _("not a training entry: %s imports %s but calls no "
		    "training loop (pretrain, train); %s"), script,
		    f.mm ? "mindspeed_mm" : "mindspeed_llm", force_hint(l));
	else if (f.torch != NULL && entry_trains_torch(&f) &&
	    (eval = entry_eval_option(&f, argv + l->script + 1)) != NULL)
		reason(l, _("not a training entry: %s trains (%s), but is run "
		    "with %s, an evaluation (an 'eval' row of %s); %s"), script,
		    f.because, eval, TRAININGS_NAME, force_hint(l));
	else if (f.torch != NULL && entry_trains_torch(&f) &&
	    (need = entry_needed_option(&f, argv + l->script + 1, &nlen)) !=
	    NULL)
		reason(l, _("not a training entry: %s trains (%s) only when run "
		    "with %.*s (a 'needs' row of %s), and is run without it; "
		    "%s"), script, f.because, (int)nlen, need, TRAININGS_NAME,
		    force_hint(l));
	else if (f.torch != NULL && entry_trains_torch(&f)) {
		snprintf(l->because, sizeof(l->because), "%s", f.because);
		return "torch";
	} else if (f.torch != NULL && f.ds_only[0] != '\0')
		reason(l, _("not a training entry: %s calls %s but no backward "
		    "pass or step follows (a ZeRO inference); %s, %s"), script,
		    f.ds_only, force_hint(l), row_hint());
	else if (f.torch != NULL && f.uncalled[0] != '\0')
		reason(l, _("not a training entry: %s is built on %s, and the "
		    "loop of %s is never called by what it runs (%d module(s) "
		    "read); %s, %s"), script, f.torch, f.uncalled, f.followed,
		    force_hint(l), row_hint());
	else if (f.torch != NULL)
		reason(l, _("not a training entry: %s is built on %s but "
		    "trains nothing (no backward pass with an optimizer step, "
		    "Trainer(...).train(), deepspeed.initialize(...) or a "
		    "training call of the table, in it or the %d module(s) it "
		    "imports); %s, %s"), script, f.torch, f.followed,
		    force_hint(l), row_hint());
	else
		reason(l, _("not a training entry: %s imports neither torch "
		    "(transformers, accelerate, deepspeed) nor mindspeed_llm or "
		    "mindspeed_mm; %s"), script, force_hint(l));
	return NULL;
}

/* The engine a YAML config is for: MM_TOOL_PATH, or tools.profile. */
static enum engine
yaml_engine(const char *cfg, struct launch *l)
{
	struct ydoc y;
	char *why = NULL;
	enum engine e = ENGINE_MM_YAML;

	if (ydoc_load(&y, cfg, &why) == -1) {
		free(why);		/* the rewrite reports the file */
		return e;
	}
	if (ydoc_get(&y, ydoc_root(&y), "MM_TOOL_PATH") != 0)
		e = ENGINE_MM_YAML;
	else if (ydoc_get(&y, ydoc_get(&y, ydoc_root(&y), "tools"),
	    "profile") != 0)
		e = ENGINE_MM_FSDP2;
	else {
		l->refused = 1;
		reason(l, _("%s has neither a top-level MM_TOOL_PATH (a "
		    "MindSpeed-MM YAML entry) nor tools.profile (the MindSpeed-MM "
		    "FSDP2 engine): add the one its entry reads"), cfg);
	}
	ydoc_free(&y);
	return e;
}

/*
 * The MM engine from the arguments: a YAML first argument, else
 * --mm-tool, else a refusal that names both.  LISTED is the engine the
 * launch table gives (ENGINE_NONE: not listed).
 */
static enum engine
mm_engine(enum engine listed, char *const argv[], struct launch *l)
{
	const char *cfg = yaml_argument(argv, l->script), *tool = NULL;

	if (listed == ENGINE_MM_FSDP2)
		return listed;		/* its YAML only, never --mm-tool */
	if (cfg != NULL)
		return listed == ENGINE_MM_YAML ? listed : yaml_engine(cfg, l);
	if (argv_find(argv, l->script + 1, "--mm-tool", &tool) >= 0)
		return ENGINE_MM_MEGATRON;
	if (listed == ENGINE_MM_MEGATRON)
		return listed;		/* its rewrite names the fix */
	l->refused = 1;
	reason(l, _("%s has neither a YAML config as its first argument nor "
	    "--mm-tool: MindSpeed-MM reads its profiling settings from one of "
	    "them; add --mm-tool ./mindspeed_mm/tools/tools.json or the YAML "
	    "config"), argv[l->script]);
	return listed != ENGINE_NONE ? listed : ENGINE_MM_MEGATRON;
}

static enum engine
framework_engine(const char *framework, enum engine listed,
    char *const argv[], struct launch *l)
{
	if (strcmp(framework, "mm") == 0)
		return mm_engine(listed, argv, l);
	if (listed != ENGINE_NONE)
		return listed;
	if (strcmp(framework, "torch") == 0)
		return ENGINE_TORCH;
	return yaml_argument(argv, l->script) ? ENGINE_LLM_FSDP2 :
	    ENGINE_LLM_MCORE;
}

/*
 * Is SCRIPT (MODULE: a module's name, whose last part is its file's
 * name) an entry that never trains?
 */
static int
never_trains(const char *script, int module)
{
	const char *dot = strrchr(script, '.');
	char name[256];

	if (module)
		snprintf(name, sizeof(name), "%s.py", dot != NULL ? dot + 1 :
		    script);
	else
		snprintf(name, sizeof(name), "%s", path_base(script));
	for (int i = 0; not_training[i] != NULL; i++)
		if (fnmatch(not_training[i], name, 0) == 0)
			return 1;
	return 0;
}

int
launch_reads_direct(const char *framework)
{
	return framework == NULL || (strcmp(framework, "llm") != 0 &&
	    strcmp(framework, "mm") != 0);
}

/*
 * A script started directly (python X.py) that only an "auto" entry
 * matches: under --framework llm or mm not a launch at all (the shim does
 * not hand it over then), else by its content, forced to torch only when
 * --framework torch and it is built on torch.  One that is no training
 * is quiet: it was never a launch.
 */
static void
direct_entry(const char *framework, const char *path, char *const argv[],
    struct launch *l)
{
	const char *script = argv[l->script];
	const char *found;

	if (!launch_reads_direct(framework)) {
		l->kind = LAUNCH_NONE;
		return;
	}
	found = by_content(path, script, argv, l);
	if (found == NULL && l->torch && strcmp(framework, "torch") == 0) {
		l->source = SOURCE_FORCED;
		found = "torch";
	} else if (found != NULL)
		l->source = SOURCE_CONTENT;
	if (found == NULL) {
		l->quiet = !l->torch;
		return;
	}
	l->why[0] = '\0';
	l->forcible = 0;
	l->engine = framework_engine(found, ENGINE_NONE, argv, l);
}

void
launch_classify(const struct launchtab *t, const char *framework,
    const char *path, char *const argv[], struct launch *l)
{
	const char *script, *found, *listed;

	memset(l, 0, sizeof(*l));
	l->script = -1;
	if (framework == NULL)
		framework = "auto";
	if (path != NULL)
		find_script(t, path, argv, l);
	if (l->kind == LAUNCH_NONE)
		return;
	if (l->script < 0) {
		reason(l, "%s", _("no training script on the command line"));
		return;
	}
	script = argv[l->script];
	if (never_trains(script, l->module && l->direct)) {
		l->quiet = l->direct;
		reason(l, _("not a training entry: %s is an inference, "
		    "evaluation, conversion or preprocessing entry"), script);
		return;
	}
	listed = l->kind == LAUNCH_PY_ENTRY_MODULE ?
	    launchtab_module_engine(t, script) :
	    launchtab_entry_engine(t, script);
	if (listed != NULL && strcmp(listed, LAUNCHTAB_AUTO) != 0) {
		enum engine e = engine_parse(listed);

		l->source = SOURCE_TABLE;
		l->engine = framework_engine(engine_framework(e), e, argv, l);
		return;
	}
	if (l->direct) {
		direct_entry(framework, path, argv, l);
		return;
	}
	if (strcmp(framework, "auto") != 0) {
		l->source = SOURCE_FORCED;
		l->engine = framework_engine(framework, ENGINE_NONE, argv, l);
		return;
	}
	if ((found = by_content(path, script, argv, l)) == NULL)
		return;
	l->source = SOURCE_CONTENT;
	l->engine = framework_engine(found, ENGINE_NONE, argv, l);
}

void
launch_existing(const struct launch *l, char *const argv[],
    char *const envp[], struct strv *out)
{
	const struct engine_ops *e = engine_ops(l->engine);

	if (l->script >= 0 && e->existing != NULL)
		e->existing(l, argv, envp, out);
}
