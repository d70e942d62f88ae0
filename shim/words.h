/*
 * String work a word (8 bytes) at a time, for the shim's hot paths and its
 * constructor, where a call into the C library costs a symbol binding and,
 * in a child after fork, a page fault.  Written out, since the compiler
 * turns plain byte loops into calls of strlen or memcpy.
 *
 * A word is read only where it cannot fault: aligned (an aligned word
 * never crosses a page), or inside one page of the smallest size there is.
 * Such a read may take in bytes after a string's NUL; they never decide a
 * result.  AddressSanitizer would see them as overflows: the functions
 * that read that way opt out of it.
 */
#ifndef MSPROF_WORDS_H
#define MSPROF_WORDS_H

#include <stddef.h>
#include <stdint.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#define WORD_ONES	((uint64_t)0x0101010101010101)
#define WORD_HIGHS	((uint64_t)0x8080808080808080)
#define MIN_PAGE	4096

/* Does the word W have a zero byte?  (W ^ word_of(c)): a byte C. */
static inline int
word_has_zero(uint64_t w)
{
	return ((w - WORD_ONES) & ~w & WORD_HIGHS) != 0;
}

static inline uint64_t
word_of(unsigned char c)
{
	return WORD_ONES * c;
}

__attribute__((always_inline, no_sanitize_address)) static inline uint64_t
word_at(const char *p)
{
	uint64_t w;

	__builtin_memcpy(&w, p, 8);
	return w;
}

/* Bytes from P to the end of its page. */
static inline size_t
page_left(const char *p)
{
	return MIN_PAGE - ((uintptr_t)p & (MIN_PAGE - 1));
}

/* The length of S. */
__attribute__((no_sanitize_address)) static inline size_t
word_len(const char *s)
{
	const char *p = s;

	for (; ((uintptr_t)p & 7) != 0; p++)
		if (*p == '\0')
			return (size_t)(p - s);
	while (!word_has_zero(word_at(p)))
		p += 8;
	while (*p != '\0')
		p++;
	return (size_t)(p - s);
}

/*
 * Blocks of 16 bytes, for the one long copy (the constructor's): vectors
 * the compiler has on every target (SSE2 on x86-64, Advanced SIMD on
 * AArch64).  An aligned block, like an aligned word, never crosses a page.
 */
typedef unsigned char word_block __attribute__((vector_size(16)));

/* The index of the first NUL byte of B, or 16 if it has none. */
__attribute__((always_inline)) static inline unsigned
block_nul(word_block b)
{
	word_block zero = { 0 };
#if defined(__SSE2__)
	unsigned m = (unsigned)_mm_movemask_epi8((__m128i)(b == zero));

	return m != 0 ? (unsigned)__builtin_ctz(m) : 16;
#else
	typedef uint64_t halves __attribute__((vector_size(16)));
	halves z = (halves)(b == zero);

	if (z[0] != 0)
		return (unsigned)__builtin_ctzll(z[0]) / 8;
	return z[1] != 0 ? 8 + (unsigned)__builtin_ctzll(z[1]) / 8 : 16;
#endif
}

__attribute__((always_inline, no_sanitize_address)) static inline word_block
block_at(const char *p)
{
	word_block b;

	__builtin_memcpy(&b, p, 16);
	return b;
}

/*
 * Copy the string SRC with its NUL into DST if that fits in ROOM bytes:
 * its size then, else 0 (DST written to partly).  It copies whole
 * blocks, so DST may be written to after the NUL, within ROOM.
 */
__attribute__((no_sanitize_address)) static inline size_t
word_copy_str(char *dst, const char *src, size_t room)
{
	size_t i = 0;
	unsigned k;
	word_block b;

	/* The first block unaligned, where it cannot cross a page. */
	if (room >= 16 && page_left(src) >= 16) {
		b = block_at(src);
		__builtin_memcpy(dst, &b, 16);
		if ((k = block_nul(b)) < 16)
			return k + 1;
		i = 16 - ((uintptr_t)src & 15);
	}
	for (; i < room && ((uintptr_t)(src + i) & 15) != 0; i++)
		if ((dst[i] = src[i]) == '\0')
			return i + 1;
	for (; i + 16 <= room; i += 16) {
		b = block_at(src + i);
		__builtin_memcpy(dst + i, &b, 16);
		if ((k = block_nul(b)) < 16)
			return i + k + 1;
	}
	for (; i < room; i++)
		if ((dst[i] = src[i]) == '\0')
			return i + 1;
	return 0;
}

/*
 * Do the N bytes at A equal those at KNOWN, whose first N - 1 bytes are
 * not NUL?  If A is shorter, its NUL differs from KNOWN in the word that
 * holds it; a word of A that would cross a page is compared byte by byte.
 */
__attribute__((no_sanitize_address)) static inline int
word_same(const char *a, const char *known, size_t n)
{
	size_t i = 0, stop;

	for (;;) {
		stop = i + page_left(a + i);
		if (stop > n)
			stop = n;
		for (; i + 8 <= stop; i += 8)
			if (word_at(a + i) != word_at(known + i))
				return 0;
		if (stop == n)
			break;
		for (; i < stop; i++)	/* the last bytes of A's page */
			if (a[i] != known[i])
				return 0;
	}
	for (; i < n; i++)
		if (a[i] != known[i])
			return 0;
	return 1;
}

/*
 * Does S start with the literal LIT (8 to 16 bytes)?  Its bytes become
 * immediates in the code: a child after fork that runs this touches no
 * page of read-only data.  Only where a word of S would cross a page are
 * the literal's bytes read from memory.
 */
#define WORD_STARTS(s, lit)	word_starts(s, lit, sizeof(lit) - 1)

__attribute__((always_inline, no_sanitize_address)) static inline int
word_starts(const char *s, const char *lit, size_t n)
{
	size_t i;

	if (page_left(s) < 16) {
		for (i = 0; i < n; i++)
			if (s[i] != lit[i])
				return 0;
		return 1;
	}
	if (word_at(s) != word_at(lit))
		return 0;
#pragma GCC unroll 8
	for (i = 8; i < n; i++)
		if (s[i] != lit[i])
			return 0;
	return 1;
}

/* The first byte from P on that is NUL or C (aligned words). */
__attribute__((no_sanitize_address)) static inline const char *
word_find1(const char *p, unsigned char c)
{
	uint64_t w;

	for (; ((uintptr_t)p & 7) != 0; p++)
		if (*p == '\0' || *p == (char)c)
			return p;
	for (;; p += 8) {
		w = word_at(p);
		if (word_has_zero(w) || word_has_zero(w ^ word_of(c)))
			break;
	}
	while (*p != '\0' && *p != (char)c)
		p++;
	return p;
}

/* The first byte from P on that is NUL, C1 or C2 (aligned words). */
__attribute__((no_sanitize_address)) static inline const char *
word_find2(const char *p, unsigned char c1, unsigned char c2)
{
	uint64_t w;

	for (; ((uintptr_t)p & 7) != 0; p++)
		if (*p == '\0' || *p == (char)c1 || *p == (char)c2)
			return p;
	for (;; p += 8) {
		w = word_at(p);
		if (word_has_zero(w) || word_has_zero(w ^ word_of(c1)) ||
		    word_has_zero(w ^ word_of(c2)))
			break;
	}
	while (*p != '\0' && *p != (char)c1 && *p != (char)c2)
		p++;
	return p;
}

#endif
