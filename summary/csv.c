/* A streaming CSV reader: records split in place in a large buffer. */
#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#elif defined(__aarch64__) && defined(__ARM_NEON)
#include <arm_neon.h>
#endif
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/util.h"
#include "csv.h"

#define CSV_BUF	(1 << 20)
#define BLOCK	64		/* bytes classified at once, one bit each */

struct csv {
	struct csv_view	 v;		/* first: what csv_span() reads */
	int		 fd, eof, slow;
	char		 last;		/* the last byte read */
	int		 spans;		/* cut nothing: csv_span() reads */
	int		 esc;		/* cut_one()'s ESC for the last record */
	unsigned long	 nslow;		/* records read a byte at a time */
	char		*path;
	char		*buf;
	size_t		 cap, beg, end;	/* unread bytes are buf[beg, end) */
	char		**f;		/* the fields of the last record */
	size_t		*len;		/* the length of each field read */
	size_t		 fcap;
	char		**head;		/* the header, copied */
	size_t		 nhead;
	/* Records skipped for their number of fields: how many, the first. */
	unsigned long	 nragged, ragged_line;
	size_t		 ragged_nf;
	/*
	 * The block scanner's place: the 64 bytes at buf + blk, their
	 * separators not yet consumed (commas and newlines outside quotes)
	 * and which of them are newlines; the quote state after the block
	 * (all ones inside) and whether its last byte may precede an
	 * opening quote.  HAVE is 0 when the next record starts afresh.
	 */
	int		 have;
	size_t		 blk;
	uint64_t	 sep, nl, inq, after;
};

