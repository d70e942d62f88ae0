/*
 * Read a training script the way the shell would, without running any of
 * it: split it into simple commands, follow the variables its assignments
 * set, expand each command's words, and record the commands that start a
 * MindSpeed training launch.  Anything that would need a program to run
 * (command substitution, an unknown expansion) stays unknown and is shown
 * as written.
 *
 * The scanner is meant to survive any input: every loop advances through
 * the text, recursion is bounded by MAX_DEPTH, and every value it builds
 * is bounded in size.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "shim/contract.h"
#include "shim/match.h"
#include "engines/classify.h"
#include "scan.h"

#define MAX_DEPTH	16		/* nested ${...} and $((...)) */
#define MAX_VARS	4096		/* variables tracked */
#define MAX_VALUE	(64 * 1024)	/* bytes of one variable's value */
#define MAX_COMMAND	(256 * 1024)	/* bytes of one command's words */
#define MAX_LAUNCHES	64		/* launches recorded */
#define MAX_HEREDOCS	8		/* here-documents pending on one line */

/*
 * Whitespace inside a construct that could not be evaluated is stored as
 * HARD_SPACE: "$(head -n1 $HOSTFILE)" then stays one word when the value
 * holding it is split again, and it is shown with real spaces.
 */
#define HARD_SPACE	'\001'

struct buf {
	char	*s;
	size_t	 len, cap;
};

/* The words (or the one value) an expansion produces. */
struct fb {
	struct strv	*fields;	/* NULL: one value, never split */
	struct buf	 cur;
	int		 have;		/* the word exists, even empty */
	int		 unknown;	/* part of it could not be evaluated */
	size_t		 room;		/* bytes it may still take */
};

struct var {
	char	*name;
	char	*value;			/* as shown; may hold HARD_SPACE */
	int	 known;
};

struct scanner {
	const struct launchtab	*tab;
	const char		*path;
	struct scan		*out;
	struct var		*vars;
	size_t			 nvars, capvars;
	int			 full;		/* MAX_VARS reached */
	int			 took_vars;
};

struct lexer {
	const char	*p, *end;
	struct strv	 heredocs;	/* "-DELIM" (<<-) or "+DELIM" (<<) */
};

static void	expand(struct scanner *, const char *, const char *, int, int,
		    struct fb *);
static const char *scan_construct(const char *, const char *, char,
		    struct buf *);

static void
buf_add(struct buf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		b->cap = b->cap < 64 ? 64 : b->cap;
		while (b->len + n + 1 > b->cap)
			b->cap *= 2;
		if ((b->s = realloc(b->s, b->cap)) == NULL)
			abort();
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

static char *
xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

/* A copy of S for the user: hard spaces become spaces again. */
static char *
shown(const char *s)
{
	char *p = xstrdup(s), *q;

	for (q = p; (q = strchr(q, HARD_SPACE)) != NULL; q++)
		*q = ' ';
	return p;
}

static int
in_list(const char *const *list, const char *s)
{
	for (; *list != NULL; list++)
		if (strcmp(*list, s) == 0)
			return 1;
	return 0;
}

static int
strv_has(const struct strv *sv, const char *s)
{
	for (size_t i = 0; i < sv->n; i++)
		if (strcmp(sv->v[i], s) == 0)
			return 1;
	return 0;
}

/* Add S (converted for the user) to SV unless it is there. */
static void
push_once(struct strv *sv, const char *s)
{
	char *p = shown(s);

	if (!strv_has(sv, p))
		strv_push(sv, p);
	free(p);
}

static int
is_name_start(char c)
{
	return isalpha((unsigned char)c) || c == '_';
}

static int
is_name_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* The length of "NAME=" or "NAME+=" at the start of W, or 0. */
static size_t
assign_len(const char *w, size_t n)
{
	size_t i = 0;

	if (n == 0 || !is_name_start(w[0]))
		return 0;
	while (i < n && is_name_char(w[i]))
		i++;
	if (i + 1 < n && w[i] == '+' && w[i + 1] == '=')
		return i + 2;
	return i < n && w[i] == '=' ? i + 1 : 0;
}

static int
is_assign(const char *w)
{
	return assign_len(w, strlen(w)) > 0;
}

/* A decimal integer, blanks around it allowed; 0 if S is not one. */
static int
parse_ll(const char *s, long long *v)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	if (!isdigit((unsigned char)*s) && *s != '-' && *s != '+')
		return 0;
	errno = 0;
	*v = strtoll(s, &e, 10);
	if (errno != 0 || e == s)
		return 0;
	while (*e == ' ' || *e == '\t')
		e++;
	return *e == '\0';
}

/* A count or port: a non-negative int, or -1. */
static int
to_int(const char *s)
{
	long long v;

	return s != NULL && parse_ll(s, &v) && v >= 0 && v <= 0x7fffffff ?
	    (int)v : -1;
}

/* Variables. */

static struct var *
lookup(struct scanner *sc, const char *name, size_t n)
{
	for (size_t i = 0; i < sc->nvars; i++)
		if (strncmp(sc->vars[i].name, name, n) == 0 &&
		    sc->vars[i].name[n] == '\0')
			return &sc->vars[i];
	return NULL;
}

/*
 * Set NAME (N bytes) to VALUE.  Past MAX_VARS names, new ones are not
 * stored and every name not stored reads as unknown from then on.
 */
