/*
 * Following the calls of the code an entry runs (pycalls.h).  Only the
 * blocks reached count: the top level and __main__ block of the entry,
 * and the functions and methods those call or pass on.  A block is run
 * once; what the entry runs is run before what the modules it calls run,
 * so that its user knows early what it looks for.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "pycalls.h"

static void
reach(struct reader *r, struct pyfile *pf, int b)
{
	if (!pf->blocks[b].reached) {
		pf->blocks[b].reached = 1;
		pf->pending = 1;
		r->changed = 1;
		r->epoch += pf->blocks[b].kind == BLOCK_CLASS;
		if (pf->index < r->lowest)
			r->lowest = pf->index;
	}
}

/* The file read at PATH, reading it when the bounds allow; or NULL. */
static struct pyfile *
load(struct reader *r, const char *path, int hops, int site)
{
	struct pyfile *pf;

	while (strncmp(path, "./", 2) == 0)
		path += 2;
	for (size_t i = 0; i < r->nfiles; i++)
		if (strcmp(r->files[i]->path, path) == 0)
			return r->files[i];
	if (r->nfiles == CONTENT_FILES_MAX || hops > CONTENT_HOPS_MAX ||
	    (site && r->site_files == CONTENT_SITE_FILES_MAX) ||
	    (pf = pyfile_read(path)) == NULL)
		return NULL;
	r->site_files += site;
	pf->site = site;
	pf->hops = hops;
	pf->index = r->nfiles;
	r->files[r->nfiles++] = pf;
	if (hops > 0) {
		r->followed++;
		reach(r, pf, 0);	/* its top level runs at import */
	}
	return pf;
}

static struct pyfile *
load_module(struct reader *r, const struct pyfile *from, const char *module,
    int level)
{
	char *path;
	struct pyfile *pf = NULL;
	int site = from->site;

	if (level == 0 && (r->library(module) ||
	    strv_has(&r->missing, module)))
		return NULL;
	/* the standard library and the like: looked for in each root once */
	if ((path = pymodule_file(&r->path, from->path, level, module,
	    &site)) == NULL && level == 0)
		strv_push(&r->missing, module);
	if (path != NULL)
		pf = load(r, path, from->hops + 1, site);
	free(path);
	return pf;
}

/*
 * The block of the function or class NAME of PF, or -1: any def or class
 * of that name but a method (a nested function is called by its name
 * too).
 */
static int
defined(const struct pyfile *pf, const char *name)
{
	for (size_t i = 1; i < pf->nblocks; i++)
		if (pf->blocks[i].name != NULL &&
		    pf->blocks[pf->blocks[i].parent].kind != BLOCK_CLASS &&
		    strcmp(pf->blocks[i].name, name) == 0)
			return (int)i;
	return -1;
}

/* The import of PF that binds NAME, or NULL. */
static const struct pyimport *
binding(const struct pyfile *pf, const char *name)
{
	for (size_t i = pf->nimports; i-- > 0; )
		if (strcmp(pf->imports[i].local, name) == 0)
			return &pf->imports[i];
	return NULL;
}

/*
 * The module an import binds its name to (import a.b as c; from a import
 * b where a/b.py is a module), or NULL when it binds an object.
 */
static struct pyfile *
bound_module(struct reader *r, struct pyfile *pf, const struct pyimport *im)
{
	char *m;
	struct pyfile *mod;

	if (im->name == NULL)
		return load_module(r, pf, im->module, 0);
	m = *im->module != '\0' ? xasprintf("%s.%s", im->module, im->name) :
	    xstrdup(im->name);
	mod = load_module(r, pf, m, im->level);
	free(m);
	return mod;
}

/*
 * Run NAME of PF: the function (or make the class) it defines, else the
 * one it imports under that name, through as many re-exports (a
 * package's __init__.py) as the bounds allow.
 */
static void
run_name(struct reader *r, struct pyfile *pf, const char *name, int hops)
{
	const struct pyimport *im;
	struct pyfile *mod;
	int b;

	if (hops > CONTENT_HOPS_MAX)
		return;
	if ((b = defined(pf, name)) >= 0) {
		reach(r, pf, b);
		return;
	}
	if ((im = binding(pf, name)) != NULL) {
		if (im->name == NULL || bound_module(r, pf, im) != NULL)
			return;		/* a module: nothing is called */
		if ((mod = load_module(r, pf, im->module, im->level)) != NULL)
			run_name(r, mod, im->name, hops + 1);
		return;
	}
	for (size_t i = 0; i < pf->stars.n; i++) {
		const char *s = pf->stars.v[i];

		if ((mod = load_module(r, pf, strchr(s, ':') + 1,
		    atoi(s))) != NULL && mod != pf)
			run_name(r, mod, name, hops + 1);
	}
}

