/*
 * The CSV block scanner's wider classifiers, chosen at run time: the
 * build targets the baseline of its architecture (SSE2 on x86-64), while
 * most machines that hold a large cluster's profiles have AVX2, many
 * AVX-512 too, and classify a block in a quarter of the instructions.
 */
#ifndef MSPROF_SUMMARY_CSVSIMD_H
#define MSPROF_SUMMARY_CSVSIMD_H

#include <stdint.h>

/*
 * Classify the 64 bytes at P: one bit per byte for quotes, commas and
 * newlines, and the prefix XOR of the quotes (bit I set when an odd
 * number of quotes are at or before byte I).
 */
typedef void csv_classify_fn(const char *p, uint64_t *q, uint64_t *cm,
    uint64_t *nl, uint64_t *px);

enum csv_simd { CSV_SIMD_BASE, CSV_SIMD_AVX2, CSV_SIMD_AVX512 };

/* The classifier for LEVEL, NULL for the baseline or a CPU without it. */
csv_classify_fn	*csv_classifier(enum csv_simd level);
/* The widest level this CPU has. */
enum csv_simd	 csv_simd_best(void);

#endif
