/*
 * Reading an entry script for what it imports and calls (content.h).  A
 * line is read for what it starts with or contains, never parsed: the
 * rules look for the calls a training makes, which no inference,
 * evaluation, conversion or preprocessing script makes all of.
 *
 * A file is cut into blocks by indentation: its top level, its __main__
 * block, and each def and class.  Only the blocks the entry runs count:
 * the top level and __main__ block of the entry, and the functions and
 * methods those call or pass on, followed by name through the imports
 * (a module is read when a name of it is used, and its top level runs
 * then).  A method is run when its class (or a subclass) is made and its
 * name called on something (x.train()): which object is not known
 * without running the code.  model.train() is a module's mode switch,
 * no loop.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "common/confrows.h"
#include "common/install.h"
#include "common/util.h"
#include "content.h"

/* The torch packages: on an Ascend node each one loads torch_npu. */
static const char *const torch_builtin[] = { "torch", "torch_npu",
    "transformers", "accelerate", "deepspeed", NULL };

/* The training table's rows (trainings.conf). */
static struct strv torch_rows;			/* torch PACKAGE */
static struct strv train_pkgs, train_calls, train_names;	/* parallel */
static struct strv spawn_pkgs, spawn_calls;	/* parallel */
static struct strv eval_pkgs, eval_opts;	/* parallel: one per option */
static struct strv needs_pkgs, needs_opts;	/* parallel: one per option */
static struct strv skip_pkgs;			/* skip PACKAGE */
static int tables_loaded;

enum block_kind { BLOCK_TOP, BLOCK_MAIN, BLOCK_DEF, BLOCK_CLASS };

struct block {
	enum block_kind	 kind;
	char		*name;		/* DEF, CLASS */
	int		 parent;	/* the enclosing block, -1 at the top */
	int		 reached;	/* DEF, TOP, MAIN: run; CLASS: made */
	int		 no;		/* the line it starts at */
	char		*bases;		/* CLASS: "A, b.B" of class C(A, b.B) */
};

struct line {
	char		*text;		/* code only, leading blanks cut */
	int		 no;		/* 1-based */
	int		 block;
};

struct import {
	char		*local;		/* the name it binds */
	char		*module;	/* a.b of "from a.b import x" */
	char		*name;		/* x, or NULL for "import a.b" */
	int		 level;		/* leading dots: relative */
	int		 no;		/* its line */
};

struct pyfile {
	char		*path;
	char		*text;
	char		*tail;		/* the end of a longer file, or NULL */
	int		 tail_no;	/* the line the tail starts at */
	int		 hops;		/* imports away from the entry */
	int		 site;		/* an installed package's */
	struct line	*lines;
	size_t		 nlines;
	struct block	*blocks;
	size_t		 nblocks, ablocks;	/* used, allocated */
	struct import	*imports;
	size_t		 nimports, aimports;
	struct strv	 stars;		/* modules of "from m import *" */
	size_t		 index;		/* in reader's files */
	int		 pending;	/* blocks reached, not yet run */
	unsigned	 epoch;		/* reader's epoch its methods saw */
};

/* One recognition: the files read, and what reached code calls. */
struct reader {
	struct pyfile	*files[CONTENT_FILES_MAX];
	size_t		 nfiles;
	struct strv	 roots;		/* where modules are looked for */
	size_t		 site_root;	/* the first site-packages of roots */
	int		 site_files;	/* files read of installed packages */
	struct strv	 methods;	/* names called on an object */
	struct strv	 missing;	/* absolute modules not found */
	int		 changed;	/* a block newly reached */
	size_t		 lowest;	/* the first file with one */
	unsigned	 epoch;		/* counts classes made, methods called */
	struct entry_facts *f;
	int		 spawn;		/* whether it spawns is wanted */
	/* where each fact was seen first: "FILE:LINE: CALL()" */
	char		 ev_backward[160], ev_step[160], ev_trainer[160];
	char		 ev_fit[160], ev_ds[160], ev_lib[200];
	int		 lib_hops;	/* imports away, of ev_lib's file */
};

static int	main_guard(const char *);

/*
 * Read up to SIZE bytes of FD into BUF, at OFFSET (-1: where FD is, for
 * what cannot seek, a FIFO): the count, or -1.
 */
static ssize_t
read_at(int fd, char *buf, size_t size, off_t offset)
{
	size_t len = 0;
	ssize_t n;

	while (len < size && (n = offset < 0 ? read(fd, buf + len,
	    size - len) : pread(fd, buf + len, size - len,
	    offset + (off_t)len)) != 0) {
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1)
			return -1;
		len += (size_t)n;
	}
	return (ssize_t)len;
}

/* Is L the start of a top-level def, class, decorator or __main__ block? */
static int
top_anchor(const char *l)
{
	return strncmp(l, "def ", 4) == 0 || strncmp(l, "class ", 6) == 0 ||
	    strncmp(l, "async def ", 10) == 0 || l[0] == '@' || main_guard(l);
}

