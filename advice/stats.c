/*
 * Robust figures over the ranks: the median and quantiles, and the median
 * absolute deviation, which a few odd ranks do not move (a mean and a
 * standard deviation follow the very rank they are to find).
 */
#include <math.h>
#include <stdlib.h>

#include "common/util.h"
#include "rules.h"

static int
by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double
median(double *v, size_t n)
{
	if (n == 0)
		return NAN;
	qsort(v, n, sizeof(*v), by_value);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The nearest-rank quantile Q (0 < Q <= 1): the value at or below it. */
double
quantile(double *v, size_t n, double q)
{
	size_t k;

	if (n == 0)
		return NAN;
	qsort(v, n, sizeof(*v), by_value);
	k = (size_t)ceil(q * (double)n);
	return v[k > 0 ? k - 1 : 0];
}

double
robust_sd(const double *v, size_t n, double med)
{
	double *d = xcalloc(n + 1, sizeof(*d)), mad;
	size_t i;

	for (i = 0; i < n; i++)
		d[i] = fabs(v[i] - med);
	mad = median(d, n);
	free(d);
	return 1.4826 * mad;
}
