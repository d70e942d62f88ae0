/* Read config/launchers.conf and serialise it for the shim. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "shim/contract.h"
#include "shim/match.h"
#include "launchtab.h"

const struct optset *
launchtab_set(const struct launchtab *t, const char *set)
{
	for (size_t i = 0; i < t->nsets; i++)
		if (strcmp(t->sets[i].name, set) == 0)
			return &t->sets[i];
	return NULL;
}

enum engine
launchtab_engine(const struct launchtab *t, const char *script)
{
	int i = table_find(t->match, MATCH_KEY_ENTRY, script);

	return i < 0 ? ENGINE_NONE : t->engines[i];
}

/* Split a line into words in place; returns the count. */
static size_t
split(char *line, char **words, size_t max)
{
	size_t n = 0;
	char *save = NULL, *w;

	for (w = strtok_r(line, " \t\r", &save); w != NULL && n < max;
	    w = strtok_r(NULL, " \t\r", &save))
		words[n++] = w;
	return n;
}

/* A name the shim can match: no separator of its own syntax in it. */
static int
bad_name(const char *w, int slash_ok)
{
	return w[strcspn(w, slash_ok ? ",;=" : ",;=/")] != '\0';
}

#define FAIL(...) do { *why = xasprintf(__VA_ARGS__); return -1; } while (0)

static int
parse_line(struct launchtab *t, char **w, size_t n, const char *where,
    char **why)
{
	const char *k = w[0];

	if (strcmp(k, "options") == 0 && n >= 2) {
		t->sets = reallocarray(t->sets, t->nsets + 1, sizeof(*t->sets));
		if (t->sets == NULL)
			abort();
		memset(&t->sets[t->nsets], 0, sizeof(*t->sets));
		t->sets[t->nsets].name = xstrdup(w[1]);
		for (size_t i = 2; i < n; i++)
			strv_push(&t->sets[t->nsets].flags, w[i]);
		t->nsets++;
	} else if ((strcmp(k, "launcher") == 0 || strcmp(k, "module") == 0) &&
	    n == 3) {
		int mod = k[0] == 'm';

		if (bad_name(w[1], 0))
			FAIL(_("%s: '%s' is not a program or module name; "
			    "write it without ',', ';', '=' or '/'"), where, w[1]);
		if (launchtab_set(t, w[2]) == NULL)
			FAIL(_("%s: unknown option set '%s'; declare it first "
			    "with 'options %s FLAG...'"), where, w[2], w[2]);
		strv_push(mod ? &t->modules : &t->launchers, w[1]);
		strv_push(mod ? &t->module_sets : &t->launcher_sets, w[2]);
	} else if (strcmp(k, "python") == 0 && n >= 2) {
		for (size_t i = 1; i < n; i++) {
			if (bad_name(w[i], 0))
				FAIL(_("%s: '%s' is not an interpreter name; "
				    "write it without ',', ';', '=' or '/'"),
				    where, w[i]);
			strv_push(&t->pythons, w[i]);
		}
	} else if (strcmp(k, "entry") == 0 && n == 3) {
		enum engine e = engine_parse(w[2]);

		if (bad_name(w[1], 1))
			FAIL(_("%s: '%s' is not a script path; write it without "
			    "',', ';' or '='"), where, w[1]);
		if (e == ENGINE_NONE) {
			char *names = engine_names(", ");

			*why = xasprintf(_("%s: unknown engine '%s'; accepted: "
			    "%s"), where, w[2], names);
			free(names);
			return -1;
		}
		strv_push(&t->entries, w[1]);
		t->engines = reallocarray(t->engines, t->entries.n,
		    sizeof(*t->engines));
		if (t->engines == NULL)
			abort();
		t->engines[t->entries.n - 1] = e;
	} else
		FAIL(_("%s: cannot read '%s' with %zu word(s); expected "
		    "'options SET FLAG...', 'launcher NAME SET', 'module NAME "
		    "SET', 'python NAME...' or 'entry PATH ENGINE'"), where, k, n);
	return 0;
}

/* Append ";KEY=item,item" to *OUT (see contract.h). */
static void
serialise_key(char **out, const char *key, const struct strv *items)
{
	char *s;

	for (size_t i = 0; i < items->n; i++) {
		if (i > 0)
			s = xasprintf("%s,%s", *out, items->v[i]);
		else
			s = xasprintf("%s%s%s=%s", *out, **out ? ";" : "", key,
			    items->v[i]);
		free(*out);
		*out = s;
	}
}

int
launchtab_load(struct launchtab *t, const char *path, char **why)
{
	char *text, *line, *save = NULL, *words[256], *where;
	size_t n, lineno = 0;
	int rc = 0;

	memset(t, 0, sizeof(*t));
	if ((text = read_file(path, NULL)) == NULL) {
		*why = xasprintf(_("cannot read the launch table %s: %s"), path,
		    i18n_strerror(errno));
		return -1;
	}
	t->path = xstrdup(path);
	for (line = text; line != NULL && rc == 0; line = save) {
		save = strchr(line, '\n');
		if (save != NULL)
			*save++ = '\0';
		lineno++;
		line[strcspn(line, "#")] = '\0';
		if ((n = split(line, words, 256)) == 0)
			continue;
		where = xasprintf("%s:%zu", path, lineno);
		rc = parse_line(t, words, n, where, why);
		free(where);
	}
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
	t->match = xstrdup("");
	serialise_key(&t->match, MATCH_KEY_LAUNCHER, &t->launchers);
	serialise_key(&t->match, MATCH_KEY_PYTHON, &t->pythons);
	serialise_key(&t->match, MATCH_KEY_MODULE, &t->modules);
	serialise_key(&t->match, MATCH_KEY_ENTRY, &t->entries);
	return 0;
}

void
launchtab_free(struct launchtab *t)
{
	free(t->path);
	strv_free(&t->launchers);
	strv_free(&t->launcher_sets);
	strv_free(&t->modules);
	strv_free(&t->module_sets);
	strv_free(&t->pythons);
	strv_free(&t->entries);
	free(t->engines);
	for (size_t i = 0; i < t->nsets; i++) {
		free(t->sets[i].name);
		strv_free(&t->sets[i].flags);
	}
	free(t->sets);
	free(t->match);
	memset(t, 0, sizeof(*t));
}
