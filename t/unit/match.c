/* Unit tests of the launch matcher (shim/match.c). */
#include <sys/mman.h>

#include "tap.h"
#include "shim/contract.h"
#include "shim/match.h"
#include "shim/words.h"

static const char *table =
    "launcher=torchrun,msrun;python=python,python3,python3.*;"
    "module=torch.distributed.run,torch.distributed.launch;"
    "entry=pretrain_gpt.py,mindspeed_mm/fsdp/train/trainer.py";

#define V(...) ((char *[]){ __VA_ARGS__, NULL })

static enum launch_kind
kind(const char *path, char *const argv[])
{
	struct launch_match m;

	return match_launch(table, path, argv, &m);
}

static void
launchers(void)
{
	is_int(kind("/usr/bin/torchrun", V("torchrun", "x.py")),
	    LAUNCH_LAUNCHER, "torchrun by path");
	is_int(kind("torchrun", V("torchrun")), LAUNCH_LAUNCHER,
	    "torchrun by name");
	is_int(kind("/opt/ms/bin/msrun", V("msrun")), LAUNCH_LAUNCHER, "msrun");
	is_int(kind("/usr/bin/torchrun2", V("torchrun2")), LAUNCH_NONE,
	    "a longer name is not torchrun");
	is_int(kind("/usr/bin/xtorchrun", V("xtorchrun")), LAUNCH_NONE,
	    "a prefixed name is not torchrun");
	is_int(kind("/usr/bin/torchrun", NULL), LAUNCH_LAUNCHER,
	    "a NULL argv still matches a launcher by path");
	is_int(kind("/bin/sh", V("sh", "-c", "torchrun x")), LAUNCH_NONE,
	    "sh -c is not itself a launch");
}

