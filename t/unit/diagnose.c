/*
 * Unit tests of the diagnosis table (report/diagnose.c): each rule fires
 * on its log line, with its message and advice, and on nothing else; and
 * every rule of the table has its case here.
 */
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "report/diagnose.h"
#include "report/torchnpu.h"

/* Lines of a training that went well. */
static const char good_log[] =
    "[2026-12-02 12:00:01] iteration        1/      10 |"
    " consumed samples: 8 |\n"
    "[2026-12-02 12:00:02] iteration        2/      10 |"
    " consumed samples: 16 |\n"
    "INFO: tee: writing to logs/train.log\n"
    "saving checkpoint at iteration 2 to ./ckpt\n";

static const struct {
	const char	*rule;
	const char	*line;		/* a log line that shows the failure */
	int		 mm;		/* a MindSpeed-MM run */
	const char	*want;		/* in the text */
} cases[] = {
	{ "out-of-memory", "RuntimeError: NPU out of memory. Tried to "
	  "allocate 5.03 GiB (NPU 3; 60.96 GiB total capacity)", 0,
	  "NPU out of memory: lower --micro-batch-size" },
	{ "out-of-memory", "RuntimeError: NPU out of memory. Tried to "
	  "allocate 2.00 GiB", 1,
	  "NPU out of memory: lower the micro batch size" },
	{ "master-port", "[W socket.cpp:426] [c10d] The server socket has "
	  "failed to bind to [::]:6000 (errno: 98 - Address already in use).",
	  0, "MASTER_PORT 6000 is already in use on this node (another job, "
	  "or a leftover process: ss -ltnp | grep :6000): set MASTER_PORT to "
	  "a free port, e.g. 6" },
	/* nothing above the last port can be free */
	{ "master-port-no-free", "The server socket has failed to bind to "
	  "[::]:65535 (errno: 98 - Address already in use).", 0,
	  "MASTER_PORT 65535 is already in use on this node (another job, "
	  "or a leftover process: ss -ltnp | grep :65535): set MASTER_PORT to "
	  "a free port" },
	{ "master-port-unnamed", "RuntimeError: Address already in use", 0,
	  "the master port is already in use on this node: set MASTER_PORT "
	  "to a free port" },
	/* torch 1.13's torchrun (static rendezvous) on a node without master */
	{ "rendezvous-no-master", "TimeoutError: The client socket has timed "
	  "out after 10s while trying to connect to (127.0.0.1, 29511).", 0,
	  "this node found no master at port 29511 within 10 s: the node of "
	  "rank 0 (MASTER_ADDR) did not start the job" },
	/* torch 2 counts milliseconds */
	{ "rendezvous-no-master", "torch.distributed.DistNetworkError: The "
	  "client socket has timed out after 1800000ms while trying to "
	  "connect to (node0, 6000).", 0,
	  "no master at port 6000 within 1800 s" },
	{ "rendezvous-missing-nodes", "torch.distributed.DistStoreError: Timed "
	  "out after 901 seconds waiting for clients. 1/2 clients joined.", 0,
	  "the master waited 901 s for the job's other nodes and only 1 of 2 "
	  "joined" },
	{ "rendezvous-timeout", "RuntimeError: Socket Timeout", 0,
	  "did not all meet in time at torch.distributed's rendezvous" },
	{ "checkpoint-mismatch", "RuntimeError: Error(s) in loading "
	  "state_dict: size mismatch for embedding.word_embeddings.weight: "
	  "copying a param with shape torch.Size([75968, 4096])", 0,
	  "the checkpoint does not fit the model" },
	{ "checkpoint-mismatch", "ValueError: shape mismatch in layer 3", 0,
	  "TP/PP" },
	{ "tee-logs-dir", "tee: logs/train.log: No such file or directory", 0,
	  "run 'mkdir -p logs' first" },
	{ "start-step-zero", "AssertionError: profile_step_start should be "
	  "greater than 0 but now it is 0", 0,
	  "MindSpeed refused profile_step_start 0 (steps count from 1): use "
	  "--steps 1:3 or later" },
	{ "start-step-resumed", "AssertionError: When loading checkpoint, "
	  "iteration will be loaded from checkpoint, profile_step_start "
	  "should be greater than 1000 but now it is 2.", 0,
	  "the run resumes from iteration 1000 of its checkpoint (--load): "
	  "the window must start after it, e.g. --steps 1001:1003" },
	{ "dynamic-not-effective", "[WARNING] [123] dynamic_profile.py: "
	  "Dynamic Profiler config is not effective. The start_step=-1, "
	  "current_step=7", 0, "run 'msprof-exec trigger --start N'" },
	{ "dynamic-config-late", "2026-01-02 03:04:05 [WARNING] [88] "
	  "profiler.py: Dynamic Profiler config is not effective. The "
	  "start_step=10, current_step=12", 0, "torch_npu took the profiling "
	  "config at step 12, after its start step 10" },
	{ "stopped-in-warmup", "Incorrect schedule: Stop profiler while "
	  "current state is WARMUP which may result in incomplete parsed "
	  "data.", 0, "lower --steps or raise --train-iters" },
	{ "online-parse-failed", "[ERROR] [77] profiler.py: Profiling data "
	  "parsing failed, error: KeyError", 0, "msprof-exec analyse" },
	{ "online-parse-failed", "Failed to get acl to npu flow events", 0,
	  "could not parse the data online" },
	{ "dynamic-dir-invalid", "The path '/x/dyn' is invalid, and profiler "
	  "will not be enabled.", 1, "the dynamic profiling directory "
	  "(config_path) /x/dyn as invalid: give --dynamic-dir an existing "
	  "directory" },
	/* a path with a control byte: quoted escaped */
	{ "dynamic-dir-invalid", "The path '/x/d\033[2Jyn' is invalid, and "
	  "profiler will not be enabled.", 1, "(config_path) /x/d\\x1b[2Jyn "
	  "as invalid" },
	/* the torch engine's, or a PROF_CONFIG_PATH of the launch's own */
	{ "prof-config-invalid", "[ERROR] [42] _non_intrusive_profile.py: The "
	  "path '/x/a+b/prof_config' is invalid, and profiler will not be "
	  "enabled.", 0, "torch_npu refused the config directory "
	  "/x/a+b/prof_config (PROF_CONFIG_PATH" },
	/* torch_npu's RuntimeError at import, with its error code line */
	{ "dynamic-stale-shm", "RuntimeError: There may exist shared memory "
	  "before this task. If you kill the last task, dynamic profiler will "
	  "not be valid. Please remove: "
	  "/dev/shm/DynamicProfileNpuShm2026120412, and retry.\n[ERROR] 2026-12-04-12:31:07 (PID:4242, Device:-1, "
	  "RankID:-1) ERR04003 PROF invalid value", 0,
	  "the shared memory of dynamic profiling "
	  "/dev/shm/DynamicProfileNpuShm2026120412, made more than 15 minutes "
	  "before, by a job that was killed or still runs: once no job on this "
	  "node runs with PROF_CONFIG_PATH, remove it (rm "
	  "/dev/shm/DynamicProfileNpuShm2026120412) and run again" },
};

