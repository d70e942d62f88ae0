/*
 * Launch classification (classify.h): find the entry script behind the
 * launcher's own options, then its engine from the launch table, from what
 * the script imports and calls, or from --framework; the mode of an MM
 * launch from its arguments.
 */
#include <errno.h>
#include <fcntl.h>
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
#include "rewrite.h"

/* Entries that never train, whatever they import: left as they are. */
static const char *const not_training[] = {
	"inference*.py", "evaluation.py", "evaluate*.py", "convert_ckpt*.py",
	"preprocess_*.py", NULL
};

/* The option grammar of the launcher NAME (a program or module name). */
static const struct optset *
grammar(const struct launchtab *t, const char *key, const char *name)
{
	int i = table_find(t->match, key, name);
	const struct strv *sets = key[0] == 'm' ? &t->module_sets :
	    &t->launcher_sets;

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

/* Skip a launcher's options from START; the index of its script or -1. */
static int
script_after_options(const struct optset *set, char *const argv[], int start)
{
	int i;
	const char *a;

	for (i = start; (a = argv[i]) != NULL; i++) {
		if (strcmp(a, "--") == 0)
			return argv[i + 1] != NULL ? i + 1 : -1;
		if (a[0] != '-' || a[1] == '\0')
			return i;
		if (strchr(a, '=') != NULL || is_flag(set, a))
			continue;
		if (a[1] != '-' && a[2] != '\0')
			continue;		/* -r3: value attached */
		if (argv[++i] == NULL)
			return -1;
	}
	return -1;
}

/* The launch kind and the index of its entry script (or -1). */
static void
find_script(const struct launchtab *t, const char *path, char *const argv[],
    struct launch *l)
{
	struct launch_match m;
	const struct optset *set = NULL;
	int start = 1;

	l->kind = match_launch(t->match, path, argv, &m);
	switch (l->kind) {
	case LAUNCH_NONE:
		return;
	case LAUNCH_LAUNCHER:
		set = grammar(t, MATCH_KEY_LAUNCHER, path);
		break;
	case LAUNCH_PY_MODULE:
		set = grammar(t, MATCH_KEY_MODULE, m.operand);
		start = m.next;
		break;
	case LAUNCH_PY_SCRIPT:
		set = grammar(t, MATCH_KEY_LAUNCHER, m.operand);
		if (set == NULL)
			l->script = m.next - 1;	/* python entry.py */
		start = m.next;
		break;
	}
	if (argv == NULL || argv[0] == NULL)
		return;
	if (l->script < 0)
		l->script = script_after_options(set, argv, start);
}

static void __attribute__((format(printf, 2, 3)))
reason(struct launch *l, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(l->why, sizeof(l->why), fmt, ap);
	va_end(ap);
}

/* The first CLASSIFY_READ_MAX bytes of PATH, NUL-terminated; NULL: errno. */
static char *
read_prefix(const char *path)
{
	char *text = xmalloc(CLASSIFY_READ_MAX + 1);
	size_t len = 0;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);

	if (fd == -1) {
		free(text);
		return NULL;
	}
	while (len < CLASSIFY_READ_MAX &&
	    (n = read(fd, text + len, CLASSIFY_READ_MAX - len)) != 0) {
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1) {
			n = errno;
			close(fd);
			free(text);
			errno = (int)n;
			return NULL;
		}
		len += (size_t)n;
	}
	close(fd);
	text[len] = '\0';
	return text;
}

static int
ident_char(char c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9');
}

/* Does the line L import the package PKG ("import PKG", "from PKG...")? */
static int
imports(const char *l, const char *pkg)
{
	size_t n = strlen(pkg);

	if (strncmp(l, "import ", 7) == 0)
		l += 7;
	else if (strncmp(l, "from ", 5) == 0)
		l += 5;
	else
		return 0;
	l += strspn(l, " \t");
	return strncmp(l, pkg, n) == 0 && !ident_char(l[n]);
}

