/* report/attrib.c: which launch a rank directory belongs to. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report/attrib.h"
#include "tap.h"

#define DIR_	"/data/prof"
#define T0	1796286612000LL		/* 2026-12-03 08:30:12 UTC */

static struct launch_record recs[8];
static struct claim cls[8];
static struct claims c = { .v = cls };

/* A launch of SESSION on HOST at T0 + START s; its session ends at END s. */
static const struct claim *
launch(const char *session, const char *host, int start, int end, int port,
    int node_rank)
{
	struct launch_record *r = &recs[c.n];
	struct claim *cl = &cls[c.n++];

	launch_record_init(r);
	r->host = (char *)host;
	r->start_ms = T0 + start * 1000LL;
	r->place.master_port = port;
	r->place.node_rank = node_rank;
	r->place.nproc_per_node = 2;
	r->place.first_rank = node_rank * 2;
	cl->rec = r;
	cl->dir = (char *)DIR_;
	cl->session = session;
	cl->start_ms = r->start_ms;
	cl->end_ms = T0 + end * 1000LL;
	cl->tz_fix_ms = 0;
	return cl;
}

/* The owner of a directory written on HOST at T0 + AT s by RANK. */
static const struct claim *
owner(const char *host, double at, int rank, int *mixed)
{
	struct rankname rn;

	memset(&rn, 0, sizeof(rn));
	strcpy(rn.host, host);
	rn.ms = T0 + (int64_t)(at * 1000);
	return claims_owner(&c, DIR_, &rn, rank, mixed);
}

int
main(void)
{
	const struct claim *first, *second, *old, *a, *b, *n0, *n1;
	int mixed;

	/* Two launches of one session into one save path. */
	old = launch("/o/s0", "node", -3600, -3000, 6000, 0);
	first = launch("/o/s1", "node", 0, 100, 6000, 0);
	second = launch("/o/s1", "node", 50, 100, 6000, 0);
	ok(owner("node", 10, 0, &mixed) == first && !mixed,
	    "made between the two launches: the first's");
	ok(owner("node", 60, 0, &mixed) == second,
	    "made after the second started: the second's");
	ok(owner("node", -3500, 0, &mixed) == old,
	    "made an hour earlier: the earlier session's");
	ok(owner("node", -0.5, 0, &mixed) == old,
	    "made half a second before the launch: never its own");
	ok(owner("other", 10, 0, &mixed) == NULL, "made on another host: not ours");
	ok(owner("node", 10, -1, &mixed) == first,
	    "of unknown rank, one launch could have made it: that one's");

	/* Another job at the same time, on the same host. */
	c.n = 0;
	a = launch("/o/a", "node", 0, 100, 6000, 0);
	b = launch("/o/b", "node", 5, 100, 6001, 0);
	ok(owner("node", 2, 0, &mixed) == a && !mixed,
	    "before the other job started: the first job's");
	ok(owner("node", 10, 0, &mixed) == NULL && mixed,
	    "while both ran: nobody's, and mixed");
	ok(!claims_same_job(a, b), "other master port: another job");
	ok(claims_overlap(a, b), "they ran at the same time");
	/* The same job again after the first session ended. */
	c.n = 0;
	a = launch("/o/a", "node", 0, 4, 6000, 0);
	b = launch("/o/b", "node", 5, 100, 6000, 0);
	ok(owner("node", 10, 0, &mixed) == b && !mixed,
	    "a run after an ended session: the new run's");
	ok(!claims_overlap(a, b), "they did not run at the same time");

	/* Two nodes of one job on one host: by the rank each holds. */
	c.n = 0;
	n0 = launch("/o/n0", "node", 0, 100, 6000, 0);
	n1 = launch("/o/n1", "node", 1, 100, 6000, 1);
	ok(claims_same_job(n0, n1), "one master port: one job");
	ok(owner("node", 10, 0, &mixed) == n0 && !mixed, "rank 0: node 0's");
	ok(owner("node", 10, 3, &mixed) == n1 && !mixed, "rank 3: node 1's");
	ok(owner("node", 10, -1, &mixed) == NULL && !mixed,
	    "unknown rank on a host of both nodes: nobody's, not mixed");

	/* A launch in another time zone writes its local time. */
	c.n = 0;
	a = launch("/o/a", "node", 0, 100, 6000, 0);
	cls[0].tz_fix_ms = 5 * 3600 * 1000LL;	/* five hours behind */
	ok(owner("node", 10 - 5 * 3600, 0, &mixed) == a,
	    "a name five hours behind, from a launch five hours behind");
	return done_testing();
}
