/* A string-keyed hash table of pointers (open addressing, grows). */
#ifndef MSPROF_SUMMARY_STRMAP_H
#define MSPROF_SUMMARY_STRMAP_H

#include <stddef.h>

struct strmap {
	char	**key;
	void	**val;
	size_t	  cap, n;
};

/* The slot of KEY's value, created (NULL) when new. */
void	**strmap_slot(struct strmap *, const char *key);
void	 *strmap_get(const struct strmap *, const char *key);
/* Call FN on every value (and free the keys with strmap_free). */
void	  strmap_each(const struct strmap *, void (*fn)(const char *, void *, void *),
	    void *arg);
void	  strmap_free(struct strmap *, void (*free_val)(void *));

#endif
