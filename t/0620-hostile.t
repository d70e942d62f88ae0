#!/usr/bin/env bash
# Hostile input (reference 2.6, 2.10): a launch whose profiled command line
# no longer fits the kernel's limit, bytes that are not UTF-8 and newlines
# in arguments and paths, several and duplicate LD_PRELOAD entries, an
# empty and a very large environment, an output directory that is
# read-only or on a full file system.
. "$(dirname "$0")/lib.sh"
pyq_start

# A launcher that records its argv, environment and working directory
# byte for byte (NUL-separated): REC/torchrun.PID.argv|env|cwd.
cat > "$RBIN/torchrun" <<EOS
#!/bin/sh
printf '%s\0' "\$0" "\$@" > "$REC/torchrun.\$\$.argv"
env -0 > "$REC/torchrun.\$\$.env"
printf '%s\0' "\$PWD" > "$REC/torchrun.\$\$.cwd"
EOS
chmod +x "$RBIN/torchrun"
export PATH="$RBIN:$PATH"
# The single recorded file of KIND (argv, env, cwd).
rec_file() { ls "$REC"/torchrun.*."$1" 2>/dev/null | head -n 1; }
# Its NUL-separated strings, one a line (for strings without newlines).
rec_lines() { tr '\0' '\n' < "$(rec_file "$1")"; }
status_of() { if "$@"; then echo 0; else echo 1; fi; }
# JSON lines: every line of stdin, decoded with the encoding $1 (utf-8:
# strict JSON; latin-1: JSON but for the encoding), parses.
JSON_LINES='
import json, sys
bad = 0
for line in sys.stdin.buffer:
    try:
        json.loads(line.decode(sys.argv[1]))
    except ValueError:
        bad += 1
print(bad)'

# --- 1. A profiled command line over the limit (inject.c run()) --------
# With a 1 MiB stack the kernel takes 256 KiB of argv and environment.
# The launch takes about 25 KB less; the default flags fit in that, the
# 4000 ranks of --ranks 0,...,3999 (about 51 KB) do not: the injector
# must run the launch unprofiled, say so, and record why.
old_stack=$(ulimit -S -s)
ulimit -S -s 1024
limit=$(getconf ARG_MAX)
fixed=$(pyq - "$RBIN" <<'EOF'
import sys
fn = sys.argv[1] + "/torchrun"
argv = ["torchrun", "--nproc_per_node", "1", "pretrain_gpt.py", "--a", "", "--b", ""]
env = ["PATH=%s:/usr/bin:/bin" % sys.argv[1]]
# The path, the strings and the pointers (argv, envp, their NULLs);
# the #! line adds the interpreter and the path again.
print(2 * (len(fn) + 1) + len("/bin/sh") + 1 +
      sum(len(s) + 1 for s in argv + env) + 8 * (len(argv) + len(env) + 2))
EOF
)
fill=$(( (limit - 25000 - fixed) / 2 ))
cat > big.sh <<EOF
F=\$(printf '%*s' $fill '' | tr ' ' x)
exec env -i PATH="$RBIN:/usr/bin:/bin" torchrun --nproc_per_node 1 pretrain_gpt.py --a "\$F" --b "\$F"
EOF
msprof -y bash big.sh
is "$rc:$(nrecorded)" "0:1" "near the limit, default flags: the launch ran once"
is "$(rec_lines argv | awk '{ print length($0) }' | tr '\n' ' ')" \
    "$(printf '%s\n' "$RBIN/torchrun" --nproc_per_node 1 pretrain_gpt.py --a "" --b "" \
    | awk -v f="$fill" '{ print ($0 == "" ? f : length($0)) }' | tr '\n' ' ')$(
    printf '%s\n' $DEFAULT_FLAGS | awk '{ print length($0) }' | tr '\n' ' ')" \
    "near the limit, default flags: profiled (it still fits)"
reset_run
msprof -y --ranks "$(seq -s, 0 3999)" bash big.sh
is "$rc:$(nrecorded)" "0:1" "over the limit: the training still ran, once, status 0"
# The lengths of the arguments: the original ones, no flag.
is "$(rec_lines argv | awk '{ print length($0) }' | tr '\n' ' ')" \
    "$((${#RBIN} + 9)) 16 1 15 3 $fill 3 $fill " \
    "over the limit: the original command line, unprofiled"
like "$err" "the profiled command line is too long for this system; running .*/torchrun without profiling" \
    "over the limit: a warning says it runs unprofiled"
like "$(journal)" '"status":"unchanged","reason":"the profiled command line is too long for this system"' \
    "over the limit: the journal says why"
