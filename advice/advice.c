/*
 * The advice engine: every rule of every family over the summary, then
 * for each finding the state of each setting that addresses it in the
 * profiled launch; and the findings as text, JSON and HTML.  It is the
 * summary's last row (kind_findings), run when the others are finished.
 * What a rule looks at and when it fires is the rule's (rules.h, one file
 * a family).
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "common/ranks.h"
#include "advice.h"
#include "rules.h"

/* The families, in the order their findings are printed. */
static const struct family *const families[] = {
	&family_steps, &family_operators, &family_communication,
	&family_memory, &family_environment,
};
#define NFAMILIES	(sizeof(families) / sizeof(families[0]))
#define MAX_RANK_ITEMS	6	/* ranges of ranks on one line */
#define MAX_UNKNOWN	2	/* rank directories of no rank named */

void
advice_env_names(struct strv *out)
{
	const struct setting *const *set;
	size_t f, r;

	for (f = 0; f < NFAMILIES; f++)
		for (r = 0; r < families[f]->n; r++)
			for (set = families[f]->rules[r].settings;
			    set != NULL && *set != NULL; set++)
				if ((*set)->kind == SET_ENV &&
				    !strv_has(out, (*set)->name))
					strv_push(out, (*set)->name);
}

size_t
advice_nfindings(const struct summary *s)
{
	const struct findings *fs = summary_state(s, &kind_findings);

	return fs != NULL ? fs->n : 0;
}

const char *
advice_finding(const struct summary *s, size_t i, const char **text)
{
	const struct findings *fs = summary_state(s, &kind_findings);

	if (fs == NULL || i >= fs->n)
		return NULL;
	if (text != NULL)
		*text = fs->f[i].text;
	return fs->f[i].rule->id;
}

static const char *
family_of(const struct rule *rule)
{
	size_t f;

	for (f = 0; f < NFAMILIES; f++)
		if (rule >= families[f]->rules &&
		    rule < families[f]->rules + families[f]->n)
			return families[f]->name;
	return "";
}

struct finding *
finding_new(struct advice *a, const struct rule *rule)
{
	struct findings *fs = a->found;
	struct finding *f;

	fs->f = xreallocarray(fs->f, fs->n + 1, sizeof(*fs->f));
	f = &fs->f[fs->n++];
	memset(f, 0, sizeof(*f));
	f->rule = rule;
	return f;
}

void
finding_who(struct finding *f, size_t who)
{
	f->who = xreallocarray(f->who, f->nwho + 1, sizeof(*f->who));
	f->who[f->nwho++] = who;
}

struct finding *
finding_over(struct advice *a, const struct rule *rule,
    double (*share)(const struct rule *, const struct summary *, size_t),
    int above, double *most, size_t *at)
{
	struct finding *f = NULL;
	double v;

	*most = 0;
	*at = 0;
	for (size_t i = 0; i < a->s->nr; i++) {
		v = share(rule, a->s, i);
		if (above ? !(v > rule->threshold) : !(v >= rule->threshold))
			continue;
		if (f == NULL)
			f = finding_new(a, rule);
		finding_who(f, i);
		if (v > *most) {
			*most = v;
			*at = i;
		}
	}
	return f;
}

void
finding_text(struct finding *f, const char *fmt, ...)
{
	va_list ap;

	free(f->text);
	va_start(ap, fmt);
	if (vasprintf(&f->text, fmt, ap) < 0)
		f->text = NULL;
	va_end(ap);
	if (f->text == NULL)
		f->text = xstrdup("");
}

void
finding_note(struct finding *f, const char *fmt, ...)
{
	va_list ap;

	free(f->note);
	va_start(ap, fmt);
	if (vasprintf(&f->note, fmt, ap) < 0)
		f->note = NULL;
	va_end(ap);
}

void
finding_figure(struct finding *f, const char *key, double v)
{
	if (f->nfig < FINDING_FIGURES && isfinite(v)) {
		f->fig[f->nfig].key = key;
		f->fig[f->nfig++].value = v;
	}
}

/* The ranks of F as people read them: "ranks 0-7", "rank 3". */
static char *
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

/* Is SET for this job's layout (an MoE setting where experts are split)? */
static int
for_layout(const struct advice *a, const struct setting *set)
{
	if (!a->lay.known)
		return 1;
	if ((set->when & WHEN_MOE) && a->lay.ep <= 1)
		return 0;
	if ((set->when & WHEN_CP) && a->lay.cp <= 1)
		return 0;
	return 1;
}

