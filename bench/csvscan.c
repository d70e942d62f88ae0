/*
 * The floor under the summary's throughput: the same CSV files read by
 * the summary's reader, split into records and fields on as many
 * threads as the summary uses, with no field read.
 *   csvscan THREADS FILE...
 * Prints the records read.
 */
#include <err.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "summary/csv.h"

struct work {
	char		**files;
	int		  nfiles, first, step;
	unsigned long	  records;
};

static void *
scan(void *arg)
{
	struct work *w = arg;
	char **f, *why;
	size_t nf;
	int i;

	for (i = w->first; i < w->nfiles; i += w->step) {
		struct csv *c = csv_open(w->files[i], &why);

		if (c == NULL)
			errx(1, "%s", why);
		csv_spans(c);
		while (csv_next(c, &f, &nf, &why) > 0)
			w->records++;
		csv_close(c);
	}
	return NULL;
}

int
main(int argc, char *argv[])
{
	struct work w[64];
	pthread_t t[64];
	unsigned long records = 0;
	int i, n = argc > 2 ? atoi(argv[1]) : 0;

	if (n < 1 || n > 64)
		errx(2, "usage: csvscan THREADS FILE...");
	for (i = 0; i < n; i++) {
		w[i] = (struct work){ argv + 2, argc - 2, i, n, 0 };
		if (pthread_create(&t[i], NULL, scan, &w[i]) != 0)
			errx(1, "pthread_create");
	}
	for (i = 0; i < n; i++) {
		pthread_join(t[i], NULL);
		records += w[i].records;
	}
	printf("%lu\n", records);
	return 0;
}
