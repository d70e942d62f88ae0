/*
 * The findings as text: a section after the summary's, a short block a
 * finding (its rule, ranks and evidence, what to do, the settings that
 * address it and the launch's state of each).
 */
#include <stdlib.h>
#include <string.h>

#include "advice/advice.h"
#include "summary/model.h"
#include "summary/writer.h"
#include "findings.h"

/* Are the settings shown by framework: does the data not say which? */
static int
grouped(enum framework fw)
{
	return fw == FW_UNKNOWN || fw == FW_TORCH;
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

/* A short block each. */
static void
print_all(const struct summary *s, const struct findings *fs, struct out *o)
{
	size_t i, k;
	int w;

	if (fs->no_data)
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

void
findings_print(const struct summary *s, const struct findings *fs, FILE *fp,
    unsigned flags)
{
	struct out o = { fp, flags };

	fprintf(fp, "\n%s\n", _("Findings"));
	if (fs->why != NULL)
		fprintf(fp, _("  not made: %s\n"), fs->why);
	else
		print_all(s, fs, &o);
}
