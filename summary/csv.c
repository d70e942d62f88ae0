/* A streaming CSV reader: records split in place in a large buffer. */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"
#include "csv.h"

#define CSV_BUF	(1 << 20)

struct csv {
	int		 fd, eof;
	char		*path;
	char		*buf;
	size_t		 cap, beg, end;	/* unread bytes are buf[beg, end) */
	char		**f;		/* the fields of the last record */
	size_t		 nf, fcap;
	char		**head;		/* the header, copied */
	size_t		 nhead;
	unsigned long	 line;
};

/* Read more input after compacting; 0 at the end of the file. */
static ssize_t
fill(struct csv *c)
{
	ssize_t n;

	if (c->beg > 0) {
		memmove(c->buf, c->buf + c->beg, c->end - c->beg);
		c->end -= c->beg;
		c->beg = 0;
	}
	if (c->end + 1 >= c->cap) {	/* one record longer than the buffer */
		c->cap *= 2;
		c->buf = realloc(c->buf, c->cap);
		if (c->buf == NULL)
			return -1;
	}
	do
		n = read(c->fd, c->buf + c->end, c->cap - 1 - c->end);
	while (n < 0 && errno == EINTR);
	if (n > 0)
		c->end += n;
	else if (n == 0)
		c->eof = 1;
	return n;
}

/*
 * The end of the record starting at P (the newline, or LIM at the end of
 * the file), or NULL when more input is needed.  A newline inside quotes
 * belongs to the field; doubled quotes keep the count even.
 */
static char *
record_end(char *p, char *lim, int eof)
{
	int quoted = 0;

	for (;;) {
		char *nl = memchr(p, '\n', lim - p);
		char *q = p, *stop = nl ? nl : lim;

		while ((q = memchr(q, '"', stop - q)) != NULL) {
			quoted = !quoted;
			q++;
		}
		if (nl == NULL)
			return eof ? lim : NULL;
		if (!quoted)
			return nl;
		p = nl + 1;
	}
}

static void
push_field(struct csv *c, char *s)
{
	if (c->nf == c->fcap) {
		c->fcap = c->fcap ? c->fcap * 2 : 64;
		c->f = reallocarray(c->f, c->fcap, sizeof(*c->f));
		if (c->f == NULL)
			err(70, "reallocarray");
	}
	c->f[c->nf++] = s;
}

/* A quoted field at P: unquote in place, return where the field ends. */
static char *
unquote(char *p, char *lim, char **start)
{
	char *w = p, *r = p + 1;

	*start = w;
	while (r < lim) {
		if (*r == '"') {
			if (r + 1 < lim && r[1] == '"') {
				*w++ = '"';
				r += 2;
				continue;
			}
			r++;
			break;
		}
		*w++ = *r++;
	}
	/* Text after the closing quote (not CSV, but keep it). */
	while (r < lim && *r != ',')
		*w++ = *r++;
	*w = '\0';
	return r;
}

/* Split the record [p, lim) into fields, in place. */
static void
split(struct csv *c, char *p, char *lim)
{
	if (lim > p && lim[-1] == '\r')
		lim--;
	*lim = '\0';
	c->nf = 0;
	for (;;) {
		char *start, *e;

		if (p < lim && *p == '"') {
			e = unquote(p, lim, &start);
		} else {
			start = p;
			e = memchr(p, ',', lim - p);
			if (e == NULL)
				e = lim;
		}
		push_field(c, start);
		if (e >= lim) {
			*e = '\0';
			break;
		}
		*e = '\0';
		p = e + 1;
	}
}

int
csv_next(struct csv *c, char ***fields, size_t *nfields, char **why)
{
	char *p, *e;

	for (;;) {
		if (c->beg >= c->end && c->eof)
			return 0;
		p = c->buf + c->beg;
		e = record_end(p, c->buf + c->end, c->eof);
		if (e != NULL)
			break;
		if (fill(c) < 0) {
			*why = xasprintf("%s: %s", c->path, strerror(errno));
			return -1;
		}
	}
	c->beg = (e - c->buf) + (e < c->buf + c->end);
	c->line++;
	split(c, p, e);
	*fields = c->f;
	*nfields = c->nf;
	return 1;
}

struct csv *
csv_open(const char *path, char **why)
{
	struct csv *c = xcalloc(1, sizeof(*c));
	char **f;
	size_t n, i;
	int r;

	c->path = xstrdup(path);
	c->cap = CSV_BUF;
	c->buf = xmalloc(c->cap);
	if ((c->fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		*why = xasprintf("%s: %s", path, strerror(errno));
		csv_close(c);
		return NULL;
	}
	posix_fadvise(c->fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	if ((r = csv_next(c, &f, &n, why)) <= 0) {
		if (r == 0)
			*why = xasprintf(_("%s: empty file, no header"), path);
		csv_close(c);
		return NULL;
	}
	if (n > 0 && strncmp(f[0], "\xef\xbb\xbf", 3) == 0)
		f[0] += 3;
	c->head = xcalloc(n, sizeof(*c->head));
	for (i = 0; i < n; i++)
		c->head[i] = xstrdup(csv_trim(f[i]));
	c->nhead = n;
	return c;
}

int
csv_col(const struct csv *c, const char *name)
{
	size_t i;

	for (i = 0; i < c->nhead; i++)
		if (strcmp(c->head[i], name) == 0)
			return (int)i;
	return -1;
}

int
csv_col_any(const struct csv *c, const char *const names[])
{
	int i;

	for (; *names != NULL; names++)
		if ((i = csv_col(c, *names)) >= 0)
			return i;
	return -1;
}

size_t
csv_ncols(const struct csv *c)
{
	return c->nhead;
}

const char *
csv_header(const struct csv *c, size_t i)
{
	return i < c->nhead ? c->head[i] : "";
}

unsigned long
csv_line(const struct csv *c)
{
	return c->line;
}

void
csv_close(struct csv *c)
{
	size_t i;

	if (c == NULL)
		return;
	if (c->fd >= 0)
		close(c->fd);
	for (i = 0; i < c->nhead; i++)
		free(c->head[i]);
	free(c->head);
	free(c->f);
	free(c->buf);
	free(c->path);
	free(c);
}

const char *
csv_field(char **f, size_t n, int i)
{
	return i >= 0 && (size_t)i < n ? f[i] : "";
}

double
csv_num(const char *s)
{
	char *end;
	double d;

	while (*s == ' ' || *s == '\t')
		s++;
	if (*s == '\0')
		return NAN;
	d = strtod(s, &end);
	while (*end == ' ' || *end == '\t')
		end++;
	return end == s || *end != '\0' ? NAN : d;
}

char *
csv_trim(char *s)
{
	size_t n;

	while (*s == ' ' || *s == '\t')
		s++;
	n = strlen(s);
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		s[--n] = '\0';
	return s;
}
