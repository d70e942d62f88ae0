/* Read config/launchers.conf and serialise it for the shim. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "shim/contract.h"
#include "shim/match.h"
#include "confrows.h"
#include "launchtab.h"

const struct optset *
launchtab_set(const struct launchtab *t, const char *set)
{
	for (size_t i = 0; i < t->nsets; i++)
		if (strcmp(t->sets[i].name, set) == 0)
			return &t->sets[i];
	return NULL;
}

const char *
launchtab_entry_engine(const struct launchtab *t, const char *script)
{
	int i = table_find(t->match, MATCH_KEY_ENTRY, script);

	return i < 0 ? NULL : t->entry_engines.v[i];
}

const char *
launchtab_module_engine(const struct launchtab *t, const char *module)
{
	int i = table_find(t->match, MATCH_KEY_ENTRY_MODULE, module);

	return i < 0 ? NULL : t->entry_module_engines.v[i];
}

/* A name the shim can match: no separator of its own syntax in it. */
static int
bad_name(const char *w, int slash_ok)
{
	return w[strcspn(w, slash_ok ? ",;=" : ",;=/")] != '\0';
}

/*
 * The message names the line as "PATH:LINE" (WHERE in the formats), made
 * only then: a table that loads needs none.
 */
#define FAIL(...) do { char *where = where_of(path, lineno); \
	*why = xasprintf(__VA_ARGS__); free(where); return -1; } while (0)

/* "PATH:LINE", the path's control bytes escaped. */
static char *
where_of(const char *path, size_t lineno)
{
	char *p = xescape(path), *w = xasprintf("%s:%zu", p, lineno);

	free(p);
	return w;
}

/* Is NAME "auto" or one of ENGINES (any, when ENGINES is NULL)? */
static int
known_engine(const char *const engines[], const char *name)
{
	if (engines == NULL || strcmp(name, LAUNCHTAB_AUTO) == 0)
		return 1;
	for (size_t i = 0; engines[i] != NULL; i++)
		if (strcmp(engines[i], name) == 0)
			return 1;
	return 0;
}

/* The index of S in V, or -1. */
static int
index_of(const struct strv *v, const char *s)
{
	for (size_t i = 0; i < v->n; i++)
		if (strcmp(v->v[i], s) == 0)
			return (int)i;
	return -1;
}

/* Are the words W[0..N) the flags of SET? */
static int
same_flags(const struct optset *set, char **w, size_t n)
{
	if (set->flags.n != n)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (strcmp(set->flags.v[i], w[i]) != 0)
			return 0;
	return 1;
}

/*
 * A row whose name an earlier row has: the same row again is kept once;
 * another (a launcher with another option set, an entry with another
 * engine) is an error, as the table could mean either.  1: seen and the
 * same; 0: new; -1 and *WHY: conflicting.
 */
static int
seen_row(const struct launchtab *t, char **w, size_t n, const char *where,
    char **why)
{
	const char *k = w[0];
	const struct optset *set;
	int i;

	if (strcmp(k, "options") == 0) {
		if ((set = launchtab_set(t, w[1])) == NULL)
			return 0;
		if (same_flags(set, w + 2, n - 2))
			return 1;
		*why = xasprintf(_("%s: option set '%s' declared again with "
		    "other options; an earlier line declares it: keep one"),
		    where, w[1]);
		return -1;
	}
	if (strcmp(k, "launcher") == 0 &&
	    (i = index_of(&t->launchers, w[1])) >= 0) {
		if (strcmp(t->launcher_sets.v[i], w[2]) == 0 &&
		    strcmp(t->launcher_subs.v[i], n == 4 ? w[3] : "") == 0)
			return 1;
	} else if (strcmp(k, "module") == 0 &&
	    (i = index_of(&t->modules, w[1])) >= 0) {
		if (strcmp(t->module_sets.v[i], w[2]) == 0)
			return 1;
	} else if (strcmp(k, "entry") == 0 &&
	    (i = index_of(&t->entries, w[1])) >= 0) {
		if (strcmp(t->entry_engines.v[i], w[2]) == 0)
			return 1;
	} else if (strcmp(k, MATCH_KEY_ENTRY_MODULE) == 0 &&
	    (i = index_of(&t->entry_modules, w[1])) >= 0) {
		if (strcmp(t->entry_module_engines.v[i], w[2]) == 0)
			return 1;
	} else
		return 0;
	*why = xasprintf(_("%s: '%s %s' again, other than on an earlier line; "
	    "keep one"), where, k, w[1]);
	return -1;
}

