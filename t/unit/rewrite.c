/* Unit tests of the launch table and the argv rewriter. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "common/launchtab.h"
#include "engines/rewrite.h"

#define V(...) ((char *[]){ __VA_ARGS__, NULL })
#define DEFAULTS "--profile --profile-step-start 2 --profile-step-end 4 " \
	"--profile-ranks 0 --profile-level level1 --profile-with-cpu " \
	"--profile-save-path ./profiling_output"

static struct launchtab tab;

/* is_str() for a string the test owns: freed once compared. */
#define is_own(got, want, ...) do {					\
	char *own_ = (got);						\
	is_str(own_, want, __VA_ARGS__);				\
	free(own_);							\
} while (0)

static char *
joined(char **v)
{
	static char buf[8192];

	buf[0] = '\0';
	for (; v != NULL && *v != NULL; v++) {
		strcat(buf, *v);
		if (v[1] != NULL)
			strcat(buf, " ");
	}
	return buf;
}

static int
script_of(const char *path, char **argv)
{
	struct launch l;

	launch_classify(&tab, NULL, path, argv, &l);
	return l.script;
}

static char *
rewritten(const struct plan *p, const char *path, char **argv)
{
	struct launch l;
	struct rewrite rw;
	char *why = NULL, *s;

	launch_classify(&tab, NULL, path, argv, &l);
	if (launch_rewrite(p, &l, argv, NULL, NULL, &rw, &why) == -1) {
		s = xasprintf("ERROR %s", why);
		free(why);
	} else
		s = xstrdup(joined(rw.argv.v));
	rewrite_free(&rw);
	return s;
}

/* Load a table written from TEXT; returns the error message or NULL. */
static char *
load_text(const char *text)
{
	char path[] = "/tmp/msprof-launchtab.XXXXXX", *why = NULL;
	int fd = mkstemp(path);
	struct launchtab t;

	if (write(fd, text, strlen(text)) < 0)
		abort();
	close(fd);
	if (launchtab_load(&t, path, engine_names(), &why) == 0)
		launchtab_free(&t);
	unlink(path);
	if (why != NULL && strncmp(why, path, strlen(path)) == 0) {
		char *s = xasprintf("FILE%s", why + strlen(path));

		free(why);
		return s;
	}
	return why;
}

static void
table(void)
{
	is_str(tab.match, "launcher=torchrun,torch_npu_run,msrun,deepspeed,"
	    "accelerate;python=python,python3,python3.*;module=torch.distributed"
	    ".run,torch.distributed.launch,torch_npu.distributed.run,"
	    "accelerate.commands.launch;"
	    "entry=pretrain_gpt.py,posttrain_gpt.py,train_fsdp2.py,"
	    "pretrain_sora.py,pretrain_vlm.py,pretrain_omni.py,"
	    "posttrain_sora_dpo.py,posttrain_flux_dancegrpo.py,"
	    "pretrain_transformers.py,pretrain_qwen3_5.py,"
	    "mindspeed_mm/fsdp/train/trainer.py,"
	    "mindspeed_mm/fsdp/tasks/cosyvoice3/train.py,"
	    "mindspeed_mm/fsdp/tasks/funasr/trainer.py,*.py;"
	    "entry-module=*;console=fairseq-train",
	    "config/launchers.conf serialises for the shim");
	is_own(load_text("options t\nlauncher torchrun t\n"), NULL,
	    "a minimal table loads");
	is_own(load_text("options t\nlauncher torchrun nosuch\n"),
	    "FILE:2: unknown option set 'nosuch'; declare it first with "
	    "'options nosuch FLAG...'", "undeclared option set");
	is_own(load_text("# c\n\nlaunchr torchrun t\n"),
	    "FILE:3: cannot read 'launchr' with 3 word(s); expected 'options "
	    "SET FLAG...', 'launcher NAME SET [SUBCOMMAND]', 'module NAME SET', "
	    "'python NAME...', 'entry PATH ENGINE', 'entry-module NAME "
	    "ENGINE' or 'console NAME...'",
	    "a misspelt keyword names the line");
	is_own(load_text("options t\nlauncher /usr/bin/torchrun t\n"),
	    "FILE:2: '/usr/bin/torchrun' is not a program or module name; "
	    "write it without ',', ';', '=' or '/'", "launcher names have no '/'");
	is_own(load_text("options t\nlauncher torchrun t\nentry a.py llm\n"),
	    "FILE:3: unknown engine 'llm'; accepted: llm-mcore, llm-fsdp2, "
	    "mm-megatron, mm-yaml, mm-fsdp2, torch, auto", "unknown engine");
	is_own(load_text("options t\n"), "FILE: no 'launcher' or 'module' line; "
	    "msprof-exec would intercept nothing", "a table with no launcher");
}

