/*
 * The streaming CSV reader (summary/csv.c) on the profiler's quirks, and
 * what the summary reads through it: quoted fields with a trailing tab,
 * triple-quoted shapes with commas, doubled quotes, newlines in quotes,
 * CRLF, a BOM, a record longer than the read buffer, and a step header of
 * an older build with spaces before "(" and an empty Step.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "report/summary_writers.h"
#include "summary/csv.h"
#include "summary/summary.h"

static char tmp[] = "/tmp/summary_csv.XXXXXX";	/* mkdtemp template */

static void
write_file(const char *path, const char *text, size_t len)
{
	FILE *fp = fopen(path, "w");

	fwrite(text, 1, len, fp);
	fclose(fp);
}

static void
quirks(void)
{
	char path[64], **f, *why = NULL;
	size_t n;
	struct csv *c;
	const char text[] = "\xef\xbb\xbfName,Start Time(us),Input Shapes,Duration(us)\r\n"
	    "\"mm, fused\",\"1700000000000001.250\t\",\"\"\"4096,4096;4096,6144\"\"\",10.5\r\n"
	    "\"say \"\"hi\"\"\",1.0,\"two\nlines\",2\r\n"
	    "short\r\n"
	    "last,2.0,x,3";

	snprintf(path, sizeof(path), "%s/q.csv", tmp);
	write_file(path, text, sizeof(text) - 1);
	c = csv_open(path, &why);
	ok(c != NULL, "opens a file with a BOM and CRLF");
	is_int(csv_col(c, "Name"), 0, "the BOM is not part of the first name");
	is_int(csv_col(c, "Duration(us)"), 3, "the CR is not part of the last name");
	is_int(csv_next(c, &f, &n, &why), 1, "first record");
	is_int(n, 4, "a quoted comma does not split");
	is_str(f[0], "mm, fused", "quoted name with a comma");
	ok(csv_num(f[1]) == 1700000000000001.25, "quoted start time with a "
	    "trailing tab is a number");
	is_str(f[2], "\"4096,4096;4096,6144\"", "triple-quoted shapes");
	ok(csv_num(f[3]) == 10.5, "last field without the CR");
	is_int(csv_next(c, &f, &n, &why), 1, "second record");
	is_str(f[0], "say \"hi\"", "doubled quotes");
	is_str(f[2], "two\nlines", "a newline inside quotes");
	is_int(csv_next(c, &f, &n, &why), 1, "a short record is skipped: "
	    "the next one");
	is_str(f[0], "last", "a last record without a newline, its first field");
	ok(csv_num(f[3]) == 3, "its last field");
	ok(csv_field(f, n, 4)[0] == '\0' && isnan(csv_num(csv_field(f, n, 4))),
	    "a field past the end reads as empty, and as no number");
	is_int(csv_next(c, &f, &n, &why), 0, "then the end");
	{
		unsigned long line;
		size_t nf;

		is_int(csv_ragged(c, &line, &nf), 1, "one record skipped for "
		    "its number of fields...");
		ok(line == 4 && nf == 1, "... the fourth, of one field");
	}
	csv_close(c);
	ok(isnan(csv_num("N/A")) && isnan(csv_num("")) && isnan(csv_num("1x")),
	    "N/A, empty and trailing junk are no numbers");
}

/* A quoted field of 3 MiB with a newline: longer than the buffer. */
static void
long_record(void)
{
	size_t big = 3 << 20, len = big + 64, i;
	char *text = malloc(len), path[64], **f, *why = NULL;
	struct csv *c;
	size_t n, at;
	int rc;

	at = (size_t)sprintf(text, "a,b\n1,\"");
	for (i = 0; i < big; i++)
		text[at + i] = i == big / 3 ? '\n' : 'x';
	at += big;
	at += (size_t)sprintf(text + at, "\"\n2,y\n");
	snprintf(path, sizeof(path), "%s/long.csv", tmp);
	write_file(path, text, at);
	c = csv_open(path, &why);
	rc = csv_next(c, &f, &n, &why);
	ok(rc == 1 && n == 2 && strlen(f[1]) == big && f[1][big / 3] == '\n',
	    "a record longer than the read buffer, a newline inside");
	rc = csv_next(c, &f, &n, &why);
	ok(rc == 1 && strcmp(f[0], "2") == 0 && strcmp(f[1], "y") == 0,
	    "the record after it");
	csv_close(c);
	free(text);
}

