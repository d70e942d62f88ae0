/*
 * Where msprof-exec's own files are: found from the running program, so a
 * relocated install (or the build tree, which has the same shape) works.
 *
 *	PREFIX/bin/msprof-exec
 *	PREFIX/lib/msprof-exec/msprof-exec-shim.so, msprof-exec-inject
 *	PREFIX/share/msprof-exec/launchers.conf  (SYSCONFDIR/msprof-exec/ wins)
 *	PREFIX/share/locale/
 */
#ifndef MSPROF_INSTALL_H
#define MSPROF_INSTALL_H

#ifndef SYSCONFDIR
#define SYSCONFDIR "/etc"
#endif
#ifndef VERSION
#define VERSION "0.1.0"
#endif

#define SHIM_NAME	"msprof-exec-shim.so"		/* any glibc >= 2.17 */
#define SHIM_234_NAME	"msprof-exec-shim-glibc2.34.so"	/* glibc >= 2.34 */
#define INJECTOR_NAME	"msprof-exec-inject"
#define LAUNCHTAB_NAME	"launchers.conf"

struct install {
	char	*prefix, *shim, *injector, *launchtab, *localedir;
};

/* Fill in the paths; -1 with a message in *why when a file is missing. */
int	install_locate(struct install *, char **why);
void	install_free(struct install *);
/* PREFIX, from the running program's location (NULL if unknown). */
char	*install_prefix(void);

#endif
