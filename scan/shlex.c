/*
 * The lexer of the shell reader: names and assignments, the extent of
 * quoted text and nested constructs, and the text as simple commands of
 * raw words (quotes and constructs kept, comments, redirections and
 * here-document bodies dropped).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "sh.h"

int
sh_is_name_start(char c)
{
	return isalpha((unsigned char)c) || c == '_';
}

int
sh_is_name_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

size_t
sh_assign_len(const char *w, size_t n)
{
	size_t i = 0;

	if (n == 0 || !sh_is_name_start(w[0]))
		return 0;
	while (i < n && sh_is_name_char(w[i]))
		i++;
	if (i + 1 < n && w[i] == '+' && w[i + 1] == '=')
		return i + 2;
	return i < n && w[i] == '=' ? i + 1 : 0;
}

int
sh_is_assign(const char *w)
{
	return sh_assign_len(w, strlen(w)) > 0;
}

int
sh_all_digits(const char *s)
{
	return *s != '\0' && strspn(s, "0123456789") == strlen(s);
}

/* Skipping over quoted text and nested constructs. */

/*
 * The loop of sh_construct_end(): ST holds the brackets and quotes still
 * open (it grows with the text, so any depth is read exactly).  NULL when
 * the text ends first.  Quotes, escapes and constructs inside are skipped
 * as the shell reads them.
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

const char *
sh_construct_end(const char *p, const char *e, char open, int *closed)
{
	struct buf st = { 0 };
	const char *end = scan_construct(p, e, open, &st);

	*closed = end != NULL;
	free(st.s);
	return end != NULL ? end : e;
}

const char *
sh_arith_end(const char *p, const char *e)
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

/* Simple commands. */

static int
is_meta(char c)
{
	return strchr(" \t\n;&|()<>", c) != NULL && c != '\0';
}

/* Read one raw word (quotes and constructs kept) at the lexer. */
static char *
read_word(struct sh_lexer *lx)
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
			p = sh_construct_end(p + 1, e, '"', &closed);
		else if (*p == '$' && p + 1 < e && (p[1] == '(' || p[1] == '{'))
			p = sh_construct_end(p + 2, e, p[1], &closed);
		else if (*p == '=' && p + 1 < e && p[1] == '(' &&
		    sh_assign_len(s, (size_t)(p + 1 - s)) ==
		    (size_t)(p + 1 - s))
			/* an array: X=(a b) */
			p = sh_construct_end(p + 2, e, '(', &closed);
		else
			p++;
	}
	lx->p = p;
	return xstrndup(s, (size_t)(p - s));
}

static void
skip_blanks(struct sh_lexer *lx)
{
	while (lx->p < lx->end && (*lx->p == ' ' || *lx->p == '\t'))
		lx->p++;
}

/* The target of a redirection: read and thrown away. */
static void
drop_word(struct sh_lexer *lx)
{
	skip_blanks(lx);
	if (lx->p < lx->end && !is_meta(*lx->p))
		free(read_word(lx));
}

/* A here-document's delimiter: its quotes only say "no expansion". */
static void
heredoc(struct sh_lexer *lx, int dash)
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
	if (lx->heredocs.n < SH_MAX_HEREDOCS)
		strv_push(&lx->heredocs, d.s);
	free(d.s);
	free(w);
}

/* A redirection at '<' or '>': not part of the command's words. */
static void
redirect(struct sh_lexer *lx)
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
skip_heredocs(struct sh_lexer *lx)
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

/* The line of P, counting on from the last line asked for. */
static int
line_at(struct sh_lexer *lx, const char *p)
{
	const char *nl;

	while ((nl = memchr(lx->counted, '\n', (size_t)(p - lx->counted))) !=
	    NULL) {
		lx->line++;
		lx->counted = nl + 1;
	}
	return lx->line;
}

void
sh_lexer_init(struct sh_lexer *lx, const char *text, size_t len)
{
	memset(lx, 0, sizeof(*lx));
	lx->p = lx->counted = text;
	lx->end = text + len;
	lx->line = 1;
}

void
sh_lexer_free(struct sh_lexer *lx)
{
	strv_free(&lx->heredocs);
}

/*
 * Lists (;, &&, ||, &), pipelines and brackets separate commands;
 * comments and redirections are dropped.
 */
int
sh_next_command(struct sh_lexer *lx, struct strv *w, int *line)
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
			/* a list may go on after && or || on the next line */
			if (w->n > 0)
				lx->next_andor = 0;
			skip_heredocs(lx);
			return 1;
		} else if (*p == '&' && p + 1 < e && p[1] == '>') {
			lx->p += p + 2 < e && p[2] == '>' ? 3 : 2;
			drop_word(lx);
		} else if (strchr(";&|()", *p) != NULL) {
			while (lx->p < e && strchr(";&|", *lx->p) != NULL &&
			    lx->p - p < 3)
				lx->p++;
			lx->next_andor = lx->p - p == 2 && p[0] == p[1] &&
			    (*p == '&' || *p == '|');
			lx->p += lx->p == p;
			return 1;
		} else if (*p == '<' || *p == '>')
			redirect(lx);
		else {
			if (w->n == 0) {
				*line = line_at(lx, p);
				lx->andor = lx->next_andor;
			}
			word = read_word(lx);
			if (sh_all_digits(word) && lx->p < e &&
			    (*lx->p == '<' || *lx->p == '>'))
				redirect(lx);	/* 2>&1, 2>/dev/null */
			else
				strv_push(w, word);
			free(word);
		}
	}
	return w->n > 0;
}
