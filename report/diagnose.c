/*
 * Known failure messages in a training log, and what to do about each.
 * One table row a rule: the log lines that show the failure, what it
 * means, and the fix.  A rule is added with one row (and its case in
 * t/unit/diagnose.c).
 */
#include <sys/socket.h>

#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "diagnose.h"
#include "torchnpu.h"

/* What the c10d store and the launchers print when the port is taken. */
#define PORT_IN_USE	"Address already in use"

/* Numbers in a message or advice are written {1}, {2}, {3}; a file {f}. */
#define NNUMS	3

/* Where a rule's pattern was found, and what its texts need from there. */
struct found {
	const char		*log;
	const char		*hit, *end;	/* the pattern in LOG */
	const struct torchnpu	*torch;		/* NULL: not known */
	int			 mm;		/* a MindSpeed-MM run */
	int			 n[NNUMS];
	char			*file;		/* or NULL */
};

struct rule {
	const char	*name;
	const char	*patterns[3];	/* any of them shows the failure */
	/*
	 * Optional: read what the texts need where a pattern was found; 0
	 * when the rule does not apply there after all.
	 */
	int		(*read)(struct found *);
	const char	*message, *advice;
	const char	*advice_mm;	/* for MindSpeed-MM, when it differs */
};

/* A TCP port at or above FROM (up to 65535) that nothing listens on, or -1. */
static int
free_port(int from)
{
	struct sockaddr_in a;

	for (int port = from; port > 0 && port < 65536 && port < from + 200;
	    port++) {
		int fd, ok;

		if ((fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0)) == -1)
			return -1;
		memset(&a, 0, sizeof(a));
		a.sin_family = AF_INET;
		a.sin_port = htons((uint16_t)port);
		ok = bind(fd, (struct sockaddr *)&a, sizeof(a)) == 0;
		close(fd);
		if (ok)
			return port;
	}
	return -1;
}

/* The port on HIT's line: "... [::]:6000 (errno: 98 ..." or "...:6000) ...". */
static int
busy_port(const char *log, const char *hit)
{
	const char *q;

	for (q = hit; q > log && q[-1] != '\n'; q--)
		;
	for (const char *c = hit; c > q; c--)
		if (c[-1] == ':' && c[0] >= '0' && c[0] <= '9')
			return atoi(c);
	return -1;
}

/* The port in use, and a free one to take instead. */
static int
port_and_free(struct found *f)
{
	f->n[0] = busy_port(f->log, f->hit);
	f->n[1] = f->n[0] > 0 ? free_port(f->n[0] + 1) : -1;
	return f->n[0] > 0 && f->n[1] > 0;
}

/* The port in use, and no free one after it. */
static int
port_only(struct found *f)
{
	return busy_port(f->log, f->hit) > 0 && !port_and_free(f);
}

/* A port in use that the log never names. */
static int
port_unnamed(struct found *f)
{
	const char *hit;

	for (hit = strstr(f->log, PORT_IN_USE); hit != NULL;
	    hit = strstr(hit + 1, PORT_IN_USE))
		if (busy_port(f->log, hit) > 0)
			return 0;
	return 1;
}

/* tee's error on the same line: the directory of its file is missing. */
static int
tee_no_dir(struct found *f)
{
	const char *eol = strchr(f->end, '\n');
	const char *e = strstr(f->end, "No such file or directory");

	return e != NULL && (eol == NULL || e < eol);
}

/*
 * c10d's client that found no server: "timed out after 10s while trying to
 * connect to (127.0.0.1, 29500)." (torch 2 counts 600000ms): the seconds,
 * and the port.
 */
static int
connect_timeout(struct found *f)
{
	const char *eol = strchr(f->end, '\n'), *close, *port;
	char *unit;
	long v = strtol(f->end, &unit, 10);

	if (unit == f->end || (close = strchr(unit, ')')) == NULL ||
	    (eol != NULL && close > eol))
		return 0;
	for (port = close; port > unit && port[-1] >= '0' && port[-1] <= '9';
	    port--)
		;
	if (port == close)
		return 0;
	f->n[0] = (int)(strncmp(unit, "ms", 2) == 0 ? v / 1000 : v);
	f->n[1] = atoi(port);
	return 1;
}

