/*
 * Unit tests of launch classification (engines/classify.c): the launch
 * table first, then what an unlisted entry imports and calls, the MM
 * engine from the arguments, --framework, the entries never touched; and
 * the one rule per engine for settings already present.
 */
#include <sys/stat.h>

#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "common/util.h"
#include "engines/classify.h"
#include "engines/content.h"
#include "engines/rewrite.h"
#include "engines/window.h"

#define V(...) ((char *[]){ __VA_ARGS__, NULL })

static struct launchtab tab;
static char dir[] = "/tmp/msprof-classify.XXXXXX";
static char top[4096];		/* the repository: where the test starts */

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

/* Does TEXT match the extended regular expression RE? */
static int
matches(const char *text, const char *re)
{
	regex_t r;
	int m;

	if (regcomp(&r, re, REG_EXTENDED | REG_NOSUB) != 0)
		return 0;
	m = regexec(&r, text, 0, NULL, 0) == 0;
	regfree(&r);
	return m;
}

/*
 * Classify ARGV run by PROG in t/data/realtrain/DIR, as the dry run does
 * there: PROG is what a shell finds for ARGV[0] under the simulation
 * (sim/bin's torchrun and deepspeed), a python3 the machine's own.  The
 * command, joined, is returned (the caller frees it).
 */
static char *
real(const char *dir_, const char *prog, char **argv, struct launch *l)
{
	char *where = xasprintf("%s/t/data/realtrain/%s", top, dir_);
	char *path = prog[0] == '/' ? xstrdup(prog) :
	    xasprintf("%s/sim/bin/%s", top, prog);

	if (chdir(where) != 0)
		abort();
	launch_classify(&tab, NULL, path, argv, l);
	if (chdir(top) != 0)
		abort();
	free(path);
	free(where);
	return strv_join(argv, " ");
}

/* In DIR, ARGV run by PROG is a training, for WHY (an ERE at its start). */
static void
taken(const char *dir_, const char *why, const char *prog, char **argv)
{
	struct launch l;
	char *cmd = real(dir_, prog, argv, &l), *re = xasprintf("^%s", why);

	ok(l.engine == ENGINE_TORCH && matches(l.because, re),
	    "%s: %s is a training (%s)", dir_, cmd, l.because);
	free(re);
	free(cmd);
}

/*
 * In DIR, ARGV run by PROG is left alone, for WHY (an ERE), and listed
 * so (not a quiet helper).
 */
static void
alone(const char *dir_, const char *why, const char *prog, char **argv)
{
	struct launch l;
	char *cmd = real(dir_, prog, argv, &l);

	ok(l.engine == ENGINE_NONE, "%s: %s is no training", dir_, cmd);
	ok(l.kind != LAUNCH_NONE && !l.quiet && matches(l.why, why),
	    "... %s (%s)", why, l.why);
	free(cmd);
}

/*
 * The entries of public repositories, verbatim (t/data/realtrain, with
 * their provenance), as their own scripts launch them: each training is
 * taken for the call that makes it one, each evaluation, inference or
 * preprocessing launch is left alone and says why.
 */
