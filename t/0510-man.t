#!/usr/bin/env bash
# The man pages and the bash completion: mandoc finds nothing to say about
# the pages, every option in the code's option tables is documented in
# msprof-exec(1) and known to the completion (so they cannot drift apart),
# and the completion function completes options and their values.
. "$(dirname "$0")/lib.sh"

MAN1=$TOP/man/msprof-exec.1
MAN5=$TOP/man/msprof-exec-launchers.5
MAN7=$TOP/man/msprof-exec-summary.7
COMP=$TOP/completion/msprof-exec

# The long options of an option table: lines { "name", ..._argument, ... }.
long_options() {
	sed -n 's/^[[:space:]]*{ "\([a-z][a-z-]*\)",[[:space:]]*[a-z]*_argument.*/\1/p' "$@"
}

# --- mandoc and the options --------------------------------------------------
# A word: not followed by more of an option name.  (As grep -E would find
# it in a line: the line's start and end are the text's or a newline, which
# the brackets also match; the shell's regex, no process, as it is asked
# hundreds of times.)
has_option() {
	local re="(^|[^a-z-])$2([^a-z_-]|\$)"
	[[ $1 =~ $re ]]
}
slurp comp "$COMP"

opts=$(long_options "$TOP/launcher/options.c")
ok "$([ "$(printf '%s\n' "$opts" | wc -l)" -ge 20 ]; echo $?)" \
    "the option table of launcher/options.c is read ($(printf '%s\n' $opts | wc -l) options)"
missing_comp=
for o in $opts; do
	has_option "$comp" "--$o" || missing_comp="$missing_comp --$o"
done
is "$missing_comp" "" "every option of launcher/options.c is in the completion"
# The subcommands' own tables (FOLDER/FILE.c: SUBCOMMAND).
SUBS="launcher/trigger:trigger report/report:report report/compare:compare launcher/analyse:analyse launcher/tune:tune"
for f in $SUBS; do
	missing_comp=
	for o in $(long_options "$TOP/${f%%:*}.c"); do
		has_option "$comp" "--$o" || missing_comp="$missing_comp --$o"
	done
	is "$missing_comp" "" "msprof-exec ${f#*:}: its options are in the completion"
done

# --- the subcommands: one table, and the lists that must follow it ---------
# The table of launcher/commands.c, as msprof-exec --help shows it: a
# synopsis line a subcommand.
help=$("$MSPROF" --help)
cmds=$(printf '%s\n' "$help" | sed -n 's/^       msprof-exec \([a-z][a-z-]*\) .*/\1/p')
ok "$([ "$(printf '%s\n' "$cmds" | wc -l)" -ge 4 ]; echo $?)" \
    "msprof-exec --help lists the subcommands ($(echo $cmds))"
# Each subcommand's own usage is the synopsis --help shows for it.
bad_usage=
for c in $cmds; do
	own=$("$MSPROF" "$c" --help 2> /dev/null | sed -n 's/^usage: //p')
	printf '%s\n' "$help" | grep -qxF "       $own" || bad_usage="$bad_usage $c"
done
is "$bad_usage" "" "each subcommand's --help usage is its line of msprof-exec --help"
comp_cmds=$(bash -c '. "$1"; printf "%s\n" $_msprof_exec_commands' x "$COMP")
is "$(echo $comp_cmds)" "$(echo $cmds)" \
    "the completion's subcommands are those of msprof-exec --help, in its order"
# The man page's SYNOPSIS (.Nm then .Cm NAME) and its Subcommands list.
syn=$(sed -n '/^\.Sh SYNOPSIS/,/^\.Sh DESCRIPTION/p' "$MAN1" |
    awk 'prev == ".Nm" && $1 == ".Cm" { print $2 } { prev = $0 }')
is "$(echo $syn)" "$(echo $cmds)" \
    "msprof-exec.1's SYNOPSIS lists the subcommands of msprof-exec --help, in its order"
