/* common/resume.c: the iteration a Megatron launch resumes from. */
#include <sys/stat.h>

#include <stdlib.h>
#include <unistd.h>

#include "common/resume.h"
#include "tap.h"

static char dir[] = "/tmp/resume.XXXXXX";

static void
tracker(const char *sub, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, sub);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/%s/latest_checkpointed_iteration.txt",
	    dir, sub);
	f = fopen(path, "w");
	fputs(text, f);
	fclose(f);
}

static int
iteration(char **argv, int *rc)
{
	struct resume r;
	char *why = NULL;
	int it;

	*rc = resume_read(argv, 1, dir, &r, &why);
	it = *rc == 0 ? r.iteration : -1;
	free(why);
	resume_free(&r);
	return it;
}

int
main(void)
{
	char *resumed[] = { "pretrain_gpt.py", "--load", "ckpt", NULL };
	char *eq[] = { "pretrain_gpt.py", "--load=ckpt", NULL };
	char *finetune[] = { "pretrain_gpt.py", "--load", "ckpt", "--finetune",
	    NULL };
	char *fresh[] = { "pretrain_gpt.py", "--load", "new", "--save", "new",
	    NULL };
	char *release[] = { "pretrain_gpt.py", "--load", "rel", NULL };
	char *bad[] = { "pretrain_gpt.py", "--load", "bad", NULL };
	char *last[] = { "pretrain_gpt.py", "--load", "rel", "--load", "ckpt",
	    NULL };
	char *none[] = { "pretrain_gpt.py", "--train-iters", "10", NULL };
	struct resume r;
	char *why = NULL;
	int rc;

	if (mkdtemp(dir) == NULL)
		return 1;
	tracker("ckpt", "5000\n");
	tracker("rel", "release");
	tracker("bad", "iter_5000");
	is_int(iteration(resumed, &rc), 5000, "--load DIR: the tracker's "
	    "iteration");
	is_int(iteration(eq, &rc), 5000, "--load=DIR");
	is_int(iteration(last, &rc), 5000, "the last --load wins");
	is_int(iteration(finetune, &rc), 0, "--finetune starts at 0");
	is_int(iteration(release, &rc), 0, "a release checkpoint starts at 0");
	is_int(iteration(none, &rc), 0, "no --load: a fresh start");
	is_int(iteration(fresh, &rc), 0, "no tracker yet: a fresh start");
	is_int(rc, 0, "no tracker yet: not an error");
	resume_read(fresh, 1, dir, &r, &why);
	ok(r.load_is_save, "--load and --save name one directory (that does "
	    "not exist yet)");
	ok(r.tracker == NULL, "no tracker yet: none named");
	resume_free(&r);
	resume_read(resumed, 1, dir, &r, &why);
	ok(!r.load_is_save, "--load without --save");
	ok(r.tracker != NULL && strstr(r.tracker, "ckpt/latest_checkpointed_"
	    "iteration.txt") != NULL, "the tracker is named");
	resume_free(&r);
	is_int(iteration(bad, &rc), -1, "a tracker without a number");
	is_int(rc, -1, "a tracker without a number: refused");
	resume_read(bad, 1, dir, &r, &why);
	ok(why != NULL && strstr(why, "bad/latest_checkpointed_iteration.txt")
	    != NULL, "the message names the file");
	free(why);
	return done_testing();
}
