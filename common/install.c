/* Locate msprof-exec's files relative to the running program. */
#include <err.h>
#include <errno.h>
#include <gnu/libc-version.h>
#include <libgen.h>
#include <limits.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "install.h"
#include "util.h"

/*
 * From glibc 2.34 on, dlsym is in libc itself: the shim built without
 * libdl.so.2 spares every process of the job one library to load.
 */
static int
glibc_has_dlsym(void)
{
	int major = 0, minor = 0;

	sscanf(gnu_get_libc_version(), "%d.%d", &major, &minor);
	return major > 2 || (major == 2 && minor >= 34);
}

char *
install_prefix(void)
{
	char exe[PATH_MAX], *dir;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0)
		return NULL;
	exe[n] = '\0';
	dir = dirname(exe);		/* PREFIX/bin or PREFIX/lib/msprof-exec */
	if (ends_with(dir, "/lib/msprof-exec"))
		dir[strlen(dir) - strlen("/lib/msprof-exec")] = '\0';
	else
		dir = dirname(dir);
	return xstrdup(dir);
}

int
install_locate(struct install *in, char **why)
{
	const char *etc = SYSCONFDIR "/msprof-exec/" LAUNCHTAB_NAME;

	memset(in, 0, sizeof(*in));
	if ((in->prefix = install_prefix()) == NULL) {
		*why = xstrdup(_("cannot find where msprof-exec is installed "
		    "(/proc/self/exe is unreadable)"));
		return -1;
	}
	in->shim = xasprintf("%s/lib/msprof-exec/%s", in->prefix, SHIM_234_NAME);
	if (!glibc_has_dlsym() || access(in->shim, R_OK) != 0) {
		free(in->shim);
		in->shim = xasprintf("%s/lib/msprof-exec/%s", in->prefix,
		    SHIM_NAME);
	}
	in->injector = xasprintf("%s/lib/msprof-exec/%s", in->prefix,
	    INJECTOR_NAME);
	in->launchtab = access(etc, F_OK) == 0 ? xstrdup(etc) :
	    xasprintf("%s/share/msprof-exec/%s", in->prefix, LAUNCHTAB_NAME);
	in->localedir = xasprintf("%s/share/locale", in->prefix);
	if (access(in->shim, R_OK) != 0 || access(in->injector, X_OK) != 0) {
		*why = xasprintf(_("the shim or the injector is missing from "
		    "%s/lib/msprof-exec; reinstall msprof-exec"), in->prefix);
		return -1;
	}
	if (in->shim[strcspn(in->shim, " :")] != '\0') {
		*why = xasprintf(_("the shim's path %s contains a space or a "
		    "colon, which LD_PRELOAD cannot carry; install msprof-exec "
		    "under a path without them"), in->shim);
		return -1;
	}
	return 0;
}

void
install_free(struct install *in)
{
	free(in->prefix);
	free(in->shim);
	free(in->injector);
	free(in->launchtab);
	free(in->localedir);
}

static int i18n_started;

void
i18n_init(void)
{
	char *prefix, *dir;

	if (i18n_started)
		return;
	i18n_started = 1;
	prefix = install_prefix();
	/*
	 * Messages and character handling only: numbers (weights in
	 * --data-path, YAML scalars) are read the C way in every locale.
	 */
	setlocale(LC_CTYPE, "");
	setlocale(LC_MESSAGES, "");
	if (prefix != NULL) {
		dir = xasprintf("%s/share/locale", prefix);
		bindtextdomain(PACKAGE, dir);
		free(dir);
		free(prefix);
	}
	bind_textdomain_codeset(PACKAGE, "UTF-8");
	textdomain(PACKAGE);
}

char *
i18n_gettext(const char *msgid)
{
	int saved = errno;	/* setlocale may set it; the caller's is kept */

	i18n_init();
	errno = saved;
	return gettext(msgid);
}

char *
i18n_strerror(int e)
{
	int saved = errno;

	i18n_init();
	errno = saved;
	return strerror(e);
}