static void
set_var(struct scanner *sc, const char *name, size_t n, const char *value,
    int known)
{
	struct var *v = lookup(sc, name, n);
	size_t len = strlen(value);

	if (v == NULL) {
		if (sc->nvars == MAX_VARS) {
			sc->full = 1;
			return;
		}
		if (sc->nvars == sc->capvars) {
			sc->capvars = sc->capvars ? sc->capvars * 2 : 64;
			sc->vars = reallocarray(sc->vars, sc->capvars,
			    sizeof(*sc->vars));
			if (sc->vars == NULL)
				abort();
		}
		v = &sc->vars[sc->nvars++];
		v->name = xstrndup(name, n);
		v->value = NULL;
	}
	if (len > MAX_VALUE) {
		len = MAX_VALUE;
		known = 0;
	}
	free(v->value);
	v->value = xstrndup(value, len);
	v->known = known;
}

static void
unset_var(struct scanner *sc, const char *name)
{
	struct var *v = lookup(sc, name, strlen(name));

	if (v == NULL)
		return;
	free(v->name);
	free(v->value);
	*v = sc->vars[--sc->nvars];
}

/* A variable as a count or port, -1 when unset, unknown or not a number. */
static int
var_int(struct scanner *sc, const char *name)
{
	struct var *v = lookup(sc, name, strlen(name));

	return v != NULL && v->known ? to_int(v->value) : -1;
}

/* Skipping over quoted text and nested constructs. */

/*
 * The end of a construct whose opening ("$(", "${" or '"') ends just
 * before P; OPEN is '(', '{' or '"'.  Returns the byte after its closing
 * bracket or quote, or E with *CLOSED 0 when it is not closed.  Quotes,
 * escapes and constructs inside are skipped as the shell reads them.
 */
static const char *
construct_end(const char *p, const char *e, char open, int *closed)
{
	struct buf st = { 0 };
	const char *end = scan_construct(p, e, open, &st);

	*closed = end != NULL;
	free(st.s);
	return end != NULL ? end : e;
}

/*
 * The loop of construct_end(): ST holds the brackets and quotes still
 * open (it grows with the text, so any depth is read exactly).  NULL when
 * the text ends first.
 */
static const char *
scan_construct(const char *p, const char *e, char open, struct buf *st)
{
	char c, top;
	const char *q;

	buf_add(st, &open, 1);
	for (; p < e; p++) {
		c = *p;
		top = st->s[st->len - 1];
		if (c == '\\') {
			if (p + 1 < e)
				p++;
			continue;
		}
		if (c == '`') {
			if ((q = memchr(p + 1, c, (size_t)(e - p - 1))) == NULL)
				return NULL;
			p = q;
			continue;
		}
		if (c == '$' && p + 1 < e && (p[1] == '(' || p[1] == '{')) {
			buf_add(st, ++p, 1);
			continue;
		}
		/* Single quotes quote, except in "${X:-'a'}" (plain text). */
		if (top == '"') {
			if (c == '"')
				st->len--;
		} else if (c == '\'' && !(top == '{' && st->len > 1 &&
		    st->s[st->len - 2] == '"')) {
			if ((q = memchr(p + 1, c, (size_t)(e - p - 1))) == NULL)
				return NULL;
			p = q;
		} else if (c == '"' || (c == '(' && top == '('))
			buf_add(st, &c, 1);
		else if ((c == ')' && top == '(') || (c == '}' && top == '{'))
			st->len--;
		if (st->len == 0)
			return p + 1;
	}
	return NULL;
}

/*
 * In "$((...))" from P (after the "$(("), the first ')' of the closing
 * "))", or NULL when there is none: then it was "$( (...) )".
 */
static const char *
arith_end(const char *p, const char *e)
{
	size_t depth = 0;

	for (; p < e; p++) {
		if (*p == '(')
			depth++;
		else if (*p == ')' && depth > 0)
			depth--;
		else if (*p == ')')
			return p + 1 < e && p[1] == ')' ? p : NULL;
	}
	return NULL;
}

/* Building words. */

/* End the current word (a no-op for a single value). */
static void
fb_end(struct fb *f)
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

/* Add C; unquoted blanks that came from an expansion split words. */
static void
put(struct fb *f, char c, int quoted)
{
	if (!quoted && f->fields != NULL && (c == ' ' || c == '\t' ||
	    c == '\n')) {
		fb_end(f);
		return;
	}
	if (f->room == 0) {
		f->unknown = 1;
		return;
	}
	f->room--;
	buf_add(&f->cur, &c, 1);
}

static void
put_str(struct fb *f, const char *s, size_t n, int quoted)
{
	for (size_t i = 0; i < n; i++)
		put(f, s[i], quoted);
}

/* Text that could not be evaluated: kept as written, as one word. */
static void
put_unknown(struct fb *f, const char *s, const char *e)
{
	f->unknown = 1;
	for (; s < e; s++)
		put(f, isspace((unsigned char)*s) ? HARD_SPACE : *s, 1);
}

static void
put_value(struct fb *f, const struct var *v, int dq)
{
	if (!v->known)
		f->unknown = 1;
	put_str(f, v->value, strlen(v->value), dq);
}

/* Arithmetic: + - * / % and parentheses over integers and names. */

struct arith {
	struct scanner	*sc;
	const char	*p;
	int		 ok, depth;
};

static long long	arith_sum(struct arith *);

static void
arith_blank(struct arith *a)
{
	while (*a->p == ' ' || *a->p == '\t' || *a->p == '\n' ||
	    *a->p == HARD_SPACE)
		a->p++;
}

