/*
 * The device's idle time and its causes: what each rank's host was doing
 * while the device waited in the profiled steps, read from the timeline
 * (trace_view.json, or the db export's PYTORCH_API, CANN_API and TASK;
 * timeline.h).  Each cause has its host time and the device's idle time
 * under it, as a share of the step, on the rank where it is largest and
 * over all ranks; a synchronisation has the user's call sites that made
 * it, from the call stacks (with_stack).  The ranks are read on the
 * workers (prepare).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "model.h"
#include "timeline.h"

#define IDLE_FRAMES	5	/* call sites printed */

static const char *const cause_name[TL_NCAUSE] = {
	N_("synchronisation"), N_("operator compilation"),
	N_("garbage collector"), N_("data loader"), N_("graph launch"),
};

struct idle_rank {
	struct tl_result *r;
	char		*why;
	const char	*source;
};

struct idle {
	size_t	 made;
};

static void
idle_rank_free(void *p)
{
	struct idle_rank *x = p;

	tl_result_free(x->r);
	free(x->why);
	free(x);
}

static const struct idle_rank *
idle_rank_of(const struct rank_data *rd)
{
	static const struct idle_rank none;
	const struct idle_rank *x = rank_own(rd, &kind_idle);

	return x != NULL ? x : &none;
}

const struct tl_result *
idle_of(const struct summary *s, size_t i)
{
	if (summary_state(s, &kind_idle) == NULL)
		return NULL;
	return idle_rank_of(&s->r[i])->r;
}

static void *
idle_init(struct summary *s)
{
	return xcalloc(1, sizeof(struct idle));
}

static void
read_text(struct rank_data *rd, struct idle_rank *x, const char *path)
{
	struct timeline *t = tl_new();
	const char *reason;
	char *why;

	x->source = "trace_view.json";
	if (trace_view_read(path, t, &why, &reason) < 0) {
		tl_abort(t);
		rank_left_out(rd, path, reason, why);
		x->why = why;
		return;
	}
	if ((x->r = tl_finish(t)) == NULL)
		x->why = xasprintf(_("%s: no ProfilerStep in the timeline"),
		    path);
}

static void
read_db(struct idle_rank *x, struct db *db)
{
	struct timeline *t = tl_new();
	char *why;

	x->source = "PYTORCH_API, CANN_API, TASK";
	if (timeline_db_read(db, t, &why) < 0) {
		tl_abort(t);
		x->why = why;
		return;
	}
	if ((x->r = tl_finish(t)) == NULL)
		x->why = xasprintf(_("%s: no ProfilerStep in the timeline"),
		    db_path(db));
}

static void
idle_prepare(const struct summary *s, struct rank_data *rd,
    struct rank_files *rf)
{
	struct idle_rank *x = xcalloc(1, sizeof(*x));
	char *p = rank_file(rf, "trace_view.json");
	struct db *db;

	rank_own_set(rd, &kind_idle, x, idle_rank_free);
	if (p != NULL)
		read_text(rd, x, p);
	else if ((db = rank_profiler_db(rf)) != NULL)
		read_db(x, db);
	free(p);
}

static void
idle_rank(struct summary *s, void *state, struct rank_data *rd,
    struct rank_files *rf)
{
	struct idle *m = state;

	m->made += idle_rank_of(rd)->r != NULL;
}

static char *
idle_finish(struct summary *s, void *state)
{
	struct idle *m = state;
	size_t i;

	if (m->made > 0)
		return NULL;
	for (i = 0; i < s->nr; i++)
		if (idle_rank_of(&s->r[i])->why != NULL)
			return xasprintf(_("no rank has a timeline with steps "
			    "(%s: %s)"), s->r[i].name,
			    idle_rank_of(&s->r[i])->why);
	return xstrdup(_("no trace_view.json nor ascend_pytorch_profiler "
	    "db: no timeline"));
}

double
idle_share(const struct tl_result *r, double us)
{
	return r != NULL && r->step_us > 0 ? us / r->step_us : NAN;
}

/*
 * The rank whose host spends the largest share of its step in cause C,
 * and the share over all ranks (their host time over their step time).
 */
size_t
idle_most(const struct summary *s, int c, double *most, double *all)
{
	double host = 0, step = 0;
	size_t i, at = 0;

	*most = NAN;
	for (i = 0; i < s->nr; i++) {
		const struct tl_result *r = idle_of(s, i);

		if (r == NULL)
			continue;
		host += r->host_us[c];
		step += r->step_us;
		if (isnan(*most) || idle_share(r, r->host_us[c]) > *most) {
			*most = idle_share(r, r->host_us[c]);
			at = i;
		}
	}
	*all = step > 0 ? host / step : NAN;
	return at;
}

