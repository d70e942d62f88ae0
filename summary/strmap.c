/* A string-keyed hash table of pointers. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "strmap.h"

static size_t
hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL;	/* FNV-1a */

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return (size_t)h;
}

static size_t
find(const struct strmap *m, const char *key)
{
	size_t j = hash(key) & (m->cap - 1);

	while (m->key[j] != NULL && strcmp(m->key[j], key) != 0)
		j = (j + 1) & (m->cap - 1);
	return j;
}

static void
grow(struct strmap *m)
{
	struct strmap old = *m;
	size_t i;

	m->cap = m->cap ? m->cap * 2 : 64;
	m->key = xcalloc(m->cap, sizeof(*m->key));
	m->val = xcalloc(m->cap, sizeof(*m->val));
	for (i = 0; i < old.cap; i++)
		if (old.key[i] != NULL) {
			size_t j = find(m, old.key[i]);

			m->key[j] = old.key[i];
			m->val[j] = old.val[i];
		}
	free(old.key);
	free(old.val);
}

void **
strmap_slot(struct strmap *m, const char *key)
{
	size_t j;

	if ((m->n + 1) * 2 > m->cap)
		grow(m);
	j = find(m, key);
	if (m->key[j] == NULL) {
		m->key[j] = xstrdup(key);
		m->n++;
	}
	return &m->val[j];
}

void *
strmap_get(const struct strmap *m, const char *key)
{
	size_t j;

	if (m->cap == 0)
		return NULL;
	j = find(m, key);
	return m->key[j] != NULL ? m->val[j] : NULL;
}

void
strmap_each(const struct strmap *m, void (*fn)(const char *, void *, void *),
    void *arg)
{
	size_t i;

	for (i = 0; i < m->cap; i++)
		if (m->key[i] != NULL)
			fn(m->key[i], m->val[i], arg);
}

void
strmap_free(struct strmap *m, void (*free_val)(void *))
{
	size_t i;

	for (i = 0; i < m->cap; i++)
		if (m->key[i] != NULL) {
			if (free_val != NULL)
				free_val(m->val[i]);
			free(m->key[i]);
		}
	free(m->key);
	free(m->val);
	memset(m, 0, sizeof(*m));
}
