/*
 * The environment that carries the shim: the session variables
 * (shim/contract.h) and LD_PRELOAD with the shim first.  msprof-exec gives
 * it to the command; the injector gives it back to a program the shim
 * handed over that turned out to be no launch (python tools/x.py), so
 * that what that program starts is still seen.
 */
#ifndef MSPROF_SHIMENV_H
#define MSPROF_SHIMENV_H

#include <stddef.h>

/* The session the shim is to serve. */
struct shim_session {
	const char	*shim, *injector, *session, *match;
};

struct shimenv {
	char	**envp;		/* the environment to exec with */
	char	 *ld;		/* its LD_PRELOAD entry */
	char	 *vars[4];	/* its session variables */
	size_t	  size;		/* their bytes, with the NULs */
};

/*
 * ENVP with the session S in it, into E; -1 when the session variables
 * are too large for the shim to keep (e->size > SHIM_SAVED_BYTES).
 * shimenv_free() it in either case.
 */
int	shimenv_make(struct shimenv *e, char *const envp[],
	    const struct shim_session *s);
void	shimenv_free(struct shimenv *);

#endif
