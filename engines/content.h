/*
 * What an entry script is made of, read the bounded way classification
 * reads it: the first CONTENT_READ_MAX bytes of the script, line by line,
 * comments and strings left out, and, for what a torch training is made of, the
 * same of each module of the script's own directory it imports (at most
 * CONTENT_FOLLOW_MAX), where a training loop often lives (train.py calling
 * engine.train_one_epoch).
 */
#ifndef MSPROF_CONTENT_H
#define MSPROF_CONTENT_H

#define CONTENT_READ_MAX	65536
#define CONTENT_FOLLOW_MAX	16

struct entry_facts {
	/* Of the script itself: MindSpeed. */
	int		 llm, mm;	/* imports mindspeed_llm, mindspeed_mm */
	int		 loop;		/* calls pretrain(...) or x.train(...) */
	/* Of the script and the modules it imports from its directory. */
	const char	*torch;		/* the first torch package it imports
					   (torch, torch_npu, transformers,
					   accelerate, deepspeed), or NULL */
	int		 backward;	/* x.backward(...) */
	int		 step;		/* x.step(...): an optimizer step */
	int		 trainer;	/* a Trainer(...) made ... */
	int		 fit;		/* ... and x.train(...) or x.fit(...) */
	int		 ds_init;	/* deepspeed.initialize(...) */
	unsigned	 library;	/* bit i: imports the package of
					   content.c's library_trainings[i] */
	unsigned	 library_call;	/* bit i: calls its entry point */
	int		 followed;	/* modules of its directory read */
};

/*
 * Read SCRIPT (relative paths from the current directory) into F: 0, or
 * -1 with errno set when SCRIPT itself cannot be read.
 */
int	entry_facts_read(const char *script, struct entry_facts *f);

/*
 * Does it train with torch: a backward pass and an optimizer step, a
 * Trainer(...) trained or fitted, deepspeed.initialize(...), or a
 * library's training entry point (LLaMA-Factory's run_exp())?
 */
int	entry_trains_torch(const struct entry_facts *f);

#endif
