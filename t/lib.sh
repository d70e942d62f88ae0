# Shared shell helpers for the TAP tests under t/ (sourced, bash).
#
# Each test: . "$(dirname "$0")/lib.sh"; ... ok/is/like ...; done_testing
# (the plan is printed at the end).
# A test runs in its own temporary directory ($T), removed at exit.

set -u
# wait_for, gate, release, free_port, sim_checkouts, ...; first, as it may
# start the test again.
. "${BASH_SOURCE[0]%/*}/steady.sh"
TOP=$STEADY_TOP
B=$TOP/build
MSPROF=$B/bin/msprof-exec
# The shim msprof-exec preloads on this machine (without libdl.so.2 on
# glibc 2.34 and later), and the build for any glibc from 2.17.
SHIM_ANY=$B/lib/msprof-exec/msprof-exec-shim.so
SHIM=$("$B/bin/msprof-exec" --version 2>/dev/null)
if [[ $SHIM =~ (^|$'\n')shim:\ ([^$'\n']*) ]]; then SHIM=${BASH_REMATCH[2]}
else SHIM=$SHIM_ANY; fi
INJECTOR=$B/lib/msprof-exec/msprof-exec-inject
HELPERS=$B/t/helpers
# Debian's python first: a pyenv shim on PATH is itself a bash script.
PY=/usr/bin/python3
[ -x "$PY" ] || PY=$(command -v python3)
# ptyrun [OPTION]... -- COMMAND...: COMMAND on a pseudo-terminal (t/ptyrun.py)
ptyrun() { "$PY" "$TOP/t/ptyrun.py" "$@"; }
# pyrun ARG... < SCRIPT: Python with the waiting helpers of t/ptyrun.py at
# hand (LIMIT, wait_until, gone, release, as_from_a_shell); ARG... are
# sys.argv[1:].
PYRUN=("$PY" -c 'import os, sys; sys.path.insert(0, sys.argv.pop(1))
from ptyrun import LIMIT, as_from_a_shell, gone, release, wait_until
exec(sys.stdin.read())' "$TOP/t")
pyrun() { "${PYRUN[@]}" "$@"; }
# pyq [-i] -c CODE [ARG...] | pyq - [ARG...] < CODE: what $PY -c CODE ARG...
# (or $PY - ARG...) prints, and its status, from one Python process kept
# for the whole test (t/pyserve.py), which pyq_start starts: a snippet that
# reads a figure then costs milliseconds, not a Python start.  It runs in
# the caller's directory and environment; with -i it reads the caller's
# stdin, else it has an empty one.  For snippets only (no fork, no
# os._exit, no signal handlers; text out, NUL bytes are dropped), one at a
# time: from the test's shell and its subshells, not from jobs in the
# background side by side.  Without pyq_start it is $PY itself.
# (The process is not a job of the test's shell, whose wait would wait
# for it: it ends when it sees the shell gone.)
pyq_start() {
	PYQ=$T/.pyq
	mkdir "$PYQ" && mkfifo "$PYQ/in" "$PYQ/out" || return
	("$PY" "$TOP/t/pyserve.py" "$PYQ" $$ < /dev/null > /dev/null \
	    2> "$PYQ/err" &)
	PYQ_ON=1
}
pyq() {
	local name code data= st= no= ne= out= err= e env=() req
	if [ -z "${PYQ_ON:-}" ]; then
		"$PY" "$@"
		return
	fi
	[ "$1" = -i ] && { shift; IFS= read -r -d '' data || :; }
	name=$1
	shift
	if [ "$name" = -c ]; then
		code=$1
		shift
	else
		IFS= read -r -d '' code || :
	fi
	for e in $(compgen -e); do env+=("$e=${!e}"); done
	printf -v req '%d %d\n' $# ${#env[@]}
	for e in "$PWD" "$name" "$code" "$data" "${env[@]}" "$@"; do
		req+="${#e}"$'\n'"$e"
	done
	printf '%s' "$req" > "$PYQ/in"
	{
		IFS=' ' read -r st no ne
		[ "${no:-0}" -eq 0 ] || IFS= read -r -N "$no" out
		[ "${ne:-0}" -eq 0 ] || IFS= read -r -N "$ne" err
	} < "$PYQ/out"
	printf '%s' "$out"
	[ -z "$err" ] || printf '%s' "$err" >&2
	return "${st:-70}"
}
export LC_ALL=C
# Each test file has a directory of its own ($T), also its programs' TMPDIR:
# test files run side by side (make check runs several at once) share no
# path, and what a program leaves in its temporary directory goes with $T.
T=$(mktemp -d "${TMPDIR:-/tmp}/msprof-t.XXXXXX")
trap 'rm -rf "$T"' EXIT
cd "$T" || exit 1
# The recorders' directories (make_recorder) and TMPDIR, made at once.
REC=$T/rec
RBIN=$T/bin
mkdir -p "$REC" "$RBIN" "$T/tmp"
export TMPDIR=$T/tmp
# What runs python3 by name (#!/usr/bin/env python3: the simulation,
# sim/gen-cluster) runs $PY too where a version manager's shim comes first
# on PATH (pyenv's is a bash script that starts a dozen processes each
# time): $PY's own directory goes first then.  (Not a link to it: where
# the interpreter lives says msprof-exec where its packages are.)
[ "$(type -P python3)" = "$PY" ] || export PATH="${PY%/*}:$PATH"

_n=0
_failed=0
_planned=
plan() { _planned=$1; echo "1..$1"; }
skip_all() { echo "1..0 # SKIP $*"; exit 0; }
ok() {	# ok COND-STATUS NAME
	_n=$((_n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $_n - $2"
	else echo "not ok $_n - $2"; _failed=$((_failed + 1)); fi
}
pass() { ok 0 "$1"; }
fail() { ok 1 "$1"; }
skip() { _n=$((_n + 1)); echo "ok $_n # skip $*"; }
diag() { printf '%s\n' "$@" | sed 's/^/# /' >&2; }
is() {	# is GOT WANT NAME
	if [ "$1" = "$2" ]; then pass "$3"
	else fail "$3"; diag "got:  '$1'" "want: '$2'"; fi
}
like() {	# like TEXT ERE NAME
	if matches "$1" "$2"; then pass "$3"
	else fail "$3"; diag "text: '$1'" "does not match: '$2'"; fi
}
unlike() {	# unlike TEXT ERE NAME
	if matches "$1" "$2"; then fail "$3"; diag "text: '$1'" "matches: '$2'"
	else pass "$3"; fi
}
# matches TEXT ERE: does a line of TEXT match ERE (printf '%s' TEXT |
# grep -Eq ERE)?  The same answer with fewer processes: a text without a
# line matches nothing, an ERE without a special character is a string
# (no line break in it) that the shell finds, and the rest goes to grep
# without a pipe.
matches() {
	case $1 in
	'') return 1 ;;
	*$'\n') printf '%s' "$1" | grep -Eq -- "$2"; return ;;
	esac
	if [ -z "$2" ] || [[ $2 =~ $_ere_special || $2 == *$'\n'* ]]; then
		grep -Eq -- "$2" <<< "$1"
	else
		[[ $1 == *"$2"* ]]
	fi
}
_ere_special='[].[()*+?{}|^$\]'	# ("[." would open a collating element)
# slurp VAR FILE: VAR=$(cat FILE) without a process (trailing line breaks
# dropped, as there).
slurp() {
	local _s=
	IFS= read -r -d '' _s < "$2"
	_s=${_s%"${_s##*[!$'\n']}"}
	printf -v "$1" '%s' "$_s"
}
# Prints the plan at the end when none was given first.
done_testing() {
	[ -n "$_planned" ] || echo "1..$_n"
	[ "$_failed" -eq 0 ]
	exit $?
}

# A recorder that stands in for a launcher: it writes its argv (one
# argument a line) and its environment to $REC/<name>.<pid>.argv|env.
# make_recorder NAME [EXIT]
make_recorder() {
	cat > "$RBIN/$1" <<EOS
#!/bin/sh
for a in "\$0" "\$@"; do printf '%s\n' "\$a"; done > "$REC/$1.\$\$.argv"
env > "$REC/$1.\$\$.env"
exit ${2:-0}
EOS
	chmod +x "$RBIN/$1"
}
# Python module stand-ins for python -m torch.distributed.run|launch.
PYREC=$T/pyrec
make_py_recorder() {
	mkdir -p "$PYREC/torch/distributed"
	: > "$PYREC/torch/__init__.py"
	: > "$PYREC/torch/distributed/__init__.py"
	for m in run launch; do
		cat > "$PYREC/torch/distributed/$m.py" <<EOS
import os, sys
p = "$REC/$m.%d" % os.getpid()
open(p + ".argv", "w").write("\n".join(["$m"] + sys.argv[1:]) + "\n")
open(p + ".env", "w").write("".join("%s=%s\n" % kv for kv in os.environ.items()))
EOS
	done
}
# The argv files recorded so far (sorted), and their count.  (These
# helpers and the ones below are shell builtins only: tests call them
# hundreds of times, and a process costs more than what they do.)
recorded() {
	local f
	for f in "$REC"/*.argv; do [ -e "$f" ] && printf '%s\n' "$f"; done
	return 0
}
nrecorded() {
	local f n=0
	for f in "$REC"/*.argv; do [ -e "$f" ] && n=$((n + 1)); done
	echo "$n"
}
# The single recorded argv (the first one), joined with spaces.
rec_argv() {
	local f a=
	for f in "$REC"/*.argv; do
		[ -e "$f" ] || return 0
		IFS= read -r -d '' a < "$f"
		a=${a//$'\n'/ }
		printf '%s' "${a% }"
		return 0
	done
}
rec_env() { local e=; IFS= read -r -d '' e < "${1%.argv}.env"; printf '%s' "$e"; }

# sort_lines VAR TEXT...: VAR is the lines of the TEXTs (each without a
# trailing newline), sorted as sort(1) sorts them in the C locale, one a
# line.  No process: for the short lists tests compare.  (Its own names
# are long: VAR is set by reference.)
sort_lines() {
	local -n _sort_lines_out=$1
	local _sort_lines_t _sort_lines_l _sort_lines_s=() _sort_lines_i
	shift
	for _sort_lines_t in "$@"; do
		while IFS= read -r _sort_lines_l; do
			for ((_sort_lines_i = ${#_sort_lines_s[@]}; _sort_lines_i > 0;
			    _sort_lines_i--)); do
				[[ ${_sort_lines_s[_sort_lines_i - 1]} > $_sort_lines_l ]] ||
				    break
				_sort_lines_s[_sort_lines_i]=${_sort_lines_s[_sort_lines_i - 1]}
			done
			_sort_lines_s[_sort_lines_i]=$_sort_lines_l
		done <<< "$_sort_lines_t"
	done
	printf -v _sort_lines_out '%s\n' "${_sort_lines_s[@]}"
	_sort_lines_out=${_sort_lines_out%$'\n'}
}

# zh_locale: a zh_CN.UTF-8 locale of the tests' own (Debian ships only
# C.UTF-8): sets ZH_LOCPATH, the LOCPATH that has it; returns 1 when none
# can be made (no localedef, package locales).  localedef takes seconds of
# CPU, so the locale is compiled once for this glibc and its locale sources
# and kept in the build directory, renamed into place whole (test runs side
# by side may both compile it); where that cannot be written, in $T.
zh_locale() {
	local key dir
	key=$(getconf GNU_LIBC_VERSION 2> /dev/null; stat -c %Y \
	    /usr/share/i18n/locales/zh_CN /usr/share/i18n/charmaps/UTF-8* \
	    2> /dev/null)
	ZH_LOCPATH=$B/t/locale/${key//[^A-Za-z0-9.]/-}
	zh_locale_in "$ZH_LOCPATH" && return 0
	command -v localedef > /dev/null || return 1
	dir=$T/locale.$BASHPID
	mkdir -p "$dir"
	localedef -i zh_CN -f UTF-8 "$dir/zh_CN.UTF-8" > "$T/localedef.out" 2>&1
	zh_locale_in "$dir" || return 1
	mkdir -p "$B/t/locale" 2> /dev/null &&
	    mv -T "$dir" "$ZH_LOCPATH" 2> /dev/null
	zh_locale_in "$ZH_LOCPATH" || ZH_LOCPATH=$dir
}
zh_locale_in() {
	[ "$(LOCPATH=$1 LC_ALL=zh_CN.UTF-8 locale charmap 2> /dev/null)" = UTF-8 ]
}

# The flags msprof-exec appends with its defaults.
DEFAULT_FLAGS="--profile --profile-step-start 2 --profile-step-end 4 --profile-ranks 0 --profile-level level1 --profile-with-cpu --profile-save-path ./profiling_output"

# The environment the shim runs in without going through msprof-exec:
# an active session whose launch table is config/launchers.conf.
shim_session() {
	[ -d "$T/session" ] || mkdir -p "$T/session"
	export MSPROF_EXEC_SHIM=$SHIM MSPROF_EXEC_INJECTOR=$INJECTOR \
	    MSPROF_EXEC_SESSION=$T/session \
	    MSPROF_EXEC_MATCH='launcher=torchrun,msrun;python=python,python3,python3.*;module=torch.distributed.run,torch.distributed.launch;entry=pretrain_gpt.py,posttrain_gpt.py'
}

# other_preloads: two real preloads besides the shim, with constructors
# that do nothing: $OTHER and $OTHER2.
other_preloads() {
	for o in other other2; do
		cc -shared -fPIC -o "$T/$o.so" -x c - <<C
static void nothing(void) __attribute__((constructor));
static void nothing(void) { }
int msprof_test_$o;
C
	done
	OTHER=$T/other.so
	OTHER2=$T/other2.so
}

# Run msprof-exec without the NPU preflight (t/03*-preflight tests run it);
# sets $out, $err and $rc.
msprof() {
	"$MSPROF" --skip-checks "$@" > "$T/.out" 2> "$T/.err"
	rc=$?
	slurp out "$T/.out"
	slurp err "$T/.err"
}
# The journal of the (single) session under DIR (default ./profiling_output).
journal() {
	local f j
	for f in "${1:-profiling_output}"/msprof-exec_*/journal.jsonl; do
		[ -f "$f" ] || continue
		j=
		IFS= read -r -d '' j < "$f"
		printf '%s' "$j"
	done 2> /dev/null
}
# Count journal records with "status":"$1" (in DIR $2).
njournal() {
	local line n=0 text

	case $1 in *[][.*^$\\]*)	# a regular expression: grep's answer
		journal "${2:-}" | grep -c "\"status\":\"$1\""; return ;;
	esac
	text=$(journal "${2:-}")
	[ -n "$text" ] || { echo 0; return; }
	while IFS= read -r line; do
		[[ $line == *"\"status\":\"$1\""* ]] && n=$((n + 1))
	done <<< "$text"
	echo "$n"
}
# Forget what earlier runs recorded.
reset_run() { rm -rf "$REC"/* profiling_output; }
# has_line TEXT LINE NAME: TEXT has LINE as a whole line.
has_line() {
	if [[ $2 != *$'\n'* && $'\n'$1$'\n' == *$'\n'"$2"$'\n'* ]] ||
	    { [[ $2 == *$'\n'* ]] && printf '%s\n' "$1" | grep -Fxq -- "$2"; }
	then pass "$3"
	else fail "$3"; diag "no line '$2' in:" "$1"; fi
}

# The simulated Ascend machine (sim/): the checkouts linked into $T, its
# launchers and torch_npu on the paths, a port of this test's own.
sim_env() {
	sim_checkouts "$T"
	export MSPROF_SIM_TORCH=stub SIM_ROOT=$TOP/sim
	# a PyTorch training's first step takes no extra device time here
	export MSPROF_SIM_FIRST_STEP_MS=0
	. "$TOP/sim/activate"
	export MASTER_PORT PET_MASTER_PORT
	MASTER_PORT=$(free_port)
	# also torchrun's default for a launch without --master_port (the
	# port every test's launch would otherwise take: 29500)
	PET_MASTER_PORT=$MASTER_PORT
	CANN_ENV=$TOP/sim/ascend/ascend-toolkit/set_env.sh
}
# Debian's torchrun and torch (python3-torch), if the machine has them.
# (Python finds the package without importing it: an import of torch
# costs seconds, and a torch that is there but broken fails the test.)
have_real_torch() {
	[ -x /usr/bin/torchrun ] && /usr/bin/python3 -c 'import importlib.util, sys
sys.exit(importlib.util.find_spec("torch") is None)' 2> /dev/null
}
# real_torch: from now on `torchrun` is Debian's, and the workers it starts
# import the real torch, not the simulation's stand-in (sim_env first).
# torch 1.13 needs --redirects 1 --tee 1 under Python 3.11: given as
# PET_REDIRECTS and PET_TEE, torchrun's own environment form of them, so
# that the scripts' command lines stay as they are.
real_torch() {
	mkdir -p "$T/realbin"
	ln -sf /usr/bin/torchrun "$T/realbin/torchrun"
	export PATH="$T/realbin:$PATH" PET_REDIRECTS=1 PET_TEE=1
	local p kept=() parts=()
	IFS=: read -ra parts <<< "$PYTHONPATH"
	for p in "${parts[@]}"; do
		[ "$p" = "$MSPROF_SIM_ROOT/python-torch" ] || kept+=("$p")
	done
	PYTHONPATH=$(IFS=:; printf '%s' "${kept[*]}")
	export PYTHONPATH
}
# The *_ascend_pt directories under DIR.
# armed_at_least TEXT PROCS N NAME: the report in TEXT says PROCS torch_npu
# processes and at least N armings.  How many armings a job takes beyond
# the one each late process needs depends on when torch_npu's processes
# and monitors write their logs (a loaded machine delays them past the
# arming's quiet time), so a count is a minimum, not a figure.
armed_at_least() {
	local n
	n=$(printf '%s\n' "$1" | sed -n "s/.* $2 torch_npu process(es), armed \([0-9]*\) time(s).*/\1/p" | head -n 1)
	ok "$([ -n "$n" ] && [ "$n" -ge "$3" ]; echo $?)" "$4"
	[ -n "$n" ] && [ "$n" -ge "$3" ] || diag "armings: '${n:-none}' for $2 process(es), want $3 or more"
}

