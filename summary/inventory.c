/* The inventory of rank directories: each directory listed, each read, once. */
#include <sys/stat.h>

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/i18n.h"
#include "common/linkwalk.h"
#include "common/parallel.h"
#include "common/rankname.h"
#include "common/util.h"
#include "inventory.h"
#include "summary.h"

const char *const rankdir_files[RANKDIR_NFILES] = {
	"step_trace_time.csv", "kernel_details.csv", "op_statistic.csv",
	"communication.json", "communication_matrix.json", "analysis.db",
	"trace_view.json", "operator_details.csv", "api_statistic.csv",
	"operator_memory.csv", "memory_record.csv", "npu_module_mem.csv",
};

/* How deep a rank directory is read (its raw data is 4 levels down). */
#define MAX_DEPTH	16

int
rank_order(int ra, const char *pa, int rb, const char *pb)
{
	if ((ra < 0) != (rb < 0))
		return ra < 0 ? 1 : -1;
	if (ra != rb)
		return ra < rb ? -1 : 1;
	return strcmp(pa, pb);
}

void
inventory_init(struct inventory *inv)
{
	memset(inv, 0, sizeof(*inv));
}

static void
nodes_free(struct inv_nodes *ns)
{
	for (size_t i = 0; i < ns->n; i++) {
		free(ns->v[i].name);
		free(ns->v[i].target);
		nodes_free(&ns->v[i].kids);
	}
	free(ns->v);
	memset(ns, 0, sizeof(*ns));
}

static struct inv_node *
add_node(struct inv_nodes *ns, const char *name, enum inv_node_kind kind)
{
	struct inv_node *n;

	if ((ns->n & (ns->n - 1)) == 0)
		ns->v = xreallocarray(ns->v, ns->n ? ns->n * 2 : 1,
		    sizeof(*ns->v));
	n = &ns->v[ns->n++];
	memset(n, 0, sizeof(*n));
	n->name = xstrdup(name);
	n->kind = kind;
	return n;
}

/* What a symbolic link NAME in DIRFD holds, as readlink says. */
static char *
link_text(int dirfd, const char *name)
{
	char to[PATH_MAX];
	ssize_t k = readlinkat(dirfd, name, to, sizeof(to) - 1);

	to[k > 0 ? k : 0] = '\0';
	return xstrdup(to);
}

/* Entry NAME of DIRFD as a listing shows it, into NS. */
static void
show_entry(struct inv_nodes *ns, int dirfd, const char *name,
    unsigned char d_type)
{
	struct stat st;
	struct inv_node *n;

	if (d_type == DT_DIR) {
		add_node(ns, name, NODE_DIR);
		return;
	}
	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    S_ISLNK(st.st_mode)) {
		add_node(ns, name, NODE_LINK)->target = link_text(dirfd, name);
		return;
	}
	if (fstatat(dirfd, name, &st, 0) != 0) {
		add_node(ns, name, NODE_GONE);
		return;
	}
	n = add_node(ns, name, S_ISDIR(st.st_mode) ? NODE_DIR : NODE_FILE);
	n->size = S_ISDIR(st.st_mode) ? 0 : st.st_size;
}

static void
listing_free(struct inv_listing *l)
{
	nodes_free(&l->all);
	for (size_t i = 0; i < l->n; i++) {
		free(l->e[i].name);
		free(l->e[i].target);
		free(l->e[i].why);
	}
	free(l->e);
	free(l->real);
	free(l->as);
	free(l);
}

void
inventory_free(struct inventory *inv)
{
	for (size_t i = 0; i < inv->ndirs; i++)
		listing_free(inv->dirs[i]);
	free(inv->dirs);
	for (size_t i = 0; i < inv->nrd; i++) {
		free(inv->rd[i]->real);
		strv_free(&inv->rd[i]->infos);
		nodes_free(&inv->rd[i]->tree);
		free(inv->rd[i]);
	}
	free(inv->rd);
	strmap_free(&inv->by_real, NULL);
	strmap_free(&inv->by_dir, NULL);
	memset(inv, 0, sizeof(*inv));
}

