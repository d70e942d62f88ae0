/*
 * Unit tests of the session journal (common/journal.c): a record written
 * and read back field by field, later records of a process merged into
 * its first, the statuses as written, and lines that are not records.
 */
#include <sys/stat.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "shim/contract.h"
#include "common/journal.h"
#include "common/jsonfile.h"

static char session[] = "/tmp/msprof-journal-XXXXXX";

static void
clear(void)
{
	char *path = xasprintf("%s/%s", session, SESSION_JOURNAL);

	unlink(path);
	free(path);
}

/* Append the raw TEXT to the journal (foreign or torn lines). */
static void
append_text(const char *text)
{
	char *path = xasprintf("%s/%s", session, SESSION_JOURNAL);
	FILE *f = fopen(path, "a");

	fputs(text, f);
	fclose(f);
	free(path);
}

static char *
encode(const struct launch_record *r)
{
	cJSON *o = launch_record_json(r);
	char *text = json_print(o, 0);

	cJSON_Delete(o);
	return text;
}

static int
same_strv(const struct strv *a, const struct strv *b)
{
	if (a->n != b->n)
		return 0;
	for (size_t i = 0; i < a->n; i++)
		if (strcmp(a->v[i], b->v[i]) != 0)
			return 0;
	return 1;
}

/* A record with every field set. */
static void
full_record(struct launch_record *r)
{
	static const int ranks[] = { 0, 3 }, expected[] = { 0 };

	launch_record_init(r);
	r->time = xstrdup("2026-12-03T09:00:00+0000");
	r->start_ms = 1796288400123LL;
	r->pid = 4242;
	r->host = xstrdup("node-a");
	r->cwd = xstrdup("/work/job");
	r->path = xstrdup("/usr/bin/torchrun");
	strv_push(&r->argv, "torchrun");
	strv_push(&r->argv, "--nnodes=2");
	strv_push(&r->argv, "pretrain_gpt.py");
	strv_push(&r->argv, "--data-path=/d/\xff\xfe");	/* not UTF-8 */
	r->cann = 0;
	r->engine = xstrdup("llm-mcore");
	r->framework = xstrdup("llm");
	r->script = xstrdup("pretrain_gpt.py");
	r->place.node_rank = 1;
	r->place.node_rank_from = xstrdup("PET_NODE_RANK");
	r->place.nnodes = 2;
	r->place.nproc_per_node = 8;
	r->place.first_rank = 8;
	r->place.world_size = 16;
	r->place.master_addr = xstrdup("10.0.0.1");
	r->place.master_port = 6000;
	r->status = LAUNCH_INJECTED;
	r->reason = xstrdup("a reason");
	r->force = xstrdup("--framework llm|mm");
	r->exit = 0;
	strv_push(&r->missing, "data/gone");
	r->save_path = xstrdup("./profiling_output");
	r->step_start = 2;
	r->step_end = 4;
	r->ranks_all = 0;
	r->nranks = 2;
	r->ranks = xcalloc(2, sizeof(int));
	memcpy(r->ranks, ranks, sizeof(ranks));
	r->nexpected = 1;
	r->expected = xcalloc(1, sizeof(int));
	memcpy(r->expected, expected, sizeof(expected));
	r->level = xstrdup("level1");
	r->analyse = 1;
	r->mode = xstrdup("static");
	strv_push(&r->copies, "a.json -> b.json");
	strv_push(&r->existing, "--profile");
	strv_push(&r->new_argv, "torchrun");
	strv_push(&r->new_argv, "--profile");
}

