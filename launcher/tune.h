/* msprof-exec tune: the advised settings tried one by one (tune.c). */
#ifndef MSPROF_TUNE_H
#define MSPROF_TUNE_H

/* msprof-exec tune [OPTIONS] [--tries N] [--baseline DIR] [--] COMMAND... */
int	tune_main(int argc, char **argv);

#endif
