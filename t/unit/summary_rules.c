/*
 * Each rule of the advice on a fixture with its anomaly planted and on the
 * healthy one without: the planted finding is named, for the right ranks,
 * and nothing else is (t/data/summary/make-fixtures.py writes the trees).
 * Shapes that are normal, or noise, get no finding.
 */
#include <stdlib.h>
#include <string.h>

#include "report/summary_writers.h"
#include "tap.h"
#include "advice/advice.h"
#include "report/findings.h"
#include "summary/summary.h"

#define DATA	"t/data/summary/"

/* An Atlas 800T A2's HBM, as npu-smi shows it (the fixtures' device). */
#define DEVICE_MB	65536

/* What the advice checks the fixtures against: no session, that device. */
static const struct advice_in device = { NULL, DEVICE_MB };

static struct summary *
load(const char *fixture, const struct summary_opts *opts)
{
	struct summary_opts none = { .device_mb = DEVICE_MB };
	struct summary_rank *r;
	size_t n;
	char *why = NULL, *path = malloc(strlen(DATA) + strlen(fixture) + 1);
	struct summary *s;

	strcpy(path, DATA);
	strcat(path, fixture);
	if (summary_find_ranks(&path, 1, &r, &n, &why) < 0) {
		printf("# %s\n", why);
		free(path);
		return NULL;
	}
	s = summary_build(r, n, opts ? opts : &none);
	summary_ranks_free(r, n);
	free(path);
	return s;
}

