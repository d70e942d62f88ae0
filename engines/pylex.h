/*
 * A Python file cut into what recognition reads (content.h), the bounded
 * way: its first CONTENT_READ_MAX bytes, and of a longer one its end from
 * a top-level def, class or __main__ block.  Each line is code only
 * (comments cut, strings blanked) and belongs to a block by indentation:
 * the file's top level, its __main__ block, each def and class.  The
 * imports are the names they bind.  A line is read, never parsed.
 */
#ifndef MSPROF_PYLEX_H
#define MSPROF_PYLEX_H

#include <stddef.h>

#include "common/util.h"

enum block_kind { BLOCK_TOP, BLOCK_MAIN, BLOCK_DEF, BLOCK_CLASS };

struct pyblock {
	enum block_kind	 kind;
	char		*name;		/* DEF, CLASS */
	int		 parent;	/* the enclosing block, -1 at the top */
	int		 reached;	/* DEF, TOP, MAIN: run; CLASS: made */
	int		 no;		/* the line it starts at */
	char		*bases;		/* CLASS: "A, b.B" of class C(A, b.B) */
};

struct pyline {
	char		*text;		/* code only, leading blanks cut */
	int		 no;		/* 1-based */
	int		 block;
};

struct pyimport {
	char		*local;		/* the name it binds */
	char		*module;	/* a.b of "from a.b import x" */
	char		*name;		/* x, or NULL for "import a.b" */
	int		 level;		/* leading dots: relative */
	int		 no;		/* its line */
};

struct pyfile {
	char		*path;
	char		*text;
	char		*tail;		/* the end of a longer file, or NULL */
	int		 tail_no;	/* the line the tail starts at */
	struct pyline	*lines;
	size_t		 nlines;
	struct pyblock	*blocks;	/* [0] is the top level */
	size_t		 nblocks, ablocks;	/* used, allocated */
	struct pyimport	*imports;
	size_t		 nimports, aimports;
	struct strv	 stars;		/* "LEVEL:MODULE" of from m import * */
	/* Left to the reader that follows the calls (pycalls.h). */
	int		 hops;		/* imports away from the entry */
	int		 site;		/* an installed package's */
	size_t		 index;		/* in reader's files */
	int		 pending;	/* blocks reached, not yet run */
	unsigned	 epoch;		/* reader's epoch its methods saw */
};

/* PATH read and cut, with nothing reached; NULL with errno set. */
struct pyfile	*pyfile_read(const char *path);
void		 pyfile_free(struct pyfile *);

static inline int
py_ident_char(char c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9');
}

static inline int
py_ident_start(char c)
{
	return py_ident_char(c) && !(c >= '0' && c <= '9');
}

/* The identifier or dotted name at P, as a copy. */
char		*py_dotted_at(const char *p);

/* Is line L a definition, not a call: "def f(", "class C("? */
int		 py_defines(const char *l);

/* The last part of the dotted name CHAIN: c of a.b.c. */
const char	*py_last_part(const char *chain);

#endif
