/* The CSV block scanner's AVX2 and AVX-512 classifiers (x86-64 only). */
#include <stddef.h>

#include "csvsimd.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

/* The prefix XOR in one carry-less multiply by all ones. */
#define PREFIX_XOR(q)	((uint64_t)_mm_cvtsi128_si64(_mm_clmulepi64_si128( \
	_mm_set_epi64x(0, (long long)(q)), _mm_set1_epi8((char)0xff), 0)))

__attribute__((target("avx2,pclmul")))
static void
classify_avx2(const char *p, uint64_t *q, uint64_t *cm, uint64_t *nl,
    uint64_t *px)
{
	const __m256i bq = _mm256_set1_epi8('"'), bc = _mm256_set1_epi8(','),
	    bn = _mm256_set1_epi8('\n');
	__m256i lo = _mm256_loadu_si256((const __m256i *)p),
	    hi = _mm256_loadu_si256((const __m256i *)(p + 32));

#define MASK(b)	((uint64_t)(uint32_t)_mm256_movemask_epi8( \
	_mm256_cmpeq_epi8(lo, b)) | \
	(uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(hi, b)) << 32)
	*q = MASK(bq);
	*cm = MASK(bc);
	*nl = MASK(bn);
#undef MASK
	*px = PREFIX_XOR(*q);
}

__attribute__((target("avx512f,avx512bw,pclmul")))
static void
classify_avx512(const char *p, uint64_t *q, uint64_t *cm, uint64_t *nl,
    uint64_t *px)
{
	__m512i w = _mm512_loadu_si512((const void *)p);

	*q = _mm512_cmpeq_epi8_mask(w, _mm512_set1_epi8('"'));
	*cm = _mm512_cmpeq_epi8_mask(w, _mm512_set1_epi8(','));
	*nl = _mm512_cmpeq_epi8_mask(w, _mm512_set1_epi8('\n'));
	*px = PREFIX_XOR(*q);
}

csv_classify_fn *
csv_classifier(enum csv_simd level)
{
	__builtin_cpu_init();
	if (!__builtin_cpu_supports("pclmul"))
		return NULL;
	if (level == CSV_SIMD_AVX512 && __builtin_cpu_supports("avx512f") &&
	    __builtin_cpu_supports("avx512bw"))
		return classify_avx512;
	if (level == CSV_SIMD_AVX2 && __builtin_cpu_supports("avx2"))
		return classify_avx2;
	return NULL;
}
#else
csv_classify_fn *
csv_classifier(enum csv_simd level)
{
	(void)level;
	return NULL;
}
#endif

enum csv_simd
csv_simd_best(void)
{
	if (csv_classifier(CSV_SIMD_AVX512) != NULL)
		return CSV_SIMD_AVX512;
	return csv_classifier(CSV_SIMD_AVX2) != NULL ? CSV_SIMD_AVX2 :
	    CSV_SIMD_BASE;
}
