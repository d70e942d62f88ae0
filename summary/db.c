/*
 * Reading the db export (analysis.db, ascend_pytorch_profiler_<rank>.db)
 * through SQLite.  A database is opened read-only as immutable: SQLite
 * then takes no lock and writes nothing, not even the -wal, -shm or
 * -journal file it would otherwise create beside the user's data.  A file
 * that is no database, or lacks a table or column a summary needs, is
 * named as left out with SQLite's reason.  A handle is one rank's, used by
 * one thread at a time (a worker's, then the main thread's): SQLite's
 * default threading mode lets the ranks' connections run at once.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "common/util.h"
#include "model.h"

#define DB_MAXCOL	16

struct db {
	sqlite3			*h;
	char			*path;	/* as the user named it */
	struct rank_data	*rd;	/* whose files are named */
};

/*
 * PATH as a URI file name: '%', '?' and '#' would end or change the
 * path, so they are percent-encoded; an absolute path gets an empty
 * authority ("file:///a"), so that one starting with "//" is not read as
 * a host.
 */
static char *
db_uri(const char *path)
{
	size_t n = strlen(path), i;
	char *u = xcalloc(1, 3 * n + sizeof("file://?immutable=1")), *p;

	p = stpcpy(u, path[0] == '/' ? "file://" : "file:");
	for (i = 0; i < n; i++) {
		if (path[i] == '%' || path[i] == '?' || path[i] == '#')
			p += sprintf(p, "%%%02X", (unsigned char)path[i]);
		else
			*p++ = path[i];
	}
	strcpy(p, "?immutable=1");
	return u;
}

struct db *
db_open(struct rank_data *rd, const char *path)
{
	struct db *d = xcalloc(1, sizeof(*d));
	char *uri = db_uri(path), *why;
	int rc;

	d->path = xstrdup(path);
	d->rd = rd;
	rc = sqlite3_open_v2(uri, &d->h, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI,
	    NULL);
	free(uri);
	/* SQLite reads the header only when asked: ask, to know it is one */
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(d->h, "SELECT count(*) FROM sqlite_master",
		    NULL, NULL, NULL);
	if (rc == SQLITE_OK)
		return d;
	why = xasprintf("%s: %s", path, d->h != NULL ? sqlite3_errmsg(d->h) :
	    sqlite3_errstr(rc));
	rank_left_out(rd, path, rc == SQLITE_NOTADB ? N_("not a database") :
	    N_("cannot be read"), why);
	free(why);
	db_close(d);
	return NULL;
}

void
db_close(struct db *d)
{
	if (d == NULL)
		return;
	sqlite3_close(d->h);
	free(d->path);
	free(d);
}

const char *
db_path(const struct db *d)
{
	return d->path;
}

int
db_has_table(struct db *d, const char *table)
{
	sqlite3_stmt *st;
	int found = 0;

	if (sqlite3_prepare_v2(d->h, "SELECT 1 FROM sqlite_master WHERE "
	    "type = 'table' AND name = ?", -1, &st, NULL) != SQLITE_OK)
		return 0;
	sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
	found = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return found;
}

char *
db_need_table(struct db *d, const char *table)
{
	char *why;

	if (db_has_table(d, table))
		return NULL;
	why = xasprintf(_("%s: no table %s"), d->path, table);
	rank_left_out(d->rd, d->path, N_("not the database expected"), why);
	return why;
}

/* The query failed: the file is named, with SQLite's reason. */
static char *
failed(struct db *d)
{
	char *why = xasprintf("%s: %s", d->path, sqlite3_errmsg(d->h));
	int rc = sqlite3_errcode(d->h);

	rank_left_out(d->rd, d->path, rc == SQLITE_ERROR ?
	    N_("not the database expected") : rc == SQLITE_NOTADB ||
	    rc == SQLITE_CORRUPT ? N_("not a database") : N_("cannot be read"),
	    why);
	return why;
}

/*
 * Run SQL and hand each row to ROW as text and as numbers (NaN for NULL or
 * text that is not a number).  -1 and *why when the query fails (a column
 * missing, a damaged page), the file named as left out.
 */
int
db_rows(struct db *d, const char *sql,
    int (*row)(void *, int, const char *const[], const double[]), void *arg,
    char **why)
{
	sqlite3_stmt *st;
	int rc, n, i;

	if (sqlite3_prepare_v2(d->h, sql, -1, &st, NULL) != SQLITE_OK) {
		*why = failed(d);
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
				double v = strtod(col[i], &end);

				num[i] = end != col[i] && *end == '\0' ? v : NAN;
			}
		}
		if (row(arg, n, col, num) != 0)
			break;
	}
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		*why = failed(d);
		sqlite3_finalize(st);
		return -1;
	}
	sqlite3_finalize(st);
	return 0;
}
