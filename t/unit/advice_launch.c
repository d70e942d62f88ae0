/*
 * The launch's state of each setting a finding names, from a journal made
 * here: a flag in the command line (bare, with a value, absent), the
 * session's launches differing, a variable recorded set, recorded unset or
 * not recorded, the YAML copy of an MM FSDP2 launch, the variables
 * torch_npu recorded in the data winning over the journal, settings of
 * another engine or layout left out, and no session at all.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "advice/advice.h"
#include "common/journal.h"
#include "report/findings.h"
#include "summary/summary.h"

#define DATA	"t/data/summary/"

#define DEVICE_MB	65536

static char yaml[] = "/tmp/advice_launch.XXXXXX";

static struct summary *
load(const char *fixture, const struct journal *j)
{
	struct summary_opts o = { .journal = j, .device_mb = DEVICE_MB };
	struct summary_rank *r;
	size_t n;
	char *why = NULL, path[256];
	struct summary *s;

	snprintf(path, sizeof(path), DATA "%s", fixture);
	char *paths[1] = { path };
	if (summary_find_ranks(paths, 1, &r, &n, &why) < 0)
		return NULL;
	s = summary_build(r, n, &o);
	summary_ranks_free(r, n);
	return s;
}

/*
 * The advice's findings over S, with the launches of JL, as the report's
 * JSON lists them.
 */
static cJSON *
findings_of(const struct summary *s, const struct journal *jl)
{
	struct advice_in in = { jl, DEVICE_MB };
	struct findings *fs = advice_run(s, &in);
	cJSON *j = findings_json(s, fs);

	advice_free(fs);
	return j;
}

/*
 * "state" or "state (detail)" of setting NAME in finding RULE, "absent"
 * when the finding does not list it, "no finding" without the finding.
 */
static char *
state(const struct summary *s, const struct journal *jl, const char *rule,
    const char *name)
{
	cJSON *j = findings_of(s, jl), *f, *set;
	char buf[256];

	snprintf(buf, sizeof(buf), "no finding");
	cJSON_ArrayForEach(f, j) {
		if (strcmp(cJSON_GetObjectItem(f, "rule")->valuestring, rule))
			continue;
		snprintf(buf, sizeof(buf), "absent");
		cJSON_ArrayForEach(set, cJSON_GetObjectItem(f, "settings")) {
			cJSON *d = cJSON_GetObjectItem(set, "detail");

			if (strcmp(cJSON_GetObjectItem(set, "name")->valuestring,
			    name))
				continue;
			if (d != NULL)
				snprintf(buf, sizeof(buf), "%s (%s)",
				    cJSON_GetObjectItem(set, "state")->valuestring,
				    d->valuestring);
			else
				snprintf(buf, sizeof(buf), "%s",
				    cJSON_GetObjectItem(set, "state")->valuestring);
		}
	}
	cJSON_Delete(j);
	return strdup(buf);
}

/* A profiled launch of ENGINE with the words of ARGV (NULL-ended). */
static void
launch(struct launch_record *r, const char *engine, const char *const *argv)
{
	launch_record_init(r);
	r->status = LAUNCH_INJECTED;
	r->engine = strdup(engine);
	for (; *argv != NULL; argv++)
		strv_push(&r->argv, *argv);
}

/* The note of finding RULE of FIXTURE, "" without one, "no finding". */
static char *
note(const char *fixture, const struct journal *j, const char *rule)
{
	struct summary *s = load(fixture, j);
	cJSON *js = s != NULL ? findings_of(s, j) : NULL, *f, *n;
	char *out = strdup("no finding");

	cJSON_ArrayForEach(f, js)
		if (strcmp(cJSON_GetObjectItem(f, "rule")->valuestring,
		    rule) == 0) {
			n = cJSON_GetObjectItem(f, "note");
			free(out);
			out = strdup(cJSON_IsString(n) ? n->valuestring : "");
		}
	cJSON_Delete(js);
	summary_free(s);
	return out;
}

