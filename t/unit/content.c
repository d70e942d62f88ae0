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
	r = entry_facts_read(path, &f) == 0 && f.torch != NULL &&
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
	    "    args=args, model=model, model_parameters=params)\n"),
	    "engine, ... = deepspeed.initialize(");
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

int
main(void)
{
	char *cmd;

	if (mkdtemp(dir) == NULL)
		return 1;
	not_training();
	training();
	followed();
	cmd = xasprintf("rm -rf '%s'", dir);
	if (system(cmd) != 0)
		ok(0, "cleanup");
	free(cmd);
	return done_testing();
}
