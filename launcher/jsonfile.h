/* JSON configuration files (tools.json): read with positions, merge, write. */
#ifndef MSPROF_JSONFILE_H
#define MSPROF_JSONFILE_H

#include <cjson/cJSON.h>

/* NULL and *why naming the file, line and column on failure. */
cJSON	*json_read(const char *path, char **why);
/* Write pretty-printed, atomically; -1 and *why on failure. */
int	 json_write(const cJSON *, const char *path, char **why);
/* Set every field of SRC in DST, objects merged key by key. */
void	 json_merge(cJSON *dst, const cJSON *src);

#endif
