#!/usr/bin/env bash
# make install into a DESTDIR with another PREFIX: the file list, then the
# INSTALLED msprof-exec end to end (it finds its shim, injector and launch
# table next to itself, not in build/), then make uninstall leaves no file.
. "$(dirname "$0")/lib.sh"

# A make started from make check must not reuse the parent's jobserver.
unset MAKEFLAGS MFLAGS MAKELEVEL
ROOT=$T/root
INST=$ROOT/opt/msprof
mk() { make -C "$TOP" "$@" DESTDIR="$ROOT" PREFIX=/opt/msprof > "$T/make.log" 2>&1; }

mk install
rc=$?
is "$rc" 0 "make install DESTDIR=... PREFIX=/opt/msprof"
[ "$rc" -eq 0 ] || diag "$(tail -n 20 "$T/make.log")"

# The catalogues the build made are installed too.
want="/opt/msprof/bin/msprof-exec
/opt/msprof/lib/msprof-exec/msprof-exec-inject
/opt/msprof/lib/msprof-exec/msprof-exec-shim-glibc2.34.so
/opt/msprof/lib/msprof-exec/msprof-exec-shim.so
/opt/msprof/share/bash-completion/completions/msprof-exec
/opt/msprof/share/man/man1/msprof-exec.1
/opt/msprof/share/man/man5/msprof-exec-launchers.5
/opt/msprof/share/man/man7/msprof-exec-summary.7
/opt/msprof/share/msprof-exec/launchers.conf
/opt/msprof/share/msprof-exec/trainings.conf"
if [ -d "$B/share/locale" ]; then
	want="$want
$(cd "$B/share/locale" && find . -type f | sed 's|^\./|/opt/msprof/share/locale/|')"
fi
want=$(printf '%s\n' "$want" | sort)
got=$(cd "$ROOT" && find . ! -type d | sed 's|^\.||' | sort)
is "$got" "$want" "the installed files"
ok "$([ -x "$INST/bin/msprof-exec" ] && [ -x "$INST/lib/msprof-exec/msprof-exec-inject" ]; echo $?)" \
    "the launcher and the injector are executable"
is "$(stat -c %a "$INST/lib/msprof-exec/msprof-exec-shim.so")" 644 "the shim: mode 644"
is "$(stat -c %a "$INST/share/msprof-exec/launchers.conf")" 644 "launchers.conf: mode 644"
ok "$(cmp -s "$TOP/config/launchers.conf" "$INST/share/msprof-exec/launchers.conf"; echo $?)" \
    "launchers.conf is config/launchers.conf"
ok "$(cmp -s "$TOP/config/trainings.conf" "$INST/share/msprof-exec/trainings.conf"; echo $?)" \
    "trainings.conf is config/trainings.conf"
ok "$(cmp -s "$TOP/completion/msprof-exec" "$INST/share/bash-completion/completions/msprof-exec"; echo $?)" \
    "the completion is installed under the command's name"

# The shim msprof-exec preloads: without libdl.so.2 from glibc 2.34 on.
v=$(getconf GNU_LIBC_VERSION | sed 's/^glibc //')
case "$v" in
2.[0-9]|2.[12][0-9]|2.3[0-3]) ISHIM=msprof-exec-shim.so ;;
*) ISHIM=msprof-exec-shim-glibc2.34.so ;;
esac

# Relocated: --version names the installed shim.
out=$("$INST/bin/msprof-exec" --version 2>&1)
like "$out" '^msprof-exec [0-9]' "installed --version: the version"
has_line "$out" "shim: $INST/lib/msprof-exec/$ISHIM" \
    "installed --version: the installed shim"
# Built in a git checkout: -V names the commit (the object that prints
# it must be the one the revision is compiled into).
if git -C "$TOP" rev-parse --git-dir >/dev/null 2>&1; then
    like "$out" $'\n''revision: [0-9a-f]{7,}' "--version in a git checkout: the revision"
else
    skip "not a git checkout"
fi

# End to end with the installed files: a script whose launch is rewritten,
# and a program before it that keeps the installed shim.
make_recorder torchrun
export PATH="$RBIN:$PATH"
printf '%s\n' 'env > env.txt' 'torchrun --nproc_per_node 2 pretrain_gpt.py --lr 1' > train.sh
"$INST/bin/msprof-exec" --skip-checks -y bash train.sh > "$T/.out" 2> "$T/.err"
rc=$?
is "$rc" 0 "installed msprof-exec bash train.sh: exit status"
[ "$rc" -eq 0 ] || diag "$(<"$T/.err")"
is "$(nrecorded)" 1 "installed: one launch recorded"
is "$(rec_argv)" "$RBIN/torchrun --nproc_per_node 2 pretrain_gpt.py --lr 1 $DEFAULT_FLAGS" \
    "installed: the profiling flags are appended"