# The report reads the journal: the injector's later record must win.
like "$out" "0 training launch\(es\) profiled, 1 left alone" \
    "over the limit: the report counts the launch as left alone, not profiled"
like "$out" "left alone \(the profiled command line is too long for this system\)" \
    "over the limit: the report says why"
# The same launcher without a #! line: execvp (env) runs it with /bin/sh,
# and with the original arguments there too.
mkdir -p "$T/nosb"
sed 1d "$RBIN/torchrun" > "$T/nosb/torchrun"
chmod +x "$T/nosb/torchrun"
sed "s|PATH=\"$RBIN:|PATH=\"$T/nosb:|" big.sh > big2.sh
reset_run
msprof -y --ranks "$(seq -s, 0 3999)" bash big2.sh
is "$rc:$(nrecorded)" "0:1" "over the limit, a launcher without #!: ran once through /bin/sh"
like "$err" "running .*/nosb/torchrun without profiling" \
    "over the limit, a launcher without #!: run unprofiled, said so"
ulimit -S -s "$old_stack"
reset_run

# --- 2. Bytes that are not UTF-8, newlines, in arguments and paths ------
W=$(printf 'w\377\376 \nx')
mkdir -p "$T/$W" && cd "$T/$W" || exit 1
printf '%s\n' "torchrun pretrain_gpt.py --name \$'\\xff\\xfe bad' --multi \$'line1\\nline2' --utf8 \$'\\xe4\\xb8\\xad'" > train.sh
msprof -y -o "$T/$W/out" --json "$T/odd.json" bash train.sh
is "$rc:$(nrecorded)" "0:1" "odd bytes: the launch ran once"
printf '%s\0' "$RBIN/torchrun" pretrain_gpt.py --name "$(printf '\377\376 bad')" \
    --multi "$(printf 'line1\nline2')" --utf8 "$(printf '\344\270\255')" \
    $(printf '%s\n' $DEFAULT_FLAGS | sed '$d') > "$T/want.argv"
printf '%s\0' "$T/$W/out" >> "$T/want.argv"
ok "$(status_of cmp -s "$(rec_file argv)" "$T/want.argv")" \
    "odd bytes: the launcher got every argument byte for byte, and the flags"
printf '%s\0' "$T/$W" > "$T/want.cwd"
ok "$(status_of cmp -s "$(rec_file cwd)" "$T/want.cwd")" \
    "odd bytes: in the directory it was started in"
lines=$(journal "$T/$W/out" | wc -l | tr -d ' ')
is "$lines" 1 "odd bytes: the journal has one line (the newlines are escaped)"
is "$(journal "$T/$W/out" | pyq -i -c "$JSON_LINES" utf-8)" 0 \
    "odd bytes: the journal line is valid JSON (UTF-8) for any JSON reader"
journal "$T/$W/out" | grep -qF '\udcff\udcfe bad'
ok $? "odd bytes: written as \\udcXX escapes"
# Python's surrogateescape gives the bytes back, as os.fsencode does.
journal "$T/$W/out" | "$PY" -c '
import json, sys
rec = json.loads(sys.stdin.buffer.read().decode("utf-8"))
sys.stdout.buffer.write(b"".join(a.encode("utf-8", "surrogateescape") + b"\0" for a in rec["argv"]))' > "$T/got.jargv"
printf '%s\0' torchrun pretrain_gpt.py --name "$(printf '\377\376 bad')" \
    --multi "$(printf 'line1\nline2')" --utf8 "$(printf '\344\270\255')" > "$T/want.jargv"
ok "$(status_of cmp -s "$T/got.jargv" "$T/want.jargv")" \
    "odd bytes: the journal keeps the arguments' bytes"
# The machine report (--json) the same way.
json_file() { pyq -c 'import json, sys; json.loads(open(sys.argv[1], "rb").read().decode(sys.argv[2]))' "$@" 2>/dev/null; }
ok "$(status_of json_file "$T/odd.json" utf-8)" "odd bytes: the --json report is valid JSON (UTF-8)"
# msprof-exec reads its own journal back: the report names the odd output directory.
"$MSPROF" report "$T/$W/out" > "$T/odd.report" 2>&1
grep -aqF "ranks 0, level1 -> $T/$W/out" "$T/odd.report"
ok $? "odd bytes: msprof-exec report reads the journal back (the exact output path)"
cd "$T" || exit 1
reset_run

