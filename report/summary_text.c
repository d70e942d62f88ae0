/*
 * The summary as text: the files left out, then each kind under its
 * title, or why it was not made.  The writer of each kind is its row in
 * the table below.
 */
#include "summary/model.h"
#include "summary/summary.h"
#include "summary_writers.h"

typedef void	 text_writer(const struct summary *, const void *,
		    struct out *);

/* The writer of each kind; a kind without a row prints itself. */
static const struct {
	const struct kind	*kind;
	text_writer		*write;
} writers[] = {
	{ NULL, NULL },
};

static text_writer *
writer_of(const struct kind *k)
{
	for (size_t i = 0; i < sizeof(writers) / sizeof(writers[0]); i++)
		if (writers[i].kind == k)
			return writers[i].write;
	return k->print;
}

void
summary_print(const struct summary *s, FILE *fp, unsigned flags)
{
	struct out o = { fp, flags };
	const struct kind *k;

	left_out_print(s, fp);
	for (size_t i = 0; (k = summary_kind(i)) != NULL; i++) {
		fprintf(fp, "\n%s\n", _(k->title));
		if (s->why[i] != NULL)
			fprintf(fp, _("  not made: %s\n"), s->why[i]);
		else
			writer_of(k)(s, s->state[i], &o);
	}
}
