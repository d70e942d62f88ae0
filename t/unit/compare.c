/*
 * compare: two runs written here as small rank directories (step rows and
 * operator statistics), read by the summary and compared.  Equal runs
 * name nothing; the noise margin is the floor or twice the step-to-step
 * variation, measured or (one step a rank) a guess, and said which; a
 * longer step, operator types added, removed and faster (per rank and
 * step, whatever the number of steps), a rank unlike the others
 * and ranks in one run only are named; runs without data are refused; and
 * the text of 1,000 ranks a side stays one screen.
 */
#include <sys/stat.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "common/journal.h"
#include "report/summary_writers.h"
#include "summary/compare.h"

static char tmp[] = "/tmp/compare.XXXXXX";

/* One run: its ranks (ending in -1) and what each rank's steps hold. */
struct spec {
	const int	*ranks;
	int		 nsteps;
	double		 step_ms;
	double		 wobble;	/* steps alternate step * (1 +- wobble) */
	int		 slow;		/* computes 30 % longer; -1: none */
	const char	*ops;		/* "TYPE:CORE:MS:CALLS,..." per rank-step */
	const char	*level;
	int		 tp;
	double		 shift;		/* share of the step moved from compute
					   to communication */
};

static const int ranks0_3[] = { 0, 1, 2, 3, -1 };
static const int ranks0_7[] = { 0, 1, 2, 3, 4, 5, 6, 7, -1 };
static const int ranks_moved[] = { 0, 1, 2, 3, 8, 9, -1 };
static const char ops_base[] = "MatMul:AI_CORE:50:6,Add:AI_VECTOR_CORE:10:4,"
    "Old:AI_CORE:5:1";

static FILE *
create(const char *dir, const char *name)
{
	char path[700];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return fopen(path, "w");
}

static void
write_ops(const char *out, const struct spec *sp)
{
	FILE *fp = create(out, "op_statistic.csv");
	char *list = strdup(sp->ops), *save = NULL, *item;

	fputs("Device_id,OP Type,Core Type,Count,Total Time(us),Min Time(us),"
	    "Avg Time(us),Max Time(us),Ratio(%)\n", fp);
	for (item = strtok_r(list, ",", &save); item != NULL;
	    item = strtok_r(NULL, ",", &save)) {
		char type[64], core[64];
		double ms, calls;

		if (sscanf(item, "%63[^:]:%63[^:]:%lf:%lf", type, core, &ms,
		    &calls) != 4)
			continue;
		fprintf(fp, "0,%s,%s,%.0f,%.3f,1,1,1,1\n", type, core,
		    calls * sp->nsteps, ms * 1000 * sp->nsteps);
	}
	fclose(fp);
	free(list);
}

static void
write_rank(const char *run, const struct spec *sp, int r, int world)
{
	char dir[400], out[480], name[64];
	double step = sp->step_ms * 1000;
	FILE *fp;

	snprintf(dir, sizeof(dir), "%s/host_%d_20261203081500123_ascend_pt",
	    run, 1000 + r);
	snprintf(out, sizeof(out), "%s/ASCEND_PROFILER_OUTPUT", dir);
	mkdir(dir, 0755);
	mkdir(out, 0755);
	snprintf(name, sizeof(name), "profiler_info_%d.json", r);
	fp = create(dir, name);
	fprintf(fp, "{\"config\": {\"experimental_config\": "
	    "{\"_profiler_level\": \"%s\"}}}\n", sp->level);
	fclose(fp);
	fp = create(dir, "profiler_metadata.json");
	fprintf(fp, "{\"distributed_args\": {\"tensor_model_parallel_size\": "
	    "%d, \"pipeline_model_parallel_size\": 1, \"data_parallel_size\": "
	    "%d, \"world_size\": %d}}\n", sp->tp, world / sp->tp, world);
	fclose(fp);
	fp = create(out, "step_trace_time.csv");
	fputs("Device_id,Step,Computing,Communication(Not Overlapped),"
	    "Overlapped,Communication,Free,Stage,Bubble\n", fp);
	for (int k = 0; k < sp->nsteps; k++) {
		double s = step * (1 + (k % 2 ? -sp->wobble : sp->wobble));
		double comp = (0.9 - sp->shift) * s;
		double comm = (0.05 + sp->shift) * s;

		if (sp->slow >= 0 && r == sp->slow)
			comp *= 1.3;	/* the others wait as long for it */
		else if (sp->slow >= 0)
			comm += 0.27 * s;
		fprintf(fp, "%d,%d,%.3f,%.3f,0,%.3f,%.3f,0,0\n", r % 8, 4 + k,
		    comp, comm, comm, 0.05 * s);
	}
	fclose(fp);
	write_ops(out, sp);
}

