/*
 * What no profiler writes: the one rule set by which both exports are
 * checked.  A CSV's records (csv_left_out) and a db's rows (db.c) are
 * judged by the same predicates and bounds, and named by the same
 * clauses, so that the same damage gives the same reason and the same
 * exit status whichever export holds it.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/util.h"
#include "csv.h"
#include "model.h"

static const char time_what[] = N_("no time a profiler writes (negative, "
    "infinite or over a day)");
static const char mem_what[] = N_("no memory a device has (negative, "
    "infinite or over 1 TB)");

const struct bound bound_time_us = { TIME_MAX_US, time_what };
const struct bound bound_time_ns = { TIME_MAX_US * 1e3, time_what };
const struct bound bound_time_ms = { TIME_MAX_US / 1e3, time_what };
const struct bound bound_mem_mb = { MEM_MAX_MB, mem_what };
const struct bound bound_mem_bytes = { MEM_MAX_MB * 1024 * 1024, mem_what };
const struct bound bound_size_mb = { HUGE_VAL, N_("no size a profiler "
    "writes (negative or infinite)") };

int
bound_odd(const struct bound *f, double v)
{
	return !isnan(v) && (v < 0 || !isfinite(v) || v > f->max);
}

int
value_text(struct bad_rows *b, unsigned long where, const char *col,
    const char *text, size_t len, int blank_bad)
{
	if (text != NULL) {
		while (len > 0 && (*text == ' ' || *text == '\t'))
			text++, len--;
		while (len > 0 && (text[len - 1] == ' ' ||
		    text[len - 1] == '\t'))
			len--;
		if ((len == 0 && !blank_bad) ||
		    (len == 3 && strncasecmp(text, "nan", 3) == 0))
			return 0;	/* blank, or a number that is not one */
	}
	if (b->n++ == 0) {
		b->line = where;
		b->col = col;
		b->null = text == NULL;
		snprintf(b->text, sizeof(b->text), "%.*s", (int)len,
		    text != NULL ? text : "");
	}
	return 1;
}

int
value_odd(struct bad_rows *b, unsigned long where, const char *col,
    double v, const struct bound *f)
{
	if (!bound_odd(f, v))
		return 0;
	if (b->nodd++ == 0) {
		b->odd_line = where;
		b->odd_col = col;
		b->odd = v;
		b->odd_bound = f;
	}
	return 1;
}

int
bad_row(struct bad_rows *b, const struct csv *c, int col, const char *text,
    size_t len)
{
	return value_text(b, csv_line(c), csv_header(c, (size_t)col), text,
	    len, 0);
}

int
odd_bound(struct bad_rows *b, const struct csv *c, int col, double v,
    const struct bound *f)
{
	return value_odd(b, csv_line(c), csv_header(c, (size_t)col), v, f);
}

int
odd_time(struct bad_rows *b, const struct csv *c, int col, double v)
{
	return odd_bound(b, c, col, v, &bound_time_us);
}

/* *MSG and "; " and the clause WHAT (freed); REASON the first one's. */
void
clause(char **msg, const char **reason, const char *why, char *what)
{
	char *t = *msg == NULL ? what : xasprintf("%s; %s", *msg, what);

	if (*msg == NULL)
		*reason = why;
	else
		free(what);
	free(*msg);
	*msg = t;
}

static char *
text_clause(const struct bad_rows *b, const char *table)
{
	const char *t = b->text;
	char *s;

	if (table == NULL)
		s = xasprintf(_("wrong type in a field: %s is \"%s\" on line "
		    "%lu, not a number; records skipped: %lu, the others are "
		    "read"), b->col, t, b->line, b->n);
	else if (b->null)
		s = xasprintf(_("wrong type in a field: %s is NULL in row %lu "
		    "of %s, not a number; rows skipped: %lu, the others are "
		    "read"), b->col, b->line, table, b->n);
	else
		s = xasprintf(_("wrong type in a field: %s is \"%s\" in row "
		    "%lu of %s, not a number; rows skipped: %lu, the others "
		    "are read"), b->col, t, b->line, table, b->n);
	return s;
}

void
bad_rows_say(const struct bad_rows *b, const char *table, char **msg,
    const char **reason)
{
	if (b->n > 0)
		clause(msg, reason, N_("wrong type in a field"),
		    text_clause(b, table));
	if (b->nodd == 0)
		return;
	if (table == NULL)
		clause(msg, reason, N_("impossible value"),
		    xasprintf(_("impossible value: %s is %g on line %lu, %s; "
		    "records skipped: %lu, the others are read"), b->odd_col,
		    b->odd, b->odd_line, _(b->odd_bound->what), b->nodd));
	else
		clause(msg, reason, N_("impossible value"),
		    xasprintf(_("impossible value: %s is %g in row %lu of %s, "
		    "%s; rows skipped: %lu, the others are read"), b->odd_col,
		    b->odd, b->odd_line, table, _(b->odd_bound->what), b->nodd));
}
