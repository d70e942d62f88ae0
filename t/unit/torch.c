/*
 * Unit tests of the torch engine (engines/torch.c): torch_npu's path rule,
 * the config written for a plan (window, ranks, one process, the time it
 * is dated), the rewrite (PROF_CONFIG_PATH set, the command line as it
 * was, a refused save path), and a PROF_CONFIG_PATH of the launch's own.
 */
#include <sys/stat.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "common/jsonfile.h"
#include "engines/rewrite.h"
#include "engines/torch.h"

#define V(...) ((char *[]){ __VA_ARGS__, NULL })

static char dir[] = "/tmp/msprof-torch.XXXXXX";
static struct launchtab tab;

/* "ok" or the first byte torch_path_check refuses, as "bad 'C'". */
static const char *
checked(const char *path)
{
	static char buf[32];
	const char *bad;

	if (torch_path_check(path, &bad) == 0)
		return "ok";
	snprintf(buf, sizeof(buf), "bad '%.1s' at %d", bad, (int)(bad - path));
	return buf;
}

static void
paths(void)
{
	char *longname = xcalloc(300, 1);

	is_str(checked("/data/run_1/out-2/~x/a.b"), "ok",
	    "letters, digits, _ - . ~ /");
	is_str(checked("/data/my run\t/x"), "ok", "white space is taken");
	is_str(checked("/data/\xe5\xae\x9e\xe9\xaa\x8c/x"), "ok",
	    "CJK ideographs (U+5B9E U+9A8C) are taken");
	is_str(checked("/data/run+1"), "bad '+' at 9", "'+' is refused");
	is_str(checked("/data/a@b"), "bad '@' at 7", "'@'");
	is_str(checked("/data/x:1"), "bad ':' at 7", "':'");
	is_str(checked("/data/lr=0.1"), "bad '=' at 8", "'='");
	is_str(checked("/data/\xc3\xa9t\xc3\xa9"), "bad '\xc3' at 6",
	    "other non-ASCII (U+00E9) is refused");
	is_str(checked("/data/\xe3\x80\x80"), "bad '\xe3' at 6",
	    "CJK punctuation (U+3000) is outside the range");
	is_str(checked(""), "bad '' at 0", "an empty path");
	memset(longname, 'a', 257);
	longname[0] = '/';
	is_str(checked(longname), "bad 'a' at 256", "a component of 256 bytes");
	longname[256] = '\0';
	is_str(checked(longname), "ok", "... of 255 is taken");
	free(longname);
}

/* The config written in DIR, as "start active is_rank [ranks]". */
static char *
config(const struct plan *p, int one, time_t mtime)
{
	static char buf[256];
	char *why = NULL, *path = xasprintf("%s/profiler_config.json", dir);
	cJSON *j;
	struct stat st;

	unlink(path);
	buf[0] = '\0';
	if (torch_config_write(dir, p, one, mtime, &why) == 0 &&
	    (j = json_read(path, &why)) != NULL) {
		const cJSON *r;
		size_t n = (size_t)snprintf(buf, sizeof(buf), "%d %d %s [",
		    cJSON_GetObjectItem(j, "start_step")->valueint,
		    cJSON_GetObjectItem(j, "active")->valueint,
		    cJSON_IsTrue(cJSON_GetObjectItem(j, "is_rank")) ? "true" :
		    "false");
		cJSON_ArrayForEach(r, cJSON_GetObjectItem(j, "rank_list"))
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%d",
			    buf[n - 1] == '[' ? "" : ",", r->valueint);
		snprintf(buf + n, sizeof(buf) - n, "] %s",
		    cJSON_GetObjectItem(j, "prof_dir")->valuestring);
		cJSON_Delete(j);
		if (mtime != 0 && stat(path, &st) == 0 && st.st_mtime != mtime)
			strcat(buf, " (not dated)");
	}
	free(why);
	free(path);
	return buf;
}

static void
configs(void)
{
	struct plan p;
	int ranks[] = { 1, 3 };

	plan_defaults(&p);
	is_str(config(&p, 0, 0), "10 2 true [0] ./profiling_output",
	    "the defaults: steps 10 and 11, rank 0 only");
	is_str(config(&p, 1, 0), "10 2 false [] ./profiling_output",
	    "one process (no rank): every process, which is rank 0");
	p.step_start = 3;
	p.step_end = 7;
	p.ranks = ranks;
	p.nranks = 2;
	is_str(config(&p, 0, 0), "3 4 true [1,3] ./profiling_output",
	    "--steps 3:7 --ranks 1,3: start_step 3, active 4");
	is_str(config(&p, 1, 2000000000), "3 4 true [1,3] ./profiling_output",
	    "one process, ranks without 0: none collects; dated as asked");
	p.ranks = NULL;
	p.nranks = 0;
	p.ranks_all = 1;
	free(p.mode);
	p.mode = xstrdup("dynamic");
	is_str(config(&p, 0, 0), "0 4 false [] ./profiling_output",
	    "--mode dynamic --ranks all: start_step 0 (msprof-exec trigger "
	    "sets it), every rank");
	plan_free(&p);
}