/* A rank of the runs named "new..." without step data, or -1. */
static int new_without_steps = -1;

/* Write a run into TMP/NAME and read its summary. */
static struct summary *
run(const char *name, const struct spec *sp)
{
	static char dir[300];
	struct summary_opts o = { 0 };
	struct summary_rank *ranks;
	struct summary *s;
	char *paths[1] = { dir }, *why = NULL;
	size_t n;
	int world = 0;

	snprintf(dir, sizeof(dir), "%s/%s", tmp, name);
	mkdir(dir, 0755);
	for (const int *r = sp->ranks; *r >= 0; r++)
		world++;
	for (const int *r = sp->ranks; *r >= 0; r++) {
		write_rank(dir, sp, *r, world);
		if (*r == new_without_steps && strncmp(name, "new", 3) == 0) {
			char p[700];

			snprintf(p, sizeof(p), "%s/host_%d_20261203081500123_"
			    "ascend_pt/ASCEND_PROFILER_OUTPUT/step_trace_time.csv",
			    dir, 1000 + *r);
			unlink(p);
		}
	}
	if (summary_find_ranks(paths, 1, &ranks, &n, &why) == -1)
		return NULL;
	s = summary_build(ranks, n, &o);
	summary_ranks_free(ranks, n);
	return s;
}

static const cJSON *
get(const cJSON *o, const char *path)
{
	char *p = strdup(path), *save = NULL, *k;

	for (k = strtok_r(p, ".", &save); k != NULL && o != NULL;
	    k = strtok_r(NULL, ".", &save))
		o = cJSON_GetObjectItemCaseSensitive(o, k);
	free(p);
	return o;
}

static double
num(const cJSON *o, const char *path)
{
	const cJSON *j = get(o, path);

	return cJSON_IsNumber(j) ? j->valuedouble : NAN;
}

static const char *
str(const cJSON *o, const char *path)
{
	const cJSON *j = get(o, path);

	return cJSON_IsString(j) ? j->valuestring : "";
}

/* The operator TYPE of a comparison's JSON, or NULL. */
static const cJSON *
op(const cJSON *j, const char *type)
{
	const cJSON *t;

	cJSON_ArrayForEach(t, get(j, "operators.types"))
		if (strcmp(str(t, "type"), type) == 0)
			return t;
	return NULL;
}

/* The numbers of an array as "4,5,6". */
static char *
ints(const cJSON *a)
{
	static char buf[256];
	const cJSON *x;
	size_t n = 0;

	buf[0] = '\0';
	cJSON_ArrayForEach(x, a) {
		snprintf(buf + n, sizeof(buf) - n, "%s%d", n ? "," : "",
		    x->valueint);
		n = strlen(buf);
	}
	return buf;
}

struct result {
	struct summary	*s[2];
	struct compare	*c;
	cJSON		*j;
	char		*text;
};

static void
compare(struct result *r, const struct spec *b, const struct spec *n)
{
	static int runs;
	char name[2][32], *why = NULL;
	size_t len = 0;
	FILE *mem;

	snprintf(name[0], sizeof(name[0]), "base%d", runs);
	snprintf(name[1], sizeof(name[1]), "new%d", runs++);
	r->s[0] = run(name[0], b);
	r->s[1] = run(name[1], n);
	r->c = compare_build(r->s[0], "base", r->s[1], "new", &why);
	if (r->c == NULL) {
		printf("# not compared: %s\n", why);
		exit(1);
	}
	r->j = compare_json(r->c);
	mem = open_memstream(&r->text, &len);
	compare_print(r->c, mem, 0);
	fclose(mem);
}

static void
done(struct result *r)
{
	compare_free(r->c);
	summary_free(r->s[0]);
	summary_free(r->s[1]);
	cJSON_Delete(r->j);
	free(r->text);
}

