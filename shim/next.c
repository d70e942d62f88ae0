/*
 * dlsym(RTLD_NEXT) for the shim's constructor, cheaply in the usual case.
 *
 * Every process under the shim resolves its five real exec functions, and
 * five dlsym calls cost more than the rest of the shim's start together.
 * When the shim was preloaded, RTLD_NEXT searches the objects loaded at
 * start-up that come after it, in the loader's list: other preloads, the
 * program's libraries, the C library.  In the usual case no object between
 * the shim and libc.so.6 defines the name, and the answer is libc's
 * default version of it, which this file reads from libc's GNU hash table
 * as the loader would.  Whenever anything differs (the shim loaded with
 * dlopen, an object between that defines the name or has no GNU hash
 * table, a symbol that is not a plain function with one default version),
 * the name goes to dlsym itself.
 */
#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <stddef.h>
#include <stdint.h>

#include "next.h"
#include "words.h"

/*
 * glibc 2.34 moved dlsym into libc with a new version; bind the old one so
 * that a shim built here still loads where glibc is older (a missing
 * symbol version stops every program from starting).
 */
#if defined(__x86_64__)
__asm__(".symver dlsym,dlsym@GLIBC_2.2.5");
#elif defined(__aarch64__)
__asm__(".symver dlsym,dlsym@GLIBC_2.17");
#endif

/*
 * The loader's list of objects.  Weak: a strong reference would make the
 * linker record a dependency on the dynamic loader itself.
 */
extern struct r_debug _r_debug __attribute__((weak));

/* Our own dynamic section: it names our entry in the loader's list. */
extern ElfW(Dyn) _DYNAMIC[] __attribute__((visibility("hidden")));

#define WORD_BITS	(sizeof(ElfW(Addr)) * 8)
/* The same macros in both ELF classes. */
#define SYM_TYPE(info)	ELF64_ST_TYPE(info)
#define SYM_BIND(info)	ELF64_ST_BIND(info)

/* The tables of a loaded object that a lookup needs. */
struct object {
	ElfW(Addr)		 base;
	const ElfW(Sym)		*symtab;
	const char		*strtab;
	const ElfW(Half)	*versym;
	const uint32_t		*gnu_hash;
};

/*
 * The loader rewrites the addresses in a writable dynamic section to
 * absolute ones; a read-only one keeps offsets, which are below the base.
 */
static const void *
dyn_ptr(const struct link_map *l, ElfW(Addr) p)
{
	return (const void *)(p < l->l_addr ? p + l->l_addr : p);
}

static int
object_of(const struct link_map *l, struct object *o)
{
	const ElfW(Dyn) *d;

	*o = (struct object){ .base = l->l_addr };
	for (d = l->l_ld; d != NULL && d->d_tag != DT_NULL; d++) {
		switch (d->d_tag) {
		case DT_SYMTAB:
			o->symtab = dyn_ptr(l, d->d_un.d_ptr);
			break;
		case DT_STRTAB:
			o->strtab = dyn_ptr(l, d->d_un.d_ptr);
			break;
		case DT_VERSYM:
			o->versym = dyn_ptr(l, d->d_un.d_ptr);
			break;
		case DT_GNU_HASH:
			o->gnu_hash = dyn_ptr(l, d->d_un.d_ptr);
			break;
		}
	}
	return o->symtab != NULL && o->strtab != NULL && o->gnu_hash != NULL;
}

static int
str_eq(const char *a, const char *b)
{
	while (*a != '\0' && *a == *b)
		a++, b++;
	return *a == *b;
}

/* Is L the C library? */
static int
is_libc(const struct link_map *l)
{
	static const char libc[] = "/libc.so.6";
	const char *n = l->l_name;
	size_t len;

	if (n == NULL)
		return 0;
	len = word_len(n);
	return len >= sizeof(libc) - 1 &&
	    str_eq(n + len - (sizeof(libc) - 1), libc);
}

uint32_t
next_hash(const char *name)
{
	uint32_t h = 5381;

	for (; *name != '\0'; name++)
		h = h * 33 + (unsigned char)*name;
	return h;
}

enum found { NONE, PLAIN, OTHER };

/* A name to look up: its bytes with the NUL, and its GNU hash. */
struct name {
	const char	*s;
	size_t		 size;
	uint32_t	 hash;
};

/*
 * Look NAME up in O.  PLAIN: *SYM is the one definition dlsym would
 * return, a function with no version or one default version; OTHER: O
 * defines NAME some other way; NONE: not at all.  LIKELY: O is expected
 * to define it (libc), so the Bloom filter, which only rules names out,
 * is not read.  Inlined: it runs for five names in every process.
 */
