/*
 * Shell variables: a table in the order the names appeared, indexed by a
 * hash of the name (open addressing, linear probing), so that a script
 * with thousands of variables reads in linear time.  Unsetting a name
 * keeps it in the table, so the index never needs deleting.
 */
#include <stdlib.h>
#include <string.h>

#include "sh.h"

/* FNV-1a. */
static uint32_t
name_hash(const char *s, size_t n)
{
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

/* The index slot of NAME: its entry, or the empty slot where it goes. */
static size_t
slot_of(const struct sh_vars *t, const char *name, size_t n, uint32_t h)
{
	size_t mask = t->icap - 1, i = h & mask;
	const struct sh_var *v;

	for (; t->index[i] != 0; i = (i + 1) & mask) {
		v = &t->v[t->index[i] - 1];
		if (v->hash == h && strncmp(v->name, name, n) == 0 &&
		    v->name[n] == '\0')
			break;
	}
	return i;
}

/* Twice the size, every entry placed again. */
static void
grow_index(struct sh_vars *t)
{
	t->icap = t->icap ? t->icap * 2 : 256;
	free(t->index);
	t->index = xcalloc(t->icap, sizeof(*t->index));
	for (size_t k = 0; k < t->n; k++) {
		size_t mask = t->icap - 1, i = t->v[k].hash & mask;

		while (t->index[i] != 0)
			i = (i + 1) & mask;
		t->index[i] = (uint32_t)k + 1;
	}
}

static struct sh_var *
find(const struct sh_vars *t, const char *name, size_t n)
{
	size_t i;

	if (t->icap == 0)
		return NULL;
	i = slot_of(t, name, n, name_hash(name, n));
	return t->index[i] != 0 ? &t->v[t->index[i] - 1] : NULL;
}

/* The entry of NAME, made (unset) if it is new; NULL when full. */
static struct sh_var *
entry(struct sh_vars *t, const char *name, size_t n)
{
	uint32_t h = name_hash(name, n);
	struct sh_var *v;
	size_t i;

	if ((v = find(t, name, n)) != NULL)
		return v;
	if (t->n == SH_MAX_VARS) {
		t->full = 1;
		return NULL;
	}
	if (t->n == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 64;
		t->v = xreallocarray(t->v, t->cap, sizeof(*t->v));
	}
	if ((t->n + 1) * 2 > t->icap)
		grow_index(t);
	v = &t->v[t->n];
	memset(v, 0, sizeof(*v));
	v->name = xstrndup(name, n);
	v->hash = h;
	i = slot_of(t, name, n, h);
	t->index[i] = (uint32_t)++t->n;
	return v;
}

struct sh_var *
sh_lookup(struct sh_vars *t, const char *name, size_t n)
{
	struct sh_var *v = find(t, name, n);

	return v != NULL && v->set ? v : NULL;
}

struct sh_var *
sh_set(struct sh_vars *t, const char *name, size_t n, const char *value,
    size_t len, int known)
{
	struct sh_var *v = entry(t, name, n);

	if (v == NULL)
		return NULL;
	v->set = 1;
	v->known = 1;
	v->value.len = 0;
	sh_append(v, value, len, known);
	return v;
}

void
sh_append(struct sh_var *v, const char *value, size_t len, int known)
{
	size_t room = SH_MAX_VALUE - v->value.len;

	if (len > room) {
		len = room;
		known = 0;
	}
	buf_add(&v->value, value, len);
	v->known = v->known && known;
}

void
sh_unset(struct sh_vars *t, const char *name)
{
	struct sh_var *v = find(t, name, strlen(name));

	if (v == NULL)
		return;
	v->set = v->exported = 0;
	v->known = 1;
	v->value.len = 0;
	if (v->value.s != NULL)
		v->value.s[0] = '\0';
}

void
sh_export(struct sh_vars *t, const char *name, size_t n)
{
	struct sh_var *v = entry(t, name, n);

	if (v != NULL)
		v->exported = 1;
}

void
sh_vars_import(struct sh_vars *t, char *const envp[])
{
	struct sh_var *v;
	size_t n;

	for (; envp != NULL && *envp != NULL; envp++)
		if ((n = sh_assign_len(*envp, strlen(*envp))) > 0 &&
		    (*envp)[n - 2] != '+' && (v = sh_set(t, *envp, n - 1,
		    *envp + n, strlen(*envp + n), 1)) != NULL)
			v->exported = 1;
}

void
sh_vars_inherit(struct sh_vars *to, const struct sh_vars *from)
{
	const struct sh_var *f;
	struct sh_var *v;

	for (size_t i = 0; i < from->n; i++) {
		f = &from->v[i];
		if (!f->set || !f->exported)
			continue;
		v = sh_set(to, f->name, strlen(f->name), f->value.s,
		    f->value.len, f->known);
		if (v != NULL)
			v->exported = 1;
	}
	to->full = from->full;
}

void
sh_vars_free(struct sh_vars *t)
{
	for (size_t i = 0; i < t->n; i++) {
		free(t->v[i].name);
		free(t->v[i].value.s);
	}
	free(t->v);
	free(t->index);
	memset(t, 0, sizeof(*t));
}
