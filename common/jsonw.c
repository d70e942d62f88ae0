/* JSON written as it is made (see jsonw.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "jsonw.h"
#include "util.h"

void
jw_init(struct jsonw *w, FILE *fp)
{
	memset(w, 0, sizeof(*w));
	w->fp = fp;
	w->first[0] = 1;
}

static void
indent(struct jsonw *w)
{
	for (int i = 0; i < w->depth; i++)
		putc('\t', w->fp);
}

static void
string(struct jsonw *w, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n;

	putc('"', w->fp);
	for (; *p != '\0'; p += n) {
		n = 1;
		switch (*p) {
		case '"':	fputs("\\\"", w->fp); continue;
		case '\\':	fputs("\\\\", w->fp); continue;
		case '\b':	fputs("\\b", w->fp); continue;
		case '\f':	fputs("\\f", w->fp); continue;
		case '\n':	fputs("\\n", w->fp); continue;
		case '\r':	fputs("\\r", w->fp); continue;
		case '\t':	fputs("\\t", w->fp); continue;
		default:	break;
		}
		if (*p < 0x20)
			fprintf(w->fp, "\\u%04x", *p);
		else if ((n = utf8_seq(p)) == 0) {
			fprintf(w->fp, "\\udc%02x", *p);	/* not UTF-8 */
			n = 1;
		} else
			fwrite(p, 1, n, w->fp);
	}
	putc('"', w->fp);
}

/* As cJSON prints numbers: integers as such, else the shortest exact. */
static void
number(struct jsonw *w, double d)
{
	char buf[32];
	double back;

	if (!isfinite(d)) {
		fputs("null", w->fp);
		return;
	}
	if (d == (double)(int)d && fabs(d) < 2147483647.0) {
		fprintf(w->fp, "%d", (int)d);
		return;
	}
	snprintf(buf, sizeof(buf), "%1.15g", d);
	if (sscanf(buf, "%lg", &back) != 1 || back != d)
		snprintf(buf, sizeof(buf), "%1.17g", d);
	fputs(buf, w->fp);
}

/* Before a member: the comma, the line, the key. */
static void
member(struct jsonw *w, const char *key)
{
	if (w->depth > 0) {
		fputs(w->first[w->depth] ? "\n" : ",\n", w->fp);
		indent(w);
	}
	w->first[w->depth] = 0;
	if (key != NULL) {
		string(w, key);
		fputs(": ", w->fp);
	}
}

void
jw_open(struct jsonw *w, const char *key, int c)
{
	member(w, key);
	putc(c, w->fp);
	if (w->depth + 1 < JW_MAX_DEPTH)
		w->depth++;
	w->first[w->depth] = 1;
}

void
jw_close(struct jsonw *w, int c)
{
	int empty = w->first[w->depth];

	if (w->depth > 0)
		w->depth--;
	if (!empty) {
		putc('\n', w->fp);
		indent(w);
	}
	putc(c, w->fp);
	if (w->depth == 0)
		putc('\n', w->fp);
}

static void
value(struct jsonw *w, const char *key, const cJSON *v)
{
	const cJSON *c;

	if (cJSON_IsObject(v) || cJSON_IsArray(v)) {
		jw_open(w, key, cJSON_IsObject(v) ? '{' : '[');
		cJSON_ArrayForEach(c, v)
			value(w, cJSON_IsObject(v) ? c->string : NULL, c);
		jw_close(w, cJSON_IsObject(v) ? '}' : ']');
		return;
	}
	member(w, key);
	if (cJSON_IsString(v))
		string(w, v->valuestring);
	else if (cJSON_IsNumber(v))
		number(w, v->valuedouble);
	else if (cJSON_IsTrue(v))
		fputs("true", w->fp);
	else if (cJSON_IsFalse(v))
		fputs("false", w->fp);
	else
		fputs("null", w->fp);
}

void
jw_value(struct jsonw *w, const char *key, const cJSON *v)
{
	value(w, key, v);
}

void
jw_take(struct jsonw *w, const char *key, cJSON *v)
{
	value(w, key, v);
	cJSON_Delete(v);
}

void
jw_string(struct jsonw *w, const char *key, const char *s)
{
	member(w, key);
	string(w, s);
}

void
jw_number(struct jsonw *w, const char *key, double d)
{
	member(w, key);
	number(w, d);
}
