/* The JSON reader that takes only what is asked for (see jscan.h). */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/util.h"
#include "csv.h"
#include "jscan.h"

#define JS_BUF	(64 * 1024)	/* also the longest number */

const char *
js_reason(enum js_err e)
{
	switch (e) {
	case JS_NOT_REGULAR:	return N_("not a regular file");
	case JS_UNREADABLE:	return N_("cannot be read");
	case JS_EMPTY:		return N_("empty");
	case JS_CUT_SHORT:	return N_("cut short");
	case JS_NOT_JSON:	return N_("not JSON");
	case JS_TOO_DEEP:	return N_("nested too deep");
	case JS_TOO_LONG:	return N_("a string too long");
	case JS_WRONG_TYPE:	return N_("wrong type in a field");
	case JS_OK:		break;
	}
	return "";
}

/* The line and column of file offset AT, read again from the start. */
static void
position(const struct jscan *js, long long at, unsigned long *line,
    unsigned long *col)
{
	char b[8192];
	long long o = 0;
	ssize_t n;

	*line = 1;
	*col = 1;
	while (o < at && (n = pread(js->fd, b, sizeof(b), o)) > 0) {
		for (ssize_t i = 0; i < n && o < at; i++, o++)
			if (b[i] == '\n')
				++*line, *col = 1;
			else
				++*col;
	}
}

/* Keep the first error, with where it is when AT_POS; always -1. */
static int __attribute__((format(printf, 3, 4)))
fail(struct jscan *js, enum js_err e, const char *fmt, ...)
{
	unsigned long line, col;
	va_list ap;
	char *what;

	if (js->err != JS_OK)
		return -1;
	js->err = e;
	js->errnum = errno;
	va_start(ap, fmt);
	if (vasprintf(&what, fmt, ap) < 0)
		what = NULL;
	va_end(ap);
	if (e == JS_NOT_REGULAR || e == JS_UNREADABLE || e == JS_EMPTY)
		js->why = xasprintf("%s: %s", js->path, what ? what : "");
	else {
		position(js, js->off + (long long)js->pos, &line, &col);
		js->why = xasprintf("%s:%lu:%lu: %s", js->path, line, col,
		    what ? what : "");
	}
	free(what);
	return -1;
}

static int
cut_short(struct jscan *js)
{
	if (!js->started)
		return fail(js, JS_EMPTY, "%s", _("empty"));
	return fail(js, JS_CUT_SHORT, "%s", _("cut short: the file ends "
	    "inside a value"));
}

static int
not_json(struct jscan *js, const char *want)
{
	unsigned char c = (unsigned char)js->buf[js->pos];

	if (c >= 0x20 && c < 0x7f)
		return fail(js, JS_NOT_JSON, _("not JSON: '%c' where %s "
		    "should be"), c, want);
	return fail(js, JS_NOT_JSON, _("not JSON: byte 0x%02x where %s "
	    "should be"), c, want);
}

/*
 * Keep the bytes from POS on and read more after them: 1, 0 at the end
 * of the file, -1 on an error.
 */
static int
fill(struct jscan *js)
{
	ssize_t n;

	if (js->eof)
		return 0;
	if (js->pos > 0) {
		memmove(js->buf, js->buf + js->pos, js->end - js->pos);
		js->off += (long long)js->pos;
		js->end -= js->pos;
		js->pos = 0;
	}
	if (js->end == js->cap && js->cap < JS_BUF) {
		/* the file has grown since it was opened */
		js->cap = JS_BUF;
		js->buf = xreallocarray(js->buf, js->cap + 1, 1);
	}
	if (js->end == js->cap)
		return fail(js, JS_TOO_LONG, _("a number longer than %d "
		    "bytes"), JS_BUF);
	do
		n = read(js->fd, js->buf + js->end, js->cap - js->end);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return fail(js, JS_UNREADABLE, "%s", i18n_strerror(errno));
	js->end += (size_t)n;
	js->buf[js->end] = '\0';
	/* all that fstat counted is read: no read(2) just to see the end */
	if (n == 0 || js->off + (long long)js->end >= js->size)
		js->eof = 1;
	return n > 0;
}

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* The high bit of each byte of Y that is not zero (exact: no carries). */
static inline uint64_t
nonzero(uint64_t y)
{
	const uint64_t low7 = 0x7f7f7f7f7f7f7f7fULL;

	return (((y & low7) + low7) | y) & ~low7;
}