/*
 * The c10d server that waited in vain: "Timed out after 901 seconds
 * waiting for clients. 1/2 clients joined.": the seconds, who joined, and
 * who was expected.
 */
static int
clients_timeout(struct found *f)
{
	static const char mid[] = " seconds waiting for clients. ";
	char *p;

	f->n[0] = (int)strtol(f->end, &p, 10);
	if (p == f->end || strncmp(p, mid, sizeof(mid) - 1) != 0)
		return 0;
	f->n[1] = (int)strtol(p + sizeof(mid) - 1, &p, 10);
	if (*p != '/' || p[1] < '0' || p[1] > '9')
		return 0;
	f->n[2] = atoi(p + 1);
	return 1;
}

/* The number right after the pattern. */
static int
number(struct found *f)
{
	if (*f->end < '0' || *f->end > '9')
		return 0;
	f->n[0] = atoi(f->end);
	return 1;
}

/* The iteration the checkpoint resumes from, and a window after it. */
static int
resumed(struct found *f)
{
	if (!number(f))
		return 0;
	f->n[1] = f->n[0] + 1;
	f->n[2] = f->n[0] + 3;
	return 1;
}

/*
 * torch_npu's "The start_step=S, current_step=C": a trigger for at once
 * (-1) that this torch_npu ignores, or (LATE) a start it took too late.
 */
static int
not_effective(struct found *f, int late)
{
	const char *eol = strchr(f->end, '\n');
	const char *s = strstr(f->end, "The start_step=");

	if (s == NULL || (eol != NULL && s > eol))
		return 0;
	f->n[0] = atoi(s + 15);
	s = strstr(s, "current_step=");
	f->n[1] = s != NULL && (eol == NULL || s < eol) ? atoi(s + 13) : -1;
	return late ? f->n[0] >= 0 : f->n[0] < 0;
}

static int
trigger_ignored(struct found *f)
{
	return not_effective(f, 0);
}

/*
 * The process of torch_npu's console line at HIT ("... [WARNING] [PID]
 * profiler.py: ..."), or -1.
 */
static long
line_pid(const char *log, const char *hit)
{
	const char *q, *p;

	for (q = hit; q > log && q[-1] != '\n'; q--)
		;
	for (p = hit; p >= q + 2; p--) {
		char *end;
		long pid;

		if (p[-2] == ' ' && p[-1] == '[' && p[0] >= '0' && p[0] <= '9' &&
		    (pid = strtol(p, &end, 10)) > 0 && *end == ']')
			return pid;
	}
	return -1;
}

/*
 * A start step already past, unless the process (the pid on the line)
 * collected its window, as its own torch_npu log says: then an arming
 * made for a process that started later reached it past its window.
 */
static int
config_late(struct found *f)
{
	const struct torchnpu *t = f->torch;
	long pid = line_pid(f->log, f->hit);

	for (size_t i = 0; t != NULL && pid > 0 && i < t->nprocs; i++)
		if (t->procs[i].pid == pid && t->procs[i].start >= 0)
			return 0;
	return not_effective(f, 1);
}

/* The file torch_npu asks to remove: "Please remove: PATH, and retry." */
static int
remove_file(struct found *f)
{
	static const char what[] = "Please remove: ";
	const char *eol = strchrnul(f->end, '\n'), *p;
	size_t len;

	if ((p = memmem(f->end, (size_t)(eol - f->end), what,
	    sizeof(what) - 1)) == NULL)
		return 0;
	p += sizeof(what) - 1;
	if ((len = strcspn(p, ", \t\r\n")) == 0)
		return 0;
	f->file = xstrndup(p, len);
	return 1;
}

/*
 * The path of torch_npu's "The path 'P' is invalid, and profiler will not
 * be enabled.", on a MindSpeed-MM run (MM) or not.
 */
