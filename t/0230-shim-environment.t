#!/usr/bin/env bash
# Programs the shim does not target keep it: when the environment a program
# passes to exec lost the shim (env -i, LD_PRELOAD overwritten, duplicate
# LD_PRELOAD entries, session variables dropped or changed), the shim puts
# itself back first in a single LD_PRELOAD, other preloads kept, and
# restores its variables; an environment that lost nothing is passed on
# byte for byte (reference 2.6, rules 9-10).
. "$(dirname "$0")/lib.sh"
plan 75

EXECS=$HELPERS/execs
unset LD_PRELOAD
for v in $(env | sed -n 's/^\(MSPROF_EXEC_[A-Za-z0-9_]*\)=.*/\1/p'); do
	unset "$v"
done
export PATH=/usr/bin:/bin
ENVP_FUNCS="execve execle execvpe fexecve posix_spawn posix_spawnp"
ENVIRON_FUNCS="execv execl execvp execlp"
other_preloads

# The session variables the shim saves, sorted, one a line.
SESSION_VARS=$(shim_session; env | grep '^MSPROF_EXEC_' | sort)
# The session as -e options of the driver.
SESSION_OPTS=$(printf -- '-e\n%s\n' $SESSION_VARS)
[ "$(printf '%s\n' "$SESSION_VARS" | wc -l)" -eq 4 ] ||
    diag "unexpected session: $SESSION_VARS"

# in_session ARG...: the driver in an active session, shim preloaded; the
# driver's own report (posix_spawn) is left out.  (This file's helpers
# use shell builtins: it runs the driver seventy times and looks at each
# environment several ways.)
in_session() {
	local _o
	_o=$(shim_session; export LD_PRELOAD=$SHIM; exec "$EXECS" "$@")
	without_report "$_o"
}
without_report() {
	local _l
	while IFS= read -r _l; do
		[[ $_l =~ ^(posix_spawnp?\ returned|errno=|child\ status=) ]] ||
		    printf '%s\n' "$_l"
	done <<< "$1"
}
# The lines of variable $2 in a printed environment; the session ones.
vars() {
	local _l
	while IFS= read -r _l; do
		[[ $_l == "$2="* ]] && printf '%s\n' "$_l"
	done <<< "$1"
	return 0
}
session_of() {
	local _l _s=
	while IFS= read -r _l; do
		[[ $_l == MSPROF_EXEC_* ]] && _s+=$_l$'\n'
	done <<< "$1"
	sort_lines _s "${_s%$'\n'}"
	[ -z "$_s" ] || printf '%s\n' "$_s"
}

for fn in $ENVP_FUNCS; do
	# env -i: an empty environment gets the shim and the session back.
	out=$(in_session -E "$fn" /usr/bin/env)
	sort_lines got "$out"
	sort_lines want "$SESSION_VARS" "LD_PRELOAD=$SHIM"
	is "$got" "$want" \
	    "$fn, empty envp: exactly the shim and the session variables"

	# LD_PRELOAD overwritten: the shim goes first, the others stay.
	out=$(in_session -e A=1 -e "LD_PRELOAD=$OTHER $OTHER2" -e B=2 \
	    "$fn" /usr/bin/env)
	is "$(vars "$out" LD_PRELOAD)" "LD_PRELOAD=$SHIM:$OTHER:$OTHER2" \
	    "$fn, LD_PRELOAD=other: the shim put back first, others kept"
	is "$(vars "$out" A)$(vars "$out" B):$(session_of "$out")" \
	    "A=1B=2:$SESSION_VARS" \
	    "$fn, LD_PRELOAD=other: other variables kept, session restored"

	# Duplicates: ld.so uses the last, the shim leaves a single entry.
	out=$(in_session -e "LD_PRELOAD=$OTHER2" -e A=1 \
	    -e "LD_PRELOAD=$OTHER:$SHIM" $SESSION_OPTS "$fn" /usr/bin/env)
	is "$(vars "$out" LD_PRELOAD)" "LD_PRELOAD=$SHIM:$OTHER" \
	    "$fn, two LD_PRELOAD entries: merged into one, the shim first"

	# Session variables dropped or changed: their session values.
	out=$(in_session -e "LD_PRELOAD=$SHIM" -e MSPROF_EXEC_SESSION=/elsewhere \
	    -e "MSPROF_EXEC_MATCH=launcher=bash" -e "MSPROF_EXEC_SHIM=$SHIM" \
	    "$fn" /usr/bin/env)
	is "$(session_of "$out"):$(vars "$out" LD_PRELOAD)" \
	    "$SESSION_VARS:LD_PRELOAD=$SHIM" \
	    "$fn, session variables changed or missing: session values"

	# All there, one changed: its session value.
	out=$(in_session -e "LD_PRELOAD=$SHIM" $(printf -- '-e\n%s\n' \
	    $SESSION_VARS | sed 's|^MSPROF_EXEC_SESSION=.*|&.elsewhere|') \
	    "$fn" /usr/bin/env)
	is "$(session_of "$out")" "$SESSION_VARS" \
	    "$fn, a session variable changed: its session value, once"

	# Nothing lost (the shim not even first): byte for byte, and the same
	# as without the shim in the caller.
	opts=$(printf -- '-e\n%s\n' Z=1 "LD_PRELOAD=$OTHER:$SHIM" \
	    $(printf '%s\n' "$SESSION_VARS" | sort -r) 'A=two words')
	IFS=$'\n'
	out=$(in_session $opts "$fn" /usr/bin/env)
	ref=$("$EXECS" $opts "$fn" /usr/bin/env)
	ref=$(without_report "$ref")
	unset IFS
	is "$out" "$(printf '%s\n' Z=1 "LD_PRELOAD=$OTHER:$SHIM" \
	    $(printf '%s\n' "$SESSION_VARS" | sort -r) 'A=two words')" \
	    "$fn, nothing lost: the environment is passed as it is"
	is "$out" "$ref" "$fn, nothing lost: same as without the shim"
