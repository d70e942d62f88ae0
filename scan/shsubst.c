/*
 * Command substitutions the reader can evaluate without running
 * anything: the path idioms wrapper scripts use to find the scripts next
 * to them, such as
 *	$(dirname "$0")   $(basename "$0" .sh)   $(pwd)
 *	$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)   $(realpath "$0")
 * A substitution made only of cd, pwd, dirname, basename, realpath,
 * readlink -f and echo, with known words, is evaluated (cd only inside
 * it, as in the subshell it is); any other stays unknown.  Paths are
 * logical, as pwd prints them; the current directory is the one the
 * scan runs in, moved by the script's cd commands.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sh.h"

/* Remove "." and "x/.." components and repeated slashes of absolute P. */
static void
normalize(char *p)
{
	char *d = p, *s = p, *seg;
	size_t n;

	while (*s != '\0') {
		while (*s == '/')
			s++;
		seg = s;
		n = strcspn(s, "/");
		s += n;
		if (n == 0 || (n == 1 && seg[0] == '.'))
			continue;
		if (n == 2 && seg[0] == '.' && seg[1] == '.') {
			while (d > p && *--d != '/')
				;
			continue;
		}
		*d++ = '/';
		memmove(d, seg, n);
		d += n;
	}
	if (d == p)
		*d++ = '/';
	*d = '\0';
}

/* PATH from the directory CWD ("" the scan's, "x/" below it) as absolute. */
static char *
absolute(const char *cwd, const char *path)
{
	char *here, *p;

	if (*path == '/')
		p = xstrdup(path);
	else if (*cwd == '/')
		p = xasprintf("%s/%s", cwd, path);
	else if ((here = getcwd(NULL, 0)) == NULL)
		return NULL;
	else {
		p = xasprintf("%s/%s/%s", here, cwd, path);
		free(here);
	}
	normalize(p);
	return p;
}

/* dirname(1) and basename(1), on the text alone. */
static void
dir_name(const char *s, struct buf *out)
{
	size_t n = strlen(s);

	while (n > 1 && s[n - 1] == '/')
		n--;
	while (n > 0 && s[n - 1] != '/')
		n--;
	while (n > 1 && s[n - 1] == '/')
		n--;
	if (n == 0)
		buf_add(out, ".", 1);
	else
		buf_add(out, s, n);
}

static void
base_name(const char *s, const char *suffix, struct buf *out)
{
	size_t n = strlen(s), b, sl;

	while (n > 1 && s[n - 1] == '/')
		n--;
	for (b = n; b > 0 && s[b - 1] != '/'; b--)
		;
	if (b == n && n > 0)		/* "/" */
		b = n - 1;
	sl = suffix != NULL ? strlen(suffix) : 0;
	if (sl > 0 && sl < n - b && strncmp(s + n - sl, suffix, sl) == 0)
		n -= sl;
	buf_add(out, s + b, n - b);
}

/* One command of the substitution; 0 when it cannot be evaluated. */
static int
run_one(char **cwd, char *const w[], size_t n, struct buf *out)
{
	const char *a0 = w[0];
	char *p, *q;

	if (strcmp(a0, "cd") == 0 && n == 2) {
		p = *w[1] == '/' ? xasprintf("%s/", w[1]) :
		    xasprintf("%s%s/", *cwd, w[1]);
		if (!sh_is_dir(p)) {
			free(p);	/* (what follows may depend on it) */
			return 0;
		}
		free(*cwd);
		*cwd = p;
	} else if (strcmp(a0, "pwd") == 0 && (n == 1 || (n == 2 &&
	    strcmp(w[1], "-L") == 0))) {
		if ((p = absolute(*cwd, ".")) == NULL)
			return 0;
		buf_add(out, p, strlen(p));
		free(p);
	} else if (strcmp(a0, "dirname") == 0 && n == 2)
		dir_name(w[1], out);
	else if (strcmp(a0, "basename") == 0 && (n == 2 || n == 3))
		base_name(w[1], n == 3 ? w[2] : NULL, out);
	else if ((strcmp(a0, "realpath") == 0 && n == 2) ||
	    (strcmp(a0, "readlink") == 0 && n == 3 &&
	    strcmp(w[1], "-f") == 0)) {
		if ((p = absolute(*cwd, w[n - 1])) == NULL)
			return 0;
		if ((q = realpath(p, NULL)) != NULL) {	/* symlinks resolved */
			free(p);
			p = q;
		}
		buf_add(out, p, strlen(p));
		free(p);
	} else if (strcmp(a0, "echo") == 0 && (n == 1 || w[1][0] != '-')) {
		for (size_t i = 1; i < n; i++) {
			if (i > 1)
				buf_add(out, " ", 1);
			buf_add(out, w[i], strlen(w[i]));
		}
	} else
		return 0;
	if (strcmp(a0, "cd") != 0)
		buf_add(out, "\n", 1);
	return 1;
}

/* Expand the words of one command of the substitution; 0 if unknown. */
static int
words(struct sh *sh, const struct strv *raw, int depth, struct strv *w)
{
	struct sh_fb f = { .fields = w, .room = SH_MAX_VALUE };

	for (size_t i = 0; i < raw->n; i++) {
		sh_expand(sh, raw->v[i], raw->v[i] + strlen(raw->v[i]), 0,
		    depth, &f);
		sh_fb_end(&f);
	}
	free(f.cur.s);
	return !f.unknown && w->n > 0;
}

int
sh_subst(struct sh *sh, const char *s, const char *e, int depth,
    struct buf *out)
{
	char *text = xstrndup(s, (size_t)(e - s)), *cwd;
	struct sh_lexer lx;
	struct strv raw = { 0 }, w = { 0 };
	int line, ok = sh->cwd != NULL;

	cwd = xstrdup_null(sh->cwd);
	sh_lexer_init(&lx, text, strlen(text));
	while (ok && sh_next_command(&lx, &raw, &line)) {
		if (raw.n > 0)
			ok = words(sh, &raw, depth, &w) &&
			    run_one(&cwd, w.v, w.n, out);
		strv_free(&raw);
		strv_free(&w);
	}
	strv_free(&raw);
	sh_lexer_free(&lx);
	free(cwd);
	free(text);
	while (ok && out->len > 0 && out->s[out->len - 1] == '\n')
		out->s[--out->len] = '\0';
	return ok;
}
