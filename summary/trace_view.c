/*
 * trace_view.json, the text export's timeline (Chrome's trace format: an
 * array of events, or an object whose "traceEvents" is that array), read
 * in one pass: each event object is read where it lies in the read
 * buffer, its args with it (the bytes of its strings passed over sixteen
 * at a time, as a call stack is most of a level1 file), and its few
 * members taken in place are handed to the fold (timeline.h); only an
 * event the buffer ends inside is delimited whole first, after reading
 * more.  Nothing else is kept.  Memory is the buffer, which holds one event at
 * least (TV_MAX_EVENT at most: a longer event stops the reading), and one
 * event's name, category and call stack: never the file.
 *
 * An event is a device task when its args have "Task Type" (the Ascend
 * Hardware track); otherwise it is the host's (the Python track's
 * operators and functions with "cat", CANN's "AscendCL@..." calls).
 * torch_npu writes "ts" as a string of microseconds with three decimals
 * ("1736408883725111.460"), which is read exactly to the nanosecond;
 * "ts" and "dur" as numbers are read as well.  Only complete events
 * ("ph": "X") count.  The members of an event and of its args are
 * checked as JSON; what is nested deeper is only delimited (its strings
 * and brackets), as nothing is read from it.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "common/util.h"
#include "timeline.h"

#define TV_CHUNK	(1 << 20)	/* read(2) at a time */
#define TV_MAX_EVENT	(4 << 20)	/* the longest event read */
#define TV_MAX_DEPTH	512
/*
 * Bytes kept past the buffer's end, zero: a scan reads sixteen bytes at
 * a time and may look past the end of what it scans (never past these)
 */
#define TV_PAD		64

struct text {
	char	*s;
	size_t	 cap;
};

struct event {
	struct text	 name, cat, stack;
	char		 ph;
	int		 task;		/* args has "Task Type" */
	int		 has_ts;
	int64_t		 ts, dur;
	long long	 tid;
};

struct tv {
	const char	*path;
	int		 fd;
	char		*buf;		/* buf[end] is always '\0' */
	size_t		 cap, pos, end;
	long long	 off;		/* the file offset of buf[0] */
	int		 eof;
	/* an event read before it is known whole: no error said */
	int		 quiet, failed;
	const char	*reason;
	char		*why;
};

/* Stop at an error: REASON (N_(), to group files by) and the message. */
static int __attribute__((format(printf, 3, 4)))
tv_fail(struct tv *tv, const char *reason, const char *fmt, ...)
{
	va_list ap;
	char *m;

	tv->failed = 1;
	if (tv->why != NULL || tv->quiet)
		return -1;
	tv->reason = reason;
	va_start(ap, fmt);
	if (vasprintf(&m, fmt, ap) < 0)
		m = NULL;
	va_end(ap);
	tv->why = xasprintf("%s: %s", tv->path, m != NULL ? m : "");
	free(m);
	return -1;
}

/* The file ends inside something: MSG says what. */
static int
cut(struct tv *tv, const char *msg)
{
	return tv_fail(tv, N_("cut short"), "%s", msg);
}

static long long
at(const struct tv *tv, const char *p)
{
	return tv->off + (p - tv->buf);
}

static int
not_json(struct tv *tv, const char *p)
{
	return tv_fail(tv, N_("not JSON"), _("not JSON at byte %lld"),
	    at(tv, p));
}

/* Keep the bytes from POS on and read more after them: 1, 0 at the end. */
static int
fill(struct tv *tv)
{
	ssize_t n;

	if (tv->eof)
		return 0;
	if (tv->pos > 0) {
		memmove(tv->buf, tv->buf + tv->pos, tv->end - tv->pos);
		tv->off += (long long)tv->pos;
		tv->end -= tv->pos;
		tv->pos = 0;
	}
	if (tv->cap - tv->end < TV_CHUNK / 2) {
		if (tv->end > TV_MAX_EVENT)
			return tv_fail(tv, N_("an event too long"),
			    _("an event longer than %d bytes at byte %lld"),
			    TV_MAX_EVENT, tv->off);
		tv->cap += TV_CHUNK;
		tv->buf = xreallocarray(tv->buf, tv->cap + TV_PAD, 1);
	}
	do
		n = read(tv->fd, tv->buf + tv->end, tv->cap - tv->end);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return tv_fail(tv, N_("cannot be read"), "%s",
		    i18n_strerror(errno));
	tv->end += (size_t)n;
	memset(tv->buf + tv->end, 0, TV_PAD);
	if (n == 0)
		tv->eof = 1;
	return n > 0;
}

