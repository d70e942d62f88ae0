/*
 * Following the code an entry runs (content.h): its top level and
 * __main__ block, the functions and methods they call or pass on
 * (mp.spawn(train, ...)), followed by name through the imports into the
 * modules Python would find (pymodule.h), at most CONTENT_FILES_MAX files
 * (CONTENT_SITE_FILES_MAX of installed packages) and CONTENT_HOPS_MAX
 * imports away.  A module is read when a name of it is used, and its top
 * level runs then.  A method is run when its class (or a subclass) is
 * made and its name called on something (x.train()): which object is not
 * known without running the code.
 *
 * What a call means is the reader's user's to say: CALL is given each
 * call the code run makes, KNOWN says when there is nothing more to
 * learn, LIBRARY names the modules never read.
 */
#ifndef MSPROF_PYCALLS_H
#define MSPROF_PYCALLS_H

#include <stddef.h>

#include "common/util.h"
#include "content.h"
#include "pylex.h"
#include "pymodule.h"

struct reader {
	struct pyfile	*files[CONTENT_FILES_MAX];	/* [0]: the entry */
	size_t		 nfiles;
	struct pypath	 path;		/* where modules are looked for */
	int		 site_files;	/* files read of installed packages */
	int		 followed;	/* modules read besides the entry */
	struct strv	 methods;	/* names called on an object */
	struct strv	 missing;	/* absolute modules not found */
	int		 changed;	/* a block newly reached */
	size_t		 lowest;	/* the first file with one */
	unsigned	 epoch;		/* counts classes made, methods called */
	/*
	 * The call CHAIN (a.b.c, or .c on what a call returned) made at
	 * line NO of PF by code that runs: 0 when it is not to be followed.
	 */
	int		(*call)(struct reader *, const struct pyfile *pf,
			    int no, const char *chain);
	int		(*known)(const struct reader *);
	int		(*library)(const char *module);	/* absolute a.b */
};

/*
 * Read the entry SCRIPT into R (its hooks set, its path by
 * pypath_init()), its top level and __main__ block reached: the file, or
 * NULL with errno set.
 */
struct pyfile	*reader_entry(struct reader *r, const char *script);

/*
 * Run the reached blocks until nothing more is reached, or until R's
 * user knows all there is to learn.
 */
void		 reader_run(struct reader *r);

/* The files R read, its path and what it noted. */
void		 reader_free(struct reader *r);

#endif
