/*
 * An injector that does nothing: run by the shim in place of the real one
 * (INJECTOR MODE SESSION PATH ARGV...), it execs PATH with ARGV at once.
 * Linked statically, it is the floor of any launch interception that runs
 * a program of its own between the caller and the launcher.
 */
#include <unistd.h>

int
main(int argc, char **argv)
{
	if (argc < 5)
		return 64;
	execv(argv[3], argv + 4);
	return 127;
}
