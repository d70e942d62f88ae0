/*
 * The files the summary left out, whole or in part, each with its rank,
 * the reason and the message naming it (rank_left_out, summary.c): how
 * many.  The report says them (report/summary_text.c, summary_json.c).
 */
#include "model.h"

size_t
summary_nleft_out(const struct summary *s)
{
	size_t n = 0;

	for (size_t i = 0; i < s->nr; i++)
		n += s->r[i].nleft;
	return n;
}
