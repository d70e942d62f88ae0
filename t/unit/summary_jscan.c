/*
 * The JSON reader of the summary (summary/jscan.c): fields taken in place
 * with their escapes, numbers and strings across the read buffer's end;
 * and every kind of damage stopped with its reason, line and column,
 * never a crash or a hang: each prefix of a document, 200,000 levels of
 * nesting, a FIFO, a directory, an empty file, syntax errors, a field of
 * the wrong type, a key longer than the limit.  Then the communication
 * reader (summary/comm.c) on a file cut in half: left out whole.
 */
#include <sys/stat.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "summary/comm.h"
#include "summary/jscan.h"

static char dir[] = "/tmp/summary_jscan.XXXXXX";
static char path[600];

static const char *
put(const char *name, const char *text, size_t n)
{
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if ((fp = fopen(path, "w")) == NULL)
		return path;
	fwrite(text, 1, n, fp);
	fclose(fp);
	return path;
}

/* Skip the whole document of TEXT: its error (JS_OK when it reads). */
static enum js_err
skim(const char *text, size_t n, char **why)
{
	struct jscan js;
	enum js_err e;

	put("doc.json", text, n);
	if (js_open(&js, path) == 0 && js_skip(&js) == 1)
		js_finish(&js);
	e = js_error(&js);
	if (why != NULL)
		*why = js_why(&js) ? strdup(js_why(&js)) : NULL;
	js_close(&js);
	return e;
}

static void
fields(void)
{
	static const char doc[] = "{\"skip\": [1, {\"x\": [true, false, null]}, "
	    "\"a\\\"b\"], \"n\": -12.5e1, \"s\": \"caf\\u00e9 \\ud83d\\ude00 "
	    "\\n\\t\\/\", \"raw\": \"\\udcff\", \"nul\": null, \"k\\u0041\": 7}";
	struct jscan js;
	const char *k, *s;
	size_t n;
	double v = 0, nul = 0, ka = 0;
	char *str = NULL, *raw = NULL;

	put("f.json", doc, sizeof(doc) - 1);
	ok(js_open(&js, path) == 0, "open a regular file");
	ok(js_object(&js, "doc") == 1, "an object");
	while (js_key(&js, &k, &n) == 1) {
		if (strcmp(k, "n") == 0)
			js_number(&js, k, &v);
		else if (strcmp(k, "s") == 0 && js_string(&js, k, &s, &n) == 1)
			str = strdup(s);
		else if (strcmp(k, "raw") == 0 && js_string(&js, k, &s, &n) == 1)
			raw = strdup(s);
		else if (strcmp(k, "nul") == 0)
			ok(js_number(&js, k, &nul) == 0 && isnan(nul),
			    "null asked as a number: 0 and NaN");
		else if (strcmp(k, "kA") == 0)
			js_number(&js, k, &ka);
		else
			js_skip(&js);
	}
	ok(js_finish(&js) == 1, "the document ends where it should");
	ok(v == -125.0, "a number with a sign, fraction and exponent (%g)", v);
	is_str(str, "caf\xc3\xa9 \xf0\x9f\x98\x80 \n\t/",
	    "escapes, \\u and a surrogate pair as UTF-8");
	ok(raw != NULL && strcmp(raw, "\xff") == 0,
	    "\\udcff is the byte it stands for (surrogateescape)");
	ok(ka == 7, "an escaped key is compared unescaped");
	is_int(js_error(&js), JS_OK, "no error");
	js_close(&js);
	free(str);
	free(raw);
}

/* Numbers and strings across the 64 KiB buffer's end, every offset. */
static void
across_buffers(void)
{
	size_t cap = 400000, n = 0, i, count = 0;
	char *text = malloc(cap + 64 * 1024);
	double sum = 0, want = 0, v;
	struct jscan js;
	const char *k, *s;
	size_t len;
	int strings_ok = 1;

	n += (size_t)sprintf(text + n, "{\"v\": [");
	for (i = 0; n < cap - 100; i++) {
		n += (size_t)sprintf(text + n, "%s%zu.%03zu", i ? ", " : "",
		    i % 1000, i % 997);
		want += (double)(i % 1000) + (double)(i % 997) / 1000;
	}
	n += (size_t)sprintf(text + n, "], \"s\": [");
	for (i = 0; i < 2000; i++)
		n += (size_t)sprintf(text + n, "%s\"abc\\u00e9def%zu\"",
		    i ? "," : "", i);
	n += (size_t)sprintf(text + n, "]}");
	put("big.json", text, n);
	js_open(&js, path);
	js_object(&js, "big");
	while (js_key(&js, &k, &len) == 1)
		if (strcmp(k, "v") == 0 && js_array(&js, k) == 1) {
			while (js_item(&js) == 1 && js_number(&js, k, &v) == 1)
				sum += v;
		} else if (strcmp(k, "s") == 0 && js_array(&js, k) == 1) {
			char w[64];

			for (i = 0; js_item(&js) == 1 &&
			    js_string(&js, k, &s, &len) == 1; i++) {
				snprintf(w, sizeof(w), "abc\xc3\xa9" "def%zu", i);
				strings_ok &= strcmp(s, w) == 0;
				count++;
			}
		} else
			js_skip(&js);
	ok(js_finish(&js) == 1 && js_error(&js) == JS_OK,
	    "a document of %zu bytes reads to its end", n);
	ok(fabs(sum - want) < 1e-6 * want, "every number, across buffer ends "
	    "(%.3f, %.3f)", sum, want);
	ok(strings_ok && count == 2000, "every string, across buffer ends");
	js_close(&js);
	free(text);
}

