/*
 * Independent pieces of work on several threads: FN(ARG, I) for each I
 * below N, each exactly once, in no particular order (the caller keeps
 * the results by I, so they do not depend on timing).  The calling thread
 * works too; with THREADS of 0 it works alone.
 */
#ifndef MSPROF_PARALLEL_H
#define MSPROF_PARALLEL_H

#include <stddef.h>

void	parallel_for(size_t n, size_t threads, void (*fn)(void *, size_t),
	    void *arg);

#endif
