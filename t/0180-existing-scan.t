#!/usr/bin/env bash
# --existing ask is settled before anything runs wherever the scan can
# follow the command (a shell script run directly by its #! line, bash X,
# source X, wrappers), and where it cannot, the table says so before the
# prompt.  A CRLF script gets a warning before it runs.
. "$(dirname "$0")/lib.sh"

make_recorder torchrun
export PATH="$RBIN:$PATH"
printf 'torchrun pretrain_gpt.py --train-iters 10 --profile --profile-ranks 0\n' > t.sh
printf '#!/bin/bash\necho prep > prep.out\ntorchrun pretrain_gpt.py --train-iters 10 --profile\n' > train
chmod +x train

# refused_first NAME COMMAND...: exit 78 before anything of COMMAND runs.
refused_first() {
	local name=$1
	shift
	reset_run
	rm -f prep.out
	msprof -y "$@"
	is "$rc" 78 "$name: exit 78"
	like "$err" "the command already sets profiling options \(--profile" "$name: the settings are named"
	like "$err" "msprof-exec --existing keep " "$name: with the commands to choose from"
	ok "$([ ! -e prep.out ]; echo $?)" "$name: nothing ran (no preprocessing)"
	is "$(nrecorded)" 0 "$name: the launcher did not start"
}
refused_first "a #! script without .sh, run directly" ./train
printf 'echo prep > prep.out\nbash t.sh\n' > wrap.sh
refused_first "a wrapper running bash t.sh" bash wrap.sh
printf 'echo prep > prep.out\n. ./t.sh\n' > src.sh
refused_first "a wrapper sourcing t.sh" bash src.sh
printf '#!/usr/bin/env bash\necho prep > prep.out\n./train\n' > outer
chmod +x outer
refused_first "a #! wrapper running a #! script" ./outer

msprof -n ./train
like "$out" "Script +\./train" "-n: the script run directly is read"
unlike "$out" "could not be checked" "-n: a script the scan reads needs no note"

# A program the scan cannot read: the table says so before the prompt.
printf '#!/usr/bin/env python3\nimport subprocess\nsubprocess.call(["torchrun", "pretrain_gpt.py", "--profile"])\n' > run.py
chmod +x run.py
msprof -n ./run.py
like "$out" "Profiling settings already in the launches could not be checked before the run: \./run\.py is not a shell script msprof-exec can read; with --existing ask a launch that has them is refused at its start" \
    "a Python program: the table says its launches could not be checked"
msprof -n --existing override ./run.py
unlike "$out" "could not be checked" "--existing override: nothing to settle, no note"
printf 'python3 -c "import os; os.system(\\"torchrun pretrain_gpt.py\\")"\n' > hidden.sh
msprof -n bash hidden.sh
like "$out" "could not be checked before the run: no training launch was found in hidden\.sh before it runs" \
    "a script whose launch the scan does not see: said"

# With --existing keep the direct #! script runs, preprocessing first.
reset_run
rm -f prep.out
msprof -y --existing keep ./train
is "$rc" 0 "--existing keep: runs"
ok "$([ -e prep.out ]; echo $?)" "--existing keep: the script ran"
is "$(nrecorded)" 1 "--existing keep: the launcher started"

# CRLF line ends: bash fails on $'\r'; say so before it runs.
printf 'echo prep\r\ntorchrun pretrain_gpt.py --train-iters 10\r\n' > crlf.sh
msprof -n bash crlf.sh
like "$err" "crlf\.sh has CRLF \(Windows\) line ends: bash will fail on \\$'\\\\r'; convert it first, e\.g\. with dos2unix crlf\.sh" \
    "a CRLF script: warned, with the fix"
printf 'bash crlf.sh\n' > calls_crlf.sh
msprof -n bash calls_crlf.sh
like "$err" "crlf\.sh has CRLF" "a CRLF script a wrapper runs: warned, naming it"
msprof -n bash t.sh
unlike "$err" "CRLF" "an LF script: no warning"
done_testing
