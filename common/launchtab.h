/*
 * The launch table (config/launchers.conf): which programs start training,
 * how their options are read, and which entry scripts belong to which
 * engine.
 */
#ifndef MSPROF_LAUNCHTAB_H
#define MSPROF_LAUNCHTAB_H

#include "util.h"

/* An entry whose engine is its content, read when it is launched. */
#define LAUNCHTAB_AUTO	"auto"

struct optset {
	char		*name;
	struct strv	 flags;		/* options that take no value */
};

struct launchtab {
	char		*path;
	struct strv	 launchers, launcher_sets;	/* parallel */
	struct strv	 launcher_subs;	/* parallel: its subcommand, or "" */
	struct strv	 modules, module_sets;		/* parallel */
	struct strv	 pythons;
	struct strv	 entries;
	struct strv	 entry_engines;	/* parallel: engine names, or "auto" */
	struct strv	 entry_modules;	/* python -m NAME as an entry */
	struct strv	 entry_module_engines;	/* parallel, as entry_engines */
	struct strv	 consoles;	/* console scripts read as entries */
	struct optset	*sets;
	size_t		 nsets;
	char		*match;		/* all of it in the shim's syntax
					   (contract.h), for matching */
};

/*
 * Load PATH, whose entries may name the engines ENGINES (NULL-terminated)
 * and "auto".  On failure returns -1 and sets *why to a message naming
 * the file, the line and the fix; nothing is left to free then.
 */
int	 launchtab_load(struct launchtab *, const char *path,
	    const char *const engines[], char **why);
void	 launchtab_free(struct launchtab *);

/* The options of grammar SET, or NULL. */
const struct optset *launchtab_set(const struct launchtab *, const char *set);

/*
 * The engine name the first entry SCRIPT matches gives ("auto": read its
 * content), or NULL when no entry matches.
 */
const char *launchtab_entry_engine(const struct launchtab *,
	    const char *script);
/*
 * The engine name of the first "entry-module" row MODULE (python -m
 * MODULE) matches, or NULL.
 */
const char *launchtab_module_engine(const struct launchtab *,
	    const char *module);
/*
 * The string the shim reads (a copy of match to free), without the
 * entries and entry modules of engine "auto" unless AUTO: a script or
 * module only those match is then not handed to the injector (a plan whose framework is llm or mm never
 * reads the content of a script started directly).
 */
char	*launchtab_shim_match(const struct launchtab *, int auto_entries);

#endif
