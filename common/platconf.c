/* CANN's platform_config/Ascend<chip>.ini: the chip's AI cores and clock. */
#include <sys/utsname.h>

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "platconf.h"
#include "util.h"

/* S without the blanks at either end, of length *N (not a copy). */
static const char *
trim(const char *s, size_t *n)
{
	while (*n > 0 && (*s == ' ' || *s == '\t' || *s == '\r')) {
		s++;
		(*n)--;
	}
	while (*n > 0 && strchr(" \t\r", s[*n - 1]) != NULL)
		(*n)--;
	return s;
}

char *
ini_value(const char *text, const char *section, const char *key)
{
	const char *line, *eol, *s, *eq;
	size_t n, k = strlen(key);
	int in = 0;

	for (line = text; line != NULL && *line != '\0';
	    line = *eol != '\0' ? eol + 1 : eol) {
		eol = line + strcspn(line, "\n");
		n = (size_t)(eol - line);
		s = trim(line, &n);
		if (n == 0 || *s == '#' || *s == ';')
			continue;
		if (*s == '[') {
			in = s[n - 1] == ']' && n - 2 == strlen(section) &&
			    strncmp(s + 1, section, n - 2) == 0;
			continue;
		}
		if (!in || (eq = memchr(s, '=', n)) == NULL)
			continue;
		n -= (size_t)(eq + 1 - s);
		{
			size_t kn = (size_t)(eq - s);
			const char *ks = trim(s, &kn);

			if (kn != k || strncmp(ks, key, k) != 0)
				continue;
		}
		s = trim(eq + 1, &n);
		return xstrndup(s, n);
	}
	return NULL;
}

char *
platconf_name(const char *chip)
{
	return strncmp(chip, "Ascend", 6) == 0 ? xasprintf("%s.ini", chip) :
	    xasprintf("Ascend%s.ini", chip);
}

/* A positive whole number of at most INT_MAX, or 0. */
static int
count(const char *v)
{
	char *end;
	long n;

	if (v == NULL)
		return 0;
	errno = 0;
	n = strtol(v, &end, 10);
	end += strspn(end, " \t");
	if (errno != 0 || end == v || (*end != '\0' && *end != '#') ||
	    n <= 0 || n > INT_MAX)
		return 0;
	return (int)n;
}

/* Read the figures of the ini at PATH into P; -1 and *WHY when not there. */
static int
read_ini(const char *path, struct platconf *p, char **why)
{
	char *text = read_file(path, NULL), *v;

	if (text == NULL) {
		*why = xasprintf("%s: %s", path, read_error(errno));
		return -1;
	}
	p->cores = count(v = ini_value(text, "SoCInfo", "ai_core_cnt"));
	free(v);
	p->mhz = count(v = ini_value(text, "AICoreSpec", "cube_freq"));
	free(v);
	free(text);
	if (p->cores == 0 || p->mhz == 0) {
		*why = p->cores == 0 ? xasprintf(_("%s: no ai_core_cnt (a "
		    "positive number) in [SoCInfo]"), path) :
		    xasprintf(_("%s: no cube_freq (MHz, a positive number) "
		    "in [AICoreSpec]"), path);
		return -1;
	}
	p->path = xstrdup(path);
	return 0;
}

/*
 * Where a toolkit keeps platform_config: beside its libraries, per
 * architecture (aarch64's also under the name arm64-linux), or with its
 * compiler (the newer layout).
 */
static void
platconf_dirs(const char *root, struct strv *dirs)
{
	struct utsname u;

	if (uname(&u) == 0) {
		strv_pushf(dirs, "%s/%s-linux/data/platform_config", root,
		    u.machine);
		if (strcmp(u.machine, "aarch64") == 0)
			strv_pushf(dirs, "%s/arm64-linux/data/platform_config",
			    root);
	}
	strv_pushf(dirs, "%s/compiler/data/platform_config", root);
}

int
platconf_read(const char *chip, struct platconf *p, char **why)
{
	const char *root = getenv("ASCEND_HOME_PATH");
	struct strv dirs = { 0 };
	char *name, *path, *looked;
	int rc = -1;

	memset(p, 0, sizeof(*p));
	if (root == NULL || *root == '\0')
		root = getenv("ASCEND_TOOLKIT_HOME");
	if (root == NULL || *root == '\0') {
		*why = xstrdup(_("the CANN toolkit, whose platform_config "
		    "describes the chip, is not known here (neither "
		    "ASCEND_HOME_PATH nor ASCEND_TOOLKIT_HOME is set)"));
		return -1;
	}
	name = platconf_name(chip);
	platconf_dirs(root, &dirs);
	for (size_t i = 0; i < dirs.n && rc == -1; i++) {
		path = xasprintf("%s/%s", dirs.v[i], name);
		if (access(path, F_OK) == 0)
			rc = read_ini(path, p, why) == 0 ? 0 : -2;
		free(path);
	}
	if (rc == -1) {
		looked = strv_join(dirs.v, ", ");
		*why = xasprintf(_("CANN has no %s for the chip %s (looked in "
		    "%s)"), name, chip, looked);
		free(looked);
	}
	strv_free(&dirs);
	free(name);
	return rc == 0 ? 0 : -1;
}

void
platconf_free(struct platconf *p)
{
	free(p->path);
	memset(p, 0, sizeof(*p));
}
