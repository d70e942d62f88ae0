/* Reading, merging and writing JSON configuration files with cJSON. */
#include <sys/stat.h>

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "jsonfile.h"
#include "outfile.h"
#include "util.h"

char *
json_print(const cJSON *j, int pretty)
{
	char *raw = pretty ? cJSON_Print(j) : cJSON_PrintUnformatted(j);
	char *out, *o;
	const unsigned char *s;
	size_t n;

	if (raw == NULL)
		return NULL;
	/* outside strings cJSON writes ASCII, so any bad byte is in one */
	o = out = xmalloc(strlen(raw) * 6 + 1);
	for (s = (const unsigned char *)raw; *s != '\0'; s += n) {
		if ((n = utf8_seq(s)) == 0) {
			o += sprintf(o, "\\udc%02x", *s);
			n = 1;
		} else {
			memcpy(o, s, n);
			o += n;
		}
	}
	*o = '\0';
	cJSON_free(raw);
	return out;
}

/* Is "\\udcXX" (XX from 80 to ff) at S? Then its byte. */
static int
escaped_byte(const char *s)
{
	unsigned v;
	int len = 0;

	if (strncmp(s, "\\u", 2) != 0 || strncasecmp(s + 2, "dc", 2) != 0 ||
	    sscanf(s + 4, "%2x%n", &v, &len) != 1 || len != 2 ||
	    !isxdigit((unsigned char)s[4]) || v < 0x80)
		return -1;
	return (int)v;
}

/* Is "\\uD800" to "\\uDBFF" at S, the first half of a UTF-16 pair? */
static int
high_surrogate(const char *s)
{
	return strncmp(s, "\\u", 2) == 0 && (s[2] == 'd' || s[2] == 'D') &&
	    s[3] != '\0' &&
	    strchr("89abAB", s[3]) != NULL && isxdigit((unsigned char)s[4]) &&
	    isxdigit((unsigned char)s[5]);
}

cJSON *
json_parse(const char *text, const char **end)
{
	char *buf, *o;
	size_t *at, nat = 0, n;
	const char *s;
	int in_string = 0, b;
	cJSON *j;

	/* Without a backslash there is no escape to map: cJSON reads TEXT. */
	if (strchr(text, '\\') == NULL)
		return cJSON_ParseWithOpts(text, end, 1);
	o = buf = xstrdup(text);
	/* where each escape turned into a byte is in BUF, to map END back */
	at = xcalloc(strlen(text) / 6 + 1, sizeof(*at));
	for (s = text; *s != '\0'; s++) {
		if (in_string && high_surrogate(s)) {
			/* a pair: its low half may look like one of ours */
			n = strncmp(s + 6, "\\u", 2) == 0 &&
			    strnlen(s + 6, 6) == 6 ? 12 : 6;
			memcpy(o, s, n);
			o += n, s += n - 1;
			continue;
		}
		if (in_string && *s == '\\' && (b = escaped_byte(s)) != -1) {
			at[nat++] = (size_t)(o - buf);
			*o++ = (char)b;
			s += 5;
			continue;
		}
		if (in_string && *s == '\\' && s[1] != '\0') {
			*o++ = *s++;	/* the escaped character: never a quote */
		} else if (*s == '"')
			in_string = !in_string;
		*o++ = *s;
	}
	*o = '\0';
	j = cJSON_ParseWithOpts(buf, end, 1);
	if (end != NULL && *end != NULL) {	/* the same place in TEXT */
		size_t off = (size_t)(*end - buf), k = 0;

		while (k < nat && at[k] < off)
			k++;
		*end = text + off + 5 * k;
	}
	free(at);
	free(buf);
	return j;
}

cJSON *
json_read(const char *path, char **why)
{
	char *text = read_file(path, NULL);
	const char *end = NULL;
	size_t line = 1, col = 1;
	cJSON *j;

	if (text == NULL) {
		*why = xasprintf(_("cannot read %s: %s"), path,
		    read_error(errno));
		return NULL;
	}
	j = json_parse(text, &end);
	if (j == NULL) {
		for (const char *p = text; end != NULL && p < end; p++, col++)
			if (*p == '\n')
				line++, col = 0;
		*why = xasprintf(_("%s:%zu:%zu: invalid JSON; fix the file (a "
		    "missing comma or quote is the usual cause)"), path, line,
		    col);
	}
	free(text);
	return j;
}

int
json_write(const cJSON *j, const char *path, char **why)
{
	return json_write_dated(j, path, 0, why);
}

int
json_write_dated(const cJSON *j, const char *path, time_t mtime, char **why)
{
	char *text = json_print(j, 1), *line;
	struct timespec t[2] = { { mtime, 0 }, { mtime, 0 } };
	struct outfile o;
	size_t len, off = 0;
	ssize_t w;

	if (text == NULL) {
		*why = xasprintf(_("cannot write %s: %s"), path,
		    i18n_strerror(ENOMEM));
		return -1;
	}
	line = xasprintf("%s\n", text);
	free(text);
	len = strlen(line);
	if (outfile_open(&o, path, OUTFILE_REPLACE, why) == -1) {
		free(line);
		return -1;
	}
	while (off < len && ((w = write(o.fd, line + off, len - off)) > 0 ||
	    (w == -1 && errno == EINTR)))
		off += w > 0 ? (size_t)w : 0;
	free(line);
	if (off < len || (mtime != 0 && futimens(o.fd, t) == -1)) {
		*why = xasprintf(_("cannot write %s: %s"), path,
		    i18n_strerror(off < len && errno == 0 ? EIO : errno));
		outfile_discard(&o);
		return -1;
	}
	return outfile_close(&o, why);
}

void
json_merge(cJSON *dst, const cJSON *src)
{
	const cJSON *item;
	cJSON *old;

	cJSON_ArrayForEach(item, src) {
		old = cJSON_GetObjectItemCaseSensitive(dst, item->string);
		if (cJSON_IsObject(item) && cJSON_IsObject(old))
			json_merge(old, item);
		else if (old != NULL)
			cJSON_ReplaceItemInObjectCaseSensitive(dst, item->string,
			    cJSON_Duplicate(item, 1));
		else
			cJSON_AddItemToObject(dst, item->string,
			    cJSON_Duplicate(item, 1));
	}
}

cJSON *
json_ints(const int *v, size_t n)
{
	cJSON *a = cJSON_CreateArray();

	for (size_t i = 0; i < n; i++)
		cJSON_AddItemToArray(a, cJSON_CreateNumber(v[i]));
	return a;
}

cJSON *
json_strv(char *const v[])
{
	cJSON *a = cJSON_CreateArray();

	for (; v != NULL && *v != NULL; v++)
		cJSON_AddItemToArray(a, cJSON_CreateString(*v));
	return a;
}
