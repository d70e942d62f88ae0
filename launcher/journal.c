/* Append to and read the session journal. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../shim/contract.h"
#include "journal.h"
#include "util.h"

cJSON *
json_strings(char *const v[])
{
	cJSON *a = cJSON_CreateArray();

	for (; v != NULL && *v != NULL; v++)
		cJSON_AddItemToArray(a, cJSON_CreateString(*v));
	return a;
}

int
journal_append(const char *session, const cJSON *rec)
{
	char *path = xasprintf("%s/%s", session, SESSION_JOURNAL);
	char *text = cJSON_PrintUnformatted(rec), *line;
	int fd, rc = -1, saved;
	size_t len;

	line = xasprintf("%s\n", text != NULL ? text : "{}");
	len = strlen(line);
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd != -1) {
		rc = write(fd, line, len) == (ssize_t)len ? 0 : -1;
		saved = errno;
		close(fd);
		errno = saved;
	}
	free(path);
	free(line);
	cJSON_free(text);
	return rc;
}

cJSON *
journal_read(const char *session)
{
	char *path = xasprintf("%s/%s", session, SESSION_JOURNAL);
	char *text = read_file(path, NULL), *line, *next;
	cJSON *all = cJSON_CreateArray(), *rec;

	free(path);
	for (line = text; line != NULL && *line != '\0'; line = next) {
		next = strchr(line, '\n');
		if (next != NULL)
			*next++ = '\0';
		if ((rec = cJSON_Parse(line)) != NULL)
			cJSON_AddItemToArray(all, rec);
	}
	free(text);
	return all;
}