static inline const char *
ws(const char *p, const char *e)
{
	/* the most often: no blank, or one space (after ':' and ',') */
	if (p < e && (unsigned char)*p > ' ')
		return p;
	if (p < e && *p == ' ' && (unsigned char)p[1] > ' ')
		return p + 1;	/* p[1]: at most the buffer's padding */
	while (p < e && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t'))
		p++;
	return p;
}

/*
 * The first '"' from P before E, or E: sixteen bytes at a time with SSE2
 * (P and E in the read buffer, whose padding the last load may read),
 * else eight at a time in a word.
 */
static inline const char *
quote(const char *p, const char *e)
{
#if defined(__SSE2__)
	const __m128i q = _mm_set1_epi8('"');

	for (; p < e; p += 16) {
		unsigned m = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(
		    _mm_loadu_si128((const __m128i *)p), q));

		if (m != 0)
			return p + __builtin_ctz(m) < e ? p + __builtin_ctz(m) :
			    e;
	}
	return e;
#else
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	const uint64_t q = 0x2222222222222222ULL, one = 0x0101010101010101ULL;
	const uint64_t high = 0x8080808080808080ULL;
	uint64_t w, m;

	while (e - p >= 8) {
		memcpy(&w, p, 8);
		w ^= q;
		/* the lowest byte found is exact: no borrow reaches below it */
		if ((m = (w - one) & ~w & high) != 0)
			return p + (__builtin_ctzll(m) >> 3);
		p += 8;
	}
#endif
	while (p < e && *p != '"')
		p++;
	return p;
#endif
}

/*
 * After the string whose first byte is P (past its quote), or NULL: its
 * quote found sixteen bytes (or eight) at a time, a call stack's
 * kilobytes as a key's few bytes.
 */
static inline const char *
string_end(const char *p, const char *e)
{
	const char *q, *b;

	for (;; p = q + 1) {
		if ((q = quote(p, e)) == e)
			return NULL;
		for (b = q; b > p && b[-1] == '\\'; b--)
			;
		if ((q - b) % 2 == 0)
			return q + 1;
	}
}

/*
 * After the object or array at P ('{' or '['), its strings passed over:
 * the end, NULL when E comes first (*DEEP: nested too deep).
 */
static const char *
value_end(const char *p, const char *e, int *deep)
{
	int depth = 0;

	*deep = 0;
	while (p < e) {
		switch (*p) {
		case '"':
			if ((p = string_end(p + 1, e)) == NULL)
				return NULL;
			continue;
		case '{':
		case '[':
			if (++depth > TV_MAX_DEPTH) {
				*deep = 1;
				return NULL;
			}
			break;
		case '}':
		case ']':
			if (--depth == 0)
				return p + 1;
			break;
		}
		p++;
	}
	return NULL;
}

static int
hex4(const char *s, unsigned *v)
{
	int i;

	*v = 0;
	for (i = 0; i < 4; i++) {
		int c = (unsigned char)s[i];

		if (c >= '0' && c <= '9')
			c -= '0';
		else if (c >= 'a' && c <= 'f')
			c -= 'a' - 10;
		else if (c >= 'A' && c <= 'F')
			c -= 'A' - 10;
		else
			return -1;
		*v = *v << 4 | (unsigned)c;
	}
	return 0;
}

/* The string between S and E (its quotes left out), unescaped, into T. */
static void
unescape(struct text *t, const char *s, const char *e)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	char *o;
	const char *x, *bs;
	unsigned u;

	if ((size_t)(e - s) + 1 > t->cap) {
		t->cap = (size_t)(e - s) + 64;
		t->s = xreallocarray(t->s, t->cap, 1);
	}
	for (o = t->s; s < e; ) {
		if ((bs = memchr(s, '\\', e - s)) == NULL)
			bs = e;
		memcpy(o, s, bs - s);
		o += bs - s;
		if ((s = bs) >= e)
			break;
		if (s + 1 >= e) {
			*o++ = *s++;
			continue;
		}
		if ((x = strchr(from, s[1])) != NULL && s[1] != '\0') {
			*o++ = to[x - from];
			s += 2;
		} else if (s[1] == 'u' && e - s >= 6 && hex4(s + 2, &u) == 0 &&
		    u < 0x800 && u != 0) {
			/* at most 6 bytes in, 2 out */
			if (u < 0x80)
				*o++ = (char)u;
			else {
				*o++ = (char)(0xc0 | u >> 6);
				*o++ = (char)(0x80 | (u & 0x3f));
			}
			s += 6;
		} else
			*o++ = *s++;	/* kept as written */
	}
	*o = '\0';
}

