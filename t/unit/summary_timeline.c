/*
 * The timeline (summary/trace_view.c, timeline.c): a small trace_view.json
 * folded into the device's idle time and the host's causes, to the
 * nanosecond (times as strings and as numbers, "traceEvents" or a bare
 * array, members in any order, fields missing); the user's frames of a
 * call stack; and damage: every prefix of a file, an unterminated
 * string, a call stack of 2 MB (read), an event over the reader's limit,
 * nesting 100,000 deep, a file that is no array: an error naming the
 * file, never a crash.  The fold keeps a bounded number of gaps
 * whatever it is fed, and says so; it tells a conjectured garbage
 * collection, launching and a graph's launch.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "summary/timeline.h"

static char dir[] = "/tmp/summary_timeline.XXXXXX";
static char path[600];

static const char *
put(const char *text, size_t n)
{
	FILE *fp;

	snprintf(path, sizeof(path), "%s/trace_view.json", dir);
	if ((fp = fopen(path, "w")) == NULL)
		return path;
	fwrite(text, 1, n, fp);
	fclose(fp);
	return path;
}

/* Read TEXT: its result (NULL on an error or without a step), *WHY. */
static struct tl_result *
fold(const char *text, size_t n, char **why)
{
	struct timeline *t = tl_new();
	const char *reason;

	*why = NULL;
	put(text, n);
	if (trace_view_read(path, t, why, &reason) < 0) {
		tl_abort(t);
		return NULL;
	}
	return tl_finish(t);
}

#define STACK "/usr/lib/python3/site-packages/torch/_tensor.py(933): " \
	"__format__;\\r\\n/home/u/main.py(485): __str__;\\r\\n" \
	"/home/u/main.py(509): display;\\r\\n/usr/lib/python3.9/runpy.py(87): " \
	"_run_code;\\r\\n<string>(1): <module>"

/*
 * A step of 1000 us from t0 = 1736408883725000.000; device tasks at
 * [100, 200) and [300, 400) (one with its members in another order);
 * aten::item at [500, 900) from main.py; a CANN synchronisation inside
 * it, on its thread; a data loader's function at [0, 50); an event with
 * no time, one with no phase.
 */
static const char trace[] = "{\"traceEvents\": [\n"
    "{\"ph\": \"X\", \"name\": \"ProfilerStep#7\", \"pid\": 1, \"tid\": 5, "
    "\"ts\": \"1736408883725000.000\", \"dur\": 1000, \"cat\": \"cpu_op\"},\n"
    "{\"name\": \"k1\", \"pid\": 9, \"tid\": 2, \"ts\": "
    "\"1736408883725100.000\", \"dur\": \"100\", \"args\": {\"Task Type\": "
    "\"AI_CORE\"}, \"ph\": \"X\"},\n"
    "{\"ph\": \"X\", \"args\": {\"Task Type\": \"AI_CORE\", \"x\": [1, {}]}, "
    "\"ts\": 1736408883725300, \"dur\": 100.0, \"name\": \"k2\"},\n"
    "{\"ph\": \"X\", \"name\": \"aten::item\", \"tid\": 5, \"ts\": "
    "\"1736408883725500.000\", \"dur\": 400, \"cat\": \"cpu_op\", "
    "\"args\": {\"Sequence number\": -1, \"Call stack\": \"" STACK "\"}},\n"
    "{\"ph\": \"X\", \"name\": \"AscendCL@aclrtSynchronizeStreamWithTimeout\","
    " \"tid\": 5, \"ts\": \"1736408883725510.500\", \"dur\": 380},\n"
    "{\"ph\": \"X\", \"name\": \"torch/utils/data/dataloader.py(625): "
    "__next__\", \"cat\": \"python_function\", \"tid\": 5, \"ts\": "
    "\"1736408883725000.000\", \"dur\": 50},\n"
    "{\"ph\": \"X\", \"name\": \"no time\", \"dur\": 5},\n"
    "{\"name\": \"no phase\", \"ts\": \"1\", \"dur\": 5},\n"
    "{\"ph\": \"M\", \"name\": \"process_name\", \"args\": {\"name\": "
    "\"Python\"}}\n"
    "], \"otherData\": {}}\n";

