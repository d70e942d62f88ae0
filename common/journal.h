/*
 * The session journal: one JSON object a line, appended by the injector at
 * every intercepted launch (several processes may append at once, so each
 * record is a single write to an O_APPEND file).
 */
#ifndef MSPROF_JOURNAL_H
#define MSPROF_JOURNAL_H

#include <cjson/cJSON.h>

/* Append REC; -1 with errno set on failure. */
int	 journal_append(const char *session, const cJSON *rec);
/*
 * All records as a cJSON array (empty when there is no journal); a later
 * record of the same process updates the first one's fields.
 */
cJSON	*journal_read(const char *session);

/* A cJSON array of strings from a NULL-terminated vector. */
cJSON	*json_strings(char *const v[]);

#endif