static void
analyse(void)
{
	is_int(script_of("/b/torchrun", V("torchrun", "--nproc_per_node", "8",
	    "--nnodes", "1", "--node_rank", "0", "--master_addr", "localhost",
	    "--master_port", "6000", "pretrain_gpt.py", "--x")), 11,
	    "torchrun with DISTRIBUTED_ARGS");
	is_int(script_of("/b/torchrun", V("torchrun", "--standalone",
	    "--nproc-per-node=2", "-r3", "--tee", "1", "pretrain_gpt.py")), 6,
	    "flags, --opt=value, attached short values");
	is_int(script_of("/b/torchrun", V("torchrun", "--nnodes", "1", "--",
	    "pretrain_gpt.py")), 4, "-- before the script");
	is_int(script_of("/b/torchrun", V("torchrun", "--nnodes")), -1,
	    "no script");
	is_int(script_of("/usr/bin/python3", V("python3", "-u", "-m",
	    "torch.distributed.launch", "--use_env", "--nproc_per_node", "2",
	    "pretrain_gpt.py")), 7, "python -m torch.distributed.launch");
	is_int(script_of("/usr/bin/python3", V("python3", "/v/bin/torchrun",
	    "--nproc_per_node", "2", "pretrain_gpt.py")), 4,
	    "python running the torchrun script");
	is_int(script_of("/usr/bin/python3", V("python3", "-u",
	    "pretrain_gpt.py", "--x")), 2, "python entry.py");
	is_int(script_of("/o/msrun", V("msrun", "--local_worker_num", "8",
	    "--log_dir=msrun_log", "--join=True", "pretrain_gpt.py")), 5,
	    "msrun");
}

static void
rewrite(void)
{
	struct plan p;

	plan_defaults(&p);
	is_own(rewritten(&p, "/b/torchrun", V("torchrun", "--nnodes", "1",
	    "pretrain_gpt.py", "--train-iters", "10")),
	    "torchrun --nnodes 1 pretrain_gpt.py --train-iters 10 " DEFAULTS,
	    "defaults appended at the end");
	p.ranks_all = 1;
	free(p.level);
	p.level = xstrdup("level2");
	p.with_cpu = 0;
	p.with_memory = p.with_stack = p.record_shapes = 1;
	p.data_simplification = 1;
	free(p.export_type);
	p.export_type = xstrdup("db");
	p.output = xstrdup("/data/prof");
	p.step_start = 5;
	p.step_end = 6;
	is_own(rewritten(&p, "/b/torchrun", V("torchrun", "pretrain_gpt.py")),
	    "torchrun pretrain_gpt.py --profile --profile-step-start 5 "
	    "--profile-step-end 6 --profile-ranks -1 --profile-level level2 "
	    "--profile-with-memory --profile-with-stack --profile-record-shapes "
	    "--profile-export-type db --profile-data-simplification "
	    "--profile-save-path /data/prof", "every option, ranks all is -1");
	plan_free(&p);

	plan_defaults(&p);
	p.ranks = xcalloc(3, sizeof(int));
	p.ranks[0] = 0, p.ranks[1] = 8, p.ranks[2] = 15;
	p.nranks = 3;
	p.train_iters = 20;
	is_own(rewritten(&p, "/usr/bin/python3", V("python3",
	    "pretrain_gpt.py", "--train-iters", "1000")),
	    "python3 pretrain_gpt.py --train-iters 20 --profile "
	    "--profile-step-start 2 --profile-step-end 4 --profile-ranks 0 8 15 "
	    "--profile-level level1 --profile-with-cpu --profile-save-path "
	    "./profiling_output", "a rank list, --train-iters replaced");
	is_own(rewritten(&p, "/usr/bin/python3", V("python3",
	    "pretrain_gpt.py", "--train-iters=1000")), "python3 pretrain_gpt.py "
	    "--train-iters=20 --profile --profile-step-start 2 "
	    "--profile-step-end 4 --profile-ranks 0 8 15 --profile-level level1 "
	    "--profile-with-cpu --profile-save-path ./profiling_output",
	    "--train-iters=N replaced in the same form");
	plan_free(&p);

	plan_defaults(&p);
	is_own(rewritten(&p, "/b/torchrun", V("torchrun", "pretrain_gpt.py",
	    "--profile", "--profile-ranks", "-1", "3")),
	    "ERROR the launch already sets profiling options (--profile, "
	    "--profile-ranks -1 3); choose with --existing keep (use them) or "
	    "--existing override (use msprof-exec's)",
	    "existing: ask refuses, listing the options with their values");
	p.existing = EXISTING_KEEP;
	is_own(rewritten(&p, "/b/torchrun", V("torchrun", "pretrain_gpt.py",
	    "--profile", "--profile-step-start", "5")),
	    "torchrun pretrain_gpt.py --profile --profile-step-start 5",
	    "existing: keep leaves the command alone");
	p.existing = EXISTING_OVERRIDE;
	is_own(rewritten(&p, "/b/torchrun", V("torchrun", "pretrain_gpt.py",
	    "--profile", "--profile-ranks", "-1", "3", "--lr", "1",
	    "--profile-save-path=/x", "--profile-level", "level0", "--y")),
	    "torchrun pretrain_gpt.py --lr 1 --y " DEFAULTS,
	    "existing: override replaces every profiling option and value");
	is_own(rewritten(&p, "/b/torchrun", V("torchrun", "other.py")),
	    "ERROR not a training entry: cannot read other.py (No such file or "
	    "directory); force it with --framework llm, mm or torch",
	    "not an entry: why, and how to force it");
	plan_free(&p);
}

