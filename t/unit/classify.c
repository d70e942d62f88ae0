/*
 * Unit tests of launch classification (engines/classify.c): the launch
 * table first, then what an unlisted entry imports and calls, the MM
 * engine from the arguments, --framework, the entries never touched; and
 * the one rule per engine for settings already present.
 */
#include <sys/stat.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "engines/classify.h"
#include "engines/content.h"
#include "engines/content.h"
#include "engines/rewrite.h"
#include "engines/window.h"

#define V(...) ((char *[]){ __VA_ARGS__, NULL })

static struct launchtab tab;
static char dir[] = "/tmp/msprof-classify.XXXXXX";

/* DIR/NAME with TEXT in it; the path lasts 16 calls. */
static const char *
file(const char *name, const char *text)
{
	static char path[16][256];
	static int k;
	char *p = path[k++ % 16];
	FILE *f;

	snprintf(p, 256, "%s/%s", dir, name);
	if ((f = fopen(p, "w")) == NULL || fputs(text, f) == EOF)
		abort();
	fclose(f);
	return p;
}

/* "ENGINE SOURCE[ refused]" of the launch ARGV started by torchrun. */
static char *
classified(const char *framework, char **argv, struct launch *l)
{
	static char buf[64];

	launch_classify(&tab, framework, "/usr/bin/torchrun", argv, l);
	snprintf(buf, sizeof(buf), "%s %d%s", engine_name(l->engine),
	    l->source, l->refused ? " refused" : "");
	return buf;
}

static void
content(void)
{
	struct launch l;
	const char *llm, *mm, *tool, *cfg;

	llm = file("pretrain_deepseek4.py", "import os\n"
	    "from mindspeed_llm import megatron_adaptor\n"
	    "from mindspeed_llm.training import pretrain\n"
	    "if __name__ == '__main__':\n    pretrain(a, b, c)\n");
	is_str(classified(NULL, V("torchrun", "--nproc_per_node", "8",
	    (char *)llm, "--lr", "1"), &l), "llm-mcore 2",
	    "imports mindspeed_llm and calls pretrain: Megatron, by content");
	cfg = file("llm.yaml", "training:\n  max_steps: 10\n");
	is_str(classified(NULL, V("torchrun", (char *)llm, (char *)cfg), &l),
	    "llm-fsdp2 2", "the same with a YAML first: FSDP2");
	llm = file("a.py", "# from mindspeed_llm.training import pretrain\n"
	    "import mindspeed_llmx\npretrain(1)\n");
	is_str(classified(NULL, V("torchrun", (char *)llm), &l), "none 0",
	    "a commented import and another package do not count");
	ok(strstr(l.why, "imports neither torch (transformers, accelerate, "
	    "deepspeed) nor mindspeed_llm or mindspeed_mm") &&
	    strstr(l.why, "--framework llm, mm or torch"),
	    "left alone: why and how to force it (%s)", l.why);
	llm = file("b.py", "from mindspeed_llm.training import pretrain\n"
	    "def pretrain(x):\n    pass\n");
	is_str(classified(NULL, V("torchrun", (char *)llm), &l), "none 0",
	    "a definition is no call");
	ok(strstr(l.why, "calls no training loop") != NULL,
	    "left alone: it calls no training loop (%s)", l.why);

	mm = file("pretrain_videoalign.py", "from mindspeed_mm.training "
	    "import pretrain\npretrain(None, provider)\n");
	tool = file("tools.json", "{\"profile\": {\"enable\": true}}\n");
	is_str(classified(NULL, V("torchrun", (char *)mm, "--mm-tool",
	    (char *)tool), &l), "mm-megatron 2",
	    "imports mindspeed_mm, --mm-tool: the tools.json engine");
	cfg = file("mm.yaml", "MM_TOOL_PATH: ./tools.json\ngpt_args:\n  x: 1\n");
	is_str(classified(NULL, V("torchrun", (char *)mm, (char *)cfg), &l),
	    "mm-yaml 2", "a YAML with MM_TOOL_PATH: the YAML entry");
	cfg = file("fsdp.yaml", "tools:\n  profile:\n    enable: false\n");
	is_str(classified(NULL, V("torchrun", (char *)mm, (char *)cfg), &l),
	    "mm-fsdp2 2", "a YAML with tools.profile: the FSDP2 engine");
	cfg = file("none.yaml", "training:\n  x: 1\n");
	is_str(classified(NULL, V("torchrun", (char *)mm, (char *)cfg), &l),
	    "mm-yaml 2 refused", "a YAML with neither: refused");
	ok(strstr(l.why, "neither a top-level MM_TOOL_PATH") != NULL,
	    "the refusal names both keys (%s)", l.why);
	is_str(classified(NULL, V("torchrun", (char *)mm, "--lr", "1"), &l),
	    "mm-megatron 2 refused", "neither a YAML nor --mm-tool: refused");
	ok(strstr(l.why, "neither a YAML config as its first argument nor "
	    "--mm-tool") != NULL, "the refusal says which is missing");
}