static void
check(const char *fixture, const struct journal *j, const char *rule,
    const char *name, const char *want, const char *what)
{
	struct summary *s = load(fixture, j);
	char *got = s != NULL ? state(s, j, rule, name) : strdup("not loaded");

	is_str(got, want, "%s", what);
	free(got);
	summary_free(s);
}

static void
flags(void)
{
	static const char *const with[] = { "torchrun", "pretrain_gpt.py",
	    "--use-distributed-optimizer", "--overlap-grad-reduce",
	    "--micro-batch-size", "2", "--global-batch-size=64", NULL };
	static const char *const without[] = { "torchrun", "pretrain_gpt.py",
	    "--micro-batch-size", "2", NULL };
	static const char *const repeated[] = { "torchrun", "pretrain_gpt.py",
	    "--micro-batch-size", "1", "--global-batch-size=64",
	    "--micro-batch-size=4", NULL };
	struct launch_record r[2];
	struct journal j = { .recs = r, .n = 1 };

	launch(&r[0], "llm-mcore", with);
	launch(&r[1], "llm-mcore", without);
	check("exposed-comm", &j, "exposed-communication",
	    "--overlap-grad-reduce", "on", "a bare flag given: on");
	check("exposed-comm", &j, "exposed-communication",
	    "--overlap-param-gather", "not set", "a flag not given: not set");
	check("exposed-comm", &j, "exposed-communication",
	    "--moe-alltoall-overlap-comm", "absent",
	    "an MoE setting in a layout without expert parallelism: left out");
	check("exposed-comm", &j, "exposed-communication",
	    "parallel.fsdp_plan.num_to_forward_prefetch", "absent",
	    "an MM FSDP2 setting for a MindSpeed-LLM launch: left out");
	check("memory-room", &j, "memory-headroom", "--micro-batch-size",
	    "value (2)", "a flag with its value: shown");
	j.n = 2;
	check("exposed-comm", &j, "exposed-communication",
	    "--overlap-grad-reduce", "mixed",
	    "one launch with the flag, one without: mixed");
	j.n = 1;
	launch_record_free(&r[0]);
	launch(&r[0], "llm-mcore", repeated);
	check("memory-room", &j, "memory-headroom", "--micro-batch-size",
	    "value (4)", "a flag given twice: the last one counts");
	/* --set: the flag is on the command line the launch ran */
	launch_record_free(&r[0]);
	launch(&r[0], "llm-mcore", without);
	for (const char *const *a = without; *a != NULL; a++)
		strv_push(&r[0].new_argv, *a);
	strv_push(&r[0].new_argv, "--overlap-grad-reduce");
	check("exposed-comm", &j, "exposed-communication",
	    "--overlap-grad-reduce", "on",
	    "a flag the launch ran with (--set), not given: on");
	j.n = 0;
	check("exposed-comm", &j, "exposed-communication",
	    "--overlap-grad-reduce", "not known (no profiled launch)",
	    "a session without a profiled launch: not known");
	check("exposed-comm", NULL, "exposed-communication",
	    "--overlap-grad-reduce", "not known (no session)",
	    "no session: not known");
	launch_record_free(&r[0]);
	launch_record_free(&r[1]);
}

/*
 * The framework whose settings are offered: the launch's engine, and for
 * the torch engine the job's collectives.
 */
