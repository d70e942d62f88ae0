/*
 * Read the training log for the failures engineers hit when profiling
 * (reference section 6) and say what to do about each.
 */
#ifndef MSPROF_DIAGNOSE_H
#define MSPROF_DIAGNOSE_H

#include "common/util.h"

/* Append to OUT one message per failure found in LOG (text). */
void	diagnose_log(const char *log, int mm, struct strv *out);
/* The highest Megatron iteration the log shows ("iteration N/ M"), or -1. */
int	log_last_iteration(const char *log);
/* A TCP port at or above FROM that nothing listens on, or -1. */
int	free_port(int from);

#endif
