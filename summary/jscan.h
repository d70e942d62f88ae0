/*
 * A JSON reader that takes only what its caller asks for: it walks a file
 * value by value from a read(2) buffer, hands over the keys, strings and
 * numbers asked for and skips everything else, building nothing and
 * allocating nothing per value.  Memory is the buffer plus the longest key
 * or string asked for, never the file; nesting is bounded (JS_MAX_DEPTH),
 * so no file can exhaust the stack or the heap.  The first error stops
 * the walk and is kept with where it happened: the file, the line and
 * column, and what was wrong.
 *
 * The walk follows the document:
 *
 *	if (js_object(&js, "the file") == 1)
 *		while (js_key(&js, &k, &n) == 1)
 *			if (strcmp(k, "wanted") == 0)
 *				js_number(&js, k, &v);
 *			else
 *				js_skip(&js);
 *
 * After js_key() or js_item() returns 1, exactly one value must be read
 * (js_object/js_array and their members, js_number, js_string, js_skip).
 * Asked for a type the value does not have (null aside), the reader
 * stops with an error naming the field: a file with a field of the wrong
 * type is left out whole, never half read.  js_peek() says what comes
 * next, for the fields that may take several types.
 */
#ifndef MSPROF_SUMMARY_JSCAN_H
#define MSPROF_SUMMARY_JSCAN_H

#include <stddef.h>

#define JS_MAX_DEPTH	512	/* objects and arrays inside each other */
#define JS_MAX_TOKEN	(1 << 20)	/* the longest key or string read */

/* Why a file was left out (the reason part of js_why()). */
enum js_err {
	JS_OK,
	JS_NOT_REGULAR,		/* a FIFO, a device, a directory */
	JS_UNREADABLE,		/* open or read failed */
	JS_EMPTY,
	JS_CUT_SHORT,		/* the file ends inside a value */
	JS_NOT_JSON,		/* a syntax error */
	JS_TOO_DEEP,		/* nested deeper than JS_MAX_DEPTH */
	JS_TOO_LONG,		/* a key or string asked for is too long */
	JS_WRONG_TYPE,		/* the caller found a field of another type */
};

struct jscan {
	const char	*path;
	int		 fd;
	char		*buf;		/* buf[end] is always '\0' */
	size_t		 cap, pos, end;
	long long	 off;		/* the file offset of buf[0] */
	long long	 size;		/* as fstat said when opened */
	int		 eof;
	int		 started;	/* a value was seen: not empty */
	int		 depth;
	int		 first;		/* no member read yet in the innermost */
	unsigned char	 kind[JS_MAX_DEPTH];	/* '{' or '[' of each level */
	char		*key, *str;	/* the last key and string, unescaped */
	size_t		 keycap, strcap;
	enum js_err	 err;
	int		 errnum;	/* JS_UNREADABLE: errno */
	char		*why;		/* the error, naming the file */
};

/*
 * Open PATH (never blocking on a FIFO: it is not a regular file); 0, or
 * -1 with the error kept (js_why) and nothing to close but js_close.
 */
int		 js_open(struct jscan *, const char *path);
void		 js_close(struct jscan *);

/*
 * The first character of the next value: '{', '[', '"', 't', 'f', 'n', or
 * '0' for a number; -1 on an error (the file ends, or no value is there).
 */
int		 js_peek(struct jscan *);
/*
 * FIELD names the value in an error (NULL: the whole file).  js_object
 * and js_array: 1 when it
 * begins (and is entered), 0 for null (read), -1 for another type or an
 * error.
 */
int		 js_object(struct jscan *, const char *field);
int		 js_array(struct jscan *, const char *field);
/*
 * Inside an object: 1 and the next key (unescaped, NUL-terminated, valid
 * until the next js_key), 0 at its end (left), -1 on an error.
 */
int		 js_key(struct jscan *, const char **key, size_t *len);
/* Inside an array: 1 when a value follows, 0 at its end (left), -1. */
int		 js_item(struct jscan *);
/* 1 and the number; 0 for null (*V is NaN); -1 another type or error. */
int		 js_number(struct jscan *, const char *field, double *v);
/*
 * 1 and the string (unescaped, NUL-terminated, valid until the next
 * js_string); 0 for null; -1 another type or an error.
 */
int		 js_string(struct jscan *, const char *field, const char **s,
		    size_t *len);
/* Skip the next value, whatever it is: 1, or -1. */
int		 js_skip(struct jscan *);
/* The document ends here: nothing but blanks follows (1), or -1. */
int		 js_finish(struct jscan *);

enum js_err	 js_error(const struct jscan *);
/* The error in a few words (not translated: a key), for grouping. */
const char	*js_reason(enum js_err);
/* The error naming the file, line and column; NULL without one. */
const char	*js_why(const struct jscan *);

#endif
