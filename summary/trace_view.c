/*
 * trace_view.json, the text export's timeline (Chrome's trace format: an
 * array of events, or an object whose "traceEvents" is that array), read
 * in one pass with jscan: each complete event ("ph": "X") is handed to
 * the fold (timeline.h) as it ends, nothing else is kept.  Memory is the
 * reader's buffer, one event's name, category and call stack (each at
 * most JS_MAX_TOKEN), and the fold's bounds; never the file.
 *
 * An event is a device task when its args have "Task Type" (the Ascend
 * Hardware track); otherwise it is the host's (the Python track's
 * operators and functions with "cat", CANN's "AscendCL@..." calls).
 * torch_npu writes "ts" as a string of microseconds with three decimals
 * ("1736408883725111.460"), which is read exactly to the nanosecond;
 * "ts" and "dur" as numbers are read as well.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "jscan.h"
#include "timeline.h"

/* One event as it is read: its members come in any order. */
struct event {
	char	*name, *cat, *stack;
	size_t	 namecap, catcap, stackcap;
	char	 ph;
	int	 task;		/* args has "Task Type" */
	int	 has_ts;
	int64_t	 ts, dur;
	double	 tid;
};

static void
keep(char **dst, size_t *cap, const char *s, size_t n)
{
	if (n + 1 > *cap) {
		*cap = n + 1 > 64 ? n + 1 : 64;
		*dst = xreallocarray(*dst, *cap, 1);
	}
	memcpy(*dst, s, n);
	(*dst)[n] = '\0';
}

/*
 * Microseconds as torch_npu writes them, "123.456", into nanoseconds
 * exactly (digits past the third decimal are cut): 0, or -1.
 */
static int
us_text(const char *s, int64_t *ns)
{
	int64_t v = 0, f = 0;
	int neg = 0, n = 0, digits = 0;

	while (*s == ' ' || *s == '\t')
		s++;
	if (*s == '-' || *s == '+')
		neg = *s++ == '-';
	for (; *s >= '0' && *s <= '9'; s++, digits++) {
		if (v > (INT64_MAX / 4 - 9) / 10000)
			return -1;	/* no clock is this late */
		v = v * 10 + (*s - '0');
	}
	if (*s == '.')
		for (s++; *s >= '0' && *s <= '9'; s++, digits++)
			if (n < 3) {
				f = f * 10 + (*s - '0');
				n++;
			}
	while (*s == ' ' || *s == '\t')
		s++;
	if (*s != '\0' || digits == 0)
		return -1;
	for (; n < 3; n++)
		f *= 10;
	*ns = (v * 1000 + f) * (neg ? -1 : 1);
	return 0;
}

static int
us_number(double v, int64_t *ns)
{
	if (!isfinite(v) || fabs(v) > 1e15 * 1000)
		return -1;
	*ns = llround(v * 1000);
	return 0;
}

/* A time member, a number or a string: 0 (*NS set), 1 not one, -1. */
static int
read_time(struct jscan *js, const char *field, int64_t *ns)
{
	const char *s;
	size_t n;
	double v;
	int t = js_peek(js);

	if (t == '"') {
		if (js_string(js, field, &s, &n) < 0)
			return -1;
		return us_text(s, ns) == 0 ? 0 : 1;
	}
	if (t == '0') {
		if (js_number(js, field, &v) < 0)
			return -1;
		return us_number(v, ns) == 0 ? 0 : 1;
	}
	return js_skip(js) < 0 ? -1 : 1;
}

/* A string member (else skipped, left empty) into *DST. */
static int
read_text(struct jscan *js, const char *field, char **dst, size_t *cap)
{
	const char *s;
	size_t n;

	if (js_peek(js) != '"')
		return js_skip(js) < 0 ? -1 : 0;
	if (js_string(js, field, &s, &n) < 0)
		return -1;
	keep(dst, cap, s, n);
	return 0;
}

static int
read_args(struct jscan *js, struct event *e)
{
	const char *k;
	size_t n;
	int r;

	if (js_peek(js) != '{')
		return js_skip(js) < 0 ? -1 : 0;
	if (js_object(js, "args") < 0)
		return -1;
	while ((r = js_key(js, &k, &n)) == 1) {
		if (strcmp(k, "Call stack") == 0)
			r = read_text(js, "Call stack", &e->stack,
			    &e->stackcap);
		else {
			if (strcmp(k, "Task Type") == 0)
				e->task = 1;
			r = js_skip(js);
		}
		if (r < 0)
			return -1;
	}
	return r;
}

