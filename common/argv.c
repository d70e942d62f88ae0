/* Find, set and drop options in a copy of a command line. */
#include <stdlib.h>
#include <string.h>

#include "argv.h"

int
argv_find(char *const argv[], int from, const char *opt, const char **value)
{
	size_t n = strlen(opt);

	for (int i = from; argv[i] != NULL; i++) {
		if (strcmp(argv[i], opt) == 0) {
			*value = argv[i + 1];
			return i;
		}
		if (strncmp(argv[i], opt, n) == 0 && argv[i][n] == '=') {
			*value = argv[i] + n + 1;
			return i;
		}
	}
	return -1;
}

const char *
argv_last(char *const argv[], int from, const char *opt)
{
	const char *v = NULL;
	size_t n = strlen(opt);

	for (int i = from; argv[i] != NULL; i++)
		if (strcmp(argv[i], opt) == 0 && argv[i + 1] != NULL)
			v = argv[++i];
		else if (strncmp(argv[i], opt, n) == 0 && argv[i][n] == '=')
			v = argv[i] + n + 1;
	return v;
}

void
argv_replace(struct strv *v, int i, const char *value)
{
	char *s = xstrdup(value);

	free(v->v[i]);
	v->v[i] = s;
}

void
argv_set(struct strv *v, int from, const char *opt, const char *value)
{
	const char *old;
	int i = argv_find(v->v, from, opt, &old);
	char *s;

	if (i < 0) {
		strv_push(v, opt);
		strv_push(v, value);
	} else if (strchr(v->v[i], '=') != NULL) {
		s = xasprintf("%s=%s", opt, value);
		argv_replace(v, i, s);
		free(s);
	} else if (old != NULL)
		argv_replace(v, i + 1, value);
	else
		strv_push(v, value);	/* "--opt" last, without a value */
}

void
argv_drop(struct strv *v, int from, int (*drop)(char *const *))
{
	size_t out = (size_t)from, i = (size_t)from;
	int n;

	while (i < v->n) {
		n = drop(v->v + i);
		if (n == 0) {
			v->v[out++] = v->v[i++];
			continue;
		}
		for (; n > 0 && i < v->n; n--)
			free(v->v[i++]);
	}
	v->n = out;
	v->v[out] = NULL;
}
