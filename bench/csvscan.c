/*
 * The floor under the summary's throughput: the same CSV files read by
 * the summary's reader, split into records and fields on as many
 * threads as the summary would use, with no field read.
 *   csvscan FILE...
 * Prints the records read and the threads used.
 */
#include <err.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "summary/csv.h"
#include "summary/summary.h"

#define MAX_THREADS	64

struct work {
	char		**files;
	size_t		  nfiles, first, step;
	unsigned long	  records;
};

static void *
scan(void *arg)
{
	struct work *w = arg;
	char **f, *why = NULL;
	size_t nf, i;
	int rc;

	for (i = w->first; i < w->nfiles; i += w->step) {
		struct csv *c = csv_open(w->files[i], &why);

		if (c == NULL)
			errx(1, "%s", why);
		csv_spans(c);
		while ((rc = csv_next(c, &f, &nf, &why)) > 0)
			w->records++;
		if (rc < 0)
			errx(1, "%s", why);
		csv_close(c);
	}
	return NULL;
}

int
main(int argc, char *argv[])
{
	struct work w[MAX_THREADS];
	pthread_t t[MAX_THREADS];
	unsigned long records = 0;
	size_t i, nfiles = argc > 1 ? (size_t)argc - 1 : 0;
	size_t n = summary_workers(nfiles);

	if (nfiles == 0)
		errx(2, "usage: csvscan FILE...");
	if (n == 0)
		n = 1;		/* the summary reads on this thread then */
	if (n > MAX_THREADS)
		n = MAX_THREADS;
	for (i = 0; i < n; i++) {
		w[i] = (struct work){ argv + 1, nfiles, i, n, 0 };
		if (pthread_create(&t[i], NULL, scan, &w[i]) != 0)
			errx(1, "pthread_create");
	}
	for (i = 0; i < n; i++) {
		pthread_join(t[i], NULL);
		records += w[i].records;
	}
	printf("%lu records, %zu threads\n", records, n);
	return 0;
}