static int
parse_line(struct launchtab *t, char **w, size_t n, const char *path,
    size_t lineno, const char *const engines[], char **why)
{
	const char *k = w[0];

	if (n >= 3 || (n == 2 && strcmp(k, "options") == 0)) {
		char *where = where_of(path, lineno);
		int seen = seen_row(t, w, n, where, why);

		free(where);
		if (seen != 0)
			return seen < 0 ? -1 : 0;
	}
	if (strcmp(k, "options") == 0 && n >= 2) {
		t->sets = xreallocarray(t->sets, t->nsets + 1, sizeof(*t->sets));
		memset(&t->sets[t->nsets], 0, sizeof(*t->sets));
		t->sets[t->nsets].name = xstrdup(w[1]);
		for (size_t i = 2; i < n; i++)
			strv_push(&t->sets[t->nsets].flags, w[i]);
		t->nsets++;
	} else if ((strcmp(k, "launcher") == 0 && (n == 3 || n == 4)) ||
	    (strcmp(k, "module") == 0 && n == 3)) {
		int mod = k[0] == 'm';

		if (bad_name(w[1], 0))
			FAIL(_("%s: '%s' is not a program or module name; "
			    "write it without ',', ';', '=' or '/'"), where, w[1]);
		if (launchtab_set(t, w[2]) == NULL)
			FAIL(_("%s: unknown option set '%s'; declare it first "
			    "with 'options %s FLAG...'"), where, w[2], w[2]);
		strv_push(mod ? &t->modules : &t->launchers, w[1]);
		strv_push(mod ? &t->module_sets : &t->launcher_sets, w[2]);
		if (!mod)
			strv_push(&t->launcher_subs, n == 4 ? w[3] : "");
	} else if ((strcmp(k, "python") == 0 ||
	    strcmp(k, MATCH_KEY_CONSOLE) == 0) && n >= 2) {
		int con = k[0] == 'c';

		for (size_t i = 1; i < n; i++) {
			if (bad_name(w[i], 0))
				FAIL(con ? _("%s: '%s' is not a program name; "
				    "write it without ',', ';', '=' or '/'") :
				    _("%s: '%s' is not an interpreter name; "
				    "write it without ',', ';', '=' or '/'"),
				    where, w[i]);
			strv_push(con ? &t->consoles : &t->pythons, w[i]);
		}
	} else if ((strcmp(k, "entry") == 0 ||
	    strcmp(k, MATCH_KEY_ENTRY_MODULE) == 0) && n == 3) {
		int mod = strcmp(k, "entry") != 0;

		if (bad_name(w[1], !mod))
			FAIL(mod ? _("%s: '%s' is not a module name; write it "
			    "without ',', ';', '=' or '/'") : _("%s: '%s' is not "
			    "a script path; write it without ',', ';' or '='"),
			    where, w[1]);
		if (!known_engine(engines, w[2])) {
			char *names = strv_join((char *const *)engines, ", ");
			char *where = where_of(path, lineno);

			*why = xasprintf(_("%s: unknown engine '%s'; accepted: "
			    "%s, auto"), where, w[2], names);
			free(where);
			free(names);
			return -1;
		}
		strv_push(mod ? &t->entry_modules : &t->entries, w[1]);
		strv_push(mod ? &t->entry_module_engines : &t->entry_engines,
		    w[2]);
	} else
		FAIL(_("%s: cannot read '%s' with %zu word(s); expected "
		    "'options SET FLAG...', 'launcher NAME SET [SUBCOMMAND]', "
		    "'module NAME SET', 'python NAME...', 'entry PATH ENGINE', "
		    "'entry-module NAME ENGINE' or 'console NAME...'"), where,
		    k, n);
	return 0;
}

