/*
 * Unit tests of reading entry scripts by content (engines/content.c),
 * with small entries in the shape of real open-source ones: what trains
 * (a loop of its own, Hugging Face Trainer and its subclasses, Lightning,
 * accelerate, deepspeed, mp.spawn, LLaMA-Factory, a loop in a module of
 * the entry's directory) and what does not (diffusion and other inference,
 * evaluation, preprocessing), also when a training call is only named in
 * a comment, a message or a docstring.
 */
#include <sys/stat.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "common/util.h"
#include "engines/content.h"
#include "engines/pymodule.h"

static char dir[] = "/tmp/msprof-content.XXXXXX";

/* Does the entry NAME, holding TEXT, train with torch? */
static int
trains(const char *name, const char *text)
{
	char *path = xasprintf("%s/%s", dir, name);
	struct entry_facts f;
	FILE *fp;
	int r;

	if ((fp = fopen(path, "w")) == NULL || fputs(text, fp) == EOF)
		abort();
	fclose(fp);
	r = entry_facts_read(path, NULL, 1, &f) == 0 && f.torch != NULL &&
	    entry_trains_torch(&f);
	free(path);
	return r;
}

static void
not_training(void)
{
	ok(!trains("sd_infer.py",
	    "import torch\n"
	    "from diffusers import DDPMScheduler, UNet2DModel\n"
	    "scheduler = DDPMScheduler.from_pretrained(\"google/ddpm-cat-256\")\n"
	    "model = UNet2DModel.from_pretrained(\"google/ddpm-cat-256\").to(\"npu\")\n"
	    "sample = torch.randn(1, 3, 256, 256, device=\"npu\")\n"
	    "for t in scheduler.timesteps:\n"
	    "    with torch.no_grad():  # no loss.backward() here: sampling only\n"
	    "        residual = model(sample, t).sample\n"
	    "    sample = scheduler.step(residual, t, sample).prev_sample\n"),
	    "diffusion sampling: a scheduler's step(), backward() in a comment");
	ok(!trains("zero_inference.py",
	    "import deepspeed, torch\n"
	    "ds_engine = deepspeed.initialize(model=model, "
	    "config_params=ds_config)[0]\n"
	    "ds_engine.module.eval()\n"
	    "model = ds_engine.module\n"
	    "out = model.generate(ids)\n"),
	    "ZeRO inference: deepspeed.initialize(), nothing stepped");
	ok(!trains("generate.py",
	    "\"\"\"Generate text with a fine-tuned model.\n"
	    "\n"
	    "Training (see train.py) calls loss.backward() and\n"
	    "optimizer.step(); this script only runs the forward pass.\n"
	    "\"\"\"\n"
	    "import torch\n"
	    "from transformers import AutoModelForCausalLM, AutoTokenizer\n"
	    "tok = AutoTokenizer.from_pretrained('out')\n"
	    "model = AutoModelForCausalLM.from_pretrained('out').npu().eval()\n"
	    "ids = tok('Hello', return_tensors='pt').input_ids.npu()\n"
	    "print(tok.decode(model.generate(ids, max_new_tokens=32)[0]))\n"),
	    "generation: training calls only in the module docstring");
	ok(!trains("eval_glue.py",
	    "import torch\n"
	    "from transformers import Trainer, TrainingArguments\n"
	    "args = TrainingArguments(output_dir='out', do_train=False, "
	    "do_eval=True)\n"
	    "trainer = Trainer(model=model, args=args, eval_dataset=ds)\n"
	    "metrics = trainer.evaluate()\n"
	    "print(\"done; to fine-tune, run trainer.train() instead\")\n"
	    "trainer.log_metrics('eval', metrics)\n"),
	    "Trainer(...).evaluate(), train() named in a message");
	ok(!trains("predict.py",
	    "import lightning as L\n"
	    "trainer = L.Trainer(accelerator='npu', devices=1)\n"
	    "preds = trainer.predict(model, dataloaders=loader)\n"),
	    "Lightning's Trainer.predict");
	ok(!trains("tokenize_data.py",
	    "import torch\n"
	    "from datasets import load_dataset\n"
	    "from sklearn.preprocessing import StandardScaler\n"
	    "ds = load_dataset('json', data_files='raw.jsonl')['train']\n"
	    "ds = ds.map(lambda x: tok(x['text']), batched=True, num_proc=16)\n"
	    "scaler = StandardScaler().fit(features)\n"
	    "torch.save({'ids': ds['input_ids']}, 'tokens.pt')\n"),
	    "preprocessing with torch (and a scaler's fit)");
	ok(!trains("infer_ddp.py",
	    "import torch\n"
	    "msg = 'usage: call model.backward( and opt.step( in train.py'\n"
	    "s = r\"\\\" x.backward( \"  # a raw string's backslash\n"
	    "t = 'it\\'s model.step(1)'\n"
	    "with torch.no_grad():\n"
	    "    print(model(x))\n"),
	    "calls named in strings, with escapes");
}