done

# The functions that pass environ, after the program changed it.
for fn in $ENVIRON_FUNCS; do
	out=$(in_session -u LD_PRELOAD "$fn" /usr/bin/env)
	is "$(vars "$out" LD_PRELOAD):$(session_of "$out")" \
	    "LD_PRELOAD=$SHIM:$SESSION_VARS" \
	    "$fn, LD_PRELOAD unset: put back"
	out=$(in_session -s "LD_PRELOAD=$OTHER" "$fn" /usr/bin/env)
	is "$(vars "$out" LD_PRELOAD)" "LD_PRELOAD=$SHIM:$OTHER" \
	    "$fn, LD_PRELOAD=other set: the shim first, the other kept"
	out=$(in_session -u MSPROF_EXEC_SESSION -s MSPROF_EXEC_MATCH=x \
	    "$fn" /usr/bin/env)
	is "$(session_of "$out")" "$SESSION_VARS" \
	    "$fn, session variables unset or changed: session values"
	out=$(in_session -s MSPROF_EXEC_MATCH=x "$fn" /usr/bin/env)
	is "$(session_of "$out")" "$SESSION_VARS" \
	    "$fn, a session variable changed: its session value"
	# Nothing lost: exactly the caller's environment, in its order.
	list=$(printf '%s\n' A=1 "LD_PRELOAD=$SHIM" $SESSION_VARS "PATH=$PATH")
	IFS=$'\n'
	out=$(/usr/bin/env -i $list "$EXECS" "$fn" /usr/bin/env)
	unset IFS
	is "$out" "$list" "$fn, nothing lost: environ passed as it is"
done

# Real programs that drop the shim upstream of a launcher.
out=$(in_session execvp env -i /usr/bin/env)
sort_lines got "$out"
sort_lines want "$SESSION_VARS" "LD_PRELOAD=$SHIM"
is "$got" "$want" \
    "env -i: the next program still gets the shim and the session"
out=$(in_session execv /bin/sh -c "LD_PRELOAD=$OTHER; export LD_PRELOAD
unset MSPROF_EXEC_SESSION; exec /usr/bin/env")
is "$(vars "$out" LD_PRELOAD):$(session_of "$out")" \
    "LD_PRELOAD=$SHIM:$OTHER:$SESSION_VARS" \
    "sh: export LD_PRELOAD=other; unset a session variable: put back"

# Both preloads are really loaded, in the child and in its children.
maps=$(in_session -e "LD_PRELOAD=$OTHER" posix_spawn /bin/cat /proc/self/maps)
like "$maps" "/${SHIM##*/}$" "co-resident preload: the shim is loaded"
like "$maps" "/other\.so$" "co-resident preload: the other is loaded too"
maps=$(in_session -e "LD_PRELOAD=$OTHER" -e PATH=/usr/bin:/bin execve \
    /bin/sh -c 'cat /proc/self/maps')
like "$maps" "/${SHIM##*/}$" "the grandchild loads the shim"
like "$maps" "/other\.so$" "the grandchild loads the other preload"
out=$(in_session -e "LD_PRELOAD=$OTHER" -e PATH=/usr/bin:/bin execve \
    /bin/sh -c 'echo $LD_PRELOAD' 2>&1)
is "$out" "$SHIM:$OTHER" "no loader warnings, LD_PRELOAD as put back"
done_testing
