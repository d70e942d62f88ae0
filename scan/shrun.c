/*
 * The interpreter of the shell reader: each simple command in turn.
 * Assignments and the builtins that change variables (export, local,
 * unset, read, for...) update the variables; every other command is
 * expanded and handed to the hook.  Reserved words (if, then, do...) are
 * skipped, so commands in conditionals and loops are read like any
 * other: both branches of an if, in order, a loop body once.
 */
#include <stdlib.h>
#include <string.h>

#include "sh.h"

static int
in_list(const char *const *list, const char *s)
{
	for (; *list != NULL; list++)
		if (strcmp(*list, s) == 0)
			return 1;
	return 0;
}

struct sh_var *
sh_setvar(struct sh *sh, const char *name, size_t n, const char *value,
    size_t len, int known)
{
	struct sh_var *v = sh_set(&sh->vars, name, n, value, len, known);

	if (v != NULL && sh->allexport)
		v->exported = 1;
	return v;
}

/*
 * In the value VAL of an assignment to NAME (N bytes), a reference to
 * NAME itself at the start ("$NAME...", "${NAME}...", quoted or not): the
 * rest of the value after it, with *DQ set when the rest starts inside
 * double quotes; NULL when the value does not start so.
 */
static const char *
self_ref(const char *name, size_t n, const char *val, int *dq)
{
	const char *p = val;

	*dq = *p == '"';
	p += *dq;
	if (*p++ != '$')
		return NULL;
	if (*p == '{')
		return strncmp(p + 1, name, n) == 0 && p[1 + n] == '}' ?
		    p + n + 2 : NULL;
	return strncmp(p, name, n) == 0 && !sh_is_name_char(p[n]) ?
	    p + n : NULL;
}

/*
 * NAME=value or NAME+=value.  "NAME=$NAME..." appends too: the value
 * already there is not copied again, so a script that grows a variable
 * line by line (ARGS="$ARGS --opt") reads in linear time.
 */
static void
assign(struct sh *sh, const char *w)
{
	size_t len = strlen(w), n = sh_assign_len(w, len);
	int append = w[n - 2] == '+', dq = 0;
	size_t namelen = n - 1 - (size_t)append;
	const char *val = w + n, *rest;
	struct sh_fb f = { .room = SH_MAX_VALUE };
	struct sh_var *old;

	if (!append && (rest = self_ref(w, namelen, val, &dq)) != NULL &&
	    sh_lookup(&sh->vars, w, namelen) != NULL) {
		val = rest;
		append = 1;
	}
	if (*val == '(')
		sh_put_unknown(&f, val, w + len);	/* an array */
	else
		sh_expand(sh, val, w + len, dq, 0, &f);
	/* (looked up after the expansion, which may add variables) */
	if (append && (old = sh_lookup(&sh->vars, w, namelen)) != NULL) {
		sh_append(old, f.cur.s != NULL ? f.cur.s : "", f.cur.len,
		    !f.unknown);
		old->exported |= sh->allexport;
	} else
		sh_setvar(sh, w, namelen, f.cur.s != NULL ? f.cur.s : "",
		    f.cur.len, !f.unknown);
	free(f.cur.s);
}