static void
training(void)
{
	ok(trains("train_loop.py",
	    "import torch\n"
	    "for x, y in loader:\n"
	    "    loss = criterion(model(x), y)\n"
	    "    optimizer.zero_grad()\n"
	    "    loss.backward()  # gradients\n"
	    "    optimizer.step()\n"),
	    "a loop of its own (a comment after the call)");
	ok(trains("sft.py",
	    "from transformers import Trainer\n"
	    "class CustomTrainer(Trainer):\n"
	    "    def compute_loss(self, model, inputs, return_outputs=False):\n"
	    "        return model(**inputs).loss\n"
	    "trainer = CustomTrainer(model=model, args=args, "
	    "train_dataset=ds)\n"
	    "trainer.train(resume_from_checkpoint=args.resume)\n"),
	    "a Trainer subclass, trained");
	ok(trains("lit.py",
	    "import lightning as L\n"
	    "trainer = L.Trainer(max_epochs=3, accelerator='npu', devices=8)\n"
	    "trainer.fit(model, datamodule=dm)\n"),
	    "Lightning: Trainer.fit, no import torch");
	ok(trains("pl_old.py",
	    "import pytorch_lightning as pl\n"
	    "trainer = pl.Trainer(max_epochs=3)\n"
	    "trainer.fit(model, train_loader)\n"),
	    "pytorch_lightning: Trainer.fit");
	ok(trains("acc.py",
	    "from accelerate import Accelerator\n"
	    "accelerator = Accelerator()\n"
	    "model, optimizer, loader = accelerator.prepare(model, optimizer, "
	    "loader)\n"
	    "for batch in loader:\n"
	    "    accelerator.backward(model(**batch).loss)\n"
	    "    optimizer.step()\n"),
	    "accelerate: accelerator.backward(loss)");
	ok(trains("spawn.py",
	    "import torch\n"
	    "import torch.multiprocessing as mp\n"
	    "def train(rank, world):\n"
	    "    loss = model(data).sum()\n"
	    "    loss.backward()\n"
	    "    opt.step()\n"
	    "if __name__ == '__main__':\n"
	    "    mp.spawn(train, args=(8,), nprocs=8, join=True)\n"),
	    "mp.spawn(train, ...) of a loop in the entry");
	ok(trains("ds.py",
	    "import deepspeed\n"
	    "model_engine, optimizer, _, _ = deepspeed.initialize(\n"
	    "    args=args, model=model, model_parameters=params)\n"
	    "for x in data:\n"
	    "    model_engine.backward(model_engine(x))\n"),
	    "engine, ... = deepspeed.initialize(, engine.backward(loss)");
	ok(trains("ds_pipe.py",
	    "import deepspeed\n"
	    "engine, _, _, _ = deepspeed.initialize(model=net)\n"
	    "for step in range(args.steps):\n"
	    "    loss = engine.train_batch()\n"),
	    "a pipeline engine's train_batch()");
	ok(trains("launcher.py",
	    "def launch():\n"
	    "    from llamafactory.train.tuner import run_exp  # use absolute "
	    "import\n"
	    "\n"
	    "    run_exp()\n"
	    "\n"
	    "if __name__ == \"__main__\":\n"
	    "    launch()\n"),
	    "LLaMA-Factory's launcher.py (llamafactory-cli train under "
	    "torchrun): run_exp()");
	ok(trains("lf_train.py",
	    "from llamafactory.train.tuner import run_exp\n"
	    "def main():\n"
	    "    run_exp()\n"
	    "if __name__ == \"__main__\":\n"
	    "    main()\n"),
	    "LLaMA-Factory's src/train.py: run_exp()");
	ok(trains("mm_train.py",
	    "from mmengine.config import Config\n"
	    "from mmengine.runner import Runner\n"
	    "cfg = Config.fromfile(args.config)\n"
	    "runner = Runner.from_cfg(cfg)\n"
	    "runner.train()\n"),
	    "OpenMMLab's tools/train.py: runner.train()");
	ok(!trains("mm_test.py",
	    "from mmengine.runner import Runner\n"
	    "runner = Runner.from_cfg(cfg)\n"
	    "runner.test()\n"),
	    "OpenMMLab's tools/test.py: runner.test()");
	ok(!trains("lf_other.py",
	    "from mylib import run_exp\n"
	    "run_exp()\n"),
	    "a run_exp() of another package is not LLaMA-Factory's");
}