/* The advice's findings over S, as the report's JSON lists them. */
static cJSON *
findings_of(const struct summary *s)
{
	struct findings *fs = advice_run(s, &device);
	cJSON *j = findings_json(s, fs);

	advice_free(fs);
	return j;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * "rule@ranks rule ..." sorted, the way the expectations are written: the
 * ranks joined with ",", a "?" for each directory of no rank, nothing
 * after the rule when it names none.
 */
static char *
findings(const struct summary *s)
{
	cJSON *a = findings_of(s), *f;
	char *v[64], *out = calloc(1, 4096);
	int n = 0, i;

	cJSON_ArrayForEach(f, a) {
		cJSON *r;
		char buf[256];
		size_t len;

		len = (size_t)snprintf(buf, sizeof(buf), "%s@",
		    cJSON_GetObjectItem(f, "rule")->valuestring);
		cJSON_ArrayForEach(r, cJSON_GetObjectItem(f, "ranks"))
			len += (size_t)snprintf(buf + len, sizeof(buf) - len,
			    "%d,", r->valueint);
		cJSON_ArrayForEach(r, cJSON_GetObjectItem(f, "directories"))
			len += (size_t)snprintf(buf + len, sizeof(buf) - len,
			    "?,");
		buf[len - 1] = '\0';	/* the last "," or the "@" */
		if (n < 64)
			v[n++] = strdup(buf);
	}
	qsort(v, n, sizeof(*v), cmp_str);
	for (i = 0; i < n; i++) {
		if (i > 0)
			strcat(out, " ");
		strcat(out, v[i]);
		free(v[i]);
	}
	cJSON_Delete(a);
	return out;
}

/*
 * The summaries not made, "name name ...".  The fixtures hold no timeline
 * (trace_view.json): idle is never made from them.
 */
static char *
not_made(const struct summary *s)
{
	cJSON *j = summary_json(s), *k;
	char *out = calloc(1, 256);

	cJSON_ArrayForEach(k, cJSON_GetObjectItem(j, "summaries"))
		if (cJSON_IsFalse(cJSON_GetObjectItem(k, "made"))) {
			if (*out)
				strcat(out, " ");
			strcat(out, k->string);
		}
	cJSON_Delete(j);
	return out;
}

static const struct {
	const char *fixture, *findings, *not_made;
} cases[] = {
	{ "healthy", "", "idle" },
	/* One finding for all the ranks it applies to. */
	{ "host-bound", "host-bound@0,1,2,3", "idle" },
	/* A matrix multiply leading a transformer is normal; Add is not. */
	{ "dominant-op", "", "idle" },
	{ "dominant-add", "dominant-operator", "idle" },
	{ "aicpu", "aicpu-operator", "idle" },
	/*
	 * OP State dynamic is every aclnn kernel of a real run: no finding.
	 * Operators compiled while profiled are one; real data's cache hits
	 * (opCompile some 20 us a call) are not.
	 */
	{ "dynamic", "", "idle" },
	{ "op-compile", "dynamic-shape@0,1,2,3", "idle" },
	{ "op-cached", "", "idle" },
	{ "transdata", "format-conversion", "idle" },
	{ "low-pipe", "low-pipe-utilisation", "idle" },
	{ "pipe-split", "", "idle" },	/* ratio columns N/A in some rows */
	{ "pipe-ranks", "", "idle" },	/* ratio columns missing on ranks */
	/* The others wait for rank 3: exposed on them, not overlap's to fix. */
	{ "slow-rank", "slow-rank@3 wait-ratio@3 waited-for@3", "idle" },
	/*
	 * One slow rank of 12: all but it wait, the lowest tenth too; the
	 * wait is not exposed communication that overlap could hide.
	 */
	{ "slow-rank-many", "slow-rank@3 wait-ratio@3 waited-for@3",
	    "operators links memory idle" },
	/*
	 * Two ranks: the one that computes more, when the other waits for
	 * it; not when the step table and the collectives disagree, nor
	 * when neither waits.
	 */
	{ "two-slow", "slow-rank@1", "idle" },
	{ "two-disagree", "", "idle" },
	{ "two-no-wait", "", "idle" },
	/* Stages are not each other's peers: the stage, not a rank. */
	{ "slow-stage", "slow-stage@2,3", "idle" },
	/* Ranks of another layout (a directory used again): the job's stages. */
	{ "mixed-layout", "slow-stage@2,3", "idle" },
	{ "noisy", "", "idle" },	/* spread evenly: no rank stands out */
	{ "wide-spread", "", "idle" },	/* beyond 5 %, within 3 x MAD */
	{ "uniform-wait", "", "idle" },	/* all wait alike: for no one of them */
	{ "close-wait", "", "idle" },	/* the lowest 0.055 below: under 0.1 */
	/* pp 4: stages wait for stage 0 by construction, not for a rank */
	{ "pipe-wait", "", "idle" },
	{ "exposed-comm", "exposed-communication@0,1,2,3", "idle" },
	{ "exposed-ddp", "exposed-communication@0,1,2,3", "idle" },
	{ "exposed-sharded", "exposed-communication@0,1,2,3", "idle" },
	{ "bubble", "pipeline-bubble@0,1,2,3", "idle" },
	{ "unfused", "unfused-attention unfused-rmsnorm unfused-rotary "
	    "unfused-swiglu", "idle" },
	{ "partly-fused", "", "idle" },	/* RmsNorm runs: fused, Rsqrt or not */
	/* Swish, Neg outside the unfused forms: too few for the attention */
	{ "dit-silu", "", "idle" },
	{ "mamba-neg", "", "idle" },
	{ "memory-near", "memory-near-limit@1", "idle" },
	{ "memory-room", "memory-headroom@0,1,2,3", "idle" },
	{ "memory-damaged", "", "idle" },	/* "inf" is no peak */
	{ "launch-blocking", "host-bound@0,1,2,3 launch-blocking@0,1,2,3",
	    "idle" },
	{ "log-level", "debug-logging@0,1,2,3", "idle" },
	{ "wait-link", "wait-link@0,1,2,3", "idle" },
	{ "slow-link", "slow-link@1", "idle" },
	{ "small-packets", "small-packets@2", "idle" },
	{ "small-packets-no-matrix", "small-packets@2", "links idle" },
	/* SDMA collectives of 8 MB, no Size Distribution: by operator */
	{ "small-ops", "small-packets@2", "idle" },
	/* rank 3's unaligned transfers, 1 ms of 9: under 20 % */
	{ "unaligned", "byte-alignment@1", "idle" },
	{ "level0", "", "wait links idle" },
	{ "no-kernels", "", "idle" },
	{ "zero-durations", "", "idle" },	/* no device time, no share */
	{ "partial", "", "idle" },
	{ "db", "slow-link@1", "operators memory idle" },
	/* Ranks 0-1 text ("step4"), 2-3 db ("4"): one collective each. */
	{ "mixed-export", "slow-rank@3 wait-ratio@3 waited-for@3", "idle" },
	/* two directories: neither is the one that stands out of the two */
	{ "no-rank", "host-bound@?", "wait links idle" },
};

/* The text of the first finding of RULE (until the next call). */
static const char *
text_of(const struct summary *s, const char *rule)
{
	static char t[2048];
	struct findings *fs = advice_run(s, &device);
	size_t i;

	*t = '\0';
	for (i = 0; i < fs->n && *t == '\0'; i++)
		if (strcmp(fs->f[i].rule->id, rule) == 0)
			snprintf(t, sizeof(t), "%s", fs->f[i].text);
	advice_free(fs);
	return t;
}

static void
details(void)
{
	struct summary *s = load("slow-rank", NULL);
	cJSON *j = summary_json(s), *c, *x;

	ok(strstr(text_of(s, "slow-rank"), "Computing is 20.000 ms a step "
	    "above the median of its peers") != NULL,
	    "slow rank: its excess over its peers' median (%s)",
	    text_of(s, "slow-rank"));
	c = cJSON_GetObjectItem(cJSON_GetObjectItem(j, "summaries"), "cluster");
	is_int(cJSON_GetObjectItem(c, "slow_rank")->valueint, 3,
	    "slow rank: the most computing is rank 3");
	is_str(cJSON_GetArrayItem(cJSON_GetObjectItem(c, "operator_difference"),
	    0)->child->valuestring, "MatMulV2",
	    "slow rank: the operator differing most is named first");
	x = cJSON_GetArrayItem(cJSON_GetObjectItem(c, "ranks"), 3);
	ok(cJSON_GetObjectItem(x, "computing_us") != NULL &&
	    cJSON_GetObjectItem(x, "communication_not_overlapped_us") != NULL &&
	    cJSON_GetObjectItem(x, "free_us") != NULL &&
	    cJSON_GetObjectItem(x, "bubble_us") != NULL &&
	    cJSON_GetObjectItem(x, "Computing") == NULL,
	    "cluster JSON: the step breakdown's keys, with their unit");
	is_int(cJSON_IsNumber(cJSON_GetObjectItem(x, "computing_us")) ?
	    (int)cJSON_GetObjectItem(x, "computing_us")->valuedouble : -1,
	    100000, "cluster JSON: rank 3 computes 100000 us");
	is_str(cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(c,
	    "spread"), 0), "column")->valuestring, "computing_us",
	    "cluster JSON: the spread names the key");
	cJSON_Delete(j);
	summary_free(s);

	s = load("two-slow", NULL);
	ok(strstr(text_of(s, "slow-rank"), "Computing is 20.000 ms a step "
	    "above that of its one peer, rank 0") != NULL &&
	    strstr(text_of(s, "slow-rank"), "20.000 ms more exposed "
	    "communication") != NULL && strstr(text_of(s, "slow-rank"),
	    "last in 6 of their 6 collectives") != NULL,
	    "two ranks: the excess, the peer's wait and the arrivals (%s)",
	    text_of(s, "slow-rank"));
	summary_free(s);
	s = load("slow-stage", NULL);
	ok(strstr(text_of(s, "slow-stage"), "stage 1") != NULL,
	    "slow stage: stage 1 is named (%s)", text_of(s, "slow-stage"));
	summary_free(s);

	s = load("slow-link", NULL);
	ok(strstr(text_of(s, "slow-link"), "1 -> 2 (RDMA)") != NULL,
	    "slow link: 1 -> 2 over RDMA is named (%s)", text_of(s, "slow-link"));
	summary_free(s);

	s = load("dominant-add", NULL);
	ok(strncmp(text_of(s, "dominant-operator"), "Add ", 4) == 0,
	    "dominant operator: Add (%s)", text_of(s, "dominant-operator"));
	summary_free(s);

	s = load("op-compile", NULL);
	ok(strstr(text_of(s, "dynamic-shape"), "opCompile takes 10.0 ms a step, "
	    "11.2 % of the step") != NULL,
	    "operators compiled: opCompile's time a step and its share (%s)",
	    text_of(s, "dynamic-shape"));
	summary_free(s);

	s = load("small-ops", NULL);
	ok(strstr(text_of(s, "small-packets"), "100.0 % of its SDMA operators") !=
	    NULL, "small packets by operator (%s)", text_of(s, "small-packets"));
	summary_free(s);

	s = load("unaligned", NULL);
	ok(strstr(text_of(s, "byte-alignment"), "rank 1, 100.0 %") != NULL,
	    "byte alignment: rank 1's transfers (%s)",
	    text_of(s, "byte-alignment"));
	summary_free(s);

	s = load("transdata", NULL);
	ok(strstr(text_of(s, "format-conversion"), "TransData takes 7.") !=
	    NULL, "format conversion: TransData's share (%s)",
	    text_of(s, "format-conversion"));
	summary_free(s);
}