/*
 * The end of FD, a file of SIZE bytes longer than CONTENT_READ_MAX, from
 * its first top-level def, class or __main__ block in the last
 * CONTENT_TAIL_MAX bytes, with in *NO the line that starts at; or NULL.
 * A script's __main__ block is at its end: without it a long entry runs
 * nothing.  The lines between are counted, not kept.
 */
static char *
read_tail(int fd, off_t size, int *no)
{
	off_t start = size - CONTENT_TAIL_MAX > CONTENT_READ_MAX ?
	    size - CONTENT_TAIL_MAX : CONTENT_READ_MAX;
	char *buf = xmalloc(CONTENT_TAIL_MAX + 1), *p, *tail;
	ssize_t n;
	int lines = 1;

	for (off_t at = 0; at < start; at += n) {
		if ((n = read_at(fd, buf, (size_t)(start - at > CONTENT_TAIL_MAX ?
		    CONTENT_TAIL_MAX : start - at), at)) <= 0)
			goto none;
		for (p = buf; (p = memchr(p, '\n', (size_t)(buf + n - p))) !=
		    NULL; p++)
			lines++;
	}
	if ((n = read_at(fd, buf, (size_t)(size - start), start)) <= 0)
		goto none;
	buf[n] = '\0';
	for (p = buf; (p = strchr(p, '\n')) != NULL; ) {
		p++;
		lines++;
		if (top_anchor(p)) {
			tail = xstrdup(p);
			*no = lines;
			free(buf);
			return tail;
		}
	}
none:
	free(buf);
	return NULL;
}

/*
 * The first CONTENT_READ_MAX bytes of PATH, NUL-terminated; NULL: errno.
 * *TAIL is the end of a longer file as read_tail() reads it (up to
 * CONTENT_FILE_MAX bytes), or NULL.
 */
static char *
read_source(const char *path, char **tail, int *tail_no)
{
	char *text = xmalloc(CONTENT_READ_MAX + 1);
	struct stat st;
	ssize_t len;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK), e;

	*tail = NULL;
	if (fd == -1) {
		free(text);
		return NULL;
	}
	if ((len = read_at(fd, text, CONTENT_READ_MAX, -1)) == -1) {
		e = errno;
		close(fd);
		free(text);
		errno = e;
		return NULL;
	}
	text[len] = '\0';
	if (len == CONTENT_READ_MAX && fstat(fd, &st) == 0 &&
	    S_ISREG(st.st_mode) && st.st_size > CONTENT_READ_MAX &&
	    st.st_size <= CONTENT_FILE_MAX)
		*tail = read_tail(fd, st.st_size, tail_no);
	close(fd);
	return text;
}

static int
ident_char(char c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9');
}

static int
ident_start(char c)
{
	return ident_char(c) && !(c >= '0' && c <= '9');
}

/* Does the dotted name M (ended by a non-name character) start with PKG? */
static int
is_package(const char *m, const char *pkg)
{
	size_t n = strlen(pkg);

	return strncmp(m, pkg, n) == 0 && !ident_char(m[n]);
}

/* A definition, not a call: "def f(", "class C(". */
static int
defines(const char *l)
{
	return strncmp(l, "def ", 4) == 0 || strncmp(l, "async def ", 10) == 0 ||
	    strncmp(l, "class ", 6) == 0;
}

/* Does the line L call NAME: NAME, then blanks and '('? */
static int
calls(const char *l, const char *name, int whole)
{
	size_t n = strlen(name);
	const char *p, *q;

	for (p = l; (p = strstr(p, name)) != NULL; p += n) {
		if (whole && p > l && ident_char(p[-1]))
			continue;
		q = p + n;
		q += strspn(q, " \t");
		if (*q == '(' && !ident_char(p[n]))
			return 1;
	}
	return 0;
}

/* A MindSpeed training loop: pretrain(...), x.train(...). */
static int
calls_training(const char *l)
{
	return !defines(l) && calls(l, "train", 0);
}

/*
 * Blank the contents of line L's strings and cut its comment (L is
 * modified), so that a call named in a message, a docstring or a comment
 * is not taken for one.  *OPEN is the string the lines before left open
 * ('\0': none) and is set for the next line: the quote of a triple-quoted
 * string, or 'd' ("...) and 's' ('...) for a one-quote string whose line
 * ends in a backslash (help='input size for \ continues on the next
 * line, and its quote and brackets close there).
 */