static void
frameworks(void)
{
	static const char *const torch[] = { "torchrun", "train.py", NULL };
	static const char *const mcore[] = { "torchrun", "pretrain_gpt.py",
	    NULL };
	struct launch_record r;
	struct journal j = { .recs = &r, .n = 1 };

	launch(&r, "torch", torch);
	check("exposed-ddp", &j, "exposed-communication",
	    "DistributedDataParallel(..., bucket_cap_mb=N)", "not known",
	    "torch engine, all-reduces: DDP's bucket size, a line of the code");
	check("exposed-ddp", &j, "exposed-communication",
	    "--overlap-grad-reduce", "absent",
	    "torch engine: no Megatron flag");
	check("exposed-sharded", &j, "exposed-communication",
	    "DistributedDataParallel(..., bucket_cap_mb=N)", "absent",
	    "torch engine, all-gathers and reduce-scatters: no DDP setting");
	check("exposed-sharded", &j, "exposed-communication",
	    "\"zero_optimization\": {\"overlap_comm\": true}", "not known",
	    "but DeepSpeed ZeRO's");
	launch_record_free(&r);
	launch(&r, "llm-mcore", mcore);
	check("exposed-ddp", &j, "exposed-communication",
	    "DistributedDataParallel(..., bucket_cap_mb=N)", "absent",
	    "MindSpeed-LLM's engine: no DDP setting, whatever the data");
	check("exposed-ddp", &j, "exposed-communication",
	    "--overlap-grad-reduce", "not set",
	    "but Megatron's flags, in their state");
	launch_record_free(&r);
}

static void
environment(void)
{
	static const char *const argv[] = { "torchrun", "pretrain_gpt.py", NULL };
	struct launch_record r;
	struct journal j = { .recs = &r, .n = 1 };
	char *t;

	launch(&r, "llm-mcore", argv);
	check("host-bound", &j, "host-bound", "TASK_QUEUE_ENABLE",
	    "not known (not recorded)", "a variable the journal has not: not known");
	strv_push(&r.env_unset, "TASK_QUEUE_ENABLE");
	strv_push(&r.env, "CPU_AFFINITY_CONF=2,npu0:0-23");
	check("host-bound", &j, "host-bound", "TASK_QUEUE_ENABLE",
	    "not set (1 by default)", "recorded unset: its default, not set");
	check("host-bound", &j, "host-bound", "CPU_AFFINITY_CONF",
	    "on (2,npu0:0-23)", "CPU_AFFINITY_CONF=2 with ranges: on");
	check("host-bound", &j, "host-bound", "--num-workers",
	    "value (2, the default)", "--num-workers not given: its default");
	strv_free(&r.env_unset);
	strv_free(&r.env);
	strv_push(&r.env, "TASK_QUEUE_ENABLE=1");
	check("host-bound", &j, "host-bound", "TASK_QUEUE_ENABLE",
	    "not set (the launch has 1)", "level 1: not the advised 2");
	/* The fixture's ranks recorded ASCEND_LAUNCH_BLOCKING=1 themselves. */
	strv_push(&r.env_unset, "ASCEND_LAUNCH_BLOCKING");
	check("launch-blocking", &j, "launch-blocking",
	    "ASCEND_LAUNCH_BLOCKING", "not set (the launch has 1)",
	    "the training process's own record wins over the journal's");
	t = note("launch-blocking", &j, "host-bound");
	ok(strstr(t, "ASCEND_LAUNCH_BLOCKING=1 closes the dispatch queue") !=
	    NULL, "host-bound's note: the process's ASCEND_LAUNCH_BLOCKING=1, "
	    "not the journal's unset (%s)", t);
	free(t);
	strv_free(&r.env_unset);
	strv_push(&r.env, "ASCEND_GLOBAL_LOG_LEVEL=3");
	check("healthy", &j, "debug-logging", "ASCEND_GLOBAL_LOG_LEVEL",
	    "no finding", "CANN's log level 3 (error, the default): no finding");
	strv_free(&r.env);
	strv_push(&r.env, "ASCEND_GLOBAL_LOG_LEVEL=2");
	check("healthy", &j, "debug-logging", "ASCEND_GLOBAL_LOG_LEVEL",
	    "not set (the launch has 2)", "log level 2 (warning): the finding");
	launch_record_free(&r);
}

