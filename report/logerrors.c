/*
 * The errors a failed training's log gives in its own words: CANN's
 * error codes, the last line of a Python traceback, and torchrun's report
 * of the worker that failed first.  Each is found where it is (its line),
 * and said once however many ranks print it.
 */
#include <stdlib.h>
#include <string.h>

#include "logerrors.h"

/* Of an error: so much of its line is kept. */
#define ERROR_TEXT_MAX	300
/* A traceback's error is looked for so many lines after its header. */
#define TRACEBACK_LINES	400

/* The line of LOG at P, counted from 1. */
static int
line_of(const char *log, const char *p)
{
	int n = 1;

	for (const char *c = log; c < p; c++)
		n += *c == '\n';
	return n;
}

/*
 * LINE (up to EOL) without the prefix torchrun and deepspeed put on a
 * worker's output ("[default0]:", "[rank1]:").
 */
static const char *
bare(const char *line, const char *eol)
{
	const char *c;

	if (*line == '[' && (c = memchr(line, ']', (size_t)(eol - line))) !=
	    NULL && c + 1 < eol && c[1] == ':' && c - line < 24)
		line = c + 2;
	return line;
}

/* LINE as bare, and without the level some loggers put before CANN's words. */
static const char *
bare_cann(const char *line, const char *eol)
{
	line = bare(line, eol);
	while (line < eol && (*line == ' ' || *line == '\t'))
		line++;
	if (eol - line > 8 && strncmp(line, "[ERROR] ", 8) == 0)
		line += 8;
	return line;
}

static void
add(struct log_errors *e, const char *kind, const char *text, size_t len,
    int line, int more)
{
	struct log_error *x;

	e->v = xreallocarray(e->v, e->n + 1, sizeof(*e->v));
	x = &e->v[e->n++];
	x->kind = kind;
	x->text = xstrndup(text, len > ERROR_TEXT_MAX ? ERROR_TEXT_MAX : len);
	x->line = line;
	x->more = more;
}

/* CANN's code at S ("EE1001: ", "EZ9999: ", "E39999: "): its length, or 0. */
static size_t
cann_code(const char *s)
{
	if (s[0] != 'E' || !((s[1] >= 'A' && s[1] <= 'Z') ||
	    (s[1] >= '0' && s[1] <= '9')))
		return 0;
	for (int i = 2; i < 6; i++)
		if (s[i] < '0' || s[i] > '9')
			return 0;
	return s[6] == ':' ? 6 : 0;
}

/* Does the line at S, after CANN's code, say nothing but "Inner Error!"? */
static int
says_nothing(const char *s, const char *eol)
{
	static const char inner[] = "Inner Error!";
	size_t n = (size_t)(eol - s);

	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\r'))
		n--;
	return n == sizeof(inner) - 1 && memcmp(s, inner, n) == 0;
}

/*
 * The first line with a CANN code that says something (not "Inner
 * Error!", which the code's next line explains), and how many other
 * lines give the same code.
 */
static void
cann_errors(const char *log, struct log_errors *e)
{
	const char *first = NULL, *first_eol = NULL, *code = NULL;
	int more = 0;

	for (const char *line = log; *line != '\0';) {
		const char *eol = strchrnul(line, '\n'), *s = bare_cann(line, eol);
		size_t n = (size_t)(eol - s) > 7 ? cann_code(s) : 0;

		if (n > 0 && first == NULL && !says_nothing(s + n + 2, eol)) {
			first = s;
			first_eol = eol;
			code = s;
		} else if (n > 0 && code != NULL && strncmp(s, code, n) == 0 &&
		    !says_nothing(s + n + 2, eol))
			more++;
		line = *eol == '\n' ? eol + 1 : eol;
	}
	if (first != NULL)
		add(e, LOG_ERROR_CANN, first, (size_t)(first_eol - first),
		    line_of(log, first), more);
}

/* The exception's name of an error line ("RuntimeError: ..."): its length. */
static size_t
exception_name(const char *s, const char *eol)
{
	const char *colon = memchr(s, ':', (size_t)(eol - s));

	return colon != NULL ? (size_t)(colon - s) : (size_t)(eol - s);
}

/* Does the name from S to E end as an exception's does? */
static int
exception_name_end(const char *s, const char *e)
{
	static const char *const ends[] = { "Error", "Exception",
	    "Interrupt", "Exit", "Warning", NULL };
	size_t n;

	for (int i = 0; ends[i] != NULL; i++)
		if ((size_t)(e - s) >= (n = strlen(ends[i])) &&
		    strncmp(e - n, ends[i], n) == 0)
			return 1;
	return 0;
}

/*
 * Does the line at S start as an exception's does: a dotted name that
 * ends as one (Error, Exception...), then ": " or the line's end
 * ("KeyError", "torch.OutOfMemoryError: ...")?  Not a logger's "INFO:".
 */
static int
exception_like(const char *s, const char *eol)
{
	const char *c = s;

	if (!((*s | 0x20) >= 'a' && (*s | 0x20) <= 'z'))
		return 0;
	while (c < eol && (*c == '.' || *c == '_' || (*c >= '0' &&
	    *c <= '9') || ((*c | 0x20) >= 'a' && (*c | 0x20) <= 'z')))
		c++;
	return exception_name_end(s, c) && (c == eol || *c == ':' ||
	    *c == '\r');
}

