/*
 * Finding rank directories (summary/find.c): one per rank from
 * profiler_info_{rank}.json, the newest when a rank has several, the same
 * ranks from one shared directory as from one path per node; directories
 * without a rank (profiler_info.json) each on their own.
 */
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "summary/summary.h"

#define H "t/data/summary/healthy"

int
main(void)
{
	char *shared[] = { H }, *nodes[] = { H "/node0", H "/node1/" };
	char *one[] = { H "/node1/node1-host_4003_20261203081500123_ascend_pt" };
	char *bad[] = { "t/data/summary/no-such-dir" };
	char *norank[] = { "t/data/summary/no-rank" };
	struct summary_rank *r, *r2;
	size_t n, n2, i;
	char *why = NULL;
	int same = 1;

	ok(summary_find_ranks(shared, 1, &r, &n, &why) == 0, "shared directory");
	is_int(n, 4, "four ranks, the older run of rank 0 left out");
	for (i = 0; i < n && i < 4; i++)
		is_int(r[i].rank, (int)i, "rank %zu from profiler_info_%zu.json",
		    i, i);
	ok(strstr(r[0].path, "20261203081500123") != NULL,
	    "rank 0: the newest directory (%s)", r[0].path);
	ok(summary_find_ranks(nodes, 2, &r2, &n2, &why) == 0, "one path per node");
	is_int(n2, n, "the same number of ranks");
	for (i = 0; i < n && i < n2; i++)
		same &= r[i].rank == r2[i].rank &&
		    strcmp(strrchr(r[i].path, '/'), strrchr(r2[i].path, '/')) == 0;
	ok(same, "the same rank directories");
	summary_ranks_free(r, n);
	summary_ranks_free(r2, n2);

	{
		struct summary_run *runs;
		size_t nruns;

		ok(summary_find_runs(shared, 1, &r, &n, &runs, &nruns, NULL,
		    NULL, &why) == 0 && n == 4, "runs: the same four ranks");
		is_int(nruns, 2, "two runs: the job of both nodes and the "
		    "older launch of rank 0");
		ok(nruns == 2 && runs[0].ndirs == 4 && runs[0].nparents == 2 &&
		    runs[1].ndirs == 1 && strstr(runs[1].path, "node0") != NULL,
		    "the first, shown: 4 directories in node0 and node1; the "
		    "other: 1 in node0");
		summary_runs_free(runs, nruns);
		summary_ranks_free(r, n);
	}

	ok(summary_find_ranks(one, 1, &r, &n, &why) == 0 && n == 1 &&
	    r[0].rank == 3, "a rank directory itself");
	summary_ranks_free(r, n);

	ok(summary_find_ranks(norank, 1, &r, &n, &why) == 0, "no-rank");
	is_int(n, 2, "two directories without a rank stay two");
	ok(n == 2 && r[0].rank == -1 && r[1].rank == -1 &&
	    strcmp(r[0].path, r[1].path) != 0, "both of unknown rank, "
	    "different directories");
	summary_ranks_free(r, n);

	ok(summary_find_ranks(bad, 1, &r, &n, &why) < 0 && why != NULL &&
	    strstr(why, "no-such-dir") != NULL, "a missing path: an error "
	    "naming it (%s)", why ? why : "");
	free(why);
	return done_testing();
}
