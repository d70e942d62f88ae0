/* Unit tests of the launch matcher (shim/match.c). */
#include "tap.h"
#include "shim/match.h"

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
	is_int(table_find(NULL, "entry", "x"), -1, "no table");
	is_int(table_find("", "entry", "x"), -1, "empty table");
	is_int(table_find("launcher=;entry=", "entry", ""), -1, "empty items");
	is_str(path_base("/a/b/c"), "c", "path_base");
	is_str(path_base("c"), "c", "path_base without a slash");
}

int
main(void)
{
	launchers();
	python();
	entries();
	return done_testing();
}