static void
code_only(char *l, char *open)
{
	char q = *open == 'd' ? '"' : *open == 's' ? '\'' : *open;
	int three = *open == '"' || *open == '\'', joined = 0;

	for (char *p = l; *p != '\0'; p++) {
		if (q == '\0' && *p == '#') {
			*p = '\0';
			break;
		}
		if (q == '\0' && (*p == '"' || *p == '\'')) {
			q = *p;
			three = p[1] == q && p[2] == q;
			p += three ? 2 : 0;
		} else if (q != '\0' && *p == q &&
		    (!three || (p[1] == q && p[2] == q))) {
			p += three ? 2 : 0;
			q = '\0';
		} else if (q != '\0') {
			joined = *p == '\\' && p[1] == '\0';
			if (*p == '\\' && p[1] != '\0')
				*p++ = ' ';
			*p = ' ';
		}
	}
	if (q == '\0' || three)
		*open = q;
	else			/* a quote '...' ends with its line */
		*open = !joined ? '\0' : q == '"' ? 'd' : 's';
}

/* The identifier or dotted name at P, as a copy. */
static char *
dotted_at(const char *p)
{
	size_t n = 0;

	while (ident_char(p[n]) || (p[n] == '.' && ident_start(p[n + 1])))
		n++;
	return xstrndup(p, n);
}

static void
add_import(struct pyfile *pf, const char *local, const char *module,
    const char *name, int level, int no)
{
	struct import *im;

	if (pf->nimports == pf->aimports) {
		pf->aimports = pf->aimports * 2 + 8;
		pf->imports = xreallocarray(pf->imports, pf->aimports,
		    sizeof(*pf->imports));
	}
	im = &pf->imports[pf->nimports++];
	im->local = xstrdup(local);
	im->module = xstrdup(module);
	im->name = name != NULL ? xstrdup(name) : NULL;
	im->level = level;
	im->no = no;
}

/*
 * The names "x as y, *" of "from MODULE import" at P (a line of its own
 * when the list is in brackets), bound at line NO.
 */
static void
from_names(struct pyfile *pf, const char *p, const char *module, int level,
    int no)
{
	char *name, *local;

	for (;; p++) {
		p += strspn(p, " \t(");
		if (*p == '*')
			strv_pushf(&pf->stars, "%d:%s", level, module);
		if (!ident_start(*p))
			return;
		name = dotted_at(p);
		p += strlen(name);
		p += strspn(p, " \t");
		if (strncmp(p, "as ", 3) == 0) {
			p += 3 + strspn(p + 3, " \t");
			local = dotted_at(p);
			p += strlen(local);
		} else
			local = xstrdup(name);
		add_import(pf, local, module, name, level, no);
		free(name);
		free(local);
		if ((p = strchr(p, ',')) == NULL)
			return;
	}
}

/*
 * The module of "from ..a.b import" line L (a copy), with its leading
 * dots in *LEVEL; NULL when L is none.
 */
static char *
from_module(const char *l, int *level)
{
	const char *p;

	if (strncmp(l, "from ", 5) != 0)
		return NULL;
	p = l + 5 + strspn(l + 5, " \t");
	for (*level = 0; *p == '.'; p++)
		(*level)++;
	return dotted_at(p);
}

/*
 * Record the import line L of PF: "import a.b as c, d" binds c to a.b and
 * a to a; "from .a import x as y, *" binds y to x of .a.  Returns 0 when
 * L is no import line.
 */
static int
parse_import(struct pyfile *pf, const char *l, int no)
{
	char *module, *local;
	const char *p;
	int level = 0;

	if (strncmp(l, "import ", 7) == 0) {
		for (p = l + 7;; p++) {
			p += strspn(p, " \t(");
			if (!ident_start(*p))
				return 1;
			module = dotted_at(p);
			p += strlen(module);
			p += strspn(p, " \t");
			if (strncmp(p, "as ", 3) == 0) {
				p += 3 + strspn(p + 3, " \t");
				local = dotted_at(p);
				p += strlen(local);
			} else
				local = xstrndup(module, strcspn(module, "."));
			add_import(pf, local, module, NULL, 0, no);
			free(module);
			free(local);
			if ((p = strchr(p, ',')) == NULL)
				return 1;
		}
	}
	if ((module = from_module(l, &level)) == NULL)
		return 0;
	if ((p = strstr(l, " import ")) != NULL)
		from_names(pf, p + 8, module, level, no);
	free(module);
	return 1;
}

static int
add_block(struct pyfile *pf, enum block_kind kind, const char *name,
    int parent, int no)
{
	struct block *b;

	if (pf->nblocks == pf->ablocks) {
		pf->ablocks = pf->ablocks * 2 + 8;
		pf->blocks = xreallocarray(pf->blocks, pf->ablocks,
		    sizeof(*pf->blocks));
	}
	b = &pf->blocks[pf->nblocks];
	b->kind = kind;
	b->name = name != NULL ? dotted_at(name) : NULL;
	b->parent = parent;
	b->reached = 0;
	b->no = no;
	b->bases = NULL;
	if (kind == BLOCK_CLASS && (name = strchr(name, '(')) != NULL)
		b->bases = xstrndup(name + 1, strcspn(name + 1, ")"));
	return (int)pf->nblocks++;
}

