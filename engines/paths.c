/* Check the input paths on a launch's command line. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/argv.h"
#include "common/jsonfile.h"
#include "common/resume.h"
#include "paths.h"
#include "rewrite.h"

/*
 * Options whose value is a path that must exist. --save need not, and
 * neither need a --load that is also the --save: Megatron starts from
 * scratch, with a warning, until the job saves its first checkpoint there.
 */
static const char *const must_exist[] = {
	"--load", "--tokenizer-model", "--tokenizer-name-or-path",
	"--mm-data", "--mm-model", "--mm-tool", NULL
};

/*
 * A word the static scan could not expand (a dry run keeps "$(...)" as
 * written) names no path to check: it counts as present.
 */
static int
exists(const char *path)
{
	return access(path, F_OK) == 0 || strpbrk(path, "$`") != NULL;
}

static int
is_number(const char *s)
{
	char *end;

	(void)strtod(s, &end);
	return end != s && *end == '\0';
}

/*
 * --data-path takes prefixes (PREFIX.bin and PREFIX.idx), possibly
 * weighted ("0.3 a 0.7 b"), or a path that exists as given.
 */
static void
data_paths(char *const argv[], int i, struct strv *missing)
{
	char *bin, *idx;

	for (i++; argv[i] != NULL && strncmp(argv[i], "--", 2) != 0; i++) {
		if (is_number(argv[i]) || exists(argv[i]))
			continue;
		bin = xasprintf("%s.bin", argv[i]);
		idx = xasprintf("%s.idx", argv[i]);
		if (!exists(bin) || !exists(idx))
			strv_pushf(missing, _("--data-path %s (%s.bin and %s.idx "
			    "are needed)"), argv[i], argv[i], argv[i]);
		free(bin);
		free(idx);
	}
}

/*
 * The dataset a MindSpeed-MM data config (--mm-data JSON) names:
 * dataset_param.basic_parameters.data_path and data_folder.
 */
static void
mm_data_paths(const char *cfg, struct strv *missing)
{
	static const char *const keys[] = { "data_path", "data_folder", NULL };
	char *why = NULL;
	cJSON *j = json_read(cfg, &why), *basic;
	const char *v;

	free(why);		/* an unreadable config is reported elsewhere */
	basic = cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(j, "dataset_param"),
	    "basic_parameters");
	for (int k = 0; keys[k] != NULL; k++) {
		v = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(basic,
		    keys[k]));
		if (v != NULL && *v != '\0' && !exists(v))
			strv_pushf(missing, _("%s %s (in %s)"), keys[k], v, cfg);
	}
	cJSON_Delete(j);
}

/* Is V a path of this machine's file system, as written? */
static int
local_path(const char *v, size_t n)
{
	return (n > 0 && v[0] == '/') || (n > 1 && v[0] == '.' &&
	    v[1] == '/') || (n > 2 && strncmp(v, "../", 3) == 0);
}

void
paths_check_local(const char *name, const char *value, const char *cfg,
    struct strv *missing)
{
	const char *p = value, *end;
	char *path;
	size_t n;

	for (; p != NULL && *p != '\0'; p = *end != '\0' ? end + 1 : end) {
		end = p + strcspn(p, ",");
		p += strspn(p, " \t");
		for (n = (size_t)(end - p); n > 0 && (p[n - 1] == ' ' ||
		    p[n - 1] == '\t'); n--)
			;
		if (!local_path(p, n))
			continue;
		path = xstrndup(p, n);
		if (!exists(path) && cfg != NULL)
			strv_pushf(missing, _("%s %s (in %s)"), name, path, cfg);
		else if (!exists(path))
			strv_pushf(missing, "%s %s", name, path);
		free(path);
	}
}

/* The value of the last "KEY=V" word after the entry, or NULL. */
static const char *
override(char *const argv[], int from, const char *key)
{
	const char *v = NULL;
	size_t n = strlen(key);

	for (int i = from; argv[i] != NULL; i++)
		if (strncmp(argv[i], key, n) == 0 && argv[i][n] == '=')
			v = argv[i] + n + 1;
	return v;
}

void
paths_check_settings(const struct launch *l, char *const argv[],
    const char *const keys[], int dashes, struct strv *missing)
{
	const char *cfg = yaml_argument(argv, l->script), *v;
	char *opt, *y;

	for (int k = 0; keys[k] != NULL; k++) {
		opt = xasprintf("%s%s", dashes ? "--" : "", keys[k]);
		v = dashes ? argv_last(argv, l->script + 1, opt) :
		    override(argv, l->script + 1, keys[k]);
		if (v != NULL)
			paths_check_local(opt, v, NULL, missing);
		else if (cfg != NULL && (y = yaml_setting(cfg, keys[k],
		    NULL)) != NULL) {
			paths_check_local(keys[k], y, cfg, missing);
			free(y);
		}
		free(opt);
	}
}

void
launch_missing_paths(const struct launch *l, char *const argv[],
    struct strv *missing)
{
	const char *a, *v;
	char *why = NULL;
	struct resume r;
	size_t n;

	if (l->script < 0)
		return;
	resume_read(argv, l->script + 1, NULL, &r, &why);
	resume_free(&r);
	free(why);	/* a bad tracker is the rewrite's to report */
	for (int i = l->script + 1; (a = argv[i]) != NULL; i++) {
		if (strcmp(a, "--data-path") == 0) {
			data_paths(argv, i, missing);
			continue;
		}
		if (i == l->script + 1 && (ends_with(a, ".yaml") ||
		    ends_with(a, ".yml")) && !exists(a))
			strv_pushf(missing, _("YAML config %s"), a);
		for (int k = 0; must_exist[k] != NULL; k++) {
			n = strlen(must_exist[k]);
			if (strncmp(a, must_exist[k], n) != 0)
				continue;
			if (a[n] == '=')
				v = a + n + 1;
			else if (a[n] == '\0')
				v = argv[i + 1];
			else
				continue;
			if (v != NULL && !exists(v) && !(r.load_is_save &&
			    strcmp(must_exist[k], "--load") == 0))
				strv_pushf(missing, "%s %s", must_exist[k], v);
			else if (v != NULL && strcmp(must_exist[k], "--mm-data") == 0)
				mm_data_paths(v, missing);
		}
	}
	if (engine_ops(l->engine)->input_paths != NULL)
		engine_ops(l->engine)->input_paths(l, argv, missing);
}