# --- 3. LD_PRELOAD: several entries, duplicates, the shim already there -
other_preloads
cat > pre.sh <<EOF
/usr/bin/env > nontarget.env
cat /proc/self/maps > nontarget.maps
torchrun pretrain_gpt.py --x 1
EOF
LD_PRELOAD="$OTHER $OTHER2" msprof -y bash pre.sh
is "$rc:$(nrecorded)" "0:1" "several preloads: the launch ran once"
is "$(grep '^LD_PRELOAD=' nontarget.env)" "LD_PRELOAD=$SHIM:$OTHER:$OTHER2" \
    "several preloads: a program that is not the launcher has the shim first, the others kept"
is "$(grep -Eo '/(msprof-exec-shim[^/]*|other|other2)\.so$' nontarget.maps | sort -u | tr '\n' ' ')" \
    "/${SHIM##*/} /other.so /other2.so " "several preloads: all three really loaded there"
is "$(tr '\0' '\n' < "$(rec_file env)" | grep '^LD_PRELOAD=')" "LD_PRELOAD=$OTHER:$OTHER2" \
    "several preloads: the launcher keeps the others, without the shim"
reset_run
# Two LD_PRELOAD entries (ld.so uses the last), the shim already in it.
"$HELPERS/execs" -e "PATH=$PATH" -e "LD_PRELOAD=$OTHER2" -e "LD_PRELOAD=$OTHER:$SHIM:$OTHER" \
    execve "$MSPROF" --skip-checks -y bash pre.sh > out 2> err
rc=$?
is "$rc:$(nrecorded)" "0:1" "duplicate LD_PRELOAD: the launch ran once"
is "$(grep -c '^LD_PRELOAD=' nontarget.env):$(grep '^LD_PRELOAD=' nontarget.env)" \
    "1:LD_PRELOAD=$SHIM:$OTHER:$OTHER" \
    "duplicate LD_PRELOAD: one entry, the shim once and first, the one ld.so used kept"
is "$(tr '\0' '\n' < "$(rec_file env)" | grep -c '^LD_PRELOAD=')$(tr '\0' '\n' < "$(rec_file env)" | grep '^LD_PRELOAD=')" \
    "1LD_PRELOAD=$OTHER:$OTHER" "duplicate LD_PRELOAD: the launcher gets one entry without the shim"
like "$(rec_lines argv | tr '\n' ' ')" "pretrain_gpt.py --x 1 $DEFAULT_FLAGS" \
    "duplicate LD_PRELOAD: and it is profiled"
reset_run

# --- 4. An empty and a very large environment ----------------------------
cat > "$T/envtest.sh" <<EOF
/usr/bin/env > "$T/nontarget.env"
"$RBIN/torchrun" pretrain_gpt.py --x 2
EOF
env -i "$MSPROF" -y --skip-checks sh "$T/envtest.sh" > out 2> err
rc=$?
is "$rc:$(nrecorded)" "0:1" "env -i: the launch ran once"
like "$(rec_lines argv | tr '\n' ' ')" "pretrain_gpt.py --x 2 $DEFAULT_FLAGS" \
    "env -i: and it is profiled"
is "$(grep -c '^MSPROF_EXEC_' nontarget.env):$(grep '^LD_PRELOAD=' nontarget.env)" \
    "4:LD_PRELOAD=$SHIM" "env -i: the script's programs have the shim and the session"
is "$(tr '\0' '\n' < "$(rec_file env)" | grep -c -E '^(LD_PRELOAD|MSPROF_EXEC_[A-Z]*)=')" 0 \
    "env -i: the launcher has neither"
reset_run
# 20000 variables and one of 100 KB.
start=$(date +%s)
"$PY" - "$MSPROF" "$T/envtest.sh" > out 2> err <<'EOF'
import os, sys
env = dict(os.environ)
for i in range(20000):
    env["MSPROF_T_V%05d" % i] = "value %d" % i
env["MSPROF_T_BIG"] = "y" * 102400
open("big.env", "w").write("MSPROF_T_BIG=%s\n" % env["MSPROF_T_BIG"])
os.execve(sys.argv[1], [sys.argv[1], "-y", "--skip-checks", "sh", sys.argv[2]], env)
EOF
rc=$?
is "$rc:$(nrecorded)" "0:1" "20000 variables: the launch ran once"
like "$(rec_lines argv | tr '\n' ' ')" "pretrain_gpt.py --x 2 $DEFAULT_FLAGS" \
    "20000 variables: and it is profiled"
is "$(tr '\0' '\n' < "$(rec_file env)" | grep -c '^MSPROF_T_V[0-9]*=value [0-9]*$')" 20000 \
    "20000 variables: the launcher got every one"
is "$(tr '\0' '\n' < "$(rec_file env)" | grep '^MSPROF_T_BIG=' | md5sum)" \
    "$(md5sum < big.env)" \
    "the 100 KB variable reached the launcher intact"
