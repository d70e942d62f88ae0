/*
 * The scripts a script runs, and the environment its commands get.
 * "bash X", "sh X" and "./X" (executable, and its #! line names a shell,
 * or it has none) run X in a shell of its own that starts with the exported
 * variables; "source X" and ". X" read X in the same shell.  A relative
 * path is resolved as the shell resolves it: from the directory the
 * command runs in, i.e. the directory msprof-exec runs in, moved by the
 * cd commands of the script while their operand is known (a cd to a
 * directory that is not there fails, as in the shell).  How deep and
 * how many scripts are followed is bounded.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sh.h"

enum how { SOURCE, SHELL, EXEC };

static const char *
base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s != NULL ? s + 1 : path;
}

static int
is_shell(const char *name)
{
	static const char *const shells[] = { "sh", "bash", "dash", "ksh",
	    "mksh", "ash", NULL };

	for (const char *const *s = shells; *s != NULL; s++)
		if (strcmp(*s, name) == 0)
			return 1;
	return 0;
}

/* The next blank-separated word of the #! line at *P (before E), or 0. */
static int
shebang_word(const char **p, const char *e, char *w, size_t size)
{
	const char *s = *p;
	size_t n;

	while (s < e && (*s == ' ' || *s == '\t' || *s == '\r'))
		s++;
	for (n = 0; s + n < e && strchr(" \t\r", s[n]) == NULL; n++)
		;
	*p = s + n;
	if (n == 0)
		return 0;
	n = n < size - 1 ? n : size - 1;
	memcpy(w, s, n);
	w[n] = '\0';
	return 1;
}

int
sh_is_shell_script(const char *text)
{
	const char *p = text + 2, *e;
	char w[256];

	if (strncmp(text, "#!", 2) != 0)
		return 1;
	e = p + strcspn(p, "\n");
	if (!shebang_word(&p, e, w, sizeof(w)))
		return 1;		/* "#!" alone: the shell reads it */
	if (strcmp(base_name(w), "env") == 0)
		while (shebang_word(&p, e, w, sizeof(w)) &&
		    (w[0] == '-' || sh_is_assign(w)))
			if (strcmp(w, "-u") == 0 || strcmp(w, "-C") == 0)
				shebang_word(&p, e, w, sizeof(w));
	return is_shell(base_name(w));
}

/* A regular file of a script's size; NULL otherwise. */
static char *
read_script(const char *path)
{
	struct stat st;
	char *text;
	int fd;

	if (stat(path, &st) == -1 || !S_ISREG(st.st_mode) ||
	    st.st_size > SH_MAX_SCRIPT)
		return NULL;
	if ((fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)) ==
	    -1)
		return NULL;
	text = read_fd(fd, NULL);
	close(fd);
	return text;
}

/* Where PATH is, as the shell would find it; NULL when not known. */
static char *
resolve(const struct sh *sh, const char *path)
{
	if (*path == '\0' || strpbrk(path, "$`\001") != NULL)
		return NULL;		/* (an unknown value, as written) */
	if (*path == '/')
		return xstrdup(path);
	return sh->cwd != NULL ? xasprintf("%s%s", sh->cwd, path) : NULL;
}

/* The script "bash [options] X" runs; NULL for -c, -s or none. */
static const char *
shell_operand(char *const argv[])
{
	static const char *const with_arg[] = { "-o", "+o", "-O", "+O",
	    "--rcfile", "--init-file", NULL };
	const char *a;

	for (size_t i = 1; (a = argv[i]) != NULL; i++) {
		if (strcmp(a, "--") == 0)
			return argv[i + 1];
		if (a[0] != '-' && a[0] != '+')
			return a;
		if (a[1] != '-' && strpbrk(a + 1, "cs") != NULL)
			return NULL;
		for (const char *const *w = with_arg; *w != NULL; w++)
			if (strcmp(a, *w) == 0 && argv[i + 1] != NULL) {
				i++;
				break;
			}
	}
	return NULL;
}

static int
names(const char *entry, const char *name, size_t n)
{
	return strncmp(entry, name, n) == 0 && entry[n] == '=';
}

/* Is NAME (N bytes) set by C's own environment at or after FROM? */
static int
set_by(const struct strv *env, size_t from, const char *name, size_t n)
{
	for (size_t i = from; i < env->n; i++)
		if (names(env->v[i], name, n))
			return 1;
	return 0;
}

/* A shell for the script PATH that C starts from SH. */
static void
child_init(struct sh *child, struct sh *sh, const struct sh_cmd *c,
    const char *path)
{
	struct sh_var *v;
	size_t n;

	memset(child, 0, sizeof(*child));
	sh_set(&child->vars, "BASH_SOURCE", 11, path, strlen(path), 1);
	child->run = sh->run;
	child->arg0 = xstrdup(path);
	child->cwd = xstrdup_null(sh->cwd);
	child->depth = sh->depth + 1;
	if (!c->clearenv)
		sh_vars_inherit(&child->vars, &sh->vars);
	for (size_t i = 0; i < c->unenv.n; i++)
		sh_unset(&child->vars, c->unenv.v[i]);
	for (size_t i = 0; i < c->env.n; i++) {
		const char *e = c->env.v[i];

		if ((n = sh_assign_len(e, strlen(e))) == 0 || e[n - 2] == '+')
			continue;
		v = sh_set(&child->vars, e, n - 1, e + n, strlen(e + n), 1);
		if (v == NULL)
			continue;
		v->exported = 1;
		v->known = !strv_has(&c->unknown, v->name);
	}
}