/*
 * The eight digits at S as a number, into *V (little-endian words: the
 * first digit is the lowest byte): 0, or -1 when one is no digit.
 */
static int
eight_digits(const char *s, uint64_t *v)
{
	uint64_t w;

	memcpy(&w, s, 8);
	if ((w & 0xf0f0f0f0f0f0f0f0ULL) != 0x3030303030303030ULL ||
	    ((w + 0x0606060606060606ULL) & 0xf0f0f0f0f0f0f0f0ULL) !=
	    0x3030303030303030ULL)
		return -1;
	w -= 0x3030303030303030ULL;
	w = (w * 10 + (w >> 8)) & 0x00ff00ff00ff00ffULL;
	w = (w * 100 + (w >> 16)) & 0x0000ffff0000ffffULL;
	w = (w * 10000 + (w >> 32)) & 0xffffffffULL;
	*v = w;
	return 0;
}

#define US_LATEST	((INT64_MAX / 4 - 9) / 10000)

/*
 * torch_npu's own way, "1736408883725111.460" (sixteen digits, three
 * decimals), sixteen digits at a time: 0, or -1 (for us_text to read).
 */
static int
us_torch(const char *s, const char *e, int64_t *ns)
{
	uint64_t hi, lo, v;

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (e - s != 20 || s[16] != '.' || eight_digits(s, &hi) < 0 ||
	    eight_digits(s + 8, &lo) < 0 ||
	    s[17] < '0' || s[17] > '9' || s[18] < '0' || s[18] > '9' ||
	    s[19] < '0' || s[19] > '9')
		return -1;
	v = hi * 100000000 + lo;
	if (v / 10 > US_LATEST)
		return -1;	/* what us_text says no to */
	*ns = (int64_t)(v * 1000 + (uint64_t)(s[17] - '0') * 100 +
	    (uint64_t)(s[18] - '0') * 10 + (uint64_t)(s[19] - '0'));
	return 0;
#else
	return -1;
#endif
}

/* Microseconds as text, "123.456", into nanoseconds exactly: 0, or -1. */
static int
us_text(const char *s, const char *e, int64_t *ns)
{
	int64_t v = 0, f = 0;
	int neg = 0, n = 0, digits = 0;

	if (us_torch(s, e, ns) == 0)
		return 0;

	s = ws(s, e);
	if (s < e && (*s == '-' || *s == '+'))
		neg = *s++ == '-';
	for (; s < e && *s >= '0' && *s <= '9'; s++, digits++) {
		if (v > US_LATEST)
			return -1;	/* no clock is this late */
		v = v * 10 + (*s - '0');
	}
	if (s < e && *s == '.')
		for (s++; s < e && *s >= '0' && *s <= '9'; s++, digits++)
			if (n < 3) {
				f = f * 10 + (*s - '0');
				n++;
			}
	if (ws(s, e) != e || digits == 0)
		return -1;
	for (; n < 3; n++)
		f *= 10;
	*ns = (v * 1000 + f) * (neg ? -1 : 1);
	return 0;
}

/*
 * A number of microseconds written plainly ("-12.345": at most twelve
 * digits, three decimals) into nanoseconds: 0, or -1 for any other.  It is
 * what strtod and rounding give, sooner: below 2^53 ns the double nearest
 * the number, times 1000, is within half a nanosecond of it.
 */
static int
us_plain(const char *v, const char *ve, int64_t *ns)
{
	int64_t x = 0;
	int neg = *v == '-', n, f;

	v += neg;
	for (n = 0; v < ve && *v >= '0' && *v <= '9'; v++, n++)
		x = x * 10 + (*v - '0');
	if (n == 0 || n > 12)
		return -1;
	f = 0;
	if (v < ve && *v == '.')
		for (v++; v < ve && *v >= '0' && *v <= '9'; v++, f++)
			x = x * 10 + (*v - '0');
	if (v != ve || f > 3 || (f == 0 && v[-1] == '.'))
		return -1;
	for (; f < 3; f++)
		x *= 10;
	*ns = neg ? -x : x;
	return 0;
}

