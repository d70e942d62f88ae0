/*
 * A streaming CSV reader for the profiler's exports: a record at a time
 * from a large read(2) buffer, split in place.  Handles quoted fields
 * (doubled quotes, commas and newlines inside, a trailing tab as torch_npu
 * writes after timestamps), triple-quoted shapes, CRLF and a UTF-8 BOM.
 * Memory is the buffer plus the longest record, never the file.
 */
#ifndef MSPROF_SUMMARY_CSV_H
#define MSPROF_SUMMARY_CSV_H

#include <stddef.h>
#include <stdint.h>

struct csv;

/* NULL and *why (naming the file) when it cannot be opened or is empty. */
struct csv	*csv_open(const char *path, char **why);
/* Why csv_open failed on PATH, in a few words (a key, not translated). */
const char	*csv_open_reason(const char *path);
/*
 * The next record: 1, 0 at the end, -1 and *why on a read error.  *FIELDS
 * is NULL after csv_spans().  A record with another number of fields than
 * the header is skipped (csv_ragged).
 */
int		 csv_next(struct csv *, char ***fields, size_t *nfields,
		    char **why);
/* The index of the header column NAME (trimmed, exact), or -1. */
int		 csv_col(const struct csv *, const char *name);
/* The first of several names that is a column, or -1. */
int		 csv_col_any(const struct csv *, const char *const names[]);
/*
 * From now on leave each record as read and get its fields with
 * csv_span(), only those asked for: for the large files, where
 * terminating and unquoting every field of every record (the shapes,
 * say) costs more than reading the few that are needed.
 */
void		 csv_spans(struct csv *);

/*
 * The last record, where csv_span() reads it inline: a struct csv starts
 * with it, and the reader keeps these nowhere else.
 */
struct csv_view {
	char		 *rec;		/* where it starts */
	char		**fend;		/* where each field ends: its separator */
	size_t		  nf;
	unsigned long	 *cutat;	/* the record csv_span() unquoted each in */
	unsigned long	  line;		/* the record number (the header is 1) */
};
const char	*csv_span_cut(struct csv *, int i, size_t *n);

/*
 * Field I of the last record (unquoted, no CR), its length in *N; not
 * terminated unless it was quoted.  "" past the record's end.  Inline:
 * it is called for several fields of every record.
 */
static inline const char *
csv_span(struct csv *c, int i, size_t *n)
{
	const struct csv_view *v = (const struct csv_view *)c;
	const char *a;

	if (i < 0 || (size_t)i >= v->nf) {
		*n = 0;
		return "";
	}
	a = i > 0 ? v->fend[i - 1] + 1 : v->rec;
	if (*a == '"' || v->cutat[i] == v->line)
		return csv_span_cut(c, i, n);	/* unquote in place, once */
	*n = (size_t)(v->fend[i] - a);
	if ((size_t)i + 1 == v->nf && *n > 0 && a[*n - 1] == '\r')
		--*n;				/* CRLF */
	return a;
}
/*
 * Read a byte at a time, as a reference for the block scanner that
 * reads every record the same way 64 bytes at a time (for tests).
 */
void		 csv_bytewise(struct csv *);
/* How many records were read a byte at a time (the header counts). */
unsigned long	 csv_bytewise_records(const struct csv *);
size_t		 csv_ncols(const struct csv *);
const char	*csv_header(const struct csv *, size_t);
/* The record number of the last record read (the header is 1). */
unsigned long	 csv_line(const struct csv *);
/*
 * At the end: did the file end inside its last record (no newline after
 * it, and fewer fields than the header), as a copy or a write stopped
 * short leaves it?
 */
int		 csv_cut_short(const struct csv *);
/*
 * How many records csv_next() skipped for having more or fewer fields
 * than the header; the first one's record number and fields in *LINE and
 * *NF.
 */
unsigned long	 csv_ragged(const struct csv *, unsigned long *line, size_t *nf);
void		 csv_close(struct csv *);

/* Field I of the last record, or "" when the record is shorter. */
static inline const char *
csv_field(char **fields, size_t n, int i)
{
	return i >= 0 && (size_t)i < n ? fields[i] : "";
}
/* A number, or NaN when the field is empty or not a number. */
double		 csv_num(const char *);
/* The same of N bytes at S, no terminator needed. */
double		 csv_numn(const char *s, size_t n);
/* Trim blanks (spaces, tabs) at both ends in place. */
char		*csv_trim(char *);

#endif
