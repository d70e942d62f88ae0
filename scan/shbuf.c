/* Growing strings for the shell reader and the scan. */
#include <stdlib.h>
#include <string.h>

#include "sh.h"

void
buf_add(struct buf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		b->cap = b->cap < 64 ? 64 : b->cap;
		while (b->len + n + 1 > b->cap)
			b->cap *= 2;
		if ((b->s = realloc(b->s, b->cap)) == NULL)
			abort();
	}
	if (n > 0)		/* (S may be NULL then) */
		memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

char *
sh_shown(const char *s)
{
	char *p = xstrdup(s), *q;

	for (q = p; (q = strchr(q, SH_HARD_SPACE)) != NULL; q++)
		*q = ' ';
	return p;
}
