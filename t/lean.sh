# t/lean.sh: sourced (bash) by the tests that start the most processes,
# after sim/testlib.sh or t/lib.sh's sim_env.  `lean DIR` makes what they
# start over and over cheaper without changing what runs (DIR: the
# test's temporary directory):
#
# - python3 and python on PATH start the interpreter itself, through
#   links in DIR/lean: Debian's where there is one (t/lib.sh's $PY), else
#   the one python3 finds.  Where python3 is a version manager's shim
#   (pyenv's is a bash script that runs a dozen programs before the
#   interpreter), each start costs several times the interpreter's own,
#   and these tests start hundreds: every simulated launcher
#   (#!/usr/bin/env python3), `python -m torch.distributed.launch`, each
#   helper.  The workers start as their launcher's sys.executable.
# - sleep in the test's own shell (wait_for's pause between two looks) is
#   a read that times out on a FIFO nobody writes, not a process: waiting
#   a few seconds for a job took a fork and an exec 50 times a second,
#   more CPU than the job.  The test's children keep the real sleep.
lean() {
	local py=/usr/bin/python3 dir=$1/lean

	[ -x "$py" ] || py=$(python3 -c 'import sys; print(sys.executable)') ||
	    return 1
	mkdir -p "$dir" && ln -sf "$py" "$dir/python3" &&
	    ln -sf "$py" "$dir/python" && mkfifo "$dir/nap" || return 1
	PATH=$dir:$PATH
	_lean_nap=$dir/nap
}
# sleep SECONDS: as sleep(1), for a plain number of seconds.
sleep() {
	if [ $# -eq 1 ] && [ -n "${_lean_nap-}" ] && [[ $1 =~ ^[0-9]*\.?[0-9]+$ ]]; then
		read -rt "$1" _ <> "$_lean_nap" || :
	else
		command sleep "$@"
	fi
}