/*
 * The line that ends the traceback at TB (the first after its indented
 * frames), or NULL when it is a launcher's report of its workers.
 */
static const char *
traceback_end(const char *tb, const char **eolp)
{
	const char *line, *eol, *s;
	int n = 0;

	for (line = strchrnul(tb, '\n'); *line == '\n' &&
	    n++ < TRACEBACK_LINES;) {
		line++;
		eol = strchrnul(line, '\n');
		s = bare(line, eol);
		/* frames, and the lines of other ranks written between */
		if (!exception_like(s, eol)) {
			line = eol;
			continue;
		}
		if (memmem(s, (size_t)(eol - s), "ChildFailedError", 16) !=
		    NULL || (size_t)(eol - s) < 3)
			return NULL;
		*eolp = eol;
		return s;
	}
	return NULL;
}

/*
 * argparse's refusal: "PROG: error: MESSAGE" after its "usage: " lines,
 * and no traceback.  The line, or NULL.
 */
static const char *
argparse_error(const char *log, const char **eolp)
{
	const char *line = log, *eol, *s, *e;
	int usage = 0;

	for (; *line != '\0'; line = *eol == '\n' ? eol + 1 : eol) {
		eol = strchrnul(line, '\n');
		s = bare(line, eol);
		usage |= strncmp(s, "usage: ", 7) == 0;
		if (!usage || (e = memmem(s, (size_t)(eol - s), ": error: ",
		    9)) == NULL || memchr(s, ' ', (size_t)(e - s)) != NULL ||
		    e == s)
			continue;
		*eolp = eol;
		return s;
	}
	return NULL;
}

/*
 * The error of the first traceback that is not a launcher's, and how many
 * other tracebacks end in the same exception.
 */
static void
python_errors(const char *log, struct log_errors *e)
{
	static const char tb[] = "Traceback (most recent call last):";
	const char *first = NULL, *first_eol = NULL, *s, *eol;
	int more = 0;

	for (const char *p = strstr(log, tb); p != NULL; p = strstr(p + 1, tb)) {
		if ((s = traceback_end(p, &eol)) == NULL)
			continue;
		if (first == NULL) {
			first = s;
			first_eol = eol;
		} else if (exception_name(s, eol) ==
		    exception_name(first, first_eol) &&
		    strncmp(s, first, exception_name(s, eol)) == 0)
			more++;
	}
	if (first == NULL)
		first = argparse_error(log, &first_eol);
	if (first != NULL)
		add(e, LOG_ERROR_PYTHON, first, (size_t)(first_eol - first),
		    line_of(log, first), more);
}

/* The value of FIELD ("rank") in the lines from P to END, trimmed, or NULL. */
static char *
field(const char *p, const char *end, const char *name)
{
	size_t len = strlen(name);

	for (const char *line = p; line < end;) {
		const char *eol = strchrnul(line, '\n'), *v;
		const char *s = bare_cann(line, eol);

		if (eol > end)
			eol = end;
		if (strncmp(s, name, len) == 0 && (s[len] == ' ' ||
		    s[len] == ':')) {
			for (v = s + len; v < eol && (*v == ' ' || *v == ':');
			    v++)
				;
			while (eol > v && (eol[-1] == ' ' || eol[-1] == '\r'))
				eol--;
			return xstrndup(v, (size_t)(eol - v));
		}
		line = *eol == '\n' ? eol + 1 : eol;
		if (line == eol)
			break;
	}
	return NULL;
}

/*
 * torch.distributed.elastic's ChildFailedError: the worker its "Root
 * Cause (first observed failure)" names, with its exit code and error
 * file.
 */
static void
child_failure(const char *log, struct log_errors *e)
{
	static const char head[] = "Root Cause (first observed failure):";
	const char *p = strstr(log, head), *end;
	char *rank, *code, *file, *text;

	if (p == NULL)
		return;
	/* the block ends at its rule of '=' */
	if ((end = strstr(p, "\n====")) == NULL)
		end = p + strlen(p);
	rank = field(p, end, "rank");
	code = field(p, end, "exitcode");
	file = field(p, end, "error_file");
	/* TRANSLATORS: the rank, its exit code, its error file, as given */
	text = xasprintf(_("ChildFailedError: rank %s failed first, exitcode "
	    "%s, error_file %s"), rank != NULL ? rank : "?", code != NULL ? code :
	    "?", file != NULL ? file : "?");
	add(e, LOG_ERROR_CHILD, text, strlen(text), line_of(log, p), 0);
	free(text);
	free(rank);
	free(code);
	free(file);
}

void
log_errors_find(const char *log, struct log_errors *e)
{
	memset(e, 0, sizeof(*e));
	if (log == NULL)
		return;
	cann_errors(log, e);
	python_errors(log, e);
	child_failure(log, e);
}

void
log_errors_free(struct log_errors *e)
{
	for (size_t i = 0; i < e->n; i++)
		free(e->v[i].text);
	free(e->v);
	memset(e, 0, sizeof(*e));
}
