# Sourced by a test after t/lib.sh (bash): from here on `python3` and
# `python` on PATH are $PY, the system's CPython, whatever comes first on
# the caller's PATH.  A version manager's shim there (pyenv's is a bash
# script that runs a dozen more before the interpreter) costs more CPU
# than the Python it starts, for each launcher, entry and worker a test
# runs, and is no part of what the tests look at.
mkdir -p "$T/plain-python"
ln -sf "$PY" "$T/plain-python/python3"
ln -sf "$PY" "$T/plain-python/python"
PATH=$T/plain-python:$PATH

# own_pycache: the Python processes of the test keep the modules they
# compile in a tree of the test's own, and read them from there: the
# simulation's stand-ins (torch, torch_npu, the launchers) are compiled
# once, not by every process, even when the caller forbids writing them
# (PYTHONDONTWRITEBYTECODE); nothing is written into the repository.  Not
# for a test of the real torch: Python would then compile all of it
# again, once, instead of reading what Debian ships compiled.
own_pycache() {
	unset PYTHONDONTWRITEBYTECODE
	export PYTHONPYCACHEPREFIX=$T/pycache
}

# torch_installed: Debian's torchrun and torch (python3-torch) are there.
# Looked up, not imported: an import of torch costs about a second of CPU,
# and the test's own runs import it soon enough.
torch_installed() {
	[ -x /usr/bin/torchrun ] && /usr/bin/python3 -c 'import importlib.util as u, sys
sys.exit(u.find_spec("torch") is None)' 2> /dev/null
}