/* The loop in a module of the entry's directory, behind a function. */
static void
followed(void)
{
	char *sub = xasprintf("%s/src", dir);
	char *mod = xasprintf("%s/src/finetune.py", dir);
	FILE *fp;

	mkdir(sub, 0755);
	if ((fp = fopen(mod, "w")) == NULL)
		abort();
	fputs("import torch\nfrom transformers import Trainer\n"
	    "def run(args):\n"
	    "    trainer = Trainer(model=load(args), args=args)\n"
	    "    trainer.train()\n", fp);
	fclose(fp);
	ok(trains("main.py",
	    "import argparse\nfrom src.finetune import run\n"
	    "run(argparse.ArgumentParser().parse_args())\n"),
	    "Trainer(...).train() in src/finetune.py, called through run()");
	free(mod);
	free(sub);
}

/* Write TEXT to DIR/NAME, making its folders. */
static void
put(const char *name, const char *text)
{
	char *path = xasprintf("%s/%s", dir, name);
	char *folder = xstrndup(path, (size_t)(strrchr(path, '/') - path));
	FILE *fp;

	if (mkdirs(folder, 0755) == -1 || (fp = fopen(path, "w")) == NULL ||
	    fputs(text, fp) == EOF)
		abort();
	fclose(fp);
	free(folder);
	free(path);
}

/* Does the entry NAME, read from DIR as the working directory, train? */
static int
trains_in(const char *name, struct entry_facts *f)
{
	char cwd[4096];
	int r;

	if (getcwd(cwd, sizeof(cwd)) == NULL || chdir(dir) != 0)
		abort();
	r = entry_facts_read(name, NULL, 1, f) == 0 && f->torch != NULL &&
	    entry_trains_torch(f);
	if (chdir(cwd) != 0)
		abort();
	return r;
}

/*
 * What the entry runs, followed: a package at the working directory, a
 * relative import, a package's re-export, a bracketed import list, a
 * function passed on, a method of a class made; and what it does not:
 * an evaluation that imports a training module without calling its loop.
 */