static void
yaml_copy(void)
{
	static const char *const argv[] = { "torchrun", "trainer.py",
	    "cfg.yaml", NULL };
	struct launch_record r;
	struct journal j = { .recs = &r, .n = 1 };
	char *copy;
	FILE *fp;
	int fd = mkstemp(yaml);

	if (fd < 0 || (fp = fdopen(fd, "w")) == NULL) {
		ok(0, "a YAML copy written");
		return;
	}
	fputs("parallel:\n  fsdp_plan:\n    num_to_forward_prefetch: 1\n"
	    "data:\n  dataloader_param:\n    num_workers: 8\n", fp);
	fclose(fp);
	launch(&r, "mm-fsdp2", argv);
	copy = malloc(strlen(yaml) + 32);
	sprintf(copy, "cfg.yaml -> %s.yaml", yaml);
	rename(yaml, strchr(copy, '>') + 2);
	strv_push(&r.copies, copy);
	check("exposed-comm", &j, "exposed-communication",
	    "parallel.fsdp_plan.num_to_forward_prefetch", "on",
	    "a YAML key of the copy at 1: on");
	check("exposed-comm", &j, "exposed-communication",
	    "parallel.fsdp_plan.num_to_backward_prefetch", "not set (0 by default)",
	    "a YAML key the copy has not: its default");
	check("exposed-comm", &j, "exposed-communication",
	    "--overlap-grad-reduce", "absent",
	    "Megatron's flags for an MM FSDP2 launch: left out");
	check("host-bound", &j, "host-bound", "data.dataloader_param.num_workers",
	    "value (8)", "the data-loader workers of the copy");
	unlink(strchr(copy, '>') + 2);
	check("exposed-comm", &j, "exposed-communication",
	    "parallel.fsdp_plan.num_to_forward_prefetch",
	    "not known (not recorded)", "the copy gone: not known");
	free(copy);
	launch_record_free(&r);
}

/*
 * The state of setting NAME in finding RULE of FIXTURE for a launch of
 * ENGINE with a YAML copy of TEXT and the words ARGV after its YAML.
 */
static void
yaml_case(const char *engine, const char *text, const char *const *extra,
    const char *fixture, const char *rule, const char *name,
    const char *want, const char *what)
{
	const char *argv[8] = { "torchrun", "trainer.py", "cfg.yaml" };
	char path[] = "/tmp/advice_launch.XXXXXX", *copy;
	struct launch_record r;
	struct journal j = { .recs = &r, .n = 1 };
	size_t n = 3;
	int fd = mkstemp(path);
	FILE *fp;

	if (fd < 0 || (fp = fdopen(fd, "w")) == NULL) {
		ok(0, "%s: a YAML copy written", what);
		return;
	}
	fputs(text, fp);
	fclose(fp);
	for (; extra != NULL && *extra != NULL && n < 7; extra++)
		argv[n++] = *extra;
	argv[n] = NULL;
	launch(&r, engine, argv);
	copy = malloc(strlen(path) + 32);
	sprintf(copy, "cfg.yaml -> %s.yaml", path);
	rename(path, strchr(copy, '>') + 2);
	strv_push(&r.copies, copy);
	check(fixture, &j, rule, name, want, what);
	unlink(strchr(copy, '>') + 2);
	free(copy);
	launch_record_free(&r);
}

static void
recompute_case(const char *text, const char *const *extra, const char *want,
    const char *what)
{
	yaml_case("mm-fsdp2", text, extra, "memory-near", "memory-near-limit",
	    "features.recompute", want, what);
}

/*
 * features.recompute is the key MindSpeed-MM's FSDP2 engine reads
 * (v26.1.0); parallel.recompute (v26.0.0) and model.recompute before it;
 * key=value words after the YAML win over it; booleans as PyYAML reads
 * them.
 */