/* How many brackets L opens (negative: closes); a switch, not strchr(). */
static int
bracket_depth(const char *l)
{
	int n = 0;

	for (; *l != '\0'; l++)
		switch (*l) {
		case '(': case '[': case '{':
			n++;
			break;
		case ')': case ']': case '}':
			n--;
			break;
		}
	return n;
}

/* Is L the start of the __main__ block: if __name__ == "__main__":? */
static int
main_guard(const char *l)
{
	return strncmp(l, "if __name__", 11) == 0 ||
	    strncmp(l, "if (__name__", 12) == 0;
}

/*
 * Cut TEXT, whose first line is line NO + 1 of PF, into lines and blocks.
 * A line continued inside brackets belongs to the block of its first
 * line, whatever its indentation.
 */
static void
parse_lines(struct pyfile *pf, char *text, int no)
{
	struct { int indent, block; } stack[64];
	char *line, *save = text, open = '\0', *l;
	int depth = 0, brackets = 0, indent, cur, level = 0, from_no = 0;
	int open_brackets;
	char *from = NULL;		/* the module of a bracketed name list */

	while ((line = save) != NULL && *line != '\0') {
		if ((save = strchr(line, '\n')) != NULL)
			*save++ = '\0';
		no++;
		code_only(line, &open);
		indent = (int)strspn(line, " \t");
		l = line + indent;
		if (*l == '\0')
			continue;
		if (brackets <= 0) {
			brackets = 0;
			while (depth > 0 && stack[depth - 1].indent >= indent)
				depth--;
		}
		cur = depth > 0 ? stack[depth - 1].block : 0;
		pf->lines[pf->nlines].text = l;
		pf->lines[pf->nlines].no = no;
		pf->lines[pf->nlines++].block = cur;
		if (brackets == 0 && depth < 64 && (defines(l) ||
		    (depth == 0 && main_guard(l)))) {
			const char *name = l + (l[0] == 'a' ? 10 : l[0] == 'd' ?
			    4 : 6);

			stack[depth].indent = indent;
			stack[depth++].block = main_guard(l) ?
			    add_block(pf, BLOCK_MAIN, NULL, cur, no) :
			    add_block(pf, l[0] == 'c' ? BLOCK_CLASS : BLOCK_DEF,
			    name + strspn(name, " \t"), cur, no);
		}
		open_brackets = bracket_depth(l);
		if (from != NULL && brackets > 0) {	/* from m import (\n */
			from_names(pf, l, from, level, from_no);
			/* names imported, not passed on: the line runs nothing */
			pf->lines[pf->nlines - 1].text = l + strlen(l);
		} else {
			parse_import(pf, l, no);
			from = open_brackets > 0 ? from_module(l, &level) : NULL;
			from_no = no;
		}
		brackets += open_brackets;
		if (brackets <= 0) {
			free(from);
			from = NULL;
		}
	}
	free(from);
}

static size_t
count_lines(const char *text)
{
	size_t n = 0;

	for (; text != NULL && (text = strchr(text, '\n')) != NULL; text++)
		n++;
	return n;
}

/* Cut PF's text, and its tail, into lines and blocks. */
static void
parse_file(struct pyfile *pf)
{
	add_block(pf, BLOCK_TOP, NULL, -1, 1);
	pf->lines = xcalloc(count_lines(pf->text) + count_lines(pf->tail) + 2,
	    sizeof(*pf->lines));
	parse_lines(pf, pf->text, 0);
	if (pf->tail != NULL)
		parse_lines(pf, pf->tail, pf->tail_no - 1);
}

static void
pyfile_free(struct pyfile *pf)
{
	for (size_t i = 0; i < pf->nblocks; i++) {
		free(pf->blocks[i].name);
		free(pf->blocks[i].bases);
	}
	for (size_t i = 0; i < pf->nimports; i++) {
		free(pf->imports[i].local);
		free(pf->imports[i].module);
		free(pf->imports[i].name);
	}
	strv_free(&pf->stars);
	free(pf->blocks);
	free(pf->imports);
	free(pf->lines);
	free(pf->text);
	free(pf->tail);
	free(pf->path);
	free(pf);
}

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
	char *text, *tail;
	int tail_no = 0;

	while (strncmp(path, "./", 2) == 0)
		path += 2;
	for (size_t i = 0; i < r->nfiles; i++)
		if (strcmp(r->files[i]->path, path) == 0)
			return r->files[i];
	if (r->nfiles == CONTENT_FILES_MAX || hops > CONTENT_HOPS_MAX ||
	    (site && r->site_files == CONTENT_SITE_FILES_MAX) ||
	    (text = read_source(path, &tail, &tail_no)) == NULL)
		return NULL;
	r->site_files += site;
	pf = xcalloc(1, sizeof(*pf));
	pf->path = xstrdup(path);
	pf->text = text;
	pf->tail = tail;
	pf->tail_no = tail_no;
	pf->site = site;
	pf->hops = hops;
	parse_file(pf);
	pf->index = r->nfiles;
	r->files[r->nfiles++] = pf;
	if (hops > 0) {
		r->f->followed++;
		reach(r, pf, 0);	/* its top level runs at import */
	}
	return pf;
}