static int
read_event(struct jscan *js, struct event *e)
{
	const char *k, *s;
	size_t n;
	double v;
	int r;

	e->ph = 0;
	e->task = e->has_ts = 0;
	e->dur = 0;
	e->tid = 0;
	e->name[0] = e->cat[0] = e->stack[0] = '\0';
	if (js_peek(js) != '{')
		return js_skip(js);
	if (js_object(js, "event") < 0)
		return -1;
	while ((r = js_key(js, &k, &n)) == 1) {
		switch (k[0]) {
		case 'p':
			if (strcmp(k, "ph") == 0 && js_peek(js) == '"') {
				if (js_string(js, "ph", &s, &n) < 0)
					return -1;
				e->ph = s[0];
				continue;
			}
			break;
		case 'n':
			if (strcmp(k, "name") == 0) {
				if (read_text(js, "name", &e->name,
				    &e->namecap) < 0)
					return -1;
				continue;
			}
			break;
		case 'c':
			if (strcmp(k, "cat") == 0) {
				if (read_text(js, "cat", &e->cat, &e->catcap) < 0)
					return -1;
				continue;
			}
			break;
		case 't':
			if (strcmp(k, "ts") == 0) {
				if ((r = read_time(js, "ts", &e->ts)) < 0)
					return -1;
				e->has_ts = r == 0;
				continue;
			}
			if (strcmp(k, "tid") == 0 && js_peek(js) == '0') {
				if (js_number(js, "tid", &v) < 0)
					return -1;
				e->tid = isfinite(v) ? v : 0;
				continue;
			}
			break;
		case 'd':
			if (strcmp(k, "dur") == 0) {
				if ((r = read_time(js, "dur", &e->dur)) < 0)
					return -1;
				continue;
			}
			break;
		case 'a':
			if (strcmp(k, "args") == 0) {
				if (read_args(js, e) < 0)
					return -1;
				continue;
			}
			break;
		}
		if (js_skip(js) < 0)
			return -1;
	}
	return r < 0 ? -1 : 1;
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
	h.name = e->name;
	h.cat = e->cat;
	h.tid = (long long)e->tid;
	h.a = e->ts;
	h.b = e->ts + e->dur;
	h.stack = e->stack;
	tl_host(t, &h);
}

/*
 * The array of events: the document, or its "traceEvents" (*IN_OBJECT
 * set: the object's other members follow the array).
 */
static int
events_array(struct jscan *js, int *in_object)
{
	const char *k;
	size_t n;
	int r;

	*in_object = 0;
	if (js_peek(js) == '[')
		return js_array(js, NULL);
	if (js_object(js, NULL) < 0)
		return -1;
	*in_object = 1;
	while ((r = js_key(js, &k, &n)) == 1) {
		if (strcmp(k, "traceEvents") == 0)
			return js_array(js, "traceEvents");
		if (js_skip(js) < 0)
			return -1;
	}
	return 0;
}

int
trace_view_read(const char *path, struct timeline *t, char **why)
{
	struct jscan js;
	struct event e = { 0 };
	const char *k;
	size_t n;
	int r = -1, in_object;

	*why = NULL;
	keep(&e.name, &e.namecap, "", 0);
	keep(&e.cat, &e.catcap, "", 0);
	keep(&e.stack, &e.stackcap, "", 0);
	if (js_open(&js, path) == 0 &&
	    (r = events_array(&js, &in_object)) == 1) {
		while ((r = js_item(&js)) == 1) {
			if (read_event(&js, &e) < 0) {
				r = -1;
				break;
			}
			hand_over(t, &e);
		}
		while (r == 0 && in_object && (r = js_key(&js, &k, &n)) == 1)
			r = js_skip(&js) < 0 ? -1 : 0;
		if (r == 0 && js_finish(&js) < 0)
			r = -1;
	} else if (r == 0)
		*why = xasprintf(_("%s: no array of events"), path);
	if (r < 0)
		*why = xstrdup(js_why(&js) != NULL ? js_why(&js) : path);
	js_close(&js);
	free(e.name);
	free(e.cat);
	free(e.stack);
	return r < 0 || *why != NULL ? -1 : 0;
}