/* A time, a string or a number of microseconds: 0 and *NS, or -1. */
static int
time_of(const char *v, const char *ve, int64_t *ns)
{
	char *end;
	double d;

	if (*v == '"')
		return us_text(v + 1, ve - 1, ns);
	if (us_plain(v, ve, ns) == 0)
		return 0;
	d = strtod(v, &end);
	if (end != ve || !isfinite(d) || fabs(d) > 1e18)
		return -1;
	*ns = llround(d * 1000);
	return 0;
}

/* A thread's id: strtoll's, sooner for the plain ones (up to 18 digits). */
static long long
id_of(const char *v)
{
	long long x = 0;
	int n;

	for (n = 0; n < 18 && *v >= '0' && *v <= '9'; v++, n++)
		x = x * 10 + (*v - '0');
	if (n == 0 || (*v >= '0' && *v <= '9'))
		return strtoll(v - n, NULL, 10);
	return x;
}

static int
key_is(const char *k, size_t n, const char *want)
{
	return strlen(want) == n && memcmp(k, want, n) == 0;
}

/* A literal ends at a blank, a separator, or where value_end sees a value. */
static const unsigned char ends_literal[256] = {
	[','] = 1, ['}'] = 1, [' '] = 1, ['\n'] = 1, ['\r'] = 1, ['\t'] = 1,
	['"'] = 1, ['{'] = 1, ['['] = 1, [']'] = 1,
};

typedef int member_fn(struct tv *, const char *, size_t, const char *,
    const char *, void *);

/*
 * The members of the object at P (up to E at most): for each, its key (K,
 * N bytes) and its value (V up to VE) to MEMBER; an object under the key
 * "args" to ARGS instead, when not NULL, read in the same pass (not first
 * delimited, then read: its call stack is most of the bytes).  0 and *END
 * past the object's '}', or -1.
 */
static int
members(struct tv *tv, const char *p, const char *e, member_fn *member,
    member_fn *args, void *arg, const char **end)
{
	const char *k, *ke, *v, *ve;
	int deep;

	p = ws(p + 1, e);
	if (p < e && *p == '}') {
		*end = p + 1;
		return 0;
	}
	for (;;) {
		if (p >= e || *p != '"' || (ke = string_end(p + 1, e)) == NULL)
			return not_json(tv, p);
		k = p + 1;
		p = ws(ke, e);
		if (p >= e || *p != ':')
			return not_json(tv, p);
		v = ws(p + 1, e);
		if (v >= e)
			return not_json(tv, v);
		if (*v == '{' && args != NULL && key_is(k, (size_t)(ke - 1 - k),
		    "args")) {
			if (members(tv, v, e, args, NULL, arg, &ve) < 0)
				return -1;
			goto next;
		}
		if (*v == '"')
			ve = string_end(v + 1, e);
		else if (*v == '{' || *v == '[')
			ve = value_end(v, e, &deep);
		else
			for (ve = v; ve < e && !ends_literal[(unsigned char)*ve];
			    ve++)
				;
		if (ve == NULL || ve == v)
			return not_json(tv, v);
		if (member(tv, k, (size_t)(ke - 1 - k), v, ve, arg) < 0)
			return -1;
next:
		p = ws(ve, e);
		if (p < e && *p == '}') {
			*end = p + 1;
			return 0;
		}
		if (p >= e || *p != ',')
			return not_json(tv, p);
		p = ws(p + 1, e);
	}
}

static int
arg_member(struct tv *tv, const char *k, size_t n, const char *v,
    const char *ve, void *arg)
{
	struct event *ev = arg;

	if (key_is(k, n, "Call stack") && *v == '"')
		unescape(&ev->stack, v + 1, ve - 1);
	else if (key_is(k, n, "Task Type"))
		ev->task = 1;
	return 0;
}

static int
event_member(struct tv *tv, const char *k, size_t n, const char *v,
    const char *ve, void *arg)
{
	struct event *ev = arg;

	switch (n > 0 ? k[0] : 0) {
	case 'p':
		if (key_is(k, n, "ph") && *v == '"')
			ev->ph = v[1];
		break;
	case 'n':
		if (key_is(k, n, "name") && *v == '"')
			unescape(&ev->name, v + 1, ve - 1);
		break;
	case 'c':
		if (key_is(k, n, "cat") && *v == '"')
			unescape(&ev->cat, v + 1, ve - 1);
		break;
	case 't':
		if (key_is(k, n, "ts"))
			ev->has_ts = time_of(v, ve, &ev->ts) == 0;
		else if (key_is(k, n, "tid"))
			ev->tid = id_of(*v == '"' ? v + 1 : v);
		break;
	case 'd':
		if (key_is(k, n, "dur") && time_of(v, ve, &ev->dur) < 0)
			ev->dur = -1;
		break;
	}
	return 0;
}

