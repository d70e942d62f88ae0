/*
 * Which launches read a setting of the settings table (common/settings.h),
 * by its scope: one answer for --set (apply.c: may the rewrite give it)
 * and for the advice (is the setting's state in this launch worth
 * showing).
 */
#ifndef MSPROF_ENGINES_SCOPE_H
#define MSPROF_ENGINES_SCOPE_H

#include "common/settings.h"
#include "engine.h"

/* Does a launch of engine E read the settings of SCOPE? */
int	 engine_reads_scope(enum engine e, enum setting_scope scope);

#endif