static void
python(void)
{
	struct launch_match m;

	is_int(kind("/usr/bin/python3", V("python3", "-m",
	    "torch.distributed.run", "x.py")), LAUNCH_PY_MODULE, "-m run");
	is_int(kind("/usr/bin/python3.11", V("python3", "-u", "-m",
	    "torch.distributed.launch")), LAUNCH_PY_MODULE,
	    "python3.11 -u -m launch");
	is_int(kind("/usr/bin/python", V("python", "-um",
	    "torch.distributed.run")), LAUNCH_PY_MODULE, "bundled -um");
	is_int(kind("/usr/bin/python", V("python", "-mtorch.distributed.run")),
	    LAUNCH_PY_MODULE, "attached -mtorch.distributed.run");
	is_int(kind("/usr/bin/python", V("python", "-W", "ignore", "-X",
	    "utf8", "-m", "torch.distributed.run")), LAUNCH_PY_MODULE,
	    "-W and -X values skipped");
	is_int(kind("/usr/bin/python", V("python", "-Wignore", "-m",
	    "torch.distributed.run")), LAUNCH_PY_MODULE, "attached -W value");
	is_int(kind("/usr/bin/python", V("python", "-m", "torch.distributed")),
	    LAUNCH_NONE, "another module");
	is_int(kind("/usr/bin/python", V("python", "-m",
	    "torch.distributed.run.x")), LAUNCH_NONE, "modules compare whole");
	is_int(kind("/usr/bin/python", V("python", "-c",
	    "import torch.distributed.run")), LAUNCH_NONE, "-c is never a launch");
	is_int(kind("/usr/bin/python", V("python", "-Bc", "pass", "-m",
	    "torch.distributed.run")), LAUNCH_NONE, "bundled -c ends options");
	is_int(kind("/usr/bin/python", V("python", "-", "-m",
	    "torch.distributed.run")), LAUNCH_NONE, "- (stdin) ends options");
	is_int(kind("/usr/bin/python", V("python", "-m")), LAUNCH_NONE,
	    "-m without a module");
	is_int(kind("/usr/bin/python3", V("python3", "pretrain_gpt.py", "-m",
	    "x")), LAUNCH_PY_SCRIPT, "python entry script");
	is_int(kind("/usr/bin/python3", V("python3", "-u",
	    "/work/MindSpeed-LLM/pretrain_gpt.py")), LAUNCH_PY_SCRIPT,
	    "python entry script by path");
	is_int(kind("/usr/bin/python3", V("python3", "tools/preprocess_data.py")),
	    LAUNCH_NONE, "preprocessing is not a launch");
	is_int(kind("/usr/bin/python3", V("python3", "/venv/bin/torchrun",
	    "--nproc_per_node", "2", "x.py")), LAUNCH_PY_SCRIPT,
	    "python running the torchrun script (trampoline hop)");
	is_int(kind("/usr/bin/python3", V("python3", "--", "pretrain_gpt.py")),
	    LAUNCH_PY_SCRIPT, "-- ends options");
	is_int(kind("/usr/bin/python3", V("python3",
	    "--check-hash-based-pycs", "never", "pretrain_gpt.py")),
	    LAUNCH_PY_SCRIPT, "--check-hash-based-pycs value skipped");
	is_int(kind("/usr/bin/python3", V("python3", "--version")), LAUNCH_NONE,
	    "--version");
	is_int(kind("/usr/bin/perl", V("perl", "-m", "torch.distributed.run")),
	    LAUNCH_NONE, "not a python");
	is_int(kind("/usr/bin/python3-config", V("python3-config")), LAUNCH_NONE,
	    "python3-config without arguments");
	match_launch(table, "/usr/bin/python", V("python", "-u", "-m",
	    "torch.distributed.run", "--nnodes", "1"), &m);
	is_str(m.operand, "torch.distributed.run", "operand is the module");
	is_int(m.next, 4, "next is the first launcher argument");
	/* entry modules: python -m NAME that no launcher's row names */
	is_int(match_launch("python=python3;module=torch.distributed.run;"
	    "entry-module=*", "/usr/bin/python3", V("python3", "-u", "-m",
	    "espnet2.bin.asr_train", "--ngpu", "1"), &m),
	    LAUNCH_PY_ENTRY_MODULE, "entry-module *: python3 -m pkg.mod");
	is_str(m.operand, "espnet2.bin.asr_train", "... the module");
	is_int(m.next, 4, "... its arguments after it");
	is_int(match_launch("python=python3;module=torch.distributed.run;"
	    "entry-module=*", "/usr/bin/python3", V("python3", "-m",
	    "torch.distributed.run"), &m), LAUNCH_PY_MODULE,
	    "a launcher's module row wins over entry-module *");
	is_int(match_launch("python=python3;entry-module=espnet2.*",
	    "/usr/bin/python3", V("python3", "-m", "pip", "install"), &m),
	    LAUNCH_NONE, "a module no entry-module row matches: none");
	is_int(match_launch("python=python3;entry-module=espnet2.*;entry=*.py",
	    "/usr/bin/python3", V("python3", "-m", "espnet2.bin.x"), &m),
	    LAUNCH_PY_ENTRY_MODULE, "entry-module compares modules whole, "
	    "a final '*' any suffix");
	is_int(match_launch("python=python3;entry-module=x", "/usr/bin/python3",
	    V("python3", "-c", "x"), &m), LAUNCH_NONE,
	    "-c is no entry module");
	/* console scripts: by the executed path, or run by a python */
	is_int(match_launch("launcher=torchrun;python=python3;"
	    "console=fairseq-train", "/venv/bin/fairseq-train",
	    V("fairseq-train", "data-bin", "--arch", "x"), &m), LAUNCH_CONSOLE,
	    "console fairseq-train: its exec is an entry");
	is_int(match_launch("python=python3;console=fairseq-train",
	    "/venv/bin/fairseq-train2", V("fairseq-train2"), &m), LAUNCH_NONE,
	    "... compared with the whole last component");
	is_int(match_launch("python=python3;console=fairseq-train",
	    "/usr/bin/python3", V("python3", "/venv/bin/fairseq-train", "d"),
	    &m), LAUNCH_PY_SCRIPT, "python3 /venv/bin/fairseq-train: a script");
	/* with an entry "*.py" (launchers.conf's last): any python X.py */
	is_int(match_launch("python=python3;entry=pretrain_gpt.py,*.py",
	    "/usr/bin/python3", V("python3", "-u", "tools/preprocess_data.py"),
	    &m), LAUNCH_PY_SCRIPT, "*.py: python3 tools/x.py is handed over");
	is_int(m.next, 3, "... its script read");
	is_int(match_launch("python=python3;entry=*.py", "/usr/bin/python3",
	    V("python3", "-c", "x.py"), &m), LAUNCH_NONE,
	    "*.py: python3 -c never");
	is_int(match_launch("python=python3;entry=*.py", "/usr/bin/python3",
	    V("python3", "run.sh"), &m), LAUNCH_NONE, "*.py: not a .sh");
	is_int(match_launch("python=python3;entry=*.py", "/bin/sh",
	    V("sh", "x.py"), &m), LAUNCH_NONE, "*.py: not another interpreter");
}

