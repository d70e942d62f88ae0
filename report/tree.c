/* The tree shown under an output directory, from the inventory. */
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "summary/inventory.h"
#include "tree.h"

static void
line(struct report_tree *t, int level, enum tree_kind kind,
    const struct inv_node *n, int64_t size)
{
	if ((t->n & (t->n - 1)) == 0)
		t->v = xreallocarray(t->v, t->n ? t->n * 2 : 1, sizeof(*t->v));
	t->v[t->n++] = (struct tree_line){ level, kind,
	    n != NULL ? xstrdup(n->name) : NULL,
	    n != NULL ? xstrdup_null(n->target) : NULL, size };
}

/* As alphasort orders a directory's entries. */
static int
by_name(const void *a, const void *b)
{
	const struct inv_node *const *x = a, *const *y = b;

	return strcoll((*x)->name, (*y)->name);
}

/*
 * The entries NS of PATH at LEVEL, DEPTH levels down: a directory's are
 * its own node's when its parent's read found them (a rank directory's),
 * else the inventory's.
 */
static void
level_of(struct inventory *inv, struct report_tree *t, const char *path,
    const struct inv_nodes *ns, int level, int depth)
{
	const struct inv_node **v = xcalloc(ns->n + 1, sizeof(*v));
	const struct inv_nodes *below;
	int shown = 0;
	char *sub;

	for (size_t i = 0; i < ns->n; i++)
		v[i] = &ns->v[i];
	qsort(v, ns->n, sizeof(*v), by_name);
	for (size_t i = 0; i < ns->n; i++) {
		const struct inv_node *n = v[i];

		if (strncmp(n->name, "msprof-exec_", 12) == 0 ||
		    shown++ >= TREE_ENTRIES)
			continue;
		if (n->kind == NODE_LINK)
			line(t, level, TREE_LINK, n, 0);
		else if (n->kind == NODE_FILE)
			line(t, level, TREE_FILE, n, n->size);
		else if (n->kind == NODE_DIR) {
			line(t, level, TREE_DIR, n, 0);
			if (depth <= 1)
				continue;
			sub = xasprintf("%s/%s", path, n->name);
			below = n->listed ? &n->kids :
			    inventory_entries(inv, sub);
			level_of(inv, t, sub, below, level + 1, depth - 1);
			free(sub);
		}
	}
	if (shown > TREE_ENTRIES)
		line(t, level, TREE_MORE, NULL, shown - TREE_ENTRIES);
	free(v);
}

void
report_tree(struct inventory *inv, const char *path, int depth,
    struct report_tree *t)
{
	memset(t, 0, sizeof(*t));
	level_of(inv, t, path, inventory_entries(inv, path), 0, depth);
}

void
report_tree_free(struct report_tree *t)
{
	for (size_t i = 0; i < t->n; i++) {
		free(t->v[i].name);
		free(t->v[i].target);
	}
	free(t->v);
	memset(t, 0, sizeof(*t));
}