#define NCASES	(sizeof(cases) / sizeof(cases[0]))

static void
check_case(size_t i)
{
	struct diagnosis d = { 0 };
	char *log = xasprintf("%s%s\n%s", good_log, cases[i].line, good_log);

	diagnose_log(log, cases[i].mm, NULL, &d);
	ok(d.rules.n == 1 && strcmp(d.rules.v[0], cases[i].rule) == 0,
	    "%s: its line (%.40s...) fires the rule, and only it",
	    cases[i].rule, cases[i].line);
	ok(d.texts.n == 1 && strstr(d.texts.v[0], cases[i].want) != NULL,
	    "%s: says \"%s\"", cases[i].rule, cases[i].want);
	if (d.texts.n > 0 && strstr(d.texts.v[0], cases[i].want) == NULL)
		printf("#   got: %s\n", d.texts.v[0]);
	diagnosis_free(&d);
	free(log);
}

/* The line of RULE's first case. */
static const char *
case_line(const char *rule)
{
	for (size_t i = 0; i < NCASES; i++)
		if (strcmp(cases[i].rule, rule) == 0)
			return cases[i].line;
	return "";
}

/* A rule of the table has a case above. */
static int
has_case(const char *rule)
{
	for (size_t i = 0; i < NCASES; i++)
		if (strcmp(cases[i].rule, rule) == 0)
			return 1;
	return 0;
}

/*
 * torch_npu's warning of a config past its start step, from process 88,
 * which the torch_npu logs say collected steps 3 to 5 (then a later
 * arming reached it), or collected nothing.
 */
