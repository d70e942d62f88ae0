/*
 * Recognising a training in an entry script (content.h): what the code
 * it runs calls, as pycalls.c follows it through the files pylex.c cuts
 * into lines and the modules pymodule.c finds.  A line is read for what
 * it starts with or contains, never parsed: the rules look for the calls
 * a training makes, which no inference, evaluation, conversion or
 * preprocessing script makes all of.  model.train() is a module's mode
 * switch, no loop.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/confrows.h"
#include "common/install.h"
#include "common/util.h"
#include "content.h"
#include "pycalls.h"

/* The torch packages: on an Ascend node each one loads torch_npu. */
static const char *const torch_builtin[] = { "torch", "torch_npu",
    "transformers", "accelerate", "deepspeed", NULL };

/* The rows of an option kind of the table: eval, needs. */
struct option_rows {
	struct strv	 pkgs, opts;	/* parallel: one per option */
};

/* The training table's rows (trainings.conf). */
static struct strv torch_rows;			/* torch PACKAGE */
static struct strv train_pkgs, train_calls, train_names;	/* parallel */
static struct strv spawn_pkgs, spawn_calls;	/* parallel */
static struct option_rows eval_rows, needs_rows;
static struct strv skip_pkgs;			/* skip PACKAGE */
static int tables_loaded;

/* One recognition: a reader and what the code it ran was seen to do. */
struct recognition {
	struct reader	 r;		/* first: the reader's hooks get it */
	struct entry_facts *f;
	int		 spawn;		/* whether it spawns is wanted */
	/* where each fact was seen first: "FILE:LINE: CALL()" */
	char		 ev_backward[160], ev_step[160], ev_trainer[160];
	char		 ev_fit[160], ev_ds[160], ev_lib[200];
	int		 lib_hops;	/* imports away, of ev_lib's file */
};

/* Does the dotted name M (ended by a non-name character) start with PKG? */
static int
is_package(const char *m, const char *pkg)
{
	size_t n = strlen(pkg);

	return strncmp(m, pkg, n) == 0 && !py_ident_char(m[n]);
}

/* Does the line L call NAME: NAME, then blanks and '('? */
static int
calls(const char *l, const char *name)
{
	size_t n = strlen(name);
	const char *p, *q;

	for (p = l; (p = strstr(p, name)) != NULL; p += n) {
		q = p + n;
		q += strspn(q, " \t");
		if (*q == '(' && !py_ident_char(p[n]))
			return 1;
	}
	return 0;
}

/* A MindSpeed training loop: pretrain(...), x.train(...). */
static int
calls_training(const char *l)
{
	return !py_defines(l) && calls(l, "train");
}

/* Record where a fact was seen first: "FILE:LINE: CALL()". */
static void
evidence(char *ev, size_t size, const struct pyfile *pf, int no,
    const char *chain)
{
	if (*ev == '\0')
		snprintf(ev, size, "%s:%d: %s()", pf->path, no, chain);
}

/*
 * Does the call CHAIN match the table's CALL: "name" a function or
 * method of that name, ".name" a method, "a.name" a call ending so?
 */
static int
call_matches(const char *chain, const char *call)
{
	size_t n = strlen(chain), m = strlen(call);

	if (call[0] == '.')
		return chain[0] == '.' ? strcmp(chain, call) == 0 :
		    n > m && strcmp(chain + n - m, call) == 0;
	if (strchr(call, '.') == NULL)
		return strcmp(py_last_part(chain), call) == 0;
	return strcmp(chain, call) == 0 || (n > m &&
	    strcmp(chain + n - m, call) == 0 && chain[n - m - 1] == '.');
}

/* Does a file read import PKG? */
static int
imports_package(const struct reader *r, const char *pkg)
{
	for (size_t i = 0; i < r->nfiles; i++)
		for (size_t j = 0; j < r->files[i]->nimports; j++) {
			const struct pyimport *im = &r->files[i]->imports[j];
			char *full;
			int yes;

			if (im->level > 0)
				continue;
			if (is_package(im->module, pkg))
				return 1;
			if (im->name == NULL)
				continue;
			full = xasprintf("%s.%s", im->module, im->name);
			yes = is_package(full, pkg);
			free(full);
			if (yes)
				return 1;
		}
	return 0;
}

/*
 * Is CHAIN a module's switch to training mode, model.train(): a train()
 * on a model, module or net, which every loop and evaluation makes, not
 * a training loop's entry?
 */
