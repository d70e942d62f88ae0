/*
 * The tree the report shows under an output directory: each rank's
 * directory and what it holds, a few levels down, from the inventory
 * (summary/inventory.h), which has listed and read them already.
 */
#ifndef MSPROF_REPORT_TREE_H
#define MSPROF_REPORT_TREE_H

#include <stddef.h>
#include <stdint.h>

#define TREE_ENTRIES	12	/* entries shown per directory */

enum tree_kind {
	TREE_DIR,
	TREE_FILE,
	TREE_LINK,
	TREE_MORE,		/* entries of the level above not shown */
};

struct tree_line {
	int		 level;	/* 0: an entry of the output directory */
	enum tree_kind	 kind;
	char		*name;
	char		*target;	/* TREE_LINK: what the link holds */
	int64_t		 size;	/* TREE_FILE; TREE_MORE: how many */
};

struct report_tree {
	struct tree_line *v;
	size_t		 n;
};

struct inventory;
/*
 * The entries under PATH, DEPTH levels, in the order of their names
 * (msprof-exec's sessions left out), at most TREE_ENTRIES a directory.
 */
void	report_tree(struct inventory *, const char *path, int depth,
	    struct report_tree *);
void	report_tree_free(struct report_tree *);

#endif
