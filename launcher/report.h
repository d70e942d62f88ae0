/* What msprof-exec tells the user after the command ends. */
#ifndef MSPROF_REPORT_H
#define MSPROF_REPORT_H

#include <cjson/cJSON.h>

struct report {
	int	injected, unchanged, refused;
};

/* Summarise the journal; prints nothing when QUIET (errors aside). */
void	report_print(const char *session, const cJSON *journal, int quiet,
	    struct report *);

#endif