static int
mode_switch(const char *chain)
{
	const char *last = py_last_part(chain), *recv;
	size_t n;

	if (last == chain || strcmp(last, "train") != 0)
		return 0;
	for (recv = last - 1; recv > chain && recv[-1] != '.'; recv--)
		;
	n = (size_t)(last - 1 - recv);
	return (n >= 5 && strncmp(last - 6, "model", 5) == 0) ||
	    (n >= 6 && strncmp(last - 7, "module", 6) == 0) ||
	    (n >= 3 && strncmp(last - 4, "net", 3) == 0);
}

/*
 * The facts of the call CHAIN made at line NO of PF, run: 0 when it is
 * not to be followed (model.train()).
 */
static int
call_facts(struct reader *reader, const struct pyfile *pf, int no,
    const char *chain)
{
	struct recognition *r = (struct recognition *)reader;
	const char *last = py_last_part(chain);
	int method = last != chain;
	struct entry_facts *f = r->f;
	size_t n = strlen(last);

	if (method && strcmp(last, "backward") == 0) {
		f->backward = 1;
		evidence(r->ev_backward, sizeof(r->ev_backward), pf, no, chain);
	}
	if (method && strcmp(last, "step") == 0) {
		f->step = 1;
		evidence(r->ev_step, sizeof(r->ev_step), pf, no, chain);
	}
	/* a DeepSpeed pipeline engine's step: forward, backward, step */
	if (method && strcmp(last, "train_batch") == 0) {
		f->backward = f->step = 1;
		evidence(r->ev_backward, sizeof(r->ev_backward), pf, no, chain);
		evidence(r->ev_step, sizeof(r->ev_step), pf, no, chain);
	}
	if (n >= 7 && strcmp(last + n - 7, "Trainer") == 0) {
		f->trainer = 1;
		evidence(r->ev_trainer, sizeof(r->ev_trainer), pf, no, chain);
	}
	if (mode_switch(chain))
		return 0;
	if (method && (strcmp(last, "train") == 0 || strcmp(last, "fit") == 0)) {
		f->fit = 1;
		evidence(r->ev_fit, sizeof(r->ev_fit), pf, no, chain);
	}
	if (strcmp(chain, "deepspeed.initialize") == 0 ||
	    strcmp(chain, "deepspeed_npu.initialize") == 0) {
		f->ds_init = 1;
		evidence(r->ev_ds, sizeof(r->ev_ds), pf, no, chain);
	}
	/* the call nearest the entry says it best */
	for (size_t i = 0; (!f->library || pf->hops < r->lib_hops) &&
	    i < train_calls.n; i++)
		if (call_matches(chain, train_calls.v[i]) &&
		    imports_package(reader, train_pkgs.v[i])) {
			f->library = 1;
			r->lib_hops = pf->hops;
			snprintf(r->ev_lib, sizeof(r->ev_lib), "%s:%d: %s() (%s)",
			    pf->path, no, chain, train_names.v[i]);
		}
	for (size_t i = 0; !f->spawn && i < spawn_calls.n; i++)
		f->spawn = call_matches(chain, spawn_calls.v[i]) &&
		    imports_package(reader, spawn_pkgs.v[i]);
	return 1;
}

/*
 * Is all there is to learn known: it trains, and, when that is wanted,
 * starts its ranks itself?
 */
static int
known(const struct reader *reader)
{
	const struct recognition *r = (const struct recognition *)reader;

	return entry_trains_torch(r->f) && (r->f->spawn || !r->spawn);
}

/*
 * Is MODULE of a package that holds no user's loop (torch, transformers,
 * the table's skip rows: numpy, ...)?  It is not read: a checkout of it
 * on PYTHONPATH or in site-packages would cost the whole bound and tell
 * nothing.
 */
static int
library(const char *module)
{
	for (int i = 0; torch_builtin[i] != NULL; i++)
		if (is_package(module, torch_builtin[i]))
			return 1;
	for (size_t i = 0; i < skip_pkgs.n; i++)
		if (is_package(module, skip_pkgs.v[i]))
			return 1;
	return 0;
}

/* The torch package a file read imports, or NULL. */
static const char *
torch_of(const struct reader *r)
{
	for (int i = 0; torch_builtin[i] != NULL; i++)
		if (imports_package(r, torch_builtin[i]))
			return torch_builtin[i];
	for (size_t i = 0; i < torch_rows.n; i++)
		if (imports_package(r, torch_rows.v[i]))
			return torch_rows.v[i];
	for (size_t i = 0; i < train_pkgs.n; i++)
		if (imports_package(r, train_pkgs.v[i]))
			return train_pkgs.v[i];
	return NULL;
}