/* The rewrite of ARGV run by PATH into RW: 0, or -1 (then *WHY). */
static int
rewrite_of(const struct plan *p, const char *path, char **argv,
    struct rewrite *rw, char **why)
{
	struct launch l;

	launch_classify(&tab, NULL, path, argv, &l);
	return launch_rewrite(p, &l, argv, NULL, NULL, rw, why);
}

/* The value after OPT in the rewritten RW, or NULL. */
static const char *
value_of(const struct rewrite *rw, const char *opt)
{
	for (size_t i = 0; i + 1 < rw->argv.n; i++)
		if (strcmp(rw->argv.v[i], opt) == 0)
			return rw->argv.v[i + 1];
	return NULL;
}

/*
 * MindSpeed-MM's default of 100 iterations shortens a run, never lengthens
 * it: the script's own count stays when it is at most 100 and the window
 * (10 to 12) fits in it.
 */
static void
mm_iters(void)
{
	char dir[] = "/tmp/msprof-mmiters.XXXXXX", *tools, *why = NULL;
	struct rewrite rw;
	struct plan p;
	FILE *f;

	if (mkdtemp(dir) == NULL)
		abort();
	tools = xasprintf("%s/tools.json", dir);
	f = fopen(tools, "w");
	fputs("{}\n", f);
	fclose(f);
	plan_defaults(&p);
	is_int(rewrite_of(&p, "/b/torchrun", V("torchrun", "pretrain_sora.py",
	    "--mm-tool", tools, "--train-iters", "20"), &rw, &why), 0,
	    "MM, --train-iters 20: rewritten");
	is_str(value_of(&rw, "--train-iters"), "20", "MM: 20 iterations stay "
	    "20 (the default never lengthens a run)");
	is_int(rw.iters_from, 20, "MM: the script's own count is said");
	is_int(rw.iters, 20, "MM: and the count it runs");
	rewrite_free(&rw);
	rewrite_of(&p, "/b/torchrun", V("torchrun", "pretrain_sora.py",
	    "--mm-tool", tools, "--train-iters", "500"), &rw, &why);
	is_str(value_of(&rw, "--train-iters"), "100", "MM: 500 iterations "
	    "become 100");
	ok(rw.iters_from == 500 && rw.iters == 100, "MM: 500 -> 100 is said");
	rewrite_free(&rw);
	rewrite_of(&p, "/b/torchrun", V("torchrun", "pretrain_sora.py",
	    "--mm-tool", tools, "--train-iters", "11"), &rw, &why);
	is_str(value_of(&rw, "--train-iters"), "100", "MM: 11 iterations end "
	    "before the window (10 to 12): 100");
	rewrite_free(&rw);
	rewrite_of(&p, "/b/torchrun", V("torchrun", "pretrain_sora.py",
	    "--mm-tool", tools), &rw, &why);
	ok(strcmp(value_of(&rw, "--train-iters"), "100") == 0 &&
	    rw.iters_from == -1, "MM without a count: 100");
	rewrite_free(&rw);
	p.train_iters = 300;
	rewrite_of(&p, "/b/torchrun", V("torchrun", "pretrain_sora.py",
	    "--mm-tool", tools, "--train-iters", "20"), &rw, &why);
	is_str(value_of(&rw, "--train-iters"), "300", "MM: an explicit "
	    "--train-iters 300 is set as given");
	rewrite_free(&rw);
	plan_free(&p);
	unlink(tools);
	rmdir(dir);
	free(tools);
}

