/* common/rankname.c: host, pid and start time from a rank directory name. */
#include <stdlib.h>
#include <time.h>

#include "common/rankname.h"
#include "tap.h"

int
main(void)
{
	struct rankname r, later;

	setenv("TZ", "UTC", 1);
	tzset();
	is_int(rankname_parse("node-1_12345_20261203083012345_ascend_pt", &r),
	    0, "a rank directory name");
	is_str(r.host, "node-1", "the host");
	is_int(r.pid, 12345, "the pid");
	ok(r.ms == 1796286612345LL, "the time in milliseconds (UTC)");
	is_int(rankname_parse("gpu_node_07_99_20261203083012346_ascend_pt",
	    &later), 0, "a host with underscores");
	is_str(later.host, "gpu_node_07", "the host with underscores");
	is_int(later.pid, 99, "its pid");
	ok(later.ms - r.ms == 1, "a millisecond apart");
	setenv("TZ", "CST-8", 1);	/* POSIX form: no tzdata needed */
	tzset();
	rankname_parse("node-1_12345_20261203163012345_ascend_pt", &r);
	ok(r.ms == 1796286612345LL, "the writer's local time (UTC+8)");
	is_int(rankname_parse("node_12345_2026120308301234_ascend_pt", &r), -1,
	    "a short stamp");
	is_int(rankname_parse("node_x1_20261203083012345_ascend_pt", &r), -1,
	    "a pid that is not a number");
	is_int(rankname_parse("12345_20261203083012345_ascend_pt", &r), -1,
	    "no host");
	is_int(rankname_parse("node_1_20261303083012345_ascend_pt", &r), -1,
	    "month 13");
	is_int(rankname_parse("node_1_20261203083012345", &r), -1,
	    "no _ascend_pt");
	return done_testing();
}
