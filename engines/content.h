/*
 * What an entry script is made of, read the bounded way classification
 * reads it: the first CONTENT_READ_MAX bytes of each file, and of a
 * longer one its last CONTENT_TAIL_MAX bytes from a top-level def, class
 * or __main__ block (where a long script's __main__ block is), line by
 * line, comments and strings left out.  For what a torch training is
 * made of, the code the entry runs is followed: its top level and
 * __main__ block, the functions and methods they call or pass on
 * (mp.spawn(train, ...)), and, through its imports, the modules Python
 * would find (the entry's folder, or the working directory for -m, then
 * PYTHONPATH, the working directory and the installed packages of the
 * job's Python), at most CONTENT_FILES_MAX files (CONTENT_SITE_FILES_MAX
 * of installed packages) and CONTENT_HOPS_MAX imports away; torch,
 * torch_npu, transformers, accelerate, deepspeed and the table's skip
 * rows (numpy, ...) are never read.  A loop that is only defined, or imported and never
 * called, does not make a training.
 *
 * The training table (trainings.conf, msprof-exec-launchers(5)) names the
 * library calls that train (mmdet's train_detector(), runner.train() of
 * mmengine, detectron2's trainer.train(), ...), the packages built on
 * torch, the calls that start a job's ranks in processes of their own,
 * and the options that make a training entry evaluate (detectron2's
 * train_net.py --eval-only runs its test and returns before its loop:
 * which branch runs is not known without the arguments).
 */
#ifndef MSPROF_CONTENT_H
#define MSPROF_CONTENT_H

#define CONTENT_READ_MAX	65536
#define CONTENT_TAIL_MAX	16384	/* and of a longer file, its end ... */
#define CONTENT_FILE_MAX	1048576	/* ... when it is no longer than this */
#define CONTENT_FILES_MAX	48
#define CONTENT_SITE_FILES_MAX	12	/* of them, of installed packages */
#define CONTENT_HOPS_MAX	8
#define TRAININGS_NAME		"trainings.conf"

struct entry_facts {
	/* Of the script itself: MindSpeed. */
	int		 llm, mm;	/* imports mindspeed_llm, mindspeed_mm */
	int		 loop;		/* calls pretrain(...) or x.train(...) */
	/* Of the code the script runs, in it and the modules it imports. */
	const char	*torch;		/* the first torch package imported
					   (torch, transformers, a table's
					   package...), or NULL */
	int		 backward;	/* x.backward(...) */
	int		 step;		/* x.step(...): an optimizer step */
	int		 trainer;	/* a Trainer(...) made ... */
	int		 fit;		/* ... and x.train(...) or x.fit(...) */
	int		 ds_init;	/* deepspeed.initialize(...): a
					   training with a backward or a
					   step (train_batch() is both), an
					   inference (ZeRO) without */
	int		 library;	/* a training call of the table */
	int		 spawn;		/* starts its ranks itself (mp.spawn) */
	int		 followed;	/* modules read besides the script */
	/*
	 * Where: "FILE:LINE: CALL(...)" and what makes it a training;
	 * when it is none, a loop that nothing it runs calls.
	 */
	char		 because[512];
	char		 uncalled[256];
	char		 ds_only[160];	/* deepspeed.initialize(), nothing
					   stepped: where */
	/*
	 * The options of the table's eval rows for what it imports, each
	 * followed by a blank: a launch given one evaluates.
	 */
	char		 eval_opts[256];
	/*
	 * The options of the table's needs rows for what it imports whose
	 * attribute the entry reads (--do_train: training_args.do_train),
	 * each followed by a blank: a launch without one does not train.
	 */
	char		 needs_opts[128];
};

/*
 * Read SCRIPT (relative paths from the current directory) into F: 0, or
 * -1 with errno set when SCRIPT itself cannot be read.  Modules are
 * looked for in SCRIPT's folder, PYTHONPATH, the current directory and
 * the site-packages of the Python that runs PROGRAM (the python, or a
 * launcher such as torchrun by its "#!" line; found on PATH when it has
 * no '/'; NULL: none), where they are readable.
 * With SPAWN, whether it starts its ranks itself is wanted (a script
 * python starts directly); without, the reading stops once it is known
 * to train.
 */
int	entry_facts_read(const char *script, const char *program, int spawn,
	    struct entry_facts *f);

/*
 * entry_facts_read() of FILE, the file of a module python -m runs: its
 * imports are looked for from the current directory first, where Python
 * started with -m looks, not from FILE's folder.
 */
int	entry_module_facts_read(const char *file, const char *program,
	    int spawn, struct entry_facts *f);

/*
 * The argument of ARGV (the entry's own, after it) that is an eval
 * row's option of F (--eval-only, or --eval-only=VALUE), or NULL.
 */
const char *entry_eval_option(const struct entry_facts *f, char *const argv[]);

/*
 * The first option of F's needs rows that ARGV (the entry's own
 * arguments) does not turn on (--do_train, --do_train=true, --do_train
 * True count; --do_train False does not), its length in *LEN; NULL when
 * every one is given, or when the first argument is a JSON or YAML file
 * of arguments, which may hold them.
 */
const char *entry_needed_option(const struct entry_facts *f,
	    char *const argv[], size_t *len);

/*
 * Does it train with torch: a backward pass and an optimizer step, a
 * Trainer(...) trained or fitted, deepspeed.initialize(...) with a
 * backward or a step, or a library's training call of the table
 * (LLaMA-Factory's run_exp())?
 */
int	entry_trains_torch(const struct entry_facts *f);

/*
 * Add the rows of the training table PATH: 0, or -1 with a message that
 * names the line in *WHY.  A file that does not exist adds nothing
 * unless MUST.
 */
int	trainings_load(const char *path, int must, char **why);

/*
 * The table as installed (PREFIX/share/msprof-exec), then
 * SYSCONFDIR/msprof-exec and ~/.config/msprof-exec (XDG_CONFIG_HOME), each
 * adding its rows; loaded once.  0, or -1 with *WHY.
 */
int	trainings_load_default(char **why);

#endif