static void
test_round_trip(void)
{
	struct launch_record w;
	struct journal j;
	const struct launch_record *r;
	char *a, *b;

	clear();
	full_record(&w);
	is_int(journal_append(session, &w), 0, "append a full record");
	journal_read(session, &j);
	is_int(j.n, 1, "one record read");
	if (j.n != 1)
		return;
	r = &j.recs[0];
	is_str(r->time, w.time, "time");
	ok(r->start_ms == w.start_ms, "start_ms");
	is_int(r->pid, 4242, "pid");
	is_str(r->host, "node-a", "host");
	is_str(r->cwd, "/work/job", "cwd");
	is_str(r->path, "/usr/bin/torchrun", "path");
	ok(same_strv(&r->argv, &w.argv), "argv, byte for byte");
	is_int(r->cann, 0, "cann false is read as false, not unset");
	is_str(r->engine, "llm-mcore", "engine");
	is_str(r->framework, "llm", "framework");
	is_str(r->script, "pretrain_gpt.py", "script");
	is_int(r->place.node_rank, 1, "node_rank");
	is_str(r->place.node_rank_from, "PET_NODE_RANK", "node_rank_from");
	is_int(r->place.nnodes, 2, "nnodes");
	is_int(r->place.nproc_per_node, 8, "nproc_per_node");
	is_int(r->place.first_rank, 8, "first_rank");
	is_int(r->place.world_size, 16, "world_size");
	is_str(r->place.master_addr, "10.0.0.1", "master_addr");
	is_int(r->place.master_port, 6000, "master_port");
	is_int(r->status, LAUNCH_INJECTED, "status");
	is_str(r->reason, "a reason", "reason");
	is_str(r->force, "--framework llm|mm", "force");
	is_int(r->exit, 0, "exit 0 is read as 0, not unset");
	ok(same_strv(&r->missing, &w.missing), "missing");
	is_str(r->save_path, "./profiling_output", "save_path");
	is_int(r->step_start, 2, "step_start");
	is_int(r->step_end, 4, "step_end");
	ok(r->ranks_all == 0 && r->nranks == 2 && r->ranks[0] == 0 &&
	    r->ranks[1] == 3, "ranks");
	ok(r->nexpected == 1 && r->expected[0] == 0, "expected ranks");
	is_str(r->level, "level1", "level");
	is_int(r->analyse, 1, "analyse");
	is_str(r->mode, "static", "mode");
	ok(same_strv(&r->copies, &w.copies), "copies");
	ok(same_strv(&r->existing, &w.existing), "existing");
	ok(same_strv(&r->new_argv, &w.new_argv), "new_argv");
	a = encode(&w);
	b = encode(r);
	is_str(b, a, "the record read encodes as the one written");
	free(a);
	free(b);
	launch_record_free(&w);
	journal_free(&j);
}

static void
test_unset(void)
{
	struct launch_record r;
	char *text;

	launch_record_init(&r);
	text = encode(&r);
	is_str(text, "{}", "an empty record writes no field");
	free(text);
	r.pid = 7;
	r.ranks_all = 1;
	text = encode(&r);
	is_str(text, "{\"pid\":7,\"ranks\":\"all\"}",
	    "only the fields set are written; every rank is \"all\"");
	free(text);
	r.expected = xcalloc(1, sizeof(int));	/* none: set, and empty */
	text = encode(&r);
	is_str(text, "{\"pid\":7,\"ranks\":\"all\",\"expected_ranks\":[]}",
	    "no rank expected on this node is written as []");
	free(text);
	launch_record_free(&r);
}

/* A later record of the same process updates only what it sets. */
static void
test_merge(void)
{
	struct launch_record a, b, c;
	struct journal j;

	clear();
	full_record(&a);
	launch_record_init(&b);
	b.pid = 4242;
	b.host = xstrdup("node-a");
	b.status = LAUNCH_FAILED;
	b.reason = xstrdup("cannot run torchrun: Permission denied");
	full_record(&c);
	free(c.host);
	c.host = xstrdup("node-b");		/* same pid, another node */
	journal_append(session, &a);
	journal_append(session, &c);
	journal_append(session, &b);
	journal_read(session, &j);
	is_int(j.n, 2, "same pid on two hosts: two launches");
	if (j.n == 2) {
		is_int(j.recs[0].status, LAUNCH_FAILED,
		    "the later status wins");
		is_str(j.recs[0].reason, "cannot run torchrun: Permission "
		    "denied", "the later reason wins");
		ok(same_strv(&j.recs[0].argv, &a.argv),
		    "what the later record does not set is kept");
		is_str(j.recs[0].save_path, "./profiling_output",
		    "settings kept");
		is_int(j.recs[1].status, LAUNCH_INJECTED,
		    "the other host's launch is untouched");
	}
	journal_free(&j);
	launch_record_free(&a);
	launch_record_free(&b);
	launch_record_free(&c);
}