/* Read more input after compacting; 0 at the end of the file. */
static ssize_t
fill(struct csv *c)
{
	ssize_t n;

	c->have = 0;	/* the scanner's offsets move */
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
	if (n > 0) {
		c->end += n;
		c->last = c->buf[c->end - 1];
	} else if (n == 0)
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

/* Room for N fields in the field arrays; new ones read as "". */
static void
grow_fields(struct csv *c, size_t n)
{
	size_t i, old = c->fcap;

	while (c->fcap < n)
		c->fcap = c->fcap ? c->fcap * 2 : 64;
	c->f = xreallocarray(c->f, c->fcap, sizeof(*c->f));
	c->v.fend = xreallocarray(c->v.fend, c->fcap, sizeof(*c->v.fend));
	c->len = xreallocarray(c->len, c->fcap, sizeof(*c->len));
	c->v.cutat = xreallocarray(c->v.cutat, c->fcap, sizeof(*c->v.cutat));
	for (i = old; i < c->fcap; i++) {
		c->f[i] = (char *)"";
		c->len[i] = 0;
		c->v.cutat[i] = 0;
	}
}

static inline void
room(struct csv *c, size_t n)
{
	if (n > c->fcap)
		grow_fields(c, n);
}

/*
 * Find the fields of the record at P a byte at a time: where each ends,
 * without writing (more input may be needed and the scan restarted).
 * Returns the byte after the record, or NULL when the buffer ends first.
 * *ESC is set when a quoted field holds a doubled quote.  A quote counts
 * only at the start of a field; the block scanner below hands this one
 * the records where that matters.
 */
static char *
scan_bytes(struct csv *c, char *p, char *lim, int eof, int *esc)
{
	*esc = 0;
	c->v.nf = 0;
	for (;;) {
		room(c, c->v.nf + 1);
		if (p < lim && *p == '"') {
			for (p++;; p += 2) {
				p = memchr(p, '"', lim - p);
				if (p == NULL)
					return eof ? (c->v.fend[c->v.nf++] = lim,
					    lim) : NULL;
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
		c->v.fend[c->v.nf++] = p;
		if (p >= lim)
			return lim;
		if (*p++ == '\n')
			return p;
	}
}

/*
 * The block scanner: 64 bytes become three masks (quotes, commas,
 * newlines), a prefix XOR of the quotes gives which bytes are inside
 * quotes, and the separators are the commas and newlines outside; a
 * record's fields are then one count-trailing-zeros each.
 */
#if defined(__SSE2__)
/* One bit per byte of four sixteen-byte compare results. */
static inline uint64_t
mask64(__m128i a, __m128i b, __m128i c, __m128i d)
{
	return (uint64_t)(unsigned)_mm_movemask_epi8(a) |
	    (uint64_t)(unsigned)_mm_movemask_epi8(b) << 16 |
	    (uint64_t)(unsigned)_mm_movemask_epi8(c) << 32 |
	    (uint64_t)(unsigned)_mm_movemask_epi8(d) << 48;
}

static inline void
classify(const char *p, uint64_t *q, uint64_t *cm, uint64_t *nl)
{
	const __m128i bq = _mm_set1_epi8('"'), bc = _mm_set1_epi8(','),
	    bn = _mm_set1_epi8('\n');
	__m128i w0 = _mm_loadu_si128((const __m128i *)p),
	    w1 = _mm_loadu_si128((const __m128i *)(p + 16)),
	    w2 = _mm_loadu_si128((const __m128i *)(p + 32)),
	    w3 = _mm_loadu_si128((const __m128i *)(p + 48));

	*q = mask64(_mm_cmpeq_epi8(w0, bq), _mm_cmpeq_epi8(w1, bq),
	    _mm_cmpeq_epi8(w2, bq), _mm_cmpeq_epi8(w3, bq));
	*cm = mask64(_mm_cmpeq_epi8(w0, bc), _mm_cmpeq_epi8(w1, bc),
	    _mm_cmpeq_epi8(w2, bc), _mm_cmpeq_epi8(w3, bc));
	*nl = mask64(_mm_cmpeq_epi8(w0, bn), _mm_cmpeq_epi8(w1, bn),
	    _mm_cmpeq_epi8(w2, bn), _mm_cmpeq_epi8(w3, bn));
}
#elif defined(__aarch64__) && defined(__ARM_NEON)
/* One bit per byte of four compare results (all ones or zero). */
static inline uint64_t
mask64(uint8x16_t a, uint8x16_t b, uint8x16_t c, uint8x16_t d)
{
	const uint8x16_t bit = { 1, 2, 4, 8, 16, 32, 64, 128,
	    1, 2, 4, 8, 16, 32, 64, 128 };
	uint8x16_t s = vpaddq_u8(vpaddq_u8(vandq_u8(a, bit), vandq_u8(b, bit)),
	    vpaddq_u8(vandq_u8(c, bit), vandq_u8(d, bit)));

	s = vpaddq_u8(s, s);
	return vgetq_lane_u64(vreinterpretq_u64_u8(s), 0);
}

static inline void
classify(const char *p, uint64_t *q, uint64_t *cm, uint64_t *nl)
{
	const uint8_t *u = (const uint8_t *)p;
	uint8x16_t w0 = vld1q_u8(u), w1 = vld1q_u8(u + 16),
	    w2 = vld1q_u8(u + 32), w3 = vld1q_u8(u + 48);
	uint8x16_t bq = vdupq_n_u8('"'), bc = vdupq_n_u8(','),
	    bn = vdupq_n_u8('\n');

	*q = mask64(vceqq_u8(w0, bq), vceqq_u8(w1, bq), vceqq_u8(w2, bq),
	    vceqq_u8(w3, bq));
	*cm = mask64(vceqq_u8(w0, bc), vceqq_u8(w1, bc), vceqq_u8(w2, bc),
	    vceqq_u8(w3, bc));
	*nl = mask64(vceqq_u8(w0, bn), vceqq_u8(w1, bn), vceqq_u8(w2, bn),
	    vceqq_u8(w3, bn));
}
#else
static inline void
classify(const char *p, uint64_t *q, uint64_t *cm, uint64_t *nl)
{
	int k;

	*q = *cm = *nl = 0;
	for (k = 0; k < BLOCK; k++) {
		*q |= (uint64_t)(p[k] == '"') << k;
		*cm |= (uint64_t)(p[k] == ',') << k;
		*nl |= (uint64_t)(p[k] == '\n') << k;
	}
}
#endif

/* Bit I set when an odd number of bits at or below I are. */
static inline uint64_t
prefix_xor(uint64_t x)
{
	x ^= x << 1;
	x ^= x << 2;
	x ^= x << 4;
	x ^= x << 8;
	x ^= x << 16;
	x ^= x << 32;
	return x;
}

/*
 * Classify the block at buf + blk (the bytes past LIM read as none).
 * Returns 0 when an opening quote does not start a field (nor follows a
 * closing one, as in a doubled quote): the byte scanner then reads the
 * record, as quotes there are text.
 */
static inline __attribute__((always_inline)) int
load(struct csv *c, const char *lim)
{
	const char *p = c->buf + c->blk;
	uint64_t q, cm, nl, in, open, close, sep;

	if (lim - p >= BLOCK)
		classify(p, &q, &cm, &nl);
	else {
		char tail[BLOCK] = { 0 };

		memcpy(tail, p, lim - p);
		classify(tail, &q, &cm, &nl);
	}
	in = prefix_xor(q) ^ c->inq;
	open = q & in;
	close = q & ~in;
	sep = (cm | nl) & ~in;
	if ((open & ~((sep | close) << 1 | c->after)) != 0)
		return 0;
	c->sep = sep;
	c->nl = nl & sep;
	c->inq = 0 - (in >> 63);	/* all ones inside a quote */
	c->after = (sep | close) >> 63;
	return 1;
}

static char slow_mark;
#define SLOW	(&slow_mark)

/*
 * The fields of the record at P from the blocks: the byte after it, NULL
 * when the buffer ends first, SLOW for the byte scanner.  A record that
 * starts where the last one ended goes on in the last one's block.
 */
static char *
scan_blocks(struct csv *c, char *p, char *lim, int eof)
{
	size_t nf = 0;

	if (!c->have) {
		c->blk = p - c->buf;
		c->inq = 0;
		c->after = 1;
		c->have = 1;
		if (p >= lim)
			return c->have = 0, NULL;
		if (!load(c, lim))
			return c->have = 0, SLOW;
	}
	room(c, BLOCK + 1);
	for (;;) {
		char *base = c->buf + c->blk;
		uint64_t s = c->sep;

		if (c->nl != 0) {	/* the record ends in this block */
			uint64_t upto = (c->nl & -c->nl) - 1;

			s &= upto;
			c->sep &= ~upto;
			for (; s != 0; s &= s - 1)
				c->v.fend[nf++] = base + __builtin_ctzll(s);
			c->v.fend[nf++] = base + __builtin_ctzll(c->sep);
			c->sep &= c->sep - 1;
			c->nl &= c->nl - 1;
			c->v.nf = nf;
			return c->v.fend[nf - 1] + 1;
		}
		for (; s != 0; s &= s - 1)
			c->v.fend[nf++] = base + __builtin_ctzll(s);
		c->blk += BLOCK;
		if (c->buf + c->blk >= lim) {
			c->have = 0;
			if (!eof)
				return NULL;
			c->v.fend[nf++] = lim;
			c->v.nf = nf;
			return lim;
		}
		if (!load(c, lim))
			return c->have = 0, SLOW;
		room(c, nf + BLOCK + 1);
	}
}

/*
 * Terminate field I (from A to E), unquoting it.  ESC: the record has a
 * doubled quote somewhere, or -1 to look in this field.
 */
static inline void
cut_one(struct csv *c, size_t i, char *a, char *e, int esc)
{
	if (i + 1 == c->v.nf && e > a && e[-1] == '\r')
		e--;
	if (a < e && *a == '"') {
		char *close = e;

		while (close > a + 1 && close[-1] != '"')
			close--;
		if (esc < 0)
			esc = close - 1 > a + 1 &&
			    memchr(a + 1, '"', close - 1 - (a + 1)) != NULL;
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
			c->f[i] = a;
			c->len[i] = (size_t)(w - a);
			return;
		}
		if (close > a + 1) {
			memmove(a, a + 1, close - 2 - a);
			memmove(close - 2, close, e - close);
			e -= 2;
		} else
			a++;	/* an unterminated quote: keep the rest */
	}
	*e = '\0';
	c->f[i] = a;
	c->len[i] = (size_t)(e - a);
}

/* Terminate and unquote every field of the record at REC. */
static void
cut(struct csv *c, char *rec, int esc)
{
	for (size_t i = 0; i < c->v.nf; i++)
		cut_one(c, i, i ? c->v.fend[i - 1] + 1 : rec, c->v.fend[i], esc);
}

static int
next_record(struct csv *c, char ***fields, size_t *nfields, char **why)
{
	char *p, *e, *lim;
	int esc = -1;

	for (;;) {
		if (c->beg >= c->end && c->eof)
			return 0;
		p = c->buf + c->beg;
		lim = c->buf + c->end;
		e = c->slow ? SLOW : scan_blocks(c, p, lim, c->eof);
		if (e == SLOW && (e = scan_bytes(c, p, lim, c->eof, &esc)) != NULL)
			c->nslow++;
		if (e != NULL)
			break;
		if (fill(c) < 0) {
			*why = xasprintf("%s: %s", c->path, strerror(errno));
			return -1;
		}
	}
	c->beg = e - c->buf;
	c->v.line++;
	c->v.rec = p;
	c->esc = esc;
	if (!c->spans)
		cut(c, p, esc);
	*fields = c->spans ? NULL : c->f;	/* spans: csv_span() reads */
	*nfields = c->v.nf;
	return 1;
}

/*
 * A record of more or fewer fields than the header: which field is which
 * cannot be told (a comma too many shifts every field after it), so it
 * is skipped and counted.  Not the header, nor a blank line, nor a last
 * record cut short, which csv_cut_short() names.
 */
static int
ragged(struct csv *c)
{
	if (c->nhead == 0 || c->v.nf == c->nhead)
		return 0;
	if (c->v.nf == 1) {
		size_t n;

		if (c->spans)
			csv_span(c, 0, &n);
		else
			n = strlen(c->f[0]);
		if (n == 0)
			return 0;	/* a blank line */
	}
	if (csv_cut_short(c))
		return 0;
	if (c->nragged++ == 0) {
		c->ragged_line = c->v.line;
		c->ragged_nf = c->v.nf;
	}
	return 1;
}

int
csv_next(struct csv *c, char ***fields, size_t *nfields, char **why)
{
	int rc;

	while ((rc = next_record(c, fields, nfields, why)) > 0 && ragged(c))
		continue;
	return rc;
}

unsigned long
csv_ragged(const struct csv *c, unsigned long *line, size_t *nf)
{
	*line = c->ragged_line;
	*nf = c->ragged_nf;
	return c->nragged;
}

void
csv_bytewise(struct csv *c)
{
	c->slow = 1;
}


unsigned long
csv_bytewise_records(const struct csv *c)
{
	return c->nslow;
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
	if ((c->fd = open_regular(path)) < 0) {
		*why = xasprintf("%s: %s", path, read_error(errno));
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
csv_spans(struct csv *c)
{
	c->spans = 1;
}

const char *
csv_span_cut(struct csv *c, int i, size_t *n)
{
	char *a = i > 0 ? c->v.fend[i - 1] + 1 : c->v.rec;

	if (c->v.cutat[i] != c->v.line) {	/* unquote once */
		cut_one(c, (size_t)i, a, c->v.fend[i], c->esc);
		c->v.cutat[i] = c->v.line;
	}
	*n = c->len[i];
	return c->f[i];
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

const char *
csv_open_reason(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && st.st_size == 0 ? N_("empty") :
	    N_("cannot be read");
}

int
csv_cut_short(const struct csv *c)
{
	return c->eof && c->beg >= c->end && c->last != '\n' &&
	    c->v.line > 1 && c->v.nf < c->nhead;
}

unsigned long
csv_line(const struct csv *c)
{
	return c->v.line;
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
	free(c->v.fend);
	free(c->len);
	free(c->v.cutat);
	free(c->buf);
	free(c->path);
	free(c);
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

/* Blanks, a sign, more than 15 digits, exponents, "nan": strtod's. */
static double
general_num(const char *s)
{
	const char *p, *d;
	unsigned long long m = 0;
	int digits, frac = 0, neg = 0;

	while (*s == ' ' || *s == '\t')
		s++;
	p = s;
	if (*p == '-' || *p == '+')
		neg = *p++ == '-';
	for (d = p; (unsigned)(*p - '0') < 10; p++)
		m = m * 10 + (unsigned)(*p - '0');
	digits = (int)(p - d);
	if (*p == '.') {
		for (d = ++p; (unsigned)(*p - '0') < 10; p++)
			m = m * 10 + (unsigned)(*p - '0');
		frac = (int)(p - d);
		digits += frac;
	}
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p != '\0' || digits == 0 || digits > 15)
		return *s == '\0' ? NAN : slow_num(s);
	return (neg ? -1.0 : 1.0) * ((double)m / exact10[frac]);
}

/*
 * The profiler's numbers are almost all bare "DIGITS[.DIGITS]": read
 * those in one pass, and leave every other form to general_num.
 */
double
csv_num(const char *s)
{
	const unsigned char *p = (const unsigned char *)s, *f;
	unsigned long long m = 0;
	unsigned d;

	for (; (d = *p - '0') < 10; p++)
		m = m * 10 + d;
	if (*p == '\0' && p > (const unsigned char *)s &&
	    p - (const unsigned char *)s <= 15)
		return (double)m;
	if (*p != '.' || p == (const unsigned char *)s)
		return general_num(s);
	for (f = ++p; (d = *p - '0') < 10; p++)
		m = m * 10 + d;
	if (*p != '\0' || p - (const unsigned char *)s > 16)
		return general_num(s);
	return (double)m / exact10[p - f];
}

double
csv_numn(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + n, *f;
	unsigned long long m = 0;
	unsigned d;
	char buf[64];

	for (; p < end && (d = *p - '0') < 10; p++)
		m = m * 10 + d;
	if (p == end && n > 0 && n <= 15)
		return (double)m;
	if (p < end && *p == '.' && p > (const unsigned char *)s && n <= 16) {
		for (f = ++p; p < end && (d = *p - '0') < 10; p++)
			m = m * 10 + d;
		if (p == end)
			return (double)m / exact10[p - f];
	}
	if (n == 0)
		return NAN;
	if (n >= sizeof(buf)) {		/* a long run of zeros, say */
		char *t = xstrndup(s, n);
		double v = general_num(t);

		free(t);
		return v;
	}
	memcpy(buf, s, n);
	buf[n] = '\0';
	return general_num(buf);
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