static int
lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

static void
equal_runs(void)
{
	struct spec b = { ranks0_3, 2, 100, 0.001, -1, ops_base, "Level1", 1, 0 };
	struct spec n = b;
	struct result r;

	n.step_ms = 101;	/* +1 %: under the 2 % floor */
	compare(&r, &b, &n);
	ok(!compare_changed(r.c), "equal runs (+1 %%): nothing changed");
	ok(strncmp(str(r.j, "result"), "no significant change", 21) == 0,
	    "the result says so: %s", str(r.j, "result"));
	ok(fabs(num(r.j, "noise_margin.share") - 0.02) < 1e-9 &&
	    strcmp(str(r.j, "noise_margin.from"), "floor") == 0,
	    "the margin is the 2 %% floor");
	ok(strstr(r.text, "  noise margin: 2.0 % of the base step (2.000 ms): "
	    "the floor\n") != NULL, "the text states the margin");
	ok(strstr(r.text, "no operator type changed beyond the margin") != NULL,
	    "no operator type named");
	ok(strstr(r.text, "all 4 ranks changed alike") != NULL,
	    "no rank named");
	is_int(cJSON_GetArraySize(get(r.j, "caveats")), 0, "no caveat");
	done(&r);
}

static void
noisy_runs(void)
{
	struct spec b = { ranks0_3, 4, 100, 0.05, -1, ops_base, "Level1", 1, 0 };
	struct spec n = b;
	struct result r;
	double want = 2 * 1.4826 * 0.05;

	n.step_ms = 110;	/* +10 %: within twice the variation */
	compare(&r, &b, &n);
	ok(fabs(num(r.j, "noise_margin.share") - want) < 1e-3 &&
	    strcmp(str(r.j, "noise_margin.from"), "variation") == 0,
	    "steps 5 %% either side: the margin is twice their variation "
	    "(%.3f, want %.3f)", num(r.j, "noise_margin.share"), want);
	ok(!compare_changed(r.c), "+10 %% within that margin: not named");
	done(&r);
	n.step_ms = 125;
	compare(&r, &b, &n);
	ok(compare_changed(r.c), "+25 %% beyond it: named");
	ok(strstr(str(r.j, "result"), "25.0 % longer in new") != NULL,
	    "the result: %s", str(r.j, "result"));
	ok(cJSON_IsTrue(get(cJSON_GetArrayItem(get(r.j, "steps.figures"), 0),
	    "significant")), "--json: the step is significant");
	done(&r);
}

/*
 * The certainty: two steps a rank in both runs measure the noise; one
 * step a rank in both makes the margin a guess, said with the result
 * whether it names a change or not; one run of one step, the other's
 * noise only.
 */
static void
certainty(void)
{
	struct spec b = { ranks0_3, 2, 100, 0.001, -1, ops_base, "Level1", 1, 0 };
	struct spec n = b;
	struct result r;
	const char *res;

	compare(&r, &b, &n);
	is_str(str(r.j, "noise_margin.certainty"), "measured",
	    "two steps a rank: the noise measured");
	ok(strstr(str(r.j, "result"), "guess") == NULL,
	    "... and the result says no guess");
	ok(strstr(r.text, "  certainty: the noise measured: step-to-step "
	    "variation 0.1 % in base (4 ranks with two steps or more), 0.1 % "
	    "in new (4)\n") != NULL, "... the text says how much, on how "
	    "many ranks");
	done(&r);
	b.nsteps = n.nsteps = 1;
	n.step_ms = 97.4;	/* -2.6 %: beyond the floor, within no noise */
	compare(&r, &b, &n);
	res = str(r.j, "result");
	ok(compare_changed(r.c) && strstr(res, "2.6 % shorter") != NULL,
	    "one step a rank, -2.6 %%: named beyond the floor: %s", res);
	ok(strstr(res, "; one step per run: the margin is a guess") != NULL,
	    "... with the margin a guess, in the same sentence");
	is_str(str(r.j, "noise_margin.certainty"), "guess",
	    "--json: the certainty a guess");
	ok(strncmp(str(r.j, "certainty"), "one step per run: the margin is a "
	    "guess", 38) == 0, "--json: and its sentence");
	done(&r);
	n.step_ms = 101;
	compare(&r, &b, &n);
	ok(!compare_changed(r.c) && strstr(str(r.j, "result"),
	    "no significant change") != NULL && strstr(str(r.j, "result"),
	    "the margin is a guess") != NULL,
	    "no change within a guessed margin: said a guess too");
	done(&r);
	b.nsteps = 3;
	compare(&r, &b, &n);
	is_str(str(r.j, "noise_margin.certainty"), "one_run",
	    "three steps in base, one in new: the noise of one run");
	ok(strstr(str(r.j, "result"), "; the noise measured in base only") !=
	    NULL, "... said with the result");
	done(&r);
}

