/* The line-and-word reader of the configuration tables. */
#include <stdlib.h>
#include <string.h>

#include "confrows.h"
#include "util.h"

/* Split a line into words in place; returns the count. */
static size_t
split(char *line, char **words, size_t max)
{
	size_t n = 0;
	char *save = NULL, *w;

	for (w = strtok_r(line, " \t", &save); w != NULL && n < max;
	    w = strtok_r(NULL, " \t", &save))
		words[n++] = w;
	return n;
}

/*
 * Is the line at S (N bytes, its '\n' not counted) text a table may hold?
 * A NUL would cut it where C strings end, a CR (a CRLF file) would end
 * its last word with a byte no name has, any other control byte would be
 * echoed to the terminal: each is refused, named with PATH:LINENO.
 */
static int
line_ok(const char *s, size_t n, const char *path, size_t lineno,
    char **why)
{
	char *where;
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c >= 0x20 && c != 0x7f)
			continue;
		if (c == '\t')
			continue;
		where = xescape(path);
		if (c == '\0')
			*why = xasprintf(_("%s:%zu: a NUL byte in the line (at "
			    "byte %zu): the table is text"), where, lineno,
			    i + 1);
		else if (c == '\r')
			*why = xasprintf(_("%s:%zu: a carriage return in the "
			    "line (CRLF line ends?): save the table with LF "
			    "line ends"), where, lineno);
		else
			*why = xasprintf(_("%s:%zu: control byte 0x%02x in the "
			    "line (at byte %zu): the table is text"), where,
			    lineno, c, i + 1);
		free(where);
		return 0;
	}
	return 1;
}

int
conf_rows(char *text, size_t len, const char *path, conf_row_fn row,
    void *arg, char **why)
{
	char *line, *end = text + len, *nl, *words[CONF_ROW_WORDS];
	size_t n, lineno = 0;
	int rc = 0;

	for (line = text; line < end && rc == 0; line = nl + 1) {
		if ((nl = memchr(line, '\n', (size_t)(end - line))) == NULL)
			nl = end;
		lineno++;
		if (!line_ok(line, (size_t)(nl - line), path, lineno, why))
			return -1;
		*nl = '\0';
		line[strcspn(line, "#")] = '\0';
		if ((n = split(line, words, CONF_ROW_WORDS)) > 0)
			rc = row(words, n, lineno, arg);
	}
	return rc;
}