static void
small(void)
{
	struct tl_result *r;
	char *why;

	r = fold(trace, sizeof(trace) - 1, &why);
	ok(r != NULL, "a small trace is read");
	if (r == NULL) {
		printf("# %s\n", why ? why : "no step");
		free(why);
		return;
	}
	is_int(r->nsteps, 1, "one step");
	is_int(r->ntasks, 2, "two device tasks");
	ok(fabs(r->step_us - 1000) < 1e-9, "the step is 1000 us");
	ok(fabs(r->idle_us - 800) < 1e-9, "the device is idle 800 us");
	ok(fabs(r->host_us[TL_SYNC] - 400) < 1e-9, "synchronising 400 us");
	ok(fabs(r->idle_by[TL_SYNC] - 400) < 1e-9,
	    "all of it with the device idle");
	ok(fabs(r->host_us[TL_DATALOADER] - 50) < 1e-9, "the loader 50 us");
	is_int(r->count[TL_SYNC], 2, "two synchronisations");
	is_int(r->nframes, 1, "one call site");
	if (r->nframes == 1) {
		is_str(r->frames[0].where, "main.py:485 __str__ < main.py:509 "
		    "display", "the user's frames, torch's and Python's left out");
		is_str(r->frames[0].path, "/home/u/main.py", "and its path");
		ok(r->frames[0].formats, "a tensor formatted");
		ok(fabs(r->frames[0].host_us - 400) < 1e-9,
		    "the CANN call charged to the operator around it");
	}
	ok(r->stacks && !r->approx, "stacks seen, nothing left out");
	tl_result_free(r);
}

static void
frames(void)
{
	char buf[256], p[256];

	is_int(tl_user_frames("/a/lib/python3.10/threading.py(1): run;\r\n"
	    "/x/dist-packages/y.py(2): f;\r\n<string>(1): <module>", buf,
	    sizeof(buf), p, sizeof(p)), 0, "no user frame");
	is_int(tl_user_frames("/w/train.py(10): step;\n/w/train.py(20): main;"
	    "\n/w/train.py(30): loop;\n/w/train.py(40): top", buf, sizeof(buf),
	    p, sizeof(p)), 3, "three frames at most");
	is_str(buf, "train.py:10 step < train.py:20 main < train.py:30 loop",
	    "innermost first");
	is_int(tl_user_frames("garbage; (no line): x; f.py(: y", buf,
	    sizeof(buf), p, sizeof(p)), 0, "frames that are not frames");
	is_int(tl_user_frames("/w/a.py(1): f", buf, 8, p, 4), 1,
	    "a short buffer");
	ok(strlen(buf) < 8 && strlen(p) < 4, "cut, not overrun");
}

/* Every prefix of the trace: an error naming the file, no crash. */
static void
prefixes(void)
{
	size_t n, bad = 0, named = 0, cut = sizeof(trace) - 1;
	struct tl_result *r;
	char *why;

	while (cut > 0 && (trace[cut - 1] == '\n' || trace[cut - 1] == '}'))
		cut--;
	for (n = 0; n < cut; n++) {
		r = fold(trace, n, &why);
		if (r != NULL)
			bad++;
		if (why != NULL && strstr(why, path) != NULL)
			named++;
		tl_result_free(r);
		free(why);
	}
	is_int(bad, 0, "no prefix of the file reads as a whole");
	is_int(named, cut, "each names the file");
}

static void
damaged(const char *text, size_t n, const char *what)
{
	struct tl_result *r;
	char *why;

	r = fold(text, n, &why);
	ok(r == NULL && why != NULL && strstr(why, path) != NULL,
	    "%s: left out, the file named", what);
	if (why != NULL)
		printf("# %s\n", why);
	tl_result_free(r);
	free(why);
}

/* A call stack of 2 MB, under the limit: read, as nothing in it. */
static void
huge(const char *text, size_t n)
{
	struct tl_result *r;
	char *why;

	r = fold(text, n, &why);
	ok(r == NULL && why == NULL, "a call stack of 2 MB: read");
	if (why != NULL)
		printf("# %s\n", why);
	tl_result_free(r);
	free(why);
}

