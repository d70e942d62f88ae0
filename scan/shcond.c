/*
 * Which branches of the script the reader takes.  It reads both branches
 * of an if, in order, unless its condition is a test of words it knows
 * ("[ x"$dir" == x"test" ]"): then only the branch the script takes.  A
 * cd in a branch it cannot decide, a case, a loop or after && or || makes
 * the directory it reads from after it a guess (sh->cwd_unsure).
 */
#include <stdlib.h>
#include <string.h>

#include "sh.h"

/* The innermost block, when its kind is kept, or NULL. */
static struct sh_block *
innermost(struct sh *sh)
{
	return sh->blocks > 0 && sh->blocks <= SH_MAX_BLOCKS ?
	    &sh->block[sh->blocks - 1] : NULL;
}

void
sh_block_open(struct sh *sh, char kind)
{
	struct sh_block *b;

	sh->blocks++;
	if ((b = innermost(sh)) != NULL)
		*b = (struct sh_block){ .kind = kind, .part = 'c',
		    .value = -1 };
}

void
sh_block_close(struct sh *sh)
{
	if (sh->blocks > 0)
		sh->blocks--;
}

void
sh_branch(struct sh *sh, const char *word)
{
	struct sh_block *b = innermost(sh);

	if (b == NULL || b->kind != 'i')
		return;
	if (strcmp(word, "then") == 0) {
		if (b->part == 'c')
			b->part = 't';
	} else if (b->part == 'x' || (b->part == 't' && b->value == 1))
		b->part = 'x';		/* a branch before was taken */
	else if (strcmp(word, "elif") == 0)
		/* after a branch not decided, nor is this one */
		b->part = b->value == 0 ? 'c' : 'u';
	else if (strcmp(word, "else") == 0)
		b->part = 'e';
}

/* Is S a pattern ([[ a == x* ]]), not a word compared as it is? */
static int
pattern(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

/* The value of test W (already expanded), or -1 when not known. */
static int
test_value(char *const w[], size_t n)
{
	const char *close = NULL;
	size_t k = 1;

	if (strcmp(w[0], "[") == 0)
		close = "]";
	else if (strcmp(w[0], "[[") == 0)
		close = "]]";
	else if (strcmp(w[0], "test") != 0)
		return -1;
	if (close != NULL && strcmp(w[--n], close) != 0)
		return -1;
	if (n - k != 3)
		return -1;
	if (close != NULL && close[1] == ']' && pattern(w[k + 2]))
		return -1;
	if (strcmp(w[k + 1], "=") == 0 || strcmp(w[k + 1], "==") == 0)
		return strcmp(w[k], w[k + 2]) == 0;
	if (strcmp(w[k + 1], "!=") == 0)
		return strcmp(w[k], w[k + 2]) != 0;
	return -1;
}

void
sh_condition(struct sh *sh, char *const w[], size_t n, int negate)
{
	struct sh_block *b = innermost(sh);
	struct strv fields = { 0 };
	struct sh_fb f = { .fields = &fields, .room = SH_MAX_VALUE };
	int v = -1;

	if (b == NULL || b->kind != 'i' || (b->part != 'c' && b->part != 'u'))
		return;
	if (b->part == 'u') {
		b->part = 'c';
		b->value = -1;
		return;
	}
	for (size_t i = 0; i < n; i++) {
		sh_expand(sh, w[i], w[i] + strlen(w[i]), 0, 0, &f);
		sh_fb_end(&f);
	}
	if (!f.unknown && fields.n > 0 && (v = test_value(fields.v,
	    fields.n)) >= 0 && negate)
		v = !v;
	free(f.cur.s);
	strv_free(&fields);
	b->value = (signed char)v;
}

void
sh_condition_list(struct sh *sh)
{
	struct sh_block *b = innermost(sh);

	if (b != NULL && b->kind == 'i' && b->part == 'c')
		b->value = -1;
}

void
sh_loop_words(struct sh *sh, char *const w[], size_t n)
{
	struct sh_block *b = innermost(sh);
	struct strv fields = { 0 };
	struct sh_fb f = { .fields = &fields, .room = SH_MAX_VALUE };

	for (size_t i = 0; i < n && strcmp(w[i], ";") != 0; i++) {
		sh_expand(sh, w[i], w[i] + strlen(w[i]), 0, 0, &f);
		sh_fb_end(&f);
	}
	if (b != NULL && b->kind == 'l' && !f.unknown && fields.n == 0)
		b->part = 'x';
	free(f.cur.s);
	strv_free(&fields);
}

int
sh_dead(const struct sh *sh)
{
	for (int k = 0; k < sh->blocks && k < SH_MAX_BLOCKS; k++) {
		const struct sh_block *b = &sh->block[k];

		if (b->part == 'x' || (b->kind == 'i' && ((b->part == 't' &&
		    b->value == 0) || (b->part == 'e' && b->value == 1))))
			return 1;
	}
	return 0;
}

int
sh_unsure(const struct sh *sh)
{
	if (sh->cond || sh->blocks > SH_MAX_BLOCKS)
		return 1;
	for (int k = 0; k < sh->blocks; k++) {
		const struct sh_block *b = &sh->block[k];

		if (b->kind == 'c' || b->kind == 'l' || (b->kind == 'i' &&
		    b->value < 0))
			return 1;
	}
	return 0;
}