static void
listed(void)
{
	struct launch l;

	is_str(classified(NULL, V("torchrun", "pretrain_transformers.py",
	    "--mm-tool", "t.json", "--lr", "1"), &l), "mm-megatron 1",
	    "pretrain_transformers.py --mm-tool: the tools.json engine");
	is_str(classified(NULL, V("torchrun", "pretrain_transformers.py",
	    "cfg.yaml"), &l), "mm-yaml 1",
	    "pretrain_transformers.py cfg.yaml: the YAML entry, as listed");
	is_str(classified(NULL, V("torchrun", "pretrain_transformers.py",
	    "--lr", "1"), &l), "mm-yaml 1 refused",
	    "pretrain_transformers.py with neither: refused");
	is_str(classified(NULL, V("torchrun", "mindspeed_mm/fsdp/train/"
	    "trainer.py", "c.yaml"), &l), "mm-fsdp2 1", "listed FSDP2");
	is_str(classified(NULL, V("torchrun", "pretrain_sora.py", "--lr",
	    "1"), &l), "mm-megatron 1", "pretrain_sora.py without --mm-tool: "
	    "its engine, whose rewrite names the fix");
	is_str(classified("mm", V("torchrun", "pretrain_gpt.py"), &l),
	    "llm-mcore 1", "--framework does not change a listed entry");
}

static void
forced(void)
{
	struct launch l;

	is_str(classified("llm", V("torchrun", "/nonexistent/my.py"), &l),
	    "llm-mcore 3", "--framework llm: an unknown entry is forced");
	is_str(classified("mm", V("torchrun", "my.py", "--mm-tool", "t.json"),
	    &l), "mm-megatron 3", "--framework mm with --mm-tool");
	for (int i = 0; i < 5; i++) {
		static char *const never[] = { "inference_x.py",
		    "/a/evaluation.py", "convert_ckpt_v2.py",
		    "preprocess_data.py", "evaluate_vlm.py" };

		is_str(classified("llm", V("torchrun", never[i]), &l), "none 0",
		    "%s is never touched, even forced", never[i]);
	}
	is_str(classified(NULL, V("torchrun", "--nnodes", "1"), &l), "none 0",
	    "no script");
	is_str(l.why, "no training script on the command line", "why");
}

/* "ENGINE SOURCE[ direct][ quiet]" of ARGV run by PROG. */
static char *
run_by(const char *framework, const char *prog, char **argv, struct launch *l)
{
	static char buf[64];

	launch_classify(&tab, framework, prog, argv, l);
	snprintf(buf, sizeof(buf), "%s %d%s%s", l->kind == LAUNCH_NONE ?
	    "no-launch" : engine_name(l->engine), l->source,
	    l->direct ? " direct" : "", l->quiet ? " quiet" : "");
	return buf;
}

