#!/usr/bin/env bash
# python X.py started directly is handed to the injector ("entry *.py
# auto"), which reads it: one that is no training runs exactly as it would
# without msprof-exec (its arguments, its exit status, Python's own error
# for a missing script), with the shim kept, so that a wrapper script's own
# launches are still seen; under --framework llm the shim does not hand it
# over at all.
. "$(dirname "$0")/lib.sh"

make_recorder torchrun
export PATH="$RBIN:$PATH"
cat > helper.py <<'EOF'
import os, sys
print("helper", sys.argv[1:], "shim" if "msprof-exec-shim" in os.environ.get("LD_PRELOAD", "") else "no shim",
      "session" if os.environ.get("MSPROF_EXEC_SESSION") else "no session")
sys.exit(int(os.environ.get("HELPER_EXIT", "0")))
EOF
cat > wrapper.py <<'EOF'
import subprocess, sys
sys.exit(subprocess.call(["torchrun", "--nproc_per_node", "1", "pretrain_gpt.py", "--w", "1"]))
EOF
cat > job.sh <<EOF
$PY helper.py a 'b c'
HELPER_EXIT=3 $PY helper.py x; echo "status \$?"
$PY nosuch.py; echo "missing \$?"
$PY wrapper.py
EOF
# The same job without msprof-exec: what the helpers do there.
bash job.sh > plain.out 2> plain.err
reset_run
msprof -y bash job.sh
is "$rc" 0 "exit 0"
has_line "$out" "helper ['a', 'b c'] shim session" \
    "a helper script runs with its arguments, the shim kept"
has_line "$out" "status 3" "its exit status is its own"
is "$(grep -c '^missing 2$' <<< "$out")" 1 "a missing script: Python's own exit status 2"
is "$(grep -c "can't open file" <<< "$err")" "$(grep -c "can't open file" plain.err)" \
    "... and its own message"
is "$(rec_argv)" "$RBIN/torchrun --nproc_per_node 1 pretrain_gpt.py --w 1 $DEFAULT_FLAGS" \
    "a launch a python wrapper makes is still seen and profiled"
is "$(njournal injected):$(journal | wc -l | tr -d ' ')" "1:1" \
    "the journal records the launch only, not the helpers"
is "$(grep -v '^helper' plain.out)" "$(grep '^status\|^missing' <<< "$out")" \
    "the helpers' statuses as without msprof-exec"

# The exec is passed on exactly: argv[0] (exec -a), the interpreter's own
# options, PATH search (env runs execvp), a script read from stdin, a file
# that is no .py; the same output as without msprof-exec, and the
# injector writes nothing for any of them.
cat > flags.py <<'EOF'
import os, sys
with open("/proc/self/cmdline", "rb") as f:
    argv = [a.decode() for a in f.read().split(b"\0")[:-1]]
print("flags", [os.path.basename(a) if a.startswith("/") else a for a in argv],
      "dev=%d" % sys.flags.dev_mode)
EOF
cp flags.py flags.txt
cat > exact.sh <<EOF
(exec -a my-python $PY flags.py one)
$PY -u flags.py two
$PY -X dev flags.py three
env python3 flags.py four
$PY - five < flags.py
$PY flags.txt six
$PY -c 'import sys; sys.exit(5)'; echo "c \$?"
EOF
PATH="$(dirname "$PY"):$PATH" bash exact.sh > exact.plain 2> exact.err
reset_run
PATH="$(dirname "$PY"):$PATH" msprof -y bash exact.sh
is "$out" "$(<exact.plain)" "argv[0], -u, -X dev, env's PATH search, stdin, a .txt: as without msprof-exec"
has_line "$out" "flags ['my-python', 'flags.py', 'one'] dev=0" "exec -a: argv[0] kept"
has_line "$out" "flags ['python3', '-u', 'flags.py', 'two'] dev=0" "-u kept"
has_line "$out" "flags ['python3', '-X', 'dev', 'flags.py', 'three'] dev=1" "-X dev kept"
has_line "$out" "flags ['python3', 'flags.py', 'four'] dev=0" "env python3: found on PATH"
is "$(grep -v '^msprof-exec: ' <<< "$err")" "$(<exact.err)" "... and the same on stderr"
is "$(ls profiling_output/msprof-exec_* | tr '\n' ' ')" "plan.json train.log " \
    "the injector wrote nothing in the session: no journal, no config"

# --framework llm: python X.py is not handed over (the launch table the
# shim reads has no *.py entry); the wrapper's launch still is.
reset_run
msprof -y --framework llm bash job.sh
has_line "$out" "helper ['a', 'b c'] shim session" "--framework llm: the helper as before"
is "$(nrecorded)" 1 "--framework llm: the wrapper's launch still seen"
# The session's table as the shim got it: what the injector's environment
# shows; the wrapper's torchrun ran without the shim, so read the command's.
cat > env.py <<'EOF'
import os
print("match", os.environ.get("MSPROF_EXEC_MATCH", ""))
EOF
msprof -y --framework llm $PY env.py
unlike "$out" "match .*\*\.py" "--framework llm: no *.py in the shim's table"
msprof -y bash -c "$PY env.py"
like "$out" "match .*entry=.*,\*\.py" "auto: the *.py entry is in it"
done_testing