static int
refused_path(struct found *f, int mm)
{
	static const char what[] = "The path '";
	const char *q, *p;

	for (q = f->hit; q > f->log && q[-1] != '\n'; q--)
		;
	if ((p = memmem(q, (size_t)(f->hit - q), what, sizeof(what) - 1)) ==
	    NULL)
		return 0;
	p += sizeof(what) - 1;
	if ((q = memmem(p, (size_t)(f->hit - p), "' is invalid",
	    strlen("' is invalid"))) == NULL)
		return 0;
	if (f->mm != mm)
		return 0;
	f->file = xstrndup(p, (size_t)(q - p));
	return 1;
}

/* MindSpeed-MM's dynamic mode hands torch_npu its --dynamic-dir. */
static int
refused_mm(struct found *f)
{
	return refused_path(f, 1);
}

/* Elsewhere the path is PROF_CONFIG_PATH, the only one torch_npu checks. */
static int
refused_torch(struct found *f)
{
	return refused_path(f, 0);
}

static const struct rule rules[] = {
	{ "out-of-memory", { "NPU out of memory" }, NULL,
	  N_("NPU out of memory"),
	  N_("lower --micro-batch-size (or --seq-length), use recomputation "
	  "or more parallelism; profiling with memory or stack adds to the "
	  "footprint"),
	  N_("lower the micro batch size (or the sequence length), use "
	  "recomputation or more parallelism, and keep profiling light: "
	  "--data-simplification, no --with memory,stack") },
	{ "master-port", { PORT_IN_USE }, port_and_free,
	  N_("MASTER_PORT {1} is already in use on this node (another job, or "
	  "a leftover process: ss -ltnp | grep :{1})"),
	  N_("set MASTER_PORT to a free port, e.g. {2}"), NULL },
	{ "master-port-no-free", { PORT_IN_USE }, port_only,
	  N_("MASTER_PORT {1} is already in use on this node (another job, or "
	  "a leftover process: ss -ltnp | grep :{1})"),
	  N_("set MASTER_PORT to a free port"), NULL },
	{ "master-port-unnamed", { PORT_IN_USE }, port_unnamed,
	  N_("the master port is already in use on this node"),
	  N_("set MASTER_PORT to a free port"), NULL },
	/* the nodes of a job that never all met (torchrun's rendezvous) */
	{ "rendezvous-no-master", { "The client socket has timed out after " },
	  connect_timeout,
	  N_("this node found no master at port {2} within {1} s: the node "
	  "of rank 0 (MASTER_ADDR) did not start the job, failed at its "
	  "start, or cannot be reached from here"),
	  N_("start the job on every node with the same MASTER_ADDR, "
	  "MASTER_PORT and --nnodes, read the log of node 0 for its own "
	  "failure, and check that this node can connect to port {2} of "
	  "MASTER_ADDR (firewall, container network)"), NULL },
	{ "rendezvous-missing-nodes", { "Timed out after " }, clients_timeout,
	  N_("the master waited {1} s for the job's other nodes and only {2} "
	  "of {3} joined: the others did not start the job, failed at their "
	  "start, or cannot reach the master"),
	  N_("start the job on every node with the same MASTER_ADDR, "
	  "MASTER_PORT and --nnodes; the log of a node that did not join says "
	  "why"), NULL },
	{ "rendezvous-timeout", { "Socket Timeout" }, NULL,
	  N_("the ranks did not all meet in time at torch.distributed's "
	  "rendezvous (Socket Timeout): a rank on another node failed at its "
	  "start, started too late, or cannot reach the master"),
	  N_("read every node's log for the first failure, node 0's first, "
	  "and start all the nodes within the timeout"), NULL },
	{ "checkpoint-mismatch", { "size mismatch for", "shape mismatch" },
	  NULL,
	  N_("the checkpoint does not fit the model: it was converted with "
	  "another tensor/pipeline parallel size (TP/PP) than the script uses"),
	  N_("stop and convert the weights again with the script's TP and PP"),
	  NULL },
	{ "tee-logs-dir", { "tee: " }, tee_no_dir,
	  N_("the script logs with '| tee logs/...' but the logs directory "
	  "does not exist"),
	  N_("run 'mkdir -p logs' first"), NULL },
	{ "start-step-zero", { "profile_step_start should be greater than 0 "
	  "but now it is " }, number,
	  N_("MindSpeed refused profile_step_start {1} (steps count from 1)"),
	  N_("use --steps 1:3 or later"), NULL },
	{ "start-step-resumed", { "iteration will be loaded from checkpoint, "
	  "profile_step_start should be greater than " }, resumed,
	  N_("the run resumes from iteration {1} of its checkpoint (--load)"),
	  N_("the window must start after it, e.g. --steps {2}:{3}"), NULL },
	/* torch_npu's own warnings when it collects nothing */
	{ "dynamic-not-effective", { "Dynamic Profiler config is not "
	  "effective" }, trigger_ignored,
	  N_("the dynamic profiler ignored the trigger: its start step was "
	  "already past (start_step -1, trigger --now, needs torch_npu 2.7.1 "
	  "or later)"),
	  N_("run 'msprof-exec trigger --start N' with a step still ahead"),
	  NULL },
	{ "dynamic-config-late", { "Dynamic Profiler config is not "
	  "effective" }, config_late,
	  N_("torch_npu took the profiling config at step {2}, after its start "
	  "step {1}, and collected nothing"),
	  N_("start later with --steps: torch_npu passes a changed config on "
	  "every 2 s, and msprof-exec arms it once the workers have started "
	  "(with msprof-exec trigger, give --start a step still ahead)"),
	  NULL },
	{ "stopped-in-warmup", { "Incorrect schedule: Stop profiler while "
	  "current state is WARMUP" }, NULL,
	  N_("training ended while the profiler was still warming up, before "
	  "the window"),
	  N_("lower --steps or raise --train-iters"), NULL },
	{ "online-parse-failed", { "Profiling data parsing failed",
	  "Failed to get acl to npu flow events" }, NULL,
	  N_("torch_npu could not parse the data online: what "
	  "ASCEND_PROFILER_OUTPUT holds may be incomplete"),
	  N_("parse again offline with 'msprof-exec analyse', and keep the "
	  "CANN, torch_npu and driver versions in step"), NULL },
	{ "dynamic-dir-invalid", { "and profiler will not be enabled" },
	  refused_mm,
	  N_("torch_npu refused the dynamic profiling directory (config_path) "
	  "{f} as invalid"),
	  N_("give --dynamic-dir an existing directory the job can write"),
	  NULL },
	{ "prof-config-invalid", { "and profiler will not be enabled" },
	  refused_torch,
	  N_("torch_npu refused the config directory {f} (PROF_CONFIG_PATH, "
	  "or the path given to dynamic_profile.init) and profiled nothing: "
	  "it takes only letters, digits, white space, Chinese characters "
	  "and _ . / ~ -, no symbolic link and names of up to 255 bytes"),
	  N_("give PROF_CONFIG_PATH such a directory, or -o an output "
	  "directory of such a name, where msprof-exec makes its own"), NULL },
	/*
	 * torch_npu's import stops at the node's shared memory (one per node
	 * and hour) made more than 15 minutes before its process
	 */
	{ "dynamic-stale-shm", { "There may exist shared memory before this "
	  "task" }, remove_file,
	  N_("torch_npu stopped the training at its start: the node has the "
	  "shared memory of dynamic profiling {f}, made more than 15 minutes "
	  "before, by a job that was killed or still runs"),
	  N_("once no job on this node runs with PROF_CONFIG_PATH, remove it "
	  "(rm {f}) and run again"), NULL },
};