unlike "$(rec_env "$(recorded)")" 'MSPROF_EXEC_|msprof-exec-shim' \
    "installed: the launcher runs without the shim"
has_line "$(cat env.txt 2>/dev/null)" "LD_PRELOAD=$INST/lib/msprof-exec/$ISHIM" \
    "installed: the script's programs carry the installed shim"
has_line "$(cat env.txt 2>/dev/null)" "MSPROF_EXEC_INJECTOR=$INST/lib/msprof-exec/msprof-exec-inject" \
    "installed: the installed injector is used"
is "$(njournal injected)" 1 "installed: the journal records the launch"
plan=$(cat profiling_output/msprof-exec_*/plan.json 2>/dev/null)
like "$plan" "\"shim\":[[:space:]]*\"$INST/lib/msprof-exec/$ISHIM\"" \
    "installed: plan.json names the installed shim"
if [ -e /etc/msprof-exec/launchers.conf ]; then
	skip "/etc/msprof-exec/launchers.conf overrides the installed table here"
else
	like "$plan" "\"launchtab\":[[:space:]]*\"$INST/share/msprof-exec/launchers.conf\"" \
	    "installed: plan.json names the installed launch table"
fi

# The prefix form runs the installed injector directly.
reset_run
"$INST/bin/msprof-exec" --skip-checks -y torchrun pretrain_gpt.py > "$T/.out" 2> "$T/.err"
is "$?:$(rec_argv)" "0:$RBIN/torchrun pretrain_gpt.py $DEFAULT_FLAGS" \
    "installed prefix form: rewritten by the installed injector"

# A moved installation still finds its files.
mv "$ROOT/opt/msprof" "$T/moved"
out=$("$T/moved/bin/msprof-exec" --version 2>&1)
has_line "$out" "shim: $T/moved/lib/msprof-exec/$ISHIM" \
    "moved installation: --version names the moved shim"
# A launch table larger than the shim's copy of its session variables is
# refused before anything runs, not silently left unmatched.
if [ -e /etc/msprof-exec/launchers.conf ]; then
	skip "/etc/msprof-exec/launchers.conf overrides the installed table here"
	skip "/etc/msprof-exec/launchers.conf overrides the installed table here"
else
	LT=$T/moved/share/msprof-exec/launchers.conf
	cp "$LT" "$T/lt.orig"
	for i in $(seq 700); do
		echo "entry some/long/path/to/an/entry_script_number_$i.py llm-mcore"
	done >> "$LT"
	reset_run
	"$T/moved/bin/msprof-exec" --skip-checks -y sh -c "torchrun pretrain_gpt.py" > /dev/null 2> "$T/.err"
	is "$?:$(nrecorded)" "78:0" "a launch table too large for the shim: exit 78, nothing ran"
	like "$(<"$T/.err")" "launchers.conf: the launch table is too large for the shim \([0-9]+ bytes of session variables, at most 16384\)" \
	    "a launch table too large for the shim: the message names the table and the limit"
	cp "$T/lt.orig" "$LT"
fi
mv "$T/moved" "$ROOT/opt/msprof"

mk uninstall
rc=$?
is "$rc" 0 "make uninstall with the same variables"
[ "$rc" -eq 0 ] || diag "$(tail -n 20 "$T/make.log")"
is "$(cd "$ROOT" && find . ! -type d)" "" "make uninstall leaves no file behind"
ok "$([ ! -e "$INST/lib/msprof-exec" ] && [ ! -e "$INST/share/msprof-exec" ]; echo $?)" \
    "make uninstall removes msprof-exec's own directories"

# Without PREFIX, the default is /usr/local (nothing is run: -n).
out=$(make -n -C "$TOP" install DESTDIR="$T/default" 2>&1)
like "$out" "$T/default/usr/local/bin/msprof-exec" "PREFIX defaults to /usr/local"
like "$out" "$T/default/usr/local/share/bash-completion/completions/msprof-exec" \
    "bash completion goes to PREFIX/share/bash-completion/completions"
done_testing