static void
called(void)
{
	struct entry_facts f;

	put("trainer.py", "import torch\n"
	    "class Config:\n    lr = 0.1\n"
	    "def build_model(cfg):\n    return torch.nn.Linear(4, 1)\n"
	    "def train(cfg):\n    model = build_model(cfg)\n"
	    "    for x in data:\n        model(x).sum().backward()\n"
	    "        opt.step()\n"
	    "if __name__ == '__main__':\n    train(Config())\n");
	put("eval.py", "from trainer import Config, build_model\n"
	    "model = build_model(Config())\nprint(model(x))\n");
	ok(!trains_in("eval.py", &f), "eval.py imports trainer.py and never "
	    "calls its train()");
	ok(strcmp(f.uncalled, "trainer.py:6: train()") == 0,
	    "... the loop not called is named (%s)", f.uncalled);
	ok(trains_in("trainer.py", &f), "trainer.py itself trains");

	put("fastchat/__init__.py", "");
	put("fastchat/train/__init__.py", "");
	put("fastchat/train/train.py", "import torch\n"
	    "def train():\n    loss = model(x).mean()\n    loss.backward()\n"
	    "    optimizer.step()\n");
	put("fastchat/train/train_mem.py",
	    "from fastchat.train.train import train\n"
	    "if __name__ == \"__main__\":\n    train()\n");
	ok(trains_in("fastchat/train/train_mem.py", &f) &&
	    strstr(f.because, "fastchat/train/train.py:4: loss.backward()"),
	    "fastchat's train_mem.py: the package at the working directory "
	    "(%s)", f.because);
	put("fastchat/train/noloop.py",
	    "from fastchat.train.train import train\nprint('no training')\n");
	ok(!trains_in("fastchat/train/noloop.py", &f),
	    "... imported, never called");

	put("proj/__init__.py", "from .engine import fit_model\n");
	put("proj/engine.py", "import torch\nfrom .steps import (\n"
	    "    forward_step,\n    backward_step as bw,\n)\n"
	    "def fit_model(m):\n    bw(m)\n");
	put("proj/steps.py", "def forward_step(m):\n    return m(x)\n"
	    "def backward_step(m):\n    m.loss.backward()\n"
	    "    m.optimizer.step()\n");
	put("run_proj.py", "import proj\nproj.fit_model(model)\n");
	ok(trains_in("run_proj.py", &f) && f.followed == 3,
	    "a package's re-export, relative imports, a bracketed list "
	    "(%d read: %s)", f.followed, f.because);

	put("worker.py", "import torch\nimport torch.multiprocessing as mp\n"
	    "class Loop:\n    def __init__(self):\n        self.opt = None\n"
	    "    def run_epoch(self):\n        self.model(x).sum().backward()\n"
	    "        self.opt.step()\n"
	    "    def unused(self):\n        pass\n"
	    "def main_worker(rank):\n    Loop().run_epoch()\n"
	    "if __name__ == '__main__':\n    mp.spawn(main_worker, nprocs=8)\n");
	ok(trains_in("worker.py", &f), "a function passed to mp.spawn, a "
	    "method of a class it makes (%s)", f.because);
	put("worker2.py", "import torch\n"
	    "class Loop:\n    def run_epoch(self):\n"
	    "        self.model(x).sum().backward()\n        self.opt.step()\n"
	    "loop = Loop()\nloop.evaluate()\n");
	ok(!trains_in("worker2.py", &f), "a method that is not called");

	/* mmdet 2.x's apis/__init__.py, imported by its tools/test.py */
	put("apis/__init__.py", "from .test import single_gpu_test\n"
	    "from .train import (get_root_logger,\n"
	    "                    train_detector)\n");
	put("apis/test.py", "import torch\n"
	    "def single_gpu_test(m, d):\n    return [m(x) for x in d]\n");
	put("apis/train.py", "import torch\n"
	    "def get_root_logger():\n    return None\n"
	    "def train_detector(m):\n    m(x).sum().backward()\n"
	    "    opt.step()\n");
	put("mmtest.py", "import torch\nfrom apis import single_gpu_test\n"
	    "single_gpu_test(model, loader)\n");
	ok(!trains_in("mmtest.py", &f), "the names of a bracketed from-import "
	    "are imported, not called (%s)", f.because);

	/* DeepLabv3+'s train.py: help='... \ continues its string */
	put("deeplab.py", "import torch\n"
	    "class Trainer(object):\n"
	    "    def training(self, epoch):\n"
	    "        self.model(x).sum().backward()\n"
	    "        self.optimizer.step()\n"
	    "def main():\n"
	    "    parser.add_argument('--batch-size', type=int,\n"
	    "                        help='input batch size for \\\n"
	    "                                training (default: auto)')\n"
	    "    trainer = Trainer(args)\n"
	    "    for epoch in range(9):\n"
	    "        trainer.training(epoch)\n"
	    "if __name__ == '__main__':\n    main()\n");
	ok(trains_in("deeplab.py", &f) && strstr(f.because, "deeplab.py:4:"),
	    "a string continued by a backslash closes on its next line (%s)",
	    f.because);
}

/*
 * A long script (DLRM's dlrm_s_pytorch.py, 75 KB): its loop in the first
 * 64 KiB, its __main__ block past them, read from its end.
 */
static void
long_script(void)
{
	struct entry_facts f;
	char *text = xstrdup("import torch\ndef run():\n"
	    "    loss.backward()\n    optimizer.step()\n"), *next;
	int lines = 4;

	while (strlen(text) < CONTENT_READ_MAX + 30000) {
		next = xasprintf("%sdef unused_%d(x):\n    return x + 1\n\n",
		    text, lines);
		free(text);
		text = next;
		lines += 3;
	}
	next = xasprintf("%sif __name__ == '__main__':\n    run()\n", text);
	put("long.py", next);
	ok(trains_in("long.py", &f) && strstr(f.because, "long.py:3:"),
	    "the __main__ block past the first 64 KiB calls the loop (%s)",
	    f.because);
	free(next);
	next = xasprintf("%sif __name__ == '__main__':\n    print(1)\n", text);
	put("long.py", next);
	ok(!trains_in("long.py", &f), "... one that does not: no training");
	free(next);
	free(text);
}

