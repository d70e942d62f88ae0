/*
 * Stacked bars on a terminal: Unicode eighth blocks under a UTF-8 locale,
 * one ASCII letter per part otherwise; ANSI colours only when asked
 * (a terminal without NO_COLOR).
 */
#include <math.h>
#include <string.h>

#include "model.h"
#include "writer.h"

static const char *const ansi[] = {
	"\033[32m", "\033[31m", "\033[33m", "\033[35m", "\033[1;31m",
};
/* Each part in ASCII, and its fill without colour under UTF-8. */
static const char ascii_fill[] = "#=.~";
static const char *const utf8_fill[] = { "\u2588", "\u2593", "\u2591", "\u2592" };

const char *
colour(const struct out *o, int part)
{
	return o->flags & SUMMARY_COLOUR ? ansi[part % 5] : "";
}

const char *
colour_off(const struct out *o)
{
	return o->flags & SUMMARY_COLOUR ? "\033[0m" : "";
}

static void
cells(struct out *o, int part, int n)
{
	int i;

	if (n <= 0)
		return;
	fputs(colour(o, part), o->fp);
	for (i = 0; i < n; i++) {
		if (!(o->flags & SUMMARY_UTF8))
			fputc(ascii_fill[part % 4], o->fp);
		else
			fputs(o->flags & SUMMARY_COLOUR ? utf8_fill[0] :
			    utf8_fill[part % 4], o->fp);
	}
	fputs(colour_off(o), o->fp);
}

/*
 * PARTS scaled so that TOTAL is WIDTH cells; cells are handed out by
 * cumulative rounding, so the parts always add up to the bar.
 */
void
draw_bar(struct out *o, const double *parts, size_t n, double total, int width)
{
	double cum = 0;
	int done = 0;
	size_t i;

	if (!(total > 0))
		return;
	for (i = 0; i < n; i++) {
		int upto;

		cum += isfinite(parts[i]) && parts[i] > 0 ? parts[i] : 0;
		upto = (int)lround(fmin(cum / total, 1.0) * width);
		cells(o, (int)i, upto - done);
		done = upto;
	}
}

void
draw_legend(struct out *o, const char *const names[], size_t n)
{
	size_t i;

	fputs("  ", o->fp);
	for (i = 0; i < n; i++) {
		cells(o, (int)i, 2);
		fprintf(o->fp, " %s%s", names[i], i + 1 < n ? "  " : "\n");
	}
}
