/*
 * Cutting a Python file into lines, blocks and imports (pylex.h).  A
 * file is cut into blocks by indentation: its top level, its __main__
 * block, and each def and class; a line continued inside brackets
 * belongs to the block of its first line.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/util.h"
#include "content.h"
#include "pylex.h"

/* Is L the start of the __main__ block: if __name__ == "__main__":? */
static int
main_guard(const char *l)
{
	return strncmp(l, "if __name__", 11) == 0 ||
	    strncmp(l, "if (__name__", 12) == 0;
}

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
	return py_defines(l) || l[0] == '@' || main_guard(l);
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

int
py_defines(const char *l)
{
	return strncmp(l, "def ", 4) == 0 || strncmp(l, "async def ", 10) == 0 ||
	    strncmp(l, "class ", 6) == 0;
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
		/* outside a string only '#' and the quotes matter */
		if (q == '\0' && *(p += strcspn(p, "#\"'")) == '\0')
			break;
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

char *
py_dotted_at(const char *p)
{
	size_t n = 0;

	while (py_ident_char(p[n]) ||
	    (p[n] == '.' && py_ident_start(p[n + 1])))
		n++;
	return xstrndup(p, n);
}

static void
add_import(struct pyfile *pf, const char *local, const char *module,
    const char *name, int level, int no)
{
	struct pyimport *im;

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
 * The names "a.b as c, d" at P, bound at line NO: of "from MODULE
 * import" (LEVEL leading dots; "*" imports them all; a line of its own
 * when the list is in brackets), or when MODULE is NULL, of "import",
 * each a module that binds its first part (import a.b binds a).
 */
static void
import_names(struct pyfile *pf, const char *p, const char *module,
    int level, int no)
{
	char *name, *local;

	for (;; p++) {
		p += strspn(p, " \t(");
		if (*p == '*' && module != NULL)
			strv_pushf(&pf->stars, "%d:%s", level, module);
		if (!py_ident_start(*p))
			return;
		name = py_dotted_at(p);
		p += strlen(name);
		p += strspn(p, " \t");
		if (strncmp(p, "as ", 3) == 0) {
			p += 3 + strspn(p + 3, " \t");
			local = py_dotted_at(p);
			p += strlen(local);
		} else
			local = module != NULL ? xstrdup(name) :
			    xstrndup(name, strcspn(name, "."));
		if (module != NULL)
			add_import(pf, local, module, name, level, no);
		else
			add_import(pf, local, name, NULL, 0, no);
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
	return py_dotted_at(p);
}

/*
 * Record the import line L of PF: "import a.b as c, d" binds c to a.b and
 * a to a; "from .a import x as y, *" binds y to x of .a.
 */
static void
parse_import(struct pyfile *pf, const char *l, int no)
{
	char *module;
	const char *p;
	int level = 0;

	if (strncmp(l, "import ", 7) == 0) {
		import_names(pf, l + 7, NULL, 0, no);
		return;
	}
	if ((module = from_module(l, &level)) == NULL)
		return;
	if ((p = strstr(l, " import ")) != NULL)
		import_names(pf, p + 8, module, level, no);
	free(module);
}

static int
add_block(struct pyfile *pf, enum block_kind kind, const char *name,
    int parent, int no)
{
	struct pyblock *b;

	if (pf->nblocks == pf->ablocks) {
		pf->ablocks = pf->ablocks * 2 + 8;
		pf->blocks = xreallocarray(pf->blocks, pf->ablocks,
		    sizeof(*pf->blocks));
	}
	b = &pf->blocks[pf->nblocks];
	b->kind = kind;
	b->name = name != NULL ? py_dotted_at(name) : NULL;
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
		if (brackets == 0 && depth < 64 && (py_defines(l) ||
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
			import_names(pf, l, from, level, from_no);
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

struct pyfile *
pyfile_read(const char *path)
{
	struct pyfile *pf;
	char *text, *tail;
	int tail_no = 0;

	if ((text = read_source(path, &tail, &tail_no)) == NULL)
		return NULL;
	pf = xcalloc(1, sizeof(*pf));
	pf->path = xstrdup(path);
	pf->text = text;
	pf->tail = tail;
	pf->tail_no = tail_no;
	parse_file(pf);
	return pf;
}

void
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

const char *
py_last_part(const char *chain)
{
	const char *dot = strrchr(chain, '.');

	return dot != NULL ? dot + 1 : chain;
}