is "$(grep -c '^MSPROF_T_V' nontarget.env):$(grep '^LD_PRELOAD=' nontarget.env)" \
    "20000:LD_PRELOAD=$SHIM" "20000 variables: the script's programs have them all, and the shim"
diag "large environment: $(( $(date +%s) - start )) s"
reset_run
# A thread with a 64 KiB stack, 10000 variables, LD_PRELOAD dropped: the
# shim repairs the environment in memory it maps, not on that stack.
cat > small.c <<'EOF2'
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/wait.h>
static void *
run(void *a)
{
	char *av[] = { "sh", "-c", "exit 7", NULL };

	execv("/bin/sh", av);
	return a;
}
int
main(void)
{
	char name[32];
	pthread_attr_t at;
	pthread_t t;
	int st;
	pid_t pid;

	for (int i = 0; i < 10000; i++) {
		snprintf(name, sizeof(name), "V%d", i);
		setenv(name, "1", 1);
	}
	unsetenv("LD_PRELOAD");
	if ((pid = fork()) == 0) {
		pthread_attr_init(&at);
		pthread_attr_setstacksize(&at, 64 * 1024);
		pthread_create(&t, &at, run, NULL);
		pthread_join(t, NULL);
		_exit(99);
	}
	waitpid(pid, &st, 0);
	printf("%s %d\n", WIFSIGNALED(st) ? "signal" : "exit",
	    WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
	return 0;
}
EOF2
cc -pthread -o small small.c
is "$(shim_session; LD_PRELOAD=$SHIM ./small)" "exit 7" \
    "10000 variables, LD_PRELOAD dropped, exec from a 64 KiB thread stack: no crash"

# --- 5. An output directory that cannot be written ----------------------
cat > train.sh <<EOF
torchrun pretrain_gpt.py --x 3
EOF
mounts=
trap 'for m in $mounts; do umount "$m" 2>/dev/null; done; rm -rf "$T"' EXIT
# A file system of our own: a tmpfs when we may mount (root), else none.
tmpfs() {	# tmpfs DIR SIZE
	mkdir -p "$1"
	[ "$(id -u)" -eq 0 ] && mount -t tmpfs -o "size=$2" tmpfs "$1" 2>/dev/null &&
	    mounts="$mounts $1"
}
if tmpfs "$T/ro" 64k; then
	echo "keep me" > "$T/ro/results.txt"
	mount -o remount,ro "$T/ro"
	ro_how="a read-only file system"
elif [ "$(id -u)" -ne 0 ]; then
	mkdir -p "$T/ro"
	echo "keep me" > "$T/ro/results.txt"
	chmod 555 "$T/ro"
	ro_how="a directory without write permission"
else
	ro_how=
fi
if [ -n "$ro_how" ]; then
	msprof -y -o "$T/ro/out" bash train.sh
	is "$rc" 73 "read-only ($ro_how): a new output directory: exit 73"
	like "$err" "cannot create the output directory $T/ro/out" \
	    "read-only: the message names the directory"
	msprof -y -o "$T/ro" bash train.sh
	is "$rc" 73 "read-only: an existing output directory: exit 73"
	like "$err" "$T/ro" "read-only: the message names the directory"
	is "$(nrecorded)" 0 "read-only: the training was not started"
	is "$(<"$T/ro/results.txt"):$(ls "$T/ro")" "keep me:results.txt" \
	    "read-only: nothing lost, nothing left"
else
	skip "read-only output: root without mount(2) (no CAP_SYS_ADMIN): cannot make a read-only directory"
fi
reset_run

if tmpfs "$T/full" 64k; then
	echo "keep me" > "$T/full/results.txt"
	dd if=/dev/zero of="$T/full/filler" bs=4k 2>/dev/null
	msprof -y -o "$T/full" bash train.sh
	is "$rc" 73 "full file system: exit 73"
	like "$err" "$T/full/.*No space left on device" \
	    "full file system: the message names the directory and says it is full"
	is "$(nrecorded)" 0 "full file system: the training was not started"
	is "$(<"$T/full/results.txt")" "keep me" "full file system: nothing lost"
	is "$(find "$T/full" -name '*.tmp' | wc -l | tr -d ' ')" 0 \
	    "full file system: no half-written file left"
	# With room again, the same directory works.
	rm -f "$T/full/filler"
	msprof -y -o "$T/full" bash train.sh
	is "$rc:$(nrecorded)" "0:1" "the same directory with room: the run works"
else
	skip "full file system: cannot mount a small tmpfs (needs root with mount(2))"
fi
done_testing