static void
entries(void)
{
	is_int(table_find(table, "entry", "mindspeed_mm/fsdp/train/trainer.py"),
	    1, "entry with a directory, relative");
	is_int(table_find(table, "entry",
	    "/x/mindspeed_mm/fsdp/train/trainer.py"), 1,
	    "entry with a directory, absolute");
	is_int(table_find(table, "entry", "/x/notmindspeed_mm/fsdp/train/trainer.py"),
	    -1, "entry directories match at a component boundary");
	is_int(table_find(table, "entry", "trainer.py"), -1,
	    "a bare trainer.py is not the MM trainer");
	is_int(table_find(table, "entry", "./pretrain_gpt.py"), 0,
	    "./pretrain_gpt.py");
	is_int(table_find(table, "module", "torch.distributed.launch"), 1,
	    "index among a key's items");
	is_int(table_find("entry=tasks/train*", "entry",
	    "/repo/tasks/train_x.py"), 0, "a '/' item with '*': at a "
	    "component boundary of a full path");
	is_int(table_find("entry=tasks/train*", "entry", "tasks/train.py"), 0,
	    "a '/' item with '*': a relative path");
	is_int(table_find("entry=tasks/train*", "entry", "/repo/xtasks/train.py"),
	    -1, "a '/' item with '*': not inside a component");
	is_int(table_find("entry=tasks/train*", "entry",
	    "/repo/tasks/train/other.py"), -1, "a '/' item with '*': the "
	    "rest stays in the last component");
	is_int(table_find("entry=pretrain_gpt.py,*.py", "entry",
	    "/repo/tools/train.py"), 1, "*.py: any script's name ending .py");
	is_int(table_find("entry=pretrain_gpt.py,*.py", "entry",
	    "pretrain_gpt.py"), 0, "... the first item that matches counts");
	is_int(table_find("entry=*.py", "entry", "/repo/train.py/run"), -1,
	    "*.py: in the last component only");
	is_int(table_find("entry=*.py", "entry", ".py"), 0, "*.py: .py itself");
	is_int(table_find("entry=*.py", "entry", "y"), -1,
	    "*.py: a name shorter than its end");
	is_int(table_find("entry=*.py", "entry", "/repo/"), -1,
	    "*.py: an empty last component");
	is_int(table_find("entry=*.py", "entry", "train.pyc"), -1,
	    "*.py: the end of the name");
	is_int(table_find("module=*x", "module", "a*x"), -1,
	    "a module is compared whole: '*' first is a character there");
	is_int(table_find(NULL, "entry", "x"), -1, "no table");
	is_int(table_find("", "entry", "x"), -1, "empty table");
	is_int(table_find("launcher=;entry=", "entry", ""), -1, "empty items");
	is_str(path_base("/a/b/c"), "c", "path_base");
	is_str(path_base("c"), "c", "path_base without a slash");
}

/* Does an item of "launcher" or "python" in T match NAME? */
static int
table_matches(const char *t, const char *name)
{
	return table_has(t, MATCH_KEY_LAUNCHER, name) ||
	    table_has(t, MATCH_KEY_CONSOLE, name) ||
	    table_has(t, MATCH_KEY_PYTHON, name);
}

static int matched;	/* names the tables below matched */

/* Every NAMES that T matches passes T's filter; returns the misses. */
static int
filter_misses(const char *t, const char *const *names)
{
	struct launch_filter f;
	int misses = 0;

	filter_build(&f, t);
	for (; *names != NULL; names++)
		if (table_matches(t, *names) && matched++ >= 0 &&
		    !filter_pass(&f, *names)) {
			printf("# %s: filter drops %s\n", t, *names);
			misses++;
		}
	return misses;
}

