/*
 * Decide whether an exec starts a training launcher.  Everything here runs
 * in the exec path of the shim: only reads, no allocation, no locks.
 */
#include <stddef.h>

#include "contract.h"
#include "match.h"
#include "words.h"

static size_t
str_len(const char *s)
{
	size_t n = 0;

	while (s[n] != '\0')
		n++;
	return n;
}

static int
mem_eq(const char *a, const char *b, size_t n)
{
	while (n-- > 0)
		if (*a++ != *b++)
			return 0;
	return 1;
}

const char *
path_base(const char *path)
{
	const char *base = path;

	for (; *path != '\0'; path++)
		if (*path == '/')
			base = path + 1;
	return base;
}

static int
has_slash(const char *s, size_t n)
{
	while (n-- > 0)
		if (*s++ == '/')
			return 1;
	return 0;
}

/*
 * Does a path component of NAME start with the ILEN bytes of ITEM (which
 * has a '/'), the rest of NAME after them being in the last component?
 * "tasks/train" then matches "/repo/tasks/train_x.py".
 */
static int
tail_matches(const char *item, size_t ilen, const char *name)
{
	const char *p;

	for (p = name; *p != '\0'; p++) {
		if (p != name && p[-1] != '/')
			continue;
		if (str_len(p) >= ilen && mem_eq(item, p, ilen) &&
		    !has_slash(p + ilen, str_len(p + ilen)))
			return 1;
	}
	return 0;
}

/*
 * Compare one table item with NAME.  Module names are compared whole;
 * other names as paths: an item with a '/' must end the path at a
 * component boundary, one without must equal the last component, a
 * final '*' matches the rest of the last component (of a module:
 * anything), and a first '*' of an item without a '/' its start ("*.py").
 */
static int
item_matches(const char *item, size_t ilen, const char *name, int whole)
{
	size_t nlen;
	const char *tail;

	if (ilen == 0)
		return 0;
	if (!whole && !has_slash(item, ilen))
		name = path_base(name);
	nlen = str_len(name);
	if (item[ilen - 1] == '*' && (whole || !has_slash(item, ilen)))
		return nlen >= ilen - 1 && mem_eq(item, name, ilen - 1);
	if (item[ilen - 1] == '*')
		return tail_matches(item, ilen - 1, name);
	if (item[0] == '*' && !whole && !has_slash(item, ilen))
		return nlen >= ilen - 1 &&
		    mem_eq(item + 1, name + nlen - (ilen - 1), ilen - 1);
	if (whole || !has_slash(item, ilen))
		return nlen == ilen && mem_eq(item, name, ilen);
	if (nlen < ilen)
		return 0;
	tail = name + nlen - ilen;
	return mem_eq(item, tail, ilen) && (tail == name || tail[-1] == '/');
}

int
table_find(const char *table, const char *key, const char *name)
{
	size_t klen = str_len(key);
	int index = 0;
	int whole = (klen == sizeof(MATCH_KEY_MODULE) - 1 &&
	    mem_eq(key, MATCH_KEY_MODULE, klen)) ||
	    (klen == sizeof(MATCH_KEY_ENTRY_MODULE) - 1 &&
	    mem_eq(key, MATCH_KEY_ENTRY_MODULE, klen));
	const char *p = table, *item;

	if (table == NULL || name == NULL)
		return -1;
	while (*p != '\0') {
		int ours = mem_eq(p, key, klen) && p[klen] == '=';

		while (*p != '\0' && *p != '=' && *p != ';')
			p++;
		if (*p == '=')
			p++;
		for (;;) {
			item = p;
			while (*p != '\0' && *p != ',' && *p != ';')
				p++;
			if (ours && item_matches(item, (size_t)(p - item), name,
			    whole))
				return index;
			index += ours;
			if (*p != ',')
				break;
			p++;
		}
		if (*p == ';')
			p++;
	}
	return -1;
}

