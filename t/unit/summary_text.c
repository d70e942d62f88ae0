/*
 * The text of the step breakdown: its columns line up under their
 * headings whatever the rank's label and whether torch_npu wrote a step
 * number, and an empty Step prints "-", never -1.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "report/summary_writers.h"
#include "summary/summary.h"

#define DATA	"t/data/summary/"

/* The summary's text of FIXTURE (free it). */
static char *
text(const char *fixture)
{
	struct summary_opts o = { 0 };
	struct summary_rank *r;
	struct summary *s;
	char path[256], *why = NULL, *out = NULL, *p = path;
	size_t n, len = 0;
	FILE *mem;

	snprintf(path, sizeof(path), DATA "%s", fixture);
	if (summary_find_ranks(&p, 1, &r, &n, &why) < 0)
		return strdup("");
	s = summary_build(r, n, &o);
	mem = open_memstream(&out, &len);
	summary_print(s, mem, 0);
	fclose(mem);
	summary_free(s);
	summary_ranks_free(r, n);
	return out;
}

/* The line of TEXT starting with PREFIX after the line holding AFTER. */
static const char *
line(const char *text, const char *after, const char *prefix, size_t *len)
{
	const char *p = strstr(text, after);

	while (p != NULL && (p = strchr(p, '\n')) != NULL) {
		p++;
		if (strncmp(p, prefix, strlen(prefix)) == 0) {
			*len = strcspn(p, "\n");
			return p;
		}
	}
	*len = 0;
	return "";
}

/* Where WORD ends in the line L of LEN bytes, or -1. */
static long
end_of(const char *l, size_t len, const char *word)
{
	const char *p = strstr(l, word);

	return p != NULL && p + strlen(word) <= l + len ?
	    p + strlen(word) - l : -1;
}

/* "step ms" of the rank table ends where the row's step time ends. */
static void
aligned(const char *fixture, const char *row, const char *value)
{
	char *t = text(fixture);
	const char *head, *r;
	size_t hl, rl;

	head = line(t, "Step breakdown", "  ", &hl);
	while (hl > 0 && end_of(head, hl, "steps") < 0)
		head = line(head, "", "  ", &hl);
	r = line(head, "", row, &rl);
	ok(end_of(head, hl, "step ms") > 0 &&
	    end_of(head, hl, "step ms") == end_of(r, rl, value),
	    "%s: the step time under \"step ms\" (%.*s | %.*s)", fixture,
	    (int)hl, head, (int)rl, r);
	free(t);
}

int
main(void)
{
	char *t = text("quirks");
	const char *l;
	size_t len;

	l = line(t, "iteration", "  ", &len);
	ok(strncmp(l, "  -  ", 5) == 0, "an empty Step: the listing of one "
	    "rank prints \"-\" (%.*s)", (int)len, l);
	ok(strstr(t, "-1 ") == NULL, "never -1");
	free(t);
	aligned("healthy", "  rank 0 ", "89.000");
	aligned("quirks", "  rank unknown (", "1.300");
	return done_testing();
}
