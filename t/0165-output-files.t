#!/usr/bin/env bash
# Files msprof-exec writes for the user (--json, --log) go through what
# the user named: /dev/stdout, a FIFO, a link's target; a temporary file
# is never a fixed name another writer or a planted link can take; and a
# destination that cannot be written is refused before anything runs.
. "$(dirname "$0")/lib.sh"
pyq_start

# An output directory holding rank 0's data, for msprof-exec report.
d=out/host_0_20261202120000000_ascend_pt
mkdir -p "$d/ASCEND_PROFILER_OUTPUT" "$d/FRAMEWORK"
echo '{}' > "$d/profiler_info_0.json"
echo '[]' > "$d/ASCEND_PROFILER_OUTPUT/trace_view.json"
report() { "$MSPROF" report -q "$@"; }
# is_json FILE: FILE holds one JSON document of msprof-exec's report.
is_json() { pyq -c 'import json,sys; assert json.load(open(sys.argv[1]))["version"] == 1' "$1" 2>/dev/null; }

# /dev/stdout is msprof-exec's own output, never a file to replace (as
# root, replacing it would break the machine's /dev/stdout).
got=$(report --json /dev/stdout out)
is "$?" 0 "report --json /dev/stdout: succeeds"
like "$got" '"version":[[:space:]]+1' "report --json /dev/stdout: the JSON is on stdout"
ok "$([ -L /dev/stdout ]; echo $?)" "/dev/stdout is still a link"
report --json /dev/stdout out > stdout.json
ok "$(is_json stdout.json; echo $?)" "report --json /dev/stdout > FILE: the file holds the JSON"
# A link of the user's own to the descriptor works the same way.
ln -s /proc/self/fd/1 mystdout
got=$(report --json mystdout out)
like "$got" '"version":[[:space:]]+1' "a link to /proc/self/fd/1: the JSON is on stdout"
ok "$([ -L mystdout ]; echo $?)" "and the link is left alone"

# A FIFO is written, not replaced by a file.
mkfifo fifo
timeout "$MSPROF_T_WAIT_LIMIT" cat fifo > from-fifo &
reader=$!
report --json fifo out
wait "$reader"
ok "$([ -p fifo ]; echo $?)" "--json FIFO: still a FIFO"
ok "$(is_json from-fifo; echo $?)" "--json FIFO: the reader got the JSON"

# A link: its target is replaced (in the target's own directory), the
# link stays.
mkdir -p keep
echo old > keep/real.json
ln -s keep/real.json link.json
report --json link.json out
ok "$([ -L link.json ]; echo $?)" "--json LINK: the link stays a link"
ok "$(is_json keep/real.json; echo $?)" "--json LINK: the target holds the JSON"
is "$(ls -A keep)" real.json "--json LINK: no temporary file left by the target"
# A dangling link: the file it names is created.
ln -s keep/new.json dangling.json
report --json dangling.json out
ok "$(is_json keep/new.json; echo $?)" "--json to a dangling link creates its target"
ok "$([ -L dangling.json ]; echo $?)" "and the link stays"

# A planted PATH.tmp link is not written through.
echo precious > victim
mkdir -p w
ln -s ../victim w/out.json.tmp
report --json w/out.json out
is "$(<victim)" precious "a planted PATH.tmp link: its target is untouched"
ok "$(is_json w/out.json; echo $?)" "a planted PATH.tmp link: the JSON is written"
is "$(ls -A w | sort | tr '\n' ' ')" "out.json out.json.tmp " \
    "no temporary file left behind"

# Two writers of one file never collide on a temporary name.
mkdir -p shared
for i in 1 2 3 4 5 6 7 8 9 10 11 12; do
	report --json shared/r.json out 2> "shared-$i.err" &
done
wait
is "$(cat shared-*.err)" "" "12 writers at once: none fails"
ok "$(is_json shared/r.json; echo $?)" "12 writers at once: the file is whole"
is "$(ls -A shared)" r.json "12 writers at once: no temporary file left"

# Mode: a replaced file keeps its permissions.
echo '{}' > mode.json
chmod 600 mode.json
report --json mode.json out
is "$(stat -c %a mode.json)" 600 "a replaced file keeps its mode"

# Unwritable destinations are refused before anything runs.
report --json no/such/dir/r.json out 2> err.txt
is "$?" 73 "report --json in a missing directory: 73"
like "$(<err.txt)" "no/such/dir/r.json" "and names the path"
report --json keep out 2> err.txt
is "$?" 73 "report --json DIRECTORY: 73"

make_recorder torchrun
export PATH="$RBIN:$PATH"
msprof -y --json no/such/dir/r.json torchrun pretrain_gpt.py
is "$rc" 73 "run --json in a missing directory: 73"
like "$err" "--json: .*no/such/dir/r.json" "and says which option"
is "$(nrecorded)" 0 "and nothing ran"
ok "$([ ! -e profiling_output ]; echo $?)" "and no session folder was made"
msprof -y --log no/such/dir/run.log torchrun pretrain_gpt.py
is "$rc" 73 "run --log in a missing directory: 73"
is "$(nrecorded)" 0 "and nothing ran"
ok "$([ ! -e profiling_output ]; echo $?)" "and no session folder was made"

# --log is a stream through what is named: a link's target, /dev/stderr.
echo old > keep/run.log
ln -s keep/run.log run.log
msprof -y --log run.log sh -c 'echo hello from the job'
ok "$([ -L run.log ]; echo $?)" "--log LINK: the link stays a link"
like "$(<keep/run.log)" "hello from the job" "--log LINK: the target gets the output"
msprof -y --log /dev/stderr sh -c 'echo to-the-log'
like "$err" "to-the-log" "--log /dev/stderr: the copy is on stderr"
ok "$([ -L /dev/stderr ]; echo $?)" "/dev/stderr is still a link"
# Main run's --json through a link, like report's.
rm -f keep/real.json
msprof -y --json link.json sh -c true
ok "$([ -L link.json ]; echo $?)" "run --json LINK: the link stays"
ok "$(is_json keep/real.json; echo $?)" "run --json LINK: the target holds the JSON"
done_testing