int
table_has(const char *table, const char *key, const char *name)
{
	return table_find(table, key, name) >= 0;
}

/*
 * Walk CPython's own options (getopt string "bBc:dEhiIJm:OPqRsStuvVW:xX:?"
 * plus --check-hash-based-pycs VALUE) to the module or script operand.
 * Returns the operand, sets *next to the index after it and *module when
 * it came from -m; NULL for -c, -, --help and the like.
 */
static const char *
python_operand(char *const argv[], int *next, int *module)
{
	int i, j;
	const char *a;

	*module = 0;
	for (i = 1; (a = argv[i]) != NULL; i++) {
		if (a[0] != '-') {
			*next = i + 1;
			return a;
		}
		if (a[1] == '\0')
			return NULL;			/* "-": stdin */
		if (a[1] == '-') {
			if (a[2] == '\0') {
				*next = i + 2;
				return argv[i + 1];
			}
			if (mem_eq(a, "--check-hash-based-pycs", 24))
				i++;			/* value follows */
			else if (!mem_eq(a, "--check-hash-based-pycs=", 24))
				return NULL;		/* --help, --version */
			if (argv[i] == NULL)
				return NULL;
			continue;
		}
		for (j = 1; a[j] != '\0'; j++) {
			char c = a[j];

			if (c == 'c')
				return NULL;
			if (c != 'm' && c != 'W' && c != 'X')
				continue;
			if (a[j + 1] == '\0' && argv[++i] == NULL)
				return NULL;
			if (c == 'm') {
				*module = 1;
				*next = i + 1;
				return a[j + 1] != '\0' ? a + j + 1 : argv[i];
			}
			break;				/* -W/-X value */
		}
	}
	return NULL;
}

enum launch_kind
match_launch(const char *table, const char *path, char *const argv[],
    struct launch_match *m)
{
	int module = 0;

	m->kind = LAUNCH_NONE;
	m->operand = NULL;
	m->next = 1;
	if (table == NULL || path == NULL)
		return LAUNCH_NONE;
	if (table_has(table, MATCH_KEY_LAUNCHER, path))
		return m->kind = LAUNCH_LAUNCHER;
	if (table_has(table, MATCH_KEY_CONSOLE, path))
		return m->kind = LAUNCH_CONSOLE;
	if (argv == NULL || argv[0] == NULL ||
	    !table_has(table, MATCH_KEY_PYTHON, path))
		return LAUNCH_NONE;
	m->operand = python_operand(argv, &m->next, &module);
	if (m->operand == NULL)
		return LAUNCH_NONE;
	if (module && table_has(table, MATCH_KEY_MODULE, m->operand))
		m->kind = LAUNCH_PY_MODULE;
	else if (module)	/* a launcher's row wins over "entry-module *" */
		m->kind = table_has(table, MATCH_KEY_ENTRY_MODULE, m->operand) ?
		    LAUNCH_PY_ENTRY_MODULE : LAUNCH_NONE;
	else if (table_has(table, MATCH_KEY_LAUNCHER, m->operand) ||
	    table_has(table, MATCH_KEY_ENTRY, m->operand) ||
	    table_has(table, MATCH_KEY_CONSOLE, m->operand))
		m->kind = LAUNCH_PY_SCRIPT;
	return m->kind;
}

/* The bit of the filter's pair set for a name starting with C0, C1. */
#define FILTER_PAIR(c0, c1)	(((unsigned)(c0) * 31u + (unsigned)(c1)) & 255u)
#define BIT_SET(set, b)		((set)[(b) >> 6] |= (uint64_t)1 << ((b) & 63))
#define BIT_HAS(set, b)		(((set)[(b) >> 6] >> ((b) & 63)) & 1)

/*
 * Let through every name an item could match, given the N bytes of its
 * last component LAST (an empty item matches nothing: not called).
 */