/* Names a command sets to what cannot be known (read, for, select). */
static void
set_unknown(struct sh *sh, const char *name)
{
	char *v;

	if (!sh_is_name_start(*name) || name[strspn(name,
	    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")]
	    != '\0')
		return;
	v = xasprintf("$%s", name);
	sh_setvar(sh, name, strlen(name), v, strlen(v), 0);
	free(v);
}

/*
 * export, local, readonly, declare, typeset: the assignments, and which
 * names are exported (export, declare -x).
 */
static void
declaration(struct sh *sh, char *const w[], size_t n)
{
	int x = w[0][0] == 'e';
	size_t i, len;

	for (i = 1; i < n; i++) {
		len = strcspn(w[i], "+=");
		if (w[i][0] == '-' && strchr(w[i], 'x') != NULL)
			x = 1;
		else if (sh_is_assign(w[i]))
			assign(sh, w[i]);
		else if (len == 0 || !sh_is_name_start(w[i][0]))
			continue;
		if (x && len > 0 && w[i][0] != '-')
			sh_export(&sh->vars, w[i], len);
	}
}

/* set -a, set +a, set -o allexport: export every assignment from then. */
static void
set_options(struct sh *sh, char *const w[], size_t n)
{
	for (size_t i = 1; i < n; i++) {
		if (strcmp(w[i], "--") == 0 || (w[i][0] != '-' &&
		    w[i][0] != '+'))
			return;
		if ((strcmp(w[i] + 1, "o") == 0) && i + 1 < n) {
			if (strcmp(w[++i], "allexport") == 0)
				sh->allexport = w[i - 1][0] == '-';
		} else if (strchr(w[i] + 1, 'a') != NULL)
			sh->allexport = w[i][0] == '-';
	}
}

/* Builtins that change variables: export, local, unset, read... */
static int
builtin(struct sh *sh, char *const w[], size_t n)
{
	static const char *const declare[] = { "export", "local", "readonly",
	    "declare", "typeset", NULL };
	static const char *const header[] = { "for", "select", "case",
	    "function", NULL };
	size_t i;

	if (in_list(header, w[0])) {
		if (strcmp(w[0], "function") != 0)	/* its { opens it */
			sh_block_open(sh, w[0][0] == 'c' ? 'c' : 'l');
		if (n > 1 && (strcmp(w[0], "for") == 0 ||
		    strcmp(w[0], "select") == 0))
			set_unknown(sh, w[1]);	/* the loop variable */
		if (n > 2 && strcmp(w[0], "for") == 0 && strcmp(w[2], "in") == 0)
			sh_loop_words(sh, w + 3, n - 3);
		return 1;
	}
	if (in_list(declare, w[0])) {
		declaration(sh, w, n);
		return 1;
	}
	if (strcmp(w[0], "cd") == 0 || strcmp(w[0], "pushd") == 0 ||
	    strcmp(w[0], "popd") == 0) {
		sh_cd(sh, w, w[0][0] == 'p' && w[0][1] == 'o' ? 0 : n);
		return 1;
	}
	if (strcmp(w[0], "set") == 0) {
		set_options(sh, w, n);
		return 1;
	}
	if (strcmp(w[0], "unset") == 0 || strcmp(w[0], "read") == 0) {
		for (i = 1; i < n; i++)
			if (w[0][0] == 'u')
				sh_unset(&sh->vars, w[i]);
			else if (w[i][0] != '-')
				set_unknown(sh, w[i]);
		return 1;
	}
	return 0;
}

/* env -u NAME: NAME leaves the environment given so far. */
static void
env_drop(struct sh_cmd *c, const char *name)
{
	struct strv keep = { 0 };
	size_t n = strlen(name);

	for (size_t i = 0; i < c->env.n; i++)
		if (strncmp(c->env.v[i], name, n) != 0 ||
		    c->env.v[i][n] != '=')
			strv_push(&keep, c->env.v[i]);
	strv_free(&c->env);
	c->env = keep;
	strv_push(&c->unenv, name);
}

/*
 * The index of the command word after exec, env, nohup, time and
 * NAME=value, with what they give the command's environment in C.
 */
static size_t
command_word(char *const v[], size_t n, struct sh_cmd *c)
{
	size_t k = 0;

	while (k < n) {
		if (sh_is_assign(v[k]))
			strv_push(&c->env, v[k++]);
		else if (strcmp(v[k], "nohup") == 0)
			k++;
		else if (strcmp(v[k], "time") == 0 ||
		    strcmp(v[k], "exec") == 0) {
			int exec = v[k++][0] == 'e';

			for (; k < n && v[k][0] == '-'; k++)
				k += exec && strcmp(v[k], "-a") == 0;
		} else if (strcmp(v[k], "env") == 0) {
			for (k++; k < n && (v[k][0] == '-' ||
			    sh_is_assign(v[k])); k++) {
				if (sh_is_assign(v[k]))
					strv_push(&c->env, v[k]);
				else if (strcmp(v[k], "-i") == 0 ||
				    strcmp(v[k], "-") == 0) {
					strv_free(&c->env);
					c->clearenv = 1;
				} else if (strcmp(v[k], "-u") == 0 && k + 1 < n)
					env_drop(c, v[++k]);
				else
					k += strcmp(v[k], "-C") == 0;
			}
		} else
			break;
	}
	return k < n ? k : n;
}

/*
 * Run a command that is not only assignments: expand its prefix
 * assignments (NPRE words, values for its environment) and its words,
 * and hand it to the hook.
 */
static void
command(struct sh *sh, char *const w[], size_t npre, size_t n, int line)
{
	struct strv fields = { 0 };
	struct sh_fb f = { .fields = &fields, .room = SH_MAX_COMMAND };
	struct sh_cmd c = { .file = sh->file, .line = line };
	size_t i, k, len;

	for (i = 0; i < npre; i++) {
		struct sh_fb v = { .room = SH_MAX_VALUE };

		len = sh_assign_len(w[i], strlen(w[i]));
		sh_expand(sh, w[i] + len, w[i] + strlen(w[i]), 0, 0, &v);
		strv_pushf(&c.env, "%.*s=%s", (int)(len - 1), w[i],
		    v.cur.s != NULL ? v.cur.s : "");
		if (v.unknown)
			strv_pushf(&c.unknown, "%.*s", (int)(len - 1), w[i]);
		free(v.cur.s);
	}
	for (i = npre; i < n; i++) {
		/* "$@" with no arguments is no word at all. */
		if (strcmp(w[i], "\"$@\"") == 0 ||
		    strcmp(w[i], "\"${@}\"") == 0)
			continue;
		sh_expand(sh, w[i], w[i] + strlen(w[i]), 0, 0, &f);
		sh_fb_end(&f);
	}
	free(f.cur.s);
	if ((k = command_word(fields.v, fields.n, &c)) < fields.n) {
		c.argv = fields.v + k;
		c.argc = fields.n - k;
		sh->run->hook(sh, &c, sh->run->arg);
		sh_follow(sh, &c);
	}
	strv_free(&c.env);
	strv_free(&c.unenv);
	strv_free(&c.unknown);
	strv_free(&fields);
}

static void
run_command(struct sh *sh, const struct strv *w, int line)
{
	static const char *const reserved[] = { "if", "then", "else", "elif",
	    "fi", "do", "done", "while", "until", "!", "{", "}", "esac", NULL };
	static const char *const opens[] = { "if", "while", "until", "{",
	    NULL };
	static const char *const closes[] = { "fi", "done", "esac", "}", NULL };
	static const char *const branches[] = { "then", "elif", "else", NULL };
	static const char *const headers[] = { "for", "select", "case", NULL };
	size_t i = 0, a;
	int test = 0, negate = 0;

	for (; i < w->n && in_list(reserved, w->v[i]); i++) {
		const char *r = w->v[i];

		if (in_list(opens, r))
			sh_block_open(sh, r[0] == 'i' ? 'i' : r[0] == '{' ?
			    '{' : 'l');
		else if (in_list(closes, r))
			sh_block_close(sh);
		else if (in_list(branches, r))
			sh_branch(sh, r);
		negate = test && strcmp(r, "!") == 0;
		test = strcmp(r, "if") == 0 || strcmp(r, "elif") == 0 ||
		    negate;
	}
	if (i == w->n)
		return;
	/* a branch not taken: only its blocks are counted */
	if (sh_dead(sh)) {
		if (in_list(headers, w->v[i]))
			sh_block_open(sh, w->v[i][0] == 'c' ? 'c' : 'l');
		return;
	}
	if (test)
		sh_condition(sh, w->v + i, w->n - i, negate);
	else if (sh->cond)
		sh_condition_list(sh);
	for (a = i; a < w->n && sh_is_assign(w->v[a]); a++)
		;
	if (a == w->n) {
		for (; i < a; i++)
			assign(sh, w->v[i]);
	} else if (a > i || !builtin(sh, w->v + i, w->n - i))
		command(sh, w->v + i, a - i, w->n - i, line);
}

/* CRLF line ends become LF; 1 if there were any. */
static int
crlf(char *s)
{
	char *d = s;
	int any = 0;

	for (; *s != '\0'; s++)
		if (*s != '\r' || (s[1] != '\n' && s[1] != '\0'))
			*d++ = *s;
		else
			any = 1;
	*d = '\0';
	return any;
}

void
sh_run_text(struct sh *sh, const char *file, char *text)
{
	struct sh_lexer lx;
	struct strv w = { 0 };
	const char *outer = sh->file;
	int line = 0, cond = sh->cond;

	if (crlf(text) && !sh->run->crlf++)
		sh->run->crlf_file = xstrdup(file);
	sh->file = file;
	sh_lexer_init(&lx, text, strlen(text));
	while (sh_next_command(&lx, &w, &line)) {
		sh->cond = cond || lx.andor;
		run_command(sh, &w, line);
		strv_free(&w);
	}
	strv_free(&w);
	sh_lexer_free(&lx);
	sh->file = outer;
	sh->cond = cond;
}

void
sh_init(struct sh *sh, struct sh_run *run, const char *arg0,
    char *const envp[])
{
	memset(sh, 0, sizeof(*sh));
	sh->run = run;
	sh->arg0 = xstrdup(arg0);
	sh->cwd = xstrdup("");
	sh_vars_import(&sh->vars, envp);
	sh_set(&sh->vars, "BASH_SOURCE", 11, arg0, strlen(arg0), 1);
}

void
sh_free(struct sh *sh)
{
	sh_vars_free(&sh->vars);
	free(sh->arg0);
	free(sh->cwd);
	memset(sh, 0, sizeof(*sh));
}
