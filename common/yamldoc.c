/* libyaml's document API, with the error messages users need. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"
#include "outfile.h"
#include "yamldoc.h"

static yaml_document_t *
first(struct ydoc *y)
{
	return &y->docs[0];
}

static yaml_node_t *
node(struct ydoc *y, int id)
{
	return id > 0 ? yaml_document_get_node(first(y), id) : NULL;
}

int
ydoc_load(struct ydoc *y, const char *path, char **why)
{
	yaml_parser_t parser;
	FILE *f;
	int rc = 0, fd;

	memset(y, 0, sizeof(*y));
	y->path = xstrdup(path);
	if ((fd = open_regular(path)) == -1 ||
	    (f = fdopen(fd, "rb")) == NULL) {
		*why = xasprintf(_("cannot read %s: %s"), path,
		    read_error(errno));
		if (fd != -1)
			close(fd);
		ydoc_free(y);
		return -1;
	}
	yaml_parser_initialize(&parser);
	yaml_parser_set_input_file(&parser, f);
	for (;;) {
		if (y->ndocs == YDOC_MAX) {
			*why = xasprintf(_("%s: more than %d YAML documents"),
			    path, YDOC_MAX);
			rc = -1;
			break;
		}
		if (!yaml_parser_load(&parser, &y->docs[y->ndocs])) {
			*why = xasprintf(_("%s:%zu:%zu: invalid YAML: %s%s%s; fix "
			    "the file"), path, parser.problem_mark.line + 1,
			    parser.problem_mark.column + 1,
			    parser.problem ? parser.problem : "?",
			    parser.context ? " " : "",
			    parser.context ? parser.context : "");
			rc = -1;
			break;
		}
		if (yaml_document_get_root_node(&y->docs[y->ndocs]) == NULL) {
			yaml_document_delete(&y->docs[y->ndocs]);
			break;
		}
		y->ndocs++;
	}
	yaml_parser_delete(&parser);
	fclose(f);
	if (rc == 0 && y->ndocs == 0) {
		*why = xasprintf(_("%s is empty; a MindSpeed YAML config is a "
		    "mapping of settings"), path);
		rc = -1;
	}
	if (rc == -1)
		ydoc_free(y);	/* a failed load leaves nothing to free */
	return rc;
}

void
ydoc_free(struct ydoc *y)
{
	for (size_t i = 0; i < y->ndocs; i++)
		yaml_document_delete(&y->docs[i]);
	y->ndocs = 0;
	free(y->path);
	y->path = NULL;
}

int
ydoc_write(struct ydoc *y, const char *path, char **why)
{
	yaml_emitter_t em;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int ok = f != NULL;

	if (ok) {
		yaml_emitter_initialize(&em);
		yaml_emitter_set_output_file(&em, f);
		yaml_emitter_set_unicode(&em, 1);
		yaml_emitter_set_width(&em, -1);
		ok = yaml_emitter_open(&em);
		for (size_t i = 0; ok && i < y->ndocs; i++)
			ok = yaml_emitter_dump(&em, &y->docs[i]);
		ok = ok && yaml_emitter_close(&em) && yaml_emitter_flush(&em);
		yaml_emitter_delete(&em);
		ok = fclose(f) == 0 && ok;
	}
	y->ndocs = 0;		/* yaml_emitter_dump freed them */
	if (!ok) {
		*why = xasprintf(_("cannot write %s: %s"), path,
		    i18n_strerror(errno));
		free(text);
		return -1;
	}
	ok = outfile_put(path, text, len, why) == 0;
	free(text);
	return ok ? 0 : -1;
}

int
ydoc_root(struct ydoc *y)
{
	yaml_node_t *root = yaml_document_get_root_node(first(y));

	return root != NULL && root->type == YAML_MAPPING_NODE ? 1 : 0;
}

/* The pair of KEY in mapping MAP, or NULL. */
static yaml_node_pair_t *
pair_of(struct ydoc *y, int map, const char *key)
{
	yaml_node_t *m = node(y, map), *k;
	yaml_node_pair_t *p;

	if (m == NULL || m->type != YAML_MAPPING_NODE)
		return NULL;
	for (p = m->data.mapping.pairs.start; p < m->data.mapping.pairs.top;
	    p++) {
		k = node(y, p->key);
		if (k != NULL && k->type == YAML_SCALAR_NODE &&
		    strcmp((char *)k->data.scalar.value, key) == 0)
			return p;
	}
	return NULL;
}

int
ydoc_get(struct ydoc *y, int map, const char *key)
{
	yaml_node_pair_t *p = pair_of(y, map, key);

	return p != NULL ? p->value : 0;
}

