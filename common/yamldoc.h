/*
 * YAML configuration files as libyaml documents: load, look up and set
 * keys, write a copy.  Used for the MindSpeed YAML configs msprof-exec
 * copies (the user's file is only read).
 */
#ifndef MSPROF_YAMLDOC_H
#define MSPROF_YAMLDOC_H

#include <stddef.h>
#include <yaml.h>

#define YDOC_MAX	16	/* documents in one file */

struct ydoc {
	char		*path;
	yaml_document_t	 docs[YDOC_MAX];
	size_t		 ndocs;
};

/*
 * -1 and *why naming the file, line and column on failure (nothing is
 * left to free then).
 */
int	 ydoc_load(struct ydoc *, const char *path, char **why);
/* Write every document to PATH (atomically); frees them. */
int	 ydoc_write(struct ydoc *, const char *path, char **why);
void	 ydoc_free(struct ydoc *);

/* The root mapping of the first document, or 0 when it is not one. */
int	 ydoc_root(struct ydoc *);
/* The node under KEY in mapping MAP, or 0. */
int	 ydoc_get(struct ydoc *, int map, const char *key);
/* The text of a scalar node, or NULL. */
const char *ydoc_scalar(struct ydoc *, int node);
/* Is NODE a mapping? */
int	 ydoc_is_map(struct ydoc *, int node);
/*
 * The value of the I-th pair of mapping MAP, its key (a scalar's text,
 * else "") in *KEY; 0 past the last pair.
 */
int	 ydoc_pair(struct ydoc *, int map, size_t i, const char **key);
/*
 * The last leaf at any depth under mapping MAP whose key is the flag NAME
 * (yaml_key_is_flag), or 0; *HOLDER its mapping, *KEY its key, when
 * not NULL.  MindSpeed-MM rebuilds its command line from every leaf
 * under gpt_args (read_yaml_config.py, flatten_config): the flag is the
 * one such a leaf gives.
 */
int	 ydoc_flag_leaf(struct ydoc *, int map, const char *name, int *holder,
	    const char **key);
/* Where NODE starts, "FILE:LINE". */
char	*ydoc_where(struct ydoc *, int node);

/*
 * Set KEY in mapping MAP to a plain scalar (replacing any value), or to a
 * new flow sequence of plain scalars.  Return the new node.
 */
int	 ydoc_set(struct ydoc *, int map, const char *key, const char *value);
/* The same for a string: quoted when YAML would read it as another type. */
int	 ydoc_set_str(struct ydoc *, int map, const char *key,
	    const char *value);
int	 ydoc_set_list(struct ydoc *, int map, const char *key,
	    const char *const *items, size_t n);
/*
 * The mapping under KEY in MAP, added when absent.  0 when KEY holds
 * something else (the caller reports it).
 */
int	 ydoc_map(struct ydoc *, int map, const char *key);

#endif