static void
late_config(void)
{
	static const char warn[] = "[WARNING] [88] profiler.py: Dynamic "
	    "Profiler config is not effective. The start_step=3, current_step=7";
	struct torchnpu_proc done = { .pid = 88, .start = 3, .stop = 5 };
	struct torchnpu_proc idle = { .pid = 88, .start = -1, .stop = -1 };
	struct torchnpu t = { .dir = "/x", .procs = &done, .nprocs = 1 };
	struct diagnosis d = { 0 };
	char *log;

	/* torch_npu's own time stamp, and torchrun's prefix with --tee */
	log = xasprintf("%s[2026-12-04 12:00:01] %s\n[default0]:[2026-12-04 "
	    "12:00:01] %s\n", good_log, warn, warn);
	diagnose_log(log, 0, &t, &d);
	is_int(d.texts.n, 0, "a config past its start step in a process that "
	    "collected its window: no failure");
	diagnosis_free(&d);
	t.procs = &idle;
	diagnose_log(log, 0, &t, &d);
	ok(d.rules.n == 1 && strcmp(d.rules.v[0], "dynamic-config-late") == 0,
	    "... in one that collected nothing: the config came too late");
	diagnosis_free(&d);
	free(log);

	t.procs = &done;
	log = xasprintf("%s[2026-12-04 12:00:01] %s\n[2026-12-04 12:00:02] "
	    "[WARNING] [89] profiler.py: Dynamic Profiler config is not "
	    "effective. The start_step=3, current_step=9\n", good_log, warn);
	diagnose_log(log, 0, &t, &d);
	ok(d.texts.n == 1 && strstr(d.texts.v[0], "at step 9,") != NULL,
	    "two processes past the start step, one of which collected: the "
	    "other's warning (step 9) is the failure");
	diagnosis_free(&d);
	free(log);
}

/* Has V a string holding WANT? */
static int
holds(const struct strv *v, const char *want)
{
	for (size_t i = 0; i < v->n; i++)
		if (strstr(v->v[i], want) != NULL)
			return 1;
	return 0;
}

/*
 * Why a torch run collected nothing: the evidence first, the guess only
 * without any, and said to be one.
 */
static void
torch_causes(void)
{
	static int expected[] = { 0, 1 };
	struct torchnpu_proc p0 = { .pid = 7, .rank = 0, .start = -1,
	    .stop = -1 };
	struct torchnpu t = { .dir = "/s/prof_config", .procs = &p0,
	    .nprocs = 1 };
	struct launch_record rec;
	struct torch_evidence ev = { .rec = &rec };
	struct strv out = { 0 };

	launch_record_init(&rec);
	rec.step_start = 5;
	rec.step_end = 7;
	rec.expected = expected;
	rec.nexpected = 2;
	ev.log = "step 0 loss 1\nstep 1 loss 1\n";
	torchnpu_causes(&t, &ev, &out);
	ok(holds(&out, "rank 1 never started torch_npu: /s/prof_config/log "
	    "has no log of it"), "a rank without a torch_npu log: never started");
	ok(holds(&out, "window never reached: the training ran to step 1 of "
	    "its log (\"step 1 loss 1\")"), "the log's last step, before "
	    "the window");
	ok(!holds(&out, "a guess"), "... and no guess");
	strv_free(&out);

	ev.log = "step 9 loss 1\n";
	torchnpu_causes(&t, &ev, &out);
	ok(holds(&out, "a guess, as nothing in the log"), "nothing known: "
	    "the guess, said to be one");
	strv_free(&out);
	ev.explained = 1;
	torchnpu_causes(&t, &ev, &out);
	ok(!holds(&out, "a guess"), "a rule of the log's explains it: no guess");
	strv_free(&out);

	ev.explained = 0;
	ev.failed = 1;
	ev.ending = "it exited with status 1";
	torchnpu_causes(&t, &ev, &out);
	ok(holds(&out, "the training failed before its window (steps 5 to 7, "
	    "excluding 7) was collected, at step 9 of its log (\"step 9 loss "
	    "1\"): it exited with status 1"), "a failure without a traceback: "
	    "its status");
	strv_free(&out);
	rec.expected = NULL;
	launch_record_free(&rec);
}

