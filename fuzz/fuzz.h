/*
 * What the fuzz targets share: the repository's launch table, a private
 * scratch directory, splitting an input into strings, fixed plans.
 *
 * Each target defines LLVMFuzzerTestOneInput.  It is linked either with
 * libFuzzer (clang -fsanitize=fuzzer, `make fuzz`) or with fuzz/replay.c
 * (an ordinary main that feeds it files; `make` builds those into
 * $(B)/fuzz/replay-<target> for t/0610-fuzz-regress.t).
 *
 * The launch table is FUZZ_LAUNCHTAB (compiled in: the repository's
 * config/launchers.conf), or $MSPROF_FUZZ_LAUNCHTAB when set.
 */
#ifndef MSPROF_FUZZ_H
#define MSPROF_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#include "common/launchtab.h"
#include "common/plan.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* The launch table, loaded once (exits when it cannot be read). */
const struct launchtab *fuzz_table(void);

/*
 * A scratch directory of this process, created once and removed at exit.
 * fuzz_enter() makes it the current directory, so that the relative paths
 * of an input land there; fuzz_leave() goes back (libFuzzer reads and
 * writes its corpus relative to the directory it started in).
 */
const char *fuzz_dir(void);
void	fuzz_enter(void);
void	fuzz_leave(void);

/* Write DATA to NAME in the scratch directory; its path (static). */
const char *fuzz_file(const char *name, const void *data, size_t size);

/*
 * The input as strings: split at NUL bytes into a NULL-terminated vector
 * (one string when there is none).  Free with fuzz_strings_free().
 */
char	**fuzz_strings(const uint8_t *data, size_t size, size_t *n);
void	 fuzz_strings_free(char **);

/*
 * One of a few fixed plans (the defaults; --existing keep and override;
 * --train-iters; dynamic mode; level_none; all ranks, every --with),
 * chosen by SEL.
 */
void	fuzz_plan(struct plan *, unsigned sel);

/* Abort with a message: an invariant of the code under test broke. */
void	fuzz_fail(const char *what, const char *detail)
	    __attribute__((noreturn));

#define FUZZ_CHECK(cond, detail) do {					\
	if (!(cond))							\
		fuzz_fail(#cond, (detail));				\
} while (0)

#endif
