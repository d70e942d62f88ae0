/* JSON configuration files (tools.json): read with positions, merge, write. */
#ifndef MSPROF_JSONFILE_H
#define MSPROF_JSONFILE_H

#include <stddef.h>
#include <time.h>

#include <cjson/cJSON.h>

/*
 * Text for cJSON and back.  Arguments and paths are bytes, not always UTF-8;
 * a byte that is not part of valid UTF-8 is written as the escape \udcXX
 * (Python's surrogateescape: json.load then os.fsencode gives the byte
 * back, so a training script reading a generated tools.json gets the exact
 * path), and json_parse turns those escapes back into the byte.
 */
char	*json_print(const cJSON *, int pretty);	/* free() it */
cJSON	*json_parse(const char *text, const char **end);
/* NULL and *why naming the file, line and column on failure. */
cJSON	*json_read(const char *path, char **why);
/* Write pretty-printed, atomically; -1 and *why on failure. */
int	 json_write(const cJSON *, const char *path, char **why);
/* The same, the file modified at MTIME (0: now) before it takes the name. */
int	 json_write_dated(const cJSON *, const char *path, time_t mtime,
	    char **why);
/* An array of the N numbers of V; of the strings of the vector V. */
cJSON	*json_ints(const int *v, size_t n);
cJSON	*json_strv(char *const v[]);
/* Set every field of SRC in DST, objects merged key by key. */
void	 json_merge(cJSON *dst, const cJSON *src);

#endif