/* DIR/a/b.py or DIR/a/b/__init__.py (MAIN: __main__.py) for a.b; or NULL. */
static char *
module_in(const char *dir, const char *module, int main)
{
	char *name = xstrdup(module), *path;

	for (char *p = name; *p != '\0'; p++)
		if (*p == '.')
			*p = '/';
	path = xasprintf("%s/%s.py", dir, name);
	if (access(path, R_OK) != 0) {
		free(path);
		path = xasprintf("%s/%s/%s.py", dir, name,
		    main ? "__main__" : "__init__");
	}
	free(name);
	if (access(path, R_OK) == 0)
		return path;
	free(path);
	return NULL;
}

/* The folder of PATH ("." for a bare name). */
static char *
folder(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash == NULL ? xstrdup(".") : slash == path ? xstrdup("/") :
	    xstrndup(path, (size_t)(slash - path));
}

/*
 * The file of MODULE imported from FROM with LEVEL leading dots: relative
 * to FROM's package, else where Python looks; *SITE is set when it is of
 * an installed package.
 */
static char *
module_file(struct reader *r, const struct pyfile *from, const char *module,
    int level, int *site)
{
	char *dir, *up, *path = NULL;

	*site = from->site;
	if (level > 0) {
		dir = folder(from->path);
		while (--level > 0) {
			up = xasprintf("%s/..", dir);
			free(dir);
			dir = up;
		}
		if (*module == '\0') {		/* from . import x */
			path = xasprintf("%s/__init__.py", dir);
			if (access(path, R_OK) != 0) {
				free(path);
				path = NULL;
			}
		} else
			path = module_in(dir, module, 0);
		free(dir);
		return path;
	}
	for (size_t i = 0; path == NULL && i < r->roots.n; i++)
		if ((path = module_in(r->roots.v[i], module, 0)) != NULL)
			*site = i >= r->site_root;
	return path;
}

/*
 * Is MODULE of a package that holds no user's loop (torch, transformers,
 * the table's skip rows: numpy, ...)?  It is not read: a checkout of it
 * on PYTHONPATH or in site-packages would cost the whole bound and tell
 * nothing.
 */
static int
library(const char *module, int level)
{
	for (int i = 0; level == 0 && torch_builtin[i] != NULL; i++)
		if (is_package(module, torch_builtin[i]))
			return 1;
	for (size_t i = 0; level == 0 && i < skip_pkgs.n; i++)
		if (is_package(module, skip_pkgs.v[i]))
			return 1;
	return 0;
}