#define NRULES	(sizeof(rules) / sizeof(rules[0]))

size_t
diagnose_nrules(void)
{
	return NRULES;
}

const char *
diagnose_rule(size_t i)
{
	return i < NRULES ? rules[i].name : NULL;
}

/* TEXT with {1}..{3} replaced by F's numbers, {f} by its file. */
static char *
fill(const char *text, const struct found *f)
{
	char *s = NULL;
	size_t size;
	FILE *out = open_memstream(&s, &size);

	if (out == NULL)
		abort();
	for (const char *p = text; *p != '\0'; p++)
		if (p[0] == '{' && p[1] >= '1' && p[1] <= '0' + NNUMS &&
		    p[2] == '}') {
			fprintf(out, "%d", f->n[p[1] - '1']);
			p += 2;
		} else if (strncmp(p, "{f}", 3) == 0 && f->file != NULL) {
			/* a path from the log: no control byte reaches the
			   terminal */
			char *e = xescape(f->file);

			fputs(e, out);
			free(e);
			p += 2;
		} else
			putc(*p, out);
	fclose(out);
	return s;
}

/* Does F->log show R's failure?  F: where, and what its texts need. */
static int
applies(const struct rule *r, struct found *f)
{
	for (size_t k = 0; k < 3 && r->patterns[k] != NULL; k++) {
		size_t len = strlen(r->patterns[k]);

		for (f->hit = strstr(f->log, r->patterns[k]); f->hit != NULL;
		    f->hit = strstr(f->hit + 1, r->patterns[k])) {
			f->end = f->hit + len;
			if (r->read == NULL || r->read(f))
				return 1;
		}
	}
	return 0;
}

