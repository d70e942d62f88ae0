/*
 * Is an exec a training launch?  Pure functions over the launch table
 * string (see contract.h): no allocation, no library state, safe in a
 * vfork child.  Shared by the shim, the injector and the unit tests.
 */
#ifndef MSPROF_MATCH_H
#define MSPROF_MATCH_H

#include <stddef.h>
#include <stdint.h>

#include "contract.h"

enum launch_kind {
	LAUNCH_NONE = 0,
	LAUNCH_LAUNCHER,	/* torchrun ..., msrun ... */
	LAUNCH_PY_MODULE,	/* python [opts] -m torch.distributed.run ... */
	LAUNCH_PY_SCRIPT,	/* python [opts] pretrain_gpt.py | .../bin/torchrun ... */
	LAUNCH_PY_ENTRY_MODULE,	/* python [opts] -m espnet2.bin.asr_train ... */
	LAUNCH_CONSOLE		/* fairseq-train ... (#!/venv/bin/python) */
};

struct launch_match {
	enum launch_kind kind;
	const char	*operand;	/* the module or script name */
	int		 next;		/* argv index after the operand */
};

/* Classify the exec of PATH with ARGV (which may be NULL). */
enum launch_kind match_launch(const char *table, const char *path,
	    char *const argv[], struct launch_match *m);

/* Does NAME match an item of KEY in TABLE? */
int	table_has(const char *table, const char *key, const char *name);
/* The index among KEY's items of the first that NAME matches, or -1. */
int	table_find(const char *table, const char *key, const char *name);

/*
 * A first test for the exec path, built once from the table: the last
 * component of a path that an item of "launcher", "console" or "python"
 * matches
 * starts with that item's last component (less a final '*'), so its first
 * two bytes, or its first byte for a one-byte "x*" item, rule out at once
 * every name no item can match (an item "*x" lets every name through).
 * It may pass a name that match_launch then rejects, never the other way
 * round.
 */
struct launch_filter {
	int		all;		/* an item can match any name */
	uint64_t	first[4];	/* bit c: a name starting with c passes */
	uint64_t	pair[4];	/* bit FILTER_PAIR(c0, c1) */
};

/*
 * Build F from TABLE's items, or read it from TABLE's first segment when
 * that is a "filter" one (contract.h) as filter_write() writes it.
 */
void	filter_build(struct launch_filter *f, const char *table);
/*
 * Write F into BUF (FILTER_TEXT_MAX bytes) as a table segment,
 * "filter=ITEM,...": "*" for all, "fXX" and "pXX" for the bits of first
 * and pair (two hex digits); returns its length.
 */
#define FILTER_TEXT_MAX	(sizeof(MATCH_KEY_FILTER "=*") + 2 * 256 * 4)
size_t	filter_write(const struct launch_filter *f, char *buf);
/* May the exec of PATH be a launch?  0 when it cannot be. */
int	filter_pass(const struct launch_filter *f, const char *path);

/* The last component of a path. */
const char *path_base(const char *path);

#endif