/* The names of the settings of RULE's finding in S, " "-joined. */
static char *
settings_of(const struct summary *s, const char *rule)
{
	cJSON *j = findings_of(s), *f, *x;
	char *out = calloc(1, 4096);

	cJSON_ArrayForEach(f, j) {
		if (strcmp(cJSON_GetObjectItem(f, "rule")->valuestring, rule) != 0)
			continue;
		cJSON_ArrayForEach(x, cJSON_GetObjectItem(f, "settings")) {
			if (*out)
				strcat(out, " ");
			strncat(out, cJSON_GetObjectItem(x, "name")->valuestring,
			    4096 - strlen(out) - 2);
		}
	}
	cJSON_Delete(j);
	return out;
}

/*
 * Real torch_npu output (t/data/real: a 2-rank DDP CNN): every kernel is
 * dynamic and nothing is compiled, two ranks have no peers to stand out
 * from, and the job has no Megatron.
 */
static void
real_data(void)
{
	static const char *const sets[] = {
		"msinsight-2025/text/level0", "msinsight-2025/text/level1",
		"msinsight-2025/text/level2", "msinsight-2025/db/level0",
		"msinsight-2025/db/level1", "msinsight-2025/db/level2",
		"msinsight-2024/text/level0", "msinsight-2024/text/level1",
		"msinsight-2024/db/level1",
	};
	size_t i;
	char *f, *set;
	struct summary *s;

	for (i = 0; i < sizeof(sets) / sizeof(sets[0]); i++) {
		char path[128];

		snprintf(path, sizeof(path), "../real/%s", sets[i]);
		if ((s = load(path, NULL)) == NULL) {
			ok(0, "%s: loaded", sets[i]);
			continue;
		}
		f = findings(s);
		ok(strstr(f, "dynamic-shape") == NULL &&
		    strstr(f, "wait-ratio") == NULL &&
		    strstr(f, "slow-rank") == NULL &&
		    strstr(f, "dominant-operator") == NULL,
		    "real %s: no dynamic-shape, wait-ratio, slow-rank, nor a "
		    "dominant operator of no type (level0's N/A) (%s)",
		    sets[i], f);
		free(f);
		summary_free(s);
	}

	s = load("../real/msinsight-2025/text/level1", NULL);
	ok(strstr(text_of(s, "format-conversion"), "TransData takes 16.0 %") !=
	    NULL, "real 2025 level1: TransData's 16 %% (%s)",
	    text_of(s, "format-conversion"));
	set = settings_of(s, "format-conversion");
	ok(strstr(set, "allow_internal_format = False") != NULL,
	    "real 2025 level1: allow_internal_format (%s)", set);
	free(set);
	set = settings_of(s, "exposed-communication");
	ok(*set != '\0' && strstr(set, "--") == NULL &&
	    strstr(set, "fsdp_plan") == NULL &&
	    strstr(set, "bucket_cap_mb") != NULL,
	    "real 2025 level1, DDP, no session: DDP's settings, no Megatron "
	    "flag, no MindSpeed-MM key (%s)", set);
	free(set);
	summary_free(s);

	s = load("exposed-comm", NULL);
	set = settings_of(s, "exposed-communication");
	ok(strstr(set, "--overlap-grad-reduce") != NULL &&
	    strstr(set, "bucket_cap_mb") == NULL &&
	    strstr(set, "zero_optimization") == NULL &&
	    strstr(set, "fsdp_plan") == NULL,
	    "distributed_args (Megatron), no session: Megatron's flags only (%s)",
	    set);
	free(set);
	summary_free(s);

	s = load("exposed-ddp", NULL);
	set = settings_of(s, "exposed-communication");
	ok(strstr(set, "bucket_cap_mb") != NULL && strstr(set, "--") == NULL &&
	    strstr(set, "zero_optimization") == NULL,
	    "no distributed_args, all-reduces: DDP's settings only (%s)", set);
	free(set);
	summary_free(s);

	s = load("exposed-sharded", NULL);
	set = settings_of(s, "exposed-communication");
	ok(strstr(set, "overlap_comm") != NULL && strstr(set, "--") == NULL &&
	    strstr(set, "bucket_cap_mb") == NULL,
	    "no distributed_args, all-gathers and reduce-scatters: DeepSpeed's, "
	    "not DDP's (%s)", set);
	free(set);
	summary_free(s);
}