void
diagnose_log(const char *log, int mm, const struct torchnpu *t,
    struct diagnosis *out)
{
	const char *advice;
	char *msg, *adv;

	for (size_t i = 0; log != NULL && i < NRULES; i++) {
		const struct rule *r = &rules[i];
		struct found f = { .log = log, .torch = t, .mm = mm };

		if (!applies(r, &f))
			continue;
		advice = mm && r->advice_mm != NULL ? r->advice_mm : r->advice;
		msg = fill(_(r->message), &f);
		adv = fill(_(advice), &f);
		free(f.file);
		strv_push(&out->rules, r->name);
		/* TRANSLATORS: a failure found in the log, then its fix. */
		strv_pushf(&out->texts, _("%s: %s"), msg, adv);
		free(msg);
		free(adv);
	}
}

void
diagnosis_free(struct diagnosis *d)
{
	strv_free(&d->texts);
	strv_free(&d->rules);
}

int
log_last_iteration(const char *log)
{
	int last = -1;

	if (log == NULL)
		return -1;
	for (const char *p = log; (p = strstr(p, "iteration")) != NULL;) {
		int n;

		p += strlen("iteration");
		while (*p == ' ')
			p++;
		n = atoi(p);
		while (*p >= '0' && *p <= '9')
			p++;
		if (*p == '/' && n > last)
			last = n;
	}
	return last;
}

int
log_shows_failure(const char *log)
{
	/* what a launcher prints when a worker failed */
	static const char *const marks[] = { "ChildFailedError",
	    "Traceback (most recent call last):", "[ERROR] failed (exitcode:",
	    NULL };

	for (int i = 0; log != NULL && marks[i] != NULL; i++)
		if (strstr(log, marks[i]) != NULL)
			return 1;
	return 0;
}

/*
 * LINE (up to EOL) without the prefix torchrun and deepspeed put on a
 * worker's output ("[default0]:", "[rank1]:"), so that a traceback reads
 * the same from a worker as from a process of its own.
 */
static const char *
unprefixed(const char *line, const char *eol)
{
	const char *c;

	if (*line == '[' && (c = memchr(line, ']', (size_t)(eol - line))) !=
	    NULL && c + 1 < eol && c[1] == ':' && c - line < 24)
		return c + 2;
	return line;
}

