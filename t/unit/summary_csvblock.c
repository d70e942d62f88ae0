/*
 * The CSV reader's block scanner (64 bytes at a time) against its byte
 * scanner on random files: every record, every field, the same.  The
 * files mix what the profiler writes (quoted fields with commas,
 * newlines and a trailing tab, triple-quoted shapes, doubled quotes,
 * CRLF, a last record without a newline) with what it should not
 * (quotes inside unquoted fields, text after a closing quote, random
 * bytes), in sizes around the read buffer and with records longer than
 * it, reading all columns, or a random few through csv_span().
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "summary/csv.h"

static char tmp[] = "/tmp/summary_csvblock.XXXXXX";	/* mkdtemp template */
static int kept;	/* a file the scanners differ on is left there */

struct text {
	char	*s;
	size_t	 n, cap;
};

static void
put(struct text *t, const char *s, size_t n)
{
	if (t->n + n > t->cap) {
		t->cap = (t->n + n) * 2;
		t->s = realloc(t->s, t->cap);
	}
	memcpy(t->s + t->n, s, n);
	t->n += n;
}

static void
puts_(struct text *t, const char *s)
{
	put(t, s, strlen(s));
}

static void
random_chars(struct text *t, const char *alphabet, size_t n)
{
	size_t i, k = strlen(alphabet);

	for (i = 0; i < n; i++)
		put(t, &alphabet[rand() % k], 1);
}

/* One field as the profiler writes it, or now and then as it should not. */
static void
field(struct text *t, int clean, size_t longest)
{
	size_t n = (size_t)rand() % 12;

	switch (rand() % (clean ? 6 : 8)) {
	case 0:		/* empty */
		break;
	case 1:		/* plain */
	case 2:
		random_chars(t, "ab1.9 -\t", n);
		break;
	case 3:		/* quoted, with commas, newlines, a trailing tab */
		puts_(t, "\"");
		random_chars(t, "a,\n\r1.", n);
		puts_(t, rand() % 2 ? "\t\"" : "\"");
		break;
	case 4:		/* triple-quoted shapes */
		puts_(t, "\"\"\"4096,");
		random_chars(t, "0123;,", n);
		puts_(t, "\"\"\"");
		break;
	case 5:		/* doubled quotes, sometimes long */
		puts_(t, "\"");
		random_chars(t, "x\n,", rand() % 50 == 0 ? longest : n);
		puts_(t, "\"\"");
		random_chars(t, "y,", n);
		puts_(t, "\"");
		break;
	case 6:		/* a quote inside an unquoted field */
		random_chars(t, "ab", 1 + n);
		random_chars(t, "\"a,", n);
		break;
	default:	/* text after a closing quote */
		puts_(t, "\"q,q\"");
		random_chars(t, "z\"", n);
		break;
	}
}

static void
make_file(struct text *t, size_t size, int kind, size_t longest)
{
	t->n = 0;
	if (kind == 2) {	/* random bytes of the kinds that matter */
		random_chars(t, "ab,\"\n\r\t1.", size);
		return;
	}
	while (t->n < size) {
		int k, nf = 1 + rand() % 12;

		for (k = 0; k < nf; k++) {
			if (k > 0)
				puts_(t, ",");
			field(t, kind == 0, longest);
		}
		puts_(t, rand() % 3 == 0 ? "\r\n" : "\n");
	}
	if (rand() % 2 && t->n > 0)	/* a last record without a newline */
		t->n -= t->s[t->n - 1] == '\n' ? 1 : 0;
}

/* Read all columns, or a random few through csv_span(). */
enum how { ALL, SPANS };

/* A's span of field I is B's field I, byte for byte. */
static int
same_span(struct csv *a, char **fb, size_t nb, int i)
{
	size_t n;
	const char *s = csv_span(a, i, &n);

	return n == strlen(csv_field(fb, nb, i)) &&
	    memcmp(s, csv_field(fb, nb, i), n) == 0;
}

/*
 * Read PATH with both scanners; 1 when they agree on every record.
 * *SLOW: records the block scanner handed to the byte scanner.
 */
static int
compare(const char *path, enum how how, unsigned long *slow,
    unsigned long *records)
{
	char *why = NULL, **fa, **fb;
	struct csv *a = csv_open(path, &why), *b;
	size_t na, nb, i;
	int ra, rb, same = 1;

	if (a == NULL) {
		free(why);
		return 1;
	}
	b = csv_open(path, &why);
	csv_bytewise(b);
	same &= csv_ncols(a) == csv_ncols(b);
	for (i = 0; i < csv_ncols(a); i++)
		same &= strcmp(csv_header(a, i), csv_header(b, i)) == 0;
	if (how == SPANS)
		csv_spans(a);
	do {
		ra = csv_next(a, &fa, &na, &why);
		rb = csv_next(b, &fb, &nb, &why);
		same &= ra == rb;
		if (ra <= 0 || rb <= 0)
			break;
		same &= na == nb && csv_line(a) == csv_line(b);
		for (i = 0; same && how != SPANS && i < na; i++)
			same &= strcmp(fa[i], fb[i]) == 0;
		/* Some fields, some twice (unquoted once), and one past the end. */
		for (i = 0; same && how == SPANS && i <= na; i++)
			if (rand() % 3 == 0)
				same &= same_span(a, fb, nb, (int)i) &&
				    (rand() % 4 != 0 || same_span(a, fb, nb, (int)i));
		(*records)++;
	} while (same);
	{
		unsigned long la, lb;
		size_t fa_n, fb_n;

		/* records skipped for their fields: the same, and read too */
		same &= csv_ragged(a, &la, &fa_n) == csv_ragged(b, &lb, &fb_n) &&
		    la == lb && fa_n == fb_n;
		*records += csv_ragged(a, &la, &fa_n);
	}
	*slow += csv_bytewise_records(a);
	csv_close(a);
	csv_close(b);
	return same;
}

static void
differential(const char *what, int kind, int rounds, size_t size,
    size_t longest)
{
	struct text t = { 0 };
	char path[64];
	unsigned long slow = 0, records = 0;
	int r, same = 1;

	snprintf(path, sizeof(path), "%s/d.csv", tmp);
	for (r = 0; r < rounds; r++) {
		FILE *fp = fopen(path, "w");

		make_file(&t, 1 + (size_t)rand() % size, kind, longest);
		fwrite(t.s, 1, t.n, fp);
		fclose(fp);
		same &= compare(path, (enum how)(r % 2), &slow, &records);
		if (!same) {
			printf("# the scanners differ on %s\n", path);
			kept = 1;
			break;
		}
	}
	ok(same, "%s: %d files, %lu records, the same from both scanners "
	    "(%lu read a byte at a time)", what, rounds, records, slow);
	if (kind == 0)
		ok(slow == 0, "%s: the block scanner read every record", what);
	else
		ok(slow > 0 && slow < records, "%s: quotes inside fields send "
		    "some records to the byte scanner, not all", what);
	free(t.s);
}

int
main(void)
{
	if (mkdtemp(tmp) == NULL)
		return 1;
	srand(13);
	differential("profiler-like CSV", 0, 400, 20000, 100);
	differential("CSV with stray quotes", 1, 400, 20000, 100);
	differential("random bytes", 2, 300, 20000, 0);
	differential("files around the 1 MiB buffer", 0, 6, 3 << 20, 1 << 20);
	differential("stray quotes around the 1 MiB buffer", 1, 4, 3 << 20,
	    3 << 20);
	if (!kept) {
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "rm -rf %s", tmp);
		if (system(cmd) != 0)
			printf("# could not remove %s\n", tmp);
	}
	return done_testing();
}
