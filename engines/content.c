/*
 * Reading an entry script for what it imports and calls (content.h).  A
 * line is read for what it starts with or contains, never parsed: the
 * rules look for the calls a training makes, which no inference,
 * evaluation, conversion or preprocessing script makes all of.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/util.h"
#include "content.h"

/* The torch packages: on an Ascend node each one loads torch_npu. */
static const char *const torch_packages[] = { "torch", "torch_npu",
    "transformers", "accelerate", "deepspeed", "lightning",
    "pytorch_lightning", "llamafactory", "mmengine", NULL };

/*
 * Training entry points of libraries: PACKAGE imported and CALL made (a
 * function's name, or with WHOLE 0 a method's, ".train").
 */
static const struct {
	const char	*package, *call;
	int		 whole;
} library_trainings[] = {
	{ "llamafactory", "run_exp", 1 },	/* LLaMA-Factory's train */
	{ "mmengine", ".train", 0 },		/* OpenMMLab: runner.train() */
};
#define NLIBRARY	(sizeof(library_trainings) / sizeof(library_trainings[0]))

/* The first CONTENT_READ_MAX bytes of PATH, NUL-terminated; NULL: errno. */
static char *
read_prefix(const char *path)
{
	char *text = xmalloc(CONTENT_READ_MAX + 1);
	size_t len = 0;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK), e;

	if (fd == -1) {
		free(text);
		return NULL;
	}
	while (len < CONTENT_READ_MAX &&
	    (n = read(fd, text + len, CONTENT_READ_MAX - len)) != 0) {
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1) {
			e = errno;
			close(fd);
			free(text);
			errno = e;
			return NULL;
		}
		len += (size_t)n;
	}
	close(fd);
	text[len] = '\0';
	return text;
}

static int
ident_char(char c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9');
}

/*
 * The modules the import line L names, each as a pointer to its dotted
 * name (ended by a character that is neither an identifier's nor '.'):
 * "import a.b, c as d" names a.b and c, "from a.b import x" names a.b.
 * Returns their number (at most MAX); 0 for any other line.
 */
static size_t
imported(const char *l, const char **mods, size_t max)
{
	size_t n = 0;
	int from = strncmp(l, "from ", 5) == 0;

	if (!from && strncmp(l, "import ", 7) != 0)
		return 0;
	l += from ? 5 : 7;
	for (;;) {
		l += strspn(l, " \t(");
		if (n < max && ident_char(*l))
			mods[n++] = l;
		if (from || (l = strchr(l, ',')) == NULL)
			return n;
		l++;
	}
}

/* Does the dotted name M (as imported() gives it) start with package PKG? */
static int
is_package(const char *m, const char *pkg)
{
	size_t n = strlen(pkg);

	return strncmp(m, pkg, n) == 0 && !ident_char(m[n]);
}

/* Does the line L import the package PKG? */
static int
imports(const char *l, const char *pkg)
{
	const char *mods[8];
	size_t n = imported(l, mods, 8);

	for (size_t i = 0; i < n; i++)
		if (is_package(mods[i], pkg))
			return 1;
	return 0;
}

/* A definition, not a call: "def f(", "class C(". */
static int
defines(const char *l)
{
	return strncmp(l, "def ", 4) == 0 || strncmp(l, "async def ", 10) == 0 ||
	    strncmp(l, "class ", 6) == 0;
}

/* Does the line L call NAME: NAME, then blanks and '('? */
static int
calls(const char *l, const char *name, int whole)
{
	size_t n = strlen(name);
	const char *p, *q;

	for (p = l; (p = strstr(p, name)) != NULL; p += n) {
		if (whole && p > l && ident_char(p[-1]))
			continue;
		q = p + n;
		q += strspn(q, " \t");
		if (*q == '(' && !ident_char(p[n]))
			return 1;
	}
	return 0;
}

/* A MindSpeed training loop: pretrain(...), x.train(...). */
static int
calls_training(const char *l)
{
	return !defines(l) && calls(l, "train", 0);
}

/*
 * Blank the contents of line L's strings and cut its comment (L is
 * modified), so that a call named in a message, a docstring or a comment
 * is not taken for one.  *OPEN is the quote of a triple-quoted string the
 * lines before left open ('\0': none); it is set for the next line.
 */