static void
prefixes(void)
{
	static const char doc[] = "{\"a\": [1, 2.5, -3e2, \"x\\\"y\\u0041\", "
	    "true, false, null, {}], \"b\": {\"c\": {\"d\": []}}}";
	size_t n, bad = 0, empty = 0;

	is_int(skim(doc, sizeof(doc) - 1, NULL), JS_OK, "the whole document");
	for (n = 0; n < sizeof(doc) - 1; n++) {
		enum js_err e = skim(doc, n, NULL);

		bad += e != (n == 0 ? JS_EMPTY : JS_CUT_SHORT);
		empty += e == JS_EMPTY;
	}
	is_int(bad, 0, "each of its %zu prefixes is cut short (the empty one: "
	    "empty)", sizeof(doc) - 1);
	is_int(skim("  \n ", 4, NULL), JS_EMPTY, "blanks only: empty");
}

static void
damage(void)
{
	static const struct { const char *text; enum js_err e; const char *in; }
	    cases[] = {
		{ "{\"a\" 1}", JS_NOT_JSON, ":1:6: " },
		{ "{\"a\": 1,}", JS_NOT_JSON, ":1:9: " },
		{ "[1, 2,]", JS_NOT_JSON, ":1:7: " },
		{ "{\"a\": 01}", JS_NOT_JSON, "" },
		{ "{\"a\": 1} x", JS_NOT_JSON, ":1:10: " },
		{ "{\n  \"a\": nul,\n}", JS_NOT_JSON, ":2:8: " },
		{ "{\"a\": tru}", JS_NOT_JSON, "" },
		{ "{\"a\": -}", JS_NOT_JSON, "" },
		{ "{\"a\": 1.}", JS_NOT_JSON, "" },
		{ "{\"a\": \"\\x\"}", JS_NOT_JSON, "" },
		{ "{\"a\": \"\\u12G4\"}", JS_NOT_JSON, "" },
		{ "{\"a\": \"tab\there\"}", JS_NOT_JSON, "" },
		{ "[1}", JS_NOT_JSON, "" },
		{ "{\"a\": \"unterminated", JS_CUT_SHORT, "" },
		{ "\xef\xbb\xbf{}", JS_NOT_JSON, ":1:1: " },
	};
	char *why;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		enum js_err e = skim(cases[i].text, strlen(cases[i].text), &why);

		ok(e == cases[i].e && why != NULL && strstr(why, path) != NULL &&
		    strstr(why, cases[i].in) != NULL, "damage %zu: %s", i,
		    why ? why : "(no message)");
		free(why);
	}
}

static void
deep(void)
{
	size_t n = 200000;
	char *text = malloc(2 * n), *why = NULL;

	memset(text, '[', n);
	memset(text + n, ']', n);
	ok(skim(text, 2 * n, &why) == JS_TOO_DEEP && strstr(why, ":1:513: "),
	    "200,000 levels: nested too deep, at level %d (%s)", JS_MAX_DEPTH,
	    why ? why : "");
	free(why);
	ok(skim(text, n, NULL) == JS_TOO_DEEP, "and without the end either");
	for (size_t i = 0; i < n; i += 6)
		memcpy(text + i, "{\"a\":", i + 6 <= n ? 5 : 1);
	ok(skim(text, n, NULL) == JS_TOO_DEEP, "objects in objects alike");
	free(text);
}