static void
hand_over(struct timeline *t, const struct event *e)
{
	struct tl_host h;

	if (e->ph != 'X' || !e->has_ts || e->dur < 0)
		return;
	if (e->task) {
		tl_task(t, e->ts, e->ts + e->dur);
		return;
	}
	h.name = e->name.s;
	h.cat = e->cat.s;
	h.tid = e->tid;
	h.a = e->ts;
	h.b = e->ts + e->dur;
	h.stack = e->stack.s;
	tl_host(t, &h);
}

/*
 * The value at POS whole in the buffer (reading more as needed): its end,
 * or NULL (the error said).
 */
static const char *
whole(struct tv *tv)
{
	const char *e;
	int deep, r;

	for (;;) {
		e = value_end(tv->buf + tv->pos, tv->buf + tv->end, &deep);
		if (e != NULL)
			return e;
		if (deep) {
			tv_fail(tv, N_("nested too deep"), _("nested more than "
			    "%d levels deep at byte %lld"), TV_MAX_DEPTH,
			    at(tv, tv->buf + tv->pos));
			return NULL;
		}
		if ((r = fill(tv)) < 0)
			return NULL;
		if (r == 0) {
			cut(tv, _("cut short: the file ends inside an "
			    "event"));
			return NULL;
		}
	}
}

/* The next byte that is no blank, read as needed: -1 at the end. */
static int
next(struct tv *tv)
{
	for (;;) {
		tv->pos = (size_t)(ws(tv->buf + tv->pos, tv->buf + tv->end) -
		    tv->buf);
		if (tv->pos < tv->end)
			return (unsigned char)tv->buf[tv->pos];
		if (fill(tv) <= 0)
			return -1;
	}
}

static void
event_reset(struct event *ev)
{
	ev->ph = 0;
	ev->task = ev->has_ts = 0;
	ev->dur = 0;
	ev->tid = 0;
	ev->name.s[0] = ev->cat.s[0] = ev->stack.s[0] = '\0';
}

/*
 * The event at POS: read where it lies in the buffer, quietly; when that
 * fails (the buffer ends inside it, or it is damaged), made whole first
 * and read again, its error said.
 */
static int
event(struct tv *tv, struct timeline *t, struct event *ev)
{
	const char *e;

	event_reset(ev);
	tv->quiet = 1;
	tv->failed = 0;
	if (members(tv, tv->buf + tv->pos, tv->buf + tv->end, event_member,
	    arg_member, ev, &e) < 0) {
		tv->quiet = 0;
		event_reset(ev);
		if (whole(tv) == NULL || members(tv, tv->buf + tv->pos,
		    tv->buf + tv->end, event_member, arg_member, ev, &e) < 0)
			return -1;
	}
	tv->quiet = 0;
	tv->pos = (size_t)(e - tv->buf);
	hand_over(t, ev);
	return 0;
}

/* The string at POS whole in the buffer: its end, or NULL. */
static const char *
whole_string(struct tv *tv)
{
	const char *e;
	int r;

	for (;;) {
		e = string_end(tv->buf + tv->pos + 1, tv->buf + tv->end);
		if (e != NULL)
			return e;
		if ((r = fill(tv)) <= 0) {
			if (r == 0)
				cut(tv, _("cut short: the file ends "
				    "inside a string"));
			return NULL;
		}
		if (tv->end > TV_MAX_EVENT) {
			tv_fail(tv, N_("a string too long"), _("a string "
			    "longer than %d bytes at byte %lld"), TV_MAX_EVENT,
			    tv->off);
			return NULL;
		}
	}
}