static void
print_frames(const struct tl_result *r, struct out *o)
{
	const struct tl_frame *f = r->frames;
	size_t i;

	for (i = 0; i < r->nframes && i < IDLE_FRAMES; i++)
		fprintf(o->fp, _("      %s: %.1f ms (%.1f %% of the step), %zu "
		    "calls%s\n"), f[i].where, f[i].host_us / 1e3,
		    100 * idle_share(r, f[i].host_us), f[i].n, f[i].formats ?
		    _(", formats a tensor") : f[i].to_host ?
		    _(", copies to the host") : "");
}

static void
idle_print(const struct summary *s, const void *state, struct out *o)
{
	const struct idle *m = state;
	char lab[LABEL_MAX];
	size_t i, at, stacks = 0;
	double most, all;
	int c;

	for (i = 0; i < s->nr; i++) {
		const struct tl_result *r = idle_of(s, i);

		if (r == NULL)
			continue;
		stacks += r->stacks;
		fprintf(o->fp, _("  %s (%s): %zu steps, %.1f ms; device idle "
		    "%.1f ms (%.1f %%)%s\n"), rank_label(&s->r[i], lab,
		    sizeof(lab)), idle_rank_of(&s->r[i])->source, r->nsteps,
		    r->step_us / 1e3, r->idle_us / 1e3,
		    100 * idle_share(r, r->idle_us),
		    r->approx ? _(", approximate: more events than kept") : "");
	}
	fprintf(o->fp, _("  %-22s %28s %18s %16s\n"), _("host doing"),
	    _("share of the step (most)"), _("all ranks"),
	    _("device idle"));
	for (c = 0; c < TL_NCAUSE; c++) {
		const struct tl_result *r;

		at = idle_most(s, c, &most, &all);
		if (!(most > 0))
			continue;
		r = idle_of(s, at);
		fprintf(o->fp, "  %-22s %8.1f ms %5.1f %% %-10s %9.1f %% "
		    "%9.1f ms\n", _(cause_name[c]), r->host_us[c] / 1e3,
		    100 * most, rank_label(&s->r[at], lab, sizeof(lab)),
		    100 * all, r->idle_by[c] / 1e3);
		if (c == TL_SYNC && r->nframes > 0) {
			fprintf(o->fp, _("    from the user's code (%s):\n"),
			    rank_label(&s->r[at], lab, sizeof(lab)));
			print_frames(r, o);
		}
	}
	for (i = 0; i < s->nr; i++) {
		const struct tl_result *r = idle_of(s, i);

		if (r == NULL || (r->short_us <= 0 && r->gc_gap_us <= 0))
			continue;
		fprintf(o->fp, _("  %s: idle with no cause: %.1f ms in %zu "
		    "gaps below %.0f us (launching), %.1f ms in %zu long "
		    "gaps without host events\n"), rank_label(&s->r[i], lab,
		    sizeof(lab)), r->short_us / 1e3, r->nshort,
		    TL_SHORT_GAP_NS / 1e3, r->gc_gap_us / 1e3, r->ngc_gap);
	}
	if (m->made > 0 && stacks == 0)
		fputs(_("  no call stacks in the timeline: msprof-exec --with "
		    "stack collects them, to name the lines\n"), o->fp);
}