static void
filter_item(struct launch_filter *f, const unsigned char *last, size_t n)
{
	int star = n > 0 && last[n - 1] == '*';

	n -= (size_t)star;
	if (n == 0 || last[0] == '*')
		f->all = 1;	/* "*", "dir/" with or without a star, "*x" */
	else if (n == 1 && star)
		BIT_SET(f->first, last[0]);
	else
		BIT_SET(f->pair, FILTER_PAIR(last[0], n > 1 ? last[1] : 0));
}

/* Does the segment at P have the key KEY (KLEN bytes)? */
static int
key_is(const char *p, const char *key, size_t klen)
{
	return mem_eq(p, key, klen) && p[klen] == '=';
}

#define KEY_IS(p, key)	key_is(p, key, sizeof(key) - 1)

/* The value of the hex digit C as filter_write() writes it, or -1. */
static int
hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/*
 * Read into F (zeroed) the items at P of a "filter" segment; -1 when one
 * is not as filter_write() writes it.
 */
static int
filter_read(struct launch_filter *f, const char *p)
{
	int hi, lo;

	for (;; p++) {
		if (*p == '*') {
			f->all = 1;
			p++;
		} else if (*p == 'f' || *p == 'p') {
			if ((hi = hex_value(p[1])) < 0 || (lo = hex_value(p[2])) < 0)
				return -1;
			BIT_SET(*p == 'f' ? f->first : f->pair,
			    (unsigned)(hi << 4 | lo));
			p += 3;
		}
		if (*p != ',')
			return *p == '\0' || *p == ';' ? 0 : -1;
	}
}

void
filter_build(struct launch_filter *f, const char *table)
{
	const char *p, *item, *last;

	*f = (struct launch_filter){ 0 };
	if (table == NULL)
		return;
	if (KEY_IS(table, MATCH_KEY_FILTER)) {
		if (filter_read(f, table + sizeof(MATCH_KEY_FILTER)) == 0)
			return;
		*f = (struct launch_filter){ 0 };	/* not ours: build it */
	}
	for (p = table; *p != '\0'; ) {
		if (!KEY_IS(p, MATCH_KEY_LAUNCHER) &&
		    !KEY_IS(p, MATCH_KEY_CONSOLE) && !KEY_IS(p, MATCH_KEY_PYTHON)) {
			p = word_find1(p, ';');	/* skip it */
		} else {
			while (*p != '=')
				p++;
			do {
				item = last = ++p;
				for (; *p != '\0' && *p != ',' && *p != ';'; p++)
					if (*p == '/')
						last = p + 1;
				if (p > item)
					filter_item(f, (const unsigned char *)last,
					    (size_t)(p - last));
			} while (*p == ',');
		}
		if (*p == ';')
			p++;
	}
}

static char *
put_bit(char *o, char kind, unsigned b)
{
	static const char hex[] = "0123456789abcdef";

	if (o[-1] != '=')
		*o++ = ',';
	*o++ = kind;
	*o++ = hex[b >> 4];
	*o++ = hex[b & 15];
	return o;
}

size_t
filter_write(const struct launch_filter *f, char *buf)
{
	const char *k = MATCH_KEY_FILTER "=";
	char *o = buf;

	while (*k != '\0')
		*o++ = *k++;
	if (f->all)
		*o++ = '*';
	for (unsigned b = 0; b < 256; b++) {
		if (BIT_HAS(f->first, b))
			o = put_bit(o, 'f', b);
		if (BIT_HAS(f->pair, b))
			o = put_bit(o, 'p', b);
	}
	*o = '\0';
	return (size_t)(o - buf);
}

__attribute__((hot)) int
filter_pass(const struct launch_filter *f, const char *path)
{
	const unsigned char *p = (const unsigned char *)path, *base = p;

	for (; *p != '\0'; p++)
		if (*p == '/')
			base = p + 1;
	return f->all || BIT_HAS(f->first, base[0]) ||
	    BIT_HAS(f->pair, FILTER_PAIR(base[0], base[0] != 0 ? base[1] : 0));
}
