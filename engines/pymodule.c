/*
 * Finding a module's file as Python would (pymodule.h): the search path
 * is built from the environment and from where the job's Python lives,
 * never by running it.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/util.h"
#include "shim/match.h"
#include "pymodule.h"

#define PTH_MAX		(16 * 1024)	/* bytes read of a .pth or finder */
#define PTH_FILES	256		/* .pth files read in a folder */

/* DIR/a/b.py or DIR/a/b/__init__.py (MAIN: __main__.py) for a.b; or NULL. */
static char *
module_in(const char *dir, const char *module, int main)
{
	char *name = xstrdup(module), *path;

	for (char *p = name; *p != '\0'; p++)
		if (*p == '.')
			*p = '/';
	path = xasprintf("%s/%s.py", dir, name);
	if (access(path, R_OK) != 0) {
		free(path);
		path = xasprintf("%s/%s/%s.py", dir, name,
		    main ? "__main__" : "__init__");
	}
	free(name);
	if (access(path, R_OK) == 0)
		return path;
	free(path);
	return NULL;
}

char *
py_folder(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash == NULL ? xstrdup(".") : slash == path ? xstrdup("/") :
	    xstrndup(path, (size_t)(slash - path));
}

char *
pymodule_file(const struct pypath *pp, const char *from, int level,
    const char *module, int *site)
{
	char *dir, *up, *path = NULL;

	if (level > 0) {
		dir = py_folder(from);
		while (--level > 0) {
			up = xasprintf("%s/..", dir);
			free(dir);
			dir = up;
		}
		if (*module == '\0') {		/* from . import x */
			path = xasprintf("%s/__init__.py", dir);
			if (access(path, R_OK) != 0) {
				free(path);
				path = NULL;
			}
		} else
			path = module_in(dir, module, 0);
		free(dir);
		return path;
	}
	for (size_t i = 0; path == NULL && i < pp->dirs.n; i++)
		if ((path = module_in(pp->dirs.v[i], module, 0)) != NULL)
			*site = i >= pp->site;
	return path;
}

/* PROGRAM as exec(3p) with a PATH search finds it: a copy, or NULL. */
static char *
on_path(const char *program)
{
	const char *path = getenv("PATH");
	char *copy, *dir, *save = NULL, *found = NULL;

	if (strchr(program, '/') != NULL)
		return access(program, X_OK) == 0 ? xstrdup(program) : NULL;
	if (path == NULL)
		return NULL;
	copy = xstrdup(path);
	for (dir = strtok_r(copy, ":", &save); dir != NULL && found == NULL;
	    dir = strtok_r(NULL, ":", &save)) {
		found = xasprintf("%s/%s", dir, program);
		if (access(found, X_OK) != 0) {
			free(found);
			found = NULL;
		}
	}
	free(copy);
	return found;
}

/* Is the program at PATH a Python (python3, python3.11): a copy or NULL. */
static char *
python_only(char *path)
{
	if (path != NULL && strncmp(path_base(path), "python", 6) != 0) {
		free(path);
		return NULL;
	}
	return path;
}

/*
 * The program that runs PROGRAM: PROGRAM itself when it is a Python
 * (by its name: a version manager's python3 is a shell script that runs
 * one), else the interpreter of its "#!" line (torchrun, deepspeed:
 * #!/venv/bin/python3, or #!/usr/bin/env python3).  A copy, or NULL.
 */
static char *
interpreter(const char *program)
{
	char line[256], *p, *word, *found;

	if (program == NULL || (found = on_path(program)) == NULL)
		return NULL;
	if (strncmp(path_base(found), "python", 6) == 0)
		return found;
	if (read_head(found, line, sizeof(line)) < 2 || line[0] != '#' ||
	    line[1] != '!')
		return found;
	line[strcspn(line, "\n")] = '\0';
	p = line + 2 + strspn(line + 2, " \t");
	word = xstrndup(p, strcspn(p, " \t"));
	free(found);
	if (strcmp(path_base(word), "env") == 0) {
		p += strlen(word);
		p += strspn(p, " \t");
		free(word);
		word = xstrndup(p, strcspn(p, " \t"));
		found = *word != '\0' && *word != '-' ? on_path(word) : NULL;
		free(word);
		return found;
	}
	return word;
}

char *
pymodule_python(const char *program)
{
	return python_only(interpreter(program));
}

/* Add DIR to OUT when it is a folder that can be read. */
static void
add_root(struct strv *out, char *dir)
{
	if (access(dir, R_OK | X_OK) == 0 && !strv_has(out, dir))
		strv_push(out, dir);
	free(dir);
}

/*
 * The minor versions of Python 3 to look for: the one PYTHON's name or
 * the name it links to says (python3.11), else all that may be
 * installed.  A directory listing of PREFIX/lib costs more than this.
 */
static void
python_minors(const char *python, int *lo, int *hi)
{
	char *real = realpath(python, NULL);
	const char *b = real != NULL ? path_base(real) : path_base(python);
	int minor;

	*lo = 6;
	*hi = 16;
	if (sscanf(b, "python3.%d", &minor) == 1 && minor >= 0 && minor < 100)
		*lo = *hi = minor;
	free(real);
}

/*
 * The folders of installed packages of the Python at PYTHON (a venv's,
 * conda's, Debian's), by where it lives, without running it: PREFIX/lib/
 * python3.N/site-packages, PREFIX/lib/python3/dist-packages and
 * PREFIX/local/lib/python3.N/dist-packages, PREFIX the folder above its
 * bin/; then the user's ~/.local/lib/python3.N/site-packages.
 */
