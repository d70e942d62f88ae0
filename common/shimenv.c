/* The environment that carries the shim (shimenv.h). */
#include <stdlib.h>
#include <string.h>

#include "shim/contract.h"
#include "shim/envfix.h"
#include "shim/match.h"
#include "shimenv.h"
#include "util.h"

/*
 * The launch table with the shim's filter first: worked out here once,
 * not in every process the shim loads into (contract.h).
 */
static char *
with_filter(const char *match)
{
	struct launch_filter f;
	char text[FILTER_TEXT_MAX];

	filter_build(&f, match);
	filter_write(&f, text);
	return *match == '\0' ? xstrdup(text) : xasprintf("%s;%s", text, match);
}

int
shimenv_make(struct shimenv *e, char *const envp[],
    const struct shim_session *s)
{
	const char *const names[] = { MSPROF_ENV_SHIM, MSPROF_ENV_INJECTOR,
	    MSPROF_ENV_SESSION, MSPROF_ENV_MATCH };
	char *match = with_filter(s->match);
	const char *const values[] = { s->shim, s->injector, s->session,
	    match };
	struct shim_env se = { .shim = s->shim };

	memset(e, 0, sizeof(*e));
	for (int i = 0; i < 4; i++) {
		e->vars[i] = xasprintf("%s=%s", names[i], values[i]);
		se.saved[se.nsaved++] = e->vars[i];
		e->size += strlen(e->vars[i]) + 1;
	}
	free(match);
	/* The shim keeps a copy of them in a buffer of fixed size. */
	if (e->size > SHIM_SAVED_BYTES)
		return -1;
	e->envp = xcalloc(vec_count(envp) + se.nsaved + 2, sizeof(*e->envp));
	e->ld = xmalloc(env_preload_size(&se, envp));
	env_fix(&se, envp, e->envp, e->ld);
	return 0;
}

void
shimenv_free(struct shimenv *e)
{
	free(e->envp);
	free(e->ld);
	for (int i = 0; i < 4; i++)
		free(e->vars[i]);
	memset(e, 0, sizeof(*e));
}