__attribute__((always_inline)) static inline enum found
lookup(const struct object *o, const struct name *name, int likely,
    const ElfW(Sym) **sym)
{
	const uint32_t *ht = o->gnu_hash, *buckets, *chain;
	uint32_t nbuckets = ht[0], symoffset = ht[1], nbloom = ht[2];
	uint32_t shift = ht[3], i, h2;
	const ElfW(Addr) *bloom = (const ElfW(Addr) *)(ht + 4);
	const ElfW(Sym) *s, *versioned = NULL;
	int defined = 0, versions = 0, odd = 0;
	uint32_t h = name->hash;

	if (nbuckets == 0 || nbloom == 0)
		return NONE;
	if (!likely) {
		ElfW(Addr) word = bloom[(h / WORD_BITS) & (nbloom - 1)];
		ElfW(Addr) mask = ((ElfW(Addr))1 << (h % WORD_BITS)) |
		    ((ElfW(Addr))1 << ((h >> shift) % WORD_BITS));
		if ((word & mask) != mask)
			return NONE;
	}
	buckets = (const uint32_t *)(bloom + nbloom);
	chain = buckets + nbuckets;
	if ((i = buckets[h % nbuckets]) < symoffset)
		return NONE;
	for (;; i++) {
		h2 = chain[i - symoffset];
		s = &o->symtab[i];
		if ((h | 1) == (h2 | 1) &&
		    word_same(o->strtab + s->st_name, name->s, name->size) &&
		    (s->st_value != 0 || s->st_shndx != SHN_UNDEF)) {
			ElfW(Half) v = o->versym != NULL ? o->versym[i] : 0;

			defined = 1;
			if (SYM_TYPE(s->st_info) != STT_FUNC ||
			    (SYM_BIND(s->st_info) != STB_GLOBAL &&
			    SYM_BIND(s->st_info) != STB_WEAK) ||
			    s->st_value == 0 || s->st_shndx == SHN_UNDEF)
				odd = 1;
			else if ((v & 0x7fff) < 2 && !odd) {
				*sym = s;	/* unversioned: taken at once */
				return PLAIN;
			} else if ((v & 0x8000) == 0) {
				versions++;	/* a default (not hidden) one */
				versioned = s;
			}
		}
		if ((h2 & 1) != 0)
			break;
	}
	if (!defined)
		return NONE;
	if (odd || versions != 1)
		return OTHER;
	*sym = versioned;
	return PLAIN;
}

/*
 * The C library after the shim in the loader's list, with FIRST the
 * object that follows the shim.  NULL when the shim came after libc: it
 * was loaded with dlopen, and the objects after it are not searched by
 * RTLD_NEXT in the loader's order (nor read here past their names).
 */
static const struct link_map *
libc_after_us(const struct link_map **first)
{
	const struct link_map *l;

	if (&_r_debug == NULL)
		return NULL;
	for (l = _r_debug.r_map; l != NULL && l->l_ld != _DYNAMIC; l = l->l_next)
		;
	if (l == NULL)
		return NULL;
	*first = l->l_next;
	for (l = l->l_next; l != NULL; l = l->l_next)
		if (is_libc(l))
			return l;
	return NULL;
}

/* NAME from libc, if no object in [FIRST, LIBC) defines it; else NULL. */
static void *
from_libc(const struct link_map *first, const struct link_map *libc,
    const struct object *lo, const struct name *name)
{
	const struct link_map *l;
	const ElfW(Sym) *sym;
	struct object o;

	for (l = first; l != libc; l = l->l_next)
		if (!object_of(l, &o) || lookup(&o, name, 0, &sym) != NONE)
			return NULL;
	if (lookup(lo, name, 1, &sym) != PLAIN)
		return NULL;
	return (void *)(lo->base + sym->st_value);
}

void
next_symbols(const char *const names[], const struct next_key *keys,
    void *fns[], size_t n)
{
	const struct link_map *first = NULL, *libc = libc_after_us(&first);
	struct object lo;
	size_t i;

	if (libc != NULL && !object_of(libc, &lo))
		libc = NULL;
	for (i = 0; i < n; i++) {
		struct name nm = { names[i],
		    keys != NULL ? keys[i].size : word_len(names[i]) + 1,
		    keys != NULL ? keys[i].hash : next_hash(names[i]) };

		fns[i] = libc == NULL ? NULL : from_libc(first, libc, &lo, &nm);
		if (fns[i] == NULL)
			fns[i] = dlsym(RTLD_NEXT, names[i]);
	}
}
