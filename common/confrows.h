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
 * Call ROW for each line of TEXT (split in place) that has a word, until
 * one returns nonzero; that value, else 0.
 */
int	conf_rows(char *text, conf_row_fn row, void *arg);

#endif