items=$(sed -n '/^\.Ss Subcommands/,/^\.El/s/^\.It Nm Cm \([a-z][a-z-]*\).*/\1/p' "$MAN1")
is "$(echo $items)" "$(echo $cmds)" \
    "msprof-exec.1's Subcommands describe those of msprof-exec --help, in its order"

if command -v mandoc > /dev/null; then
	for page in "$MAN1" "$MAN5" "$MAN7"; do
		out=$(mandoc -T lint -W warning "$page" 2>&1)
		rc=$?
		is "$rc:$out" "0:" "mandoc -T lint -W warning ${page#"$TOP"/}"
	done
	# The page as read (bold and underline removed).
	text=$(mandoc -T ascii "$MAN1" | sed 's/.\x08//g')
	missing_man=
	for o in $opts; do
		has_option "$text" "--$o" || missing_man="$missing_man --$o"
	done
	is "$missing_man" "" "every option of launcher/options.c is in msprof-exec.1"
	for f in $SUBS; do
		sub=${f#*:}
		missing_man=
		for o in $(long_options "$TOP/${f%%:*}.c"); do
			[ "$sub:$o" = trigger:help ] && continue
			has_option "$text" "--$o" || missing_man="$missing_man --$o"
		done
		is "$missing_man" "" "msprof-exec $sub: its options are in msprof-exec.1"
		like "$text" "msprof-exec $sub" "msprof-exec $sub is in the SYNOPSIS"
	done
	# Short options: each letter of the getopt string is documented.
	shorts=$(sed -n 's/.*getopt_long(argc, argv, "+:\([a-zA-Z:]*\)".*/\1/p' \
	    "$TOP/launcher/options.c" | tr -d ':' | sed 's/./& /g')
	missing_man=
	for s in $shorts; do
		has_option "$text" "-$s," || missing_man="$missing_man -$s"
	done
	is "$missing_man" "" "every short option is in msprof-exec.1 ($shorts)"
	# The exit statuses.
	heads=$(printf '%s\n' "$text" | sed 's/^ *//' | cut -c1-2)
	for st in 64 65 66 69 73 78; do
		has_line "$heads" "$st" "EXIT STATUS documents $st"
	done
else
	for i in $(seq 19); do
		skip "mandoc is not installed (Debian: mandoc)"
	done
fi

# --- the completion -------------------------------------------------------
# complete_lines INIT LINE...: what the function offers for each LINE
# (cursor at the end), one candidate a line, in COMPLETIONS[INIT|LINE];
# INIT is bash-completion's script or "" for none.  Word splitting as
# readline does for these lines.  One bash reads the scripts for all the
# lines (bash-completion is long to read), each line is completed in a
# subshell of its own, as fresh as a bash of its own.
declare -A COMPLETIONS
complete_lines() {
	local init=$1 text line rec= i=0 lines=("${@:2}")
	text=$(bash -c '
		[ -n "$1" ] && . "$1" > /dev/null 2>&1
		. "$2" || exit 1
		shift 2
		for line in "$@"; do
			(
			read -ra COMP_WORDS <<< "$line"
			[[ $line == *" " ]] && COMP_WORDS+=("")
			COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
			COMP_LINE=$line COMP_POINT=${#line}
			COMPREPLY=()
			_msprof_exec msprof-exec "${COMP_WORDS[COMP_CWORD]}" \
			    "${COMP_WORDS[COMP_CWORD-1]}" 2> /dev/null
			printf "%s\n" "${COMPREPLY[@]}" | sort -u
			)
			echo "--end--"
		done
	' complete "$init" "$COMP" "${lines[@]}" 2> /dev/null)
	while IFS= read -r line; do
		if [ "$line" = --end-- ]; then
			COMPLETIONS[$init|${lines[i]}]=${rec%$'\n'}
			rec=
			i=$((i + 1))
		else
			rec+=$line$'\n'
		fi
	done <<< "$text"
}
# complete_line INIT LINE: one of them.
complete_line() { printf '%s' "${COMPLETIONS[$1|$2]-}"; }
levels=$(printf '%s\n' level0 level1 level2 level_none | sort)

BASH_COMPLETION=/usr/share/bash-completion/bash_completion
if [ -r "$BASH_COMPLETION" ]; then
	with=$BASH_COMPLETION
	mkdir -p out.d && : > train.sh
	complete_lines "$with" "msprof-exec --le" "msprof-exec --level " \
	    "msprof-exec -l level2 --with cpu,st" "msprof-exec --export-type " \
	    "msprof-exec tri" "msprof-exec trigger --now --" \
	    "msprof-exec -y bash tra" "msprof-exec --output out"
	is "$(complete_line "$with" "msprof-exec --le")" "--level" \
	    "with bash-completion: msprof-exec --le<TAB> gives --level"
	is "$(complete_line "$with" "msprof-exec --level ")" "$levels" \
	    "with bash-completion: msprof-exec --level <TAB> gives the four levels"
	is "$(complete_line "$with" "msprof-exec -l level2 --with cpu,st")" "cpu,stack" \
	    "with bash-completion: --with completes a comma list"
	is "$(complete_line "$with" "msprof-exec --export-type ")" "$(printf 'db\ntext')" \
	    "with bash-completion: --export-type values"
	is "$(complete_line "$with" "msprof-exec tri")" "trigger" \
	    "with bash-completion: the subcommand trigger"
	is "$(complete_line "$with" "msprof-exec trigger --now --")" "$(printf -- '--active\n--help')" \
	    "with bash-completion: trigger --now excludes --start"
	is "$(complete_line "$with" "msprof-exec -y bash tra")" "train.sh" \
	    "with bash-completion: the command's arguments complete as files"
	is "$(complete_line "$with" "msprof-exec --output out")" "out.d" \
	    "with bash-completion: --output completes a directory"
else
	for i in 1 2 3 4 5 6 7 8; do
		skip "bash-completion is not installed (Debian: bash-completion)"
	done
fi

# Without bash-completion's helpers the function works too.
alone=("msprof-exec --le" "msprof-exec --level " "msprof-exec --existing " \
    "msprof-exec report --" "msprof-exec compare --" "msprof-exec compa")
for c in $cmds; do
	alone+=("msprof-exec ${c%?}" "msprof-exec $c --")
done
complete_lines "" "${alone[@]}"
is "$(complete_line "" "msprof-exec --le")" "--level" \
    "alone: msprof-exec --le<TAB> gives --level"
is "$(complete_line "" "msprof-exec --level ")" "$levels" \
    "alone: msprof-exec --level <TAB> gives the four levels"
is "$(complete_line "" "msprof-exec --existing ")" "$(printf 'ask\nkeep\noverride')" \
    "alone: --existing values"
is "$(complete_line "" "msprof-exec report --")" "$(printf -- '--html\n--json\n--quiet\n--verbose')" \
    "alone: report options"
is "$(complete_line "" "msprof-exec compare --")" "$(printf -- '--help\n--html\n--json')" \
    "alone: compare options"
has_line "$(complete_line "" "msprof-exec compa")" "compare" \
    "alone: the subcommand compare is offered"
# Each subcommand of --help is offered, and its options completed.
unoffered= unknown=
for c in $cmds; do
	has_option "$(complete_line "" "msprof-exec ${c%?}")" "$c" ||
	    unoffered="$unoffered $c"
	[ -n "$(complete_line "" "msprof-exec $c --")" ] || unknown="$unknown $c"
done
is "$unoffered" "" "alone: each subcommand of msprof-exec --help is offered"
is "$unknown" "" "alone: each subcommand's options are completed"
out=$(bash -c '. "$1"; complete -p msprof-exec' x "$COMP" 2>&1)
is "$out" "complete -F _msprof_exec msprof-exec" "sourcing it registers the function"
done_testing
