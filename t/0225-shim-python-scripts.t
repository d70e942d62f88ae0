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