static cJSON *
rank_json(const struct rank_data *rd, const struct idle_rank *x)
{
	const struct tl_result *r = x->r;
	cJSON *j = cJSON_CreateObject(), *c, *a;
	size_t i;
	int k;

	json_rank(j, "rank", rd->rank);
	if (r == NULL) {
		cJSON_AddStringToObject(j, "why", x->why != NULL ? x->why :
		    "no timeline");
		return j;
	}
	cJSON_AddStringToObject(j, "source", x->source);
	cJSON_AddNumberToObject(j, "steps", (double)r->nsteps);
	cJSON_AddNumberToObject(j, "step_ms", r->step_us / 1e3);
	cJSON_AddNumberToObject(j, "idle_ms", r->idle_us / 1e3);
	cJSON_AddNumberToObject(j, "explained_ms", r->explained_us / 1e3);
	cJSON_AddNumberToObject(j, "launch_gaps_ms", r->short_us / 1e3);
	cJSON_AddNumberToObject(j, "gc_gaps_ms", r->gc_gap_us / 1e3);
	cJSON_AddNumberToObject(j, "device_tasks", (double)r->ntasks);
	cJSON_AddBoolToObject(j, "stacks", r->stacks);
	cJSON_AddBoolToObject(j, "approximate", r->approx);
	c = cJSON_AddObjectToObject(j, "host");
	for (k = 0; k < TL_NCAUSE; k++) {
		cJSON *o = cJSON_AddObjectToObject(c, tl_cause_key[k]);

		cJSON_AddNumberToObject(o, "host_ms", r->host_us[k] / 1e3);
		cJSON_AddNumberToObject(o, "idle_ms", r->idle_by[k] / 1e3);
		cJSON_AddNumberToObject(o, "events", (double)r->count[k]);
		json_num(o, "share", idle_share(r, r->host_us[k]));
	}
	a = cJSON_AddArrayToObject(j, "sync_sites");
	for (i = 0; i < r->nframes; i++) {
		const struct tl_frame *f = &r->frames[i];
		cJSON *o = cJSON_CreateObject();

		cJSON_AddStringToObject(o, "where", f->where);
		cJSON_AddStringToObject(o, "path", f->path);
		cJSON_AddNumberToObject(o, "host_ms", f->host_us / 1e3);
		cJSON_AddNumberToObject(o, "idle_ms", f->idle_us / 1e3);
		cJSON_AddNumberToObject(o, "calls", (double)f->n);
		cJSON_AddBoolToObject(o, "formats_tensor", f->formats);
		cJSON_AddBoolToObject(o, "to_host", f->to_host);
		cJSON_AddItemToArray(a, o);
	}
	return j;
}

static cJSON *
idle_json(const struct summary *s, const void *state)
{
	cJSON *j = cJSON_CreateObject(), *a, *b;
	double most, all;
	size_t i, at;
	int c;

	a = cJSON_AddArrayToObject(j, "ranks");
	for (i = 0; i < s->nr; i++)
		cJSON_AddItemToArray(a, rank_json(&s->r[i],
		    idle_rank_of(&s->r[i])));
	b = cJSON_AddObjectToObject(j, "by_cause");
	for (c = 0; c < TL_NCAUSE; c++) {
		cJSON *o = cJSON_AddObjectToObject(b, tl_cause_key[c]);

		at = idle_most(s, c, &most, &all);
		json_num(o, "share_most", most);
		if (isnan(most))
			cJSON_AddNullToObject(o, "rank_most");
		else
			json_rank(o, "rank_most", s->r[at].rank);
		json_num(o, "share_all", all);
	}
	return j;
}

static void
idle_html(const struct summary *s, const void *state, FILE *fp)
{
	double most, all;
	size_t at, i;
	int c;

	fputs("<table><tr><th>host doing</th><th>share of the step "
	    "(most)</th><th>rank</th><th>all ranks</th></tr>\n", fp);
	for (c = 0; c < TL_NCAUSE; c++) {
		at = idle_most(s, c, &most, &all);
		if (!(most > 0))
			continue;
		fputs("<tr><td>", fp);
		html_text(fp, cause_name[c]);
		fprintf(fp, "</td><td>%.1f %%</td>", 100 * most);
		html_rank(fp, &s->r[at]);
		fprintf(fp, "<td>%.1f %%</td></tr>\n", 100 * all);
	}
	fputs("</table>\n", fp);
	at = idle_most(s, TL_SYNC, &most, &all);
	if (!(most > 0) || idle_of(s, at)->nframes == 0)
		return;
	fputs("<p>Synchronised from the user's code:</p>\n<ul>\n", fp);
	for (i = 0; i < idle_of(s, at)->nframes && i < IDLE_FRAMES; i++) {
		const struct tl_frame *f = &idle_of(s, at)->frames[i];

		fputs("<li><code>", fp);
		html_text(fp, f->where);
		fprintf(fp, "</code>: %.1f ms</li>\n", f->host_us / 1e3);
	}
	fputs("</ul>\n", fp);
}

static void
idle_free(void *state)
{
	free(state);
}

const struct kind kind_idle = {
	"idle", N_("Device idle and what the host did (timeline)"),
	idle_init, idle_prepare, idle_rank, idle_finish, idle_print,
	idle_json, idle_html, idle_free,
};
