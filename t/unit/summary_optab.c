/*
 * Operator tables (summary/optab.c): totals, the exact median of few
 * instances, the histogram median of many within its stated 3 %, merging
 * ranks, the order by total time, and the operator type a kernel's
 * name stands for where Type is N/A (level0).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "summary/optab.h"

/* The type of kernel NAME, terminated (in a static buffer). */
static const char *
type_of(const char *name)
{
	static char buf[128];
	size_t n;
	const char *t = op_type_of_name(name, strlen(name), &n);

	snprintf(buf, sizeof(buf), "%.*s", (int)n, t);
	return buf;
}

static void
names(void)
{
	/* Level0 names of real kernels and level1's Type for them. */
	static const char *const pair[][2] = {
		{ "aclnnMm_MatMulCommon_MatMulV2", "MatMulV2" },
		{ "aclnnMm_MatMulCommon_MemSet", "MemSet" },
		{ "aclnnAdaptiveAvgPool2d_AdaptiveAvgPool3dAiCore_"
		    "AdaptiveAvgPool3d", "AdaptiveAvgPool3d" },
		{ "trans_TransData_0", "TransData" },
		{ "trans_TransData_17", "TransData" },
		{ "trans_Cast_101", "Cast" },
		{ "hcom_allReduce__868_0_1", "hcom_allReduce_" },
		{ "Conv2D1", "Conv2D" },
		{ "Conv2DBackpropFilter10", "Conv2DBackpropFilter" },
		{ "Conv2DBackpropFilter6_MemSet", "MemSet" },
		{ "ReduceSum7", "ReduceSum" },
		{ "Add116", "Add" },
		{ "AxpyV2102", "AxpyV2" },
		{ "LogSoftmaxV237", "LogSoftmaxV2" },
		{ "MaxPoolWithArgmaxV114", "MaxPoolWithArgmaxV1" },
		{ "atomic_memset-1_394_0", "MemSet" },
		{ "Relu", "Relu" },
		{ "42", "42" },
		{ "", "" },
	};
	size_t i;

	for (i = 0; i < sizeof(pair) / sizeof(pair[0]); i++)
		is_str(type_of(pair[i][0]), pair[i][1], "type of %s",
		    pair[i][0]);
	ok(op_type_unknown("N/A", 3) && op_type_unknown("", 0) &&
	    !op_type_unknown("Add", 3), "N/A and empty are no type");
}

/*
 * The median of 33 instances and more is exact (the 83.56 µs,
 * not a histogram bin's 82), merged across ranks too; past OPTAB_KEEP
 * durations the table says it is no longer exact.
 */
static void
exact_and_bounded(void)
{
	struct optab *r0 = optab_new(1), *r1 = optab_new(1), *all = optab_new(1);
	struct op *a = optab_get(r0, "MatMulV3", "AI_CORE");
	struct op *b = optab_get(r1, "MatMulV3", "AI_CORE"), *m;
	size_t i;

	for (i = 0; i < 40; i++)
		op_add(r0, a, i < 20 ? 80.0 : 90.0);
	for (i = 0; i < 41; i++)
		op_add(r1, b, i == 0 ? 83.56 : i < 21 ? 70.0 : 100.0);
	optab_merge(all, r0, NULL);
	optab_merge(all, r1, NULL);
	m = optab_get(all, "MatMulV3", "AI_CORE");
	ok(op_exact(m) && fabs(op_median(m) - 83.56) < 1e-4,
	    "median of 81 instances over two ranks exact: %.4f",
	    op_median(m));
	ok(op_exact(a) && fabs(op_median(a) - 85) < 1e-9,
	    "even count: the mean of the two middle ones (%.4f)",
	    op_median(a));
	optab_drop_hist(r0);
	ok(r0->keep == 0 && a->dur == NULL, "dropping frees the durations");
	for (i = 0; i <= OPTAB_KEEP; i++)
		op_add(r1, b, (double)(i % 1000));
	ok(!op_exact(b) && !isnan(op_median(b)) && r1->kept == 0,
	    "past %zu durations: approximate, and none kept",
	    (size_t)OPTAB_KEEP);
	optab_free(r0);
	optab_free(r1);
	optab_free(all);
}

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
	ok(worst <= 1e-6, "median of 2001 instances exact to a float (worst %.2g)",
	    worst);
	exact_and_bounded();

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
	names();
	return done_testing();
}
