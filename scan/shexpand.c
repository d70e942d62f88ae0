/*
 * Expansion of the words of the shell reader: quotes, escapes,
 * parameters (with the ${X:-w} family), arithmetic and field splitting.
 * Text is appended in runs, never a byte at a time.
 */
#include <ctype.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sh.h"

#define SH_MAX_TRIM	4096	/* bytes of a value ${X#w} trims */

/* Building words. */

void
sh_fb_end(struct sh_fb *f)
{
	if (f->fields != NULL && (f->have || f->cur.len > 0)) {
		strv_push(f->fields, f->cur.len > 0 ? f->cur.s : "");
		f->cur.len = 0;
		if (f->cur.s != NULL)
			f->cur.s[0] = '\0';
	}
	if (f->fields != NULL)
		f->have = 0;
}

/* Add N bytes as they are, as far as the room allows. */
static void
add_run(struct sh_fb *f, const char *s, size_t n)
{
	if (n > f->room) {
		n = f->room;
		f->unknown = 1;
	}
	f->room -= n;
	buf_add(&f->cur, s, n);
}

static int
is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n';
}

/* Add S; unquoted blanks that came from an expansion split words. */
static void
put_str(struct sh_fb *f, const char *s, size_t n, int quoted)
{
	size_t run;

	if (quoted || f->fields == NULL) {
		add_run(f, s, n);
		return;
	}
	while (n > 0) {
		if (is_blank(*s)) {
			sh_fb_end(f);
			s++;
			n--;
			continue;
		}
		for (run = 1; run < n && !is_blank(s[run]); run++)
			;
		add_run(f, s, run);
		s += run;
		n -= run;
	}
}

void
sh_put_unknown(struct sh_fb *f, const char *s, const char *e)
{
	static const char hard = SH_HARD_SPACE;
	const char *q;

	f->unknown = 1;
	while (s < e) {
		if (isspace((unsigned char)*s)) {
			add_run(f, &hard, 1);
			s++;
			continue;
		}
		for (q = s + 1; q < e && !isspace((unsigned char)*q); q++)
			;
		add_run(f, s, (size_t)(q - s));
		s = q;
	}
}

static void
put_value(struct sh_fb *f, const struct sh_var *v, int dq)
{
	if (!v->known)
		f->unknown = 1;
	put_str(f, v->value.s, v->value.len, dq);
}

/* Expansion. */

/* $((...)) from P (the '$') to A (the closing "))"); returns past it. */
static const char *
arith(struct sh *sh, const char *p, const char *a, int depth,
    struct sh_fb *f)
{
	struct sh_fb e = { .room = SH_MAX_VALUE };
	long long v;
	char num[32];

	if (depth < SH_MAX_DEPTH)
		sh_expand(sh, p + 3, a, 0, depth + 1, &e);
	if (depth < SH_MAX_DEPTH && !e.unknown &&
	    sh_arith(sh, e.cur.s != NULL ? e.cur.s : "", &v)) {
		snprintf(num, sizeof(num), "%lld", v);
		put_str(f, num, strlen(num), 1);
	} else
		sh_put_unknown(f, p, a + 2);
	free(e.cur.s);
	return a + 2;
}

/*
 * The parameter named at S in "${...}" (E is the closing brace): sets *N
 * past the name, and returns its variable, or NULL when it is unset.
 * *KNOWN is 0 when it cannot be known: $?, $$, $!, $-.  The script is
 * taken to run without arguments: $1... are unset, $# is 0.
 */
static const struct sh_var *
param_name(struct sh *sh, const char *s, const char *e, const char **n,
    struct sh_var *tmp, int *known)
{
	const char *q = s;
	struct sh_var *v;

	*known = 1;
	tmp->known = 1;
	if (q < e && sh_is_name_start(*q)) {
		while (q < e && sh_is_name_char(*q))
			q++;
		/* ${X[0]}: a variable is its own element 0 */
		*n = e - q >= 3 && strncmp(q, "[0]", 3) == 0 ? q + 3 : q;
		if ((v = sh_lookup(&sh->vars, s, (size_t)(q - s))) == NULL)
			*known = !sh->vars.full;
		return v;
	}
	if (q < e && isdigit((unsigned char)*q)) {
		while (q < e && isdigit((unsigned char)*q))
			q++;
		*n = q;
		tmp->value.s = sh->arg0;
		tmp->value.len = strlen(sh->arg0);
		return q - s == 1 && *s == '0' ? tmp : NULL;
	}
	*n = q < e ? q + 1 : q;
	if (q < e && *q == '#') {
		tmp->value.s = (char *)"0";
		tmp->value.len = 1;
		return tmp;
	}
	*known = q < e && (*q == '@' || *q == '*');
	return NULL;
}

