/*
 * Environment doctoring for the shim: keep LD_PRELOAD and the session
 * variables across programs that drop them (env -i, export LD_PRELOAD=...),
 * remove them for the training launcher.  No allocation: callers pass
 * buffers sized with vec_count() and env_preload_size().
 */
#include <stddef.h>

#include "contract.h"
#include "envfix.h"

#define PRELOAD		"LD_PRELOAD="
#define PRELOAD_LEN	(sizeof(PRELOAD) - 1)
#define PREFIX_LEN	(sizeof(MSPROF_ENV_PREFIX) - 1)

static size_t
slen(const char *s)
{
	size_t n = 0;

	while (s[n] != '\0')
		n++;
	return n;
}

static char *
copy(char *dst, const char *src)
{
	while (*src != '\0')
		*dst++ = *src++;
	return dst;
}

static int
starts(const char *s, const char *prefix, size_t n)
{
	while (n-- > 0)
		if (*s++ != *prefix++)
			return 0;
	return 1;
}

static int
same(const char *a, const char *b)
{
	while (*a != '\0' && *a == *b)
		a++, b++;
	return *a == *b;
}

size_t
vec_count(char *const v[])
{
	size_t n = 0;

	if (v != NULL)
		while (v[n] != NULL)
			n++;
	return n;
}

const char *
env_value(char *const envp[], const char *name)
{
	size_t n = slen(name);

	if (envp == NULL)
		return NULL;
	for (; *envp != NULL; envp++)
		if (starts(*envp, name, n) && (*envp)[n] == '=')
			return *envp + n + 1;
	return NULL;
}

/*
 * ld.so splits LD_PRELOAD on spaces and colons.  Call FN for each
 * non-empty token of VALUE; stop and return 1 when it returns non-zero.
 */
static int
each_token(const char *value, int (*fn)(const char *, size_t, void *),
    void *arg)
{
	const char *t;

	while (*value != '\0') {
		while (*value == ' ' || *value == ':')
			value++;
		t = value;
		while (*value != '\0' && *value != ' ' && *value != ':')
			value++;
		if (value > t && fn(t, (size_t)(value - t), arg))
			return 1;
	}
	return 0;
}

static int
is_token(const char *t, size_t n, void *shim)
{
	const char *s = shim;

	return starts(t, s, n) && s[n] == '\0';
}

/* The last LD_PRELOAD entry: the one ld.so uses. */
static const char *
last_preload(char *const envp[], int *count)
{
	const char *last = NULL;

	*count = 0;
	for (; envp != NULL && *envp != NULL; envp++)
		if (starts(*envp, PRELOAD, PRELOAD_LEN)) {
			last = *envp + PRELOAD_LEN;
			(*count)++;
		}
	return last;
}

/* Is ENTRY (an MSPROF_EXEC_* variable) one of the saved ones, unchanged? */
static int
is_saved(const struct shim_env *se, const char *entry)
{
	int i;

	for (i = 0; i < se->nsaved; i++)
		if (same(se->saved[i], entry))
			return 1;
	return 0;
}

int
env_needs_fix(const struct shim_env *se, char *const envp[])
{
	int count, found = 0;
	const char *preload = last_preload(envp, &count);

	if (envp == NULL || count != 1 ||
	    !each_token(preload, is_token, (void *)se->shim))
		return 1;
	for (; *envp != NULL; envp++)
		if (starts(*envp, MSPROF_ENV_PREFIX, PREFIX_LEN)) {
			if (!is_saved(se, *envp))
				return 1;
			found++;
		}
	return found != se->nsaved;
}

struct join {
	char		*end;
	const char	*skip;
};

/* Append a token to the LD_PRELOAD being built, unless it is SKIP. */
static int
append_token(const char *t, size_t n, void *arg)
{
	struct join *j = arg;

	if (j->skip != NULL && is_token(t, n, (void *)j->skip))
		return 0;
	if (j->end[-1] != '=')
		*j->end++ = ':';
	while (n-- > 0)
		*j->end++ = *t++;
	return 0;
}

size_t
env_preload_size(const struct shim_env *se, char *const envp[])
{
	int count;
	const char *preload = last_preload(envp, &count);

	return PRELOAD_LEN + slen(se->shim) + 1 +
	    (preload != NULL ? slen(preload) : 0) + 1;
}

void
env_fix(const struct shim_env *se, char *const envp[], char **out,
    char *ldbuf)
{
	int i, count;
	const char *preload = last_preload(envp, &count);
	struct join j = { copy(copy(ldbuf, PRELOAD), se->shim), se->shim };

	if (preload != NULL)
		each_token(preload, append_token, &j);
	*j.end = '\0';

	for (; envp != NULL && *envp != NULL; envp++)
		if (!starts(*envp, PRELOAD, PRELOAD_LEN) &&
		    !starts(*envp, MSPROF_ENV_PREFIX, PREFIX_LEN))
			*out++ = *envp;
	for (i = 0; i < se->nsaved; i++)
		*out++ = (char *)se->saved[i];
	*out++ = ldbuf;
	*out = NULL;
}

void
env_strip(const char *shim, char *const envp[], char **out, char *ldbuf)
{
	int count;
	const char *preload = last_preload(envp, &count);
	struct join j = { copy(ldbuf, PRELOAD), shim };

	if (preload != NULL)
		each_token(preload, append_token, &j);
	*j.end = '\0';

	for (; envp != NULL && *envp != NULL; envp++)
		if (!starts(*envp, PRELOAD, PRELOAD_LEN) &&
		    !starts(*envp, MSPROF_ENV_PREFIX, PREFIX_LEN))
			*out++ = *envp;
	if (j.end > ldbuf + PRELOAD_LEN)
		*out++ = ldbuf;
	*out = NULL;
}
