/*
 * A preload that does nothing: loading it is the floor cost of any
 * LD_PRELOAD design (open, map and relocate one more object per process).
 */
int msprof_bench_empty;
