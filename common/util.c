/* Allocation that cannot fail, string vectors, files, quoting. */
#include <sys/stat.h>

#include <ctype.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <wchar.h>

#include "i18n.h"
#include "util.h"

void *
xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (p == NULL)
		err(70, "malloc");
	return p;
}

void *
xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (p == NULL)
		err(70, "calloc");
	return p;
}

void *
xreallocarray(void *p, size_t n, size_t size)
{
	if ((p = reallocarray(p, n ? n : 1, size ? size : 1)) == NULL)
		err(70, "reallocarray");
	return p;
}

char *
xstrdup(const char *s)
{
	char *p = strdup(s);

	if (p == NULL)
		err(70, "strdup");
	return p;
}

char *
xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);	/* N bytes, NULs and all */

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *
xstrdup_null(const char *s)
{
	return s != NULL ? xstrdup(s) : NULL;
}

static char *xvasprintf(const char *, va_list)
    __attribute__((format(printf, 1, 0)));

static char *
xvasprintf(const char *fmt, va_list ap)
{
	char *s;

	if (vasprintf(&s, fmt, ap) < 0)
		err(70, "vasprintf");
	return s;
}

char *
xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	return s;
}

char *
xescapen(const char *s, size_t n)
{
	char *e = xmalloc(4 * n + 1), *p = e;
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '\t' || c == '\n' || c == '\r') {
			*p++ = '\\';
			*p++ = c == '\t' ? 't' : c == '\n' ? 'n' : 'r';
		} else if (c < 0x20 || c == 0x7f)
			p += sprintf(p, "\\x%02x", c);
		else
			*p++ = (char)c;
	}
	*p = '\0';
	return e;
}

char *
xescape(const char *s)
{
	return xescapen(s, strlen(s));
}

static void
strv_take(struct strv *sv, char *s)
{
	if (sv->n + 2 > sv->cap) {
		sv->cap = sv->cap ? sv->cap * 2 : 16;
		sv->v = xreallocarray(sv->v, sv->cap, sizeof(*sv->v));
	}
	sv->v[sv->n++] = s;
	sv->v[sv->n] = NULL;
}

void
strv_push(struct strv *sv, const char *s)
{
	strv_take(sv, xstrdup(s));
}

void
strv_pushf(struct strv *sv, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	strv_take(sv, s);
}

void
strv_free(struct strv *sv)
{
	for (size_t i = 0; i < sv->n; i++)
		free(sv->v[i]);
	free(sv->v);
	sv->v = NULL;
	sv->n = sv->cap = 0;
}

double
monotonic_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

int
strv_has(const struct strv *sv, const char *s)
{
	for (size_t i = 0; i < sv->n; i++)
		if (strcmp(sv->v[i], s) == 0)
			return 1;
	return 0;
}

char *
read_fd(int fd, size_t *lenp)
{
	char *buf = NULL;
	size_t len = 0, cap = 0;
	ssize_t r;
	int saved;

	for (;;) {
		if (len + 1 >= cap) {
			cap = cap ? cap * 2 : 4096;
			if ((buf = realloc(buf, cap)) == NULL)
				err(70, "realloc");
		}
		r = read(fd, buf + len, cap - len - 1);
		if (r == -1 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		len += (size_t)r;
	}
	if (r == -1) {
		saved = errno;
		free(buf);
		errno = saved;
		return NULL;
	}
	buf[len] = '\0';
	if (lenp != NULL)
		*lenp = len;
	return buf;
}

int
open_regular(const char *path)
{
	struct stat st;
	int fd, saved, fl;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK |
	    O_NOCTTY)) == -1)
		return -1;
	if (fstat(fd, &st) == -1 || !S_ISREG(st.st_mode)) {
		saved = fstat(fd, &st) == -1 ? errno :
		    S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
		close(fd);
		errno = saved;
		return -1;
	}
	/* a regular file never blocks: back to plain reads */
	if ((fl = fcntl(fd, F_GETFL)) != -1)
		(void)fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	return fd;
}

const char *
read_error(int e)
{
	if (e == EINVAL)
		return _("not a regular file");
	if (e == EFBIG)
		return _("too large to read whole");
	return i18n_strerror(e);
}

char *
read_file(const char *path, size_t *lenp)
{
	int fd, saved;
	struct stat st;
	char *buf;

	if ((fd = open_regular(path)) == -1)
		return NULL;
	if (fstat(fd, &st) == 0 && st.st_size > READ_FILE_MAX) {
		close(fd);
		errno = EFBIG;
		return NULL;
	}
	buf = read_fd(fd, lenp);
	saved = errno;
	close(fd);
	errno = saved;
	return buf;
}

char *
path_fold(char *path)
{
	char *base = path + (path[0] == '/'), *out = base, *p = base, *part,
	    *last, *end = path + strlen(path);
	size_t n;

	/* by END, not the NUL: a part written back ends in a '/' over it */
	while (p < end) {
		part = p;
		n = strcspn(p, "/");
		p += n + (p[n] == '/');
		if (n == 0 || (n == 1 && part[0] == '.'))
			continue;
		if (n == 2 && part[0] == '.' && part[1] == '.') {
			/* out ends in "NAME/": the start of that NAME */
			for (last = out > base ? out - 1 : out;
			    last > base && last[-1] != '/'; last--)
				;
			if (out > base && strncmp(last, "../", 3) != 0) {
				out = last;		/* NAME/.. : nothing */
				continue;
			}
			if (base > path)
				continue;		/* /.. is / */
		}
		memmove(out, part, n);
		out += n;
		*out++ = '/';
	}
	if (out > base)
		out--;		/* the last slash */
	else if (base == path)
		*out++ = '.';	/* nothing left of a relative path */
	*out = '\0';
	return path;
}

