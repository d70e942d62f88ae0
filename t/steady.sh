# What keeps the tests steady on a loaded machine and side by side (two
# 'make check' at once): waiting for the thing itself, never for a time;
# TCP ports and copies of the simulated checkouts of a test's own.
# Sourced (bash) by t/lib.sh and sim/testlib.sh.

# The same signals whatever started the suite: under nohup, or in the
# background of a script, SIGHUP, SIGINT or SIGQUIT come ignored, which a
# child inherits and bash cannot undo, and the tests of how msprof-exec
# meets them (nohup'd processes, Ctrl-C) would test that instead.  The test
# then starts again once with them at their default (coreutils env, 8.31
# on).  Read from /proc with builtins: a test started as usual, with none
# of them ignored, goes on without starting a process.
steady_ignored() {
	local key mask

	while read -r key mask; do
		if [ "$key" = SigIgn: ]; then
			(( 16#$mask & 7 ))	# bits 0-2: SIGHUP, SIGINT, SIGQUIT
			return
		fi
	done 2> /dev/null < "/proc/$$/status"
	return 0	# cannot tell: as if they were
}
if [ -z "${MSPROF_T_SIGNALS:-}" ] && [ -f "$0" ] && steady_ignored &&
    env --default-signal=HUP true 2> /dev/null; then
	export MSPROF_T_SIGNALS=default
	exec env --default-signal=HUP,INT,QUIT "$BASH" "$0" "$@"
fi

# The checkout: the directory above this file's (a substitution, no dirname:
# every test sources this).
STEADY_TOP=${BASH_SOURCE[0]%/*}
[ "$STEADY_TOP" != "${BASH_SOURCE[0]}" ] || STEADY_TOP=.
STEADY_TOP=$(CDPATH= cd "$STEADY_TOP/.." && pwd)

# Every wait is bounded by MSPROF_T_WAIT_LIMIT seconds, which only a hang
# reaches: a loaded machine makes things late, not absent.  t/ptyrun.py
# and the processes of a test's scenario read it too.
export MSPROF_T_WAIT_LIMIT=${MSPROF_T_WAIT_LIMIT:-300}

# wait_for WHAT COMMAND...: run COMMAND (a function will do) until it
# succeeds.  At the limit, say what did not happen and return 1.
# Between tries it sleeps 20 ms without a process (a sleep each time cost
# more than most waits): read times out on a pipe the shell holds both
# ends of, which nothing writes, closed again before it returns so that no
# program started later inherits it.
wait_for() {
	local what=$1 end=$((SECONDS + MSPROF_T_WAIT_LIMIT)) nap= status=0

	shift
	until "$@"; do
		if [ "$SECONDS" -ge "$end" ]; then
			echo "# gave up after ${MSPROF_T_WAIT_LIMIT}s waiting for $what" >&2
			status=1
			break
		fi
		[ -n "$nap" ] || exec {nap}<> <(:)
		read -r -t 0.02 -u "$nap" _
	done
	[ -z "$nap" ] || exec {nap}<&-
	return "$status"
}

# Conditions for wait_for.
# has_text FILE ERE: FILE has a line matching ERE.
has_text() { grep -Eq -- "$2" "$1" 2> /dev/null; }
# has_files GLOB [N]: N files (1) or more match GLOB.
has_files() { [ "$(compgen -G "$1" | wc -l)" -ge "${2:-1}" ]; }
# monitor_took DIR: the dynamic profiler's monitor of config directory DIR
# has passed a config on (it polls every 2 s, as torch_npu's does).
monitor_took() { cat "$1"/log/monitor_dp_* 2> /dev/null | grep -q 'load json success'; }
# gone PID: process PID has ended (exited, or a zombie).
gone() {
	[ ! -e "/proc/$1" ] ||
	    [ "$(sed 's/.*) \(.\).*/\1/' "/proc/$1/stat" 2> /dev/null)" = Z ]
}

# A gate a process of the test's scenario waits at: it reads the FIFO
# (timeout "$MSPROF_T_WAIT_LIMIT" sh -c 'read x < GATE'); release GATE
# lets it go once it is there (the limit bounds a reader that never came).
gate() { rm -f "$1" && mkfifo "$1"; }
release() { timeout "$MSPROF_T_WAIT_LIMIT" sh -c 'echo go > "$1"' sh "$1"; }

# free_port: a TCP port nothing is bound to.  It is below the kernel's
# ephemeral range, so no outgoing connection takes it meanwhile, and the
# search starts at random, so tests and jobs started side by side look in
# different places.
free_port() {
	"${PY:-python3}" - <<'EOF'
import random, socket
low = 20000
try:
    high = min(int(open("/proc/sys/net/ipv4/ip_local_port_range").read().split()[0]), 32768)
except (OSError, ValueError, IndexError):
    high = 32768
span = max(high - low, 1)
start = random.SystemRandom().randrange(span)
for i in range(span):
    port = low + (start + i) % span
    s = socket.socket()
    try:
        s.bind(("", port))
    except OSError:
        continue
    finally:
        s.close()
    print(port)
    break
EOF
}

# sim_checkouts DIR: the simulated MindSpeed-LLM and -MM checkouts in DIR,
# as symbolic links (the stand-ins find sim/lib from their real place),
# without what runs in the repository's own left there (logs/, msrun_log/,
# profiling output): what runs in DIR writes there, never through a link
# into the repository, where another test may be running the same example.
sim_checkouts() {
	cp -Rs "$STEADY_TOP/sim/mindspeed-llm" "$STEADY_TOP/sim/mindspeed-mm" "$1/" &&
	    find "$1/mindspeed-llm" "$1/mindspeed-mm" -maxdepth 1 \
	    \( -name logs -o -name msrun_log -o -name 'profil*' \
	    -o -name npu_profiling -o -name memory_snapshot -o -name output \
	    -o -name sora_features -o -name save_dir \) -exec rm -rf {} + &&
	    rm -rf "$1/mindspeed-llm/ckpt" &&
	    find "$1" -name __pycache__ -prune -exec rm -rf {} +
}
