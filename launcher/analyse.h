/* msprof-exec analyse: parse raw profiling data offline. */
#ifndef MSPROF_ANALYSE_H
#define MSPROF_ANALYSE_H

/* msprof-exec analyse [--export-type text|db]... PATH */
int	analyse_main(int argc, char **argv);

#endif