/*
 * OpenCLIP after "pip install -e .": torchrun -m training.main from the
 * checkout's root finds src/training through site-packages, by the
 * finder setuptools writes (PEP 660) or by a .pth line naming src/.
 */
static void
editable(const char *torchrun)
{
	const char *site = "v/lib/python3.11/site-packages";
	char *text, *path, *file;
	struct entry_facts f;
	int r;

	put("oc/src/training/__init__.py", "");
	put("oc/src/training/train.py", "import torch\n"
	    "def train_one_epoch(model, data, opt):\n    for x in data:\n"
	    "        model(x).sum().backward()\n        opt.step()\n");
	put("oc/src/training/main.py", "from training.train import "
	    "train_one_epoch\ndef main():\n    train_one_epoch(m, d, o)\n"
	    "if __name__ == '__main__':\n    main()\n");
	file = xasprintf("%s/__editable__.open_clip_torch-2.24.0.pth", site);
	put(file, "import __editable___open_clip_torch_2_24_0_finder; "
	    "__editable___open_clip_torch_2_24_0_finder.install()\n");
	free(file);
	text = xasprintf("import sys\nMAPPING: dict[str, str] = {"
	    "'open_clip': '%s/oc/src/open_clip', 'training': "
	    "'%s/oc/src/training'}\nNAMESPACES = {}\n", dir, dir);
	file = xasprintf("%s/__editable___open_clip_torch_2_24_0_finder.py",
	    site);
	put(file, text);
	free(file);
	free(text);
	path = entry_module_file("training.main", torchrun);
	text = xasprintf("%s/oc/src/training/main.py", dir);
	is_str(path, text, "-m training.main: found by the editable "
	    "install's finder");
	free(text);
	r = path != NULL ? entry_facts_read(path, torchrun, 0, &f) : -1;
	ok(r == 0 && entry_trains_torch(&f) && strstr(f.because,
	    "oc/src/training/train.py:5:") != NULL, "... and its loop, in "
	    "src/training/train.py (%s)", r == 0 ? f.because : "");
	free(path);
	path = entry_module_file("training.main", NULL);
	ok(path == NULL, "... not without the job's Python");
	free(path);

	/* the older form: a .pth line names the folder */
	put("oc2/src/training2/main.py", "print(1)\n");
	file = xasprintf("%s/easy-install.pth", site);
	text = xasprintf("# a comment\n%s/oc2/src\nimport os\n", dir);
	put(file, text);
	free(file);
	free(text);
	path = entry_module_file("training2.main", torchrun);
	ok(path != NULL && ends_with(path, "/oc2/src/training2/main.py"),
	    "-m training2.main: found in the folder a .pth line names (%s)",
	    path != NULL ? path : "none");
	free(path);
}

/*
 * The bound on installed files read: an entry that calls into more
 * installed modules than CONTENT_SITE_FILES_MAX before the one that
 * trains is not followed that far (run from DIR, TORCHRUN's Python).
 */
static void
site_bound(const char *torchrun)
{
	struct entry_facts f;
	char *main = xstrdup("import torch\n"), *t, name[96];
	int n = CONTENT_SITE_FILES_MAX + 1, r;

	for (int i = 1; i <= n; i++) {
		snprintf(name, sizeof(name),
		    "v/lib/python3.11/site-packages/sb%d.py", i);
		put(name, i < n ? "def f():\n    pass\n" :
		    "def f():\n    loss.backward()\n    opt.step()\n");
		t = xasprintf("%simport sb%d\nsb%d.f()\n", main, i, i);
		free(main);
		main = t;
	}
	put("w/many.py", main);
	r = entry_facts_read("w/many.py", torchrun, 0, &f);
	ok(r == 0 && !entry_trains_torch(&f),
	    "the loop in the %dth installed module: beyond the bound of %d, "
	    "not read", n, CONTENT_SITE_FILES_MAX);
	t = xasprintf("import torch\nimport sb%d\nsb%d.f()\n", n, n);
	put("w/one.py", t);
	free(t);
	r = entry_facts_read("w/one.py", torchrun, 0, &f);
	ok(r == 0 && entry_trains_torch(&f),
	    "... the same module called first: read, a training");
	free(main);
}

