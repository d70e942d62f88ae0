/*
 * Fuzz target "summary": the readers of a rank's profiler output
 * (summary/jscan.c and comm.c for the JSON files, summary/csv.c for the
 * CSV files) through summary_build and the advice over it, their text,
 * JSON and page.  What
 * torch_npu leaves may be cut short by a full disk, a killed parse or a
 * copy; none of it may crash, hang or be used half-read without a word.
 *
 * Input: a selector byte (which file of the rank directory), then the
 * file.  Checked besides memory safety:
 * - a JSON file the reader stops on is named in the summary's files left
 *   out (profiler_metadata.json aside: only its first part is read), and
 *   a valid one only for a field of the wrong type;
 * - every proper prefix of a JSON document that is an object or an array
 *   is an error of the reader: cut short, or empty.
 */
#include <sys/stat.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"
#include "advice/advice.h"
#include "report/findings.h"
#include "report/summary_writers.h"
#include "summary/jscan.h"
#include "summary/summary.h"

#define RANKDIR	"host_1_20260101000000000_ascend_pt"
#define OUT	RANKDIR "/ASCEND_PROFILER_OUTPUT"

static const char *const files[] = {
	OUT "/communication.json", OUT "/communication_matrix.json",
	RANKDIR "/profiler_metadata.json", RANKDIR "/profiler_info_0.json",
	OUT "/step_trace_time.csv", OUT "/kernel_details.csv",
	OUT "/op_statistic.csv",
};
#define NFILES	(sizeof(files) / sizeof(files[0]))

/* The reader's error on PATH, read whole and skipped. */
static enum js_err
skim(const char *path)
{
	struct jscan js;
	enum js_err e;

	if (js_open(&js, path) == 0 && js_skip(&js) == 1)
		js_finish(&js);
	e = js_error(&js);
	js_close(&js);
	return e;
}

/*
 * The summary and the advice's findings over it as text, JSON and a page
 * (to memory); the reason of the first file left out, or NULL.
 */
static char *
outputs(const struct summary *s)
{
	char *buf = NULL, *reason = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	struct advice_in none = { NULL, 0 };
	struct findings *fs = advice_run(s, &none);
	cJSON *j = summary_json(s), *r;

	FUZZ_CHECK(fp != NULL, "open_memstream");
	summary_print(s, fp, SUMMARY_UTF8);
	findings_print(s, fs, fp, SUMMARY_UTF8);
	cJSON_Delete(findings_json(s, fs));
	report_data_page(s, fs, fp);
	advice_free(fs);
	fclose(fp);
	free(buf);
	r = cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(j,
	    "left_out"), 0), "reason");
	if (cJSON_IsString(r))
		reason = strdup(r->valuestring);
	cJSON_Delete(j);
	return reason;
}

/* Prefixes of a document that is an object or an array are errors. */
static void
prefixes(const uint8_t *data, size_t size, const char *name)
{
	size_t first = 0, cut[3] = { 0, size / 2, size - 1 };
	const char *path;
	enum js_err e;

	while (first < size && strchr(" \t\r\n", data[first]) != NULL)
		first++;
	if (first == size || (data[first] != '{' && data[first] != '['))
		return;
	for (int i = 0; i < 3; i++) {
		if (cut[i] >= size)
			continue;
		path = fuzz_file(name, data, cut[i]);
		e = skim(path);
		FUZZ_CHECK(e == JS_EMPTY || e == JS_CUT_SHORT,
		    "a prefix of a document read as whole, or not as cut");
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char dir[] = RANKDIR;
	char *paths[] = { dir };
	const char *name, *path;
	struct summary_opts o = { 0 };
	struct summary_rank *ranks;
	struct summary *s;
	size_t n, json;
	char *why = NULL, *reason;
	enum js_err e;

	if (size < 1)
		return 0;
	fuzz_enter();
	mkdir(RANKDIR, 0755);
	mkdir(OUT, 0755);
	for (size_t i = 0; i < NFILES; i++)
		unlink(files[i]);
	name = files[data[0] % NFILES];
	json = strstr(name, ".json") != NULL;
	path = fuzz_file(name, data + 1, size - 1);
	e = json ? skim(path) : JS_OK;
	FUZZ_CHECK(summary_find_ranks(paths, 1, &ranks, &n, &why) == 0 &&
	    n == 1, "the rank directory is found");
	s = summary_build(ranks, n, &o);
	reason = outputs(s);
	if (json && e != JS_OK && strstr(name, "metadata") == NULL)
		FUZZ_CHECK(summary_nleft_out(s) > 0,
		    "a JSON file the reader stops on is not named");
	if (json && e == JS_OK)
		FUZZ_CHECK(reason == NULL || strcmp(reason,
		    js_reason(JS_WRONG_TYPE)) == 0,
		    "a valid JSON file left out, not for a field's type");
	free(reason);
	summary_free(s);
	summary_ranks_free(ranks, n);
	if (json && e == JS_OK)
		prefixes(data + 1, size - 1, name);
	fuzz_leave();
	return 0;
}
