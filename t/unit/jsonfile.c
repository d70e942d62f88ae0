/* Unit tests of JSON text with bytes that are not UTF-8 (jsonfile.c). */
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "common/jsonfile.h"

/* The one string of a one-element array printed and parsed back. */
static char *
round_trip(const char *s, char **text)
{
	cJSON *a = cJSON_CreateArray(), *b;
	char *got = NULL;

	cJSON_AddItemToArray(a, cJSON_CreateString(s));
	*text = json_print(a, 0);
	b = json_parse(*text, NULL);
	if (cJSON_IsArray(b) && cJSON_IsString(cJSON_GetArrayItem(b, 0)))
		got = strdup(cJSON_GetArrayItem(b, 0)->valuestring);
	cJSON_Delete(a);
	cJSON_Delete(b);
	return got;
}

static void
check(const char *s, const char *want_text, const char *name)
{
	char *text, *got = round_trip(s, &text);

	is_str(text, want_text, "%s: printed", name);
	ok(got != NULL && strcmp(got, s) == 0, "%s: parsed back byte for byte",
	    name);
	free(text);
	free(got);
}

int
main(void)
{
	const char *end = NULL;
	cJSON *j;

	check("plain", "[\"plain\"]", "ASCII");
	check("\xe4\xb8\xad\xe6\x96\x87", "[\"\xe4\xb8\xad\xe6\x96\x87\"]",
	    "valid UTF-8 is kept as it is");
	check("w\xff\xfe x", "[\"w\\udcff\\udcfe x\"]",
	    "bytes that are not UTF-8 become \\udcXX");
	check("\xe4\xb8", "[\"\\udce4\\udcb8\"]", "a cut sequence");
	check("\xc0\xaf", "[\"\\udcc0\\udcaf\"]", "an overlong '/'");
	check("\xed\xa0\x80", "[\"\\udced\\udca0\\udc80\"]",
	    "an encoded UTF-16 surrogate");
	check("a\\udcff", "[\"a\\\\udcff\"]",
	    "a literal backslash-u text stays text");
	check("line1\nline2\"q", "[\"line1\\nline2\\\"q\"]",
	    "newline and quote escaped as usual");

	j = json_parse("{\"k\": \"\\udc41\"}", NULL);
	ok(j == NULL, "\\udcXX below 0x80 is not one of ours: still refused");
	cJSON_Delete(j);
	j = json_parse("{\"k\": \"\\uDCFF\"}", NULL);
	ok(j != NULL && strcmp(cJSON_GetObjectItem(j, "k")->valuestring,
	    "\xff") == 0, "upper-case hex digits too");
	cJSON_Delete(j);
	j = json_parse("[\"\\ud800\\udc80\"]", NULL);
	ok(j != NULL && strcmp(cJSON_GetArrayItem(j, 0)->valuestring,
	    "\xf0\x90\x82\x80") == 0, "a UTF-16 pair whose low half is "
	    "\\udc80 stays U+10080");
	cJSON_Delete(j);
	j = json_parse("[\"\\UDC80\"]", NULL);
	ok(j == NULL, "\\U is no JSON escape: refused");
	cJSON_Delete(j);
	j = json_parse("{\"a\": \"\\udc80\\udc81\",\n\"b\": x}", &end);
	ok(j == NULL && end != NULL && *end == 'x', "the error position "
	    "counts the escapes of the input");
	cJSON_Delete(j);
	j = json_parse("{\"a\": 1}\n", NULL);
	ok(j != NULL, "trailing white space accepted");
	cJSON_Delete(j);
	j = json_parse("{\"a\": 1} x", &end);
	ok(j == NULL && end != NULL && *end == 'x', "trailing text refused, "
	    "position given");
	cJSON_Delete(j);
	return done_testing();
}
