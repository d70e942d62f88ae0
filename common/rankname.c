/* Read a rank directory's name: host, pid and start time. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rankname.h"

#define STAMP_LEN	17	/* YYYYMMDDhhmmssmmm */

static int
digits(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isdigit((unsigned char)s[i]))
			return 0;
	return 1;
}

static int
field(const char *s, size_t n)
{
	int v = 0;

	for (size_t i = 0; i < n; i++)
		v = v * 10 + (s[i] - '0');
	return v;
}

/* YYYYMMDDhhmmssmmm in local time to milliseconds since the epoch. */
static int
stamp_ms(const char *s, int64_t *ms)
{
	struct tm tm = { 0 };
	time_t t;

	tm.tm_year = field(s, 4) - 1900;
	tm.tm_mon = field(s + 4, 2) - 1;
	tm.tm_mday = field(s + 6, 2);
	tm.tm_hour = field(s + 8, 2);
	tm.tm_min = field(s + 10, 2);
	tm.tm_sec = field(s + 12, 2);
	tm.tm_isdst = -1;
	if (tm.tm_mon > 11 || tm.tm_mday < 1 || tm.tm_mday > 31 ||
	    tm.tm_hour > 23 || tm.tm_min > 59 || tm.tm_sec > 60)
		return -1;
	if ((t = mktime(&tm)) == (time_t)-1)
		return -1;
	*ms = (int64_t)t * 1000 + field(s + 14, 3);
	return 0;
}

int
rankname_parse(const char *name, struct rankname *r)
{
	size_t len = strlen(name), slen = strlen(RANKDIR_SUFFIX);
	const char *stamp, *pid, *p;

	memset(r, 0, sizeof(*r));
	if (len < slen + STAMP_LEN + 4 ||
	    strcmp(name + len - slen, RANKDIR_SUFFIX) != 0)
		return -1;
	stamp = name + len - slen - STAMP_LEN;
	if (!digits(stamp, STAMP_LEN) || stamp[-1] != '_' ||
	    stamp_ms(stamp, &r->ms) == -1)
		return -1;
	/* The pid: the digits between the two underscores before it. */
	for (p = stamp - 1; p > name && p[-1] != '_'; p--)
		;
	pid = p;
	if (pid == name || pid == stamp - 1 || !digits(pid, (size_t)(stamp -
	    1 - pid)) || (size_t)(pid - 1 - name) >= sizeof(r->host) ||
	    pid - 1 == name)
		return -1;
	r->pid = strtol(pid, NULL, 10);
	memcpy(r->host, name, (size_t)(pid - 1 - name));
	r->host[pid - 1 - name] = '\0';
	return 0;
}

int
rankname_info(const char *name)
{
	const char *p = name + 14;
	char *end;
	long r;

	if (strncmp(name, "profiler_info_", 14) != 0 || *p < '0' || *p > '9')
		return -1;
	r = strtol(p, &end, 10);
	return strcmp(end, ".json") == 0 && r < 1000000 ? (int)r : -1;
}