ssize_t
read_head(const char *path, char *buf, size_t size)
{
	ssize_t n;
	int fd, saved;

	if ((fd = open_regular(path)) == -1)
		return -1;
	n = read(fd, buf, size - 1);
	saved = errno;
	close(fd);
	errno = saved;
	if (n >= 0)
		buf[n] = '\0';
	return n;
}

int
mkdirs(const char *path, int mode)
{
	char *p = xstrdup(path), *s;
	struct stat st;
	int rc = 0, saved;

	for (s = p + 1; rc == 0; s++) {
		if (*s != '/' && *s != '\0')
			continue;
		char c = *s;

		*s = '\0';
		if (mkdir(p, (mode_t)mode) == -1 && errno != EEXIST)
			rc = -1;
		*s = c;
		if (c == '\0')
			break;
	}
	if (rc == 0 && stat(path, &st) == -1)
		rc = -1;
	else if (rc == 0 && !S_ISDIR(st.st_mode)) {
		errno = ENOTDIR;
		rc = -1;
	}
	saved = errno;
	free(p);
	errno = saved;
	return rc;
}

char *
shell_quote(const char *w)
{
	size_t i, n = 2;
	char *q, *p;

	if (*w != '\0' && strspn(w, "abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+=./,:@%^") == strlen(w))
		return xstrdup(w);
	for (i = 0; w[i] != '\0'; i++)
		n += w[i] == '\'' ? 4 : 1;
	p = q = xmalloc(n + 1);
	*p++ = '\'';
	for (i = 0; w[i] != '\0'; i++) {
		if (w[i] == '\'') {
			memcpy(p, "'\\''", 4);
			p += 4;
		} else
			*p++ = w[i];
	}
	*p++ = '\'';
	*p = '\0';
	return q;
}

char *
shell_join(char *const argv[])
{
	size_t len = 0, cap = 64, n;
	char *out = xmalloc(cap), *q;

	/* Appended at the end it keeps: a launch of 10,000 words is common. */
	for (; *argv != NULL; argv++) {
		q = shell_quote(*argv);
		n = strlen(q);
		if (len + n + 2 > cap) {
			while (len + n + 2 > cap)
				cap *= 2;
			out = xreallocarray(out, cap, 1);
		}
		if (len > 0)
			out[len++] = ' ';
		memcpy(out + len, q, n);
		len += n;
		free(q);
	}
	out[len] = '\0';
	return out;
}

char *
strv_join(char *const v[], const char *sep)
{
	size_t len = 1, seplen = strlen(sep);
	char *out, *p;

	for (char *const *s = v; s != NULL && *s != NULL; s++)
		len += strlen(*s) + seplen;
	p = out = xmalloc(len);
	*p = '\0';
	for (char *const *s = v; s != NULL && *s != NULL; s++) {
		if (s != v) {
			memcpy(p, sep, seplen);
			p += seplen;
		}
		memcpy(p, *s, strlen(*s) + 1);
		p += strlen(*s);
	}
	return out;
}

/*
 * Is the YAML key KEY the flag NAME, "_" read as "-"?  MindSpeed-MM
 * rebuilds its command line from gpt_args' keys, each a flag of its name.
 */
int
yaml_key_is_flag(const char *key, const char *name)
{
	for (name += strspn(name, "-"); *key != '\0'; key++, name++)
		if (*name != (*key == '_' ? '-' : *key))
			return 0;
	return *name == '\0';
}

int
ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && strcmp(s + n - m, suffix) == 0;
}

size_t
utf8_seq(const unsigned char *s)
{
	size_t n, i;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	for (i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	/* overlong forms, UTF-16 surrogates, beyond U+10FFFF */
	if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] > 0x9f) ||
	    (s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] > 0x8f))
		return 0;
	return n;
}

int
utf8_valid(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n;

	for (; *p != '\0'; p += n)
		if ((n = utf8_seq(p)) == 0)
			return 0;
	return 1;
}

int
text_width(const char *text)
{
	size_t len = strlen(text);
	mbstate_t st;
	wchar_t wc;
	int width = 0, w;

	memset(&st, 0, sizeof(st));
	while (len > 0) {
		size_t n = mbrtowc(&wc, text, len, &st);

		if (n == (size_t)-1 || n == (size_t)-2 || n == 0) {
			memset(&st, 0, sizeof(st));
			n = 1;
			w = 1;
		} else
			w = wcwidth(wc) < 0 ? 1 : wcwidth(wc);
		width += w;
		text += n;
		len -= n;
	}
	return width;
}

void
fput_cols(FILE *fp, const char *text, int width)
{
	int pad = abs(width) - text_width(text);

	if (width > 0)
		fprintf(fp, "%*s", pad > 0 ? pad : 0, "");
	fputs(text, fp);
	if (width < 0)
		fprintf(fp, "%*s", pad > 0 ? pad : 0, "");
}

int
name_numbered(const char *name, const char *prefix)
{
	size_t n = strlen(prefix);

	if (strncmp(name, prefix, n) != 0 || name[n] == '\0')
		return 0;
	for (name += n; *name != '\0'; name++)
		if (!isdigit((unsigned char)*name))
			return 0;
	return 1;
}
