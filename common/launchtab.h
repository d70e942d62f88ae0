/*
 * The launch table (config/launchers.conf): which programs start training,
 * how their options are read, and which entry scripts belong to which
 * engine.
 */
#ifndef MSPROF_LAUNCHTAB_H
#define MSPROF_LAUNCHTAB_H

#include "engines/engine.h"
#include "util.h"

struct optset {
	char		*name;
	struct strv	 flags;		/* options that take no value */
};

struct launchtab {
	char		*path;
	struct strv	 launchers, launcher_sets;	/* parallel */
	struct strv	 modules, module_sets;		/* parallel */
	struct strv	 pythons;
	struct strv	 entries;
	enum engine	*engines;			/* parallel to entries */
	struct optset	*sets;
	size_t		 nsets;
	char		*match;		/* the string the shim reads */
};

/*
 * Load PATH.  On failure returns -1 and sets *why to a message naming the
 * file, the line and the fix; nothing is left to free then.
 */
int	 launchtab_load(struct launchtab *, const char *path, char **why);
void	 launchtab_free(struct launchtab *);

/* The options of grammar SET, or NULL. */
const struct optset *launchtab_set(const struct launchtab *, const char *set);

/* The engine of a training script path (ENGINE_NONE if not an entry). */
enum engine launchtab_engine(const struct launchtab *, const char *script);

#endif
