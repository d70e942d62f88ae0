/*
 * Robust figures over ranks or steps: the median, and the median absolute
 * deviation, which a few odd values do not move (a mean and a standard
 * deviation follow the very rank or step they are to find).
 */
#include <math.h>
#include <stdlib.h>

#include "common/util.h"
#include "model.h"

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
