/*
 * Unit tests of the errors a failed training's log gives
 * (report/logerrors.c): CANN's code, the Python error and torchrun's root
 * cause, each where the log has it, said once for all the ranks, in a log
 * where the ranks' lines are mixed.
 */
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "report/logerrors.h"

/* Two ranks failing at once on a machine of 8 NPUs, their lines mixed. */
static const char mixed[] =
    "[INFO] TRAINING_BACKEND=mindspeed_fsdp, world size 16\n"	/* 1 */
    "Traceback (most recent call last):\n"
    "Traceback (most recent call last):\n"
    "  File \"/w/train_fsdp2.py\", line 14, in <module>\n"
    "    sys.exit(main())\n"					/* 5 */
    "             ^^^^^^\n"
    "RuntimeError: SetDevice failed: error code is 107001\n"
    "[ERROR] EE1001: Invalid device ID. The device ID 14 is out of "
    "range [0, 8).\n"
    "        Check whether the device ID is valid.\n"
    "  File \"/w/train_fsdp2.py\", line 14, in <module>\n"	/* 10 */
    "RuntimeError: SetDevice failed: error code is 107001\n"
    "[ERROR] EE1001: Invalid device ID. The device ID 15 is out of "
    "range [0, 8).\n"
    "Traceback (most recent call last):\n"
    "  File \"/usr/bin/torchrun\", line 8, in <module>\n"
    "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: \n"
    "============================================================\n"
    "train_fsdp2.py FAILED\n"
    "------------------------------------------------------------\n"
    "Root Cause (first observed failure):\n"			/* 19 */
    "[14]:\n"
    "  time      : 2026-12-08_00:29:54\n"
    "  host      : node0\n"
    "  rank      : 14 (local_rank: 14)\n"
    "  exitcode  : 1 (pid: 14338)\n"
    "  error_file: /tmp/torchelastic_x/error.json\n"
    "  traceback : To enable traceback see: https://pytorch.org\n"
    "============================================================\n";

static void
check_mixed(void)
{
	struct log_errors e;

	log_errors_find(mixed, &e);
	is_int(e.n, 3, "three errors: CANN's, Python's, torchrun's");
	if (e.n != 3)
		return;
	is_str(e.v[0].kind, LOG_ERROR_CANN, "CANN's code first");
	is_str(e.v[0].text, "EE1001: Invalid device ID. The device ID 14 is "
	    "out of range [0, 8).", "... its words, without the level");
	is_int(e.v[0].line, 8, "... on its line");
	is_int(e.v[0].more, 1, "... and one more rank with it");
	is_str(e.v[1].kind, LOG_ERROR_PYTHON, "then the Python error");
	is_str(e.v[1].text, "RuntimeError: SetDevice failed: error code is "
	    "107001", "... the traceback's last line, past the other rank's "
	    "header and frames");
	is_int(e.v[1].line, 7, "... on its line");
	is_int(e.v[1].more, 1, "... once more in another traceback");
	is_str(e.v[2].kind, LOG_ERROR_CHILD, "then torchrun's root cause");
	is_str(e.v[2].text, "ChildFailedError: rank 14 (local_rank: 14) "
	    "failed first, exitcode 1 (pid: 14338), error_file "
	    "/tmp/torchelastic_x/error.json", "... rank, exit code, error file");
	is_int(e.v[2].line, 19, "... where the block starts");
	log_errors_free(&e);
}

int
main(void)
{
	struct log_errors e;

	check_mixed();

	/* "Inner Error!" says nothing: the code's next line does */
	log_errors_find("EZ9999: Inner Error!\nEZ9999: [PID: 2950] The error "
	    "from device(chipId:0), serial number is 3\n", &e);
	ok(e.n == 1 && strcmp(e.v[0].text, "EZ9999: [PID: 2950] The error "
	    "from device(chipId:0), serial number is 3") == 0 &&
	    e.v[0].line == 2 && e.v[0].more == 0,
	    "EZ9999: the line that explains 'Inner Error!'");
	log_errors_free(&e);

	/* a worker's prefix, and names that only look like codes */
	log_errors_find("[default3]:E39999: Inner Error!\n[default3]:E39999: "
	    "aicpu exception\nEE10011: no\nEX1001 no\nTE1001: no\n", &e);
	ok(e.n == 1 && strcmp(e.v[0].text, "E39999: aicpu exception") == 0,
	    "a worker's prefix taken off; no code but E + letter/digit + 4 "
	    "digits + ':'");
	log_errors_free(&e);

	log_errors_find("Traceback (most recent call last):\n  File \"t.py\", "
	    "line 3\n    open(p)\nFileNotFoundError: [Errno 2] No such file or "
	    "directory: '/home/data/x'\n", &e);
	ok(e.n == 1 && strcmp(e.v[0].kind, LOG_ERROR_PYTHON) == 0 &&
	    e.v[0].line == 4 && strstr(e.v[0].text, "/home/data/x") != NULL,
	    "FileNotFoundError: the path the training looked for, line 4");
	log_errors_free(&e);

	log_errors_find("Traceback (most recent call last):\n  File \"/usr/bin/"
	    "torchrun\"\ntorch.distributed.elastic.multiprocessing.errors."
	    "ChildFailedError: \n", &e);
	is_int(e.n, 0, "torchrun's own traceback is no error of the training");
	log_errors_free(&e);

	log_errors_find("usage: pretrain_gpt.py [-h] [--seq-length N]\n"
	    "                      [--lr LR]\n[default0]:pretrain_gpt.py: error: "
	    "unrecognized arguments: --frob\n", &e);
	ok(e.n == 1 && strcmp(e.v[0].text, "pretrain_gpt.py: error: "
	    "unrecognized arguments: --frob") == 0 && e.v[0].line == 3,
	    "argparse's refusal after its usage, a worker's prefix taken off");
	log_errors_free(&e);
	log_errors_find("train.py: error: no usage before\n", &e);
	is_int(e.n, 0, "': error: ' without argparse's usage: none");

	/* another rank's logger line is no exception */
	log_errors_find("Traceback (most recent call last):\n"
	    "INFO: rank 3 ready\n  File \"t.py\", line 3\n"
	    "KeyboardInterrupt\n", &e);
	ok(e.n == 1 && strcmp(e.v[0].text, "KeyboardInterrupt") == 0 &&
	    e.v[0].line == 4, "a logger's 'INFO:' is passed over, "
	    "KeyboardInterrupt taken");
	log_errors_free(&e);

	log_errors_find("iteration 1/ 10\niteration 2/ 10\n", &e);
	is_int(e.n, 0, "a log without errors: none");
	log_errors_find(NULL, &e);
	is_int(e.n, 0, "no log: none");
	return done_testing();
}
