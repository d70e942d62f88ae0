/* The shim's real functions: what dlsym(RTLD_NEXT) would return. */
#ifndef MSPROF_NEXT_H
#define MSPROF_NEXT_H

#include <stddef.h>
#include <stdint.h>

/* What is known of a constant name in advance. */
struct next_key {
	uint32_t	hash;		/* next_hash() */
	uint32_t	size;		/* with its NUL */
};

/*
 * Set FNS[i] to dlsym(RTLD_NEXT, NAMES[i]) as called from the shim, for N
 * names.  KEYS, if not NULL, holds their hashes and sizes, known when the
 * names are constants.  Only for the shim's constructor.
 */
void	next_symbols(const char *const names[], const struct next_key *keys,
	    void *fns[], size_t n);

/* The GNU hash of NAME, as the loader computes it. */
uint32_t next_hash(const char *name);

#endif