/* Does the line L call a training loop: pretrain(...), x.train(...)? */
static int
calls_training(const char *l)
{
	const char *p;

	if (strncmp(l, "def ", 4) == 0 || strncmp(l, "class ", 6) == 0)
		return 0;
	for (p = l; (p = strstr(p, "train")) != NULL; p += 5) {
		const char *q = p + 5;

		q += strspn(q, " \t");
		if (*q == '(' && !ident_char(p[5]))
			return 1;
	}
	return 0;
}

/*
 * What the entry TEXT is made of: *LLM and *MM when it imports
 * mindspeed_llm or mindspeed_mm, *TRAINS when it calls a training loop.
 * Comment lines do not count.
 */
static void
entry_facts(char *text, int *llm, int *mm, int *trains)
{
	char *line, *save = NULL;

	*llm = *mm = *trains = 0;
	for (line = strtok_r(text, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		line += strspn(line, " \t");
		if (*line == '#')
			continue;
		*llm |= imports(line, "mindspeed_llm");
		*mm |= imports(line, "mindspeed_mm");
		*trains |= calls_training(line);
	}
}

/* A launch left alone that --framework would profile: how to say so. */
static const char *
force_hint(struct launch *l)
{
	l->forcible = 1;
	return _("force it with --framework llm or --framework mm");
}

/* The framework of the entry at SCRIPT by its content, or NULL and why. */
static const char *
by_content(const char *script, struct launch *l)
{
	char *text = read_prefix(script);
	int llm, mm, trains;

	if (text == NULL) {
		reason(l, _("not a MindSpeed training entry: cannot read %s (%s); "
		    "%s"), script, i18n_strerror(errno), force_hint(l));
		return NULL;
	}
	entry_facts(text, &llm, &mm, &trains);
	free(text);
	if ((llm || mm) && trains)
		return mm ? "mm" : "llm";
	if (llm || mm)
		reason(l, _("not a MindSpeed training entry: %s imports %s but "
		    "calls no training loop (pretrain, train); %s"), script,
		    mm ? "mindspeed_mm" : "mindspeed_llm", force_hint(l));
	else
		reason(l, _("not a MindSpeed training entry: %s imports neither "
		    "mindspeed_llm nor mindspeed_mm; %s"), script, force_hint(l));
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
	return yaml_argument(argv, l->script) ? ENGINE_LLM_FSDP2 :
	    ENGINE_LLM_MCORE;
}

static int
never_trains(const char *script)
{
	for (int i = 0; not_training[i] != NULL; i++)
		if (fnmatch(not_training[i], path_base(script), 0) == 0)
			return 1;
	return 0;
}

void
launch_classify(const struct launchtab *t, const char *framework,
    const char *path, char *const argv[], struct launch *l)
{
	const char *script, *found;
	enum engine listed;

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
	if (never_trains(script)) {
		reason(l, _("not a MindSpeed training entry: %s is an inference, "
		    "evaluation, conversion or preprocessing entry"), script);
		return;
	}
	listed = launchtab_engine(t, script);
	if (listed != ENGINE_NONE) {
		l->source = SOURCE_TABLE;
		l->engine = framework_engine(engine_framework(listed), listed,
		    argv, l);
		return;
	}
	if (strcmp(framework, "auto") != 0) {
		l->source = SOURCE_FORCED;
		l->engine = framework_engine(framework, ENGINE_NONE, argv, l);
		return;
	}
	if ((found = by_content(script, l)) == NULL)
		return;
	l->source = SOURCE_CONTENT;
	l->engine = framework_engine(found, ENGINE_NONE, argv, l);
}

void
launch_existing(const struct launch *l, char *const argv[], struct strv *out)
{
	const struct engine_ops *e = engine_ops(l->engine);

	if (l->script >= 0 && e->existing != NULL)
		e->existing(l, argv, out);
}
