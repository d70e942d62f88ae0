/*
 * Run a fuzz target without libFuzzer: feed it every file named on the
 * command line, and every file of every directory named (not recursive),
 * in sorted order.  Used by t/0610-fuzz-regress.t on the crashes found so
 * far (fuzz/regress/TARGET) and the seed corpus (fuzz/corpus/TARGET), in
 * the ordinary build and, under `make check-sanitize`, with ASan/UBSan.
 *
 *	replay-TARGET [-v] [-l] PATH...
 *
 * -v: before each input write "replay: FILE" to stderr, so that the input
 * of a crash is the last one named.
 * -l: find leaks without a sanitizer: run each input twice and report
 * "replay: FILE leaks N bytes" when the heap in use (mallinfo2) grew
 * during the second run (the first one fills the caches: gettext's).
 * malloc's caches of free chunks (tcache, fastbins) would count as in
 * use, so it re-runs itself with them off (GLIBC_TUNABLES).  Under ASan
 * mallinfo2 says nothing: LeakSanitizer does that job there.
 *
 * Prints the number of inputs run on stdout; exits 0, 1 when an input
 * leaked, 2 when a file cannot be read.
 */
#include <dirent.h>
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"
#include "common/util.h"

static int verbose, leaks, leaked;
static unsigned long count;

static size_t
in_use(void)
{
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 33)
	return mallinfo2().uordblks;
#else
	return 0;
#endif
}

static int
run_file(const char *path)
{
	size_t len;
	char *data = read_file(path, &len);

	if (data == NULL) {
		perror(path);
		return -1;
	}
	if (verbose) {
		fprintf(stderr, "replay: %s\n", path);
		fflush(stderr);
	}
	LLVMFuzzerTestOneInput((const uint8_t *)data, len);
	if (leaks) {
		size_t before = in_use(), after;

		LLVMFuzzerTestOneInput((const uint8_t *)data, len);
		if ((after = in_use()) > before) {
			fprintf(stderr, "replay: %s leaks %zu bytes\n", path,
			    after - before);
			leaked = 1;
		}
	}
	free(data);
	count++;
	return 0;
}

static int
by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int
run_dir(const char *dir)
{
	struct strv names = { 0 };
	struct dirent *e;
	struct stat st;
	DIR *d = opendir(dir);
	int rc = 0;
	char *path;

	if (d == NULL) {
		perror(dir);
		return -1;
	}
	while ((e = readdir(d)) != NULL)
		if (e->d_name[0] != '.')
			strv_push(&names, e->d_name);
	closedir(d);
	if (names.n > 0)
		qsort(names.v, names.n, sizeof(*names.v), by_name);
	for (size_t i = 0; i < names.n && rc == 0; i++) {
		path = xasprintf("%s/%s", dir, names.v[i]);
		if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
			rc = run_file(path);
		free(path);
	}
	strv_free(&names);
	return rc;
}

int
main(int argc, char **argv)
{
	struct stat st;
	char *abs, **args = argv;
	int rc = 0;

	for (; argc > 1 && argv[1][0] == '-' && argv[1][1] != '\0' &&
	    strchr("vl", argv[1][1]) != NULL && argv[1][2] == '\0';
	    argc--, argv++)
		*(argv[1][1] == 'v' ? &verbose : &leaks) = 1;
	if (leaks && getenv("GLIBC_TUNABLES") == NULL) {
		setenv("GLIBC_TUNABLES", "glibc.malloc.tcache_count=0:"
		    "glibc.malloc.mxfast=0", 1);
		execv("/proc/self/exe", args);
		perror("replay: /proc/self/exe");
		return 2;
	}
	/* The targets work in a scratch directory: make the paths absolute. */
	for (int i = 1; i < argc; i++)
		if ((abs = realpath(argv[i], NULL)) != NULL)
			argv[i] = abs;
	fuzz_table();
	for (int i = 1; i < argc && rc == 0; i++) {
		if (stat(argv[i], &st) == -1) {
			perror(argv[i]);
			rc = -1;
		} else
			rc = S_ISDIR(st.st_mode) ? run_dir(argv[i]) :
			    run_file(argv[i]);
	}
	printf("%lu\n", count);
	return rc != 0 ? 2 : leaked;
}
