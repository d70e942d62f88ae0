/*
 * What the report's text and page both say of a finding: its ranks, the
 * settings it names and the launch's state of each.
 */
#include <stdlib.h>

#include "common/ranks.h"
#include "advice/advice.h"
#include "summary/model.h"
#include "findings.h"

#define MAX_RANK_ITEMS	6	/* ranges of ranks on one line */
#define MAX_UNKNOWN	2	/* rank directories of no rank named */

char *
finding_ranks(const struct summary *s, const struct finding *f)
{
	int *ranks = xcalloc(f->nwho + 1, sizeof(*ranks));
	size_t i, n = 0, unknown = 0;
	char lab[LABEL_MAX], *list, *out;

	for (i = 0; i < f->nwho; i++)
		if (s->r[f->who[i]].rank >= 0)
			ranks[n++] = s->r[f->who[i]].rank;
	list = ranks_text(ranks, n, MAX_RANK_ITEMS);
	out = *list == '\0' ? xstrdup("") : xasprintf(ranks_count(ranks, n) ==
	    1 ? _("rank %s") : _("ranks %s"), list);
	free(list);
	free(ranks);
	for (i = 0; i < f->nwho; i++) {
		const struct rank_data *r = &s->r[f->who[i]];

		if (r->rank >= 0 || unknown++ >= MAX_UNKNOWN)
			continue;
		list = xasprintf("%s%s%s", out, *out ? ", " : "",
		    rank_label(r, lab, sizeof(lab)));
		free(out);
		out = list;
	}
	if (unknown > MAX_UNKNOWN) {
		list = xasprintf(_("%s and %zu more of unknown rank"), out,
		    unknown - MAX_UNKNOWN);
		free(out);
		out = list;
	}
	return out;
}

char *
setting_label(const struct setting *set)
{
	return xasprintf("%s%s", set->name, set->want);
}

char *
state_text(const struct finding_setting *fs)
{
	const char *d = fs->detail;

	switch (fs->state) {
	case STATE_ON:
		return d ? xasprintf(_("already on (%s)"), d) :
		    xstrdup(_("already on"));
	case STATE_OFF:
		return d ? xasprintf(_("not set (%s)"), d) :
		    xstrdup(_("not set"));
	case STATE_VALUE:
		return xasprintf(_("now %s"), d ? d : "");
	case STATE_MIXED:
		return xstrdup(_("set in some launches only"));
	default:
		return d ? xasprintf(_("not known (%s)"), d) :
		    xstrdup(_("not known"));
	}
}