static long long
arith_name(struct arith *a)
{
	const char *s = a->p;
	struct var *v;
	long long n = 0;

	while (is_name_char(*a->p))
		a->p++;
	v = lookup(a->sc, s, (size_t)(a->p - s));
	if (v == NULL)
		a->ok = a->ok && !a->sc->full;	/* unset is 0 */
	else if (!v->known || (*v->value != '\0' && !parse_ll(v->value, &n)))
		a->ok = 0;
	return n;
}

static long long
arith_atom(struct arith *a)
{
	long long n = 0;
	char *e;

	arith_blank(a);
	if (++a->depth > MAX_DEPTH * 4) {
		a->ok = 0;
		return 0;
	}
	if (*a->p == '(') {
		a->p++;
		n = arith_sum(a);
		arith_blank(a);
		if (*a->p == ')')
			a->p++;
		else
			a->ok = 0;
	} else if (*a->p == '-' || *a->p == '+') {
		int neg = *a->p++ == '-';

		n = arith_atom(a);
		if (neg && __builtin_sub_overflow(0, n, &n))
			a->ok = 0;
	} else if (isdigit((unsigned char)*a->p)) {
		/* Base 0 as in the shell: 010 is 8, 0x10 16, 08 an error. */
		errno = 0;
		n = strtoll(a->p, &e, 0);
		if (errno != 0 || is_name_char(*e))
			a->ok = 0;
		a->p = e;
	} else if (is_name_start(*a->p))
		n = arith_name(a);
	else
		a->ok = 0;
	a->depth--;
	return n;
}

static long long
arith_product(struct arith *a)
{
	long long n = arith_atom(a), m;
	char op;

	for (;;) {
		arith_blank(a);
		op = *a->p;
		if (!a->ok || (op != '*' && op != '/' && op != '%') ||
		    a->p[1] == '=' || (op == '*' && a->p[1] == '*'))
			return n;
		a->p++;
		m = arith_atom(a);
		if (op == '*' ? __builtin_mul_overflow(n, m, &n) :
		    m == 0 || (n == LLONG_MIN && m == -1))
			a->ok = 0;
		else if (op != '*')
			n = op == '/' ? n / m : n % m;
	}
}

static long long
arith_sum(struct arith *a)
{
	long long n = arith_product(a), m;
	char op;

	for (;;) {
		arith_blank(a);
		op = *a->p;
		if (!a->ok || (op != '+' && op != '-') || a->p[1] == op ||
		    a->p[1] == '=')
			return n;
		a->p++;
		m = arith_product(a);
		if (op == '+' ? __builtin_add_overflow(n, m, &n) :
		    __builtin_sub_overflow(n, m, &n))
			a->ok = 0;
	}
}

/* Evaluate S; 0 when it is not plain integer arithmetic. */
static int
arith_eval(struct scanner *sc, const char *s, long long *v)
{
	struct arith a = { .sc = sc, .p = s, .ok = 1 };

	*v = arith_sum(&a);
	arith_blank(&a);
	return a.ok && *a.p == '\0';
}

/* Expansion. */

/* $((...)) from P (the '$') to A (the closing "))"); returns past it. */
static const char *
arith(struct scanner *sc, const char *p, const char *a, int depth,
    struct fb *f)
{
	struct fb e = { .room = MAX_VALUE };
	long long v;
	char num[32];

	if (depth < MAX_DEPTH)
		expand(sc, p + 3, a, 0, depth + 1, &e);
	if (depth < MAX_DEPTH && !e.unknown &&
	    arith_eval(sc, e.cur.s != NULL ? e.cur.s : "", &v)) {
		snprintf(num, sizeof(num), "%lld", v);
		put_str(f, num, strlen(num), 1);
	} else
		put_unknown(f, p, a + 2);
	free(e.cur.s);
	return a + 2;
}

/*
 * The parameter named at S in "${...}" (E is the closing brace): sets *N
 * past the name, and returns its variable, or NULL when it is unset.
 * *KNOWN is 0 when it cannot be known: $?, $$, $!, $-.  The script is
 * taken to run without arguments: $1... are unset, $# is 0.
 */
static const struct var *
param_name(struct scanner *sc, const char *s, const char *e, const char **n,
    struct var *tmp, int *known)
{
	const char *q = s;
	struct var *v;

	*known = 1;
	tmp->known = 1;
	if (q < e && is_name_start(*q)) {
		while (q < e && is_name_char(*q))
			q++;
		*n = q;
		if ((v = lookup(sc, s, (size_t)(q - s))) == NULL)
			*known = !sc->full;
		return v;
	}
	if (q < e && isdigit((unsigned char)*q)) {
		while (q < e && isdigit((unsigned char)*q))
			q++;
		*n = q;
		tmp->value = (char *)sc->path;
		return q - s == 1 && *s == '0' ? tmp : NULL;
	}
	*n = q < e ? q + 1 : q;
	if (q < e && *q == '#') {
		tmp->value = (char *)"0";
		return tmp;
	}
	*known = q < e && (*q == '@' || *q == '*');
	return NULL;
}