static void
damage(void)
{
	static const char unterminated[] = "[{\"ph\": \"X\", \"name\": \"abc";
	static const char notarray[] = "{\"a\": 1}";
	size_t big = (2u << 20) + 100, i, n;
	char *s = malloc(big + 200), *d;

	damaged(unterminated, sizeof(unterminated) - 1, "unterminated string");
	damaged(notarray, sizeof(notarray) - 1, "no array of events");
	damaged("", 0, "empty");
	if (s == NULL)
		return;
	n = (size_t)sprintf(s, "[{\"ph\": \"X\", \"args\": {\"Call stack\": \"");
	memset(s + n, 'a', big);
	n += big;
	n += (size_t)sprintf(s + n, "\"}}]");
	huge(s, n);
	free(s);
	big = (5u << 20);
	if ((s = malloc(big + 200)) == NULL)
		return;
	n = (size_t)sprintf(s, "[{\"ph\": \"X\", \"args\": {\"Call stack\": \"");
	memset(s + n, 'a', big);
	n += big;
	n += (size_t)sprintf(s + n, "\"}}]");
	damaged(s, n, "an event of 5 MB, over the reader's limit");
	d = malloc(200000 + 100);
	if (d != NULL) {
		n = (size_t)sprintf(d, "[{\"args\": ");
		for (i = 0; i < 100000; i++)
			d[n++] = '[';
		damaged(d, n, "nested 100,000 deep");
		free(d);
	}
	free(s);
}

/*
 * Times as numbers, read exactly as strtod and rounding would: plain ones
 * (at most three decimals, read as integers), and the others (more
 * decimals, an exponent, a sign); args before the other members.
 */
static const char numeric[] = "[{\"ph\": \"X\", \"name\": "
    "\"ProfilerStep#1\", \"tid\": \"5\", \"ts\": 0, \"dur\": 1000.000},\n"
    "{\"args\": {\"Task Type\": \"AI_CORE\"}, \"ph\": \"X\", "
    "\"ts\": 100.25, \"dur\": 99.75, \"tid\": 123456789012345678901},\n"
    "{\"ph\": \"X\", \"ts\": 300.0004, \"dur\": 1e2, \"args\": "
    "{\"Task Type\": \"AI_CORE\"}},\n"
    "{\"ph\": \"X\", \"ts\": 5e2, \"dur\": -0.001, \"args\": "
    "{\"Task Type\": \"AI_CORE\"}},\n"
    "{\"ph\": \"X\", \"ts\": 600.1, \"dur\": 0.0015, \"args\": "
    "{\"Task Type\": \"AI_CORE\"}},\n"
    /* torch_npu's strings: the latest time read, one past it, zeros */
    "{\"ph\": \"X\", \"ts\": \"2305843009213699.000\", \"dur\": 1, "
    "\"args\": {\"Task Type\": \"AI_CORE\"}},\n"
    "{\"ph\": \"X\", \"ts\": \"2305843009213700.000\", \"dur\": 1, "
    "\"args\": {\"Task Type\": \"AI_CORE\"}},\n"
    "{\"ph\": \"X\", \"ts\": \"0000000000000100.500\", \"dur\": 1, "
    "\"args\": {\"Task Type\": \"AI_CORE\"}},\n"
    "{\"ph\": \"X\", \"ts\": \"000000000000010x.500\", \"dur\": 1, "
    "\"args\": {\"Task Type\": \"AI_CORE\"}}]\n";

static const char lit_brace[] = "[{\"ph\": \"X\", \"x\": 1{}}]";
static const char lit_quote[] = "[{\"args\": {\"x\": 1\"y\"}}]";

static void
numbers(void)
{
	struct tl_result *r;
	char *why;

	r = fold(numeric, sizeof(numeric) - 1, &why);
	ok(r != NULL && fabs(r->step_us - 1000) < 1e-9,
	    "a step of 1000.000 us as a number");
	/* busy [100.25, 200), [300, 400), [600.1, 600.102) */
	ok(r != NULL && fabs(r->idle_us - (1000 - 99.75 - 100 - 0.002)) <
	    1e-9, "tasks timed by plain and other numbers: idle %.3f us",
	    r != NULL ? r->idle_us : -1);
	ok(r != NULL && r->ntasks == 5, "5 tasks with a time: %zu",
	    r != NULL ? r->ntasks : 0);
	tl_result_free(r);
	free(why);
	/* a literal that runs into a value is not JSON, at the top or in args */
	damaged(lit_brace, sizeof(lit_brace) - 1, "a literal before '{'");
	damaged(lit_quote, sizeof(lit_quote) - 1, "a literal before '\"'");
}

/*
 * Call stacks that come back (each of 300 twice, more than the fold
 * remembers at once, so remembered ones are pushed out and found again):
 * each call site counted twice, whether its frame was found or
 * remembered; the one that formats a tensor marked.
 */
