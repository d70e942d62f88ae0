/*
 * The settings table against the upstream facts kept in the tree
 * (t/data/upstream-settings.tsv: for each setting the parser's file and
 * line at a commit, its default, the value the advice wants, what it
 * needs and what it is refused with, as read in that code).  A row that
 * drifts from them fails here: another name or kind, another source,
 * default or value, a need or a conflict more or less; a setting the
 * facts say does nothing on the path the launch takes may not be a row,
 * and one that acts only as another's prerequisite may not be offered
 * by any rule.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "advice/rules.h"
#include "common/settings.h"

#define FACTS	"t/data/upstream-settings.tsv"

enum { F_NAME, F_ROW, F_KIND, F_SOURCE, F_DEFAULT, F_VALUE, F_NEEDS,
	F_CONFLICTS, F_EFFECT, F_VERIFIED, NFIELDS };

struct fact {
	char	*f[NFIELDS];
	int	 line;
};

static struct fact facts[128];
static size_t nfacts;

/* Split LINE at its tabs into FA; 0 when it has not NFIELDS fields. */
static int
split(char *line, struct fact *fa)
{
	size_t i = 0;
	char *p = line;

	for (;;) {
		if (i == NFIELDS)
			return 0;
		fa->f[i++] = p;
		if ((p = strchr(p, '\t')) == NULL)
			break;
		*p++ = '\0';
	}
	return i == NFIELDS;
}

static int
load(void)
{
	FILE *fp = fopen(FACTS, "r");
	char buf[2048];
	int n = 0, bad = 0;

	if (fp == NULL)
		return -1;
	while (fgets(buf, sizeof(buf), fp) != NULL) {
		n++;
		buf[strcspn(buf, "\n")] = '\0';
		if (buf[0] == '#' || buf[0] == '\0')
			continue;
		if (nfacts == sizeof(facts) / sizeof(facts[0]) ||
		    !split(strdup(buf), &facts[nfacts])) {
			printf("# %s:%d: not %d tab-separated fields\n", FACTS, n,
			    NFIELDS);
			bad++;
			continue;
		}
		facts[nfacts++].line = n;
	}
	fclose(fp);
	return bad;
}

static const struct fact *
fact_named(const char *name)
{
	for (size_t i = 0; i < nfacts; i++)
		if (strcmp(facts[i].f[F_NAME], name) == 0)
			return &facts[i];
	return NULL;
}

static const char *
kind_word(enum setting_kind k)
{
	static const char *const w[] = { [SET_FLAG] = "flag",
	    [SET_ENV] = "env", [SET_YAML] = "yaml", [SET_CODE] = "code" };

	return w[k];
}

/* The row's test and value as the facts write it. */
static void
value_form(const struct setting *set, char *buf, size_t n)
{
	const char *v = set->value != NULL ? set->value : "";

	switch (set->test) {
	case TEST_PRESENT:
		snprintf(buf, n, "present");
		break;
	case TEST_EQUALS:
		snprintf(buf, n, "=%s", v);
		break;
	case TEST_AT_LEAST:
		snprintf(buf, n, ">=%s", v);
		break;
	case TEST_CONTAINS:
		snprintf(buf, n, "item:%s", v);
		break;
	default:
		snprintf(buf, n, "show");
		break;
	}
}

/* A list of names as the facts write it: "AT:A,B", "A,B" or "-". */
static void
list_form(const struct setting *const *list, const char *at, char *buf,
    size_t n)
{
	size_t used = 0;

	buf[0] = '\0';
	if (list == NULL || list[0] == NULL) {
		snprintf(buf, n, "-");
		return;
	}
	if (at != NULL)
		used += snprintf(buf, n, "%s:", at);
	for (size_t i = 0; list[i] != NULL && used < n; i++)
		used += snprintf(buf + used, n - used, "%s%s",
		    i > 0 ? "," : "", list[i]->name);
}

/*
 * List L as "AT:" (*AT, "" none) and its names, split in place into
 * NAMES (at most MAX); their count.
 */
static size_t
names_of(char *l, const char **at, char **names, size_t max)
{
	char *colon = strchr(l, ':'), *save = NULL, *t;
	size_t n = 0;

	*at = "";
	if (strcmp(l, "-") == 0)
		return 0;
	/* "full:--recompute-method": a value, not a name, before ':' */
	if (colon != NULL && l[0] != '-' && memchr(l, ',', colon - l) == NULL) {
		*colon = '\0';
		*at = l;
		l = colon + 1;
	}
	for (t = strtok_r(l, ",", &save); t != NULL && n < max;
	    t = strtok_r(NULL, ",", &save))
		names[n++] = t;
	return n;
}

