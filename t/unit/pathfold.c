/* common/util.c: path_fold, a path's "." and "NAME/.." folded by its text. */
#include <stdlib.h>

#include "common/util.h"
#include "tap.h"

static void
fold(const char *in, const char *want)
{
	char *p = xstrdup(in);

	is_str(path_fold(p), want, "%s", in);
	free(p);
}

int
main(void)
{
	fold("/work/run/./profiling_output", "/work/run/profiling_output");
	fold("/a/./b//c/", "/a/b/c");
	fold("./x", "x");
	fold("x/./", "x");
	fold("a/../b", "b");
	fold("a/..", ".");
	fold(".", ".");
	fold("../a/../../b", "../../b");
	fold("/..", "/");
	fold("/a/b/../../..", "/");
	fold("/", "/");
	fold("/a/b/../c", "/a/c");
	/* nothing to fold: each part is written back over itself */
	fold("/work/run/profiling_output", "/work/run/profiling_output");
	fold("a/b", "a/b");
	return done_testing();
}