static void
recompute(void)
{
	static const char *const off[] = { "features.recompute=false", NULL };
	static const char *const on[] = { "features.recompute=true", NULL };

	recompute_case("features:\n  recompute: true\n", NULL, "on",
	    "features.recompute: true: on");
	recompute_case("features:\n  recompute: false\n", NULL,
	    "not set (the launch has false)", "features.recompute: false: not set");
	recompute_case("parallel:\n  recompute: True\n", NULL, "on (True)",
	    "v26.0.0's parallel.recompute: True: on");
	recompute_case("model:\n  recompute: yes\n", NULL, "on (yes)",
	    "model.recompute: yes, a YAML boolean: on");
	recompute_case("features:\n  recompute: true\n", off,
	    "not set (the launch has false)",
	    "an override features.recompute=false after the YAML wins");
	recompute_case("training:\n  lr: 1\n", on, "on",
	    "an override alone: on");
	recompute_case("training:\n  lr: 1\n", NULL, "not set (false by default)",
	    "no key at all: its default");
}

/*
 * MindSpeed-MM's pretrain_transformers.py CONFIG.yaml: its command line is
 * rebuilt from the leaves of gpt_args (nested mappings flattened, "_" for
 * "-", true a bare flag, false none), every other word dropped.
 */
static void
gpt_args(void)
{
	static const char gpt[] = "MM_TOOL_PATH: tools.json\n"
	    "gpt_args:\n  micro_batch_size: 2\n"
	    "  overlap_grad_reduce: true\n"
	    "  use_distributed_optimizer: false\n"
	    "  optimizer:\n    overlap-param-gather: yes\n";
	static const char *const dropped[] = { "--use-distributed-optimizer",
	    NULL };

	yaml_case("mm-yaml", gpt, NULL, "exposed-comm", "exposed-communication",
	    "--overlap-grad-reduce", "on", "gpt_args: overlap_grad_reduce: "
	    "true is the bare flag: on");
	yaml_case("mm-yaml", gpt, NULL, "exposed-comm", "exposed-communication",
	    "--overlap-param-gather", "on",
	    "a leaf of a mapping under gpt_args, kebab-case, yes: on");
	yaml_case("mm-yaml", gpt, dropped, "exposed-comm",
	    "exposed-communication", "--use-distributed-optimizer", "not set",
	    "false is no flag, and the words after the YAML are dropped");
	yaml_case("mm-yaml", gpt, NULL, "memory-room", "memory-headroom",
	    "--micro-batch-size", "value (2)", "a value: shown");
	yaml_case("mm-yaml", gpt, NULL, "exposed-comm", "exposed-communication",
	    "parallel.fsdp_plan.num_to_forward_prefetch", "absent",
	    "the FSDP2 engine's keys: left out");
}

/*
 * PYTORCH_NPU_ALLOC_CONF as torch_npu parses it: a list of key:value
 * items, spaces dropped, the value True exactly, the last key counting;
 * pin_memory_expandable_segments is another key.  CPU_AFFINITY_CONF's
 * mode: the number alone, the first item of digits, or a mode:N item.
 */
static void
env_case(const char *var, const char *fixture, const char *rule,
    const char *want, const char *what)
{
	static const char *const argv[] = { "torchrun", "pretrain_gpt.py", NULL };
	struct launch_record r;
	struct journal j = { .recs = &r, .n = 1 };
	char name[64];

	snprintf(name, sizeof(name), "%.*s", (int)strcspn(var, "="), var);
	launch(&r, "llm-mcore", argv);
	strv_push(&r.env, var);
	check(fixture, &j, rule, name, want, what);
	launch_record_free(&r);
}