/* "${#NAME}": its length. */
static void
param_length(struct scanner *sc, const char *p, const char *q, struct fb *f)
{
	const char *s = p + 3, *e = q - 1, *n = s;
	struct var *v;
	char num[32];

	while (n < e && is_name_char(*n))
		n++;
	if (n != e || s == e || !is_name_start(*s) ||
	    ((v = lookup(sc, s, (size_t)(e - s))) == NULL && sc->full) ||
	    (v != NULL && !v->known)) {
		put_unknown(f, p, q);
		return;
	}
	snprintf(num, sizeof(num), "%zu", v != NULL ? strlen(v->value) : 0);
	put_str(f, num, strlen(num), 1);
}

/*
 * "${...}" from P (the '$') to Q (past the '}'): ${X}, ${X-w}, ${X:-w},
 * ${X=w}, ${X:=w} (which assigns), ${X+w}, ${X:+w}, ${X?w}, ${#X}.
 * Other forms (${X%w}, ${X/a/b}, ${X:1:2}...) are left unknown.
 */
static void
param(struct scanner *sc, const char *p, const char *q, int dq, int depth,
    struct fb *f)
{
	const char *s = p + 2, *e = q - 1, *n;
	const struct var *v;
	struct var tmp;
	struct fb w = { .room = MAX_VALUE };
	int known, colon, use_word;
	char op;

	if (e - s > 1 && *s == '#') {
		param_length(sc, p, q, f);
		return;
	}
	v = param_name(sc, s, e, &n, &tmp, &known);
	colon = n < e && *n == ':';
	op = n + colon < e ? n[colon] : '\0';
	if (!known || (n < e && (op == '\0' || strchr("-=+?", op) == NULL))) {
		if (v != NULL && n == e)
			put_value(f, v, dq);
		else
			put_unknown(f, p, q);
		return;
	}
	if (n == e) {
		if (v != NULL)
			put_value(f, v, dq);
		return;
	}
	use_word = v == NULL || (colon && *v->value == '\0');
	if (op == '+' ? use_word : !use_word) {
		if (op != '+')
			put_value(f, v, dq);
	} else if (op == '?')
		put_unknown(f, p, q);		/* the shell would stop here */
	else if (op != '=')
		expand(sc, n + colon + 1, e, dq, depth + 1, f);
	else {
		/* The value assigned, then split like any value. */
		expand(sc, n + colon + 1, e, dq, depth + 1, &w);
		if (is_name_start(*s))
			set_var(sc, s, (size_t)(n - s), w.cur.s ? w.cur.s : "",
			    !w.unknown);
		put_str(f, w.cur.s, w.cur.len, dq);
		f->unknown |= w.unknown;
		free(w.cur.s);
	}
}

/* A "$..." from P (the '$'); returns the byte after it. */
static const char *
dollar(struct scanner *sc, const char *p, const char *e, int dq, int depth,
    struct fb *f)
{
	const char *n = p + 1, *q, *a;
	const struct var *v;
	int closed;

	if (n < e && (*n == '(' || *n == '{')) {
		q = construct_end(n + 1, e, *n, &closed);
		if (*n == '(' && n + 1 < e && n[1] == '(' &&
		    (a = arith_end(n + 2, e)) != NULL)
			return arith(sc, p, a, depth, f);
		if (*n == '(' || !closed || depth >= MAX_DEPTH)
			put_unknown(f, p, q);
		else
			param(sc, p, q, dq, depth, f);
		return q;
	}
	if (n < e && is_name_start(*n)) {
		for (q = n; q < e && is_name_char(*q); q++)
			;
		if ((v = lookup(sc, n, (size_t)(q - n))) != NULL)
			put_value(f, v, dq);
		else if (sc->full)
			put_unknown(f, p, q);
		return q;
	}
	if (n < e && isdigit((unsigned char)*n)) {
		if (*n == '0')
			put_str(f, sc->path, strlen(sc->path), dq);
		return n + 1;			/* no arguments: $1... empty */
	}
	if (n < e && (*n == '@' || *n == '*'))
		return n + 1;
	if (n < e && *n == '#') {
		put(f, '0', 1);
		return n + 1;
	}
	if (n < e && strchr("?$!-", *n) != NULL) {
		put_unknown(f, p, n + 1);
		return n + 1;
	}
	if (n < e && !dq && (*n == '\'' || *n == '"'))
		return n;			/* $'...', $"...": quotes */
	put(f, '$', 1);
	return n;
}

/*
 * Expand the word S..E into F: quotes removed, parameters, arithmetic
 * and escapes applied; DQ when it starts inside double quotes.
 */
static void
expand(struct scanner *sc, const char *s, const char *e, int dq, int depth,
    struct fb *f)
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
				put(f, '\\', 1);
			else if (p[1] == '\n')
				;			/* line continuation */
			else if (!dq || strchr("$`\"\\", p[1]) != NULL)
				put(f, p[1], 1);
			else
				put_str(f, p, 2, 1);
			p += p + 1 < e ? 2 : 1;
		} else if (*p == '$')
			p = dollar(sc, p, e, dq, depth, f);
		else if (*p == '`') {
			q = memchr(p + 1, '`', (size_t)(e - p - 1));
			q = q ? q + 1 : e;
			put_unknown(f, p, q);
			p = q;
		} else
			put(f, *p++, dq);	/* blanks only in ${X:-a b} */
	}
}

/* The lexer: the text as simple commands of raw words. */

static int
is_meta(char c)
{
	return strchr(" \t\n;&|()<>", c) != NULL && c != '\0';
}