size_t
inventory_rankdir(struct inventory *inv, const char *real)
{
	void **slot = strmap_slot(&inv->by_real, real);
	struct inv_rankdir *r;

	if (*slot != NULL)
		return (size_t)(uintptr_t)*slot - 1;
	r = xcalloc(1, sizeof(*r));
	r->real = xstrdup(real);
	r->rank = -1;
	if ((inv->nrd & (inv->nrd - 1)) == 0)	/* 0, 1, 2, 4, ...: grow */
		inv->rd = xreallocarray(inv->rd, inv->nrd ? inv->nrd * 2 : 1,
		    sizeof(*inv->rd));
	inv->rd[inv->nrd++] = r;
	inv->unread++;
	*slot = (void *)(uintptr_t)inv->nrd;
	return inv->nrd - 1;
}

static struct inv_entry *
add_entry(struct inv_listing *l, enum inv_kind kind, const char *name)
{
	struct inv_entry *e;

	if ((l->n & (l->n - 1)) == 0)
		l->e = xreallocarray(l->e, l->n ? l->n * 2 : 1, sizeof(*l->e));
	e = &l->e[l->n++];
	memset(e, 0, sizeof(*e));
	e->kind = kind;
	e->name = xstrdup(name);
	return e;
}

/* Entry NAME of L (open as D), found as EN under the path SUB. */
static void
list_entry(struct inventory *inv, struct inv_listing *l, const char *name,
    const char *sub, const struct entry *en)
{
	struct inv_entry *e;
	char *real = NULL, *key;

	if (en->type == ENTRY_BROKEN && rankdir_link(name, en))
		add_entry(l, INV_NOTE, name)->why = xstrdup(en->why);
	if (en->type != ENTRY_DIR)
		return;
	if (!rankdir_path(sub, en->link, &real)) {
		e = add_entry(l, INV_SUBDIR, name);
		e->link = en->link;
		e->target = en->link ? real : NULL;
		if (!en->link)
			free(real);
		return;
	}
	if (en->link && path_holds(real, l->real)) {
		/* back into the directory that holds it: its own entries */
		add_entry(l, INV_NOTE, name)->why = loop_why(sub);
		free(real);
		return;
	}
	e = add_entry(l, INV_RANKDIR, name);
	e->link = en->link;
	key = en->link ? xstrdup(real) : xasprintf("%s/%s", l->real, name);
	e->rd = inventory_rankdir(inv, key);
	e->target = en->link ? real : NULL;
	if (!en->link)
		free(real);
	free(key);
}

static void
list_dir(struct inventory *inv, struct inv_listing *l)
{
	DIR *d = opendir(l->as);
	struct dirent *e;
	struct entry en;
	char *sub;

	if (d == NULL) {
		l->errnum = errno;
		return;
	}
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			show_entry(&l->all, dirfd(d), e->d_name, e->d_type);
		if (e->d_name[0] == '.')
			continue;
		sub = xasprintf("%s/%s", l->as, e->d_name);
		entry_read(dirfd(d), e->d_name, sub, e->d_type, 0, &en);
		list_entry(inv, l, e->d_name, sub, &en);
		entry_free(&en);
		free(sub);
	}
	closedir(d);
}

const struct inv_listing *
inventory_list(struct inventory *inv, const char *path)
{
	struct inv_listing *l;
	char *real = realpath(path, NULL);
	void **slot = NULL;

	if (real != NULL && *(slot = strmap_slot(&inv->by_dir, real)) != NULL) {
		free(real);
		return *slot;
	}
	/* of no real path (gone, or unreadable): found by the path given */
	for (size_t i = 0; real == NULL && i < inv->ndirs; i++)
		if (inv->dirs[i]->real == NULL &&
		    strcmp(inv->dirs[i]->as, path) == 0)
			return inv->dirs[i];
	l = xcalloc(1, sizeof(*l));
	if (slot != NULL)
		*slot = l;
	l->real = real;
	l->as = xstrdup(path);
	if (real == NULL)
		l->errnum = errno;
	else
		list_dir(inv, l);
	inv->dirs = xreallocarray(inv->dirs, inv->ndirs + 1, sizeof(*inv->dirs));
	inv->dirs[inv->ndirs++] = l;
	return l;
}

