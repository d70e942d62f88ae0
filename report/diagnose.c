/* Known failure messages in a training log, and their fixes. */
#include <sys/socket.h>

#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diagnose.h"

int
free_port(int from)
{
	struct sockaddr_in a;
	int fd, ok;

	for (int port = from; port > 0 && port < 65536 && port < from + 200;
	    port++) {
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

/* The port in "... [::]:6000 (errno: 98 ..." or "...:6000) ...". */
static int
busy_port(const char *log)
{
	const char *p = strstr(log, "Address already in use"), *q;

	if (p == NULL)
		return -1;
	for (q = p; q > log && q[-1] != '\n'; q--)
		;
	for (const char *c = p; c > q; c--)
		if (c[-1] == ':' && c[0] >= '0' && c[0] <= '9')
			return atoi(c);
	return -1;
}

int
log_last_iteration(const char *log)
{
	const char *p = log;
	int last = -1, n;

	while ((p = strstr(p, "iteration")) != NULL) {
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

/* The number after NEEDLE in LOG, or -1. */
static int
number_after(const char *log, const char *needle)
{
	const char *p = strstr(log, needle);

	return p == NULL ? -1 : atoi(p + strlen(needle));
}

/* torch_npu's own warnings when it collects nothing (reference 6). */
static void
diagnose_profiler(const char *log, struct strv *out)
{
	if (strstr(log, "Dynamic Profiler config is not effective") != NULL)
		strv_push(out, _("the dynamic profiler ignored the trigger: its "
		    "start step was already past (start_step -1, trigger --now, "
		    "needs torch_npu 2.7.1 or later): run 'msprof-exec trigger "
		    "--start N' with a step still ahead"));
	if (strstr(log, "Incorrect schedule: Stop profiler while current "
	    "state is WARMUP") != NULL)
		strv_push(out, _("training ended while the profiler was still "
		    "warming up, before the window: lower --steps or raise "
		    "--train-iters"));
	if (strstr(log, "Profiling data parsing failed") != NULL ||
	    strstr(log, "Failed to get acl to npu flow events") != NULL)
		strv_push(out, _("torch_npu could not parse the data online: "
		    "what ASCEND_PROFILER_OUTPUT holds may be incomplete; parse "
		    "again offline with 'msprof-exec analyse', and keep the CANN, "
		    "torch_npu and driver versions in step"));
	if (strstr(log, "and profiler will not be enabled") != NULL)
		strv_push(out, _("torch_npu refused the dynamic profiling "
		    "directory (config_path) as invalid: give --dynamic-dir an "
		    "existing directory the job can write"));
}

void
diagnose_log(const char *log, int mm, struct strv *out)
{
	int port, n;
	const char *p;

	if (log == NULL)
		return;
	if (strstr(log, "NPU out of memory") != NULL)
		strv_push(out, mm ? _("NPU out of memory: lower the micro batch "
		    "size (or the sequence length), use recomputation or more "
		    "parallelism, and keep profiling light: --data-simplification, "
		    "no --with memory,stack") : _("NPU out of memory: lower "
		    "--micro-batch-size (or --seq-length), use recomputation or "
		    "more parallelism; profiling with memory or stack adds to "
		    "the footprint"));
	if ((port = busy_port(log)) > 0) {
		if ((n = free_port(port + 1)) > 0)
			strv_pushf(out, _("MASTER_PORT %d is already in use on "
			    "this node (another job, or a leftover process: ss "
			    "-ltnp | grep :%d); set MASTER_PORT to a free port, "
			    "e.g. %d"), port, port, n);
		else
			strv_pushf(out, _("MASTER_PORT %d is already in use on "
			    "this node (another job, or a leftover process: ss "
			    "-ltnp | grep :%d); set MASTER_PORT to a free port"),
			    port, port);
	} else if (strstr(log, "Address already in use") != NULL)
		strv_push(out, _("the master port is already in use on this "
		    "node; set MASTER_PORT to a free port"));
	if (strstr(log, "size mismatch for") != NULL ||
	    strstr(log, "shape mismatch") != NULL)
		strv_push(out, _("the checkpoint does not fit the model: it was "
		    "converted with another tensor/pipeline parallel size (TP/PP) "
		    "than the script uses; stop and convert the weights again with "
		    "the script's TP and PP"));
	if ((p = strstr(log, "tee: ")) != NULL &&
	    strstr(p, "No such file or directory") != NULL)
		strv_push(out, _("the script logs with '| tee logs/...' but the "
		    "logs directory does not exist: run 'mkdir -p logs' first"));
	if ((n = number_after(log, "profile_step_start should be greater than "
	    "0 but now it is ")) >= 0)
		strv_pushf(out, _("MindSpeed refused profile_step_start %d: steps "
		    "count from 1; use --steps 1:3 or later"), n);
	if ((n = number_after(log, "iteration will be loaded from checkpoint, "
	    "profile_step_start should be greater than ")) >= 0)
		strv_pushf(out, _("the run resumes from iteration %d of its "
		    "checkpoint (--load): the window must start after it, e.g. "
		    "--steps %d:%d"), n, n + 1, n + 3);
	diagnose_profiler(log, out);
}