/*
 * Write ";KEY=item,item" at O (no ';' first at START); the end.  Without
 * AUTOS the items whose SKIP string (parallel, or NULL) is "auto" are
 * left out.
 */
static char *
serialise_key(char *o, const char *start, const char *key,
    const struct strv *items, const struct strv *skip, int autos)
{
	size_t n = 0;

	for (size_t i = 0; i < items->n; i++) {
		if (!autos && skip != NULL &&
		    strcmp(skip->v[i], LAUNCHTAB_AUTO) == 0)
			continue;
		if (n++ == 0) {
			if (o != start)
				*o++ = ';';
			o = stpcpy(stpcpy(o, key), "=");
		} else
			*o++ = ',';
		o = stpcpy(o, items->v[i]);
	}
	return o;
}

/*
 * The table as the shim reads it, in one allocation.  Console scripts are
 * entries of engine "auto": left out with them.
 */
static char *
serialise(const struct launchtab *t, int autos)
{
	const char *keys[] = { MATCH_KEY_LAUNCHER, MATCH_KEY_PYTHON,
	    MATCH_KEY_MODULE, MATCH_KEY_ENTRY, MATCH_KEY_ENTRY_MODULE,
	    MATCH_KEY_CONSOLE };
	const struct strv *items[] = { &t->launchers, &t->pythons,
	    &t->modules, &t->entries, &t->entry_modules, &t->consoles };
	const struct strv *engines[] = { NULL, NULL, NULL, &t->entry_engines,
	    &t->entry_module_engines, NULL };
	size_t len = 1;
	char *out, *o;

	for (size_t k = 0; k < 6; k++) {
		len += strlen(keys[k]) + 2;
		for (size_t i = 0; i < items[k]->n; i++)
			len += 1 + strlen(items[k]->v[i]);
	}
	o = out = xmalloc(len);
	for (size_t k = 0; k < 6; k++) {
		if (k == 5 && !autos)
			break;
		o = serialise_key(o, out, keys[k], items[k], engines[k], autos);
	}
	*o = '\0';
	return out;
}

char *
launchtab_shim_match(const struct launchtab *t, int autos)
{
	return serialise(t, autos);
}

/* What parse_line() needs beside the row, for conf_rows(). */
struct loading {
	struct launchtab	*t;
	const char		*path;
	const char *const	*engines;
	char			**why;
};

static int
load_row(char **words, size_t n, size_t lineno, void *arg)
{
	struct loading *l = arg;

	return parse_line(l->t, words, n, l->path, lineno, l->engines, l->why);
}

int
launchtab_load(struct launchtab *t, const char *path,
    const char *const engines[], char **why)
{
	struct loading l = { t, path, engines, why };
	char *text;
	size_t len;
	int rc;

	memset(t, 0, sizeof(*t));
	if ((text = read_file(path, &len)) == NULL) {
		*why = xasprintf(_("cannot read the launch table %s: %s"), path,
		    read_error(errno));
		return -1;
	}
	t->path = xstrdup(path);
	rc = conf_rows(text, len, path, load_row, &l, why);
	free(text);
	if (rc == 0 && t->launchers.n + t->modules.n == 0) {
		*why = xasprintf(_("%s: no 'launcher' or 'module' line; "
		    "msprof-exec would intercept nothing"), path);
		rc = -1;
	}
	if (rc != 0) {
		launchtab_free(t);	/* the lines read before the bad one */
		return -1;
	}
	t->match = serialise(t, 1);
	return 0;
}

void
launchtab_free(struct launchtab *t)
{
	free(t->path);
	strv_free(&t->launchers);
	strv_free(&t->launcher_sets);
	strv_free(&t->launcher_subs);
	strv_free(&t->modules);
	strv_free(&t->module_sets);
	strv_free(&t->pythons);
	strv_free(&t->entries);
	strv_free(&t->entry_engines);
	strv_free(&t->entry_modules);
	strv_free(&t->entry_module_engines);
	strv_free(&t->consoles);
	for (size_t i = 0; i < t->nsets; i++) {
		free(t->sets[i].name);
		strv_free(&t->sets[i].flags);
	}
	free(t->sets);
	free(t->match);
	memset(t, 0, sizeof(*t));
}
