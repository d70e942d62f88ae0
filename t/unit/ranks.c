/* common/ranks.c: lists of ranks as ranges. */
#include <stdlib.h>

#include "common/ranks.h"
#include "tap.h"

static void
check(const int *v, size_t n, size_t max, const char *want, const char *name)
{
	char *s = ranks_text(v, n, max);

	is_str(s, want, "%s", name);
	free(s);
}

int
main(void)
{
	int none[1] = { 0 };
	int one[] = { 5 };
	int run[] = { 3, 0, 2, 1 };
	int mixed[] = { 23, 16, 12, 17, 18, 19, 20, 21, 22, 0, 7, 1, 2, 3, 4,
	    5, 6 };
	int dup[] = { 4, 4, 2, 3, 3, -1 };
	int apart[] = { 0, 2, 4, 6, 8, 10 };
	int big[8192];

	check(none, 0, 0, "", "no rank");
	check(one, 1, 0, "5", "one rank");
	check(run, 4, 0, "0-3", "a run, given out of order");
	check(mixed, 17, 0, "0-7, 12, 16-23", "runs and a single rank");
	check(dup, 6, 0, "2-4", "duplicates and a negative rank left out");
	check(apart, 6, 3, "0, 2, 4 and 3 more", "at most three items");
	check(apart, 6, 6, "0, 2, 4, 6, 8, 10", "exactly the limit");
	for (int i = 0; i < 8192; i++)
		big[i] = i == 4000 ? 9000 : i;
	check(big, 8192, 0, "0-3999, 4001-8191, 9000", "a hole in 8192 ranks");
	check(big, 8192, 2, "0-3999, 4001-8191 and 1 more",
	    "the rest counted in ranks");
	is_int(ranks_count(dup, 6), 3, "three distinct ranks");
	is_int(ranks_count(big, 8192), 8192, "8192 distinct ranks");
	return done_testing();
}