static void
wrong_type(void)
{
	struct jscan js;
	const char *k, *s;
	size_t n;
	double v;

	put("t.json", "{\"Elapse Time(ms)\": \"12\"}", 25);
	js_open(&js, path);
	js_object(&js, "t");
	js_key(&js, &k, &n);
	ok(js_number(&js, k, &v) == -1 && js_error(&js) == JS_WRONG_TYPE,
	    "a string where a number should be: wrong type");
	ok(strstr(js_why(&js), "\"Elapse Time(ms)\" is a string, not a "
	    "number") != NULL && strstr(js_why(&js), ":1:21: ") != NULL,
	    "named with the field and where (%s)", js_why(&js));
	ok(js_key(&js, &k, &n) == -1 && js_skip(&js) == -1 &&
	    js_string(&js, "x", &s, &n) == -1, "and the reader stops there");
	js_close(&js);
	put("t.json", "{\"c\": [1]}", 10);
	js_open(&js, path);
	js_object(&js, "t");
	js_key(&js, &k, &n);
	ok(js_object(&js, "c") == -1 && strstr(js_why(&js), "\"c\" is an array, "
	    "not an object"), "an array where an object should be");
	js_close(&js);
}

static void
long_key(void)
{
	size_t n = JS_MAX_TOKEN + 100;
	char *text = malloc(n + 20);
	struct jscan js;
	const char *k;
	size_t len;

	text[0] = '[';
	text[1] = '"';
	memset(text + 2, 'x', n);
	memcpy(text + 2 + n, "\"]", 2);
	ok(skim(text, n + 4, NULL) == JS_OK, "a long string skipped: no limit");
	text[0] = '{';
	memcpy(text + 2 + n, "\":1}", 4);
	put("k.json", text, n + 6);
	js_open(&js, path);
	js_object(&js, "k");
	ok(js_key(&js, &k, &len) == -1 && js_error(&js) == JS_TOO_LONG,
	    "a key of more than %d bytes asked for: too long", JS_MAX_TOKEN);
	js_close(&js);
	free(text);
}

static void
not_files(void)
{
	struct jscan js;
	char fifo[700];
	int rc;

	snprintf(fifo, sizeof(fifo), "%s/fifo.json", dir);
	ok(mkfifo(fifo, 0600) == 0, "a FIFO");
	rc = js_open(&js, fifo);
	ok(rc == -1 && js_error(&js) == JS_NOT_REGULAR &&
	    strstr(js_why(&js), "not a regular file"),
	    "is not read, and not waited on: %s", js_why(&js));
	js_close(&js);
	unlink(fifo);
	ok(js_open(&js, dir) == -1 && js_error(&js) == JS_NOT_REGULAR,
	    "nor is a directory");
	js_close(&js);
	snprintf(fifo, sizeof(fifo), "%s/none.json", dir);
	ok(js_open(&js, fifo) == -1 && js_error(&js) == JS_UNREADABLE,
	    "a missing file cannot be read");
	js_close(&js);
	ok(skim("", 0, NULL) == JS_EMPTY, "an empty file is empty");
}

static void
comm_cut(void)
{
	static const char doc[] = "{\"step4\": {\"collective\": {"
	    "\"hcom_allReduce__1_4_1@77\": {\"Communication Time Info\": "
	    "{\"Elapse Time(ms)\": 30.0, \"Wait Time Ratio\": 0.6, "
	    "\"Synchronization Time Ratio\": 0.5}}}, \"p2p\": {}}}";
	struct comm *c;

	put("communication.json", doc, sizeof(doc) - 1);
	c = comm_read(dir);
	ok(c->comm.state == 1 && c->nops == 1 && c->ops[0].elapse == 30.0,
	    "communication.json: the collective read");
	ok(c->nops == 1 && strcmp(c->pool + c->ops[0].key,
	    "77\0374\037hcom_allReduce__1_4_1") == 0 && c->ops[0].glen == 2,
	    "its key: group, step, operator");
	ok(c->matrix.state == 0, "no matrix: absent, not left out");
	comm_free(c);
	put("communication.json", doc, sizeof(doc) / 2);
	c = comm_read(dir);
	ok(c->comm.state == -1 && c->comm.err == JS_CUT_SHORT && c->nops == 0,
	    "cut in half: left out whole, cut short (%s)",
	    c->comm.why ? c->comm.why : "");
	comm_free(c);
}

int
main(void)
{
	if (mkdtemp(dir) == NULL)
		return 1;
	fields();
	across_buffers();
	prefixes();
	damage();
	deep();
	wrong_type();
	long_key();
	not_files();
	comm_cut();
	put("doc.json", "", 0);
	unlink(path);
	put("f.json", "", 0);
	unlink(path);
	put("big.json", "", 0);
	unlink(path);
	put("t.json", "", 0);
	unlink(path);
	put("k.json", "", 0);
	unlink(path);
	put("communication.json", "", 0);
	unlink(path);
	rmdir(dir);
	return done_testing();
}