/* The dry-run rewrite of ARGV (ENVP) under PLAN: "env | argv" or the refusal. */
static char *
rewritten(const struct plan *p, char **argv, char **envp)
{
	static char buf[512];
	struct launch l;
	struct rewrite rw;
	char *why = NULL;

	launch_classify(&tab, "torch", "/usr/bin/torchrun", argv, &l);
	if (launch_rewrite(p, &l, argv, envp, NULL, &rw, &why) == -1)
		snprintf(buf, sizeof(buf), "ERROR %s", why);
	else {
		char *a = strv_join(rw.argv.v, " ");
		char *e = strv_join(rw.env.v, " ");

		snprintf(buf, sizeof(buf), "%s | %s%s", e, a, rw.kept ?
		    " (kept)" : "");
		free(a);
		free(e);
	}
	free(why);
	rewrite_free(&rw);
	return buf;
}

static void
rewrites(void)
{
	struct plan p;
	char *own = xasprintf("%s/mine", dir), *cfg, *env;
	FILE *f;

	plan_defaults(&p);
	is_str(rewritten(&p, V("torchrun", "--nproc_per_node", "2", "x.py",
	    "--lr", "1"), NULL),
	    "PROF_CONFIG_PATH=SESSION/prof_config | torchrun --nproc_per_node "
	    "2 x.py --lr 1", "PROF_CONFIG_PATH set, the command line as it was");
	p.output = xasprintf("%s/run+1", dir);
	ok(strncmp(rewritten(&p, V("torchrun", "x.py"), NULL), "ERROR ", 6) ==
	    0 && strstr(rewritten(&p, V("torchrun", "x.py"), NULL),
	    "for the '+' in it") != NULL, "a save path torch_npu refuses: refused");
	free(p.output);
	p.output = NULL;
	p.train_iters = 50;

	mkdir(own, 0755);
	cfg = xasprintf("%s/profiler_config.json", own);
	if ((f = fopen(cfg, "w")) == NULL)
		abort();
	fputs("{\"prof_dir\": \"/my/prof\"}\n", f);
	fclose(f);
	env = xasprintf("PROF_CONFIG_PATH=%s", own);
	ok(strncmp(rewritten(&p, V("torchrun", "x.py"), V("A=1", env)),
	    "ERROR the launch already sets profiling options (PROF_CONFIG_PATH=",
	    66) == 0, "its own PROF_CONFIG_PATH: --existing ask stops");
	p.existing = EXISTING_KEEP;
	is_str(rewritten(&p, V("torchrun", "x.py"), V(env)), " | torchrun x.py "
	    "(kept)", "--existing keep: nothing set");
	p.existing = EXISTING_OVERRIDE;
	is_str(rewritten(&p, V("torchrun", "x.py"), V(env)),
	    "PROF_CONFIG_PATH=SESSION/prof_config | torchrun x.py",
	    "--existing override: msprof-exec's");
	p.existing = EXISTING_ASK;
	is_str(rewritten(&p, V("torchrun", "x.py"), V("PROF_CONFIG_PATH=")),
	    "PROF_CONFIG_PATH=SESSION/prof_config | torchrun x.py",
	    "an empty PROF_CONFIG_PATH is none (torch_npu ignores it)");
	unlink(cfg);
	rmdir(own);
	free(cfg);
	free(env);
	free(own);
	plan_free(&p);
}

/* torch_npu's log names: the pid, the rank and whether a monitor's. */
static void
log_names(void)
{
	long pid = 0;
	int rank = 0, mon = 0;

	ok(torch_log_name("dp_node_rank_3_412_rank_-1.log", &pid, &rank,
	    &mon) == 0 && pid == 412 && rank == -1 && !mon,
	    "a host holding _rank_: the last one, pid 412, rank -1");
	ok(torch_log_name("monitor_dp_h_9_rank_2.log", &pid, &rank, &mon) ==
	    0 && pid == 9 && rank == 2 && mon, "a monitor's log");
	ok(torch_log_name("dp_h_9_rank_2.log.1", &pid, &rank, &mon) == -1,
	    "a rotated log is not one");
	ok(torch_log_name("dp_h_x_rank_2.log", &pid, &rank, &mon) == -1,
	    "no pid: not one");
}

int
main(void)
{
	char *why = NULL, *path;

	if (mkdtemp(dir) == NULL || launchtab_load(&tab,
	    "config/launchers.conf", engine_names(), &why) == -1) {
		printf("Bail out! %s\n", why ? why : "mkdtemp");
		return 1;
	}
	paths();
	log_names();
	configs();
	rewrites();
	launchtab_free(&tab);
	path = xasprintf("%s/profiler_config.json", dir);
	unlink(path);
	free(path);
	rmdir(dir);
	return done_testing();
}