/* "${#NAME}": its length. */
static void
param_length(struct sh *sh, const char *p, const char *q, struct sh_fb *f)
{
	const char *s = p + 3, *e = q - 1, *n = s;
	struct sh_var *v;
	char num[32];

	while (n < e && sh_is_name_char(*n))
		n++;
	if (n != e || s == e || !sh_is_name_start(*s) ||
	    ((v = sh_lookup(&sh->vars, s, (size_t)(e - s))) == NULL &&
	    sh->vars.full) ||
	    (v != NULL && !v->known)) {
		sh_put_unknown(f, p, q);
		return;
	}
	snprintf(num, sizeof(num), "%zu", v != NULL ? v->value.len : 0);
	put_str(f, num, strlen(num), 1);
}

/*
 * "${X#w}", "${X##w}", "${X%w}", "${X%%w}" of V from N (the '#' or '%')
 * to E: V without the shortest (longest) prefix (suffix) that pattern w
 * matches; unknown when V or w is.
 */
static void
param_trim(struct sh *sh, const struct sh_var *v, const char *n,
    const char *e, int dq, int depth, const char *p, const char *q,
    struct sh_fb *f)
{
	struct sh_fb w = { .room = SH_MAX_VALUE };
	int suffix = *n == '%', longest = n + 1 < e && n[1] == *n;
	const char *val = v != NULL ? v->value.s : "";
	size_t len = v != NULL ? v->value.len : 0, keep, from = 0;
	char *part;

	sh_expand(sh, n + 1 + longest, e, 1, depth + 1, &w);
	/* (each length tried: a bound on the work of a long value) */
	if (w.unknown || (v != NULL && !v->known) || strlen(val) != len ||
	    len > SH_MAX_TRIM) {
		free(w.cur.s);
		sh_put_unknown(f, p, q);
		return;
	}
	keep = len;
	for (size_t k = 0; k <= len; k++) {
		/* the part taken off: k bytes, from the start or the end */
		size_t cut = longest ? len - k : k;

		part = suffix ? xstrdup(val + len - cut) : xstrndup(val, cut);
		if (fnmatch(w.cur.s != NULL ? w.cur.s : "", part, 0) == 0) {
			keep = len - cut;
			from = suffix ? 0 : cut;
			free(part);
			break;
		}
		free(part);
	}
	put_str(f, val + from, keep, dq);
	free(w.cur.s);
}

/*
 * "${...}" from P (the '$') to Q (past the '}'): ${X}, ${X-w}, ${X:-w},
 * ${X=w}, ${X:=w} (which assigns), ${X+w}, ${X:+w}, ${X?w}, ${#X},
 * ${X#w}, ${X##w}, ${X%w}, ${X%%w}.  Other forms (${X/a/b}, ${X:1:2}...)
 * are left unknown.
 */
static void
param(struct sh *sh, const char *p, const char *q, int dq, int depth,
    struct sh_fb *f)
{
	const char *s = p + 2, *e = q - 1, *n;
	const struct sh_var *v;
	struct sh_var tmp;
	struct sh_fb w = { .room = SH_MAX_VALUE };
	int known, colon, use_word;
	char op;

	if (e - s > 1 && *s == '#') {
		param_length(sh, p, q, f);
		return;
	}
	v = param_name(sh, s, e, &n, &tmp, &known);
	colon = n < e && *n == ':';
	op = n + colon < e ? n[colon] : '\0';
	if (known && !colon && (op == '#' || op == '%') && n > s) {
		param_trim(sh, v, n, e, dq, depth, p, q, f);
		return;
	}
	if (!known || (n < e && (op == '\0' || strchr("-=+?", op) == NULL))) {
		if (v != NULL && n == e)
			put_value(f, v, dq);
		else
			sh_put_unknown(f, p, q);
		return;
	}
	if (n == e) {
		if (v != NULL)
			put_value(f, v, dq);
		return;
	}
	use_word = v == NULL || (colon && v->value.len == 0);
	if (op == '+' ? use_word : !use_word) {
		if (op != '+')
			put_value(f, v, dq);
	} else if (op == '?')
		sh_put_unknown(f, p, q);	/* the shell would stop here */
	else if (op != '=')
		sh_expand(sh, n + colon + 1, e, dq, depth + 1, f);
	else {
		/* The value assigned, then split like any value. */
		sh_expand(sh, n + colon + 1, e, dq, depth + 1, &w);
		if (sh_is_name_start(*s))
			sh_setvar(sh, s, (size_t)(n - s), w.cur.s ? w.cur.s :
			    "", w.cur.len, !w.unknown);
		put_str(f, w.cur.s, w.cur.len, dq);
		f->unknown |= w.unknown;
		free(w.cur.s);
	}
}