/*
 * A loop defined in a file read that nothing run calls: the first def
 * not run with a backward pass and an optimizer step in it.
 */
static void
uncalled_loop(struct recognition *r)
{
	unsigned char *seen;

	for (size_t i = 0; i < r->r.nfiles; i++) {
		const struct pyfile *pf = r->r.files[i];

		seen = xcalloc(pf->nblocks, 1);
		for (size_t j = 0; j < pf->nlines; j++) {
			int b = pf->lines[j].block;

			if (pf->blocks[b].kind != BLOCK_DEF ||
			    pf->blocks[b].reached)
				continue;
			seen[b] |= calls(pf->lines[j].text, ".backward") |
			    calls(pf->lines[j].text, ".step") << 1;
		}
		for (size_t b = 1; b < pf->nblocks; b++)
			if (seen[b] == 3) {
				snprintf(r->f->uncalled, sizeof(r->f->uncalled),
				    "%s:%d: %s()", pf->path, pf->blocks[b].no,
				    pf->blocks[b].name);
				free(seen);
				return;
			}
		free(seen);
	}
}

/* Say what makes it a training, in F->because. */
static void
decide(struct recognition *r)
{
	struct entry_facts *f = r->f;

	if (f->library)
		snprintf(f->because, sizeof(f->because), "%s", r->ev_lib);
	else if (f->backward && f->step)
		snprintf(f->because, sizeof(f->because), "%s, %s",
		    r->ev_backward, r->ev_step);
	else if (f->trainer && f->fit)
		snprintf(f->because, sizeof(f->because), "%s, %s",
		    r->ev_trainer, r->ev_fit);
	else if (f->ds_init && (f->backward || f->step))
		snprintf(f->because, sizeof(f->because), "%s, %s", r->ev_ds,
		    f->backward ? r->ev_backward : r->ev_step);
	else
		uncalled_loop(r);
	if (f->ds_init && !f->backward && !f->step)
		snprintf(f->ds_only, sizeof(f->ds_only), "%s", r->ev_ds);
}

/*
 * Does a line of PF read the attribute NAME (training_args.do_train): 1;
 * or assign it (args.do_train = ...: the entry's own, not an option's): 2
 * (over any read)?  0 when neither.
 */
static int
uses_attribute(const struct pyfile *pf, const char *name)
{
	size_t n = strlen(name);
	const char *p, *q;
	int use = 0;

	for (size_t j = 0; j < pf->nlines; j++)
		for (p = pf->lines[j].text; (p = strstr(p, name)) != NULL;
		    p += n) {
			if (p == pf->lines[j].text || p[-1] != '.' ||
			    py_ident_char(p[n]))
				continue;
			q = p + n + strspn(p + n, " \t");
			if (q[0] == '=' && q[1] != '=')
				return 2;
			use = 1;
		}
	return use;
}

/* An eval row is for an entry that imports its package ("torch": any). */
static int
evaluates(const struct recognition *r, const char *pkg, const char *opt)
{
	return strcmp(pkg, "torch") == 0 ? r->f->torch != NULL :
	    imports_package(&r->r, pkg);
}

/*
 * A needs row, for one that imports its package and whose own lines read
 * its attribute (the option without its dashes), and never set it: GLM's
 * pretrain_glm.py sets args.do_train from the data it found.
 */
static int
needs(const struct recognition *r, const char *pkg, const char *opt)
{
	return imports_package(&r->r, pkg) &&
	    uses_attribute(r->r.files[0], opt + strspn(opt, "-")) == 1;
}

/*
 * The options of ROWS whose row is FOR the entry, each followed by a
 * blank, in OUT of SIZE bytes.
 */
static void
row_options(const struct recognition *r, const struct option_rows *rows,
    int (*is_for)(const struct recognition *, const char *, const char *),
    char *out, size_t size)
{
	size_t len = 0;

	for (size_t i = 0; i < rows->opts.n; i++) {
		if (!is_for(r, rows->pkgs.v[i], rows->opts.v[i]))
			continue;
		if (len + strlen(rows->opts.v[i]) + 2 > size)
			break;
		len += (size_t)snprintf(out + len, size - len, "%s ",
		    rows->opts.v[i]);
	}
}