/* Each status as written, and the two refusals told apart by exit. */
static void
test_statuses(void)
{
	static const struct {
		enum launch_status s;
		int exit;
		const char *name;
	} cases[] = {
		{ LAUNCH_INJECTED, -1, "injected" },
		{ LAUNCH_KEPT, -1, "kept" },
		{ LAUNCH_LEFT_ALONE, -1, "unchanged" },
		{ LAUNCH_REFUSED, 78, "refused" },
		{ LAUNCH_MISSING_PATHS, 66, "refused" },
		{ LAUNCH_FAILED, -1, "failed" },
	};
	struct launch_record r;
	struct journal j;
	char *want;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		clear();
		launch_record_init(&r);
		r.pid = (long)i;
		r.status = cases[i].s;
		r.exit = cases[i].exit;
		journal_append(session, &r);
		launch_record_free(&r);
		journal_read(session, &j);
		is_str(launch_status_name(cases[i].s), cases[i].name,
		    "status %s: its name", cases[i].name);
		ok(j.n == 1 && j.recs[0].status == cases[i].s,
		    "status %s (exit %d): read back", cases[i].name,
		    cases[i].exit);
		journal_free(&j);
	}
	clear();
	want = xasprintf("{\"pid\":1,\"status\":\"refused\",\"exit\":66}\n");
	append_text(want);
	free(want);
	journal_read(session, &j);
	ok(j.n == 1 && j.recs[0].status == LAUNCH_MISSING_PATHS &&
	    launch_profiled(&j.recs[0]) == 0,
	    "refused with exit 66: missing paths, not profiled");
	journal_free(&j);
}

/* Torn lines, other JSON, fields of the wrong type. */
static void
test_foreign(void)
{
	struct journal j;

	clear();
	append_text("{\"pid\":1,\"host\":\"h\",\"status\":\"inj\n"
	    "[1,2]\n"
	    "\n"
	    "not json\n"
	    "{\"pid\":\"2\",\"host\":\"h\",\"step_start\":-5,\"ranks\":[1,\"x\"],"
	    "\"argv\":[\"a\",3],\"status\":\"exploded\",\"analyse\":1}\n"
	    "{\"pid\":3,\"host\":\"h\",\"status\":\"kept\"}");
	journal_read(session, &j);
	is_int(j.n, 2, "torn and foreign lines skipped, the last line "
	    "without a newline read");
	if (j.n == 2) {
		const struct launch_record *r = &j.recs[0];

		ok(r->pid == -1 && r->step_start == -1 && r->ranks_all == -1 &&
		    r->argv.n == 0 && r->status == LAUNCH_UNKNOWN &&
		    r->analyse == -1, "fields of the wrong type are unset");
		is_str(r->host, "h", "the rest of that line is read");
		is_int(j.recs[1].status, LAUNCH_KEPT, "the next line is read");
		ok(launch_profiled(&j.recs[1]), "kept is profiled");
	}
	journal_free(&j);
	clear();
	journal_read(session, &j);
	is_int(j.n, 0, "no journal: no launches");
	journal_free(&j);
}

int
main(void)
{
	if (mkdtemp(session) == NULL)
		return 1;
	test_round_trip();
	test_unset();
	test_merge();
	test_statuses();
	test_foreign();
	clear();
	rmdir(session);
	return done_testing();
}
