/*
 * Fuzz target "journal": reading a session journal (common/journal.c
 * journal_read), one JSON record a line, later records of a process (same
 * pid and host) merged into its first.  The journal is written by many
 * injectors at once and read back by msprof-exec for the report; a torn
 * or foreign line must not hurt the reader.
 *
 * Input: the journal file.  Checked besides memory safety:
 * - no two records read have the same pid and host;
 * - a later line's fields win: a process's status is the one of its last
 *   line that has a status;
 * - what is read survives a round trip: each record written again
 *   (journal_append) and read back encodes to the same JSON.
 */
#include <sys/stat.h>

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "shim/contract.h"
#include "fuzz.h"
#include "common/journal.h"
#include "common/jsonfile.h"

static int
same_process(const struct launch_record *a, const struct launch_record *b)
{
	return a->pid >= 0 && a->host != NULL && b->pid == a->pid &&
	    b->host != NULL && strcmp(a->host, b->host) == 0;
}

/* The status of the last line of REC's process that has one. */
static enum launch_status
last_status(const char *text, const struct launch_record *rec)
{
	char *copy = strdup(text), *line, *next;
	enum launch_status found = LAUNCH_UNKNOWN;
	struct launch_record one;
	cJSON *o;

	for (line = copy; line != NULL && *line != '\0'; line = next) {
		next = strchr(line, '\n');
		if (next != NULL)
			*next++ = '\0';
		o = json_parse(line, NULL);	/* as journal_read does */
		if (cJSON_IsObject(o)) {
			launch_record_init(&one);
			launch_record_from_json(&one, o);
			if (same_process(rec, &one) &&
			    one.status != LAUNCH_UNKNOWN)
				found = one.status;
			launch_record_free(&one);
		}
		cJSON_Delete(o);
	}
	free(copy);
	return found;
}

static char *
encode(const struct launch_record *rec)
{
	cJSON *o = launch_record_json(rec);
	char *text = json_print(o, 0);

	cJSON_Delete(o);
	return text;
}

/* Each record appended to a fresh journal and read back is the same. */
static void
round_trip(const struct journal *j)
{
	struct journal again;
	char *a, *b;

	mkdir("again", 0755);
	unlink("again/" SESSION_JOURNAL);
	for (size_t i = 0; i < j->n; i++)
		FUZZ_CHECK(journal_append("again", &j->recs[i]) == 0,
		    "cannot append");
	journal_read("again", &again);
	FUZZ_CHECK(again.n == j->n, "a record lost or split on the way");
	for (size_t i = 0; i < j->n && i < again.n; i++) {
		a = encode(&j->recs[i]);
		b = encode(&again.recs[i]);
		FUZZ_CHECK(a != NULL && b != NULL && strcmp(a, b) == 0,
		    "a record changed on the way");
		free(a);
		free(b);
	}
	journal_free(&again);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct journal j;
	char *text;

	fuzz_table();
	fuzz_enter();
	fuzz_file(SESSION_JOURNAL, data, size);
	journal_read(".", &j);
	text = strndup((const char *)data, size);
	for (size_t i = 0; i < j.n; i++) {
		for (size_t k = i + 1; k < j.n; k++)
			FUZZ_CHECK(!same_process(&j.recs[i], &j.recs[k]),
			    "one process, two records");
		if (j.recs[i].pid >= 0 && j.recs[i].host != NULL)
			FUZZ_CHECK(strcmp(launch_status_name(j.recs[i].status),
			    launch_status_name(last_status(text,
			    &j.recs[i]))) == 0,
			    "the last status of a process is not the one read");
	}
	round_trip(&j);
	free(text);
	journal_free(&j);
	fuzz_leave();
	return 0;
}