/* Is SET for the job's framework (all of them when it is not known)? */
static int
for_framework(const struct advice *a, const struct setting *set)
{
	switch (set->scope) {
	case SCOPE_MEGATRON:
		return a->fw == FW_UNKNOWN || a->fw == FW_MEGATRON;
	case SCOPE_MM_FSDP2:
		return a->fw == FW_UNKNOWN || a->fw == FW_MM_FSDP2;
	case SCOPE_DDP:
		return a->fw == FW_UNKNOWN || a->fw == FW_TORCH ||
		    a->fw == FW_DDP;
	case SCOPE_DEEPSPEED:
		return a->fw == FW_UNKNOWN || a->fw == FW_TORCH ||
		    a->fw == FW_SHARDED;
	default:
		return 1;
	}
}

/* Are the settings shown by framework: does the data not say which? */
static int
grouped(enum framework fw)
{
	return fw == FW_UNKNOWN || fw == FW_TORCH;
}

/* Each setting of F's rule that applies, with the launch's state of it. */
static void
settings_of(const struct advice *a, struct finding *f)
{
	const struct setting *const *set;
	struct finding_setting *fs;
	enum setting_state st;
	char *detail;
	int applies;

	for (set = f->rule->settings; set != NULL && *set != NULL; set++) {
		if (!for_layout(a, *set) || !for_framework(a, *set))
			continue;
		st = setting_state(a->s, *set, &detail, &applies);
		if (!applies) {
			free(detail);
			continue;
		}
		f->set = xreallocarray(f->set, f->nset + 1, sizeof(*f->set));
		fs = &f->set[f->nset++];
		fs->setting = *set;
		fs->state = st;
		fs->detail = detail;
	}
}

static void *
findings_init(struct summary *s)
{
	return xcalloc(1, sizeof(struct findings));
}

/* Every rule over S, whose other summaries are finished. */
static char *
findings_finish(struct summary *s, void *state)
{
	struct advice a = { .s = s, .found = state };
	size_t f, r;

	summary_layout(s, &a.lay);
	a.fw = job_framework(s, &a.lay);
	((struct findings *)state)->fw = a.fw;
	for (f = 0; f < NFAMILIES; f++)
		for (r = 0; r < families[f]->n; r++)
			families[f]->rules[r].check(&families[f]->rules[r], &a);
	for (f = 0; f < a.found->n; f++)
		settings_of(&a, &a.found->f[f]);
	return NULL;
}

/* "already on", "not set (1 by default)", ... */
static char *
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

static const char *
state_key(enum setting_state st)
{
	static const char *const keys[] = {
		[STATE_UNKNOWN] = "not known", [STATE_ON] = "on",
		[STATE_OFF] = "not set", [STATE_VALUE] = "value",
		[STATE_MIXED] = "mixed",
	};

	return keys[st];
}

static char *
setting_label(const struct setting *set)
{
	return xasprintf("%s%s", set->name, set->want);
}

/* The framework a scope's settings belong to, as people name it. */
static const char *
scope_label(enum setting_scope sc)
{
	switch (sc) {
	case SCOPE_MEGATRON:
		return _("Megatron (MindSpeed-LLM, MindSpeed-MM)");
	case SCOPE_MM_FSDP2:
		return _("MindSpeed-MM FSDP2");
	case SCOPE_DDP:
		return _("torch DistributedDataParallel");
	case SCOPE_DEEPSPEED:
		return _("DeepSpeed ZeRO");
	default:
		return _("any framework");
	}
}

/*
 * The settings of F whose state is not known, one line for each scope
 * (one line for all when the framework is known), then the same reason
 * for them all, as a rule (no session).  Lines of the code are said as
 * such: no launch record has them.
 */
