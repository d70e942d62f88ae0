/*
 * Keep the shim in the environment of programs it does not target, and
 * take it out of the ones it does.  Pure functions over caller-provided
 * buffers: safe in a vfork child.
 */
#ifndef MSPROF_ENVFIX_H
#define MSPROF_ENVFIX_H

#include <stddef.h>

#include "contract.h"

/* What the shim saw in its environment when it was loaded. */
struct shim_env {
	const char	*shim;			/* our path, from MSPROF_EXEC_SHIM */
	const char	*saved[SHIM_MAX_SAVED];	/* "MSPROF_EXEC_X=value" strings */
	int		 nsaved;
	/* Set by env_measure(), for env_needs_fix(). */
	size_t		 shimlen;
	size_t		 savedlen[SHIM_MAX_SAVED];
};

/* Number of entries of a NULL-terminated vector (0 for NULL). */
size_t	vec_count(char *const v[]);

/* The value of NAME in ENVP, or NULL. */
const char *env_value(char *const envp[], const char *name);

/* Fill in the lengths of SE's strings. */
void	env_measure(struct shim_env *se);

/*
 * Does ENVP lose the shim: no LD_PRELOAD naming it, more than one
 * LD_PRELOAD, or a saved MSPROF_EXEC_* variable missing or changed?
 * One pass over ENVP; it reads a string 8 bytes at a time, never past
 * the end of the page its terminating byte is in.  SE is measured.
 */
int	env_needs_fix(const struct shim_env *se, char *const envp[]);

/* Size of the buffer env_fix needs for the new LD_PRELOAD entry. */
size_t	env_preload_size(const struct shim_env *se, char *const envp[]);

/*
 * Write into OUT (room for vec_count(envp) + se->nsaved + 2 pointers) the
 * environment ENVP with the saved variables restored and the shim first in
 * a single LD_PRELOAD entry built in LDBUF, other preloads kept in order.
 */
void	env_fix(const struct shim_env *se, char *const envp[], char **out,
	    char *ldbuf);

/*
 * Write into OUT (room for vec_count(envp) + 1) and LDBUF (room for the
 * longest LD_PRELOAD entry) ENVP without the shim and without any
 * MSPROF_EXEC_* variable; an LD_PRELOAD left empty is dropped.
 */
void	env_strip(const char *shim, char *const envp[], char **out,
	    char *ldbuf);

#endif
