/*
 * Fuzz target "journal": reading a session journal (launcher/journal.c
 * journal_read), one JSON record a line, later records of a process (same
 * pid and host) merged into its first.  The journal is written by many
 * injectors at once and read back by msprof-exec for the report; a torn
 * or foreign line must not hurt the reader.
 *
 * Input: the journal file.  Checked besides memory safety: the result is
 * an array of objects, no two with the same pid and host, and a later
 * record's fields win (the last "status" of a process is the one read);
 * the last two only when no line repeats "pid", "host" or "status".
 */
#include <stdlib.h>
#include <string.h>

#include "shim/contract.h"
#include "fuzz.h"
#include "common/journal.h"
#include "common/jsonfile.h"

/* How many members of object O are called KEY. */
static int
members(const cJSON *o, const char *key)
{
	const cJSON *e;
	int n = 0;

	cJSON_ArrayForEach(e, o)
		n += e->string != NULL && strcmp(e->string, key) == 0;
	return n;
}

/*
 * Does a line repeat "pid", "host" or "status"?  Which one wins, and so
 * which process the line belongs to, is not defined: no check then.
 */
static int
ambiguous(const char *text)
{
	char *copy = strdup(text), *line, *next;
	cJSON *rec;
	int found = 0;

	for (line = copy; !found && line != NULL && *line != '\0'; line = next) {
		next = strchr(line, '\n');
		if (next != NULL)
			*next++ = '\0';
		rec = json_parse(line, NULL);	/* as journal_read does */
		found = cJSON_IsObject(rec) && (members(rec, "pid") > 1 ||
		    members(rec, "host") > 1 || members(rec, "status") > 1);
		cJSON_Delete(rec);
	}
	free(copy);
	return found;
}

/* The "status" of the last line for PID and HOST that has one, or NULL. */
static cJSON *
last_status(const char *text, const cJSON *pid, const cJSON *host)
{
	char *copy = strdup(text), *line, *next;
	cJSON *rec, *found = NULL;

	for (line = copy; line != NULL && *line != '\0'; line = next) {
		next = strchr(line, '\n');
		if (next != NULL)
			*next++ = '\0';
		rec = json_parse(line, NULL);	/* as journal_read does */
		if (cJSON_IsObject(rec) &&
		    cJSON_Compare(pid, cJSON_GetObjectItemCaseSensitive(rec,
		    "pid"), 1) &&
		    cJSON_Compare(host, cJSON_GetObjectItemCaseSensitive(rec,
		    "host"), 1) &&
		    members(rec, "status") > 0) {
			cJSON_Delete(found);
			found = cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(rec,
			    "status"), 1);
		}
		cJSON_Delete(rec);
	}
	free(copy);
	return found;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	cJSON *all, *rec, *other, *want;
	const cJSON *status;
	char *text;

	fuzz_table();
	fuzz_enter();
	fuzz_file(SESSION_JOURNAL, data, size);
	all = journal_read(".");
	FUZZ_CHECK(cJSON_IsArray(all), "not an array");
	cJSON_ArrayForEach(rec, all)
		FUZZ_CHECK(cJSON_IsObject(rec), "a record that is no object");
	text = strndup((const char *)data, size);
	if (ambiguous(text))
		goto out;
	cJSON_ArrayForEach(rec, all) {
		const cJSON *pid = cJSON_GetObjectItemCaseSensitive(rec, "pid");
		const cJSON *host = cJSON_GetObjectItemCaseSensitive(rec, "host");

		for (other = rec->next; other != NULL; other = other->next)
			FUZZ_CHECK(!(cJSON_Compare(pid,
			    cJSON_GetObjectItemCaseSensitive(other, "pid"), 1) &&
			    cJSON_Compare(host, cJSON_GetObjectItemCaseSensitive(
			    other, "host"), 1)), "one process, two records");
		status = cJSON_GetObjectItemCaseSensitive(rec, "status");
		want = last_status(text, pid, host);
		FUZZ_CHECK(want == NULL || cJSON_Compare(status, want, 1),
		    "the last status of a process is not the one read");
		cJSON_Delete(want);
	}
out:
	free(text);
	cJSON_Delete(all);
	fuzz_leave();
	return 0;
}