/* Write TEXT into DIR/latest_checkpointed_iteration.txt. */
static void
tracker(const char *dir, const char *text)
{
	char *path = xasprintf("%s/latest_checkpointed_iteration.txt", dir);
	FILE *f = fopen(path, "w");

	fputs(text, f);
	fclose(f);
	free(path);
}

/* A MindSpeed-LLM launch that resumes from a checkpoint. */
static void
resumed(void)
{
	char dir[] = "/tmp/msprof-resume.XXXXXX", *why = NULL, *fresh;
	struct rewrite rw;
	struct plan p;

	if (mkdtemp(dir) == NULL)
		abort();
	tracker(dir, "5000\n");
	plan_defaults(&p);
	is_int(rewrite_of(&p, "/b/torchrun", V("torchrun", "pretrain_gpt.py",
	    "--train-iters", "6000", "--load", dir), &rw, &why), 0,
	    "resumed at 5000: rewritten");
	ok(rw.step_start == 5002 && rw.step_end == 5004, "the default window "
	    "2:4 moves to 5002:5004");
	is_str(value_of(&rw, "--profile-step-start"), "5002",
	    "--profile-step-start 5002");
	is_int(rw.loaded, 5000, "the loaded iteration is said");
	ok(rw.notes.n > 0 && strstr(rw.notes.v[rw.notes.n - 1],
	    "resumes from iteration 5000") != NULL, "a note says why it moved");
	rewrite_free(&rw);
	p.step_start = 3;
	p.step_end = 5;
	is_int(rewrite_of(&p, "/b/torchrun", V("torchrun", "pretrain_gpt.py",
	    "--train-iters", "6000", "--load", dir), &rw, &why), -1,
	    "--steps 3:5 before the loaded iteration: refused");
	ok(why != NULL && strstr(why, "profile_step_start should be greater "
	    "than 5000") != NULL && strstr(why, "--steps 5003:5005") != NULL,
	    "the refusal says why and what to give instead");
	free(why);
	why = NULL;
	rewrite_free(&rw);
	p.step_start = 5003;
	p.step_end = 5005;
	is_int(rewrite_of(&p, "/b/torchrun", V("torchrun", "pretrain_gpt.py",
	    "--train-iters", "6000", "--load", dir), &rw, &why), 0,
	    "--steps after the loaded iteration: as given");
	is_int(rw.step_start, 5003, "a window after it stays");
	rewrite_free(&rw);
	p.step_start = p.step_end = 0;
	rewrite_of(&p, "/b/torchrun", V("torchrun", "pretrain_gpt.py",
	    "--load", dir, "--finetune"), &rw, &why);
	ok(rw.step_start == 2 && rw.loaded == 0, "--finetune starts at 0: "
	    "the window stays 2:4");
	rewrite_free(&rw);
	fresh = xasprintf("%s/new", dir);
	rewrite_of(&p, "/b/torchrun", V("torchrun", "pretrain_gpt.py",
	    "--load", fresh, "--save", fresh), &rw, &why);
	ok(rw.step_start == 2 && rw.loaded == 0, "no checkpoint yet: 2:4");
	rewrite_free(&rw);
	free(fresh);
	tracker(dir, "iter_5000");
	is_int(rewrite_of(&p, "/b/torchrun", V("torchrun", "pretrain_gpt.py",
	    "--load", dir), &rw, &why), -1, "an unreadable tracker with the "
	    "default window: refused");
	free(why);
	why = NULL;
	rewrite_free(&rw);
	plan_free(&p);
	fresh = xasprintf("%s/latest_checkpointed_iteration.txt", dir);
	unlink(fresh);
	free(fresh);
	rmdir(dir);
}

int
main(void)
{
	char *why = NULL;

	if (launchtab_load(&tab, "config/launchers.conf", engine_names(), &why) == -1) {
		printf("Bail out! %s\n", why);
		return 1;
	}
	table();
	analyse();
	rewrite();
	mm_iters();
	resumed();
	launchtab_free(&tab);
	return done_testing();
}
