/* The iteration a Megatron launch loads from its checkpoint directory. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "argv.h"
#include "resume.h"
#include "util.h"

#define TRACKER	"latest_checkpointed_iteration.txt"

static int
has_flag(char *const argv[], int from, const char *opt)
{
	for (int i = from; argv[i] != NULL; i++)
		if (strcmp(argv[i], opt) == 0)
			return 1;
	return 0;
}

static char *
in_cwd(const char *cwd, const char *path)
{
	return path[0] == '/' || cwd == NULL ? xstrdup(path) :
	    xasprintf("%s/%s", cwd, path);
}

/* Two names of one directory (or, when neither exists, one text). */
static int
same_dir(const char *cwd, const char *a, const char *b)
{
	char *pa = in_cwd(cwd, a), *pb = in_cwd(cwd, b);
	char *ra = realpath(pa, NULL), *rb = realpath(pb, NULL);
	int same = ra != NULL && rb != NULL ? strcmp(ra, rb) == 0 :
	    strcmp(pa, pb) == 0;

	free(pa);
	free(pb);
	free(ra);
	free(rb);
	return same;
}

/* The tracker's text: "release" or a whole number, blanks around. */
static int
tracker_iteration(char *text, int *iteration)
{
	char *end, *s = text + strspn(text, " \t\r\n");
	long v;

	s[strcspn(s, " \t\r\n")] = '\0';
	if (strcmp(s, "release") == 0) {
		*iteration = 0;
		return 0;
	}
	errno = 0;
	v = strtol(s, &end, 10);
	if (*s == '\0' || *end != '\0' || errno != 0 || v < 0 || v > INT_MAX)
		return -1;
	*iteration = (int)v;
	return 0;
}

int
resume_read(char *const argv[], int from, const char *cwd, struct resume *r,
    char **why)
{
	const char *load = argv_last(argv, from, "--load");
	const char *save = argv_last(argv, from, "--save");
	const char *step = argv_last(argv, from, "--ckpt-step");
	char *path, *text;

	memset(r, 0, sizeof(*r));
	if (load == NULL)
		return 0;
	r->load_is_save = save != NULL && same_dir(cwd, load, save);
	if (has_flag(argv, from, "--finetune"))
		return 0;
	path = xasprintf("%s/%s", load, TRACKER);
	r->tracker = in_cwd(cwd, path);
	free(path);
	if ((text = read_file(r->tracker, NULL)) == NULL) {
		free(r->tracker);
		r->tracker = NULL;	/* no checkpoint yet: from scratch */
		return 0;
	}
	if (tracker_iteration(text, &r->iteration) == -1) {
		*why = xasprintf(_("%s: holds neither an iteration number nor "
		    "\"release\"; fix the file or give --steps after the "
		    "iteration the job resumes from"), r->tracker);
		free(text);
		resume_free(r);
		return -1;
	}
	free(text);
	/* --ckpt-step loads that iteration instead (a release stays 0). */
	if (step != NULL && r->iteration > 0)
		r->iteration = atoi(step);
	return 0;
}

void
resume_free(struct resume *r)
{
	free(r->tracker);
	r->tracker = NULL;
}