/*
 * Past the spaces and newlines at P, eight bytes at a time: indented
 * files are mostly blanks.  Tabs and CRs are left to the byte loop.
 */
static const char *
blanks(const char *p, const char *lim)
{
	const uint64_t sp = 0x2020202020202020ULL, nl = 0x0a0a0a0a0a0a0a0aULL;
	uint64_t w, m;

	while (lim - p >= 8) {
		memcpy(&w, p, 8);
		if ((m = nonzero(w ^ sp) & nonzero(w ^ nl)) != 0)
			return p + (__builtin_ctzll(m) >> 3);
		p += 8;
	}
	return p;
}

/*
 * Past the bytes of a string that need nothing done, eight at a time: up
 * to a quote, a backslash or a control character.
 */
static const unsigned char *
plain(const unsigned char *p, const unsigned char *lim)
{
	const uint64_t q = 0x2222222222222222ULL, bs = 0x5c5c5c5c5c5c5c5cULL;
	const uint64_t ctl = 0xe0e0e0e0e0e0e0e0ULL;
	uint64_t w, m;

	while (lim - p >= 8) {
		memcpy(&w, p, 8);
		m = ~(nonzero(w ^ q) & nonzero(w ^ bs) & nonzero(w & ctl)) &
		    ~0x7f7f7f7f7f7f7f7fULL;
		if (m != 0)
			return p + (__builtin_ctzll(m) >> 3);
		p += 8;
	}
	while (p < lim && *p != '"' && *p != '\\' && *p >= 0x20)
		p++;
	return p;
}
#else
static const char *
blanks(const char *p, const char *lim)
{
	return p;
}

static const unsigned char *
plain(const unsigned char *p, const unsigned char *lim)
{
	while (p < lim && *p != '"' && *p != '\\' && *p >= 0x20)
		p++;
	return p;
}
#endif

/* The next byte that is not a blank (not taken), or -1 at the end. */
static int
next(struct jscan *js)
{
	for (;;) {
		js->pos = (size_t)(blanks(js->buf + js->pos, js->buf +
		    js->end) - js->buf);
		while (js->pos < js->end) {
			char c = js->buf[js->pos];

			if (c != ' ' && c != '\n' && c != '\t' && c != '\r')
				return (unsigned char)c;
			js->pos++;
		}
		if (fill(js) <= 0)
			return -1;
	}
}

/* N bytes from POS in the buffer (fewer only at the end of the file). */
static size_t
need(struct jscan *js, size_t n)
{
	while (js->end - js->pos < n && fill(js) > 0)
		;
	return js->end - js->pos;
}

int
js_open(struct jscan *js, const char *path)
{
	struct stat st;

	memset(js, 0, sizeof(*js));
	js->path = path;
	if ((js->fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK |
	    O_NOCTTY)) < 0)
		return fail(js, JS_UNREADABLE, "%s", i18n_strerror(errno));
	if (fstat(js->fd, &st) < 0)
		return fail(js, JS_UNREADABLE, "%s", i18n_strerror(errno));
	if (!S_ISREG(st.st_mode))
		return fail(js, JS_NOT_REGULAR, "%s", _("not a regular file"));
	/* a small file in a buffer its size: fewer pages touched */
	js->size = st.st_size;
	js->cap = st.st_size < JS_BUF ? (size_t)st.st_size + 1 : JS_BUF;
	js->buf = xmalloc(js->cap + 1);
	js->buf[0] = '\0';
	return 0;
}

void
js_close(struct jscan *js)
{
	if (js->fd >= 0)
		close(js->fd);
	js->fd = -1;
	free(js->buf);
	free(js->key);
	free(js->str);
	free(js->why);
	js->buf = js->key = js->str = js->why = NULL;
}

enum js_err
js_error(const struct jscan *js)
{
	return js->err;
}

const char *
js_why(const struct jscan *js)
{
	return js->why;
}

