/*
 * The inventory of rank directories: every directory the report looks
 * at is listed once, and every rank directory ({host}_{pid}_{stamp}_ascend_pt)
 * found in one is read once (its rank, its raw and parsed data, the
 * bytes of its files), whoever asks: verification (report/verify.c)
 * judges what it holds against the journal, the summary (find.c) groups
 * it into runs and reads the rank directories of one.  So each directory
 * and each file is opened once per report, however many parts of it ask.
 *
 * Directories are read through symbolic links, as people gather rank
 * directories from each node's storage with ln -s; a link that leads
 * nowhere, or back into the directory that holds it, is not followed and
 * is named in a line (kept with the listing that found it).
 */
#ifndef MSPROF_SUMMARY_INVENTORY_H
#define MSPROF_SUMMARY_INVENTORY_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "common/util.h"
#include "strmap.h"

/* The parsed files looked for: a bit each in inv_rankdir.files. */
#define RANKDIR_NFILES	12
extern const char *const rankdir_files[RANKDIR_NFILES];

/*
 * An entry as a listing of the directory shows it (the report's tree): a
 * link by what it holds, a file by its size (a link's, its target's).
 */
enum inv_node_kind { NODE_DIR, NODE_FILE, NODE_LINK, NODE_GONE };
struct inv_nodes {
	struct inv_node	*v;
	size_t		 n;
};
struct inv_node {
	char		*name;
	enum inv_node_kind kind;
	char		*target;	/* NODE_LINK: what the link holds */
	int64_t		 size;		/* NODE_FILE */
	/* the entries of a rank directory's own directory (NODE_DIR) */
	struct inv_nodes kids;
	int		 listed;	/* kids holds them all */
};

/* What one rank directory holds, read once. */
struct inv_rankdir {
	char	*real;		/* its real path (the key) */
	int	 read;		/* walked yet */
	int	 opened;	/* it could be opened */
	/* from profiler_info_<rank>.json; -1 none, or several ranks' */
	int	 rank;
	int	 raw;		/* PROF_* / ASCEND_PROF_* with device_* data */
	int	 parsed;	/* ASCEND_PROFILER_OUTPUT with files */
	unsigned files;		/* which of rankdir_files it holds */
	int64_t	 bytes;		/* of its files (through links: the targets') */
	time_t	 mtime;		/* of the directory */
	/*
	 * The chip's description, PROF_{id}/device_{n}/info.json.{n}, each
	 * relative to the rank directory, as found
	 */
	struct strv infos;
	/* its entries, and those of its directories (NODE_DIR's kids) */
	struct inv_nodes tree;
};

enum inv_kind {
	INV_RANKDIR,		/* a rank directory (or a link to one) */
	INV_SUBDIR,		/* another directory: a walk may go in */
	INV_NOTE,		/* a link not followed, and why */
};

/* One entry of a directory listed. */
struct inv_entry {
	enum inv_kind	 kind;
	char		*name;
	int		 link;
	/* RANKDIR, SUBDIR through a link: where it leads (real path) */
	char		*target;
	size_t		 rd;	/* RANKDIR: its index in inventory.rd */
	char		*why;	/* NOTE: the line, naming it by listing.as */
};

/* A directory listed: its rank directories, subdirectories, notes. */
struct inv_listing {
	char		*real;	/* its real path */
	char		*as;	/* the path it was first listed by */
	int		 errnum;	/* it could not be opened: errno */
	struct inv_entry *e;
	size_t		 n;
	struct inv_nodes all;	/* every entry but . and .., as found */
};

struct inventory {
	struct inv_listing **dirs;
	size_t		 ndirs;
	struct inv_rankdir **rd;
	size_t		 nrd, unread;
	struct strmap	 by_real;	/* real path -> index + 1 in rd */
	struct strmap	 by_dir;	/* real path -> its listing */
};

/*
 * The order rank directories are said in: by rank, those of no rank (-1)
 * last, then by path; as strcmp.
 */
int	rank_order(int ra, const char *pa, int rb, const char *pb);

void	inventory_init(struct inventory *);
void	inventory_free(struct inventory *);

/*
 * The listing of directory PATH (made when it was not listed before, by
 * any path that leads to it); errnum set when it cannot be opened.
 */
const struct inv_listing *inventory_list(struct inventory *,
	    const char *path);
/*
 * The rank directory whose real path is REAL, added (unread) when new;
 * its index.
 */
size_t	inventory_rankdir(struct inventory *, const char *real);
/* The rank directories added and not read yet, read (on several threads). */
void	inventory_read(struct inventory *);
/* Rank directory I, read. */
const struct inv_rankdir *inventory_get(struct inventory *, size_t i);
/*
 * The entries of directory PATH as found: of a rank directory as its
 * read found them, of another directory from its listing.
 */
const struct inv_nodes *inventory_entries(struct inventory *,
	    const char *path);
/*
 * The rank directories' entries are no longer needed (the trees are
 * made): their memory is the summary's.  inventory_entries of a rank
 * directory is empty from then on.
 */
void	inventory_drop_trees(struct inventory *);
/*
 * Entry K of L named as a walk that reached L by the path DIR would
 * name it: DIR/NAME, or for a note its line with that path in it.
 */
char	*inventory_path(const struct inv_listing *, size_t k, const char *dir);
char	*inventory_why(const struct inv_listing *, size_t k, const char *dir);

#endif