static void
filter(void)
{
	/* Every form an item takes (contract.h), with names it matches. */
	static const char *const tables[] = {
		"launcher=torchrun,msrun;python=python,python3,python3.*",
		"python=p*;launcher=x", "launcher=bin/torchrun",
		"launcher=tasks/train*", "launcher=a/", "launcher=a/*",
		"launcher=*", "entry=x;module=m;launcher=t;python=q,",
		"launcher=,;python=;launcher=zz*",
		"launcher=t;console=fairseq-train,x*;python=q", NULL
	};
	static const char *const names[] = {
		"torchrun", "/usr/bin/torchrun", "msrun", "python", "python3",
		"/usr/bin/python3.11", "python3.", "p", "pypy", "x", "/x",
		"/opt/bin/torchrun", "bin/torchrun", "/repo/tasks/train.py",
		"tasks/train", "a/", "/a/", "/a/b", "t", "q", "zz", "zzz",
		"", "/", "//", "fairseq-train", "/venv/bin/fairseq-train",
		"xy", NULL
	};
	static const char *const others[] = {
		"/bin/true", "true", "/bin/sh", "env", "/usr/bin/bash", "ls",
		"/usr/bin/perl", "m", "tr", NULL
	};
	struct launch_filter f;
	int misses = 0, passed = 0;
	size_t i;

	for (i = 0; tables[i] != NULL; i++)
		misses += filter_misses(tables[i], names);
	is_int(misses, 0, "the filter lets through every name the table "
	    "matches, for every form of item");

	filter_build(&f, tables[0]);
	for (i = 0; others[i] != NULL; i++)
		passed += filter_pass(&f, others[i]);
	is_int(passed, 0, "it stops common commands at once");
	ok(filter_pass(&f, "/usr/bin/python3.12"), "python3.12 passes");
	filter_build(&f, "launcher=*");
	ok(filter_pass(&f, "/bin/true"), "an item '*' lets everything through");
	filter_build(&f, NULL);
	ok(!filter_pass(&f, "torchrun"), "no table: nothing passes");
}

static int
same_filter(const struct launch_filter *a, const struct launch_filter *b)
{
	for (int i = 0; i < 4; i++)
		if (a->first[i] != b->first[i] || a->pair[i] != b->pair[i])
			return 0;
	return a->all == b->all;
}

/*
 * T's filter, written as msprof-exec writes it before the table, read
 * back by the shim: the same filter, else the shim would miss launches.
 */
static int
filter_round_trip(const char *t)
{
	struct launch_filter built, read;
	char text[FILTER_TEXT_MAX + 256];
	size_t n;

	filter_build(&built, t);
	n = filter_write(&built, text);
	if (n >= FILTER_TEXT_MAX)
		return 0;
	snprintf(text + n, sizeof(text) - n, ";%s", t);
	filter_build(&read, text);
	if (!same_filter(&built, &read)) {
		printf("# %s: read back differs\n", text);
		return 0;
	}
	return 1;
}

/* The filter msprof-exec works out once and writes first in the table. */
static void
filter_written(void)
{
	static const char *const tables[] = {
		"launcher=torchrun,msrun;python=python,python3,python3.*",
		"python=p*;launcher=x", "launcher=bin/torchrun",
		"launcher=tasks/train*", "launcher=a/", "launcher=*",
		"launcher=t;console=fairseq-train,x*;python=q", "module=m",
		"entry=*.py", "", NULL
	};
	struct launch_filter f, all;
	char text[FILTER_TEXT_MAX];
	int bad = 0;

	for (size_t i = 0; tables[i] != NULL; i++)
		bad += !filter_round_trip(tables[i]);
	is_int(bad, 0, "a written filter reads back as it was built");
	filter_build(&f, "launcher=torchrun");
	filter_write(&f, text);
	is_str(text, "filter=p7b", "one pair bit: 'pXX' ('t' * 31 + 'o', mod 256)");
	filter_build(&f, "launcher=t*");
	filter_write(&f, text);
	is_str(text, "filter=f74", "a first byte: 'fXX'");
	filter_build(&f, "module=torch.distributed.run");
	filter_write(&f, text);
	is_str(text, "filter=", "no launcher, console or python: none");
	filter_build(&f, "launcher=*,torchrun");
	filter_write(&f, text);
	is_str(text, "filter=*,p7b", "all: '*' first, then the bits");
	memset(&all, 0xff, sizeof(all));
	all.all = 1;
	filter_write(&all, text);
	ok(strlen(text) < FILTER_TEXT_MAX, "the longest fits FILTER_TEXT_MAX");
	filter_build(&f, text);
	ok(same_filter(&f, &all), "... and reads back");

	filter_build(&f, "filter=;launcher=torchrun");
	ok(!filter_pass(&f, "/usr/bin/torchrun"),
	    "the shim takes a written filter as it is, without the items");
	filter_build(&f, "filter=p1;launcher=torchrun");
	ok(filter_pass(&f, "/usr/bin/torchrun"),
	    "one it cannot read: built from the items");
	filter_build(&f, "filter=p1g,*;launcher=torchrun");
	ok(filter_pass(&f, "torchrun") && !filter_pass(&f, "/bin/true"),
	    "... a bad digit too, before a '*'");
	filter_build(&f, "filter=x01;launcher=torchrun");
	ok(filter_pass(&f, "torchrun"), "... an unknown kind of item");
	filter_build(&f, "launcher=torchrun;filter=;python=python");
	ok(filter_pass(&f, "torchrun") && filter_pass(&f, "python"),
	    "a filter segment counts only first");
}

