/*
 * A cluster of more ranks than the Dixon table covers (120): the vote
 * falls back to 3 sigma, the slow rank is still named and nothing else,
 * and the text lists the slowest ranks first instead of all of them.
 * Then the same cluster without a slow rank but with one rank whose
 * collectives take long (it waited): nobody is voted for.  The rank
 * directories are written here, small and regular, into a temporary
 * directory.
 */
#include <sys/stat.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/summary_writers.h"
#include "tap.h"
#include "advice/advice.h"
#include "report/findings.h"
#include "summary/summary.h"

#define RANKS	120
#define SLOW	77
#define LONG	33	/* the second cluster's rank that waited long */

static char tmp[] = "/tmp/summary_many.XXXXXX";
static int slow = SLOW, long_rank = -1;

static FILE *
create(const char *dir, const char *name)
{
	char path[600];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return fopen(path, "w");
}

static void
write_rank(int r)
{
	char dir[256], out[320];
	FILE *fp;
	int s, k;
	double comp = r == slow ? 90000 : 80000 + (r % 7);
	double exposed = r == slow ? 3000 : 6000 - (r % 7);
	double elapse = r == slow ? 2.0 : r == long_rank ? 40.0 :
	    12.0 + 0.001 * (r % 5);

	snprintf(dir, sizeof(dir), "%s/node%d/host%d_%d_20261203081500123_ascend_pt",
	    tmp, r / 8, r / 8, 1000 + r);
	snprintf(out, sizeof(out), "%s/ASCEND_PROFILER_OUTPUT", dir);
	mkdir(tmp, 0755);
	snprintf(out, sizeof(out), "%s/node%d", tmp, r / 8);
	mkdir(out, 0755);
	mkdir(dir, 0755);
	snprintf(out, sizeof(out), "%s/ASCEND_PROFILER_OUTPUT", dir);
	mkdir(out, 0755);
	snprintf(out, sizeof(out), "profiler_info_%d.json", r);
	fp = create(dir, out);
	fputs("{\"config\": {\"experimental_config\": "
	    "{\"_profiler_level\": \"Level1\"}}}\n", fp);
	fclose(fp);
	snprintf(out, sizeof(out), "%s/ASCEND_PROFILER_OUTPUT", dir);
	fp = create(out, "step_trace_time.csv");
	fputs("Device_id,Step,Computing,Communication(Not Overlapped),"
	    "Overlapped,Communication,Free,Stage,Bubble,"
	    "Communication(Not Overlapped and Exclude Receive),Preparing\n", fp);
	for (s = 4; s < 7; s++)
		fprintf(fp, "%d,%d,%.3f,%.3f,5000,%.3f,4000,0,0,%.3f,100\n",
		    r % 8, s, comp, exposed, exposed + 5000, exposed);
	fclose(fp);
	fp = create(out, "communication.json");
	fputs("{", fp);
	for (s = 4; s < 7; s++) {
		fprintf(fp, "%s\"step%d\": {\"p2p\": {}, \"collective\": {", s > 4 ?
		    ", " : "", s);
		for (k = 0; k < 4; k++)
			fprintf(fp, "%s\"hcom_allReduce__%d_%d_1@42\": {"
			    "\"Communication Time Info\": {\"Elapse Time(ms)\": %.4f, "
			    "\"Wait Time Ratio\": 0.05, \"Synchronization Time Ratio\": "
			    "0.01}}", k ? ", " : "", k, s, elapse);
		fputs("}}", fp);
	}
	fputs("}\n", fp);
	fclose(fp);
}

/* Does finding I of FS, over S, name rank R alone? */
static int
names_alone(const struct summary *s, const struct findings *fs, size_t i,
    int r)
{
	cJSON *j = findings_json(s, fs), *f, *ranks;
	int yes;

	f = cJSON_GetArrayItem(j, (int)i);
	ranks = cJSON_GetObjectItem(f, "ranks");
	yes = cJSON_GetArraySize(ranks) == 1 &&
	    cJSON_GetArrayItem(ranks, 0)->valueint == r;
	cJSON_Delete(j);
	return yes;
}

int
main(void)
{
	struct summary_opts o = { 0 };
	struct advice_in none = { NULL, 0 };	/* no session, no device */
	struct summary_rank *ranks;
	struct summary *s;
	struct findings *fs;
	char *paths[1] = { tmp }, *why = NULL, *text = NULL, cmd[64];
	const char *rule, *ftext;
	size_t n, i, len = 0, named = 0, other = 0;
	FILE *mem;
	int r;

	if (mkdtemp(tmp) == NULL)
		return 1;
	for (r = 0; r < RANKS; r++)
		write_rank(r);
	ok(summary_find_ranks(paths, 1, &ranks, &n, &why) == 0 && n == RANKS,
	    "%d ranks found", RANKS);
	s = summary_build(ranks, n, &o);
	fs = advice_run(s, &none);
	for (i = 0; i < fs->n; i++) {
		rule = fs->f[i].rule->id;
		ftext = fs->f[i].text;
		if (names_alone(s, fs, i, SLOW))
			named |= (strcmp(rule, "waited-for") == 0) << 0 |
			    (strcmp(rule, "slow-rank") == 0) << 1;
		else
			other++, printf("# other finding: [%s] %s\n", rule, ftext);
	}
	ok(named & 1, "3 sigma over %d ranks: the collectives wait for rank %d",
	    RANKS, SLOW);
	ok(named & 2, "the cluster table names rank %d", SLOW);
	is_int(other, 0, "no other finding");
	mem = open_memstream(&text, &len);
	summary_print(s, mem, 0);
	fclose(mem);
	ok(strstr(text, "(120 ranks with steps: the 5 with the longest, then "
	    "the median and the shortest") != NULL,
	    "the text lists the 5 slowest of 120 ranks, the median, the fastest");
	ok(strstr(text, "rank 77 ") != NULL && strstr(text, "rank 77 ") <
	    strstr(text, "Top operators"), "rank 77 among them");
	free(text);
	advice_free(fs);
	summary_free(s);
	summary_ranks_free(ranks, n);

	/* No slow rank; rank LONG waited: a long elapse is no vote. */
	slow = -1;
	long_rank = LONG;
	for (r = 0; r < RANKS; r++)
		write_rank(r);
	ok(summary_find_ranks(paths, 1, &ranks, &n, &why) == 0 && n == RANKS,
	    "%d ranks again", RANKS);
	s = summary_build(ranks, n, &o);
	fs = advice_run(s, &none);
	for (i = 0; i < fs->n; i++)
		printf("# finding: [%s] %s\n", fs->f[i].rule->id,
		    fs->f[i].text);
	is_int(fs->n, 0, "one rank 3 sigma above the mean: no vote, no "
	    "finding");
	advice_free(fs);
	summary_free(s);
	summary_ranks_free(ranks, n);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmp);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", tmp);
	return done_testing();
}