/* Plain PyTorch trainings: built on torch, and training. */
static void
torch_content(void)
{
	struct launch l;
	const char *p;
	char sub[256];

	p = file("t1.py", "import os, torch\nimport torch.nn as nn\n"
	    "def main():\n    loss = model(x).sum()\n    loss.backward()\n"
	    "    optimizer.step()\nmain()\n");
	is_str(classified(NULL, V("torchrun", (char *)p), &l), "torch 2",
	    "import os, torch; a backward pass and an optimizer step: torch");
	p = file("t2.py", "from transformers import Trainer\n"
	    "trainer = Trainer(model=m, args=a)\ntrainer.train()\n");
	is_str(classified(NULL, V("torchrun", (char *)p), &l), "torch 2",
	    "transformers: Trainer(...).train()");
	p = file("t3.py", "import deepspeed\nengine, opt, _, _ = "
	    "deepspeed.initialize(model=m)\nengine.backward(engine(x))\n");
	is_str(classified(NULL, V("torchrun", (char *)p), &l), "torch 2",
	    "deepspeed.initialize(...), engine.backward(loss)");
	p = file("t3.py", "import deepspeed\nengine = "
	    "deepspeed.initialize(model=m)[0]\nmodel = engine.module\n");
	is_str(classified(NULL, V("deepspeed", (char *)p), &l), "none 0",
	    "ZeRO inference: deepspeed.initialize(...), nothing stepped");
	ok(strstr(l.why, "t3.py:2: deepspeed.initialize() but no backward "
	    "pass or step") != NULL, "... why (%s)", l.why);
	p = file("t3.py", "import torch\nmodel(x).sum().backward()\n"
	    "opt.step()\n");
	is_str(classified(NULL, V("torchrun", (char *)p, "--evaluate"), &l),
	    "none 0", "a training entry run with --evaluate: left alone");
	ok(strstr(l.why, "is run with --evaluate, an evaluation (an 'eval' "
	    "row of trainings.conf)") != NULL, "... why (%s)", l.why);
	p = file("t4.py", "from accelerate import Accelerator\n"
	    "model, opt = accelerator.prepare(model, opt)\n"
	    "accelerator.backward(loss)\nopt.step()\n");
	is_str(classified(NULL, V("torchrun", (char *)p), &l), "torch 2",
	    "accelerate: accelerator.backward and an optimizer step");
	p = file("t5.py", "import torch\nwith torch.no_grad():\n"
	    "    out = model(x)\nscheduler.step(out)\n");
	is_str(classified(NULL, V("torchrun", (char *)p), &l), "none 0",
	    "inference (a step(), no backward pass): left alone");
	ok(strstr(l.why, "is built on torch but trains nothing") &&
	    strstr(l.why, "--framework llm, mm or torch"),
	    "why, and how to force it (%s)", l.why);
	p = file("t6.py", "import torch\n# loss.backward()\n# opt.step()\n"
	    "def step(self):\n    pass\n");
	is_str(classified(NULL, V("torchrun", (char *)p), &l), "none 0",
	    "comments and definitions are no calls");
	p = file("t7.py", "import numpy\nloss.backward()\nopt.step()\n");
	is_str(classified(NULL, V("torchrun", (char *)p), &l), "none 0",
	    "a loop without torch is not a torch training");
	ok(strstr(l.why, "imports neither torch") != NULL, "why (%s)", l.why);
	p = file("t8.py", "import torch\nfrom mindspeed_llm.training import "
	    "pretrain\nloss.backward()\nopt.step()\npretrain(a)\n");
	is_str(classified(NULL, V("torchrun", (char *)p), &l), "llm-mcore 2",
	    "a MindSpeed entry built on torch keeps its engine");

	/* the loop in a module of the entry's own directory */
	snprintf(sub, sizeof(sub), "%s/engine", dir);
	mkdir(sub, 0755);
	file("engine/loop.py", "import torch\ndef train_one_epoch(m, o):\n"
	    "    m(x).sum().backward()\n    o.step()\n");
	p = file("t9.py", "import argparse\nfrom engine.loop import "
	    "train_one_epoch\ntrain_one_epoch(model, opt)\n");
	is_str(classified(NULL, V("torchrun", (char *)p), &l), "torch 2",
	    "the loop in a module it imports from its directory");
	p = file("t10.py", "import torch\nfrom engine.other import x\n");
	is_str(classified(NULL, V("torchrun", (char *)p), &l), "none 0",
	    "a module that is not there adds nothing");
	ok(strstr(l.why, "or the modules it imports from its directory") ==
	    NULL, "no module was read (%s)", l.why);

	/* torchrun -m NAME: the module's file, from the working directory */
	snprintf(sub, sizeof(sub), "%s/training", dir);
	mkdir(sub, 0755);
	file("training/__init__.py", "");
	file("training/train.py", "def train_one_epoch(m, o):\n"
	    "    m(x).sum().backward()\n    o.step()\n");
	file("training/main.py", "import torch\nfrom training.train import "
	    "train_one_epoch\nif __name__ == '__main__':\n"
	    "    train_one_epoch(model, opt)\n");
	{
		char cwd[4096];

		if (getcwd(cwd, sizeof(cwd)) == NULL || chdir(dir) != 0)
			abort();
		is_str(classified(NULL, V("torchrun", "--nproc_per_node", "8",
		    "-m", "training.main", "--epochs", "1"), &l), "torch 2",
		    "torchrun -m training.main: its file read");
		ok(l.module && strcmp(l.because, "training/train.py:2: "
		    ".backward(), training/train.py:3: o.step()") == 0,
		    "... the loop in its package (%s)", l.because);
		is_str(classified(NULL, V("torchrun", "-m", "nowhere.main"), &l),
		    "none 0", "torchrun -m of a module not found: left alone");
		ok(strstr(l.why, "no file of module nowhere.main") != NULL,
		    "... and why (%s)", l.why);
		/* python -m NAME without a launcher: 'entry-module * auto' */
		is_str(run_by(NULL, "/usr/bin/python3", V("python3", "-u",
		    "-m", "training.main", "--epochs", "1"), &l),
		    "torch 2 direct", "python3 -m training.main: its file read");
		ok(l.module && l.kind == LAUNCH_PY_ENTRY_MODULE && l.script == 3,
		    "... as an entry module, its name the entry");
		is_str(run_by("llm", "/usr/bin/python3", V("python3", "-m",
		    "training.main"), &l), "no-launch 0 direct",
		    "... not under --framework llm");
		is_str(run_by(NULL, "/usr/bin/python3", V("python3", "-m",
		    "nowhere.main"), &l), "none 0 direct quiet",
		    "python3 -m of a module not found: quiet");
		is_str(run_by(NULL, "/usr/bin/python3", V("python3", "-m",
		    "json.tool", "x.json"), &l), "none 0 direct quiet",
		    "python3 -m json.tool (Python's own library): quiet");
		file("training/evaluate.py", "import torch\nfrom training.train "
		    "import train_one_epoch\ntrain_one_epoch(model, opt)\n");
		is_str(run_by(NULL, "/usr/bin/python3", V("python3", "-m",
		    "training.evaluate"), &l), "none 0 direct quiet",
		    "python3 -m training.evaluate: never a training by its name");
		/* a class attribute names what cls.trainer.run() runs */
		file("training/task.py", "import torch\n"
		    "from training.runner import Runner\nclass Task:\n"
		    "    trainer = Runner\n    @classmethod\n"
		    "    def main(cls):\n        cls.trainer.run(1)\n");
		file("training/runner.py", "class Runner:\n    @classmethod\n"
		    "    def run(cls, n):\n        loss.backward()\n"
		    "        optimizer.step()\n");
		file("training/task_main.py", "from training.task import Task\n"
		    "if __name__ == '__main__':\n    Task.main()\n");
		is_str(run_by(NULL, "/usr/bin/python3", V("python3", "-m",
		    "training.task_main"), &l), "torch 2 direct",
		    "cls.trainer.run() of a class attribute 'trainer = Runner'");
		if (chdir(cwd) != 0)
			abort();
	}

	/* console scripts ('console fairseq-train'): the file executed */
	p = file("fairseq-train", "#!/usr/bin/python3\nimport re\nimport sys\n"
	    "from fairseq_cli.train import cli_main\n"
	    "if __name__ == '__main__':\n    sys.exit(cli_main())\n");
	chmod(p, 0755);			/* as pip writes it */
	is_str(run_by(NULL, p, V("fairseq-train", "data-bin", "--arch", "x"),
	    &l), "torch 2 direct", "fairseq-train: its cli_main() (a row)");
	ok(l.console && l.script == 0 && l.kind == LAUNCH_CONSOLE,
	    "... a console script, argv[0] the entry");
	is_str(run_by(NULL, "/nonexistent/bin/fairseq-train",
	    V("fairseq-train"), &l), "none 0 direct quiet",
	    "a console script that is not there: quiet");
	/* a script that spawns its ranks, started directly */
	p = file("spawner.py", "import torch\nimport torch.multiprocessing "
	    "as mp\ndef worker(rank):\n    loss.backward()\n    opt.step()\n"
	    "mp.spawn(worker, nprocs=8)\n");
	is_str(run_by(NULL, "/usr/bin/python3", V("python3", (char *)p), &l),
	    "torch 2 direct", "python3 spawner.py: a torch training");
	ok(l.spawns, "... that starts its ranks itself");

	/* --framework torch forces an unknown entry a launcher starts */
	is_str(classified("torch", V("torchrun", "/nonexistent/x.py"), &l),
	    "torch 3", "--framework torch: forced");
	is_str(classified("torch", V("torchrun", "pretrain_gpt.py"), &l),
	    "llm-mcore 1", "... never a listed entry");

	/* python X.py started directly */
	p = file("t1.py", "import torch\nloss.backward()\nopt.step()\n");
	is_str(run_by(NULL, "/usr/bin/python3", V("python3", "-u", (char *)p,
	    "--lr", "1"), &l), "torch 2 direct",
	    "python3 -u train.py: read, a torch training");
	is_int(l.script, 2, "its script");
	p = file("tool.py", "import json\nprint(1)\n");
	is_str(run_by(NULL, "/usr/bin/python3", V("python3", (char *)p), &l),
	    "none 0 direct quiet", "a helper that is no torch program: quiet");
	is_str(run_by("torch", "/usr/bin/python3", V("python3", (char *)p),
	    &l), "none 0 direct quiet", "... even with --framework torch");
	p = file("t5.py", "import torch\nprint(model(x))\n");
	is_str(run_by(NULL, "/usr/bin/python3", V("python3", (char *)p), &l),
	    "none 0 direct", "torch, no training: left alone, said");
	is_str(run_by("torch", "/usr/bin/python3", V("python3", (char *)p),
	    &l), "torch 3 direct", "--framework torch: forced, being on torch");
	is_str(run_by("llm", "/usr/bin/python3", V("python3", (char *)p), &l),
	    "no-launch 0 direct", "--framework llm: no launch at all");
	is_str(run_by(NULL, "/usr/bin/python3", V("python3",
	    "preprocess_data.py"), &l), "none 0 direct quiet",
	    "preprocessing started directly: quiet");
	is_str(run_by(NULL, "/usr/bin/python3", V("python3", "-c", "x"), &l),
	    "no-launch 0", "python3 -c: no launch");
	is_str(run_by(NULL, "/usr/bin/python3", V("python3", "run.sh"), &l),
	    "no-launch 0", "python3 run.sh: no launch (not *.py)");
	is_str(run_by(NULL, "/usr/bin/python3", V("python3", "pretrain_gpt.py"),
	    &l), "llm-mcore 1 direct", "a listed entry started directly");

	/* launchers */
	p = file("t1.py", "import torch\nloss.backward()\nopt.step()\n");
	is_str(run_by(NULL, "/usr/local/bin/deepspeed", V("deepspeed",
	    "--num_gpus", "2", "--no_local_rank", "--master_port", "1",
	    (char *)p, "--x"), &l), "torch 2", "deepspeed: its options skipped");
	is_int(l.script, 6, "deepspeed: the script");
	is_str(run_by(NULL, "/usr/bin/accelerate", V("accelerate", "launch",
	    "--multi_gpu", "--num_processes", "8", "-m", (char *)p), &l),
	    "torch 2", "accelerate launch: after its subcommand and options");
	is_int(l.script, 6, "accelerate launch: the script");
	is_str(run_by(NULL, "/usr/bin/accelerate", V("accelerate", "config"),
	    &l), "no-launch 0", "accelerate config: no launch");
	is_str(run_by(NULL, "/usr/bin/python3", V("python3", "-m",
	    "accelerate.commands.launch", "--cpu", (char *)p), &l), "torch 2",
	    "python -m accelerate.commands.launch");
	is_str(run_by(NULL, "/opt/bin/torch_npu_run", V("torch_npu_run",
	    "--nproc_per_node", "8", (char *)p), &l), "torch 2",
	    "torch_npu_run: torchrun's grammar");
}

