/*
 * Directory entries as the report and the summary read them: through
 * symbolic links, as people gather rank directories from each node's
 * storage with ln -s.  A link that leads nowhere, or that loops (to itself,
 * or back to a directory the walk is inside), is named in one line and not
 * followed; the size of anything is its target's, never a link's own.
 */
#ifndef MSPROF_LINKWALK_H
#define MSPROF_LINKWALK_H

#include <sys/stat.h>

#include <stddef.h>

enum entry_type {
	ENTRY_DIR,
	ENTRY_FILE,	/* a regular file */
	ENTRY_OTHER,	/* a FIFO, a socket, a device */
	ENTRY_BROKEN,	/* a link that leads nowhere or loops */
	ENTRY_GONE,	/* removed while read, or unreadable: nothing */
};

struct entry {
	enum entry_type	 type;
	int		 link;	/* reached through a symbolic link */
	struct stat	 st;	/* of the target */
	char		*why;	/* ENTRY_BROKEN: a line naming it */
	char		*target;	/* ENTRY_BROKEN: what the link holds */
};
void		 entry_free(struct entry *);

/*
 * Entry NAME of the directory open as DIRFD, PATH for messages; D_TYPE is
 * readdir's (DT_UNKNOWN when not known).  Unless STAT, what readdir says
 * is a directory or a regular file is not stat'ed (E->st is then unset:
 * a directory's caller opens it and fstats that).  Fills E; its type.
 */
enum entry_type	 entry_read(int dirfd, const char *name, const char *path,
		    unsigned char d_type, int stat, struct entry *e);
/* The directories a walk is inside, to tell a link back into one (a loop). */
struct dirstack {
	dev_t		*dev;
	ino_t		*ino;
	size_t		 n, cap;
};

/* Is the directory of ST in S? */
int	 dirstack_has(const struct dirstack *s, const struct stat *st);
/* 0, or -1 and *WHY ("PATH: a symbolic link back to ...") when in S. */
int	 dirstack_push(struct dirstack *s, const char *path,
	    const struct stat *st, char **why);
void	 dirstack_pop(struct dirstack *);
void	 dirstack_free(struct dirstack *);

/*
 * Is PATH (a directory) a rank directory, {host}_{pid}_{stamp}_ascend_pt:
 * by its name, or by the name of the directory a link of another name
 * leads to?  Its real path (whose name has the timestamp) in *REAL when
 * not NULL (free it).
 */
int	 rankdir_path(const char *path, int link, char **real);
/* Is the link of E (broken) meant for a rank directory, by NAME or target? */
int	 rankdir_link(const char *name, const struct entry *e);
/* Does directory REAL hold (or is it) directory IN?  Both real paths. */
int	 path_holds(const char *real, const char *in);
/* "PATH: a symbolic link back to a directory that holds it" */
char	*loop_why(const char *path);

#endif
