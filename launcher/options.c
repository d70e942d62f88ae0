/*
 * Parse the msprof-exec command line.  Every value is checked here, before
 * anything runs; a bad one is reported with the option, the value and what
 * is accepted, and exits with status 64 (EX_USAGE).
 */
#include <err.h>
#include <getopt.h>
#include <setjmp.h>
#include <stdarg.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>

#include "engines/apply.h"
#include "report/report.h"
#include "commands.h"
#include "options.h"

/* A window this long needs --force: large jobs need 2 to 3 steps. */
#define MAX_STEPS_UNFORCED	3

enum {
	OPT_STEP_START = 256, OPT_STEP_END, OPT_NO_CPU, OPT_SIMPLIFY,
	OPT_EXPORT, OPT_AIC, OPT_MODE, OPT_DYNDIR, OPT_NO_ANALYSE, OPT_ITERS,
	OPT_FRAMEWORK, OPT_EXISTING, OPT_SKIP_CHECKS, OPT_CANN_ENV, OPT_JSON,
	OPT_LOG, OPT_FORCE, OPT_HTML, OPT_STRICT, OPT_SET, OPT_BASELINE
};

const struct option options_longopts[] = {
	{ "level",		required_argument, NULL, 'l' },
	{ "steps",		required_argument, NULL, 's' },
	{ "step-start",		required_argument, NULL, OPT_STEP_START },
	{ "step-end",		required_argument, NULL, OPT_STEP_END },
	{ "ranks",		required_argument, NULL, 'r' },
	{ "with",		required_argument, NULL, 'w' },
	{ "no-cpu",		no_argument,	   NULL, OPT_NO_CPU },
	{ "data-simplification", no_argument,	   NULL, OPT_SIMPLIFY },
	{ "export-type",	required_argument, NULL, OPT_EXPORT },
	{ "aic-metrics",	required_argument, NULL, OPT_AIC },
	{ "mode",		required_argument, NULL, OPT_MODE },
	{ "dynamic-dir",	required_argument, NULL, OPT_DYNDIR },
	{ "no-analyse",		no_argument,	   NULL, OPT_NO_ANALYSE },
	{ "train-iters",	required_argument, NULL, OPT_ITERS },
	{ "output",		required_argument, NULL, 'o' },
	{ "framework",		required_argument, NULL, OPT_FRAMEWORK },
	{ "existing",		required_argument, NULL, OPT_EXISTING },
	{ "set",		required_argument, NULL, OPT_SET },
	{ "baseline",		required_argument, NULL, OPT_BASELINE },
	{ "yes",		no_argument,	   NULL, 'y' },
	{ "dry-run",		no_argument,	   NULL, 'n' },
	{ "force",		no_argument,	   NULL, OPT_FORCE },
	{ "skip-checks",	no_argument,	   NULL, OPT_SKIP_CHECKS },
	{ "strict",		no_argument,	   NULL, OPT_STRICT },
	{ "cann-env",		required_argument, NULL, OPT_CANN_ENV },
	{ "json",		required_argument, NULL, OPT_JSON },
	{ "html",		required_argument, NULL, OPT_HTML },
	{ "log",		required_argument, NULL, OPT_LOG },
	{ "quiet",		no_argument,	   NULL, 'q' },
	{ "verbose",		no_argument,	   NULL, 'v' },
	{ "help",		no_argument,	   NULL, 'h' },
	{ "version",		no_argument,	   NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};

void
usage(FILE *f)
{
	fputs(_("usage: msprof-exec [OPTIONS] [--] COMMAND [ARG...]\n"), f);
	commands_synopsis(f);
	fputs(_(
"\n"
"Run COMMAND (a training script or launcher) and collect torch_npu profiling\n"
"data from the training launches it starts (MindSpeed-LLM, MindSpeed-MM, any\n"
"PyTorch training on torch_npu), run as given (a .sh file that is not\n"
"executable runs with bash).  Your files are not modified.\n"
"\n"
"  -l, --level L            level_none, level0, level1, level2 (level1)\n"
"  -s, --steps S:E          collect steps S to E-1 (LLM 2:4, MM and torch 10:12)\n"
"      --step-start N, --step-end N\n"
"  -r, --ranks LIST         0, 0,1,2 or all (0)\n"
"  -w, --with LIST          cpu, memory, stack, shapes (cpu)\n"
"      --no-cpu             no CPU activity\n"
"      --data-simplification, --export-type text|db,\n"
"      --aic-metrics PipeUtilization|ArithmeticUtilization\n"
"      --mode static|dynamic, --no-analyse (MM, torch), --dynamic-dir DIR (MM)\n"
"      --train-iters N|keep shorten the run (MM 100, LLM and torch keep)\n"
"  -o, --output DIR         save path (LLM, torch ./profiling_output,\n"
"                           MM ./npu_profiling)\n"
"      --framework auto|llm|mm|torch, --existing ask|keep|override\n"
"      --force              allow a window of more than 3 steps\n"
"      --set NAME[=VALUE]   run the profiled launch with a setting of the\n"
"                           training: a flag (--overlap-grad-reduce,\n"
"                           --num-workers=8), an environment variable\n"
"                           (TASK_QUEUE_ENABLE=2) or a YAML key in the config\n"
"                           copy (a.b.c=1); repeatable\n"
"  -y, --yes                do not ask for confirmation\n"
"  -n, --dry-run            show the plan and the rewritten command, run nothing\n"
"      --strict             fail when the training failed, even behind '| tee'\n"
"                           (its status, or 1), or a rank asked for collected\n"
"                           nothing (65)\n"
"      --skip-checks, --cann-env FILE, --json FILE, --log FILE\n"
"      --html FILE          the summary of the data as one page\n"
"      --baseline DIR       end the report with the comparison against an\n"
"                           earlier run (its output or session directory)\n"
"                           of the same steps and ranks\n"
"  -q, --quiet, -v, --verbose, -h, --help, -V, --version\n"), f);
}

/* The option that set each end of the window last, for messages. */
static const char *start_from = "--step-start", *end_from = "--step-end";

/* While editing at the confirmation, a bad value goes back to the prompt. */
static jmp_buf *editing;

static void __attribute__((format(printf, 1, 0)))
vcomplain(const char *fmt, va_list ap)
{
	fprintf(stderr, "msprof-exec: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
}

/* Say what is wrong with a value (refuse() then gives up on it). */
static void __attribute__((format(printf, 1, 2)))
complain(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vcomplain(fmt, ap);
	va_end(ap);
}

static void __attribute__((noreturn))
refuse(void)
{
	if (editing != NULL)
		longjmp(*editing, 1);
	exit(EX_USAGE);
}

static void __attribute__((noreturn, format(printf, 1, 2)))
bad(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vcomplain(fmt, ap);
	va_end(ap);
	refuse();
}

static int
one_of(const char *v, const char *const *accepted)
{
	for (; *accepted != NULL; accepted++)
		if (strcmp(v, *accepted) == 0)
			return 1;
	return 0;
}

static char *
choice(const char *opt, const char *v, const char *const *accepted,
    const char *list)
{
	if (!one_of(v, accepted))
		bad(_("%s '%s': not accepted; use one of %s"), opt, v, list);
	return xstrdup(v);
}

int
option_number(const char *opt, const char *v, int min)
{
	char *end;
	long n;

	n = strtol(v, &end, 10);
	if (*v == '\0' || *end != '\0' || n < min || n > INT_MAX)
		bad(_("%s '%s': give a whole number of %d or more"), opt, v, min);
	return (int)n;
}

static int
whole(const char *v, long *n)
{
	char *end;

	*n = strtol(v, &end, 10);
	return *v != '\0' && *end == '\0' && *n <= INT_MAX && *n >= INT_MIN;
}

static void
parse_steps(struct plan *p, const char *v)
{
	const char *colon = strchr(v, ':');
	char *head;
	long start, end;
	int ok;

	if (colon == NULL)
		bad(_("--steps '%s': give START:END, e.g. 2:4 for steps 2 and "
		    "3"), v);
	head = strndup(v, (size_t)(colon - v));
	ok = head != NULL && whole(head, &start) && whole(colon + 1, &end);
	free(head);
	if (!ok)
		bad(_("--steps '%s': give START:END as whole numbers, e.g. 2:4 "
		    "for steps 2 and 3"), v);
	if (start < 1)
		bad(_("--steps '%s': the start step must be 1 or more"), v);
	if (end <= start)
		bad(_("--steps '%s': the end step must be greater than the start "
		    "step (S:E collects steps S to E-1)"), v);
	p->step_start = (int)start;
	p->step_end = (int)end;
}

static void
parse_ranks(struct plan *p, const char *v)
{
	char *copy, *tok, *save = NULL, *end;
	long r;

	free(p->ranks);
	p->ranks = NULL;
	p->nranks = 0;
	p->ranks_all = strcmp(v, "all") == 0;
	if (p->ranks_all)
		return;
	copy = xstrdup(v);
	p->ranks = xcalloc(PLAN_MAX_RANKS, sizeof(*p->ranks));
	for (tok = strtok_r(copy, ",", &save); tok != NULL;
	    tok = strtok_r(NULL, ",", &save)) {
		r = strtol(tok, &end, 10);
		if (*end != '\0' || r < 0 || r > INT_MAX)
			complain(_("--ranks '%s': '%s' is not a rank; give 0, "
			    "0,1,2 or all"), v, tok);
		else if (p->nranks == PLAN_MAX_RANKS)
			complain(_("--ranks: more than %d ranks; give all, or "
			    "fewer ranks (profiling data grows with each)"),
			    PLAN_MAX_RANKS);
		else {
			p->ranks[p->nranks++] = (int)r;
			continue;
		}
		free(copy);	/* refuse() may longjmp to the prompt */
		refuse();
	}
	free(copy);
	if (p->nranks == 0)
		bad(_("--ranks '%s': no rank given; give 0, 0,1,2 or all"), v);
}

static void
parse_with(struct plan *p, const char *v)
{
	char *copy = xstrdup(v), *tok, *save = NULL;

	for (tok = strtok_r(copy, ",", &save); tok != NULL;
	    tok = strtok_r(NULL, ",", &save)) {
		if (strcmp(tok, "cpu") == 0)
			p->with_cpu = 1;
		else if (strcmp(tok, "memory") == 0)
			p->with_memory = 1;
		else if (strcmp(tok, "stack") == 0)
			p->with_stack = 1;
		else if (strcmp(tok, "shapes") == 0)
			p->record_shapes = 1;
		else {
			complain(_("--with '%s': unknown item '%s'; accepted: "
			    "cpu, memory, stack, shapes"), v, tok);
			free(copy);	/* refuse() may longjmp to the prompt */
			refuse();
		}
	}
	free(copy);
}

/*
 * --set NAME[=VALUE], checked against the settings table; a later one of
 * the same name replaces the earlier.
 */
static void
parse_set(struct plan *p, const char *v)
{
	char *why = NULL, *note = NULL;
	size_t n = strcspn(v, "=");

	if (set_check(v, &note, &why) == -1) {
		complain("%s", why);
		free(why);	/* refuse() may longjmp to the prompt */
		refuse();
	}
	free(note);	/* the table and the launch say it */
	for (size_t i = 0; i < p->set.n; i++)
		if (strncmp(p->set.v[i], v, n) == 0 &&
		    strcspn(p->set.v[i], "=") == n) {
			free(p->set.v[i]);
			p->set.v[i] = xstrdup(v);
			return;
		}
	strv_push(&p->set, v);
}

static const char *const levels[] = { "level_none", "level0", "level1",
    "level2", NULL };
static const char *const exports[] = { "text", "db", NULL };
static const char *const metrics[] = { "PipeUtilization",
    "ArithmeticUtilization", NULL };
static const char *const modes[] = { "static", "dynamic", NULL };
static const char *const frameworks[] = { "auto", "llm", "mm", "torch",
    NULL };
static const char *const policies[] = { "ask", "keep", "override", NULL };

static void
take(char **field, char *value)
{
	free(*field);
	*field = value;
}

static void
parse_one(struct options *o, int c, const char *v)
{
	struct plan *p = &o->plan;
	char *s;

	switch (c) {
	case 'l': take(&p->level, choice("--level", v, levels,
	    "level_none, level0, level1, level2")); break;
	case 's':
		parse_steps(p, v);
		start_from = end_from = "--steps";
		break;
	case OPT_STEP_START:
		p->step_start = option_number("--step-start", v, 1);
		start_from = "--step-start";
		break;
	case OPT_STEP_END:
		p->step_end = option_number("--step-end", v, 2);
		end_from = "--step-end";
		break;
	case 'r': parse_ranks(p, v); break;
	case 'w': parse_with(p, v); break;
	case OPT_NO_CPU: p->with_cpu = 0; break;
	case OPT_SIMPLIFY: p->data_simplification = 1; break;
	case OPT_EXPORT: take(&p->export_type, choice("--export-type", v,
	    exports, "text, db")); break;
	case OPT_AIC: take(&p->aic_metrics, choice("--aic-metrics", v, metrics,
	    "PipeUtilization, ArithmeticUtilization")); break;
	case OPT_MODE: take(&p->mode, choice("--mode", v, modes,
	    "static, dynamic")); break;
	case OPT_DYNDIR: take(&p->dynamic_dir, xstrdup(v)); break;
	case OPT_NO_ANALYSE: p->analyse = 0; break;
	case OPT_SET: parse_set(p, v); break;
	case OPT_ITERS:
		p->train_iters = strcmp(v, "keep") == 0 ? -1 :
		    option_number("--train-iters", v, 1);
		break;
	case 'o':
		if (*v == '\0')
			bad(_("--output: the directory name is empty"));
		take(&p->output, xstrdup(v));
		break;
	case OPT_FRAMEWORK: take(&p->framework, choice("--framework", v,
	    frameworks, "auto, llm, mm, torch")); break;
	case OPT_EXISTING:
		s = choice("--existing", v, policies, "ask, keep, override");
		p->existing = s[0] == 'a' ? EXISTING_ASK : s[0] == 'k' ?
		    EXISTING_KEEP : EXISTING_OVERRIDE;
		free(s);
		break;
	case 'y': o->yes = 1; break;
	case 'n': o->dry_run = 1; break;
	case OPT_FORCE: o->force = 1; break;
	case OPT_SKIP_CHECKS: o->skip_checks = 1; break;
	case OPT_STRICT: o->strict = 1; break;
	case OPT_CANN_ENV: take(&o->cann_env, xstrdup(v)); break;
	case OPT_JSON: take(&o->json, xstrdup(v)); break;
	case OPT_HTML: take(&o->html, xstrdup(v)); break;
	case OPT_LOG: take(&o->log, xstrdup(v)); break;
	case OPT_BASELINE: take(&o->baseline, xstrdup(v)); break;
	case 'q': o->quiet = 1; break;
	case 'v': o->verbose = 1; break;
	case 'h': o->help = 1; break;
	case 'V': o->version = 1; break;
	}
}

/*
 * torch_npu's dynamic profiler takes a directory whose path has only
 * letters, digits and "_./~-"; any other path makes it log that the path is
 * invalid and profile nothing, which would only show after the whole run.
 */
static void
dynamic_dir_check(const struct plan *p)
{
	const char *dir = p->dynamic_dir != NULL ? p->dynamic_dir : p->output;
	const char *opt = p->dynamic_dir != NULL ? "--dynamic-dir" : "--output";

	if (strcmp(p->mode, "dynamic") != 0 || dir == NULL)
		return;
	if (dir[strspn(dir, "abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./~-")] != '\0')
		bad(_("%s '%s': torch_npu's dynamic profiler accepts only "
		    "letters, digits and the characters _ . / ~ - in its "
		    "directory; choose a path without others"), opt, dir);
}

/* The page of --html must be writable before anything runs (73). */
static void
html_check(const char *path)
{
	char *why = NULL;

	if (path == NULL || report_html_check(path, &why) == 0)
		return;
	complain("%s", why);
	free(why);
	if (editing != NULL)
		longjmp(*editing, 1);
	exit(EX_CANTCREAT);
}

/* Rules between options, checked once all are read. */
static void
check(struct options *o)
{
	struct plan *p = &o->plan;
	int window = 2;

	if (p->step_start && p->step_end) {
		if (p->step_end <= p->step_start)
			bad(_("the end step %d (from %s) must be greater than "
			    "the start step %d (from %s): steps S to E-1 are "
			    "collected"), p->step_end, end_from, p->step_start,
			    start_from);
		window = p->step_end - p->step_start;
	}
	if (window > MAX_STEPS_UNFORCED && !o->force)
		bad(_("steps %d:%d collect %d steps; large jobs need 2 to 3, "
		    "and more make huge files. Add --force to collect %d"),
		    p->step_start, p->step_end, window, window);
	if (strcmp(p->level, "level_none") == 0 &&
	    strcmp(p->export_type, "db") == 0)
		bad(_("--level level_none cannot be combined with --export-type "
		    "db; use level0 or --export-type text"));
	if (strcmp(p->level, "level_none") == 0 &&
	    strcmp(p->framework, "mm") == 0)
		bad(_("--level level_none is for MindSpeed-LLM only; "
		    "MindSpeed-MM accepts level0, level1, level2"));
	/* MindSpeed's profiling guide: memory data needs CPU activity. */
	if (p->with_memory && !p->with_cpu) {
		p->with_cpu = 1;
		if (!o->quiet)
			fprintf(stderr, _("msprof-exec: note: memory collection "
			    "needs CPU activity; CPU collection is turned on\n"));
	}
	dynamic_dir_check(p);
	html_check(o->html);
	if (p->ranks_all && editing == NULL)
		fprintf(stderr, _("msprof-exec: warning: --ranks all profiles "
		    "every rank; the data grows with the job (hundreds of MB "
		    "per rank and step): prefer a few ranks\n"));
}

void
options_parse(int argc, char **argv, struct options *o)
{
	int c;

	memset(o, 0, sizeof(*o));
	plan_defaults(&o->plan);
	opterr = 0;
	while ((c = getopt_long(argc, argv, OPTIONS_SHORT, options_longopts,
	    NULL)) != -1) {
		if (c == '?')
			bad(_("unknown option '%s'; see 'msprof-exec --help'"),
			    argv[optind - 1]);
		if (c == ':')
			bad(_("option '%s' needs a value; see 'msprof-exec "
			    "--help'"), argv[optind - 1]);
		parse_one(o, c, optarg);
	}
	if (o->help || o->version)
		return;
	check(o);
	o->cmd = argv + optind;
}

/* A copy of SRC that owns its own strings (the command is shared). */
static void
options_dup(struct options *dst, const struct options *src)
{
	*dst = *src;
	plan_dup(&dst->plan, &src->plan);
	dst->cann_env = xstrdup_null(src->cann_env);
	dst->json = xstrdup_null(src->json);
	dst->html = xstrdup_null(src->html);
	dst->log = xstrdup_null(src->log);
	dst->baseline = xstrdup_null(src->baseline);
}

int
options_edit(struct options *o, const char *name, const char *value)
{
	jmp_buf here;
	char *opt = xasprintf("--%s", name + strspn(name, "-"));
	char *argv[] = { (char *)"msprof-exec", opt, (char *)value, NULL };
	struct options before;
	int c, ok = 0;

	/* A refused value may be half applied: it must change nothing. */
	options_dup(&before, o);
	if (setjmp(here) == 0) {
		editing = &here;
		optind = 0;	/* glibc: forget a refused -xy group too */
		opterr = 0;
		while ((c = getopt_long(value ? 3 : 2, argv, ":", options_longopts,
		    NULL)) != -1) {
			if (c == '?' || c == ':' || c == 'h' || c == 'V' ||
			    c == 'n' || c == 'y')
				bad(_("'%s' cannot be changed here; give the long "
				    "name of an option, as on the command line "
				    "without its dashes (level, steps, ranks, with, "
				    "no-cpu, output, train-iters, ...), e.g. level "
				    "level2"), name);
			parse_one(o, c, optarg);
		}
		if (optind < (value != NULL ? 3 : 2))
			bad(_("'%s' takes no value; give the name alone, e.g. "
			    "no-cpu"), name);
		check(o);
		ok = 1;
	}
	editing = NULL;
	free(opt);
	if (!ok) {
		options_free(o);
		*o = before;
		return -1;
	}
	options_free(&before);
	return 0;
}

void
options_free(struct options *o)
{
	plan_free(&o->plan);
	free(o->cann_env);
	free(o->json);
	free(o->html);
	free(o->log);
	free(o->baseline);
}
