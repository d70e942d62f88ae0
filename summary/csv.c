/* A streaming CSV reader: records split in place in a large buffer. */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/util.h"
#include "csv.h"

#define CSV_BUF	(1 << 20)

struct csv {
	int		 fd, eof;
	char		*path;
	char		*buf;
	size_t		 cap, beg, end;	/* unread bytes are buf[beg, end) */
	char		**f;		/* the fields of the last record */
	char		**fend;		/* where each ends */
	unsigned char	*want;		/* columns to cut out; NULL: all */
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
 * The next ',' or newline from P, sixteen bytes at a time with SSE2, else
 * eight at a time in a word: a byte equal to B
 * makes (x ^ B) a zero byte, and the classic zero-byte test marks it; the
 * lowest mark is always a true one (little-endian: the first byte).
 */
#define ONES	0x0101010101010101ULL
#define HIGHS	0x8080808080808080ULL

static inline uint64_t
zero_bytes(uint64_t x)
{
	return (x - ONES) & ~x & HIGHS;
}

static char *
field_end(char *p, const char *lim)
{
#if defined(__SSE2__)
	const __m128i comma = _mm_set1_epi8(','), nl = _mm_set1_epi8('\n');

	while (lim - p >= 16) {
		__m128i w = _mm_loadu_si128((const __m128i *)p);
		unsigned m = (unsigned)_mm_movemask_epi8(_mm_or_si128(
		    _mm_cmpeq_epi8(w, comma), _mm_cmpeq_epi8(w, nl)));

		if (m != 0)
			return p + __builtin_ctz(m);
		p += 16;
	}
#elif __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	while (lim - p >= 8) {
		uint64_t w, m;

		memcpy(&w, p, 8);
		m = zero_bytes(w ^ (ONES * ',')) | zero_bytes(w ^ (ONES * '\n'));
		if (m != 0)
			return p + (__builtin_ctzll(m) >> 3);
		p += 8;
	}
#endif
	while (p < lim && *p != ',' && *p != '\n')
		p++;
	return p;
}

/* Room for one more field in the field arrays. */
static void
room(struct csv *c)
{
	if (c->nf < c->fcap)
		return;
	c->fcap = c->fcap ? c->fcap * 2 : 64;
	c->f = reallocarray(c->f, c->fcap, sizeof(*c->f));
	c->fend = reallocarray(c->fend, c->fcap, sizeof(*c->fend));
	if (c->f == NULL || c->fend == NULL)
		err(70, "reallocarray");
}

/*
 * Find the fields of the record at P in one pass: their starts and ends,
 * without writing (more input may be needed and the scan restarted).
 * Returns the byte after the record, or NULL when the buffer ends first.
 * *ESC is set when a quoted field holds a doubled quote.
 */
static char *
scan(struct csv *c, char *p, char *lim, int eof, int *esc)
{
	*esc = 0;
	c->nf = 0;
	for (;;) {
		char *start = p;

		room(c);
		if (p < lim && *p == '"') {
			for (p++;; p += 2) {
				p = memchr(p, '"', lim - p);
				if (p == NULL)
					return eof ? (c->f[c->nf] = start,
					    c->fend[c->nf++] = lim, lim) : NULL;
				if (p + 1 >= lim && !eof)
					return NULL;
				if (p + 1 >= lim || p[1] != '"')
					break;
				*esc = 1;
			}
			p++;
		}
		p = field_end(p, lim);
		if (p >= lim && !eof)
			return NULL;
		c->f[c->nf] = start;
		c->fend[c->nf++] = p;
		if (p >= lim)
			return lim;
		if (*p++ == '\n')
			return p;
	}
}

/* Terminate the fields found by scan, unquoting the quoted ones. */
static void
cut(struct csv *c, int esc)
{
	size_t i;

	for (i = 0; i < c->nf; i++) {
		char *a = c->f[i], *e = c->fend[i];

		if (c->want != NULL && (i >= c->nhead || !c->want[i])) {
			c->f[i] = (char *)"";
			continue;
		}
		if (i + 1 == c->nf && e > a && e[-1] == '\r')
			e--;
		if (*a == '"') {
			char *close = e;

			while (close > a + 1 && close[-1] != '"')
				close--;
			if (esc) {
				char *r = a + 1, *w = a;

				for (; r < close - 1; r++) {
					*w++ = *r;
					if (*r == '"')
						r++;
				}
				/* Text after the closing quote (not CSV, but keep it). */
				for (r = close; r < e; r++)
					*w++ = *r;
				*w = '\0';
				continue;
			}
			if (close > a + 1) {
				memmove(a, a + 1, close - 2 - a);
				memmove(close - 2, close, e - close);
				e -= 2;
			} else
				a++;	/* an unterminated quote: keep the rest */
			c->f[i] = a;
		}
		*e = '\0';
	}
}

int
csv_next(struct csv *c, char ***fields, size_t *nfields, char **why)
{
	char *p, *e;
	int esc;

	for (;;) {
		if (c->beg >= c->end && c->eof)
			return 0;
		p = c->buf + c->beg;
		e = scan(c, p, c->buf + c->end, c->eof, &esc);
		if (e != NULL)
			break;
		if (fill(c) < 0) {
			*why = xasprintf("%s: %s", c->path, strerror(errno));
			return -1;
		}
	}
	c->beg = e - c->buf;
	c->line++;
	cut(c, esc);
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

void
csv_want(struct csv *c, int col)
{
	if (c->want == NULL)
		c->want = xcalloc(c->nhead + 1, 1);
	if (col >= 0 && (size_t)col < c->nhead)
		c->want[col] = 1;
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
	free(c->fend);
	free(c->want);
	free(c->buf);
	free(c->path);
	free(c);
}

const char *
csv_field(char **f, size_t n, int i)
{
	return i >= 0 && (size_t)i < n ? f[i] : "";
}

/*
 * Most fields are plain decimals ("1234.567"): an integer mantissa of at
 * most 15 digits divided by an exact power of ten is the correctly rounded
 * double strtod would give, without its cost.  Anything else goes to
 * strtod.
 */
static const double exact10[] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12,
	1e13, 1e14, 1e15,
};

static double
slow_num(const char *s)
{
	char *end;
	double d = strtod(s, &end);

	while (*end == ' ' || *end == '\t')
		end++;
	return end == s || *end != '\0' ? NAN : d;
}

double
csv_num(const char *s)
{
	const char *p;
	unsigned long long m = 0;
	int digits = 0, frac = -1, neg = 0;

	while (*s == ' ' || *s == '\t')
		s++;
	p = s;
	if (*p == '-' || *p == '+')
		neg = *p++ == '-';
	for (;; p++) {
		if (*p >= '0' && *p <= '9') {
			m = m * 10 + (unsigned)(*p - '0');
			digits++;
			if (frac >= 0)
				frac++;
		} else if (*p == '.' && frac < 0)
			frac = 0;
		else
			break;
	}
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p != '\0' || digits == 0 || digits > 15)
		return *s == '\0' ? NAN : slow_num(s);
	return (neg ? -1.0 : 1.0) * ((double)m / exact10[frac > 0 ? frac : 0]);
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