/* "$(...)" from P (the '$') to Q (past the ')'), or `...` (P at '`'). */
static void
subst(struct sh *sh, const char *p, const char *q, int dq, int depth,
    struct sh_fb *f)
{
	struct buf out = { 0 };
	int tick = *p == '`';

	if (depth < SH_MAX_DEPTH &&
	    sh_subst(sh, p + 2 - tick, q - 1, depth + 1, &out))
		put_str(f, out.s != NULL ? out.s : "", out.len, dq);
	else
		sh_put_unknown(f, p, q);
	free(out.s);
}

/* A "$..." from P (the '$'); returns the byte after it. */
static const char *
dollar(struct sh *sh, const char *p, const char *e, int dq, int depth,
    struct sh_fb *f)
{
	const char *n = p + 1, *q, *a;
	const struct sh_var *v;
	int closed;

	if (n < e && (*n == '(' || *n == '{')) {
		q = sh_construct_end(n + 1, e, *n, &closed);
		if (*n == '(' && n + 1 < e && n[1] == '(' &&
		    (a = sh_arith_end(n + 2, e)) != NULL)
			return arith(sh, p, a, depth, f);
		if (!closed || depth >= SH_MAX_DEPTH)
			sh_put_unknown(f, p, q);
		else if (*n == '(')
			subst(sh, p, q, dq, depth, f);
		else
			param(sh, p, q, dq, depth, f);
		return q;
	}
	if (n < e && sh_is_name_start(*n)) {
		for (q = n; q < e && sh_is_name_char(*q); q++)
			;
		if ((v = sh_lookup(&sh->vars, n, (size_t)(q - n))) != NULL)
			put_value(f, v, dq);
		else if (sh->vars.full)
			sh_put_unknown(f, p, q);
		return q;
	}
	if (n < e && isdigit((unsigned char)*n)) {
		if (*n == '0')
			put_str(f, sh->arg0, strlen(sh->arg0), dq);
		return n + 1;		/* no arguments: $1... empty */
	}
	if (n < e && (*n == '@' || *n == '*'))
		return n + 1;
	if (n < e && *n == '#') {
		put_str(f, "0", 1, 1);
		return n + 1;
	}
	if (n < e && strchr("?$!-", *n) != NULL) {
		sh_put_unknown(f, p, n + 1);
		return n + 1;
	}
	if (n < e && !dq && (*n == '\'' || *n == '"'))
		return n;			/* $'...', $"...": quotes */
	put_str(f, "$", 1, 1);
	return n;
}

/* A byte that is plain text in a word. */
static int
is_plain(char c)
{
	return c != '\0' && strchr("\"'\\$`", c) == NULL;
}

void
sh_expand(struct sh *sh, const char *s, const char *e, int dq, int depth,
    struct sh_fb *f)
{
	const char *p = s, *q;

	while (p < e) {
		if (*p == '"') {
			dq = !dq;
			f->have = 1;
			p++;
		} else if (*p == '\'' && !dq) {
			q = memchr(p + 1, '\'', (size_t)(e - p - 1));
			put_str(f, p + 1, (size_t)((q ? q : e) - p - 1), 1);
			f->have = 1;
			p = q ? q + 1 : e;
		} else if (*p == '\\') {
			if (p + 1 == e)
				put_str(f, "\\", 1, 1);
			else if (p[1] == '\n')
				;			/* line continuation */
			else if (!dq || strchr("$`\"\\", p[1]) != NULL)
				put_str(f, p + 1, 1, 1);
			else
				put_str(f, p, 2, 1);
			p += p + 1 < e ? 2 : 1;
		} else if (*p == '$')
			p = dollar(sh, p, e, dq, depth, f);
		else if (*p == '`') {
			q = memchr(p + 1, '`', (size_t)(e - p - 1));
			if (q != NULL)
				subst(sh, p, q + 1, dq, depth, f);
			else
				sh_put_unknown(f, p, e);
			p = q ? q + 1 : e;
		} else {
			for (q = p + 1; q < e && is_plain(*q); q++)
				;
			/* (blanks only in ${X:-a b}) */
			put_str(f, p, (size_t)(q - p), dq);
			p = q;
		}
	}
}