char *
log_error(const char *log)
{
	static const char tb[] = "Traceback (most recent call last):";
	const char *p, *line, *eol, *s;

	for (p = log != NULL ? strstr(log, tb) : NULL; p != NULL;
	    p = strstr(p + 1, tb)) {
		/* the first line after the frames, which are indented */
		for (line = strchrnul(p, '\n'); *line == '\n';) {
			line++;
			eol = strchrnul(line, '\n');
			s = unprefixed(line, eol);
			if (*s == ' ' || *s == '\t' || s == eol) {
				line = eol;
				continue;
			}
			/* a launcher's report of its workers' failure */
			if (memmem(s, (size_t)(eol - s), "ChildFailedError",
			    16) != NULL || (size_t)(eol - s) < 3)
				break;
			return xstrndup(s, (size_t)(eol - s) > 300 ? 300 :
			    (size_t)(eol - s));
		}
	}
	return NULL;
}

/* Is P, in LOG, where a word starts? */
static int
word_start(const char *log, const char *p)
{
	return p == log || !(p[-1] == '_' || (p[-1] >= '0' && p[-1] <= '9') ||
	    ((p[-1] | 0x20) >= 'a' && (p[-1] | 0x20) <= 'z'));
}

/*
 * Does the line around P end an exception ("RuntimeError: loss is nan at
 * step 3")?  Its numbers are the error's, not the training's count.
 */
static int
exception_line(const char *log, const char *p)
{
	const char *b, *e, *colon;

	for (b = p; b > log && b[-1] != '\n'; b--)
		;
	e = strchrnul(p, '\n');
	b = unprefixed(b, e);
	if ((colon = memchr(b, ':', (size_t)(e - b))) == NULL || colon > p)
		return 0;
	for (const char *c = b; c < colon; c++)
		if (!(*c == '.' || *c == '_' || (*c >= '0' && *c <= '9') ||
		    ((*c | 0x20) >= 'a' && (*c | 0x20) <= 'z')))
			return 0;
	return (colon - b >= 5 && strncmp(colon - 5, "Error", 5) == 0) ||
	    (colon - b >= 9 && strncmp(colon - 9, "Exception", 9) == 0);
}

int
log_last_step(const char *log, char **line)
{
	static const char *const words[] = { "step", "iteration", NULL };
	const char *at = NULL;
	int last = -1;

	for (const char *p = log; p != NULL && *p != '\0'; p++) {
		const char *q;
		size_t len;
		int k, n;

		if ((*p | 0x20) != 's' && (*p | 0x20) != 'i')
			continue;
		for (k = 0; words[k] != NULL; k++)
			if (strncasecmp(p, words[k], strlen(words[k])) == 0)
				break;
		if (words[k] == NULL || !word_start(log, p))
			continue;
		/* "step 3", "Step: 3", "step=3", "step [3/24]", "iteration 3/" */
		len = strlen(words[k]);
		for (q = p + len; q < p + len + 16 && *q != '\0' &&
		    strchr(" :=#[", *q) != NULL; q++)
			;
		if (q == p + len)
			continue;	/* "step3" is a name, not a count */
		if (*q < '0' || *q > '9')
			continue;
		n = atoi(q);
		while (*q >= '0' && *q <= '9')
			q++;
		if (((*q | 0x20) >= 'a' && (*q | 0x20) <= 'z') || *q == '_' ||
		    exception_line(log, p))
			continue;
		if (n >= last) {
			last = n;
			at = p;
		}
	}
	if (line != NULL) {
		*line = NULL;
		if (at != NULL) {
			const char *b, *e = strchrnul(at, '\n');

			for (b = at; b > log && b[-1] != '\n'; b--)
				;
			b = unprefixed(b, e);
			*line = xstrndup(b, (size_t)(e - b) > 120 ? 120 :
			    (size_t)(e - b));
		}
	}
	return last;
}

int
log_exit_code(const char *log)
{
	static const char what[] = "exitcode";
	const char *p, *q;

	for (p = log != NULL ? strstr(log, what) : NULL; p != NULL;
	    p = strstr(p + 1, what)) {
		for (q = p + sizeof(what) - 1; *q == ' '; q++)
			;
		if (*q++ != ':')
			continue;
		while (*q == ' ')
			q++;
		if (*q >= '1' && *q <= '9' && atoi(q) < 256)
			return atoi(q);
	}
	return 1;
}