const char *
ydoc_scalar(struct ydoc *y, int id)
{
	yaml_node_t *n = node(y, id);

	return n != NULL && n->type == YAML_SCALAR_NODE ?
	    (const char *)n->data.scalar.value : NULL;
}

int
ydoc_is_map(struct ydoc *y, int id)
{
	yaml_node_t *n = node(y, id);

	return n != NULL && n->type == YAML_MAPPING_NODE;
}

int
ydoc_pair(struct ydoc *y, int map, size_t i, const char **key)
{
	yaml_node_t *m = node(y, map), *k;
	yaml_node_pair_t *p;

	if (m == NULL || m->type != YAML_MAPPING_NODE ||
	    i >= (size_t)(m->data.mapping.pairs.top -
	    m->data.mapping.pairs.start))
		return 0;
	p = m->data.mapping.pairs.start + i;
	k = node(y, p->key);
	*key = k != NULL && k->type == YAML_SCALAR_NODE ?
	    (const char *)k->data.scalar.value : "";
	return p->value;
}

char *
ydoc_where(struct ydoc *y, int id)
{
	yaml_node_t *n = node(y, id);

	return n == NULL ? xstrdup(y->path) :
	    xasprintf("%s:%zu", y->path, n->start_mark.line + 1);
}

static int
scalar(struct ydoc *y, const char *text)
{
	return yaml_document_add_scalar(first(y), NULL,
	    (yaml_char_t *)text, (int)strlen(text), YAML_ANY_SCALAR_STYLE);
}

/* Point KEY of MAP at VALUE, adding the pair when absent. */
static int
put(struct ydoc *y, int map, const char *key, int value)
{
	yaml_node_pair_t *p = pair_of(y, map, key);

	if (value == 0)
		return 0;
	if (p != NULL)
		p->value = value;	/* the old node is no longer reachable */
	else if (!yaml_document_append_mapping_pair(first(y), map,
	    scalar(y, key), value))
		return 0;
	return value;
}

int
ydoc_set(struct ydoc *y, int map, const char *key, const char *value)
{
	return put(y, map, key, scalar(y, value));
}

/* Would YAML 1.1 read TEXT, unquoted, as something else than a string? */
static int
not_a_string(const char *text)
{
	static const char *const words[] = { "", "~", "null", "Null", "NULL",
	    "true", "True", "TRUE", "false", "False", "FALSE", "yes", "Yes",
	    "YES", "no", "No", "NO", "on", "On", "ON", "off", "Off", "OFF", NULL };
	char *end;

	for (int i = 0; words[i] != NULL; i++)
		if (strcmp(text, words[i]) == 0)
			return 1;
	(void)strtod(text, &end);
	return end != text && *end == '\0';
}

int
ydoc_set_str(struct ydoc *y, int map, const char *key, const char *value)
{
	return put(y, map, key, yaml_document_add_scalar(first(y), NULL,
	    (yaml_char_t *)value, (int)strlen(value), not_a_string(value) ?
	    YAML_DOUBLE_QUOTED_SCALAR_STYLE : YAML_ANY_SCALAR_STYLE));
}

int
ydoc_set_list(struct ydoc *y, int map, const char *key,
    const char *const *items, size_t n)
{
	int seq = yaml_document_add_sequence(first(y), NULL,
	    YAML_FLOW_SEQUENCE_STYLE);

	for (size_t i = 0; seq != 0 && i < n; i++)
		yaml_document_append_sequence_item(first(y), seq,
		    scalar(y, items[i]));
	return put(y, map, key, seq);
}

int
ydoc_map(struct ydoc *y, int map, const char *key)
{
	int id = ydoc_get(y, map, key);

	if (id != 0)
		return ydoc_is_map(y, id) ? id : 0;
	return put(y, map, key, yaml_document_add_mapping(first(y), NULL,
	    YAML_BLOCK_MAPPING_STYLE));
}

/* ydoc_flag_leaf() below DEPTH levels of mappings (at most 16). */
static int
flag_leaf(struct ydoc *d, int map, const char *name, int *holder,
    const char **key, int depth)
{
	const char *k;
	int v, found = 0, sub;

	for (size_t i = 0; (v = ydoc_pair(d, map, i, &k)) != 0; i++)
		if (ydoc_is_map(d, v)) {
			if (depth < 16 && (sub = flag_leaf(d, v, name, holder,
			    key, depth + 1)) != 0)
				found = sub;
		} else if (yaml_key_is_flag(k, name)) {
			found = v;
			*holder = map;
			*key = k;
		}
	return found;
}

int
ydoc_flag_leaf(struct ydoc *d, int map, const char *name, int *holder,
    const char **key)
{
	int h;
	const char *k;

	return flag_leaf(d, map, name, holder != NULL ? holder : &h,
	    key != NULL ? key : &k, 0);
}