/* The same "AT:" and the same names in A and B, whatever their order? */
static int
same_list(const char *a, const char *b)
{
	char *ca = strdup(a), *cb = strdup(b), *na[16], *nb[16];
	const char *ata, *atb;
	size_t i, k, n = names_of(ca, &ata, na, 16), m = names_of(cb, &atb,
	    nb, 16);
	int same = n == m && strcmp(ata, atb) == 0;

	for (i = 0; i < n && same; i++) {
		for (k = 0; k < m && strcmp(na[i], nb[k]) != 0; k++)
			;
		same = k < m;
	}
	free(ca);
	free(cb);
	return same;
}

/* Each row against its facts. */
static void
rows(void)
{
	const struct setting *set;
	const struct fact *fa;
	char got[512];
	size_t i;

	for (i = 0; (set = setting_nth(i)) != NULL; i++) {
		if ((fa = fact_named(set->name)) == NULL ||
		    strcmp(fa->f[F_ROW], "yes") != 0) {
			ok(0, "%s: a row the facts have as a row", set->name);
			continue;
		}
		is_str(kind_word(set->kind), fa->f[F_KIND], "%s: kind",
		    set->name);
		is_str(set->source, fa->f[F_SOURCE], "%s: its parser",
		    set->name);
		is_str(set->dflt != NULL ? set->dflt : "-", fa->f[F_DEFAULT],
		    "%s: default", set->name);
		value_form(set, got, sizeof(got));
		is_str(got, fa->f[F_VALUE], "%s: the value advised", set->name);
		list_form(set->needs, set->needs_at, got, sizeof(got));
		ok(same_list(got, fa->f[F_NEEDS]), "%s: needs %s (facts: %s)",
		    set->name, got, fa->f[F_NEEDS]);
		list_form(set->conflicts, set->conflicts_at, got, sizeof(got));
		ok(same_list(got, fa->f[F_CONFLICTS]),
		    "%s: conflicts %s (facts: %s)", set->name, got,
		    fa->f[F_CONFLICTS]);
	}
}

/* Does any rule of any family offer SET? */
static const char *
offered_by(const struct setting *set)
{
	static const struct family *const fams[] = { &family_steps,
	    &family_operators, &family_communication, &family_memory,
	    &family_environment, NULL };

	for (size_t i = 0; fams[i] != NULL; i++)
		for (size_t r = 0; r < fams[i]->n; r++) {
			const struct setting *const *s =
			    fams[i]->rules[r].settings;

			for (; s != NULL && *s != NULL; s++)
				if (*s == set)
					return fams[i]->rules[r].id;
		}
	return NULL;
}

/* The facts' side: rows that must not be, rows no rule may offer. */
static void
facts_side(void)
{
	size_t i, rowsn = 0, n;
	const struct setting *set;
	const char *by;

	for (i = 0; i < nfacts; i++) {
		const struct fact *fa = &facts[i];

		set = setting_named(fa->f[F_NAME]);
		for (size_t k = 0; k < i; k++)
			if (strcmp(facts[k].f[F_NAME], fa->f[F_NAME]) == 0)
				ok(0, "%s:%d: %s twice", FACTS, fa->line,
				    fa->f[F_NAME]);
		if (strcmp(fa->f[F_ROW], "no") == 0) {
			ok(set == NULL, "%s: no row (%s)", fa->f[F_NAME],
			    fa->f[F_EFFECT]);
			continue;
		}
		rowsn++;
		if (strncmp(fa->f[F_EFFECT], "none", 4) == 0) {
			by = set != NULL ? offered_by(set) : NULL;
			ok(by == NULL, "%s does nothing alone: no rule offers "
			    "it%s%s", fa->f[F_NAME], by != NULL ? ", but " : "",
			    by != NULL ? by : "");
		}
	}
	for (n = 0; setting_nth(n) != NULL; n++)
		;
	is_int(rowsn, n, "every row of the facts is a row of the table");
}

int
main(void)
{
	int bad = load();

	ok(bad == 0 && nfacts > 40, FACTS ": %zu settings, well formed",
	    nfacts);
	rows();
	facts_side();
	return done_testing();
}
