/* Helpers of the fuzz targets (fuzz.h). */
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"
#include "common/util.h"
#include "engines/engine.h"

#ifndef FUZZ_LAUNCHTAB
#define FUZZ_LAUNCHTAB "config/launchers.conf"
#endif

static struct launchtab table;
static int table_loaded;
static char dir[PATH_MAX];
static int home = -1;		/* the directory the process started in */

const struct launchtab *
fuzz_table(void)
{
	const char *path = getenv("MSPROF_FUZZ_LAUNCHTAB");
	char *why = NULL;

	if (table_loaded)
		return &table;
	if (path == NULL)
		path = FUZZ_LAUNCHTAB;
	if (launchtab_load(&table, path, engine_names(), &why) == -1) {
		fprintf(stderr, "fuzz: %s\n", why);
		exit(2);
	}
	table_loaded = 1;
	return &table;
}

static void
remove_dir(void)
{
	DIR *d;
	struct dirent *e;
	char path[PATH_MAX + 256];

	if (dir[0] == '\0' || (d = opendir(dir)) == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		unlink(path);
	}
	closedir(d);
	rmdir(dir);
}

const char *
fuzz_dir(void)
{
	const char *tmp = getenv("TMPDIR");

	if (dir[0] != '\0')
		return dir;
	snprintf(dir, sizeof(dir), "%s/msprof-fuzz.XXXXXX",
	    tmp != NULL && *tmp != '\0' ? tmp : "/tmp");
	if (mkdtemp(dir) == NULL ||
	    (home = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1) {
		perror("fuzz: scratch directory");
		exit(2);
	}
	atexit(remove_dir);
	return dir;
}

void
fuzz_enter(void)
{
	if (chdir(fuzz_dir()) == -1) {
		perror(dir);
		exit(2);
	}
}

void
fuzz_leave(void)
{
	if (home != -1 && fchdir(home) == -1) {
		perror("fuzz: back to the start directory");
		exit(2);
	}
}

const char *
fuzz_file(const char *name, const void *data, size_t size)
{
	static char path[PATH_MAX + 256];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", fuzz_dir(), name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd == -1 || (size > 0 && write(fd, data, size) != (ssize_t)size) ||
	    close(fd) == -1) {
		perror(path);
		exit(2);
	}
	return path;
}

char **
fuzz_strings(const uint8_t *data, size_t size, size_t *np)
{
	size_t n = 1, k = 0;
	char *copy = xmalloc(size + 1), **v;

	memcpy(copy, data, size);
	copy[size] = '\0';
	for (size_t i = 0; i < size; i++)
		n += data[i] == '\0';
	v = xcalloc(n + 1, sizeof(*v));
	v[k++] = copy;
	for (size_t i = 0; i < size && k < n; i++)
		if (copy[i] == '\0')
			v[k++] = copy + i + 1;
	v[k] = NULL;
	if (np != NULL)
		*np = k;
	return v;
}

void
fuzz_strings_free(char **v)
{
	if (v != NULL)
		free(v[0]);
	free(v);
}

static void
set(char **field, const char *value)
{
	free(*field);
	*field = value != NULL ? xstrdup(value) : NULL;
}

void
fuzz_plan(struct plan *p, unsigned sel)
{
	plan_defaults(p);
	switch (sel % 8) {
	case 0:		/* the defaults */
		break;
	case 1:
		p->existing = EXISTING_KEEP;
		break;
	case 2:
		p->existing = EXISTING_OVERRIDE;
		p->train_iters = 5;
		p->step_start = 2;
		p->step_end = 3;
		break;
	case 3:
		p->existing = EXISTING_OVERRIDE;
		p->train_iters = -1;
		set(&p->mode, "dynamic");
		break;
	case 4:
		set(&p->level, "level_none");
		p->existing = EXISTING_OVERRIDE;
		break;
	case 5:
		p->ranks_all = 1;
		p->with_memory = p->with_stack = p->record_shapes = 1;
		p->data_simplification = 1;
		set(&p->export_type, "db");
		set(&p->output, "/tmp/out put");
		p->existing = EXISTING_OVERRIDE;
		break;
	case 6:
		p->nranks = 3;
		p->ranks = xcalloc(3, sizeof(*p->ranks));
		p->ranks[0] = 0, p->ranks[1] = 7, p->ranks[2] = 4095;
		p->with_cpu = 0;
		p->analyse = 0;
		p->step_start = 1;
		p->step_end = 1000;
		p->existing = EXISTING_OVERRIDE;
		break;
	default:
		p->train_iters = 1000000;
		set(&p->dynamic_dir, "dyn");
		set(&p->mode, "dynamic");
		p->existing = EXISTING_KEEP;
		break;
	}
}

void
fuzz_fail(const char *what, const char *detail)
{
	fprintf(stderr, "fuzz: invariant broken: %s%s%s\n", what,
	    detail != NULL ? ": " : "", detail != NULL ? detail : "");
	abort();
}
