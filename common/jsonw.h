/*
 * JSON written as it is made: a document of any size in the memory of
 * its largest piece, never built whole.  Containers are opened and
 * closed here; leaves, and small subtrees built with cJSON, are printed
 * into them.  Text as json_print writes it: indented with tabs, valid
 * UTF-8, a byte that is not part of UTF-8 as the escape \udcXX.
 */
#ifndef MSPROF_JSONW_H
#define MSPROF_JSONW_H

#include <stdio.h>

#include <cjson/cJSON.h>

#define JW_MAX_DEPTH	64

struct jsonw {
	FILE		*fp;
	int		 depth;
	unsigned char	 first[JW_MAX_DEPTH];	/* no member yet at this depth */
};

void	jw_init(struct jsonw *, FILE *);
/*
 * KEY inside an object, NULL inside an array or at the top.  C is '{'
 * or '[' to open, '}' or ']' to close.
 */
void	jw_open(struct jsonw *, const char *key, int c);
void	jw_close(struct jsonw *, int c);
/* A value built with cJSON (any depth), printed and left to the caller. */
void	jw_value(struct jsonw *, const char *key, const cJSON *);
void	jw_string(struct jsonw *, const char *key, const char *);
void	jw_number(struct jsonw *, const char *key, double);
/* The same, and the value deleted: a piece made, written and freed. */
void	jw_take(struct jsonw *, const char *key, cJSON *);

#endif
