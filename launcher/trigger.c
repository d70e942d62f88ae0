/*
 * msprof-exec trigger [--start N | --now] [--active K] DIR: make a job
 * that runs with dynamic profiling collect now, or from a step still to
 * come.  The config file it changes is engines/dynamic.c's.
 */
#include <sys/stat.h>

#include <dirent.h>
#include <err.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>
#include <unistd.h>

#include "commands.h"
#include "engines/dynamic.h"
#include "options.h"
#include "common/util.h"

/* The directories below DIR (DEPTH levels) that hold the config file. */
static void
configs_below(const char *dir, int depth, struct strv *out)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char *sub, *file;

	while (d != NULL && depth > 0 && (e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		sub = xasprintf("%s/%s", dir, e->d_name);
		file = xasprintf("%s/%s", sub, DYNAMIC_CONFIG);
		if (access(file, F_OK) == 0)
			strv_push(out, sub);
		else
			configs_below(sub, depth - 1, out);
		free(file);
		free(sub);
	}
	if (d != NULL)
		closedir(d);
}

/*
 * DIR holds no config file: it is not where a running job looks, and a
 * template written there would never be read.  Name the one below it.
 */
static void __attribute__((noreturn))
not_dynamic(const char *dir)
{
	struct strv found = { 0 };
	char *list;

	configs_below(dir, 2, &found);
	if (found.n > 0) {
		list = strv_join(found.v, ", ");
		errx(EX_NOINPUT, _("%s holds no %s, so no job reads it; the "
		    "dynamic profiling directory is below it: msprof-exec "
		    "trigger %s"), dir, DYNAMIC_CONFIG, list);
	}
	errx(EX_NOINPUT, _("%s holds no %s, so no job reads it; give the "
	    "dynamic profiling directory of the running job (--dynamic-dir, "
	    "or OUTPUT/dynamic_profile); nothing was written"), dir,
	    DYNAMIC_CONFIG);
}

static void __attribute__((noreturn))
trigger_usage(int help)
{
	fprintf(help ? stdout : stderr, _("usage: msprof-exec trigger [--start N "
	    "| --now] [--active K] DIR\n"));
	exit(help ? 0 : EX_USAGE);
}


/* -1 (the next step) for --now, else the step of --start N. */
static int
start_step(const char *v)
{
	if (strcmp(v, "0") == 0)
		errx(EX_USAGE, _("--start 0 can never fire once the job has "
		    "begun (torch_npu counts steps from 1); use --now, or a "
		    "step still to come"));
	return option_number("--start", v, 1);
}

/* The directory given: it must hold the config the job polls. */
static char *
config_of(const char *dir)
{
	struct stat st;
	char *path;

	if (stat(dir, &st) == -1 || !S_ISDIR(st.st_mode))
		errx(EX_NOINPUT, _("%s: no such directory; give the dynamic "
		    "profiling directory of the running job (--dynamic-dir, or "
		    "OUTPUT/dynamic_profile)"), dir);
	path = xasprintf("%s/%s", dir, DYNAMIC_CONFIG);
	if (access(path, F_OK) == -1)
		not_dynamic(dir);
	return path;
}

int
trigger_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "start", required_argument, NULL, 's' },
		{ "now", no_argument, NULL, 'n' },
		{ "active", required_argument, NULL, 'a' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct dynamic_trigger t;
	int c, rc, start = -1, active = 0, have_start = 0;
	char *path, *why = NULL;

	optind = 1;
	while ((c = getopt_long(argc, argv, "+h", opts, NULL)) != -1) {
		if (c == 's') {
			start = start_step(optarg);
			have_start = 1;
		} else if (c == 'n') {
			if (have_start)
				errx(EX_USAGE, _("--now and --start exclude each "
				    "other"));
			start = -1;
		} else if (c == 'a')
			active = option_number("--active", optarg, 1);
		else
			trigger_usage(c == 'h');
	}
	if (optind != argc - 1)
		trigger_usage(0);
	path = config_of(argv[optind]);
	rc = dynamic_trigger(path, start, active, &t, &why);
	free(path);
	if (rc != 0)
		errx(rc, "%s", why);
	if (start == -1)
		printf(_("the job starts collecting at its next step, for %d "
		    "step(s)"), t.active);
	else
		printf(_("the job starts collecting at step %d, for %d step(s)"),
		    start, t.active);
	printf(_("; data goes to %s\n"), t.prof_dir);
	free(t.prof_dir);
	return 0;
}
