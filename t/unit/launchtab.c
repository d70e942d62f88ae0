/*
 * Unit tests of the launch table (common/launchtab.c): the string the shim
 * reads, in the order and syntax of shim/contract.h; every error names the
 * file and line; a table without a launcher is refused.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "common/launchtab.h"

static char path[] = "/tmp/msprof-launchtab.XXXXXX";
/* The engines entries may name: the table knows none of its own. */
static const char *const engines[] = { "llm-mcore", "mm-fsdp2", NULL };

/* Load TEXT as the table; the message, or NULL when it loads. */
static char *
load(struct launchtab *t, const char *text)
{
	FILE *f = fopen(path, "w");
	char *why = NULL;

	fputs(text, f);
	fclose(f);
	if (launchtab_load(t, path, engines, &why) == 0)
		return NULL;
	return why;
}

/* The message for TEXT (LEN bytes, NULs and all) with PATH as "TABLE". */
static char *
error_of_n(const char *text, size_t len)
{
	struct launchtab t;
	static char out[512];
	FILE *f = fopen(path, "w");
	char *why = NULL, *at;

	fwrite(text, 1, len, f);
	fclose(f);
	if (launchtab_load(&t, path, engines, &why) == 0) {
		launchtab_free(&t);
		return (char *)"(loaded)";
	}
	at = strstr(why, path);
	snprintf(out, sizeof(out), "%.*sTABLE%s", at ? (int)(at - why) : 0,
	    why, at ? at + strlen(path) : why);
	free(why);
	return out;
}

/* The message for TEXT with PATH written as "TABLE". */
static char *
error_of(const char *text)
{
	struct launchtab t;
	static char out[512];
	char *why = load(&t, text), *at;

	if (why == NULL) {
		launchtab_free(&t);
		return (char *)"(loaded)";
	}
	at = strstr(why, path);
	snprintf(out, sizeof(out), "%.*sTABLE%s", at ? (int)(at - why) : 0,
	    why, at ? at + strlen(path) : why);
	free(why);
	return out;
}