char *
inventory_path(const struct inv_listing *l, size_t k, const char *dir)
{
	return xasprintf("%s/%s", dir, l->e[k].name);
}

char *
inventory_why(const struct inv_listing *l, size_t k, const char *dir)
{
	const char *why = l->e[k].why;
	size_t n = strlen(l->as);

	/* the line begins with the path the listing was made by */
	if (strcmp(dir, l->as) == 0 || strncmp(why, l->as, n) != 0 ||
	    why[n] != '/')
		return xstrdup(why);
	return xasprintf("%s%s", dir, why + n);
}

/* Where a directory is in a rank directory: what its entries say. */
enum place {
	IN_RANKDIR,	/* profiler_info_N.json, PROF_*, ASCEND_PROFILER_OUTPUT */
	IN_PROF,	/* PROF_* or ASCEND_PROF_*: device_* */
	IN_DEVICE,	/* device_*: data, info.json.N */
	IN_DATA,	/* any entry: raw data */
	IN_OUTPUT,	/* ASCEND_PROFILER_OUTPUT: the parsed files */
	IN_OTHER,
};

static enum place
place_of(enum place in, const char *name)
{
	switch (in) {
	case IN_RANKDIR:
		if (strncmp(name, "PROF_", 5) == 0 ||
		    strncmp(name, "ASCEND_PROF_", 12) == 0)
			return IN_PROF;
		return strcmp(name, "ASCEND_PROFILER_OUTPUT") == 0 ? IN_OUTPUT :
		    IN_OTHER;
	case IN_PROF:
		return strncmp(name, "device_", 7) == 0 ? IN_DEVICE : IN_OTHER;
	case IN_DEVICE:
		return strcmp(name, "data") == 0 ? IN_DATA : IN_OTHER;
	default:
		return IN_OTHER;
	}
}

struct scan {
	struct inv_rankdir *r;
	struct dirstack	 up;	/* the directories the walk is inside */
	int		 several;	/* profiler_info of different ranks */
};

/* What entry NAME says about the rank directory, from where it is. */
static void
note(struct scan *sc, enum place in, const char *name)
{
	struct inv_rankdir *r = sc->r;
	int rank;

	if (in == IN_RANKDIR && (rank = rankname_info(name)) >= 0) {
		/* a copy of another rank's: which it is cannot be told */
		sc->several |= r->rank >= 0 && rank != r->rank;
		r->rank = rank;
	} else if (in == IN_DATA)
		r->raw = 1;
	else if (in == IN_OUTPUT) {
		r->parsed = 1;
		for (int i = 0; i < RANKDIR_NFILES; i++)
			if (strcmp(name, rankdir_files[i]) == 0)
				r->files |= 1u << i;
	}
}

/* Entry NAME of DIRFD, read as EN, as a listing shows it, into NS. */
static struct inv_node *
show_read(struct inv_nodes *ns, int dirfd, const char *name,
    const struct entry *en)
{
	struct inv_node *n;

	if (en->link)
		n = add_node(ns, name, en->type == ENTRY_GONE ? NODE_GONE :
		    NODE_LINK);
	else if (en->type == ENTRY_DIR || en->type == ENTRY_GONE)
		n = add_node(ns, name, en->type == ENTRY_DIR ? NODE_DIR :
		    NODE_GONE);
	else {
		n = add_node(ns, name, NODE_FILE);
		n->size = en->st.st_size;
	}
	if (n->kind == NODE_LINK)
		n->target = link_text(dirfd, name);
	return n;
}

/*
 * One walk of a rank directory (through links, none twice, none back to
 * the rank directory or above it: its files are another directory's, or
 * these again): its rank, its raw and parsed data, the bytes of its
 * files, and its entries as a listing shows them, two levels (INTO, or
 * NULL below).  REL is PATH relative to the rank directory; CHIP: PATH
 * is a PROF_* or its device_N, where the chip's description is.
 */