static void
called_method(struct reader *r, const char *name)
{
	if (!strv_has(&r->methods, name)) {
		strv_push(&r->methods, name);
		r->changed = 1;
		r->epoch++;
	}
}

/*
 * The call CHAIN (a.b.c, or .c on what a call returned), made in PF: run
 * what it names.  A name bound to a module of the files Python would
 * find runs that module's function; any other a.c is a method c.
 */
static void
follow_call(struct reader *r, struct pyfile *pf, const char *chain)
{
	char *head, *rest;
	const struct pyimport *im;
	struct pyfile *mod = NULL;

	if (chain[0] == '.') {
		called_method(r, chain + 1);
		return;
	}
	head = xstrndup(chain, strcspn(chain, "."));
	rest = chain[strlen(head)] == '.' ? xstrdup(chain + strlen(head) + 1) :
	    NULL;
	if (rest == NULL)
		run_name(r, pf, head, 0);
	else if (strcmp(head, "self") == 0 || strcmp(head, "cls") == 0 ||
	    (im = binding(pf, head)) == NULL ||
	    (mod = bound_module(r, pf, im)) == NULL) {
		run_name(r, pf, head, 0);	/* Runner.from_cfg: made */
		called_method(r, py_last_part(rest));
	} else {
		/* import a.b.c: a.b.c.f() is f of a/b/c.py */
		char *name = xstrndup(rest, strcspn(rest, "."));
		char *full = xstrdup(im->module);

		while (strchr(rest + strlen(name), '.') != NULL) {
			char *sub = xasprintf("%s.%s", full, name);
			struct pyfile *m = load_module(r, pf, sub, 0);
			const char *next = strchr(rest, '.') + 1;

			free(full);
			full = sub;
			if (m == NULL)
				break;
			mod = m;
			memmove(rest, next, strlen(next) + 1);
			free(name);
			name = xstrndup(rest, strcspn(rest, "."));
		}
		run_name(r, mod, name, 0);
		if (strchr(rest, '.') != NULL)
			called_method(r, py_last_part(rest));
		free(full);
		free(name);
	}
	free(head);
	free(rest);
}

static int
keyword(const char *w)
{
	static const char *const kw[] = { "if", "elif", "while", "for", "in",
	    "return", "and", "or", "not", "with", "assert", "yield", "await",
	    "lambda", "del", "raise", "except", "is", "else", "import", "from",
	    "as", "global", "nonlocal", "print", NULL };

	for (int i = 0; kw[i] != NULL; i++)
		if (strcmp(w, kw[i]) == 0)
			return 1;
	return 0;
}

/*
 * Run line L (number NO) of PF: the calls it makes are followed, and a
 * function it only names (mp.spawn(train, ...), target=main) is taken as
 * run too.
 */
static void
run_line(struct reader *r, struct pyfile *pf, const char *l, int no)
{
	const char *p, *q;
	char *chain, prev = ' ';

	/*
	 * An import is read when a name of it is called or passed on, not
	 * before: the modules a script imports and does not use can be
	 * many (a package's whole API) and are no training.
	 */
	while (strncmp(l, "import ", 7) == 0 || strncmp(l, "from ", 5) == 0) {
		/* import torch; loss.backward(): what follows a ';' runs */
		if ((p = strchr(l, ';')) == NULL)
			return;
		l = p + 1 + strspn(p + 1, " \t");
	}
	if (py_defines(l))
		return;
	for (p = l; *p != '\0'; prev = *p, p++) {
		if (!(py_ident_start(*p) && !py_ident_char(prev) &&
		    prev != '.') &&
		    !(*p == '.' && (prev == ')' || prev == ']') &&
		    py_ident_start(p[1])))
			continue;
		chain = *p == '.' ? py_dotted_at(p + 1) : py_dotted_at(p);
		if (*p == '.') {
			char *m = xasprintf(".%s", chain);

			free(chain);
			chain = m;
		}
		q = p + strlen(chain);
		q += strspn(q, " \t");
		if (!keyword(chain)) {
			if (*q == '(') {
				if (r->call(r, pf, no, chain))
					follow_call(r, pf, chain);
			} else if (strchr(chain, '.') == NULL &&
			    (*q == '\0' || strchr("=.", *q) == NULL) &&
			    (defined(pf, chain) >= 0 || binding(pf, chain)))
				run_name(r, pf, chain, 0);	/* passed on */
		}
		p += strlen(chain) - 1;
		prev = 'a';
		free(chain);
	}
}