static void
code_only(char *l, char *open)
{
	char q = *open;
	int three = q != '\0';

	for (char *p = l; *p != '\0'; p++) {
		if (q == '\0' && *p == '#') {
			*p = '\0';
			break;
		}
		if (q == '\0' && (*p == '"' || *p == '\'')) {
			q = *p;
			three = p[1] == q && p[2] == q;
			p += three ? 2 : 0;
		} else if (q != '\0' && *p == q &&
		    (!three || (p[1] == q && p[2] == q))) {
			p += three ? 2 : 0;
			q = '\0';
		} else if (q != '\0') {
			if (*p == '\\' && p[1] != '\0')
				*p++ = ' ';
			*p = ' ';
		}
	}
	*open = three ? q : '\0';	/* a quote '...' ends with its line */
}

/* A library's training entry point: PACKAGE imported, CALL made. */
static void
library_facts(const char *l, struct entry_facts *f)
{
	for (size_t i = 0; i < NLIBRARY; i++) {
		if (imports(l, library_trainings[i].package))
			f->library |= 1u << i;
		if (calls(l, library_trainings[i].call,
		    library_trainings[i].whole))
			f->library_call |= 1u << i;
	}
}

/* The MindSpeed facts, and those of a torch training, of line L. */
static void
line_facts(const char *l, int entry, struct entry_facts *f)
{
	if (entry) {
		f->llm |= imports(l, "mindspeed_llm");
		f->mm |= imports(l, "mindspeed_mm");
		f->loop |= calls_training(l);
	}
	for (int i = 0; f->torch == NULL && torch_packages[i] != NULL; i++)
		if (imports(l, torch_packages[i]))
			f->torch = torch_packages[i];
	library_facts(l, f);
	if (defines(l))
		return;
	f->backward |= calls(l, ".backward", 0);
	f->step |= calls(l, ".step", 0);
	f->trainer |= calls(l, "Trainer", 0);
	f->fit |= calls(l, ".train", 0) || calls(l, ".fit", 0);
	f->ds_init |= calls(l, "deepspeed.initialize", 1);
}

/*
 * The file of module M (a dotted name as imported() gives it) in DIR:
 * DIR/a/b.py or DIR/a/b/__init__.py for a.b, else DIR/a.py; NULL when
 * none exists.  The caller frees it.
 */
static char *
module_file(const char *dir, const char *m)
{
	size_t n = strspn(m, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRST"
	    "UVWXYZ0123456789_."), first = strcspn(m, ".");
	char *name = xasprintf("%.*s", (int)n, m), *path;

	for (char *p = name; *p != '\0'; p++)
		if (*p == '.')
			*p = '/';
	path = xasprintf("%s/%s.py", dir, name);
	if (access(path, R_OK) != 0) {
		free(path);
		path = xasprintf("%s/%s/__init__.py", dir, name);
	}
	if (access(path, R_OK) != 0 && first < n) {
		free(path);
		path = xasprintf("%s/%.*s.py", dir, (int)first, m);
	}
	free(name);
	if (access(path, R_OK) == 0)
		return path;
	free(path);
	return NULL;
}

/*
 * Read TEXT (modified) into F; with FOLLOW, the modules of DIR it imports
 * go into FOLLOW (their paths, once each).
 */
static void
text_facts(char *text, int entry, const char *dir, struct strv *follow,
    struct entry_facts *f)
{
	char *line, *save = NULL, *path, open = '\0';
	const char *mods[8];
	size_t n;

	for (line = strtok_r(text, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		code_only(line, &open);
		line += strspn(line, " \t");
		if (*line == '\0')
			continue;
		line_facts(line, entry, f);
		n = follow != NULL ? imported(line, mods, 8) : 0;
		for (size_t i = 0; i < n && follow->n < CONTENT_FOLLOW_MAX; i++)
			if ((path = module_file(dir, mods[i])) != NULL) {
				if (!strv_has(follow, path))
					strv_push(follow, path);
				free(path);
			}
	}
}

int
entry_facts_read(const char *script, struct entry_facts *f)
{
	struct strv follow = { 0 };
	char *text = read_prefix(script), *dir;
	const char *slash = strrchr(script, '/');

	memset(f, 0, sizeof(*f));
	if (text == NULL)
		return -1;
	dir = slash == NULL ? xstrdup(".") : slash == script ? xstrdup("/") :
	    xstrndup(script, (size_t)(slash - script));
	text_facts(text, 1, dir, &follow, f);
	free(text);
	for (size_t i = 0; i < follow.n; i++)
		if (strcmp(follow.v[i], script) != 0 &&
		    (text = read_prefix(follow.v[i])) != NULL) {
			text_facts(text, 0, dir, NULL, f);
			f->followed++;
			free(text);
		}
	strv_free(&follow);
	free(dir);
	return 0;
}

int
entry_trains_torch(const struct entry_facts *f)
{
	return (f->backward && f->step) || (f->trainer && f->fit) ||
	    f->ds_init || (f->library & f->library_call) != 0;
}