/* ". PATH" (found at FULL): BASH_SOURCE is PATH while it is read. */
static void
source(struct sh *sh, const char *path, const char *full, char *text)
{
	struct sh_var *v = sh_lookup(&sh->vars, "BASH_SOURCE", 11);
	char *outer = v != NULL && v->known ? xstrdup(v->value.s) : NULL;

	sh_set(&sh->vars, "BASH_SOURCE", 11, path, strlen(path), 1);
	sh->depth++;
	sh_run_text(sh, full, text);
	sh->depth--;
	if (outer != NULL)
		sh_set(&sh->vars, "BASH_SOURCE", 11, outer, strlen(outer), 1);
	else
		sh_unset(&sh->vars, "BASH_SOURCE");
	free(outer);
}

/* Read the script PATH that C runs (HOW). */
static void
run_script(struct sh *sh, const struct sh_cmd *c, const char *path,
    enum how how)
{
	char *full = NULL, *text = NULL;
	struct sh child;

	if (sh->depth >= SH_MAX_NESTING ||
	    sh->run->scripts >= SH_MAX_SCRIPTS ||
	    (full = resolve(sh, path)) == NULL ||
	    (how == EXEC && access(full, X_OK) == -1) ||
	    (text = read_script(full)) == NULL ||
	    (how == EXEC && !sh_is_shell_script(text))) {
		free(full);
		free(text);
		return;
	}
	sh->run->scripts++;
	if (how == SOURCE)
		source(sh, path, full, text);
	else {
		child_init(&child, sh, c, path);
		sh_run_text(&child, full, text);
		sh_free(&child);
	}
	free(full);
	free(text);
}

void
sh_follow(struct sh *sh, const struct sh_cmd *c)
{
	const char *a0 = c->argv[0], *x;

	if (strcmp(a0, "source") == 0 || strcmp(a0, ".") == 0) {
		if (c->argc > 1)
			run_script(sh, c, c->argv[1], SOURCE);
	} else if (is_shell(base_name(a0))) {
		if ((x = shell_operand(c->argv)) != NULL)
			run_script(sh, c, x, SHELL);
	} else if (strchr(a0, '/') != NULL)
		run_script(sh, c, a0, EXEC);
}

int
sh_is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/*
 * $PWD after a cd, as the shell keeps it, so that a script's export
 * PYTHONPATH=$PWD/src after it names the folder the launch will have:
 * sh->cwd is relative to this process's folder (the launch directory);
 * a cd to where the scan cannot follow leaves it unknown.
 */
static void
set_pwd(struct sh *sh)
{
	char *here = NULL, *pwd = NULL;
	size_t len;

	if (sh->cwd != NULL && sh->cwd[0] == '/')
		pwd = xstrdup(sh->cwd);
	else if (sh->cwd != NULL && (here = getcwd(NULL, 0)) != NULL)
		pwd = xasprintf("%s/%s", here, sh->cwd);
	free(here);
	if (pwd == NULL) {
		sh_setvar(sh, "PWD", 3, "$PWD", 4, 0);
		return;
	}
	len = strlen(pwd);
	while (len > 1 && pwd[len - 1] == '/')
		pwd[--len] = '\0';
	sh_setvar(sh, "PWD", 3, pwd, len, 1);
	free(pwd);
}

void
sh_cd(struct sh *sh, char *const w[], size_t n)
{
	struct sh_fb f = { .room = SH_MAX_VALUE };
	size_t i = 1;
	char *cwd = NULL;

	while (i < n && w[i][0] == '-' && w[i][1] != '\0')
		i++;			/* -L, -P */
	if (i < n && sh->cwd != NULL && strcmp(w[i], "-") != 0) {
		sh_expand(sh, w[i], w[i] + strlen(w[i]), 0, 0, &f);
		if (!f.unknown && f.cur.len > 0)
			cwd = f.cur.s[0] == '/' ? xasprintf("%s/", f.cur.s) :
			    xasprintf("%s%s/", sh->cwd, f.cur.s);
		free(f.cur.s);
		if (cwd != NULL && !sh_is_dir(cwd)) {
			free(cwd);	/* cd fails: the directory stays */
			return;
		}
	}
	/* where the script may not run it, the directory after it is a guess */
	if (sh_unsure(sh) && (cwd == NULL || sh->cwd == NULL ||
	    strcmp(cwd, sh->cwd) != 0))
		sh->cwd_unsure = 1;
	free(sh->cwd);
	sh->cwd = cwd;
	set_pwd(sh);
}

void
sh_environ(struct sh *sh, const struct sh_cmd *c, struct strv *out)
{
	const struct sh_var *v;
	char *s, *t;

	for (size_t i = 0; !c->clearenv && i < sh->vars.n; i++) {
		v = &sh->vars.v[i];
		if (!v->set || !v->exported || strv_has(&c->unenv, v->name) ||
		    set_by(&c->env, 0, v->name, strlen(v->name)))
			continue;
		s = xasprintf("%s=%s", v->name, v->value.s);
		strv_push(out, (t = sh_shown(s)));
		free(t);
		free(s);
	}
	for (size_t i = 0; i < c->env.n; i++) {
		const char *e = c->env.v[i];
		size_t n = strcspn(e, "=");

		if (set_by(&c->env, i + 1, e, n))
			continue;	/* the last one counts */
		s = sh_shown(e);
		strv_push(out, s);
		free(s);
	}
}