/* The MindSpeed facts of the entry's own lines, called or not. */
static void
mindspeed_facts(const struct pyfile *pf, struct entry_facts *f)
{
	for (size_t i = 0; i < pf->nimports; i++) {
		f->llm |= is_package(pf->imports[i].module, "mindspeed_llm");
		f->mm |= is_package(pf->imports[i].module, "mindspeed_mm");
	}
	for (size_t j = 0; j < pf->nlines; j++)
		f->loop |= calls_training(pf->lines[j].text);
}
static int
read_entry(const char *script, const char *first, const char *program,
    int spawn, struct entry_facts *f)
{
	struct recognition r = { .r = { .call = call_facts, .known = known,
	    .library = library }, .f = f, .spawn = spawn };
	struct pyfile *entry;
	char *why = NULL;

	memset(f, 0, sizeof(*f));
	if (!tables_loaded && trainings_load_default(&why) == -1)
		free(why);		/* the launcher has said so */
	pypath_init(&r.r.path, first, program);
	if ((entry = reader_entry(&r.r, script)) == NULL) {
		reader_free(&r.r);
		return -1;
	}
	mindspeed_facts(entry, f);
	reader_run(&r.r);
	f->followed = r.r.followed;
	f->torch = torch_of(&r.r);
	decide(&r);
	row_options(&r, &eval_rows, evaluates, f->eval_opts,
	    sizeof(f->eval_opts));
	row_options(&r, &needs_rows, needs, f->needs_opts,
	    sizeof(f->needs_opts));
	reader_free(&r.r);
	return 0;
}

int
entry_facts_read(const char *script, const char *program, int spawn,
    struct entry_facts *f)
{
	char *dir = py_folder(script);
	int rc = read_entry(script, dir, program, spawn, f);

	free(dir);
	return rc;
}

int
entry_module_facts_read(const char *file, const char *program, int spawn,
    struct entry_facts *f)
{
	return read_entry(file, ".", program, spawn, f);
}

/*
 * The index of the first argument of ARGV that is OPTION (N bytes) or
 * OPTION=VALUE, or -1.
 */
static int
option_at(char *const argv[], const char *option, size_t n)
{
	for (int i = 0; argv[i] != NULL; i++)
		if (strncmp(argv[i], option, n) == 0 &&
		    (argv[i][n] == '\0' || argv[i][n] == '='))
			return i;
	return -1;
}

const char *
entry_eval_option(const struct entry_facts *f, char *const argv[])
{
	const char *o = f->eval_opts;
	size_t n;
	int i;

	for (; *o != '\0'; o += n + 1) {
		n = strcspn(o, " ");
		if (argv != NULL && (i = option_at(argv, o, n)) >= 0)
			return argv[i];
	}
	return NULL;
}

/* Is the value V of an option a false one (HfArgumentParser's bools)? */
static int
false_value(const char *v)
{
	return v != NULL && (strcasecmp(v, "false") == 0 ||
	    strcmp(v, "0") == 0 || strcasecmp(v, "no") == 0);
}

/* Does ARGV give OPTION (N bytes) a true value: OPTION, OPTION=true... */
static int
option_on(char *const argv[], const char *option, size_t n)
{
	int i = option_at(argv, option, n);

	if (i < 0)
		return 0;
	return !false_value(argv[i][n] == '=' ? argv[i] + n + 1 : argv[i + 1]);
}

const char *
entry_needed_option(const struct entry_facts *f, char *const argv[],
    size_t *len)
{
	const char *o = f->needs_opts, *a;
	size_t n;

	if (argv == NULL || *o == '\0')
		return NULL;
	/* a JSON or YAML file of arguments may hold it: not known then */
	if ((a = argv[0]) != NULL && (ends_with(a, ".json") ||
	    ends_with(a, ".yaml") || ends_with(a, ".yml")))
		return NULL;
	for (; *o != '\0'; o += n + 1) {
		n = strcspn(o, " ");
		if (!option_on(argv, o, n)) {
			*len = n;
			return o;
		}
	}
	return NULL;
}

int
entry_trains_torch(const struct entry_facts *f)
{
	return (f->backward && f->step) || (f->trainer && f->fit) ||
	    (f->ds_init && (f->backward || f->step)) || f->library;
}

/* Where trainings_row() reads, for its message. */
struct training_table {
	const char	 *path;
	char		**why;
	size_t		  train0;	/* its first train row */
};

