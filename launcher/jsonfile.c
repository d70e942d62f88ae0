/* Reading, merging and writing JSON configuration files with cJSON. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "jsonfile.h"
#include "util.h"

cJSON *
json_read(const char *path, char **why)
{
	char *text = read_file(path, NULL);
	const char *end = NULL;
	size_t line = 1, col = 1;
	cJSON *j;

	if (text == NULL) {
		*why = xasprintf(_("cannot read %s: %s"), path, strerror(errno));
		return NULL;
	}
	j = cJSON_ParseWithOpts(text, &end, 1);
	if (j == NULL) {
		for (const char *p = text; end != NULL && p < end; p++, col++)
			if (*p == '\n')
				line++, col = 0;
		*why = xasprintf(_("%s:%zu:%zu: invalid JSON; fix the file (a "
		    "missing comma or quote is the usual cause)"), path, line,
		    col);
	}
	free(text);
	return j;
}

int
json_write(const cJSON *j, const char *path, char **why)
{
	char *text = cJSON_Print(j), *tmp = xasprintf("%s.tmp", path);
	int fd, ok = 0;
	size_t len = text != NULL ? strlen(text) : 0;

	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd != -1 && text != NULL) {
		ok = write(fd, text, len) == (ssize_t)len &&
		    write(fd, "\n", 1) == 1;
		ok = close(fd) == 0 && ok;
		ok = ok && rename(tmp, path) == 0;
	}
	if (!ok) {
		*why = xasprintf(_("cannot write %s: %s"), path, strerror(errno));
		unlink(tmp);
	}
	cJSON_free(text);
	free(tmp);
	return ok ? 0 : -1;
}

void
json_merge(cJSON *dst, const cJSON *src)
{
	const cJSON *item;
	cJSON *old;

	cJSON_ArrayForEach(item, src) {
		old = cJSON_GetObjectItemCaseSensitive(dst, item->string);
		if (cJSON_IsObject(item) && cJSON_IsObject(old))
			json_merge(old, item);
		else if (old != NULL)
			cJSON_ReplaceItemInObjectCaseSensitive(dst, item->string,
			    cJSON_Duplicate(item, 1));
		else
			cJSON_AddItemToObject(dst, item->string,
			    cJSON_Duplicate(item, 1));
	}
}