static void
site_roots(struct strv *out, const char *python)
{
	const char *home = getenv("HOME"), *pre;
	char *bin, *prefix;
	int lo, hi;

	if (python == NULL)
		return;
	bin = py_folder(python);
	prefix = py_folder(bin);
	pre = strcmp(prefix, "/") == 0 ? "" : prefix;
	python_minors(python, &lo, &hi);
	for (int m = lo; m <= hi; m++)
		add_root(out, xasprintf("%s/lib/python3.%d/site-packages", pre,
		    m));
	add_root(out, xasprintf("%s/lib/python3/dist-packages", pre));
	for (int m = lo; m <= hi; m++)
		add_root(out, xasprintf("%s/local/lib/python3.%d/dist-packages",
		    pre, m));
	for (int m = lo; home != NULL && *home == '/' && m <= hi; m++)
		add_root(out, xasprintf("%s/.local/lib/python3.%d/site-packages",
		    home, m));
	free(prefix);
	free(bin);
}

/*
 * A setuptools finder of an editable install (__editable___NAME_finder.py
 * in SITE): its MAPPING of top-level packages to their folders.  A
 * package in a folder of its name ('open_clip': '/w/open_clip/src/
 * open_clip') is found from the folder above it, added to OUT.
 */
static void
editable_finder(struct strv *out, const char *site, const char *module)
{
	char *path = xasprintf("%s/%s.py", site, module), *text, *p, *q;
	char *key, *dir, *parent;
	size_t n;

	text = xmalloc(PTH_MAX);
	if (read_head(path, text, PTH_MAX) > 0 &&
	    (p = strstr(text, "MAPPING")) != NULL &&
	    (p = strchr(p, '{')) != NULL && (q = strchr(p, '}')) != NULL) {
		*q = '\0';
		/* 'key': 'value', ... : each pair of quoted strings */
		while ((p = strpbrk(p, "'\"")) != NULL) {
			n = strcspn(p + 1, p[0] == '\'' ? "'" : "\"");
			key = xstrndup(p + 1, n);
			p += n + 2;
			if ((p = strpbrk(p, "'\"")) == NULL) {
				free(key);
				break;
			}
			n = strcspn(p + 1, p[0] == '\'' ? "'" : "\"");
			dir = xstrndup(p + 1, n);
			p += n + 2;
			if (*dir == '/' && strcmp(path_base(dir), key) == 0) {
				parent = py_folder(dir);
				add_root(out, parent);
			}
			free(key);
			free(dir);
		}
	}
	free(text);
	free(path);
}

static int
by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The .pth files of SITE, as Python's site module reads them: a line
 * names a folder (relative to SITE) to add; a line that imports runs
 * code, of which the finder an editable install (pip install -e) sets up
 * is read (editable_finder).
 */
static void
pth_files(struct strv *out, const char *site)
{
	struct strv names = { 0 };
	struct dirent *e;
	char *path, *text, *line, *next, *mod;
	DIR *d = opendir(site);
	size_t len;

	while (d != NULL && (e = readdir(d)) != NULL && names.n < PTH_FILES)
		if ((len = strlen(e->d_name)) > 4 &&
		    strcmp(e->d_name + len - 4, ".pth") == 0)
			strv_push(&names, e->d_name);
	if (d != NULL)
		closedir(d);
	if (names.n > 1)	/* no array at all when there is no .pth */
		qsort(names.v, names.n, sizeof(*names.v), by_name);
	text = xmalloc(PTH_MAX);
	for (size_t i = 0; i < names.n; i++) {
		path = xasprintf("%s/%s", site, names.v[i]);
		len = read_head(path, text, PTH_MAX) > 0 ? 1 : 0;
		free(path);
		for (line = text; len > 0 && line != NULL; line = next) {
			if ((next = strchr(line, '\n')) != NULL)
				*next++ = '\0';
			line[strcspn(line, "\r")] = '\0';
			if (strncmp(line, "import ", 7) == 0 &&
			    (mod = strstr(line, "__editable___")) != NULL) {
				mod = xstrndup(mod, strcspn(mod, "; \t."));
				editable_finder(out, site, mod);
				free(mod);
			} else if (*line != '\0' && *line != '#' &&
			    strncmp(line, "import", 6) != 0)
				add_root(out, *line == '/' ? xstrdup(line) :
				    xasprintf("%s/%s", site, line));
		}
	}
	free(text);
	strv_free(&names);
}

void
pypath_init(struct pypath *pp, const char *first, const char *program)
{
	const char *env = getenv("PYTHONPATH");
	char *copy, *dir, *save = NULL, *python;
	struct strv *out = &pp->dirs;

	memset(pp, 0, sizeof(*pp));
	strv_push(out, first);
	if (env != NULL) {
		copy = xstrdup(env);
		for (dir = strtok_r(copy, ":", &save); dir != NULL;
		    dir = strtok_r(NULL, ":", &save))
			if (!strv_has(out, dir))
				strv_push(out, dir);
		free(copy);
	}
	if (!strv_has(out, "."))
		strv_push(out, ".");
	pp->site = out->n;
	python = pymodule_python(program);
	site_roots(out, python);
	free(python);
	/* the folders their .pth files add: editable installs among them */
	for (size_t i = pp->site, n = out->n; i < n; i++)
		pth_files(out, out->v[i]);
}

void
pypath_free(struct pypath *pp)
{
	strv_free(&pp->dirs);
}

char *
entry_program_file(const char *program)
{
	return on_path(program);
}

char *
entry_module_file(const char *module, const char *program)
{
	struct pypath pp;
	char *path = NULL;

	pypath_init(&pp, ".", program);
	for (size_t i = 0; path == NULL && i < pp.dirs.n; i++)
		path = module_in(pp.dirs.v[i], module, 1);
	pypath_free(&pp);
	return path;
}