/*
 * A package installed in the job's Python (a venv's site-packages), found
 * through the "#!" line of its torchrun.
 */
static void
installed(void)
{
	char *torchrun = xasprintf("%s/v/bin/torchrun", dir);
	char *python = xasprintf("%s/v/bin/python3", dir), *line;
	char cwd[4096];
	struct entry_facts f;
	int r;

	put("v/lib/python3.11/site-packages/mypkg/__init__.py", "");
	put("v/lib/python3.11/site-packages/mypkg/train.py", "import torch\n"
	    "def run():\n    for x in d:\n        model(x).sum().backward()\n"
	    "        opt.step()\n");
	line = xasprintf("#!%s\nimport sys\n", python);
	put("v/bin/torchrun", line);
	put("v/bin/python3", "");
	if (chmod(torchrun, 0755) == -1 || chmod(python, 0755) == -1)
		abort();
	put("w/main.py", "from mypkg.train import run\n"
	    "if __name__ == '__main__':\n    run()\n");
	if (getcwd(cwd, sizeof(cwd)) == NULL || chdir(dir) == -1)
		abort();
	r = entry_facts_read("w/main.py", torchrun, 0, &f);
	ok(r == 0 && entry_trains_torch(&f) &&
	    strstr(f.because, "site-packages/mypkg/train.py:4:") != NULL,
	    "a loop in the site-packages of torchrun's Python (%s)", f.because);
	r = entry_facts_read("w/main.py", NULL, 0, &f);
	ok(r == 0 && !entry_trains_torch(&f), "... not without its program");
	/* a skip row's package is never read, installed or not */
	put("v/lib/python3.11/site-packages/numpy/__init__.py",
	    "def seed(n):\n    loss.backward()\n    opt.step()\n");
	put("w/np.py", "import torch\nimport numpy as np\nnp.seed(0)\n");
	r = entry_facts_read("w/np.py", torchrun, 0, &f);
	ok(r == 0 && !entry_trains_torch(&f) && f.followed == 0,
	    "numpy (a skip row) is not read (%d read)", f.followed);
	editable(torchrun);
	site_bound(torchrun);
	if (chdir(cwd) == -1)
		abort();
	free(line);
	free(python);
	free(torchrun);
}

/* The table's eval rows: an option that makes a training entry test. */
static void
evaluates(void)
{
	char *argv[] = { "--config-file", "c.yaml", "--eval-only",
	    "MODEL.WEIGHTS", "m.pkl", NULL };
	char *lazy[] = { "--evaluate=1", NULL }, *none[] = { "--eval", NULL };
	char *why = NULL, *table = xasprintf("%s/trainings.conf", dir);
	struct entry_facts f;
	FILE *fp;

	if ((fp = fopen(table, "w")) == NULL)
		abort();
	fputs("train x a.fit t\ntrain x a.fit u\n", fp);
	fclose(fp);
	ok(trainings_load(table, 1, &why) == -1 && why != NULL &&
	    strstr(why, "trainings.conf:2: 'train x a.fit' again, other than "
	    "on an earlier line; keep one") != NULL,
	    "a train row again with another name: file:line (%s)",
	    why != NULL ? why : "");
	free(why);
	why = NULL;
	if ((fp = fopen(table, "w")) == NULL)
		abort();
	fwrite("skip a\nskip b\0c\n", 1, 17, fp);
	fclose(fp);
	ok(trainings_load(table, 1, &why) == -1 && why != NULL &&
	    strstr(why, "trainings.conf:2: a NUL byte in the line") != NULL,
	    "a NUL in a line of trainings.conf: file:line (%s)",
	    why != NULL ? why : "");
	free(why);
	why = NULL;
	if ((fp = fopen(table, "w")) == NULL)
		abort();
	fputs("eval torch --eval-only --evaluate\neval timm --eval\n", fp);
	fclose(fp);
	ok(trainings_load(table, 1, &why) == 0, "eval rows load (%s)",
	    why != NULL ? why : "");
	put("d2train.py", "import torch\nfrom detectron2.engine import "
	    "DefaultTrainer\ndef main(args):\n    if args.eval_only:\n"
	    "        return DefaultTrainer.test(cfg, model)\n"
	    "    model(x).sum().backward()\n    opt.step()\n"
	    "main(args)\n");
	ok(trains_in("d2train.py", &f), "detectron2's train_net.py trains");
	ok(entry_eval_option(&f, argv) != NULL &&
	    strcmp(entry_eval_option(&f, argv), "--eval-only") == 0,
	    "... run with --eval-only, it evaluates");
	ok(entry_eval_option(&f, lazy) != NULL, "... --evaluate=1 too");
	ok(entry_eval_option(&f, none) == NULL, "... timm's --eval is not its");
	put("deit.py", "import torch, timm\nmodel(x).sum().backward()\n"
	    "opt.step()\n");
	ok(trains_in("deit.py", &f) && entry_eval_option(&f, none) != NULL,
	    "an entry that imports timm, run with --eval");
	free(why);
	free(table);
}