/* An import after the first CONTENT_READ_MAX bytes is not seen. */
static void
prefix(void)
{
	struct launch l;
	size_t n = CONTENT_READ_MAX + 10;
	char *text = malloc(n + 100);
	const char *path;

	memset(text, '#', n);
	text[n - 1] = '\n';
	strcpy(text + n, "from mindspeed_llm import x\npretrain()\n");
	path = file("late.py", text);
	is_str(classified(NULL, V("torchrun", (char *)path), &l), "none 0",
	    "only a bounded prefix of the entry is read");
	free(text);
}

/* The settings already present: each engine's one rule. */
static void
existing(void)
{
	struct launch l;
	struct strv out = { 0 };
	struct rewrite rw;
	struct plan p;
	char *why = NULL, *s;
	char **argv = V("torchrun", "pretrain_gpt.py", "--profile-ranks", "-1",
	    "3", "--profile-save-path", "/p", "x", "--training.profile", "true",
	    "--profile-with-cpu", "y");

	classified(NULL, argv, &l);
	launch_existing(&l, argv, NULL, &out);
	s = strv_join(out.v, " | ");
	is_str(s, "--profile-ranks -1 3 | --profile-save-path /p | "
	    "--profile-with-cpu", "mcore: its options, each with its values");
	free(s);
	strv_free(&out);
	plan_defaults(&p);
	p.existing = EXISTING_OVERRIDE;
	if (launch_rewrite(&p, &l, argv, NULL, NULL, &rw, &why) == 0) {
		s = strv_join(rw.argv.v, " ");
		ok(strncmp(s, "torchrun pretrain_gpt.py x --training.profile true "
		    "y --profile ", 52) == 0,
		    "override drops the options and their values, not the "
		    "words after them (%s)", s);
		free(s);
	} else
		ok(0, "override: %s", why);
	free(why);
	rewrite_free(&rw);
	plan_free(&p);
}