/* Append N bytes to *DST (of *CAP), at *LEN; -1 past JS_MAX_TOKEN. */
static int
grow_put(struct jscan *js, char **dst, size_t *cap, size_t *len,
    const char *s, size_t n)
{
	if (*len + n + 1 > *cap) {
		size_t c = *cap ? *cap : 64;

		while (c < *len + n + 1)
			c *= 2;
		if (c > JS_MAX_TOKEN + 1) {
			if (*len + n > JS_MAX_TOKEN)
				return fail(js, JS_TOO_LONG, _("a key or string "
				    "longer than %d bytes"), JS_MAX_TOKEN);
			c = JS_MAX_TOKEN + 1;
		}
		*dst = xreallocarray(*dst, c, 1);
		*cap = c;
	}
	memcpy(*dst + *len, s, n);
	*len += n;
	(*dst)[*len] = '\0';
	return 0;
}

static int
hex4(const char *s, unsigned *v)
{
	*v = 0;
	for (int i = 0; i < 4; i++) {
		int c = (unsigned char)s[i], d;

		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			return -1;
		*v = *v << 4 | (unsigned)d;
	}
	return 0;
}

/* Code point U as UTF-8 into OUT; its length. */
static size_t
utf8_put(unsigned u, char *out)
{
	if (u < 0x80) {
		out[0] = (char)u;
		return 1;
	}
	if (u < 0x800) {
		out[0] = (char)(0xc0 | u >> 6);
		out[1] = (char)(0x80 | (u & 0x3f));
		return 2;
	}
	if (u < 0x10000) {
		out[0] = (char)(0xe0 | u >> 12);
		out[1] = (char)(0x80 | (u >> 6 & 0x3f));
		out[2] = (char)(0x80 | (u & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | u >> 18);
	out[1] = (char)(0x80 | (u >> 12 & 0x3f));
	out[2] = (char)(0x80 | (u >> 6 & 0x3f));
	out[3] = (char)(0x80 | (u & 0x3f));
	return 4;
}

/*
 * The escape at POS (after its backslash) into OUT: its length, or -1.
 * \udcXX (XX from 80) is the byte XX, as the files msprof-exec writes
 * carry bytes that are not UTF-8; a surrogate pair is one code point.
 */
static int
unescape(struct jscan *js, char out[4])
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const char *e;
	unsigned u, lo;

	if (need(js, 1) < 1)
		return cut_short(js);
	if ((e = strchr(from, js->buf[js->pos])) != NULL && *e != '\0') {
		js->pos++;
		out[0] = to[e - from];
		return 1;
	}
	if (js->buf[js->pos] != 'u')
		return not_json(js, _("an escape"));
	if (need(js, 5) < 5)
		return cut_short(js);
	if (hex4(js->buf + js->pos + 1, &u) < 0)
		return not_json(js, _("4 hexadecimal digits"));
	js->pos += 5;
	if (u >= 0xdc80 && u <= 0xdcff) {
		out[0] = (char)(u - 0xdc00);
		return 1;
	}
	if (u >= 0xd800 && u <= 0xdbff && need(js, 6) >= 6 &&
	    js->buf[js->pos] == '\\' && js->buf[js->pos + 1] == 'u' &&
	    hex4(js->buf + js->pos + 2, &lo) == 0 && lo >= 0xdc00 &&
	    lo <= 0xdfff) {
		js->pos += 6;
		u = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
	} else if (u >= 0xd800 && u <= 0xdfff)
		u = 0xfffd;	/* half a pair */
	return (int)utf8_put(u, out);
}

/*
 * The string at POS (its opening quote), into *DST unless DST is NULL
 * (skipped): 0, or -1.
 */
static int
string(struct jscan *js, char **dst, size_t *cap, size_t *len)
{
	*len = 0;
	if (dst != NULL && *dst == NULL) {
		*cap = 64;
		*dst = xmalloc(*cap);
	}
	if (dst != NULL)
		**dst = '\0';
	js->pos++;
	for (;;) {
		size_t a = js->pos;
		const unsigned char *p = (const unsigned char *)js->buf + a;
		const unsigned char *e = (const unsigned char *)js->buf + js->end;
		char esc[4];
		int n;

		p = plain(p, e);
		js->pos = (size_t)((const char *)p - js->buf);
		if (dst != NULL && grow_put(js, dst, cap, len, js->buf + a,
		    js->pos - a) < 0)
			return -1;
		if (p == e) {
			if (fill(js) <= 0)
				return js->err ? -1 : cut_short(js);
			continue;
		}
		if (*p == '"') {
			js->pos++;
			return 0;
		}
		if (*p < 0x20)
			return not_json(js, _("a character of a string"));
		js->pos++;
		if ((n = unescape(js, esc)) < 0)
			return -1;
		if (dst != NULL && grow_put(js, dst, cap, len, esc,
		    (size_t)n) < 0)
			return -1;
	}
}

static const char *
digits(const char *p)
{
	while (*p >= '0' && *p <= '9')
		p++;
	return p;
}

/*
 * Where the number at S ends (the buffer ends with a NUL); *OK is 0 when
 * what is there is not a number, up to the place returned.
 */
static const char *
number_end(const char *s, int *ok)
{
	const char *p = s + (*s == '-');

	*ok = 0;
	if (*p == '0')
		p++;
	else if (*p >= '1' && *p <= '9')
		p = digits(p);
	else
		return p;
	if (*p == '.') {
		if (*++p < '0' || *p > '9')
			return p;
		p = digits(p);
	}
	if (*p == 'e' || *p == 'E') {
		p += p[1] == '+' || p[1] == '-' ? 2 : 1;
		if (*p < '0' || *p > '9')
			return p;
		p = digits(p);
	}
	*ok = 1;
	return p;
}

/* The number at POS, whole in the buffer: its length, or -1. */
static long
number(struct jscan *js)
{
	const char *e;
	int ok;

	for (;;) {
		e = number_end(js->buf + js->pos, &ok);
		if (e < js->buf + js->end || js->eof)
			break;
		/* at the buffer's end it may go on: read more first */
		if (fill(js) < 0)
			return -1;
	}
	if (ok)
		return e - (js->buf + js->pos);
	if (e == js->buf + js->end)
		return cut_short(js);
	js->pos = (size_t)(e - js->buf);
	return not_json(js, _("a digit"));
}

/* true, false or null at POS. */
static int
literal(struct jscan *js, const char *word)
{
	size_t n = strlen(word), have = need(js, n);

	if (js->err)
		return -1;
	if (memcmp(js->buf + js->pos, word, have < n ? have : n) != 0)
		return not_json(js, _("a value"));
	if (have < n)
		return cut_short(js);
	js->pos += n;
	return 0;
}

int
js_peek(struct jscan *js)
{
	int c;

	if (js->err)
		return -1;
	if ((c = next(js)) < 0)
		return js->err ? -1 : cut_short(js);
	js->started = 1;
	if (c == '-' || (c >= '0' && c <= '9'))
		return '0';
	if (strchr("{[\"tfn", c) != NULL)
		return c;
	return not_json(js, _("a value"));
}

static const char *
type_name(int c)
{
	switch (c) {
	case '{':	return _("an object");
	case '[':	return _("an array");
	case '"':	return _("a string");
	case 't':
	case 'f':	return _("true or false");
	default:	return _("a number");
	}
}

/* FIELD is of type C, not W ('{', '[', '"' or '0'). */
static int
wrong_type(struct jscan *js, const char *field, int c, int w)
{
	if (field == NULL)
		return fail(js, JS_WRONG_TYPE, _("wrong type: the file is %s, "
		    "not %s"), type_name(c), type_name(w));
	return fail(js, JS_WRONG_TYPE, _("wrong type in a field: \"%s\" is "
	    "%s, not %s"), field, type_name(c), type_name(w));
}

static int
enter(struct jscan *js, int c)
{
	if (js->depth == JS_MAX_DEPTH)
		return fail(js, JS_TOO_DEEP, _("nested more than %d levels "
		    "deep"), JS_MAX_DEPTH);
	js->kind[js->depth++] = (unsigned char)c;
	js->pos++;
	js->first = 1;
	return 1;
}

/* Open C ('{' or '['), null (0) or another type (-1). */
static int
container(struct jscan *js, const char *field, int c)
{
	int t = js_peek(js);

	if (t < 0)
		return -1;
	if (t == c)
		return enter(js, c);
	if (t == 'n')
		return literal(js, "null");
	return wrong_type(js, field, t, c);
}

int
js_object(struct jscan *js, const char *field)
{
	return container(js, field, '{');
}

int
js_array(struct jscan *js, const char *field)
{
	return container(js, field, '[');
}

/* The innermost object or array ends at POS. */
static int
leave(struct jscan *js)
{
	js->depth--;
	js->pos++;
	js->first = 0;
	return 0;
}

/*
 * The separator before the next member of the innermost level (CLOSE its
 * end): 1 when a member follows, 0 at the end (left), -1.
 */
static int
member(struct jscan *js, int close)
{
	int c;

	if (js->err || js->depth == 0 || js->kind[js->depth - 1] !=
	    (close == '}' ? '{' : '['))
		return -1;
	if ((c = next(js)) < 0)
		return js->err ? -1 : cut_short(js);
	if (c == close)
		return leave(js);
	if (!js->first) {
		if (c != ',')
			return not_json(js, close == '}' ? _("',' or '}'") :
			    _("',' or ']'"));
		js->pos++;
	}
	js->first = 0;
	return 1;
}

/* The next key of an object, kept (KEEP) or only read past: 1, 0, -1. */
static int
key(struct jscan *js, int keep, size_t *len)
{
	int r = member(js, '}'), c;

	if (r <= 0)
		return r;
	if ((c = next(js)) < 0)
		return js->err ? -1 : cut_short(js);
	if (c != '"')
		return not_json(js, _("a key"));
	if (keep ? string(js, &js->key, &js->keycap, len) < 0 :
	    string(js, NULL, NULL, len) < 0)
		return -1;
	if ((c = next(js)) < 0)
		return js->err ? -1 : cut_short(js);
	if (c != ':')
		return not_json(js, "':'");
	js->pos++;
	return 1;
}

int
js_key(struct jscan *js, const char **k, size_t *len)
{
	int r = key(js, 1, len);

	if (r == 1)
		*k = js->key;
	return r;
}

int
js_item(struct jscan *js)
{
	return member(js, ']');
}

int
js_number(struct jscan *js, const char *field, double *v)
{
	int t = js_peek(js);
	long n;

	*v = NAN;
	if (t < 0)
		return -1;
	if (t == 'n')
		return literal(js, "null");
	if (t != '0')
		return wrong_type(js, field, t, '0');
	if ((n = number(js)) < 0)
		return -1;
	*v = csv_numn(js->buf + js->pos, (size_t)n);
	js->pos += (size_t)n;
	return 1;
}

int
js_string(struct jscan *js, const char *field, const char **s, size_t *len)
{
	int t = js_peek(js);

	if (t < 0)
		return -1;
	if (t == 'n')
		return literal(js, "null");
	if (t != '"')
		return wrong_type(js, field, t, '"');
	if (string(js, &js->str, &js->strcap, len) < 0)
		return -1;
	*s = js->str;
	return 1;
}

/* A scalar at POS (after js_peek said which). */
static int
scalar(struct jscan *js, int t)
{
	size_t n;
	long k;

	switch (t) {
	case '"':
		return string(js, NULL, NULL, &n);
	case 't':
		return literal(js, "true");
	case 'f':
		return literal(js, "false");
	case 'n':
		return literal(js, "null");
	default:
		if ((k = number(js)) < 0)
			return -1;
		js->pos += (size_t)k;
		return 0;
	}
}

/*
 * Iterative, not recursive: a value nested as deep as JS_MAX_DEPTH costs
 * no stack.
 */
int
js_skip(struct jscan *js)
{
	int base = js->depth, t, r;
	size_t n;

	for (;;) {
		if ((t = js_peek(js)) < 0)
			return -1;
		if (t == '{' || t == '[') {
			if (enter(js, t) < 0)
				return -1;
		} else if (scalar(js, t) < 0)
			return -1;
		/* the value just read or opened: find the next one to read */
		for (;;) {
			if (js->depth == base)
				return 1;
			r = js->kind[js->depth - 1] == '{' ? key(js, 0, &n) :
			    js_item(js);
			if (r < 0)
				return -1;
			if (r == 1)
				break;
		}
	}
}

int
js_finish(struct jscan *js)
{
	int c;

	if (js->err)
		return -1;
	if ((c = next(js)) >= 0)
		return not_json(js, _("the end of the file"));
	return js->err ? -1 : 1;
}