static void
errors(void)
{
	char path[64], *why = NULL;

	snprintf(path, sizeof(path), "%s/empty.csv", tmp);
	write_file(path, "", 0);
	ok(csv_open(path, &why) == NULL && strstr(why, "empty.csv") != NULL,
	    "an empty file: an error naming it (%s)", why);
	free(why);
	why = NULL;
	ok(csv_open("/nonexistent/x.csv", &why) == NULL &&
	    strstr(why, "/nonexistent/x.csv") != NULL, "a missing file: named");
	free(why);
}

/* Random bytes of the kinds that matter: no crash, no record lost. */
static void
garbage(void)
{
	static const char alphabet[] = "ab,\"\n\r\t1.";
	char path[64], *text = malloc(1 << 16), **f, *why = NULL;
	int round, sane = 1;

	snprintf(path, sizeof(path), "%s/garbage.csv", tmp);
	srand(11);
	for (round = 0; round < 300; round++) {
		size_t len = 1 + (size_t)rand() % (1 << 16), i, n, lines = 0;
		unsigned long records = 0;
		struct csv *c;

		for (i = 0; i < len; i++) {
			text[i] = alphabet[rand() % (sizeof(alphabet) - 1)];
			lines += text[i] == '\n';
		}
		write_file(path, text, len);
		if ((c = csv_open(path, &why)) == NULL) {
			free(why);
			why = NULL;
			continue;
		}
		while (csv_next(c, &f, &n, &why) > 0)
			records++;
		sane &= records <= lines + 1;
		csv_close(c);
	}
	ok(sane, "300 random files of quotes, commas and newlines: read to the end");
	free(text);
}

/* The fast decimal path gives what strtod gives, bit for bit. */
static void
numbers(void)
{
	char buf[64], cut[64];
	int i, same = 1, same_n = 1;
	size_t n;

	srand(7);
	for (i = 0; i < 100000; i++) {
		int ip = rand() % 100000000, fp = rand() % 1000000;

		snprintf(buf, sizeof(buf), "%s%d.%0*d", i % 7 ? "" : "-", ip,
		    1 + i % 6, fp % (int)(i % 6 == 5 ? 1000000 : 100000));
		same &= csv_num(buf) == strtod(buf, NULL);
		/* The same bytes followed by more, read by length. */
		n = strlen(buf);
		memcpy(buf + n, i % 2 ? ",7" : "5\n", 3);
		memcpy(cut, buf, n);
		cut[n] = '\0';
		same_n &= csv_numn(buf, n) == csv_num(cut);
	}
	ok(same, "100000 decimals: csv_num equals strtod");
	ok(same_n, "and csv_numn reads the same from N bytes followed by more");
	ok(csv_num("1e3") == 1000 && csv_num(" 12.5\t") == 12.5 &&
	    csv_num("123456789012345678") == 123456789012345678.0,
	    "exponents, blanks and long mantissas go through strtod");
	ok(csv_numn("12.5,", 4) == 12.5 && csv_numn("7", 1) == 7 &&
	    csv_numn(" 12.5\t,", 6) == 12.5 && csv_numn("1e3x", 3) == 1000 &&
	    isnan(csv_numn("", 0)) && isnan(csv_numn("N/A,1", 3)) &&
	    isnan(csv_numn("12.5x", 5)) && isnan(csv_numn("-", 1)),
	    "csv_numn: decimals, blanks, exponents; NaN for none");
	{
		char zeros[200];

		memset(zeros, '0', sizeof(zeros));
		zeros[sizeof(zeros) - 1] = '5';
		ok(csv_numn(zeros, sizeof(zeros)) == 5,
		    "and a number longer than its buffer");
	}
}

static cJSON *
summarise(const char *dir, const struct summary_opts *o)
{
	char *paths[] = { (char *)dir };
	struct summary_rank *r;
	size_t n;
	char *why;
	struct summary *s;
	cJSON *j;

	summary_find_ranks(paths, 1, &r, &n, &why);
	s = summary_build(r, n, o);
	j = summary_json(s);
	summary_free(s);
	summary_ranks_free(r, n);
	return j;
}