/* A session directory DIR under tmp with one launch: ARGV, ENV, UNSET. */
static char *
session(const char *dir, const char *const argv[], const char *const env[],
    const char *const unset[])
{
	struct launch_record rec;
	char *path;

	if (asprintf(&path, "%s/%s", tmp, dir) == -1 || mkdir(path, 0755) == -1)
		exit(1);
	launch_record_init(&rec);
	rec.status = LAUNCH_INJECTED;
	rec.pid = 1;
	rec.level = strdup("Level1");
	rec.step_start = 2;
	rec.step_end = 4;
	for (; *argv != NULL; argv++)
		strv_push(&rec.argv, *argv);
	for (; *env != NULL; env++)
		strv_push(&rec.env, *env);
	for (; *unset != NULL; unset++)
		strv_push(&rec.env_unset, *unset);
	if (journal_append(path, &rec) == -1)
		exit(1);
	launch_record_free(&rec);
	return path;
}

/* The settings of a JSON comparison: "kind name base new;..." sorted. */
static const char *
settings_of(const cJSON *j)
{
	static char buf[1024];
	const cJSON *x;
	size_t n = 0;

	buf[0] = '\0';
	cJSON_ArrayForEach(x, get(j, "settings.differ")) {
		const cJSON *b = cJSON_GetObjectItem(x, "base"),
		    *v = cJSON_GetObjectItem(x, "new");

		snprintf(buf + n, sizeof(buf) - n, "%s %s %s %s;",
		    str(x, "kind"), str(x, "name"),
		    cJSON_IsString(b) ? b->valuestring : "null",
		    cJSON_IsString(v) ? v->valuestring : "null");
		n = strlen(buf);
	}
	return buf;
}

/*
 * The settings that differ: a flag changed, one removed, a variable set
 * in new alone; not the rendezvous port, not a log named after the time,
 * not the same options in another order; a run without a session not
 * known.
 */
static void
settings(void)
{
	static const char *const argv_b[] = { "/usr/bin/torchrun",
	    "--nproc_per_node", "2", "--master_port", "29500", "train.py",
	    "--lr", "1e-4", "--bf16", "--log", "train_20261205190000.log",
	    "--seed", "-1", NULL };
	static const char *const argv_n[] = { "torchrun", "--master_port=29511",
	    "--nproc_per_node", "2", "train.py", "--seed", "-1", "--log",
	    "train_20261205193512.log", "--lr", "2e-4", NULL };
	static const char *const env_b[] = { "HCCL_BUFFSIZE=200",
	    "MASTER_PORT=29500", NULL };
	static const char *const env_n[] = { "HCCL_BUFFSIZE=200",
	    "MASTER_PORT=29511", "TASK_QUEUE_ENABLE=2", NULL };
	static const char *const unset_b[] = { "TASK_QUEUE_ENABLE", NULL };
	static const char *const none[] = { NULL };
	struct spec b = { ranks0_3, 2, 100, 0.001, -1, ops_base, "Level1", 1, 0 };
	struct result r;
	char *sb = session("session-b", argv_b, env_b, unset_b);
	char *sn = session("session-n", argv_n, env_n, none);

	compare(&r, &b, &b);
	compare_settings(r.c, sb, sn);
	cJSON_Delete(r.j);
	r.j = compare_json(r.c);
	is_str(settings_of(r.j), "flag --lr 1e-4 2e-4;flag --bf16  null;"
	    "environment TASK_QUEUE_ENABLE null 2;",
	    "the flag changed, the flag removed, the variable set: nothing "
	    "else");
	ok(cJSON_IsTrue(get(r.j, "settings.known")), "--json: known");
	free(r.text);
	r.text = NULL;
	{
		size_t len = 0;
		FILE *mem = open_memstream(&r.text, &len);

		compare_print(r.c, mem, 0);
		fclose(mem);
	}
	ok(strstr(r.text, "  settings that differ (the launches as "
	    "msprof-exec recorded them):\n    flag --lr: 1e-4 -> 2e-4\n"
	    "    flag --bf16: given -> not given\n    environment "
	    "TASK_QUEUE_ENABLE: not set -> 2\n") != NULL,
	    "the text: each on its line, as said");
	done(&r);
	compare(&r, &b, &b);
	compare_settings(r.c, sb, NULL);
	cJSON_Delete(r.j);
	r.j = compare_json(r.c);
	ok(!cJSON_IsTrue(get(r.j, "settings.known")) && strncmp(str(r.j,
	    "settings.why"), "not known (no session): new ", 28) == 0,
	    "new without a session: not known, and why: %s",
	    str(r.j, "settings.why"));
	done(&r);
	free(sb);
	free(sn);
}