/* Read one raw word (quotes and constructs kept) at the lexer. */
static char *
read_word(struct lexer *lx)
{
	const char *s = lx->p, *p = lx->p, *e = lx->end, *q;
	int closed;

	while (p < e && !is_meta(*p)) {
		if (*p == '\\')
			p += p + 1 < e ? 2 : 1;
		else if (*p == '\'' || *p == '`') {
			q = memchr(p + 1, *p, (size_t)(e - p - 1));
			p = q ? q + 1 : e;
		} else if (*p == '"')
			p = construct_end(p + 1, e, '"', &closed);
		else if (*p == '$' && p + 1 < e && (p[1] == '(' || p[1] == '{'))
			p = construct_end(p + 2, e, p[1], &closed);
		else if (*p == '=' && p + 1 < e && p[1] == '(' &&
		    assign_len(s, (size_t)(p + 1 - s)) == (size_t)(p + 1 - s))
			p = construct_end(p + 2, e, '(', &closed); /* X=(a b) */
		else
			p++;
	}
	lx->p = p;
	return xstrndup(s, (size_t)(p - s));
}

static void
skip_blanks(struct lexer *lx)
{
	while (lx->p < lx->end && (*lx->p == ' ' || *lx->p == '\t'))
		lx->p++;
}

/* The target of a redirection: read and thrown away. */
static void
drop_word(struct lexer *lx)
{
	skip_blanks(lx);
	if (lx->p < lx->end && !is_meta(*lx->p))
		free(read_word(lx));
}

/* A here-document's delimiter: its quotes only say "no expansion". */
static void
heredoc(struct lexer *lx, int dash)
{
	struct buf d = { 0 };
	char *w, *p;

	skip_blanks(lx);
	if (lx->p >= lx->end || is_meta(*lx->p))
		return;
	w = read_word(lx);
	buf_add(&d, dash ? "-" : "+", 1);
	for (p = w; *p != '\0'; p++)
		if (*p != '\'' && *p != '"' && *p != '\\')
			buf_add(&d, p, 1);
	if (lx->heredocs.n < MAX_HEREDOCS)
		strv_push(&lx->heredocs, d.s);
	free(d.s);
	free(w);
}

/* A redirection at '<' or '>': not part of the command's words. */
static void
redirect(struct lexer *lx)
{
	const char *p = lx->p;
	size_t left = (size_t)(lx->end - p);

	if (left >= 3 && strncmp(p, "<<<", 3) == 0) {
		lx->p += 3;
		drop_word(lx);
	} else if (left >= 2 && strncmp(p, "<<", 2) == 0) {
		int dash = left >= 3 && p[2] == '-';

		lx->p += 2 + dash;
		heredoc(lx, dash);
	} else {
		lx->p++;
		if (lx->p < lx->end && strchr(">&|", *lx->p) != NULL)
			lx->p++;		/* >> >& >| <& <> */
		drop_word(lx);
	}
}

/* After a newline: skip the bodies of the here-documents it started. */
static void
skip_heredocs(struct lexer *lx)
{
	for (size_t i = 0; i < lx->heredocs.n; i++) {
		const char *d = lx->heredocs.v[i] + 1, *l, *nl, *le;
		size_t dlen = strlen(d);
		int dash = lx->heredocs.v[i][0] == '-';

		while (lx->p < lx->end) {
			l = lx->p;
			nl = memchr(l, '\n', (size_t)(lx->end - l));
			le = nl ? nl : lx->end;
			lx->p = nl ? nl + 1 : lx->end;
			while (dash && l < le && *l == '\t')
				l++;
			if ((size_t)(le - l) == dlen && memcmp(l, d, dlen) == 0)
				break;
		}
	}
	strv_free(&lx->heredocs);
}

static int
all_digits(const char *s)
{
	return *s != '\0' && strspn(s, "0123456789") == strlen(s);
}

/*
 * Read the next simple command into W (empty for a blank line).  Lists
 * (;, &&, ||, &), pipelines and brackets separate commands; comments and
 * redirections are dropped.  Returns 0 at the end of the text.
 */
static int
next_command(struct lexer *lx, struct strv *w)
{
	const char *p, *e = lx->end;
	char *word;

	while ((p = lx->p) < e) {
		if (*p == ' ' || *p == '\t')
			lx->p++;
		else if (*p == '\\' && p + 1 < e && p[1] == '\n')
			lx->p += 2;
		else if (*p == '#')
			lx->p = (p = memchr(p, '\n', (size_t)(e - p))) ? p : e;
		else if (*p == '\n') {
			lx->p++;
			skip_heredocs(lx);
			return 1;
		} else if (*p == '&' && p + 1 < e && p[1] == '>') {
			lx->p += p + 2 < e && p[2] == '>' ? 3 : 2;
			drop_word(lx);
		} else if (strchr(";&|()", *p) != NULL) {
			while (lx->p < e && strchr(";&|", *lx->p) != NULL &&
			    lx->p - p < 3)
				lx->p++;
			lx->p += lx->p == p;
			return 1;
		} else if (*p == '<' || *p == '>')
			redirect(lx);
		else {
			word = read_word(lx);
			if (all_digits(word) && lx->p < e &&
			    (*lx->p == '<' || *lx->p == '>'))
				redirect(lx);	/* 2>&1, 2>/dev/null */
			else
				strv_push(w, word);
			free(word);
		}
	}
	return w->n > 0;
}

/* Launches. */

