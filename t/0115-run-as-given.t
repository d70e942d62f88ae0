#!/usr/bin/env bash
# The command runs exactly as given: an executable is executed and its #!
# line chooses the interpreter; only a .sh file that is not executable
# runs with bash.  A command or script that does not exist, or a mistyped
# subcommand, is refused before a session folder is made.
. "$(dirname "$0")/lib.sh"

make_recorder torchrun
export PATH="$RBIN:$PATH"
nosession() { ok "$([ ! -e profiling_output ]; echo $?)" "$1: no session folder"; }

printf '#!/bin/bash -e\nfalse\necho after-false\n' > stop.sh
chmod +x stop.sh
msprof -y ./stop.sh
is "$rc" 1 "#!/bin/bash -e: the script stops at the failure, status 1"
unlike "$out" after-false "#!/bin/bash -e: nothing after the failure runs"

printf '#!/usr/bin/env python3\nimport sys\nprint("python", sys.version_info[0])\n' > py.sh
chmod +x py.sh
msprof -y ./py.sh
is "$rc" 0 "#!/usr/bin/env python3: status 0"
has_line "$out" "python 3" "#!/usr/bin/env python3: Python runs the script"

# An executable script of the current directory, named without ./, is
# that file (not one of the same name on PATH); its launches are profiled.
printf '#!/bin/sh\necho on-path\n' > "$RBIN/here.sh"
chmod +x "$RBIN/here.sh"
printf '#!/bin/sh\necho "in cwd as $0"\ntorchrun pretrain_gpt.py\n' > here.sh
chmod +x here.sh
reset_run
msprof -y here.sh
has_line "$out" "in cwd as here.sh" "an executable .sh of the current directory runs, \$0 as given"
is "$(nrecorded)" 1 "and its launch ran"
like "$(rec_argv)" "--profile-step-start 2" "and was profiled through the #! interpreter"

# Not executable: .sh runs with bash (the documented contract); so does
# an executable one without a #! line, as bash itself would run it.
printf 'echo "bash: $BASH_VERSION"\n' > plain.sh
msprof -y plain.sh
like "$out" "bash: [0-9]" "a .sh file that is not executable runs with bash"
chmod +x plain.sh
msprof -y ./plain.sh
like "$out" "bash: [0-9]" "an executable .sh file without #! runs with bash"

reset_run
msprof -y missing.sh
is "$rc" 66 "a missing .sh script: 66"
like "$err" "missing.sh: no such script" "a missing .sh script: says so"
unlike "$err" "Static programs|Training script" "a missing .sh script: no misleading warning"
nosession "a missing .sh script"
msprof -y bash missing.sh
is "$rc" 66 "bash MISSING: 66"
nosession "bash MISSING"
msprof -y ./missing
is "$rc" 66 "a missing ./program: 66"
nosession "a missing ./program"
msprof -y nosuchcommand
is "$rc" 66 "a command not on PATH: 66"
like "$err" "nosuchcommand: command not found" "a command not on PATH: says so"
nosession "a command not on PATH"

msprof reprot profiling_output
is "$rc" 64 "a mistyped subcommand: usage error 64"
like "$err" "did you mean 'msprof-exec report'" "a mistyped subcommand: the likely one"
like "$err" "trigger, analyse, report, compare and tune" "a mistyped subcommand: names the subcommands"
nosession "a mistyped subcommand"
msprof trigerr dyn
is "$rc" 64 "another mistyped subcommand: 64"
like "$err" "'msprof-exec trigger'" "another mistyped subcommand: the likely one"
done_testing