/* The same step, its time moved from compute to communication. */
static void
shifted(void)
{
	struct spec b = { ranks0_3, 2, 100, 0.001, -1, ops_base, "Level1", 1, 0 };
	struct spec n = b;
	struct result r;

	n.shift = 0.05;
	compare(&r, &b, &n);
	ok(compare_changed(r.c), "5 ms moved from compute to communication: "
	    "a change");
	is_str(str(r.j, "result"), "the step did not change beyond the noise "
	    "margin (+0.0 %), but compute -5.000 ms, exposed communication "
	    "+5.000 ms did (below)", "the result names both figures");
	done(&r);
}

static void
operators(void)
{
	struct spec b = { ranks0_3, 2, 100, 0.001, -1, ops_base, "Level1", 1, 0 };
	struct spec n = b;
	struct result r;
	const cJSON *o;

	/* Twice the steps: the same per step is no change. */
	n.nsteps = 4;
	n.ops = "MatMul:AI_CORE:50:6,Add:AI_VECTOR_CORE:4:4,New:AI_CPU:8:2,"
	    "Tiny:AI_CPU:0.1:1";
	compare(&r, &b, &n);
	o = op(r.j, "MatMul");
	ok(o != NULL && !cJSON_IsTrue(get(o, "significant")) &&
	    fabs(num(o, "base_us") - 50000) < 1 &&
	    fabs(num(o, "new_us") - 50000) < 1,
	    "per rank and step: 4 steps against 2 is no change");
	o = op(r.j, "Add");
	ok(o != NULL && strcmp(str(o, "change"), "faster") == 0 &&
	    cJSON_IsTrue(get(o, "significant")), "Add: faster (-6 ms of 100)");
	o = op(r.j, "Old");
	ok(o != NULL && strcmp(str(o, "change"), "removed") == 0 &&
	    cJSON_IsTrue(get(o, "significant")), "Old: removed");
	o = op(r.j, "New");
	ok(o != NULL && strcmp(str(o, "change"), "added") == 0 &&
	    cJSON_IsTrue(get(o, "significant")) && num(o, "new_calls") == 2,
	    "New: added, 2 calls per step");
	o = op(r.j, "Tiny");
	ok(o != NULL && strcmp(str(o, "change"), "added") == 0 &&
	    !cJSON_IsTrue(get(o, "significant")),
	    "Tiny: added, 0.1 %% of the step, below the margin");
	ok(strstr(r.text, "  added             -      8.000      +8.000  - -> 2 "
	    "         AI_CPU         New\n") != NULL,
	    "the text: New added, calls - -> 2");
	ok(strstr(r.text, "only in new, below the margin: Tiny") != NULL,
	    "the text names Tiny apart");
	ok(strstr(str(r.j, "result"), "3 operator types") != NULL,
	    "the step did not change, 3 operator types did: %s",
	    str(r.j, "result"));
	done(&r);
}

/*
 * A rank of new without step data: the operator times are per rank over
 * the whole collection (two steps here), and so is their margin.  Add
 * +1 ms a step is 1 %% of the step, under the 2 %% floor.
 */
