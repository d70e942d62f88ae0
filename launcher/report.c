/* The summary printed after the run: the launches the journal recorded. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "journal.h"
#include "report.h"
#include "util.h"

static const char *
str(const cJSON *rec, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(rec, key);

	return cJSON_IsString(v) ? v->valuestring : "";
}

static int
num(const cJSON *rec, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(rec, key);

	return cJSON_IsNumber(v) ? v->valueint : 0;
}

/* "torchrun pretrain_gpt.py" or the first words of the command. */
static char *
launch_name(const cJSON *rec)
{
	const cJSON *argv = cJSON_GetObjectItemCaseSensitive(rec, "argv");
	const cJSON *a0 = cJSON_GetArrayItem(argv, 0);
	const char *base = cJSON_IsString(a0) ? a0->valuestring : "?";
	const char *script = str(rec, "script");

	if (strrchr(base, '/') != NULL)
		base = strrchr(base, '/') + 1;
	return *script ? xasprintf("%s %s", base, script) : xstrdup(base);
}

static char *
ranks_text(const cJSON *rec)
{
	const cJSON *r = cJSON_GetObjectItemCaseSensitive(rec, "ranks"), *e;
	char *s = xstrdup(""), *t;

	if (cJSON_IsString(r))
		return xstrdup(_("all"));
	cJSON_ArrayForEach(e, r) {
		t = xasprintf("%s%s%d", s, *s ? "," : "", e->valueint);
		free(s);
		s = t;
	}
	return s;
}

static void
print_launch(const cJSON *rec)
{
	char *name = launch_name(rec), *ranks;
	const char *status = str(rec, "status");

	if (strcmp(status, "injected") == 0) {
		ranks = ranks_text(rec);
		printf(_("  %s: steps %d to %d, excluding %d, ranks %s, %s -> "
		    "%s\n"), name, num(rec, "step_start"), num(rec, "step_end"),
		    num(rec, "step_end"), ranks, str(rec, "level"),
		    str(rec, "save_path"));
		free(ranks);
	} else if (strcmp(status, "refused") == 0)
		printf(_("  %s: not started: %s\n"), name, str(rec, "reason"));
	else if (strcmp(status, "failed") == 0)
		printf(_("  %s: failed: %s\n"), name, str(rec, "reason"));
	else if (strcmp(status, "kept") == 0)
		printf(_("  %s: profiled with its own settings (--existing "
		    "keep)\n"), name);
	else
		printf(_("  %s: left alone (%s)\n"), name, str(rec, "reason"));
	free(name);
}

void
report_print(const char *session, const cJSON *journal, int quiet,
    struct report *r)
{
	const cJSON *rec;

	memset(r, 0, sizeof(*r));
	cJSON_ArrayForEach(rec, journal) {
		const char *status = str(rec, "status");

		r->injected += strcmp(status, "injected") == 0;
		r->refused += strcmp(status, "refused") == 0;
		r->unchanged += strcmp(status, "unchanged") == 0;
		r->injected += strcmp(status, "kept") == 0;
	}
	if (r->refused > 0)
		fprintf(stderr, _("msprof-exec: %d training launch(es) were not "
		    "started; see above\n"), r->refused);
	if (quiet)
		return;
	if (cJSON_GetArraySize(journal) == 0) {
		fprintf(stderr, _("msprof-exec: warning: no training launch was "
		    "seen; nothing was profiled. Static programs, setuid "
		    "programs and remote shells (ssh, pdsh) do not carry the "
		    "shim: run msprof-exec on each node.\n"));
		return;
	}
	printf(_("msprof-exec: %d training launch(es) profiled, %d left "
	    "alone\n"), r->injected, r->unchanged);
	cJSON_ArrayForEach(rec, journal)
		print_launch(rec);
	printf(_("msprof-exec: session record: %s\n"), session);
}