/*
 * The depth bound: a chain of N modules, each calling the next's f()
 * from its own f(), the last's f() training.
 */
static void
chain(const char *kind, int n)
{
	char name[64], next[64], *text;

	for (int i = 1; i <= n; i++) {
		snprintf(name, sizeof(name), "%s%d.py", kind, i);
		snprintf(next, sizeof(next), "%s%d", kind, i + 1);
		text = i == n ? xstrdup("import torch\ndef f():\n"
		    "    loss.backward()\n    opt.step()\n") :
		    xasprintf("import %s\ndef f():\n    %s.f()\n", next, next);
		put(name, text);
		free(text);
	}
	snprintf(name, sizeof(name), "%s0.py", kind);
	text = xasprintf("import torch\nimport %s1\n%s1.f()\n", kind, kind);
	put(name, text);
	free(text);
}

/*
 * A function re-exported N times ("from next import f" in each module),
 * the modules imported and called into by the entry first (an undefined
 * g()), so that they are read already, one import away.
 */
static void
reexports(const char *kind, int n)
{
	char name[64], *text = xstrdup("import torch\n"), *t;

	for (int i = 1; i <= n; i++) {
		snprintf(name, sizeof(name), "%s%d.py", kind, i);
		t = i == n ? xstrdup("def f():\n    loss.backward()\n"
		    "    opt.step()\n") : xasprintf("from %s%d import f\n",
		    kind, i + 1);
		put(name, t);
		free(t);
		t = xasprintf("%simport %s%d\n%s%d.g()\n", text, kind, i,
		    kind, i);
		free(text);
		text = t;
	}
	snprintf(name, sizeof(name), "%s0.py", kind);
	t = xasprintf("%sfrom %s1 import f\nf()\n", text, kind);
	put(name, t);
	free(t);
	free(text);
}

static void
bounds(void)
{
	struct entry_facts f;
	char *text, *t;

	chain("cnear", CONTENT_HOPS_MAX);
	ok(trains_in("cnear0.py", &f), "a training %d calls away: found",
	    CONTENT_HOPS_MAX);
	chain("cfar", CONTENT_HOPS_MAX + 2);
	ok(!trains_in("cfar0.py", &f), "%d calls away: beyond the bound",
	    CONTENT_HOPS_MAX + 2);
	/* the modules read already (the entry imports them all): the calls
	 * are still followed no deeper than the bound */
	chain("dfar", CONTENT_HOPS_MAX + 2);
	text = xstrdup("import torch\n");
	for (int i = 1; i <= CONTENT_HOPS_MAX + 2; i++) {
		char *s = xasprintf("%simport dfar%d\n", text, i);

		free(text);
		text = s;
	}
	put("dall.py", (t = xasprintf("%sdfar1.f()\n", text)));
	free(t);
	free(text);
	ok(!trains_in("dall.py", &f), "%d calls deep through modules read "
	    "already: beyond the bound", CONTENT_HOPS_MAX + 2);
	reexports("rnear", 3);
	ok(trains_in("rnear0.py", &f), "a function re-exported 3 times: found");
	reexports("rfar", CONTENT_HOPS_MAX + 2);
	ok(!trains_in("rfar0.py", &f), "re-exported %d times (modules read "
	    "already): beyond the bound", CONTENT_HOPS_MAX + 2);
}

int
main(void)
{
	char *cmd;

	if (mkdtemp(dir) == NULL)
		return 1;
	not_training();
	training();
	followed();
	called();
	evaluates();
	installed();
	long_script();
	bounds();
	cmd = xasprintf("rm -rf '%s'", dir);
	if (system(cmd) != 0)
		ok(0, "cleanup");
	free(cmd);
	return done_testing();
}