/* Past the value at POS (a member of the document's object): 0, or -1. */
static int
skip_value(struct tv *tv)
{
	const char *e;
	int c = next(tv);

	if (c == '{' || c == '[')
		e = whole(tv);
	else if (c == '"')
		e = whole_string(tv);
	else if (c < 0)
		return cut(tv, _("cut short: the file ends inside "
		    "a value"));
	else {
		for (;;) {
			for (e = tv->buf + tv->pos; e < tv->buf + tv->end &&
			    strchr(",}] \n\r\t", *e) == NULL; e++)
				;
			if (e < tv->buf + tv->end || fill(tv) <= 0)
				break;
		}
		if (e == tv->buf + tv->pos)
			return not_json(tv, e);
	}
	if (e == NULL)
		return -1;
	tv->pos = (size_t)(e - tv->buf);
	return 0;
}

/* What is at POS is not what should be: the file cut, or no JSON. */
static int
unexpected(struct tv *tv, int c)
{
	if (c < 0)
		return cut(tv, _("cut short: the file ends inside a "
		    "value"));
	return not_json(tv, tv->buf + tv->pos);
}

/*
 * The members of the document's object (POS past its '{'), up to the
 * array of "traceEvents" (then at POS: 1); AFTER that array, the rest of
 * them, to the object's end (0).
 */
static int
object_members(struct tv *tv, int after)
{
	static const char key[] = "\"traceEvents\"";
	int c, first = !after, events;

	for (;;) {
		if ((c = next(tv)) == '}') {
			tv->pos++;
			return after ? 0 : tv_fail(tv,
			    N_("not the JSON expected"), "%s",
			    _("no array of events"));
		}
		if (!first) {
			if (c != ',')
				return unexpected(tv, c);
			tv->pos++;
			c = next(tv);
		}
		first = 0;
		if (c != '"')
			return unexpected(tv, c);
		while (tv->end - tv->pos < sizeof(key) && fill(tv) > 0)
			;
		events = !after && strncmp(tv->buf + tv->pos, key,
		    sizeof(key) - 1) == 0;
		if (events)
			tv->pos += sizeof(key) - 1;
		else if (skip_value(tv) < 0)
			return -1;
		if ((c = next(tv)) != ':')
			return unexpected(tv, c);
		tv->pos++;
		if (events)
			return (c = next(tv)) == '[' ? 1 : unexpected(tv, c);
		if (skip_value(tv) < 0)
			return -1;
	}
}

int
trace_view_read(const char *path, struct timeline *t, char **why,
    const char **reason)
{
	struct tv tv = { 0 };
	struct event ev = { 0 };
	int c, in_object = 0, first = 1, r = -1;

	tv.path = path;
	*why = NULL;
	if ((tv.fd = open_regular(path)) < 0) {
		tv_fail(&tv, errno == EINVAL ? N_("not a regular file") :
		    N_("cannot be read"), "%s", read_error(errno));
		goto out;
	}
	unescape(&ev.name, "", "");
	unescape(&ev.cat, "", "");
	unescape(&ev.stack, "", "");
	if ((c = next(&tv)) < 0) {
		tv_fail(&tv, N_("empty"), "%s", tv.why ? "" : _("empty"));
		goto out;
	}
	if (c == '{') {
		tv.pos++;
		in_object = 1;
		if (object_members(&tv, 0) < 0)
			goto out;
	} else if (c != '[') {
		not_json(&tv, tv.buf + tv.pos);
		goto out;
	}
	tv.pos++;
	for (;;) {
		if ((c = next(&tv)) == ']')
			break;
		if (!first) {
			if (c != ',') {
				if (c < 0)
					cut(&tv, _("cut short: the "
					    "file ends inside the array of "
					    "events"));
				else
					not_json(&tv, tv.buf + tv.pos);
				goto out;
			}
			tv.pos++;
			c = next(&tv);
		}
		first = 0;
		if (c == '{') {
			if (event(&tv, t, &ev) < 0)
				goto out;
		} else if (c < 0 || skip_value(&tv) < 0) {
			if (c < 0)
				cut(&tv, _("cut short: the file ends "
				    "inside the array of events"));
			goto out;
		}
	}
	tv.pos++;
	if (in_object && object_members(&tv, 1) < 0)
		goto out;
	if (next(&tv) >= 0)
		not_json(&tv, tv.buf + tv.pos);
	else if (tv.why == NULL)
		r = 0;
out:
	if (tv.fd >= 0)
		close(tv.fd);
	free(tv.buf);
	free(ev.name.s);
	free(ev.cat.s);
	free(ev.stack.s);
	*why = tv.why;
	*reason = tv.reason != NULL ? tv.reason : N_("not JSON");
	return r;
}
