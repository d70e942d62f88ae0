/* Session directories: msprof-exec_HOST_TIME_PID inside the output. */
#include <sys/stat.h>

#include <dirent.h>
#include <err.h>
#include <sysexits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "shim/contract.h"
#include "session.h"
#include "util.h"

char *
session_newest(const char *dir, const char *const names[], size_t n)
{
	char *best = NULL, *plan;
	const char *stamp, *beststamp = "";

	for (size_t i = 0; i < n; i++) {
		const char *name = names[i];

		plan = xasprintf("%s/%s/%s", dir, name, SESSION_PLAN);
		/* msprof-exec_HOST_STAMP_PID: compare from the stamp on. */
		stamp = strrchr(name, '_');
		while (stamp != NULL && stamp > name && stamp[-1] != '_')
			stamp--;
		if (strncmp(name, "msprof-exec_", 12) == 0 &&
		    access(plan, R_OK) == 0 && stamp != NULL &&
		    strcmp(stamp, beststamp) >= 0) {
			free(best);
			best = xasprintf("%s/%s", dir, name);
			beststamp = stamp;
		}
		free(plan);
	}
	return best;
}

/* The newest session directory under DIR (by its name's time), or NULL. */
static char *
newest_session(const char *dir)
{
	struct dirent **names;
	const char **v;
	char *best;
	int n = scandir(dir, &names, NULL, alphasort);

	v = xcalloc(n > 0 ? (size_t)n : 1, sizeof(*v));
	for (int i = 0; i < n; i++)
		v[i] = names[i]->d_name;
	best = session_newest(dir, v, n > 0 ? (size_t)n : 0);
	for (int i = 0; i < n; i++)
		free(names[i]);
	if (n >= 0)
		free(names);
	free(v);
	return best;
}

int
session_is(const char *path)
{
	char *plan = xasprintf("%s/%s", path, SESSION_PLAN);
	int yes = access(plan, R_OK) == 0;

	free(plan);
	return yes;
}

char *
session_find(const char *path)
{
	return session_is(path) ? realpath(path, NULL) : newest_session(path);
}

void
session_input_check(const char *path)
{
	struct stat st;

	if (stat(path, &st) == -1)
		errx(EX_NOINPUT, _("%s: no such directory; give the output "
		    "directory of a run (or its msprof-exec_* session)"), path);
	if (!S_ISDIR(st.st_mode))
		errx(EX_NOINPUT, _("%s: not a directory; give the output "
		    "directory of a run (or its msprof-exec_* session)"), path);
}