static void
real_repos(void)
{
	const char *py = "/usr/bin/python3";
	struct launch l;
	char *cmd;

	/*
	 * detectron2: a library's runner (trainer.train() of
	 * DefaultTrainer), and the same entry run with --eval-only (an eval
	 * row).
	 */
	taken("detectron2", "tools/train_net.py:[0-9]+: trainer.train\\(\\) "
	    "\\(detectron2\\)", py, V("python3", "tools/train_net.py",
	    "--config-file",
	    "configs/COCO-Detection/faster_rcnn_R_50_FPN_1x.yaml",
	    "--num-gpus", "8"));
	alone("detectron2", "is run with --eval-only, an evaluation", py,
	    V("python3", "tools/train_net.py", "--config-file",
	    "configs/COCO-Detection/faster_rcnn_R_50_FPN_1x.yaml",
	    "--eval-only", "MODEL.WEIGHTS", "model_final.pkl"));

	/*
	 * DeepSpeedExamples: an engine's backward and step; the ImageNet
	 * example with --evaluate; ZeRO inference (deepspeed.initialize,
	 * nothing stepped).
	 */
	taken("DeepSpeedExamples/training/cifar",
	    "cifar10_deepspeed.py:[0-9]+: model_engine.backward\\(\\), "
	    "cifar10_deepspeed.py:[0-9]+: model_engine.step\\(\\)",
	    "deepspeed", V("deepspeed",
	    "--bind_cores_to_rank", "cifar10_deepspeed.py", "--deepspeed"));
	taken("DeepSpeedExamples/training/imagenet", "main.py:[0-9]+: "
	    "deepspeed.initialize\\(\\)", "deepspeed", V("deepspeed", "main.py",
	    "-a", "resnet50", "--deepspeed", "--deepspeed_config",
	    "config/ds_config.json", "--multiprocessing_distributed",
	    "/data/imagenet"));
	alone("DeepSpeedExamples/training/imagenet", "is run with --evaluate, "
	    "an evaluation", py, V("python", "main.py", "-a", "resnet50",
	    "--evaluate", "/data/imagenet"));
	alone("DeepSpeedExamples/inference/huggingface/zero_inference",
	    "run_model.py:[0-9]+: deepspeed.initialize\\(\\) but no backward "
	    "pass or step", "deepspeed", V("deepspeed", "--num_gpus", "1",
	    "run_model.py", "--model", "facebook/opt-1.3b", "--batch-size", "8",
	    "--cpu-offload"));

	/*
	 * FastChat: train_mem.py calls train() of the package at the working
	 * directory; the judge's answer generation imports it and trains
	 * nothing.
	 */
	taken("FastChat", "fastchat/train/train.py:[0-9]+: Trainer\\(\\), "
	    "fastchat/train/train.py:[0-9]+: trainer.train\\(\\)", "torchrun",
	    V("torchrun", "--nproc_per_node=4", "--master_port=20001",
	    "fastchat/train/train_mem.py", "--model_name_or_path",
	    "lmsys/vicuna-7b", "--data_path", "data/dummy_conversation.json",
	    "--output_dir", "output_vicuna"));
	alone("FastChat", "gen_model_answer.py is built on torch but trains "
	    "nothing", py, V("python3",
	    "fastchat/llm_judge/gen_model_answer.py",
	    "--model-path", "lmsys/vicuna-7b-v1.5", "--model-id",
	    "vicuna-7b-v1.5"));

	/*
	 * LLaMA-Factory: llamafactory-cli train on more than one device runs
	 * torchrun with its launcher.py; src/train.py; both call run_exp()
	 * (a row).
	 */
	taken("LLaMA-Factory", "src/llamafactory/launcher.py:[0-9]+: "
	    "run_exp\\(\\) \\(LLaMA-Factory\\)", "torchrun", V("torchrun",
	    "--nnodes", "1", "--node_rank", "0", "--nproc_per_node", "8",
	    "--master_addr", "127.0.0.1", "--master_port", "29500",
	    "src/llamafactory/launcher.py", "train",
	    "examples/train_lora/qwen3_lora_sft.yaml"));
	taken("LLaMA-Factory", "src/train.py:[0-9]+: run_exp\\(\\) "
	    "\\(LLaMA-Factory\\)", py, V("python3", "src/train.py",
	    "examples/train_lora/qwen3_lora_sft.yaml"));

	/*
	 * GLM: pretrain_glm.py's loop is train_utils.train_step() ->
	 * backward_step() -> model.backward(), then model.step(); it sets
	 * args.do_train itself (from its data), so the row of the scripts
	 * that need --do_train is not its (train_utils imports transformers).
	 */
	taken("GLM", "train_utils.py:[0-9]+: deepspeed.initialize\\(\\), "
	    "train_utils.py:[0-9]+: model.step\\(\\)", "deepspeed",
	    V("deepspeed", "--master_port", "29500", "--num_nodes", "1",
	    "--num_gpus", "8", "pretrain_glm.py", "--block-lm",
	    "--train-iters", "250000"));

	/* open_clip: a module run by name from src/, its loop in another. */
	taken("open_clip/src", "open_clip_train/train.py:[0-9]+: "
	    "total_loss.backward\\(\\), open_clip_train/train.py:[0-9]+: "
	    "optimizer.step\\(\\)", "torchrun", V("torchrun",
	    "--nproc_per_node", "8", "-m", "open_clip_train.main",
	    "--train-data", "x.tar"));

	/*
	 * The Ascend model zoo: DeepLabv3+ (help strings continued by a
	 * backslash), ResNet50 with apex amp and its own ranks, mmdet 2.x's
	 * tools/train.py and tools/test.py (mmdet.apis re-exports
	 * train_detector in a bracketed import: imported, not called).
	 */
	taken("ModelZoo-PyTorch/DeepLabv3+_ID1695_for_PyTorch",
	    "train.py:[0-9]+: amp.scale_loss\\(\\) \\(apex.amp\\)", py,
	    V("python3", "train.py", "--backbone", "resnet", "--dataset",
	    "pascal", "--multiprocessing-distributed"));
	taken("ModelZoo-PyTorch/ResNet50_for_PyTorch",
	    "DistributedResnet50/main_apex_d76_npu.py:[0-9]+: "
	    "amp.scale_loss\\(\\) \\(apex.amp\\)", py, V("python3",
	    "./DistributedResnet50/main_apex_d76_npu.py", "--data", "/data",
	    "--multiprocessing-distributed", "--world-size=1", "--rank=0"));
	taken("ModelZoo-PyTorch/SSD_for_PyTorch", "tools/train.py:[0-9]+: "
	    "train_detector\\(\\) \\(MMDetection\\)", py, V("python3", "-m",
	    "torch.distributed.launch", "--nproc_per_node=8",
	    "./tools/train.py",
	    "configs/ssd/ssdlite_mobilenetv2_scratch_600e_coco_8p.py",
	    "--launcher", "pytorch"));
	alone("ModelZoo-PyTorch/SSD_for_PyTorch", "tools/test.py is built on "
	    "torch but trains nothing", py, V("python3", "-m",
	    "torch.distributed.launch", "--nproc_per_node=8", "./tools/test.py",
	    "configs/ssd/ssdlite_mobilenetv2_scratch_600e_coco_8p.py",
	    "work_dirs/epoch_120.pth", "--eval=bbox", "--launcher", "pytorch"));

	/* Deltalm: fairseq's training entry (a row), its generation is not. */
	taken("ModelZoo-PyTorch/Deltalm_for_PyTorch", "train.py:[0-9]+: "
	    "cli_main\\(\\) \\(fairseq\\)", py, V("python3", "train.py",
	    "/data/iwslt14", "--arch", "deltalm_base", "--task",
	    "translation"));
	alone("ModelZoo-PyTorch/Deltalm_for_PyTorch", "generate.py is built on "
	    "fairseq but trains nothing", py, V("python3", "generate.py",
	    "/data/iwslt14", "--path", "checkpoint_best.pt"));

	/* pip is no training (python -m pip: its module read, no loop). */
	cmd = real("FastChat", py, V("python3", "-m", "pip", "install", "-e",
	    "."), &l);
	ok(l.engine == ENGINE_NONE, "%s: no training", cmd);
	free(cmd);
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
	    mkdtemp(dir) == NULL || getcwd(top, sizeof(top)) == NULL) {
		printf("Bail out! %s\n", why ? why : "mkdtemp");
		return 1;
	}
	content();
	torch_content();
	listed();
	forced();
	prefix();
	real_repos();
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