int
main(void)
{
	struct launchtab t;
	int fd = mkstemp(path);
	char *s;

	close(fd);
	ok(load(&t, "options tr -h --standalone\n"
	    "launcher torchrun tr  # a comment\n"
	    "\n"
	    "launcher msrun tr\n"
	    "module torch.distributed.run tr\n"
	    "python python python3.*\n"
	    "entry pretrain_gpt.py llm-mcore\n"
	    "entry mm/train.py mm-fsdp2\n") == NULL, "a table loads");
	is_str(t.match, "launcher=torchrun,msrun;python=python,python3.*;"
	    "module=torch.distributed.run;entry=pretrain_gpt.py,mm/train.py",
	    "the shim's string: keys in order, items in order");
	is_str(launchtab_entry_engine(&t, "/x/pretrain_gpt.py"), "llm-mcore",
	    "an entry's engine");
	ok(launchtab_entry_engine(&t, "/x/train.py") == NULL,
	    "a script no entry matches has none");
	is_int(launchtab_set(&t, "tr")->flags.n, 2, "an option set's flags");
	launchtab_free(&t);
	ok(load(&t, "options a -m\nlauncher accelerate a launch\n"
	    "launcher deepspeed a\npython python3\nentry pretrain_gpt.py "
	    "llm-mcore\nentry *.py auto\n") == NULL,
	    "a launcher with a subcommand, and an auto entry, load");
	is_str(t.launcher_subs.v[0], "launch", "the subcommand");
	is_str(t.launcher_subs.v[1], "", "none for the next launcher");
	is_str(launchtab_entry_engine(&t, "tools/train.py"), "auto",
	    "*.py matches any script's name: auto");
	is_str(launchtab_entry_engine(&t, "pretrain_gpt.py"), "llm-mcore",
	    "the first entry a script matches counts");
	ok(launchtab_entry_engine(&t, "train.sh") == NULL, "*.py is no .sh");
	is_str(t.match, "launcher=accelerate,deepspeed;python=python3;"
	    "entry=pretrain_gpt.py,*.py", "the whole table, auto entries too");
	s = launchtab_shim_match(&t, 0);
	is_str(s, "launcher=accelerate,deepspeed;python=python3;"
	    "entry=pretrain_gpt.py", "the shim's string without them");
	free(s);
	launchtab_free(&t);
	ok(load(&t, "options a\nlauncher x a\nentry *.py auto\n") == NULL,
	    "a table whose only entry is auto");
	s = launchtab_shim_match(&t, 0);
	is_str(s, "launcher=x", "without it, no entry key at all");
	free(s);
	launchtab_free(&t);
	ok(load(&t, "options m\nmodule torch.distributed.run m\n") == NULL,
	    "a module alone loads");
	is_str(t.match, "module=torch.distributed.run", "no ';' before the first key");
	launchtab_free(&t);

	is_str(error_of("options t\nlauncher a/b t\n"), "TABLE:2: 'a/b' is not "
	    "a program or module name; write it without ',', ';', '=' or '/'",
	    "a bad launcher name: file and line");
	is_str(error_of("launcher torchrun nope\n"), "TABLE:1: unknown option "
	    "set 'nope'; declare it first with 'options nope FLAG...'",
	    "an undeclared option set");
	is_str(error_of("#\n\npython py;x\n"), "TABLE:3: 'py;x' is not an "
	    "interpreter name; write it without ',', ';', '=' or '/'",
	    "a bad interpreter, after a comment and a blank line");
	is_str(error_of("entry a=b.py llm-mcore\n"), "TABLE:1: 'a=b.py' is not "
	    "a script path; write it without ',', ';' or '='",
	    "a bad entry path");
	is_str(error_of("entry x.py no-such\n"), "TABLE:1: unknown engine "
	    "'no-such'; accepted: llm-mcore, mm-fsdp2, auto",
	    "an unknown engine, with the accepted ones");
	is_str(error_of("options t\nlauncher x\n"), "TABLE:2: cannot read "
	    "'launcher' with 2 word(s); expected 'options SET FLAG...', "
	    "'launcher NAME SET [SUBCOMMAND]', 'module NAME SET', 'python "
	    "NAME...', 'entry PATH ENGINE', 'entry-module NAME ENGINE' or "
	    "'console NAME...'",
	    "a line of the wrong shape");
	is_str(error_of("entry-module a/b auto\n"), "TABLE:1: 'a/b' is not a "
	    "module name; write it without ',', ';', '=' or '/'",
	    "a bad entry module name");
	is_str(error_of("entry-module x no-such\n"), "TABLE:1: unknown engine "
	    "'no-such'; accepted: llm-mcore, mm-fsdp2, auto",
	    "an entry module's unknown engine");

	ok(load(&t, "options m\nmodule torch.distributed.run m\n"
	    "entry *.py auto\nentry-module espnet2.bin.* mm-fsdp2\n"
	    "entry-module * auto\n") == NULL, "entry modules load");
	is_str(t.match, "module=torch.distributed.run;entry=*.py;"
	    "entry-module=espnet2.bin.*,*", "entry modules: their own key, last");
	is_str(launchtab_module_engine(&t, "espnet2.bin.asr_train"), "mm-fsdp2",
	    "the first entry module row a module matches gives its engine");
	is_str(launchtab_module_engine(&t, "training.main"), "auto",
	    "... '*' any other");
	s = launchtab_shim_match(&t, 0);
	is_str(s, "module=torch.distributed.run;entry-module=espnet2.bin.*",
	    "without autos, the shim sees no auto entry module");
	free(s);
	launchtab_free(&t);

	ok(load(&t, "options m\nmodule torch.distributed.run m\n"
	    "console fairseq-train x-train\n") == NULL, "console rows load");
	is_str(t.match, "module=torch.distributed.run;"
	    "console=fairseq-train,x-train", "console scripts: their own key");
	s = launchtab_shim_match(&t, 0);
	is_str(s, "module=torch.distributed.run",
	    "without autos, no console script (they are read as auto entries)");
	free(s);
	launchtab_free(&t);
	is_str(error_of("console bin/x\n"), "TABLE:1: 'bin/x' is not a program "
	    "name; write it without ',', ';', '=' or '/'", "a bad console name");
	is_str(error_of("python python\n"), "TABLE: no 'launcher' or 'module' "
	    "line; msprof-exec would intercept nothing", "no launcher");

	/* bytes no table holds: each named with its line, never cut */
	is_str(error_of_n("options m\nlauncher torchrun m\0 # x\n", 35),
	    "TABLE:2: a NUL byte in the line (at byte 20): the table is text",
	    "a NUL inside a line: named, not the line cut there");
	is_str(error_of("options m\r\nlauncher torchrun m\r\n"),
	    "TABLE:1: a carriage return in the line (CRLF line ends?): save "
	    "the table with LF line ends", "CRLF line ends: named");
	is_str(error_of("options m\nlauncher torch\033[2Jrun m\n"),
	    "TABLE:2: control byte 0x1b in the line (at byte 15): the table "
	    "is text", "an escape byte: named by its value, not echoed");
	is_str(error_of("options m\n\tlauncher\ttorchrun\tm\n"), "(loaded)",
	    "tabs are blanks");
	/* the same row again is kept once; another is an error */
	ok(load(&t, "options m -h\nlauncher torchrun m\noptions m -h\n"
	    "launcher torchrun m\nentry a.py llm-mcore\n"
	    "entry a.py llm-mcore\n") == NULL, "rows repeated alike load");
	is_str(t.match, "launcher=torchrun;entry=a.py",
	    "... each kept once");
	launchtab_free(&t);
	is_str(error_of("options m -h\noptions m -v\nlauncher torchrun m\n"),
	    "TABLE:2: option set 'm' declared again with other options; an "
	    "earlier line declares it: keep one", "an option set declared twice");
	is_str(error_of("options m\noptions n\nlauncher torchrun m\n"
	    "launcher torchrun n\n"), "TABLE:4: 'launcher torchrun' again, "
	    "other than on an earlier line; keep one",
	    "a launcher with two option sets");
	is_str(error_of("options m\nlauncher accelerate m launch\n"
	    "launcher accelerate m\n"), "TABLE:3: 'launcher accelerate' again, "
	    "other than on an earlier line; keep one",
	    "a launcher with and without its subcommand");
	is_str(error_of("options m\nmodule torch.distributed.run m\n"
	    "options n\nmodule torch.distributed.run n\n"),
	    "TABLE:4: 'module torch.distributed.run' again, other than on an "
	    "earlier line; keep one", "a module with two option sets");
	is_str(error_of("options m\nlauncher torchrun m\nentry a.py llm-mcore\n"
	    "entry a.py mm-fsdp2\n"), "TABLE:4: 'entry a.py' again, other "
	    "than on an earlier line; keep one", "an entry with two engines");
	is_str(error_of("options m\nlauncher torchrun m\nentry-module x auto\n"
	    "entry-module x mm-fsdp2\n"), "TABLE:4: 'entry-module x' again, "
	    "other than on an earlier line; keep one",
	    "an entry module with two engines");
	unlink(path);
	return done_testing();
}