/* A launch as shown: words joined, quoted when they hold blanks. */
static char *
display(char *const argv[])
{
	struct buf b = { 0 };
	char *q, *s;

	for (size_t i = 0; argv[i] != NULL; i++) {
		const char *a = argv[i];

		q = *a == '\0' || a[strcspn(a, " \t\n'\"")] != '\0' ?
		    shell_quote(a) : xstrdup(a);
		if (i > 0)
			buf_add(&b, " ", 1);
		buf_add(&b, q, strlen(q));
		free(q);
	}
	s = shown(b.s != NULL ? b.s : "");
	free(b.s);
	return s;
}

/*
 * The value of ARGV[I] when it is one of the options NAMES, as "--opt V"
 * (V before index TO) or "--opt=V"; NULL otherwise.
 */
static const char *
opt_at(char *const argv[], int i, int to, const char *const *names)
{
	size_t n;

	for (; *names != NULL; names++) {
		n = strlen(*names);
		if (strncmp(argv[i], *names, n) != 0)
			continue;
		if (argv[i][n] == '=')
			return argv[i] + n + 1;
		if (argv[i][n] == '\0' && i + 1 < to)
			return argv[i + 1];
	}
	return NULL;
}

/* The value of the last of the options NAMES in ARGV[FROM..TO), or NULL. */
static const char *
opt_value(char *const argv[], int from, int to, const char *const *names)
{
	const char *v = NULL, *w;

	for (int i = from; i < to; i++)
		if ((w = opt_at(argv, i, to, names)) != NULL)
			v = w;
	return v;
}

/* Counts from the variables, as they are when the first launch runs. */
static void
take_vars(struct scanner *sc)
{
	struct scan *s = sc->out;

	if (sc->took_vars++)
		return;
	s->npus_per_node = var_int(sc, "NPUS_PER_NODE");
	if (s->npus_per_node < 0)
		s->npus_per_node = var_int(sc, "GPUS_PER_NODE");
	s->nnodes = var_int(sc, "NNODES");
	s->node_rank = var_int(sc, "NODE_RANK");
	s->master_port = var_int(sc, "MASTER_PORT");
}

/* The launcher's own options (before the script) override variables. */
static void
launcher_options(struct scanner *sc, char *const argv[], int script)
{
	static const char *const nproc[] = { "--nproc_per_node",
	    "--nproc-per-node", "--local_worker_num", NULL };
	static const char *const nnodes[] = { "--nnodes", NULL };
	static const char *const workers[] = { "--worker_num", NULL };
	static const char *const rank[] = { "--node_rank", "--node-rank",
	    NULL };
	static const char *const port[] = { "--master_port", "--master-port",
	    NULL };
	struct scan *s = sc->out;
	const char *v;
	int w;

	if ((v = opt_value(argv, 1, script, nproc)) != NULL)
		s->npus_per_node = to_int(v);
	if ((v = opt_value(argv, 1, script, nnodes)) != NULL)
		s->nnodes = to_int(v);
	else if ((w = to_int(opt_value(argv, 1, script, workers))) > 0 &&
	    s->npus_per_node > 0 && w % s->npus_per_node == 0)
		s->nnodes = w / s->npus_per_node;	/* msrun: all workers */
	if ((v = opt_value(argv, 1, script, rank)) != NULL)
		s->node_rank = to_int(v);
	if ((v = opt_value(argv, 1, script, port)) != NULL)
		s->master_port = to_int(v);
}

/* The name users know the launcher by. */
static const char *
launcher_name(struct scanner *sc, char *const argv[])
{
	struct launch_match m;

	switch (match_launch(sc->tab->match, argv[0], argv, &m)) {
	case LAUNCH_PY_MODULE:
		return m.operand;
	case LAUNCH_PY_SCRIPT:
		if (table_has(sc->tab->match, MATCH_KEY_LAUNCHER, m.operand))
			return path_base(m.operand); /* python .../torchrun */
		break;
	default:
		break;
	}
	return path_base(argv[0]);
}

static void
first_launch(struct scanner *sc, char *const argv[], const struct launch *l)
{
	static const char *const iters[] = { "--train-iters", NULL };
	struct scan *s = sc->out;
	int argc = 0;

	while (argv[argc] != NULL)
		argc++;
	s->engine = l->engine;
	s->entry = shown(argv[l->script]);
	s->launcher = shown(launcher_name(sc, argv));
	take_vars(sc);
	launcher_options(sc, argv, l->script);
	s->train_iters = to_int(opt_value(argv, l->script + 1, argc, iters));
}

static int
yaml_engine(enum engine e)
{
	return engine_ops(e)->yaml_first;
}

/* Configuration files a launch names. */
static void
configs(struct scanner *sc, char *const argv[], const struct launch *l)
{
	static const char *const mm[] = { "--mm-tool", "--mm-data",
	    "--mm-model", NULL };
	const char *a, *v;
	struct var *tool;
	int yaml = yaml_engine(l->engine), argc = 0;

	while (argv[argc] != NULL)
		argc++;
	for (int i = l->script + 1; (a = argv[i]) != NULL; i++) {
		if (yaml && (ends_with(a, ".yaml") || ends_with(a, ".yml"))) {
			push_once(&sc->out->configs, a);
			yaml = 0;
		}
		if ((v = opt_at(argv, i, argc, mm)) != NULL && *v != '\0')
			push_once(&sc->out->configs, v);
	}
	tool = lookup(sc, "MM_TOOL", 7);
	if (tool != NULL && tool->known && *tool->value != '\0')
		push_once(&sc->out->configs, tool->value);
}