/*
 * A class made makes its bases too, as far as they are read: their
 * methods are its own (SimpleTrainer's train() is TrainerBase's).
 */
static void
make_bases(struct reader *r, struct pyfile *pf, size_t b)
{
	char *bases = pf->blocks[b].bases, *base, *save = NULL;

	if (bases == NULL)
		return;
	pf->blocks[b].bases = NULL;		/* once */
	for (base = strtok_r(bases, ", \t", &save); base != NULL;
	    base = strtok_r(NULL, ", \t", &save))
		if (py_ident_start(*base) && strpbrk(base, "=.") == NULL)
			run_name(r, pf, base, 0);
	free(bases);
}

/* Is block B of PF inside a class that was made, and named in METHODS? */
static int
method_run(const struct reader *r, const struct pyfile *pf, size_t b)
{
	const struct pyblock *k = &pf->blocks[b];
	const struct pyblock *c;

	if (k->kind != BLOCK_DEF || k->parent <= 0)
		return 0;
	c = &pf->blocks[k->parent];
	return c->kind == BLOCK_CLASS && c->reached &&
	    (strcmp(k->name, "__init__") == 0 || strv_has(&r->methods, k->name));
}

/*
 * A block is run once: DONE marks those run, per file; a pass runs the
 * blocks reached before it (NOW), a block reached during it the next
 * pass.  A pass ends early when a file before the current one has a
 * block newly reached: what the entry runs is read before what the
 * modules it calls run, so that a training is known early.
 */
void
reader_run(struct reader *r)
{
	unsigned char *done[CONTENT_FILES_MAX] = { 0 }, *now;
	struct pyfile *pf;

	do {
		r->changed = 0;
		r->lowest = SIZE_MAX;
		for (size_t i = 0; i < r->nfiles && !r->known(r) &&
		    r->lowest >= i; i++) {
			pf = r->files[i];
			if (done[i] == NULL)
				done[i] = xcalloc(pf->nblocks, 1);
			for (size_t b = 0; pf->epoch != r->epoch &&
			    b < pf->nblocks; b++) {
				if (pf->blocks[b].kind == BLOCK_CLASS &&
				    pf->blocks[b].reached)
					make_bases(r, pf, b);
				if (method_run(r, pf, b))
					reach(r, pf, (int)b);
			}
			pf->epoch = r->epoch;
			if (!pf->pending)
				continue;
			pf->pending = 0;
			/*
			 * A class made runs its own body too: its attributes
			 * (ESPnet's "trainer = Trainer") name what its
			 * methods call through cls.trainer.run().
			 */
			now = xcalloc(pf->nblocks, 1);
			for (size_t b = 0; b < pf->nblocks; b++)
				now[b] = pf->blocks[b].reached && !done[i][b];
			for (size_t j = 0; j < pf->nlines; j++)
				if (now[pf->lines[j].block])
					run_line(r, pf, pf->lines[j].text,
					    pf->lines[j].no);
			for (size_t b = 0; b < pf->nblocks; b++)
				done[i][b] |= now[b];
			free(now);
		}
	} while (r->changed && !r->known(r));
	for (size_t i = 0; i < CONTENT_FILES_MAX; i++)
		free(done[i]);
}

struct pyfile *
reader_entry(struct reader *r, const char *script)
{
	struct pyfile *entry;

	if ((entry = load(r, script, 0, 0)) == NULL)
		return NULL;
	reach(r, entry, 0);
	for (size_t b = 0; b < entry->nblocks; b++)
		if (entry->blocks[b].kind == BLOCK_MAIN)
			reach(r, entry, (int)b);
	return entry;
}

void
reader_free(struct reader *r)
{
	for (size_t i = 0; i < r->nfiles; i++)
		pyfile_free(r->files[i]);
	pypath_free(&r->path);
	strv_free(&r->methods);
	strv_free(&r->missing);
}
