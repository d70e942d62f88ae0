/* Directory entries read through symbolic links (see linkwalk.h). */
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "linkwalk.h"
#include "rankname.h"
#include "util.h"

/* What link NAME of DIRFD holds, or "?". */
static char *
link_target(int dirfd, const char *name)
{
	char buf[PATH_MAX];
	ssize_t n = readlinkat(dirfd, name, buf, sizeof(buf) - 1);

	if (n < 0)
		return xstrdup("?");
	buf[n] = '\0';
	return xstrdup(buf);
}

static enum entry_type
type_of(mode_t m)
{
	return S_ISDIR(m) ? ENTRY_DIR : S_ISREG(m) ? ENTRY_FILE : ENTRY_OTHER;
}

enum entry_type
entry_read(int dirfd, const char *name, const char *path,
    unsigned char d_type, int want_stat, struct entry *e)
{
	struct stat lst;
	char *to;
	int saved;

	memset(e, 0, sizeof(*e));
	if (!want_stat && (d_type == DT_DIR || d_type == DT_REG))
		return e->type = d_type == DT_DIR ? ENTRY_DIR : ENTRY_FILE;
	e->link = d_type == DT_LNK;
	if (fstatat(dirfd, name, &e->st, 0) == 0) {
		if (d_type == DT_UNKNOWN)
			e->link = fstatat(dirfd, name, &lst,
			    AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(lst.st_mode);
		return e->type = type_of(e->st.st_mode);
	}
	saved = errno;
	if (fstatat(dirfd, name, &lst, AT_SYMLINK_NOFOLLOW) < 0 ||
	    !S_ISLNK(lst.st_mode))
		return e->type = ENTRY_GONE;
	e->link = 1;
	to = e->target = link_target(dirfd, name);
	if (saved == ELOOP)
		e->why = xasprintf(_("%s: a symbolic link that loops (to %s): "
		    "not followed"), path, to);
	else if (saved == ENOENT || saved == ENOTDIR)
		e->why = xasprintf(_("%s: a symbolic link to %s, which does not "
		    "exist"), path, to);
	else
		e->why = xasprintf(_("%s: a symbolic link to %s, which cannot "
		    "be read: %s"), path, to, i18n_strerror(saved));
	return e->type = ENTRY_BROKEN;
}

void
entry_free(struct entry *e)
{
	free(e->why);
	free(e->target);
	e->why = e->target = NULL;
}

char *
loop_why(const char *path)
{
	return xasprintf(_("%s: a symbolic link back to a directory that "
	    "holds it (a loop): not followed"), path);
}

int
dirstack_has(const struct dirstack *s, const struct stat *st)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->dev[i] == st->st_dev && s->ino[i] == st->st_ino)
			return 1;
	return 0;
}

int
dirstack_push(struct dirstack *s, const char *path, const struct stat *st,
    char **why)
{
	if (dirstack_has(s, st)) {
		if (why != NULL)
			*why = loop_why(path);
		return -1;
	}
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 8;
		s->dev = xreallocarray(s->dev, s->cap, sizeof(*s->dev));
		s->ino = xreallocarray(s->ino, s->cap, sizeof(*s->ino));
	}
	s->dev[s->n] = st->st_dev;
	s->ino[s->n++] = st->st_ino;
	return 0;
}

void
dirstack_pop(struct dirstack *s)
{
	if (s->n > 0)
		s->n--;
}

void
dirstack_free(struct dirstack *s)
{
	free(s->dev);
	free(s->ino);
	memset(s, 0, sizeof(*s));
}

int
rankdir_path(const char *path, int link, char **real)
{
	char *r = NULL;
	int yes = ends_with(path, RANKDIR_SUFFIX);

	if (link && (r = realpath(path, NULL)) != NULL)
		yes = yes || ends_with(r, RANKDIR_SUFFIX);
	if (real != NULL)
		*real = r != NULL ? r : xstrdup(path);
	else
		free(r);
	return yes;
}

int
rankdir_link(const char *name, const struct entry *e)
{
	size_t n;

	if (ends_with(name, RANKDIR_SUFFIX))
		return 1;
	if (e->target == NULL)
		return 0;
	n = strlen(e->target);
	while (n > 1 && e->target[n - 1] == '/')
		n--;
	return n >= strlen(RANKDIR_SUFFIX) && strncmp(e->target + n -
	    strlen(RANKDIR_SUFFIX), RANKDIR_SUFFIX, strlen(RANKDIR_SUFFIX)) == 0;
}

int
path_holds(const char *real, const char *in)
{
	size_t n = strlen(real);

	if (n == 1 && real[0] == '/')
		return 1;
	return strncmp(in, real, n) == 0 && (in[n] == '/' || in[n] == '\0');
}
