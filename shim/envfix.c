/*
 * Environment doctoring for the shim: keep LD_PRELOAD and the session
 * variables across programs that drop them (env -i, export LD_PRELOAD=...),
 * remove them for the training launcher.  No allocation: callers pass
 * buffers sized with vec_count() and env_preload_size().
 */
#include <stddef.h>
#include <stdint.h>

#include "contract.h"
#include "envfix.h"
#include "words.h"

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

void
env_measure(struct shim_env *se)
{
	se->shimlen = se->shim != NULL ? word_len(se->shim) : 0;
	for (int i = 0; i < se->nsaved; i++)
		se->savedlen[i] = word_len(se->saved[i]);
}

/* Is ENTRY one of the saved variables, unchanged?  HINT is tried first. */
__attribute__((hot)) static int
is_saved(const struct shim_env *se, const char *entry, int hint)
{
	int i;

	if (hint < se->nsaved &&
	    word_same(entry, se->saved[hint], se->savedlen[hint] + 1))
		return 1;
	for (i = 0; i < se->nsaved; i++)
		if (i != hint && word_same(entry, se->saved[i], se->savedlen[i] + 1))
			return 1;
	return 0;
}

/* Is the shim a token of the LD_PRELOAD value V (see each_token)? */
__attribute__((hot)) static int
has_shim(const struct shim_env *se, const char *v)
{
	size_t n = se->shimlen;

	if (n == 0)
		return 0;
	for (;;) {
		while (*v == ' ' || *v == ':')
			v++;
		if (*v == '\0')
			return 0;
		if (word_same(v, se->shim, n) &&
		    (v[n] == '\0' || v[n] == ' ' || v[n] == ':'))
			return 1;
		v = word_find2(v, ' ', ':');
	}
}

/*
 * The saved variables usually come in the order the shim found them, so
 * the Nth one found is compared with the Nth saved first.  Only entries
 * starting with 'L' or 'M' (one test: the two differ in the lowest bit)
 * are looked at further.
 */
__attribute__((hot)) int
env_needs_fix(const struct shim_env *se, char *const envp[])
{
	const char *e, *preload = NULL;
	int npreload = 0, found = 0;

	if (envp == NULL || se->shim == NULL)
		return 1;
	for (; (e = *envp) != NULL; envp++) {
		if ((e[0] | 1) != 'M')
			continue;
		if (e[0] == 'L') {
			if (WORD_STARTS(e, PRELOAD)) {
				preload = e + PRELOAD_LEN;
				npreload++;
			}
		} else if (WORD_STARTS(e, MSPROF_ENV_PREFIX)) {
			if (!is_saved(se, e, found))
				return 1;
			found++;
		}
	}
	return npreload != 1 || found != se->nsaved || !has_shim(se, preload);
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