static struct pyfile *
load_module(struct reader *r, const struct pyfile *from, const char *module,
    int level)
{
	char *path;
	struct pyfile *pf = NULL;
	int site;

	if (library(module, level) ||
	    (level == 0 && strv_has(&r->missing, module)))
		return NULL;
	/* the standard library and the like: looked for in each root once */
	if ((path = module_file(r, from, module, level, &site)) == NULL &&
	    level == 0)
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
static const struct import *
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
bound_module(struct reader *r, struct pyfile *pf, const struct import *im)
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
	const struct import *im;
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

/* Record where a fact was seen first: "FILE:LINE: CALL()". */
static void
evidence(char *ev, size_t size, const struct pyfile *pf, int no,
    const char *chain)
{
	if (*ev == '\0')
		snprintf(ev, size, "%s:%d: %s()", pf->path, no, chain);
}

static const char *
last_part(const char *chain)
{
	const char *dot = strrchr(chain, '.');

	return dot != NULL ? dot + 1 : chain;
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
		return strcmp(last_part(chain), call) == 0;
	return strcmp(chain, call) == 0 || (n > m &&
	    strcmp(chain + n - m, call) == 0 && chain[n - m - 1] == '.');
}

/* Does a file read import PKG? */
static int
imports_package(const struct reader *r, const char *pkg)
{
	for (size_t i = 0; i < r->nfiles; i++)
		for (size_t j = 0; j < r->files[i]->nimports; j++) {
			const struct import *im = &r->files[i]->imports[j];
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
	const char *last = last_part(chain), *recv;
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

/* The facts of the call CHAIN made at line NO of PF, run. */
static void
call_facts(struct reader *r, const struct pyfile *pf, int no,
    const char *chain)
{
	const char *last = last_part(chain);
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
		return;
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
		    imports_package(r, train_pkgs.v[i])) {
			f->library = 1;
			r->lib_hops = pf->hops;
			snprintf(r->ev_lib, sizeof(r->ev_lib), "%s:%d: %s() (%s)",
			    pf->path, no, chain, train_names.v[i]);
		}
	for (size_t i = 0; !f->spawn && i < spawn_calls.n; i++)
		f->spawn = call_matches(chain, spawn_calls.v[i]) &&
		    imports_package(r, spawn_pkgs.v[i]);
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
	const struct import *im;
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
		called_method(r, last_part(rest));
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
			called_method(r, last_part(rest));
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
	if (defines(l))
		return;
	for (p = l; *p != '\0'; prev = *p, p++) {
		if (!(ident_start(*p) && !ident_char(prev) && prev != '.') &&
		    !(*p == '.' && (prev == ')' || prev == ']') &&
		    ident_start(p[1])))
			continue;
		chain = *p == '.' ? dotted_at(p + 1) : dotted_at(p);
		if (*p == '.') {
			char *m = xasprintf(".%s", chain);

			free(chain);
			chain = m;
		}
		q = p + strlen(chain);
		q += strspn(q, " \t");
		if (!keyword(chain)) {
			if (*q == '(') {
				call_facts(r, pf, no, chain);
				if (!mode_switch(chain))
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
		if (ident_start(*base) && strpbrk(base, "=.") == NULL)
			run_name(r, pf, base, 0);
	free(bases);
}

/* Is block B of PF inside a class that was made, and named in METHODS? */
static int
method_run(const struct reader *r, const struct pyfile *pf, size_t b)
{
	const struct block *k = &pf->blocks[b];
	const struct block *c;

	if (k->kind != BLOCK_DEF || k->parent <= 0)
		return 0;
	c = &pf->blocks[k->parent];
	return c->kind == BLOCK_CLASS && c->reached &&
	    (strcmp(k->name, "__init__") == 0 || strv_has(&r->methods, k->name));
}

/*
 * Is all there is to learn known: it trains, and, when that is wanted,
 * starts its ranks itself?
 */
static int
known(const struct reader *r)
{
	return entry_trains_torch(r->f) && (r->f->spawn || !r->spawn);
}

/*
 * Run the reached blocks until nothing more is reached, or until it is
 * known to train and to start its ranks itself: nothing more is to be
 * learnt then.  A block is run once: DONE marks those run, per file; a
 * pass runs the blocks reached before it (NOW), a block reached during
 * it the next pass.  A pass ends early when a file before the current
 * one has a block newly reached: what the entry runs is read before what
 * the modules it calls run, so that a training is known early.
 */
static void
run_all(struct reader *r)
{
	unsigned char *done[CONTENT_FILES_MAX] = { 0 }, *now;
	struct pyfile *pf;

	do {
		r->changed = 0;
		r->lowest = SIZE_MAX;
		for (size_t i = 0; i < r->nfiles && !known(r) &&
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
	} while (r->changed && !known(r));
	for (size_t i = 0; i < CONTENT_FILES_MAX; i++)
		free(done[i]);
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
uncalled_loop(struct reader *r)
{
	unsigned char *seen;

	for (size_t i = 0; i < r->nfiles; i++) {
		const struct pyfile *pf = r->files[i];

		seen = xcalloc(pf->nblocks, 1);
		for (size_t j = 0; j < pf->nlines; j++) {
			int b = pf->lines[j].block;

			if (pf->blocks[b].kind != BLOCK_DEF ||
			    pf->blocks[b].reached)
				continue;
			seen[b] |= calls(pf->lines[j].text, ".backward", 0) |
			    calls(pf->lines[j].text, ".step", 0) << 1;
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
decide(struct reader *r)
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
 * The options of the table's eval rows for the packages a file read
 * imports ("torch": any torch entry), in F->eval_opts.
 */
static void
eval_options(const struct reader *r, struct entry_facts *f)
{
	size_t len = 0;

	for (size_t i = 0; i < eval_opts.n; i++) {
		if (strcmp(eval_pkgs.v[i], "torch") == 0 ? f->torch == NULL :
		    !imports_package(r, eval_pkgs.v[i]))
			continue;
		if (len + strlen(eval_opts.v[i]) + 2 > sizeof(f->eval_opts))
			break;
		len += (size_t)snprintf(f->eval_opts + len,
		    sizeof(f->eval_opts) - len, "%s ", eval_opts.v[i]);
	}
}

/* Does a line of PF read the attribute NAME (training_args.do_train)? */
static int
reads_attribute(const struct pyfile *pf, const char *name)
{
	size_t n = strlen(name);
	const char *p;

	for (size_t j = 0; j < pf->nlines; j++)
		for (p = pf->lines[j].text; (p = strstr(p, name)) != NULL;
		    p += n)
			if (p > pf->lines[j].text && p[-1] == '.' &&
			    !ident_char(p[n]))
				return 1;
	return 0;
}

/*
 * The options of the table's needs rows for the packages a file read
 * imports, whose attribute (the option without its dashes) the entry's
 * own lines read, in F->needs_opts.
 */
static void
needs_options(const struct reader *r, const struct pyfile *entry,
    struct entry_facts *f)
{
	size_t len = 0;

	for (size_t i = 0; i < needs_opts.n; i++) {
		const char *attr = needs_opts.v[i] + strspn(needs_opts.v[i], "-");

		if (!imports_package(r, needs_pkgs.v[i]) ||
		    !reads_attribute(entry, attr))
			continue;
		if (len + strlen(needs_opts.v[i]) + 2 > sizeof(f->needs_opts))
			break;
		len += (size_t)snprintf(f->needs_opts + len,
		    sizeof(f->needs_opts) - len, "%s ", needs_opts.v[i]);
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

static const char *
base(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash != NULL ? slash + 1 : path;
}

/* PROGRAM as exec(3p) with a PATH search finds it: a copy, or NULL. */
static char *
on_path(const char *program)
{
	const char *path = getenv("PATH");
	char *copy, *dir, *save = NULL, *found = NULL;

	if (strchr(program, '/') != NULL)
		return access(program, X_OK) == 0 ? xstrdup(program) : NULL;
	if (path == NULL)
		return NULL;
	copy = xstrdup(path);
	for (dir = strtok_r(copy, ":", &save); dir != NULL && found == NULL;
	    dir = strtok_r(NULL, ":", &save)) {
		found = xasprintf("%s/%s", dir, program);
		if (access(found, X_OK) != 0) {
			free(found);
			found = NULL;
		}
	}
	free(copy);
	return found;
}

/*
 * The Python that runs PROGRAM: PROGRAM itself, or the interpreter of
 * its "#!" line (torchrun, deepspeed: #!/venv/bin/python3, or
 * #!/usr/bin/env python3).  A copy, or NULL.
 */
static char *
job_python(const char *program)
{
	char line[256], *p, *word, *found;
	ssize_t n;
	int fd;

	if (program == NULL || (found = on_path(program)) == NULL)
		return NULL;
	if ((fd = open(found, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) == -1)
		return found;
	n = read(fd, line, sizeof(line) - 1);
	close(fd);
	if (n < 2 || line[0] != '#' || line[1] != '!')
		return found;
	line[n] = '\0';
	line[strcspn(line, "\n")] = '\0';
	p = line + 2 + strspn(line + 2, " \t");
	word = xstrndup(p, strcspn(p, " \t"));
	free(found);
	if (strcmp(base(word), "env") == 0) {
		p += strlen(word);
		p += strspn(p, " \t");
		free(word);
		word = xstrndup(p, strcspn(p, " \t"));
		found = *word != '\0' && *word != '-' ? on_path(word) : NULL;
		free(word);
		return found;
	}
	return word;
}

/* Is the program at PATH a Python (python3, python3.11): a copy or NULL. */
static char *
python_only(char *path)
{
	if (path != NULL && strncmp(base(path), "python", 6) != 0) {
		free(path);
		return NULL;
	}
	return path;
}

/* Add DIR to OUT when it is a folder that can be read. */
static void
add_root(struct strv *out, char *dir)
{
	if (access(dir, R_OK | X_OK) == 0 && !strv_has(out, dir))
		strv_push(out, dir);
	free(dir);
}

/*
 * The minor versions of Python 3 to look for: the one PYTHON's name or
 * the name it links to says (python3.11), else all that may be
 * installed.  A directory listing of PREFIX/lib costs more than this.
 */
static void
python_minors(const char *python, int *lo, int *hi)
{
	char *real = realpath(python, NULL);
	const char *b = real != NULL ? base(real) : base(python);
	int minor;

	*lo = 6;
	*hi = 16;
	if (sscanf(b, "python3.%d", &minor) == 1 && minor >= 0 && minor < 100)
		*lo = *hi = minor;
	free(real);
}

/*
 * The folders of installed packages of the Python at PYTHON (a venv's,
 * conda's, Debian's), by where it lives, without running it: PREFIX/lib/
 * python3.N/site-packages, PREFIX/lib/python3/dist-packages and
 * PREFIX/local/lib/python3.N/dist-packages, PREFIX the folder above its
 * bin/; then the user's ~/.local/lib/python3.N/site-packages.
 */
static void
site_roots(struct strv *out, const char *python)
{
	const char *home = getenv("HOME"), *pre;
	char *bin, *prefix;
	int lo, hi;

	if (python == NULL)
		return;
	bin = folder(python);
	prefix = folder(bin);
	pre = strcmp(prefix, "/") == 0 ? "" : prefix;
	python_minors(python, &lo, &hi);
	for (int m = lo; m <= hi; m++)
		add_root(out, xasprintf("%s/lib/python3.%d/site-packages", pre,
		    m));
	add_root(out, xasprintf("%s/lib/python3/dist-packages", pre));
	for (int m = lo; m <= hi; m++)
		add_root(out, xasprintf("%s/local/lib/python3.%d/dist-packages",
		    pre, m));
	for (int m = lo; home != NULL && *home == '/' && m <= hi; m++)
		add_root(out, xasprintf("%s/.local/lib/python3.%d/site-packages",
		    home, m));
	free(prefix);
	free(bin);
}

/*
 * Where Python looks for modules: FIRST, PYTHONPATH, the working folder,
 * the installed packages of the Python that runs PROGRAM (NULL: none).
 */
static size_t
roots(struct strv *out, const char *first, const char *program)
{
	size_t site;
	const char *pp = getenv("PYTHONPATH");
	char *copy, *dir, *save = NULL, *python;

	strv_push(out, first);
	if (pp != NULL) {
		copy = xstrdup(pp);
		for (dir = strtok_r(copy, ":", &save); dir != NULL;
		    dir = strtok_r(NULL, ":", &save))
			if (!strv_has(out, dir))
				strv_push(out, dir);
		free(copy);
	}
	if (!strv_has(out, "."))
		strv_push(out, ".");
	site = out->n;
	python = python_only(job_python(program));
	site_roots(out, python);
	free(python);
	return site;
}

static int
read_entry(const char *script, const char *first, const char *program,
    int spawn, struct entry_facts *f)
{
	struct reader r = { 0 };
	struct pyfile *entry;
	char *why = NULL;

	memset(f, 0, sizeof(*f));
	if (!tables_loaded && trainings_load_default(&why) == -1)
		free(why);		/* the launcher has said so */
	r.f = f;
	r.spawn = spawn;
	r.site_root = roots(&r.roots, first, program);
	if ((entry = load(&r, script, 0, 0)) == NULL) {
		strv_free(&r.roots);
		return -1;
	}
	mindspeed_facts(entry, f);
	reach(&r, entry, 0);
	for (size_t b = 0; b < entry->nblocks; b++)
		if (entry->blocks[b].kind == BLOCK_MAIN)
			reach(&r, entry, (int)b);
	run_all(&r);
	f->torch = torch_of(&r);
	decide(&r);
	eval_options(&r, f);
	needs_options(&r, entry, f);
	for (size_t i = 0; i < r.nfiles; i++)
		pyfile_free(r.files[i]);
	strv_free(&r.roots);
	strv_free(&r.methods);
	strv_free(&r.missing);
	return 0;
}

int
entry_facts_read(const char *script, const char *program, int spawn,
    struct entry_facts *f)
{
	char *dir = folder(script);
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

char *
entry_program_file(const char *program)
{
	return on_path(program);
}

char *
entry_module_file(const char *module, const char *program)
{
	struct strv r = { 0 };
	char *path = NULL;

	roots(&r, ".", program);
	for (size_t i = 0; path == NULL && i < r.n; i++)
		path = module_in(r.v[i], module, 1);
	strv_free(&r);
	return path;
}

const char *
entry_eval_option(const struct entry_facts *f, char *const argv[])
{
	const char *o = f->eval_opts, *a;
	size_t n;

	for (; *o != '\0'; o += n + 1) {
		n = strcspn(o, " ");
		for (int i = 0; argv != NULL && (a = argv[i]) != NULL; i++)
			if (strncmp(a, o, n) == 0 &&
			    (a[n] == '\0' || a[n] == '='))
				return a;
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
	for (int i = 0; argv[i] != NULL; i++) {
		const char *a = argv[i];

		if (strncmp(a, option, n) != 0)
			continue;
		if (a[n] == '=')
			return !false_value(a + n + 1);
		if (a[n] == '\0')
			return !false_value(argv[i + 1]);
	}
	return 0;
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
};

/* One row of config/trainings.conf: 0, or -1 with *why. */
static int
trainings_row(char **w, size_t n, size_t no, void *arg)
{
	struct training_table *tt = arg;

	if (strcmp(w[0], "torch") == 0 && n >= 2) {
		for (size_t i = 1; i < n; i++)
			strv_push(&torch_rows, w[i]);
	} else if (strcmp(w[0], "train") == 0 && n == 4) {
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
		for (size_t i = 2; i < n; i++) {
			strv_push(&needs_pkgs, w[1]);
			strv_push(&needs_opts, w[i]);
		}
	} else if (strcmp(w[0], "eval") == 0 && n >= 3 && w[2][0] == '-') {
		for (size_t i = 2; i < n; i++) {
			strv_push(&eval_pkgs, w[1]);
			strv_push(&eval_opts, w[i]);
		}
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
	struct training_table tt = { path, why };
	char *text;
	int rc;

	if ((text = read_file(path, NULL)) == NULL) {
		if (!must && errno == ENOENT)
			return 0;
		*why = xasprintf(_("cannot read the training table %s: %s"),
		    path, i18n_strerror(errno));
		return -1;
	}
	rc = conf_rows(text, trainings_row, &tt);
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