/* Directories without a rank: each on its own, its rank null, never -1. */
static void
unknown_rank(void)
{
	struct summary *s = load("no-rank", NULL);
	cJSON *j = summary_json(s), *x, *c;
	int nulls = 0, numbers = 0;

	cJSON_ArrayForEach(x, cJSON_GetObjectItem(j, "ranks")) {
		nulls += cJSON_IsNull(cJSON_GetObjectItem(x, "rank"));
		numbers += cJSON_IsNumber(cJSON_GetObjectItem(x, "rank"));
	}
	c = cJSON_GetObjectItem(cJSON_GetObjectItem(j, "summaries"), "steps");
	cJSON_ArrayForEach(x, cJSON_GetObjectItem(c, "ranks")) {
		nulls += cJSON_IsNull(cJSON_GetObjectItem(x, "rank"));
		numbers += cJSON_IsNumber(cJSON_GetObjectItem(x, "rank"));
	}
	c = cJSON_GetObjectItem(cJSON_GetObjectItem(j, "summaries"), "cluster");
	cJSON_ArrayForEach(x, cJSON_GetObjectItem(c, "ranks")) {
		nulls += cJSON_IsNull(cJSON_GetObjectItem(x, "rank")) +
		    cJSON_IsNull(cJSON_GetObjectItem(x, "pp"));
		numbers += cJSON_IsNumber(cJSON_GetObjectItem(x, "rank")) +
		    cJSON_IsNumber(cJSON_GetObjectItem(x, "pp"));
	}
	is_int(nulls, 8, "no rank: null in ranks, steps and the cluster table");
	is_int(numbers, 0, "no rank: never a number (-1 would mean all ranks)");
	cJSON_Delete(j);
	j = findings_of(s);
	ok(strstr(cJSON_GetArrayItem(cJSON_GetObjectItem(cJSON_GetArrayItem(
	    j, 0), "directories"), 0)->valuestring, "node0-host_4001_") != NULL,
	    "no rank: the finding names the directory");
	cJSON_Delete(j);
	summary_free(s);
}