/* What a training's log says of its failure and of its last step. */
static void
evidence(void)
{
	static const char crash[] =
	    "[default0]:step 2 loss 1.4339\n"
	    "Traceback (most recent call last):\n"
	    "  File \"/t/crash.py\", line 48, in <module>\n"
	    "    main()\n"
	    "    ^^^^^^\n"
	    "RuntimeError: loss is nan at step 3\n"
	    "[default0]:step 3 loss 0.8743\n"
	    "ERROR:torch.distributed.elastic.multiprocessing.api:failed "
	    "(exitcode: 1) local_rank: 0 (pid: 5450)\n"
	    "Traceback (most recent call last):\n"
	    "  File \"/usr/bin/torchrun\", line 33, in <module>\n"
	    "torch.distributed.elastic.multiprocessing.errors."
	    "ChildFailedError: \n";
	char *s, *line;

	s = log_error(crash);
	is_str(s, "RuntimeError: loss is nan at step 3",
	    "the worker's error, not torchrun's report of it");
	free(s);
	s = log_error("Traceback (most recent call last):\n"
	    "  File \"/usr/bin/torchrun\"\n"
	    "torch.distributed.elastic.multiprocessing.errors."
	    "ChildFailedError: \n");
	ok(s == NULL, "torchrun's own report alone: no error of the training");
	free(s);
	is_int(log_last_step(crash, &line), 3, "the last step of the log");
	is_str(line, "step 3 loss 0.8743", "... and its line, unprefixed");
	free(line);
	is_int(log_last_step("step 1 loss 2\nValueError: bad at step 7\n",
	    NULL), 1, "an error's step is not the training's count");
	is_int(log_last_step(good_log, NULL), 2, "Megatron's iterations count");
	is_int(log_last_step("Start Dynamic Profiler at 6 step.\n"
	    "The start_step=30, current_step=7\nstep3 done\n--steps 24\n",
	    NULL), -1, "torch_npu's lines, names and options are no step");
	is_int(log_last_step("Epoch 1, Step: 17/40, loss 2\n", NULL), 17,
	    "'Step: 17/40'");
}

int
main(void)
{
	struct diagnosis d = { 0 };
	char *log;

	for (size_t i = 0; i < NCASES; i++)
		check_case(i);
	for (size_t i = 0; i < diagnose_nrules(); i++)
		ok(has_case(diagnose_rule(i)), "rule %s has a case",
		    diagnose_rule(i));
	ok(diagnose_rule(diagnose_nrules()) == NULL, "the table ends");

	diagnose_log(good_log, 0, NULL, &d);
	diagnose_log(good_log, 1, NULL, &d);
	diagnose_log(NULL, 0, NULL, &d);
	is_int(d.texts.n, 0, "a good log (LLM or MM) and no log: no rule fires");
	diagnosis_free(&d);

	/* tee's error must be its own: another line's "No such file" is not */
	log = xasprintf("%stee: logs/x.log opened\nls: cannot access 'y': No "
	    "such file or directory\n", good_log);
	diagnose_log(log, 0, NULL, &d);
	is_int(d.texts.n, 0, "tee and a later unrelated 'No such file': no "
	    "rule fires");
	diagnosis_free(&d);
	free(log);

	log = xasprintf("%s\n%s\n", case_line("out-of-memory"),
	    case_line("checkpoint-mismatch"));
	diagnose_log(log, 0, NULL, &d);
	ok(d.rules.n == 2 && strcmp(d.rules.v[0], "out-of-memory") == 0 &&
	    strcmp(d.rules.v[1], "checkpoint-mismatch") == 0,
	    "two failures: both, in the table's order");
	diagnosis_free(&d);
	free(log);

	/* "Timed out after" alone is not the rendezvous */
	log = xasprintf("%sTimed out after 30 seconds waiting for the "
	    "dataloader\n", good_log);
	diagnose_log(log, 0, NULL, &d);
	is_int(d.texts.n, 0, "another 'Timed out after': no rule fires");
	diagnosis_free(&d);
	free(log);

	late_config();
	evidence();
	torch_causes();
	is_int(log_last_iteration(good_log), 2, "the last iteration of the log");
	is_int(log_last_iteration("no iterations here"), -1, "no iteration: -1");
	ok(log_shows_failure("torch.distributed.elastic.multiprocessing.errors."
	    "ChildFailedError:"), "a launcher's failure report is a failure");
	ok(!log_shows_failure(good_log), "a good log is no failure");
	return done_testing();
}