static void
memo(void)
{
	struct timeline *t = tl_new();
	struct tl_result *r;
	char stack[200];
	size_t i, twice = 0, fmt = 0;
	int k;

	tl_step(t, 0, 10000000);
	tl_task(t, 0, 100000);
	tl_task(t, 9900000, 10000000);
	for (k = 0; k < 600; k++) {
		struct tl_host h = { "aten::item", "cpu_op", 1,
		    200000 + k * 15000, 210000 + k * 15000, stack };

		snprintf(stack, sizeof(stack), "%s/home/u/f%d.py(1): fn",
		    k % 300 == 7 ? "/usr/lib/python3/site-packages/torch/"
		    "_tensor.py(933): __format__;\r\n" : "", k % 300);
		tl_host(t, &h);
	}
	r = tl_finish(t);
	ok(r != NULL && r->nframes == 300, "300 call sites: %zu",
	    r != NULL ? r->nframes : 0);
	for (i = 0; r != NULL && i < r->nframes; i++) {
		twice += r->frames[i].n == 2 &&
		    fabs(r->frames[i].host_us - 20) < 1e-9;
		fmt += r->frames[i].formats;
	}
	is_int((int)twice, 300, "each twice, 20 us");
	is_int((int)fmt, 1, "the formatting one marked");
	tl_result_free(r);
}

/* More gaps than the fold keeps: bounded, and said to be approximate. */
static void
bounded(void)
{
	struct timeline *t = tl_new();
	struct tl_result *r;
	int64_t i, n = 400000;

	tl_step(t, 0, 2 * n * 1000);
	for (i = 0; i < n; i++)
		tl_task(t, 2 * i * 1000, (2 * i + 1) * 1000);
	r = tl_finish(t);
	ok(r != NULL && r->approx, "%lld gaps: approximate",
	    (long long)n);
	ok(r != NULL && r->idle_us <= n * 1.0 + 1e-6 &&
	    r->idle_us > n * 0.5, "the longest kept: idle %.0f us of %lld",
	    r != NULL ? r->idle_us : NAN, (long long)n);
	tl_result_free(r);
}

static void
host_at(struct timeline *t, const char *name, int64_t a, int64_t b)
{
	struct tl_host h = { name, "cpu_op", 1, a, b, "" };

	tl_host(t, &h);
}

/*
 * A quiet gap of 600 ms: a conjectured collection where the host is seen
 * densely elsewhere in the step, none where it is hardly seen at all;
 * short gaps between kernels with nothing else: launching; a captured
 * graph's launch counted.
 */
static void
gaps(void)
{
	struct timeline *t;
	struct tl_result *r;
	int64_t ms = 1000000, i;
	int dense;

	for (dense = 1; dense >= 0; dense--) {
		t = tl_new();
		tl_step(t, 0, 1000 * ms);
		tl_task(t, 0, 100 * ms);
		tl_task(t, 700 * ms, 1000 * ms);
		for (i = 0; i < (dense ? 10000 : 10); i++)
			host_at(t, "aten::add", i * 10000, i * 10000 + 5000);
		r = tl_finish(t);
		ok(r != NULL && fabs(r->gc_gap_us - (dense ? 600000 : 0)) <
		    1e-6, "a quiet gap of 600 ms, the host %s elsewhere: %s",
		    dense ? "dense" : "sparse", dense ? "conjectured GC" :
		    "no sign");
		tl_result_free(r);
	}
	t = tl_new();
	tl_step(t, 0, 10 * ms);
	for (i = 0; i < 100; i++)
		tl_task(t, i * 60000, i * 60000 + 10000);
	host_at(t, "AscendCL@aclmdlRIExecuteAsync", 5000, 9000);
	r = tl_finish(t);
	ok(r != NULL && r->nshort == 99 && fabs(r->short_us - 99 * 50) <
	    1e-6, "99 gaps of 50 us between kernels: launching");
	ok(r != NULL && r->count[TL_GRAPH] == 1, "a graph's launch counted");
	tl_result_free(r);
}

int
main(void)
{
	if (mkdtemp(dir) == NULL)
		return 1;
	small();
	frames();
	prefixes();
	damage();
	numbers();
	memo();
	bounded();
	gaps();
	unlink(path);
	rmdir(dir);
	return done_testing();
}