static void
env_lists(void)
{
	static const struct {
		const char *var, *want;
	} alloc[] = {
		{ "PYTORCH_NPU_ALLOC_CONF=expandable_segments:True", "on" },
		{ "PYTORCH_NPU_ALLOC_CONF=pin_memory_expandable_segments:True",
		    "not set (the launch has pin_memory_expandable_segments:True)" },
		{ "PYTORCH_NPU_ALLOC_CONF=page_size:1g, expandable_segments : True",
		    "on (page_size:1g, expandable_segments : True)" },
		{ "PYTORCH_NPU_ALLOC_CONF=expandable_segments:True,"
		    "expandable_segments:False", "not set (the launch has "
		    "expandable_segments:True,expandable_segments:False)" },
		{ "PYTORCH_NPU_ALLOC_CONF=expandable_segments:true",
		    "not set (the launch has expandable_segments:true)" },
		{ "PYTORCH_NPU_ALLOC_CONF=roundup_power2_divisions:"
		    "[expandable_segments:True],expandable_segments:False",
		    "not set (the launch has roundup_power2_divisions:"
		    "[expandable_segments:True],expandable_segments:False)" },
	}, mode[] = {
		{ "CPU_AFFINITY_CONF=mode:2,npu0:0-23", "on (mode:2,npu0:0-23)" },
		{ "CPU_AFFINITY_CONF=npu0:0-23", "not set (the launch has "
		    "npu0:0-23)" },
		{ "CPU_AFFINITY_CONF=mode:x", "not set (the launch has mode:x)" },
		{ "CPU_AFFINITY_CONF=0", "not set (the launch has 0)" },
	};
	size_t i;

	for (i = 0; i < sizeof(alloc) / sizeof(alloc[0]); i++)
		env_case(alloc[i].var, "memory-near", "memory-near-limit",
		    alloc[i].want, alloc[i].var);
	for (i = 0; i < sizeof(mode) / sizeof(mode[0]); i++)
		env_case(mode[i].var, "host-bound", "host-bound", mode[i].want,
		    mode[i].var);
}

/*
 * What a setting needs is listed with it, with the launch's state: the
 * training refuses --reuse-fp32-param without --bf16.
 */
static void
needs_listed(void)
{
	static const char *const with[] = { "torchrun", "pretrain_gpt.py",
	    "--bf16", NULL };
	static const char *const without[] = { "torchrun", "pretrain_gpt.py",
	    NULL };
	struct launch_record r;
	struct journal j = { .recs = &r, .n = 1 };

	launch(&r, "llm-mcore", with);
	check("memory-near", &j, "memory-near-limit", "--bf16", "on",
	    "--reuse-fp32-param's --bf16 is listed, on");
	launch_record_free(&r);
	launch(&r, "llm-mcore", without);
	check("memory-near", &j, "memory-near-limit", "--bf16", "not set",
	    "... and not set when the launch lacks it");
	launch_record_free(&r);
}

/*
 * A setting the training refuses together with one the launch has says
 * so: MindSpeed-LLM refuses virtual pipeline stages with --num-layer-list.
 */
static void
conflicts(void)
{
	static const char *const list[] = { "torchrun", "pretrain_gpt.py",
	    "--num-layer-list", "6,10", NULL };
	static const char *const plain[] = { "torchrun", "pretrain_gpt.py",
	    NULL };
	struct launch_record r;
	struct journal j = { .recs = &r, .n = 1 };

	launch(&r, "llm-mcore", list);
	check("bubble", &j, "pipeline-bubble",
	    "--num-layers-per-virtual-pipeline-stage",
	    "not set (refused with --num-layer-list, which the launch has)",
	    "virtual stages with --num-layer-list: said to be refused");
	launch_record_free(&r);
	launch(&r, "llm-mcore", plain);
	check("bubble", &j, "pipeline-bubble",
	    "--num-layers-per-virtual-pipeline-stage", "not set",
	    "... without it: only not set");
	launch_record_free(&r);
}

static void
env_names(void)
{
	struct strv v = { 0 };
	char *all;

	advice_env_names(&v);
	all = strv_join(v.v, " ");
	is_str(all, "HCCL_BUFFSIZE TASK_QUEUE_ENABLE CPU_AFFINITY_CONF "
	    "PYTORCH_NPU_ALLOC_CONF "
	    "ASCEND_LAUNCH_BLOCKING ASCEND_GLOBAL_LOG_LEVEL",
	    "the variables the rules consult, each once: what the journal "
	    "records");
	free(all);
	strv_free(&v);
}

int
main(void)
{
	flags();
	frameworks();
	environment();
	yaml_copy();
	recompute();
	gpt_args();
	env_lists();
	needs_listed();
	conflicts();
	env_names();
	return done_testing();
}