static void
operators_per_rank(void)
{
	struct spec b = { ranks0_3, 2, 100, 0.001, -1, ops_base, "Level1", 1, 0 };
	struct spec n = b;
	struct result r;
	const cJSON *o;

	n.ops = "MatMul:AI_CORE:50:6,Add:AI_VECTOR_CORE:11:4,Old:AI_CORE:5:1";
	new_without_steps = 3;
	compare(&r, &b, &n);
	new_without_steps = -1;
	is_str(str(r.j, "operators.per"), "rank", "operators per rank");
	o = op(r.j, "Add");
	ok(o != NULL && fabs(num(o, "change_us") - 2000) < 1 &&
	    !cJSON_IsTrue(get(o, "significant")),
	    "Add +2 ms per rank over two steps, 1 %% of a step: not named");
	ok(fabs(num(r.j, "operators.margin_us") - 0.02 * 130000) < 1,
	    "their margin is 2 %% of the base operator time per rank "
	    "(%.0f us)", num(r.j, "operators.margin_us"));
	ok(strstr(r.text, "  noise margin: 2.0 % of the base operator time per "
	    "rank (2.600 ms)\n") != NULL, "the text says so");
	done(&r);
}

static void
ranks_compared(void)
{
	struct spec b = { ranks0_7, 2, 100, 0.001, -1, ops_base, "Level1", 1, 0 };
	struct spec n = b;
	struct result r;

	n.ranks = ranks_moved;
	compare(&r, &b, &n);
	is_str(ints(get(r.j, "ranks.only_base")), "4,5,6,7",
	    "--json: ranks 4-7 only in base");
	is_str(ints(get(r.j, "ranks.only_new")), "8,9",
	    "--json: ranks 8-9 only in new");
	is_str(ints(get(r.j, "ranks.both")), "0,1,2,3", "--json: 0-3 in both");
	ok(strstr(r.text, "only in base: 4-7\n") != NULL &&
	    strstr(r.text, "only in new: 8-9\n") != NULL,
	    "the text says them as ranges");
	is_int(cJSON_GetArraySize(get(r.j, "caveats")), 1,
	    "dp 8 against dp 6: the same part of the model, one caveat...");
	ok(strstr(r.text, "caveat: the runs hold different ranks: the means "
	    "are over the 4 ranks with step data in both") != NULL,
	    "... that the means are over the ranks in both");
	done(&r);
	n.ranks = ranks0_7;
	n.slow = 5;
	compare(&r, &b, &n);
	is_str(ints(get(r.j, "ranks.unlike")), "5",
	    "a slow rank: rank 5 alone changed unlike the others");
	ok(strstr(str(r.j, "result"), "rank 5 changed unlike the others") !=
	    NULL, "the result names it");
	ok(strstr(r.text, "    rank 5     step 100.000 -> 127.000 ms") != NULL &&
	    strstr(r.text, "compute +27.000 ms") != NULL,
	    "the text: rank 5, its compute +27 ms");
	ok(strstr(r.text, "the other 7 ranks: step +27.0 %") != NULL,
	    "the other 7 as one line");
	done(&r);
}

static void
caveats(void)
{
	struct spec b = { ranks0_3, 2, 100, 0.001, -1, ops_base, "Level1", 1, 0 };
	struct spec n = b;
	struct result r;
	char *cav;

	n.level = "Level0";
	n.tp = 2;
	compare(&r, &b, &n);
	cav = cJSON_PrintUnformatted(get(r.j, "caveats"));
	ok(strstr(cav, "different levels (base Level1, new Level0)") != NULL,
	    "levels differ: said");
	ok(strstr(cav, "layouts differ (base tp 1, pp 1, dp 4; new tp 2, pp 1, "
	    "dp 2)") != NULL,
	    "layouts differ: said");
	ok(strstr(r.text, "  caveat: the runs were profiled at different "
	    "levels") != NULL, "in the text too");
	ok(!compare_changed(r.c), "and the same data still compares equal");
	free(cav);
	done(&r);
}