static void
walk(struct scan *sc, const char *path, const char *rel, enum place in,
    int depth, int chip, struct inv_nodes *into)
{
	struct inv_node *shown;
	DIR *d = opendir(path);
	struct dirent *e;
	struct entry en;
	struct stat st;
	char *sub, *subrel, *real;
	enum place p;

	if (d == NULL)
		return;
	if (fstat(dirfd(d), &st) < 0 ||
	    dirstack_push(&sc->up, path, &st, NULL) < 0) {
		closedir(d);	/* a loop inside: its bytes are counted once */
		return;
	}
	if (depth == 0) {
		sc->r->opened = 1;
		sc->r->mtime = st.st_mtime;
	}
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		note(sc, in, e->d_name);
		sub = xasprintf("%s/%s", path, e->d_name);
		subrel = rel[0] == '\0' ? xstrdup(e->d_name) :
		    xasprintf("%s/%s", rel, e->d_name);
		entry_read(dirfd(d), e->d_name, sub, e->d_type, 1, &en);
		shown = into != NULL ? show_read(into, dirfd(d), e->d_name,
		    &en) : NULL;
		if (shown != NULL && depth == 0 && shown->kind == NODE_DIR)
			shown->listed = 1;	/* walked below */
		switch (en.type) {
		case ENTRY_FILE:
			sc->r->bytes += en.st.st_size;
			if (chip && in == IN_DEVICE &&
			    name_numbered(e->d_name, "info.json."))
				strv_push(&sc->r->infos, subrel);
			break;
		case ENTRY_DIR:
			real = en.link ? realpath(sub, NULL) : NULL;
			p = place_of(in, e->d_name);
			if (depth < MAX_DEPTH && !(en.link && (real == NULL ||
			    path_holds(real, sc->r->real))))
				walk(sc, sub, subrel, p, depth + 1,
				    (p == IN_PROF && strncmp(e->d_name,
				    "PROF_", 5) == 0) || (p == IN_DEVICE && chip &&
				    name_numbered(e->d_name, "device_")),
				    shown != NULL && depth == 0 &&
				    shown->kind == NODE_DIR ? &shown->kids :
				    NULL);
			free(real);
			break;
		default:
			break;
		}
		entry_free(&en);
		free(subrel);
		free(sub);
	}
	dirstack_pop(&sc->up);
	closedir(d);
}

static void
read_one(void *arg, size_t i)
{
	struct inv_rankdir **todo = arg;
	struct scan sc = { .r = todo[i] };

	walk(&sc, sc.r->real, "", IN_RANKDIR, 0, 0, &sc.r->tree);
	if (sc.several)
		sc.r->rank = -1;
	sc.r->read = 1;
	dirstack_free(&sc.up);
}

void
inventory_read(struct inventory *inv)
{
	struct inv_rankdir **todo;
	size_t n = 0;

	if (inv->unread == 0)
		return;
	todo = xcalloc(inv->unread, sizeof(*todo));
	for (size_t i = 0; i < inv->nrd; i++)
		if (!inv->rd[i]->read)
			todo[n++] = inv->rd[i];
	i18n_init();	/* before the threads: their messages are translated */
	parallel_for(n, summary_workers(n), read_one, todo);
	free(todo);
	inv->unread = 0;
}

const struct inv_rankdir *
inventory_get(struct inventory *inv, size_t i)
{
	if (!inv->rd[i]->read)
		inventory_read(inv);
	return inv->rd[i];
}

void
inventory_drop_trees(struct inventory *inv)
{
	for (size_t i = 0; i < inv->nrd; i++)
		nodes_free(&inv->rd[i]->tree);
}

const struct inv_nodes *
inventory_entries(struct inventory *inv, const char *path)
{
	char *real = realpath(path, NULL);
	void *i = real != NULL ? strmap_get(&inv->by_real, real) : NULL;

	free(real);
	if (i != NULL)
		return &inventory_get(inv, (size_t)(uintptr_t)i - 1)->tree;
	return &inventory_list(inv, path)->all;
}