ascend_dirs() {
	local d
	for d in "$1"/*_ascend_pt; do [ -e "$d" ] && printf '%s\n' "$d"; done
	return 0
}
# The ranks that wrote data under DIR, sorted, space-separated (a rank
# twice when two directories have it).
ranks_in() {
	local f n count=() out=()
	for f in "$1"/*_ascend_pt/profiler_info_*.json; do
		[ -e "$f" ] || continue
		n=${f##*/profiler_info_}
		n=${n%.json}
		[[ $n =~ ^(0|[1-9][0-9]{0,8})$ ]] || { _ranks_in_sort "$1"; return; }
		count[n]=$((${count[n]:-0} + 1))
	done
	for n in "${!count[@]}"; do
		for ((f = 0; f < count[n]; f++)); do out+=("$n"); done
	done
	printf '%s' "${out[*]}"
}
# ranks_in's way for names it does not expect.
_ranks_in_sort() {
	ls "$1"/*_ascend_pt/profiler_info_*.json 2>/dev/null |
	    sed 's/.*profiler_info_\([0-9]*\)\.json/\1/' | sort -n | tr '\n' ' ' |
	    sed 's/ $//'
}
# The Step ids of step_trace_time.csv files, by the column's name (real
# torch_npu has no Device_id before it; master's has), space-separated.
csv_steps() {
	awk -F, 'FNR == 1 { for (i = 1; i <= NF; i++) if ($i == "Step") c = i; next }
	    { sub(/\r$/, ""); printf "%s%s", n++ ? " " : "", $c }' "$@"
}
# The Step ids of step_trace_time.csv in the single directory under DIR.
steps_in() {
	csv_steps "$1"/*_ascend_pt/ASCEND_PROFILER_OUTPUT/step_trace_time.csv
}
# The files of ASCEND_PROFILER_OUTPUT in the single directory under DIR.
parsed_in() {
	local d=("$1"/*_ascend_pt/ASCEND_PROFILER_OUTPUT) f out=()
	if [ ${#d[@]} -ne 1 ] || [ ! -d "$d" ]; then
		ls "${d[@]}" 2>/dev/null | tr '\n' ' ' | sed 's/ $//'
		return
	fi
	for f in "$d"/*; do [ -e "$f" ] && out+=("${f##*/}"); done
	printf '%s' "${out[*]}"
}
