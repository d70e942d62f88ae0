/* Append to and read the session journal. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "shim/contract.h"
#include "journal.h"
#include "jsonfile.h"
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
	char *text = json_print(rec, 0), *line;
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
	free(text);
	return rc;
}

/* The earlier record of the same process (pid and host), or NULL. */
static cJSON *
same_process(cJSON *all, const cJSON *rec)
{
	cJSON *old;
	const cJSON *pid = cJSON_GetObjectItemCaseSensitive(rec, "pid");
	const cJSON *host = cJSON_GetObjectItemCaseSensitive(rec, "host");

	cJSON_ArrayForEach(old, all)
		if (cJSON_Compare(pid, cJSON_GetObjectItemCaseSensitive(old,
		    "pid"), 1) && cJSON_Compare(host,
		    cJSON_GetObjectItemCaseSensitive(old, "host"), 1))
			return old;
	return NULL;
}

/* Later records of a process (a failed exec) update its first one. */
static void
add_record(cJSON *all, cJSON *rec)
{
	cJSON *old = same_process(all, rec), *item;

	if (old == NULL) {
		cJSON_AddItemToArray(all, rec);
		return;
	}
	while ((item = rec->child) != NULL) {
		/* Replacing frees the item's own key: pass a copy. */
		char *key = xstrdup(item->string);

		cJSON_DetachItemViaPointer(rec, item);
		if (cJSON_GetObjectItemCaseSensitive(old, key))
			cJSON_ReplaceItemInObjectCaseSensitive(old, key, item);
		else
			cJSON_AddItemToObject(old, key, item);
		free(key);
	}
	cJSON_Delete(rec);
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
		if ((rec = json_parse(line, NULL)) != NULL && cJSON_IsObject(rec))
			add_record(all, rec);
		else
			cJSON_Delete(rec);
	}
	free(text);
	return all;
}