static void
print_unknown(const struct finding *f, enum framework fw, FILE *fp)
{
	static const enum setting_scope scopes[] = { SCOPE_ANY,
	    SCOPE_MEGATRON, SCOPE_MM_FSDP2, SCOPE_DDP, SCOPE_DEEPSPEED };
	size_t k, g, n = 0, groups = 0, line, codes = 0;
	char *lab;

	for (g = 0; g < sizeof(scopes) / sizeof(scopes[0]); g++) {
		line = 0;
		for (k = 0; k < f->nset; k++) {
			const struct setting *set = f->set[k].setting;

			if (f->set[k].state != STATE_UNKNOWN ||
			    set->kind == SET_CODE || (grouped(fw) ?
			    set->scope != scopes[g] : g > 0))
				continue;
			if (line++ == 0)
				fprintf(fp, "%s    ", n > 0 ? "\n" : "");
			else
				fputs(", ", fp);
			if (line == 1 && grouped(fw) && scopes[g] != SCOPE_ANY)
				fprintf(fp, "%s: ", scope_label(scopes[g]));
			lab = setting_label(set);
			fputs(lab, fp);
			free(lab);
			n++;
		}
		groups += line > 0;
	}
	if (n > 0) {
		for (k = 0; f->set[k].state != STATE_UNKNOWN ||
		    f->set[k].setting->kind == SET_CODE; k++)
			;
		if (groups > 1)
			fprintf(fp, _("\n    not known whether the launch has "
			    "them (%s)\n"), f->set[k].detail ?
			    f->set[k].detail : "");
		else
			fprintf(fp, _(": not known whether the launch has %s "
			    "(%s)\n"), n == 1 ? _("it") : _("them"),
			    f->set[k].detail ? f->set[k].detail : "");
	}
	for (k = 0; k < f->nset; k++) {
		const struct setting *set = f->set[k].setting;

		if (set->kind != SET_CODE)
			continue;
		if (set->scope == SCOPE_DEEPSPEED)
			fprintf(fp, _("    in your DeepSpeed config: %s\n"),
			    set->name);
		else if (grouped(fw) && set->scope != SCOPE_ANY)
			fprintf(fp, _("    in your code (%s): %s\n"),
			    scope_label(set->scope), set->name);
		else
			fprintf(fp, _("    in your code: %s\n"), set->name);
		codes += set->scope != SCOPE_ANY;
	}
	if (groups > 1 || (grouped(fw) && codes > 0 && groups + codes > 1))
		fprintf(fp, _("    (the data does not say which framework ran: "
		    "each group is for its own)\n"));
}

/* Does any rank have a step breakdown or operators for the rules? */
static int
any_data(const struct summary *s)
{
	for (size_t i = 0; i < s->nr; i++)
		if (s->r[i].steps_why == NULL || s->r[i].ops != NULL)
			return 1;
	return 0;
}

/* A short block each. */
static void
findings_print(const struct summary *s, const void *state, struct out *o)
{
	const struct findings *fs = state;
	size_t i, k;
	int w;

	if (fs->n == 0 && !any_data(s))
		fprintf(o->fp, _("  not made: no rank has parsed data to judge "
		    "(no step breakdown, no operators: the run was stopped or "
		    "its data not parsed before ASCEND_PROFILER_OUTPUT was "
		    "written)\n"));
	else if (fs->n == 0)
		fprintf(o->fp, _("  none: no rule fired on the data that could "
		    "be read\n"));
	for (i = 0; i < fs->n; i++) {
		const struct finding *f = &fs->f[i];
		char *who = finding_ranks(s, f), *lab, *st;

		fprintf(o->fp, "  %s[%s]%s %s%s%s\n", colour(o, 4), f->rule->id,
		    colour_off(o), who, *who ? ": " : "", f->text);
		free(who);
		if (f->rule->fix != NULL)
			fprintf(o->fp, "    %s\n", _(f->rule->fix));
		if (f->note != NULL)
			fprintf(o->fp, "    %s\n", f->note);
		for (w = 0, k = 0; k < f->nset; k++) {
			lab = setting_label(f->set[k].setting);
			if ((int)strlen(lab) > w &&
			    f->set[k].state != STATE_UNKNOWN)
				w = (int)strlen(lab);
			free(lab);
		}
		for (k = 0; k < f->nset; k++) {
			if (f->set[k].state == STATE_UNKNOWN)
				continue;
			lab = setting_label(f->set[k].setting);
			st = state_text(&f->set[k]);
			fprintf(o->fp, "    %-*s  %s\n", w, lab, st);
			free(lab);
			free(st);
		}
		print_unknown(f, fs->fw, o->fp);
	}
}

