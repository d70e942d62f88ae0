/*
 * The rows of msprof-exec's configuration tables (config/launchers.conf,
 * config/trainings.conf): a line a row, words separated by blanks, '#'
 * starting a comment.
 */
#ifndef MSPROF_CONFROWS_H
#define MSPROF_CONFROWS_H

#include <stddef.h>

/* One row: its words (at most CONF_ROW_WORDS), its line number from 1. */
typedef int	(*conf_row_fn)(char **words, size_t n, size_t lineno,
		    void *arg);

#define CONF_ROW_WORDS	256

/*
 * Call ROW for each line of TEXT (LEN bytes, split in place; its last
 * byte may be overwritten, so the buffer holds LEN + 1) that has a word,
 * until one returns nonzero; that value, else 0.  A line with a NUL, a
 * carriage return (CRLF line ends) or another control byte but the tab
 * is an error: -1 and *WHY naming PATH:LINE.
 */
int	conf_rows(char *text, size_t len, const char *path, conf_row_fn row,
	    void *arg, char **why);

#endif