static void
refused(void)
{
	struct spec b = { ranks0_3, 2, 100, 0.001, -1, ops_base, "Level1", 1, 0 };
	struct summary_opts o = { 0 };
	struct summary *s = run("refbase", &b), *empty;
	struct compare *c;
	struct summary_rank *rk;
	char *why = NULL, parent[300], dir[400], *p[1] = { parent };
	size_t n;

	empty = summary_build(NULL, 0, &o);
	c = compare_build(s, "base", empty, "emptydir", &why);
	ok(c == NULL && why != NULL && strstr(why, "emptydir: no rank data: "
	    "no *_ascend_pt") != NULL, "no rank directory: refused, naming "
	    "it: %s", why);
	free(why);
	summary_free(empty);
	/* A rank directory with nothing parsed in it. */
	snprintf(parent, sizeof(parent), "%s/raw", tmp);
	snprintf(dir, sizeof(dir), "%s/host_1_20261203081500123_ascend_pt",
	    parent);
	mkdir(parent, 0755);
	mkdir(dir, 0755);
	if (summary_find_ranks(p, 1, &rk, &n, &why) == -1)
		exit(1);
	empty = summary_build(rk, n, &o);
	summary_ranks_free(rk, n);
	c = compare_build(empty, "rawdir", s, "new", &why);
	ok(c == NULL && why != NULL && strstr(why, "rawdir: no rank data: none "
	    "of its *_ascend_pt directories (1) has step data") != NULL,
	    "no step nor operator data: refused, naming it: %s", why);
	free(why);
	summary_free(empty);
	summary_free(s);
}

/* What compare reads: the steps and the operators, not the communication. */
static void
steps_ops_only(void)
{
	struct spec b = { ranks0_3, 2, 100, 0.001, -1, ops_base, "Level1", 1, 0 };
	struct summary_opts o = { .steps_ops_only = 1 };
	struct summary_rank *rk;
	struct summary *s;
	char dir[300], *p[1] = { dir }, *why = NULL;
	cJSON *j;
	size_t n;

	summary_free(run("only", &b));
	snprintf(dir, sizeof(dir), "%s/only", tmp);
	if (summary_find_ranks(p, 1, &rk, &n, &why) == -1)
		exit(1);
	s = summary_build(rk, n, &o);
	j = summary_json(s);
	ok(cJSON_IsTrue(get(j, "summaries.steps.made")) &&
	    cJSON_IsTrue(get(j, "summaries.operators.made")),
	    "steps and operators only: both made");
	is_str(str(j, "summaries.wait.why"), "not read (steps and operators only)",
	    "the collectives' wait is not read");
	is_str(str(j, "summaries.links.why"), "not read (steps and operators only)",
	    "nor the links");
	cJSON_Delete(j);
	summary_free(s);
	summary_ranks_free(rk, n);
}

/* 1,000 ranks a side, 40 unlike, 100 gone and 100 new: one screen. */
static void
many(void)
{
	static int rb[1001], rn[1001];
	struct spec b = { rb, 2, 100, 0.001, -1, "MatMul:AI_CORE:50:6",
	    "Level1", 1, 0 };
	struct spec n = b;
	struct result r;
	int k = 0;

	for (int i = 0; i < 1000; i++)
		rb[i] = i;
	rb[1000] = -1;
	for (int i = 0; i < 1100; i++)
		if (i < 500 || i >= 600)
			rn[k++] = i;
	rn[k] = -1;
	n.ranks = rn;
	n.slow = -1;
	compare(&r, &b, &n);
	ok(lines(r.text) <= 40, "1,000 ranks a side: %d lines of text",
	    lines(r.text));
	ok(strstr(r.text, "only in base: 500-599\n") != NULL &&
	    strstr(r.text, "only in new: 1000-1099\n") != NULL,
	    "ranks in one run only as ranges");
	is_int(cJSON_GetArraySize(get(r.j, "ranks.per_rank")), 900,
	    "--json: every rank in both");
	done(&r);
}

int
main(void)
{
	char cmd[64];

	if (mkdtemp(tmp) == NULL)
		return 1;
	equal_runs();
	noisy_runs();
	certainty();
	settings();
	shifted();
	operators();
	operators_per_rank();
	ranks_compared();
	caveats();
	refused();
	steps_ops_only();
	many();
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmp);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", tmp);
	return done_testing();
}