/* Profiling settings a launch already carries: its engine's rule. */
static void
existing(struct scanner *sc, char *const argv[], const struct launch *l)
{
	struct strv found = { 0 };

	launch_existing(l, argv, &found);
	for (size_t i = 0; i < found.n; i++)
		push_once(&sc->out->existing, found.v[i]);
	strv_free(&found);
}

/* Keep ARGV as it is for the dry run. */
static void
keep_launch(struct scan *s, char *const argv[])
{
	struct scan_launch *r;

	s->runs = xreallocarray(s->runs, s->nruns + 1, sizeof(*s->runs));
	r = &s->runs[s->nruns++];
	memset(r, 0, sizeof(*r));
	for (size_t i = 0; argv[i] != NULL; i++)
		strv_push(&r->argv, argv[i]);
}

/* ARGV (a command after its prefixes) if it is a training launch. */
static void
try_launch(struct scanner *sc, char *const argv[])
{
	struct launch l;
	struct scan *s = sc->out;
	char *shown_launch;

	launch_classify(sc->tab, NULL, argv[0], argv, &l);
	if (l.kind == LAUNCH_NONE || l.script < 0 || s->nruns >= MAX_LAUNCHES)
		return;
	keep_launch(s, argv);	/* left alone ones too: the table says why */
	if (l.engine == ENGINE_NONE)
		return;
	shown_launch = display(argv);
	strv_push(&s->launches, shown_launch);
	free(shown_launch);
	if (s->launches.n == 1)
		first_launch(sc, argv, &l);
	configs(sc, argv, &l);
	existing(sc, argv, &l);
}

/* Commands. */

/* The index of the command word after exec, env, nohup, time, X=v. */
static size_t
command_word(char *const v[], size_t n)
{
	size_t k = 0;

	while (k < n) {
		if (is_assign(v[k]) || strcmp(v[k], "nohup") == 0)
			k++;
		else if (strcmp(v[k], "time") == 0 ||
		    strcmp(v[k], "exec") == 0) {
			int exec = v[k++][0] == 'e';

			for (; k < n && v[k][0] == '-'; k++)
				k += exec && strcmp(v[k], "-a") == 0;
		} else if (strcmp(v[k], "env") == 0) {
			for (k++; k < n && (v[k][0] == '-' || is_assign(v[k]));
			    k++)
				k += strcmp(v[k], "-u") == 0 ||
				    strcmp(v[k], "-C") == 0;
		} else
			break;
	}
	return k < n ? k : n;
}

/* Run a command that is not an assignment: expand it, look at it. */
static void
command(struct scanner *sc, char *const w[], size_t n)
{
	struct strv fields = { 0 };
	struct fb f = { .fields = &fields, .room = MAX_COMMAND };
	size_t k;

	for (size_t i = 0; i < n; i++) {
		/* "$@" with no arguments is no word at all. */
		if (strcmp(w[i], "\"$@\"") == 0 ||
		    strcmp(w[i], "\"${@}\"") == 0)
			continue;
		expand(sc, w[i], w[i] + strlen(w[i]), 0, 0, &f);
		fb_end(&f);
	}
	free(f.cur.s);
	if ((k = command_word(fields.v, fields.n)) < fields.n)
		try_launch(sc, fields.v + k);
	strv_free(&fields);
}

/* NAME=value or NAME+=value. */
static void
assign(struct scanner *sc, const char *w)
{
	size_t len = strlen(w), n = assign_len(w, len);
	int append = w[n - 2] == '+';
	size_t namelen = n - 1 - (size_t)append;
	const char *val = w + n;
	struct fb f = { .room = MAX_VALUE };
	const struct var *old;
	const char *value;
	char *s;

	if (*val == '(')
		put_unknown(&f, val, w + len);	/* an array */
	else
		expand(sc, val, w + len, 0, 0, &f);
	value = f.cur.s != NULL ? f.cur.s : "";
	if (append && (old = lookup(sc, w, namelen)) != NULL) {
		s = xasprintf("%s%s", old->value, value);
		f.unknown |= !old->known;
	} else
		s = xstrdup(value);
	set_var(sc, w, namelen, s, !f.unknown);
	free(s);
	free(f.cur.s);
}

/* Names a command sets to what cannot be known (read, for, select). */
static void
set_unknown(struct scanner *sc, const char *name)
{
	char *v;

	if (!is_name_start(*name) || name[strspn(name, "abcdefghijklmnopqrstu"
	    "vwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")] != '\0')
		return;
	v = xasprintf("$%s", name);
	set_var(sc, name, strlen(name), v, 0);
	free(v);
}

/* Builtins that change variables: export, local, unset, read... */
static int
builtin(struct scanner *sc, char *const w[], size_t n)
{
	static const char *const declare[] = { "export", "local", "readonly",
	    "declare", "typeset", NULL };
	static const char *const header[] = { "for", "select", "case",
	    "function", NULL };
	size_t i;

	if (in_list(header, w[0])) {
		if (n > 1 && (strcmp(w[0], "for") == 0 ||
		    strcmp(w[0], "select") == 0))
			set_unknown(sc, w[1]);	/* the loop variable */
		return 1;
	}
	if (in_list(declare, w[0])) {
		for (i = 1; i < n; i++)
			if (is_assign(w[i]))
				assign(sc, w[i]);
		return 1;
	}
	if (strcmp(w[0], "unset") == 0 || strcmp(w[0], "read") == 0) {
		for (i = 1; i < n; i++)
			if (w[0][0] == 'u')
				unset_var(sc, w[i]);
			else if (w[i][0] != '-')
				set_unknown(sc, w[i]);
		return 1;
	}
	return 0;
}

