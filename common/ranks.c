/* Lists of ranks as ranges (see ranks.h). */
#include <stdlib.h>
#include <string.h>

#include "ranks.h"
#include "util.h"

static int
cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* The distinct non-negative ranks of RANKS, sorted, in a new array. */
static int *
sorted_unique(const int *ranks, size_t n, size_t *out)
{
	int *v = xreallocarray(NULL, n > 0 ? n : 1, sizeof(*v));
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (ranks[i] >= 0)
			v[k++] = ranks[i];
	qsort(v, k, sizeof(*v), cmp_int);
	*out = 0;
	for (size_t i = 0; i < k; i++)
		if (*out == 0 || v[*out - 1] != v[i])
			v[(*out)++] = v[i];
	return v;
}

size_t
ranks_count(const int *ranks, size_t n)
{
	size_t k;

	free(sorted_unique(ranks, n, &k));
	return k;
}

/* Append "A" or "A-B" (with a separator unless it is the first item). */
static char *
append_item(char *s, int a, int b)
{
	char *t = a == b ? xasprintf("%s%s%d", s, *s ? ", " : "", a) :
	    xasprintf("%s%s%d-%d", s, *s ? ", " : "", a, b);

	free(s);
	return t;
}

char *
ranks_text(const int *ranks, size_t n, size_t max_items)
{
	size_t k, items = 0, rest = 0, i, j;
	int *v = sorted_unique(ranks, n, &k);
	char *s = xstrdup(""), *t;

	for (i = 0; i < k; i = j) {
		for (j = i + 1; j < k && v[j] == v[j - 1] + 1; j++)
			;
		if (max_items > 0 && items == max_items) {
			rest += j - i;
			continue;
		}
		s = append_item(s, v[i], v[j - 1]);
		items++;
	}
	free(v);
	if (rest == 0)
		return s;
	t = xasprintf(_("%s and %zu more"), s, rest);
	free(s);
	return t;
}
