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
 * The number in column I of ST's row: SQLite's, or text that is a number
 * whole (strtod's "12abc" is no number); NaN otherwise (NULL, a blob).
 */
static double
col_num(sqlite3_stmt *st, int i, int type, const char *text)
{
	char *end;
	double v;

	if (type == SQLITE_INTEGER || type == SQLITE_FLOAT)
		return sqlite3_column_double(st, i);
	if (type != SQLITE_TEXT)
		return NAN;
	v = strtod(text, &end);
	return end != text && *end == '\0' ? v : NAN;
}

struct checked {
	const char		*table;
	const struct db_check	*check;
	size_t			 ncheck;
	struct bad_rows		 bad;
	double			 last;	/* the rowid of the last row skipped */
};

/*
 * Row ROWID's NCOL columns COL/NUM (TYPE SQLite's) against the checks,
 * by the text export's rules (damage.c): 1, counted, when it is damage.
 * The rows of one table row (a join) are counted once.
 */
static int
row_bad(struct checked *k, double rowid, int ncol, const int type[],
    const char *const col[], const double num[])
{
	unsigned long where = isnan(rowid) ? 0 : (unsigned long)rowid;
	size_t i;

	if (rowid == k->last)
		return 1;
	for (i = 0; i < k->ncheck && i < (size_t)ncol; i++) {
		const struct db_check *c = &k->check[i];
		int bad = 0;

		if (c->name == NULL)
			continue;
		if (type[i] == SQLITE_NULL)
			bad = !c->null_ok && value_text(&k->bad, where,
			    c->name, NULL, 0, 1);
		else if (isnan(num[i]))
			bad = value_text(&k->bad, where, c->name,
			    type[i] == SQLITE_BLOB ? "BLOB" : col[i],
			    type[i] == SQLITE_BLOB ? 4 : strlen(col[i]),
			    !c->null_ok);
		else if (c->bound != NULL)
			bad = value_odd(&k->bad, where, c->name, num[i],
			    c->bound);
		if (bad) {
			k->last = rowid;
			return 1;
		}
	}
	return 0;
}

/* The rows skipped, named as the text export names a CSV's records. */
static void
checked_left_out(struct db *d, const struct checked *k)
{
	const char *reason = NULL;
	char *msg = NULL, *all;

	bad_rows_say(&k->bad, k->table, &msg, &reason);
	if (msg == NULL)
		return;
	all = xasprintf("%s: %s", d->path, msg);
	rank_left_out(d->rd, d->path, reason, all);
	free(all);
	free(msg);
}

/*
 * Run SQL and hand each row to ROW as text and as numbers (NaN for NULL or
 * text that is not a number), without K's first column (the rowid) when K
 * checks them.  -1 and *why when the query fails (a column missing, a
 * damaged page), the file named as left out.
 */
static int
rows(struct db *d, const char *sql, struct checked *k,
    int (*row)(void *, int, const char *const[], const double[]), void *arg,
    char **why)
{
	sqlite3_stmt *st;
	int rc, n, i, skip = k != NULL;

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
		int type[DB_MAXCOL];

		for (i = 0; i < n; i++) {
			type[i] = sqlite3_column_type(st, i);
			col[i] = (const char *)sqlite3_column_text(st, i);
			if (col[i] == NULL)
				col[i] = "";
			num[i] = col_num(st, i, type[i], col[i]);
		}
		if (k != NULL && row_bad(k, num[0], n - 1, type + 1, col + 1,
		    num + 1))
			continue;
		if (row(arg, n - skip, col + skip, num + skip) != 0)
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

int
db_rows(struct db *d, const char *sql,
    int (*row)(void *, int, const char *const[], const double[]), void *arg,
    char **why)
{
	return rows(d, sql, NULL, row, arg, why);
}

int
db_rows_checked(struct db *d, const char *table, const char *sql,
    const struct db_check check[], size_t ncheck,
    int (*row)(void *, int, const char *const[], const double[]), void *arg,
    char **why)
{
	struct checked k = { table, check, ncheck, { 0 }, NAN };
	int r;

	if ((r = rows(d, sql, &k, row, arg, why)) < 0)
		return r;
	checked_left_out(d, &k);
	return (int)(k.bad.n + k.bad.nodd);
}