/* A train row of this table for PKG CALL, named otherwise: -1. */
static int
train_conflict(const struct training_table *tt, char **w)
{
	for (size_t i = tt->train0; i < train_pkgs.n; i++)
		if (strcmp(train_pkgs.v[i], w[1]) == 0 &&
		    strcmp(train_calls.v[i], w[2]) == 0 &&
		    strcmp(train_names.v[i], w[3]) != 0)
			return -1;
	return 0;
}

/* Add the row "KIND PACKAGE OPTION..." (W, N words) to ROWS. */
static void
option_rows_add(struct option_rows *rows, char **w, size_t n)
{
	for (size_t i = 2; i < n; i++) {
		strv_push(&rows->pkgs, w[1]);
		strv_push(&rows->opts, w[i]);
	}
}

/* One row of config/trainings.conf: 0, or -1 with *why. */
static int
trainings_row(char **w, size_t n, size_t no, void *arg)
{
	struct training_table *tt = arg;

	if (strcmp(w[0], "torch") == 0 && n >= 2) {
		for (size_t i = 1; i < n; i++)
			strv_push(&torch_rows, w[i]);
	} else if (strcmp(w[0], "train") == 0 && n == 4) {
		if (train_conflict(tt, w) < 0) {
			*tt->why = xasprintf(_("%s:%zu: 'train %s %s' again, "
			    "other than on an earlier line; keep one"),
			    tt->path, no, w[1], w[2]);
			return -1;
		}
		strv_push(&train_pkgs, w[1]);
		strv_push(&train_calls, w[2]);
		strv_push(&train_names, w[3]);
	} else if (strcmp(w[0], "spawn") == 0 && n == 3) {
		strv_push(&spawn_pkgs, w[1]);
		strv_push(&spawn_calls, w[2]);
	} else if (strcmp(w[0], "skip") == 0 && n >= 2) {
		for (size_t i = 1; i < n; i++)
			strv_push(&skip_pkgs, w[i]);
	} else if (strcmp(w[0], "needs") == 0 && n >= 3 && w[2][0] == '-' &&
	    w[2][strspn(w[2], "-")] != '\0') {
		option_rows_add(&needs_rows, w, n);
	} else if (strcmp(w[0], "eval") == 0 && n >= 3 && w[2][0] == '-') {
		option_rows_add(&eval_rows, w, n);
	} else {
		*tt->why = xasprintf(_("%s:%zu: cannot read '%s' with %zu "
		    "word(s); expected 'torch PACKAGE...', 'train PACKAGE "
		    "CALL NAME', 'spawn PACKAGE CALL', 'eval PACKAGE "
		    "OPTION...', 'needs PACKAGE OPTION...' or 'skip "
		    "PACKAGE...'"), tt->path, no, w[0], n);
		return -1;
	}
	return 0;
}

int
trainings_load(const char *path, int must, char **why)
{
	struct training_table tt = { path, why, train_pkgs.n };
	char *text;
	size_t len;
	int rc;

	if ((text = read_file(path, &len)) == NULL) {
		if (!must && errno == ENOENT)
			return 0;
		*why = xasprintf(_("cannot read the training table %s: %s"),
		    path, i18n_strerror(errno));
		return -1;
	}
	rc = conf_rows(text, len, path, trainings_row, &tt, why);
	free(text);
	return rc;
}

int
trainings_load_default(char **why)
{
	char *prefix, *path, *home = getenv("HOME");
	const char *xdg = getenv("XDG_CONFIG_HOME");
	int rc = 0;

	if (tables_loaded)
		return 0;
	tables_loaded = 1;
	if ((prefix = install_prefix()) != NULL) {
		path = xasprintf("%s/share/msprof-exec/%s", prefix,
		    TRAININGS_NAME);
		rc = trainings_load(path, 0, why);
		free(path);
		free(prefix);
	}
	if (rc == 0)
		rc = trainings_load(SYSCONFDIR "/msprof-exec/" TRAININGS_NAME,
		    0, why);
	if (rc == 0 && (xdg != NULL && *xdg == '/')) {
		path = xasprintf("%s/msprof-exec/%s", xdg, TRAININGS_NAME);
		rc = trainings_load(path, 0, why);
		free(path);
	} else if (rc == 0 && home != NULL && *home != '\0') {
		path = xasprintf("%s/.config/msprof-exec/%s", home,
		    TRAININGS_NAME);
		rc = trainings_load(path, 0, why);
		free(path);
	}
	return rc;
}
