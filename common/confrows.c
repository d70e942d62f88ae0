/* The line-and-word reader of the configuration tables. */
#include <string.h>

#include "confrows.h"

/* Split a line into words in place; returns the count. */
static size_t
split(char *line, char **words, size_t max)
{
	size_t n = 0;
	char *save = NULL, *w;

	for (w = strtok_r(line, " \t\r", &save); w != NULL && n < max;
	    w = strtok_r(NULL, " \t\r", &save))
		words[n++] = w;
	return n;
}

int
conf_rows(char *text, conf_row_fn row, void *arg)
{
	char *line, *next, *words[CONF_ROW_WORDS];
	size_t n, lineno = 0;
	int rc = 0;

	for (line = text; line != NULL && rc == 0; line = next) {
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		lineno++;
		line[strcspn(line, "#")] = '\0';
		if ((n = split(line, words, CONF_ROW_WORDS)) > 0)
			rc = row(words, n, lineno, arg);
	}
	return rc;
}
