/*
 * A minimal TAP producer for the C unit tests (prove runs the binaries).
 *
 *	ok(cond, "name %d", x);  is_int(got, want, "name");
 *	is_str(got, want, "name");  return done_testing();
 */
#ifndef MSPROF_TAP_H
#define MSPROF_TAP_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int tap_n, tap_failed;

static void __attribute__((format(printf, 2, 3)))
ok_at(int cond, const char *fmt, ...)
{
	va_list ap;

	tap_n++;
	printf("%sok %d - ", cond ? "" : "not ", tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (!cond)
		tap_failed++;
}

#define ok(cond, ...)	ok_at((cond) != 0, __VA_ARGS__)

#define is_int(got, want, ...) do {					\
	long g_ = (long)(got), w_ = (long)(want);			\
	ok(g_ == w_, __VA_ARGS__);					\
	if (g_ != w_)							\
		printf("#   got: %ld\n#  want: %ld\n", g_, w_);		\
} while (0)

#define is_str(got, want, ...) do {					\
	const char *g_ = (got), *w_ = (want);				\
	int same_ = (g_ == NULL && w_ == NULL) ||			\
	    (g_ != NULL && w_ != NULL && strcmp(g_, w_) == 0);		\
	ok(same_, __VA_ARGS__);						\
	if (!same_)							\
		printf("#   got: '%s'\n#  want: '%s'\n",		\
		    g_ ? g_ : "(null)", w_ ? w_ : "(null)");		\
} while (0)

static int
done_testing(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed != 0;
}

#endif