static double
num(cJSON *o, const char *k)
{
	cJSON *j = cJSON_GetObjectItem(o, k);

	return cJSON_IsNumber(j) ? j->valuedouble : NAN;
}

/* What the summary makes of the quirks fixture. */
static void
fixture(void)
{
	struct summary_opts o = { 0 };
	cJSON *j = summarise("t/data/summary/quirks", &o), *s, *r, *top;

	s = cJSON_GetObjectItem(j, "summaries");
	r = cJSON_GetArrayItem(cJSON_GetObjectItem(cJSON_GetObjectItem(s,
	    "steps"), "ranks"), 0);
	ok(num(r, "computing_us") == 1000.5, "old header: Computing");
	ok(num(r, "communication_not_overlapped_us") == 200.25,
	    "old header: \"Communication (Not Overlapped)\" with a space");
	ok(num(r, "step_us") == 1000.5 + 200.25 + 99.25,
	    "step = Computing + Communication(Not Overlapped) + Free");
	ok(fabs(num(r, "overlap") - 50 / 250.25) < 1e-12,
	    "overlap = Overlapped / Communication");
	ok(cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(r, "steps"),
	    0), "step") == NULL, "an empty Step stays unknown");
	top = cJSON_GetObjectItem(cJSON_GetObjectItem(s, "operators"), "top");
	is_str(cJSON_GetObjectItem(cJSON_GetArrayItem(top, 0), "type")->valuestring,
	    "MatMulV2", "kernel_details with BOM, CRLF, quotes: top operator");
	is_int(num(cJSON_GetArrayItem(top, 0), "count"), 3,
	    "a quoted newline in a name does not split the row");
	ok(num(cJSON_GetArrayItem(top, 0), "median_us") == 20.5,
	    "exact median of few instances");
	ok(num(cJSON_GetArrayItem(top, 1), "total_us") == 2.25,
	    "second operator's time");
	cJSON_Delete(j);
}

/* torch_npu's ProfilerStep to the iteration of the log. */
static void
iterations(void)
{
	struct summary_opts llm = { .window = { ENGINE_LLM_MCORE, 5, 0 } };
	struct summary_opts resumed = {
	    .window = { ENGINE_LLM_MCORE, 105, 100 } };
	struct summary_opts mm = { .window = { ENGINE_MM_MEGATRON, 4, 0 } };
	struct summary_opts fsdp2 = { .window = { ENGINE_LLM_FSDP2, 4, 0 } };
	cJSON *j;

#define FIRST_STEP(j) cJSON_GetArrayItem(cJSON_GetObjectItem(cJSON_GetArrayItem( \
	cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(j, \
	"summaries"), "steps"), "ranks"), 0), "steps"), 0)
	j = summarise("t/data/summary/healthy", &llm);
	is_int(num(FIRST_STEP(j), "step"), 4, "torch step 4");
	is_int(num(FIRST_STEP(j), "iteration"), 5,
	    "MindSpeed-LLM, start 5, fresh: iteration 5");
	cJSON_Delete(j);
	j = summarise("t/data/summary/healthy", &resumed);
	is_int(num(FIRST_STEP(j), "iteration"), 105,
	    "MindSpeed-LLM resumed at 100, start 105: step 4 is iteration 105");
	cJSON_Delete(j);
	j = summarise("t/data/summary/healthy", &mm);
	is_int(num(FIRST_STEP(j), "iteration"), 5,
	    "MindSpeed-MM, start_step 4: step 4 (from 0) is the iteration "
	    "its log prints as 5");
	cJSON_Delete(j);
	j = summarise("t/data/summary/healthy", &fsdp2);
	is_int(num(FIRST_STEP(j), "iteration"), 5,
	    "FSDP2, profile_step_start 4 (from 0): step 4 is iteration 5");
	cJSON_Delete(j);
}

int
main(void)
{
	char cmd[64];

	if (mkdtemp(tmp) == NULL)
		return 1;
	quirks();
	long_record();
	errors();
	numbers();
	garbage();
	fixture();
	iterations();
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmp);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", tmp);
	return done_testing();
}
