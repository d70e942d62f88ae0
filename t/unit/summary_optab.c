/*
 * Operator tables (summary/optab.c): totals, the exact median of few
 * instances, the histogram median of many within its stated 3 %, merging
 * ranks, and the order by total time.
 */
#include <math.h>
#include <stdlib.h>

#include "tap.h"
#include "summary/optab.h"

int
main(void)
{
	struct optab *t = optab_new(1), *all = optab_new(1);
	struct op *a = optab_get(t, "MatMulV2", "AI_CORE"), **v;
	double worst = 0;
	int i, k;

	ok(optab_get(t, "MatMulV2", "AI_CORE") == a, "the same key, the same operator");
	ok(optab_get(t, "MatMulV2", "AI_VECTOR_CORE") != a, "type and core make the key");
	for (i = 1; i <= 5; i++)
		op_add(t, a, i * 10.0);
	ok(op_median(a) == 30, "exact median of 5 instances");
	op_add(t, a, 1000);
	ok(op_median(a) == 35, "exact median of an even count");
	is_int(a->count, 6, "count");
	ok(a->total == 1150 && a->min == 10 && a->max == 1000, "total, min, max");

	/* Many instances: log-uniform durations from 1 us to 10 ms. */
	for (k = 0; k < 20; k++) {
		struct optab *one = optab_new(1);
		struct op *o = optab_get(one, "Add", "AI_VECTOR_CORE");
		double *x = malloc(2001 * sizeof(*x)), med;

		srand(k + 1);
		for (i = 0; i < 2001; i++) {
			x[i] = pow(10, 4.0 * rand() / RAND_MAX);
			op_add(one, o, x[i]);
		}
		/* The true median: the 1001st smallest. */
		for (i = 0; i < 2001; i++) {
			int below = 0, j;

			for (j = 0; j < 2001; j++)
				below += x[j] < x[i];
			if (below == 1000)
				break;
		}
		med = x[i];
		worst = fmax(worst, fabs(op_median(o) - med) / med);
		free(x);
		optab_free(one);
	}
	ok(worst <= 0.03, "histogram median within 3 %% (worst %.4f)", worst);

	optab_merge(all, t, NULL);
	optab_merge(all, t, NULL);
	is_int(optab_find(all, "MatMulV2", "AI_CORE")->count, 12,
	    "merging two ranks adds the counts");
	ok(optab_find(all, "MatMulV2", "AI_CORE")->total == 2300, "and the totals");
	ok(optab_find(all, "Nope", "AI_CORE") == NULL, "find does not create");
	op_add_stat(all, optab_get(all, "Cast", "AI_CORE"), 4, 100, 20, 30);
	ok(isnan(op_median(optab_find(all, "Cast", "AI_CORE"))),
	    "no median from op_statistic.csv lines");
	v = optab_sorted(all);
	ok(v[0]->total >= v[1]->total && v[1]->total >= v[2]->total,
	    "sorted by total time");
	free(v);
	optab_free(t);
	optab_free(all);
	return done_testing();
}
