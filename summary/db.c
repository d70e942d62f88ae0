/* Reading the db export's analysis.db through SQLite. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "common/util.h"
#include "model.h"

#define DB_MAXCOL	16

int
db_has_table(sqlite3 *db, const char *table)
{
	sqlite3_stmt *st;
	int found = 0;

	if (sqlite3_prepare_v2(db, "SELECT 1 FROM sqlite_master WHERE "
	    "type = 'table' AND name = ?", -1, &st, NULL) != SQLITE_OK)
		return 0;
	sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
	found = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return found;
}

/*
 * Run SQL and hand each row to ROW as text and as numbers (NaN for NULL or
 * text that is not a number).  -1 and *why when the query fails.
 */
int
db_rows(sqlite3 *db, const char *sql,
    int (*row)(void *, int, const char *const[], const double[]), void *arg,
    char **why)
{
	sqlite3_stmt *st;
	int rc, n, i;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
		*why = xasprintf("analysis.db: %s", sqlite3_errmsg(db));
		return -1;
	}
	n = sqlite3_column_count(st);
	if (n > DB_MAXCOL)
		n = DB_MAXCOL;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *col[DB_MAXCOL];
		double num[DB_MAXCOL];

		for (i = 0; i < n; i++) {
			int t = sqlite3_column_type(st, i);

			col[i] = (const char *)sqlite3_column_text(st, i);
			if (col[i] == NULL)
				col[i] = "";
			num[i] = t == SQLITE_INTEGER || t == SQLITE_FLOAT ?
			    sqlite3_column_double(st, i) : NAN;
			if (t == SQLITE_TEXT) {
				char *end;
				double d = strtod(col[i], &end);

				num[i] = end != col[i] && *end == '\0' ? d : NAN;
			}
		}
		if (row(arg, n, col, num) != 0)
			break;
	}
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		*why = xasprintf("analysis.db: %s", sqlite3_errmsg(db));
		sqlite3_finalize(st);
		return -1;
	}
	sqlite3_finalize(st);
	return 0;
}
