/*
 * errno0: print errno as main sees it, before anything else runs: a
 * preloaded library's constructor must not leave it changed.
 */
#include <errno.h>
#include <stdio.h>

int
main(void)
{
	int e = errno;

	printf("errno=%d\n", e);
	return 0;
}