static void
steps(void)
{
	is_int(window_last_step(ENGINE_LLM_MCORE, 10), 10,
	    "mcore: --train-iters 10 reaches step 10");
	is_int(window_last_step(ENGINE_MM_MEGATRON, 10), 9,
	    "MM: 10 iterations end at step 9");
	is_int(window_last_step(ENGINE_LLM_FSDP2, 0), -1, "no iterations known");
	is_int(window_log_iteration(ENGINE_LLM_MCORE, 3), 3,
	    "mcore: step 3 is iteration 3");
	is_int(window_log_iteration(ENGINE_MM_FSDP2, 11), 12,
	    "MM: step 11 is iteration 12");
	is_int(engine_parse("mm-yaml"), ENGINE_MM_YAML, "parse a name");
	is_int(engine_parse("none"), ENGINE_NONE, "'none' is no engine");
}

int
main(void)
{
	char *why = NULL;

	if (launchtab_load(&tab, "config/launchers.conf", engine_names(), &why) == -1 ||
	    mkdtemp(dir) == NULL) {
		printf("Bail out! %s\n", why ? why : "mkdtemp");
		return 1;
	}
	content();
	torch_content();
	listed();
	forced();
	prefix();
	existing();
	steps();
	launchtab_free(&tab);
	for (const char *const *n = (const char *const []){ "pretrain_deepseek4.py",
	    "llm.yaml", "a.py", "b.py", "pretrain_videoalign.py", "tools.json",
	    "mm.yaml", "fsdp.yaml", "none.yaml", "late.py", "t1.py", "t2.py",
	    "t3.py", "t4.py", "t5.py", "t6.py", "t7.py", "t8.py", "t9.py",
	    "t10.py", "tool.py", "engine/loop.py", "engine", NULL }; *n; n++) {
		char path[256];

		snprintf(path, sizeof(path), "%s/%s", dir, *n);
		if (unlink(path) == -1)
			rmdir(path);
	}
	rmdir(dir);
	return done_testing();
}