static cJSON *
finding_json(const struct summary *s, const struct finding *f)
{
	cJSON *o = cJSON_CreateObject(), *a, *x;
	size_t i, known = 0;

	cJSON_AddStringToObject(o, "rule", f->rule->id);
	cJSON_AddStringToObject(o, "family", family_of(f->rule));
	a = cJSON_AddArrayToObject(o, "ranks");
	for (i = 0; i < f->nwho; i++)
		if (s->r[f->who[i]].rank >= 0) {
			cJSON_AddItemToArray(a,
			    cJSON_CreateNumber(s->r[f->who[i]].rank));
			known++;
		}
	if (known < f->nwho) {
		a = cJSON_AddArrayToObject(o, "directories");
		for (i = 0; i < f->nwho; i++)
			if (s->r[f->who[i]].rank < 0)
				cJSON_AddItemToArray(a, cJSON_CreateString(
				    s->r[f->who[i]].path));
	}
	if (f->nwho == 1)
		json_rank(o, "rank", s->r[f->who[0]].rank);
	cJSON_AddStringToObject(o, "text", f->text);
	x = cJSON_AddObjectToObject(o, "evidence");
	for (i = 0; i < f->nfig; i++)
		cJSON_AddNumberToObject(x, f->fig[i].key, f->fig[i].value);
	cJSON_AddStringToObject(o, "reads", f->rule->evidence);
	cJSON_AddNumberToObject(o, "threshold", f->rule->threshold);
	cJSON_AddStringToObject(o, "threshold_text", f->rule->threshold_text);
	if (f->rule->fix != NULL)
		cJSON_AddStringToObject(o, "fix", _(f->rule->fix));
	if (f->note != NULL)
		cJSON_AddStringToObject(o, "note", f->note);
	a = cJSON_AddArrayToObject(o, "settings");
	for (i = 0; i < f->nset; i++) {
		const struct finding_setting *fs = &f->set[i];

		x = cJSON_CreateObject();
		cJSON_AddStringToObject(x, "name", fs->setting->name);
		if (fs->setting->kind == SET_CODE)
			cJSON_AddStringToObject(x, "where", "code");
		cJSON_AddStringToObject(x, "want", fs->setting->want);
		cJSON_AddStringToObject(x, "what", _(fs->setting->what));
		cJSON_AddStringToObject(x, "state", state_key(fs->state));
		if (fs->detail != NULL)
			cJSON_AddStringToObject(x, "detail", fs->detail);
		cJSON_AddItemToArray(a, x);
	}
	return o;
}

/* A list, also when empty. */
static cJSON *
findings_json(const struct summary *s, const void *state)
{
	const struct findings *fs = state;
	cJSON *a = cJSON_CreateArray();
	size_t i;

	for (i = 0; i < fs->n; i++)
		cJSON_AddItemToArray(a, finding_json(s, &fs->f[i]));
	return a;
}

static void
findings_html(const struct summary *s, const void *state, FILE *fp)
{
	const struct findings *fs = state;
	size_t i, k;
	char *lab, *st;

	fputs("<ul>\n", fp);
	if (fs->n == 0)
		fputs("<li>none</li>\n", fp);
	for (i = 0; i < fs->n; i++) {
		const struct finding *f = &fs->f[i];
		char *who = finding_ranks(s, f);

		fputs("<li><span class=\"finding\">", fp);
		html_text(fp, f->rule->id);
		fputs("</span> ", fp);
		if (*who) {
			html_text(fp, who);
			fputs(": ", fp);
		}
		free(who);
		html_text(fp, f->text);
		if (f->rule->fix != NULL || f->note != NULL || f->nset > 0)
			fputs("\n<ul>\n", fp);
		if (f->rule->fix != NULL) {
			fputs("<li>", fp);
			html_text(fp, _(f->rule->fix));
			fputs("</li>\n", fp);
		}
		if (f->note != NULL) {
			fputs("<li>", fp);
			html_text(fp, f->note);
			fputs("</li>\n", fp);
		}
		for (k = 0; k < f->nset; k++) {
			if (f->set[k].setting->kind == SET_CODE) {
				fputs("<li>", fp);
				html_text(fp, f->set[k].setting->scope ==
				    SCOPE_DEEPSPEED ? _("in your DeepSpeed "
				    "config: ") : _("in your code: "));
				fputs("<code>", fp);
				html_text(fp, f->set[k].setting->name);
				fputs("</code></li>\n", fp);
				continue;
			}
			lab = setting_label(f->set[k].setting);
			st = state_text(&f->set[k]);
			fputs("<li><code>", fp);
			html_text(fp, lab);
			fputs("</code>: ", fp);
			html_text(fp, st);
			fputs("</li>\n", fp);
			free(lab);
			free(st);
		}
		if (f->rule->fix != NULL || f->note != NULL || f->nset > 0)
			fputs("</ul>\n", fp);
		fputs("</li>\n", fp);
	}
	fputs("</ul>\n", fp);
}

static void
findings_free(void *state)
{
	struct findings *fs = state;
	size_t i, k;

	for (i = 0; i < fs->n; i++) {
		struct finding *f = &fs->f[i];

		free(f->who);
		free(f->text);
		free(f->note);
		for (k = 0; k < f->nset; k++)
			free(f->set[k].detail);
		free(f->set);
	}
	free(fs->f);
	free(fs);
}

const struct kind kind_findings = {
	"findings", N_("Findings"),
	findings_init, NULL, NULL, findings_finish, findings_print,
	findings_json, findings_html, findings_free,
};