/* Random tables and names over a small alphabet: no name is dropped. */
static void
filter_random(void)
{
	static const char alphabet[] = "ab/*.";
	unsigned long seed = 12345;
	char t[64], names[40][8];
	const char *list[41];
	int misses = 0, bad = 0;

	matched = 0;
	for (int round = 0; round < 2000; round++) {
		size_t n = 0;

		n += (size_t)snprintf(t, sizeof(t), "%s=",
		    round % 2 ? MATCH_KEY_LAUNCHER : MATCH_KEY_PYTHON);
		for (int item = 0; item < 3; item++) {
			for (int k = 0; k < 4; k++) {
				seed = seed * 6364136223846793005UL + 1;
				if ((seed >> 60) < 12)
					t[n++] = alphabet[(seed >> 33) % 5];
			}
			t[n++] = ',';
		}
		t[n - 1] = '\0';
		for (int j = 0; j < 40; j++) {
			size_t len = 0;

			for (int k = 0; k < 6; k++) {
				seed = seed * 6364136223846793005UL + 1;
				if ((seed >> 61) < 6)
					names[j][len++] = "ab/."[(seed >> 33) % 4];
			}
			names[j][len] = '\0';
			list[j] = names[j];
		}
		list[40] = NULL;
		misses += filter_misses(t, list);
		bad += !filter_round_trip(t);
	}
	is_int(misses, 0, "2000 random tables: the filter drops no name "
	    "they match");
	is_int(bad, 0, "... and each written filter reads back the same");
	ok(matched > 2000, "and they matched %d names", matched);
}

/*
 * The shim's constructor copies the session variables 16 bytes at a time
 * (words.h): every length, ending at every distance from a page that
 * cannot be read, into every room around it.
 */
static void
copy_strings(void)
{
	char *m = mmap(NULL, 8192, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), *s, dst[256];
	size_t len, end, room, got, want;
	int bad = 0, cases = 0;

	if (m == MAP_FAILED || mprotect(m + 4096, 4096, PROT_NONE) == -1) {
		ok(0, "two pages, the second unreadable");
		return;
	}
	for (len = 0; len < 100; len++)
		for (end = 0; end < 24; end++) {
			s = m + 4095 - end - len;	/* its NUL at 4095 - end */
			for (size_t i = 0; i < len; i++)
				s[i] = (char)('a' + (len + i) % 26);
			s[len] = '\0';
			for (room = 0; room < len + 20; room++) {
				memset(dst, 'x', sizeof(dst));
				got = word_copy_str(dst, s, room);
				want = len + 1 <= room ? len + 1 : 0;
				cases++;
				if (got != want || dst[room] != 'x' ||
				    (want != 0 && memcmp(dst, s, want) != 0))
					bad++;
			}
		}
	is_int(bad, 0, "word_copy_str: %d copies by every length, page "
	    "end and room", cases);
	munmap(m, 8192);
}

int
main(void)
{
	launchers();
	python();
	entries();
	filter();
	filter_written();
	filter_random();
	copy_strings();
	return done_testing();
}
