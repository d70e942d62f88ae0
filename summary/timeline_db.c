/*
 * The db export's timeline (ascend_pytorch_profiler_<rank>.db), folded
 * as trace_view.json is (timeline.h): PYTORCH_API (the framework's
 * operators, with ProfilerStep#N, and their call stacks through
 * PYTORCH_CALLCHAINS, one row a frame, innermost first by stackDepth),
 * CANN_API (aclrtSynchronize*, aclopCompile*, aclmdlRIExecute*), GC_RECORD
 * where torch_npu wrote one, and the device's TASK.  Names are STRING_IDS.
 * Times are integers of nanoseconds; this generation stores PYTORCH_API's
 * as text, read to the nanosecond (a double would round them).  The rows
 * come one at a time from SQLite; only the fold keeps anything.
 */
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "model.h"
#include "timeline.h"

static int
ns_of(const char *s, int64_t *v)
{
	char *end;
	long long x;

	x = strtoll(s, &end, 10);
	if (end == s || (*end != '\0' && *end != '.'))
		return -1;
	*v = x;
	return 0;
}

struct fold {
	struct timeline	*t;
	const char	*cat;
};

/* startNs, endNs, name, globalTid[, stack] */
static int
host_row(void *arg, int ncol, const char *const col[], const double num[])
{
	struct fold *f = arg;
	struct tl_host h;

	if (ncol < 4 || ns_of(col[0], &h.a) < 0 || ns_of(col[1], &h.b) < 0)
		return 0;
	h.name = col[2];
	h.cat = f->cat;
	h.tid = strtoll(col[3], NULL, 10);
	h.stack = ncol > 4 ? col[4] : "";
	tl_host(f->t, &h);
	return 0;
}

static int
task_row(void *arg, int ncol, const char *const col[], const double num[])
{
	struct fold *f = arg;
	int64_t a, b;

	if (ncol >= 2 && ns_of(col[0], &a) == 0 && ns_of(col[1], &b) == 0)
		tl_task(f->t, a, b);
	return 0;
}

#define STACKS	"WITH cc AS (SELECT c.id AS id, group_concat(s.value, " \
	"';' || char(10)) AS st FROM (SELECT id, stack, stackDepth FROM " \
	"PYTORCH_CALLCHAINS ORDER BY id, stackDepth) c JOIN STRING_IDS s " \
	"ON s.id = c.stack GROUP BY c.id) "

int
timeline_db_read(struct db *db, struct timeline *t, char **why)
{
	struct fold f = { t, "cpu_op" };

	*why = NULL;
	if ((*why = db_need_table(db, "STRING_IDS")) != NULL ||
	    (*why = db_need_table(db, "PYTORCH_API")) != NULL ||
	    (*why = db_need_table(db, "TASK")) != NULL)
		return -1;
	if (db_has_table(db, "PYTORCH_CALLCHAINS")) {
		if (db_rows(db, STACKS "SELECT p.startNs, p.endNs, "
		    "coalesce(n.value, ''), p.globalTid, coalesce(cc.st, '') "
		    "FROM PYTORCH_API p LEFT JOIN STRING_IDS n ON "
		    "n.id = p.name LEFT JOIN cc ON cc.id = p.callchainId",
		    host_row, &f, why) < 0)
			return -1;
	} else if (db_rows(db, "SELECT p.startNs, p.endNs, coalesce(n.value, "
	    "''), p.globalTid FROM PYTORCH_API p LEFT JOIN STRING_IDS n ON "
	    "n.id = p.name", host_row, &f, why) < 0)
		return -1;
	f.cat = "";
	if (db_has_table(db, "CANN_API") && db_rows(db, "SELECT c.startNs, "
	    "c.endNs, coalesce(n.value, ''), c.globalTid FROM CANN_API c LEFT "
	    "JOIN STRING_IDS n ON n.id = c.name", host_row, &f, why) < 0)
		return -1;
	f.cat = "gc";
	if (db_has_table(db, "GC_RECORD") && db_rows(db, "SELECT startNs, "
	    "endNs, 'GC', 0 FROM GC_RECORD", host_row, &f, why) < 0)
		return -1;
	return db_rows(db, "SELECT startNs, endNs FROM TASK ORDER BY startNs",
	    task_row, &f, why);
}
