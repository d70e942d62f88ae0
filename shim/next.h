/* The shim's real functions: what dlsym(RTLD_NEXT) would return. */
#ifndef MSPROF_NEXT_H
#define MSPROF_NEXT_H

#include <stddef.h>

/*
 * Set FNS[i] to dlsym(RTLD_NEXT, NAMES[i]) as called from the shim, for N
 * names.  Only for the shim's constructor.
 */
void	next_symbols(const char *const names[], void *fns[], size_t n);

#endif
