/* The shim's real functions: what dlsym(RTLD_NEXT) would return. */
#ifndef MSPROF_NEXT_H
#define MSPROF_NEXT_H

#include <stddef.h>
#include <stdint.h>

/*
 * Set FNS[i] to dlsym(RTLD_NEXT, NAMES[i]) as called from the shim, for N
 * names.  HASHES, if not NULL, holds their GNU hashes (next_hash()), known
 * when the names are constants.  Only for the shim's constructor.
 */
void	next_symbols(const char *const names[], const uint32_t *hashes,
	    void *fns[], size_t n);

/* The GNU hash of NAME, as the loader computes it. */
uint32_t next_hash(const char *name);

#endif