/* The summary's text. */
static char *
text(const struct summary *s)
{
	char *out = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&out, &len);

	summary_print(s, mem, 0);
	fclose(mem);
	return out;
}

/* Level0 and missing files say why, never zeros. */
static void
reasons(void)
{
	char *t;
	struct summary *s = load("level0", NULL);
	cJSON *j = summary_json(s), *k;

	k = cJSON_GetObjectItem(cJSON_GetObjectItem(j, "summaries"), "wait");
	ok(strstr(cJSON_GetObjectItem(k, "why")->valuestring, "level0") != NULL,
	    "level0: the wait vote says level0 writes no communication files");
	ok(cJSON_GetObjectItem(k, "votes") == NULL, "level0: and shows no votes");
	cJSON_Delete(j);
	summary_free(s);

	s = load("no-kernels", NULL);
	j = summary_json(s);
	k = cJSON_GetObjectItem(cJSON_GetObjectItem(j, "summaries"), "operators");
	is_int(cJSON_GetObjectItem(k, "ranks")->valueint, 3,
	    "no kernel_details.csv on rank 1: operators of the other 3 ranks");
	cJSON_Delete(j);
	summary_free(s);

	s = load("partial", NULL);
	j = summary_json(s);
	k = cJSON_GetArrayItem(cJSON_GetObjectItem(cJSON_GetObjectItem(
	    cJSON_GetObjectItem(j, "summaries"), "steps"), "ranks"), 2);
	ok(cJSON_GetObjectItem(k, "why") != NULL &&
	    cJSON_GetObjectItem(k, "step_us") == NULL,
	    "a rank without output: a reason, no step figures");
	k = cJSON_GetObjectItem(cJSON_GetObjectItem(j, "summaries"), "cluster");
	is_int(cJSON_GetArraySize(cJSON_GetObjectItem(k, "ranks")), 3,
	    "a rank without output: the cluster table has the other 3");
	cJSON_Delete(j);
	summary_free(s);

	s = load("memory-damaged", NULL);
	t = text(s);
	ok(strstr(t, "  2 of 4 ranks; peak reserved") != NULL &&
	    strstr(t, "  no peak for rank 1: ") != NULL &&
	    strstr(t, "memory_record.csv: no memory rows (and one more rank") !=
	    NULL, "device memory: the first rank without a peak, its file and "
	    "why, in the text");
	free(t);
	summary_free(s);
}

int
main(void)
{
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct summary *s = load(cases[i].fixture, NULL);
		char *f, *m;

		if (s == NULL) {
			ok(0, "%s: loaded", cases[i].fixture);
			continue;
		}
		f = findings(s);
		m = not_made(s);
		is_str(f, cases[i].findings, "%s: findings", cases[i].fixture);
		is_str(m, cases[i].not_made, "%s: summaries not made",
		    cases[i].fixture);
		free(f);
		free(m);
		summary_free(s);
	}
	details();
	real_data();
	unknown_rank();
	reasons();
	return done_testing();
}