/*
 * One simple command.  Reserved words in front (if, then, do...) are
 * skipped, so that commands in conditionals and loops are read like any
 * other: both branches of an if, in order.
 */
static void
run_command(struct scanner *sc, const struct strv *w)
{
	static const char *const reserved[] = { "if", "then", "else", "elif",
	    "fi", "do", "done", "while", "until", "!", "{", "}", "esac", NULL };
	size_t i = 0, a;

	while (i < w->n && in_list(reserved, w->v[i]))
		i++;
	if (i == w->n)
		return;
	for (a = i; a < w->n && is_assign(w->v[a]); a++)
		;
	if (a == w->n) {
		for (; i < a; i++)
			assign(sc, w->v[i]);
	} else if (a > i || !builtin(sc, w->v + i, w->n - i))
		command(sc, w->v + a, w->n - a);
}

/* Variables of the environment the script will start with. */
static void
environment(struct scanner *sc, char *const envp[])
{
	size_t n;

	for (; envp != NULL && *envp != NULL; envp++)
		if ((n = assign_len(*envp, strlen(*envp))) > 0 &&
		    (*envp)[n - 2] != '+')
			set_var(sc, *envp, n - 1, *envp + n, 1);
}

/* CRLF line ends become LF. */
static void
crlf(char *s)
{
	char *d = s;

	for (; *s != '\0'; s++)
		if (*s != '\r' || (s[1] != '\n' && s[1] != '\0'))
			*d++ = *s;
	*d = '\0';
}

/*
 * The model a script trains, from its file name.  MindSpeed names its
 * examples TASK_MODEL_TAGS.sh.  The rule: the base name without ".sh"
 * must start with pretrain_, finetune_, tune_ or posttrain_ (otherwise
 * there is no model name), which is removed; then "_"-separated tags are
 * removed from the end while they are a sequence length (4K, 32k) or one
 * of ptd, ms, mcore, fsdp2, full, lora, qlora, pack, quant, A2, A3, A5
 * (in any case).  The first part always stays.
 *	pretrain_qwen3_8b_4K_ptd.sh		qwen3_8b
 *	tune_deepseek3_671b_16k_lora_A3_ptd.sh	deepseek3_671b
 *	pretrain.sh, data_convert_qwen3.sh	NULL
 */
static char *
model_name(const char *path)
{
	static const char *const prefixes[] = { "pretrain_", "finetune_",
	    "tune_", "posttrain_", NULL };
	static const char *const tags[] = { "ptd", "ms", "mcore", "fsdp2",
	    "full", "lora", "qlora", "pack", "quant", "A2", "A3", "A5", NULL };
	const char *base = path_base(path), *const *p;
	char *name, *cut, *tag;
	const char *const *t;

	for (p = prefixes; *p != NULL; p++)
		if (strncmp(base, *p, strlen(*p)) == 0)
			break;
	if (*p == NULL)
		return NULL;
	name = xstrdup(base + strlen(*p));
	if (ends_with(name, ".sh"))
		name[strlen(name) - 3] = '\0';
	while ((cut = strrchr(name, '_')) != NULL) {
		tag = cut + 1;
		for (t = tags; *t != NULL && strcasecmp(*t, tag) != 0; t++)
			;
		if (*t == NULL && !(strspn(tag, "0123456789") > 0 &&
		    strcasecmp(tag + strspn(tag, "0123456789"), "k") == 0))
			break;
		*cut = '\0';
	}
	if (*name == '\0' || *name == '_') {
		free(name);
		return NULL;
	}
	return name;
}

static void
scan_text(struct scanner *sc, char *text)
{
	struct lexer lx = { .p = text };
	struct strv w = { 0 };

	crlf(text);
	lx.end = text + strlen(text);
	while (next_command(&lx, &w)) {
		run_command(sc, &w);
		strv_free(&w);
	}
	strv_free(&w);
	strv_free(&lx.heredocs);
}

int
scan_script(const struct launchtab *tab, const char *path,
    char *const envp[], struct scan *s, char **why)
{
	struct scanner sc = { .tab = tab, .path = path, .out = s };
	char *text;

	memset(s, 0, sizeof(*s));
	s->npus_per_node = s->nnodes = s->node_rank = s->master_port = -1;
	s->train_iters = -1;
	s->engine = ENGINE_NONE;
	if ((text = read_file(path, NULL)) == NULL) {
		*why = xasprintf(_("cannot read %s: %s"), path,
		    strerror(errno));
		return -1;
	}
	s->model = model_name(path);
	environment(&sc, envp);
	scan_text(&sc, text);
	take_vars(&sc);		/* no launch: as the script ends */
	for (size_t i = 0; i < sc.nvars; i++) {
		free(sc.vars[i].name);
		free(sc.vars[i].value);
	}
	free(sc.vars);
	free(text);
	return 0;
}

void
scan_free(struct scan *s)
{
	free(s->model);
	free(s->entry);
	free(s->launcher);
	strv_free(&s->launches);
	for (size_t i = 0; i < s->nruns; i++) {
		strv_free(&s->runs[i].argv);
		strv_free(&s->runs[i].env);
	}
	free(s->runs);
	strv_free(&s->configs);
	strv_free(&s->existing);
	memset(s, 0, sizeof(*s));
}
