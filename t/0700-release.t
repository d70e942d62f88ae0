#!/usr/bin/env bash
# The release (make release): every ELF file of both tarballs needs no
# glibc symbol newer than 2.17, the shim only glibc's libraries, the
# launcher and the injector nothing (static); the x86_64 tarball, unpacked
# alone with the checkout hidden, profiles the simulated MindSpeed-LLM and
# MindSpeed-MM examples from a minimal environment; the aarch64 tarball
# passes cross-check's smoke test under qemu-user; the packages carry the
# same files and version.  Skipped when the release is not built.
. "$(dirname "$0")/lib.sh"

unset MAKEFLAGS MFLAGS MAKELEVEL
REL=${REL_B:-$TOP/build-release}
VERSION=$(sed -n 's/^VERSION *= *//p' "$TOP/Makefile")
tarball() { echo "$REL/msprof-exec-$VERSION-linux-$1.tar.gz"; }
[ -f "$(tarball x86_64)" ] && [ -f "$(tarball aarch64)" ] ||
    skip_all "no release tarballs in $REL: make release"
command -v readelf > /dev/null || skip_all "no readelf (binutils)"
GLIBC_MAX=2.17

# --- The binaries of each tarball --------------------------------------------

# The glibc symbol versions FILE needs, newest last.
glibc_versions() {
	readelf -W -V --dyn-syms "$1" 2>/dev/null | grep -o 'GLIBC_[0-9][0-9.]*' |
	    sed 's/GLIBC_//' | sort -u -V
}
needed() { readelf -W -d "$1" 2>/dev/null | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | sort; }
interp() { readelf -W -l "$1" 2>/dev/null | grep -c 'program interpreter'; }
newer_than() {	# newer_than MAX VERSION...: those newer than MAX
	local max=$1 v
	shift
	for v; do
		[ "$(printf '%s\n%s\n' "$v" "$max" | sort -V | tail -n 1)" = "$max" ] ||
		    echo "$v"
	done
}

for arch in x86_64 aarch64; do
	U=$T/unpacked-$arch
	mkdir -p "$U"
	tar -C "$U" -xzf "$(tarball "$arch")"
	top=$U/msprof-exec-$VERSION-linux-$arch
	ok "$([ -d "$top" ]; echo $?)" "$arch: one top directory named like the tarball"
	case $arch in
	x86_64) mach='X86-64' ;;
	aarch64) mach='AArch64' ;;
	esac
	elves=
	for f in $(cd "$top" && find . -type f | sed 's|^\./||' | sort); do
		[ "$(head -c 4 "$top/$f" | od -An -c | tr -d ' ')" = '177ELF' ] &&
		    elves="$elves $f"
	done
	is "$elves" " bin/msprof-exec lib/msprof-exec/msprof-exec-inject lib/msprof-exec/msprof-exec-shim.so" \
	    "$arch: the ELF files are the launcher, the injector and the shim"
	for f in $elves; do
		p=$top/$f
		like "$(readelf -h "$p" | grep Machine:)" "$mach" "$arch $f: built for $arch"
		too_new=$(newer_than "$GLIBC_MAX" $(glibc_versions "$p"))
		is "$too_new" "" "$arch $f: no GLIBC_ version newer than $GLIBC_MAX"
		is "$(readelf -W -V --dyn-syms "$p" 2>/dev/null | grep -c GLIBC_PRIVATE)" 0 \
		    "$arch $f: no GLIBC_PRIVATE symbol"
		case $f in
		*.so)
			libs=$(needed "$p" | grep -Ev '^(libc\.so\.6|libdl\.so\.2|ld-linux[-a-z0-9_.]*\.so\.[12])$')
			is "$libs" "" "$arch $f: NEEDED only glibc's libraries"
			like "$(needed "$p" | tr '\n' ' ')" 'libc\.so\.6' "$arch $f: NEEDED libc.so.6" ;;
		*)
			is "$(needed "$p")" "" "$arch $f: NEEDED nothing (static)"
			is "$(interp "$p")" 0 "$arch $f: no program interpreter (static)" ;;
		esac
	done
	for f in README LICENSES/cJSON LICENSES/libyaml LICENSES/libbsd \
	    LICENSES/libmd LICENSES/sqlite LICENSES/glibc share/msprof-exec/launchers.conf \
	    share/man/man1/msprof-exec.1 share/man/man5/msprof-exec-launchers.5 \
	    share/man/man7/msprof-exec-summary.7 \
	    share/bash-completion/completions/msprof-exec \
	    share/locale/zh_CN/LC_MESSAGES/msprof-exec.mo; do
		ok "$([ -s "$top/$f" ]; echo $?)" "$arch: $f"
	done
done

# --- The x86_64 tarball alone, the checkout out of reach ---------------------

if [ "$(uname -m)" != x86_64 ]; then
	skip "the x86_64 runs need an x86_64 machine"
	done_testing
fi
X=$T/x86/empty
mkdir -p "$X" "$T/x86/home"
is "$(ls -A "$X")" "" "an empty directory to unpack into"
tar -C "$X" -xzf "$(tarball x86_64)"
P=$X/msprof-exec-$VERSION-linux-x86_64
cp -R "$TOP/sim" "$T/x86/sim"
# The zh_CN.UTF-8 locale (t/lib.sh's, kept in the build directory) copied
# to where the run below can reach it.
mkdir -p "$T/x86/locale"
zh_locale && cp -R "$ZH_LOCPATH/zh_CN.UTF-8" "$T/x86/locale/"

# Run inside a mount namespace with an empty file system over the checkout
# (the release build included), so nothing in it can be reached.
cat > "$T/x86/run.sh" <<EOS
#!/bin/bash
cd "$T/x86"
[ -e "$TOP/Makefile" ] && echo visible > hidden || echo hidden > hidden
run() {	# run NAME DIR CMD...: from DIR, with a minimal environment
	name=\$1 dir=\$2
	shift 2
	(cd "\$dir" && env -i PATH=/usr/bin:/bin HOME="$T/x86/home" \
	    MSPROF_SIM_TORCH=stub MASTER_PORT=$(free_port) \
	    bash -c 'SIM_ROOT=$T/x86/sim; . "\$SIM_ROOT/activate"; "\$@"' run "\$@" \
	    > "$T/x86/\$name.out" 2>&1; echo \$? > "$T/x86/\$name.rc")
}
run version "$T/x86" "$P/bin/msprof-exec" -V
run llm-dry "$T/x86/sim/mindspeed-llm" "$P/bin/msprof-exec" -n \
    --cann-env "$T/x86/sim/ascend/ascend-toolkit/set_env.sh" \
    bash examples/mcore/qwen3/pretrain_qwen3_8b_4K_ptd.sh
run llm "$T/x86/sim/mindspeed-llm" "$P/bin/msprof-exec" -y \
    --cann-env "$T/x86/sim/ascend/ascend-toolkit/set_env.sh" \
    bash examples/mcore/qwen3/pretrain_qwen3_8b_4K_ptd.sh
run mm-dry "$T/x86/sim/mindspeed-mm" "$P/bin/msprof-exec" -n \
    bash examples/qwen3vl/finetune_qwen3vl_8B.sh
run mm "$T/x86/sim/mindspeed-mm" "$P/bin/msprof-exec" -y --skip-checks \
    --train-iters keep bash examples/qwen3vl/finetune_qwen3vl_8B.sh
run zh "$T/x86" env LOCPATH="$T/x86/locale" LANG=zh_CN.UTF-8 \
    "$P/bin/msprof-exec" --bogus
EOS
case "$TOP/" in
"$T"/*) hide= ;;
*) hide="mount -t tmpfs none '$TOP' && exec bash '$T/x86/run.sh'" ;;
esac
if [ -n "$hide" ] && unshare -m true 2>/dev/null; then
	unshare -m sh -c "$hide"
elif [ -n "$hide" ] && unshare -rm true 2>/dev/null; then
	unshare -rm sh -c "$hide"
else
	bash "$T/x86/run.sh"
fi
hidden=$(cat "$T/x86/hidden" 2>/dev/null)
if [ "$hidden" = hidden ]; then
	pass "the runs saw no checkout at $TOP"
else
	skip "no mount namespace to hide the checkout (unshare -m): ran with it visible"
fi
res() { cat "$T/x86/$1.out" 2>/dev/null; }
rc() { cat "$T/x86/$1.rc" 2>/dev/null; }
check_rc() {	# check_rc NAME WANT TEXT
	is "$(rc "$1")" "$2" "$3"
	[ "$(rc "$1")" = "$2" ] || diag "$(res "$1" | tail -n 20)"
}

check_rc version 0 "unpacked: msprof-exec -V runs"
has_line "$(res version)" "msprof-exec $VERSION" "-V: the version of the tarball's name"
like "$(res version)" $'\n''revision: [0-9a-f]{7,}' "-V: the git revision it was built from"
has_line "$(res version)" "shim: $P/lib/msprof-exec/msprof-exec-shim.so" \
    "-V: the shim next to it, found from where it was unpacked"
has_line "$(res version)" "shim needs glibc $GLIBC_MAX or newer" "-V: the shim's glibc baseline"

check_rc llm-dry 0 "LLM dry run: exit 0"
like "$(res llm-dry)" '--profile --profile-step-start 2 --profile-step-end 4 --profile-ranks 0' \
    "LLM dry run: the profiling flags it would append"
check_rc llm 0 "LLM full run (torchrun, 2 ranks): exit 0"
L=$T/x86/sim/mindspeed-llm/profiling_output
is "$(ranks_in "$L")" 0 "LLM full run: rank 0 profiled"
is "$(steps_in "$L")" "1 2" "LLM full run: iterations 2 and 3 (ProfilerStep 1 and 2)"
like "$(parsed_in "$L")" 'op_statistic\.csv' "LLM full run: the data is parsed"
is "$(cat "$L"/msprof-exec_*/journal.jsonl 2>/dev/null | grep -c '"status":"injected"')" 1 \
    "LLM full run: the tarball's injector journaled the launch"
unlike "$(cat "$L"/msprof-exec_*/plan.json "$L"/msprof-exec_*/journal.jsonl 2>/dev/null)" \
    "$TOP/" "LLM full run: no path into the checkout in the session record"

check_rc mm-dry 0 "MM dry run: exit 0"
like "$(res mm-dry)" 'would write .*tools\.json -> SESSION/' "MM dry run: says which copies it would write"
check_rc mm 0 "MM full run: exit 0"
like "$(res mm)" 'rank 0: .*_ascend_pt' "MM full run: the report lists rank 0's data"
is "$(find "$T/x86/sim/mindspeed-mm" -name '*_ascend_pt' -type d | wc -l)" 1 \
    "MM full run: one *_ascend_pt directory was written"

if [ "$(LOCPATH=$T/x86/locale LC_ALL=zh_CN.UTF-8 locale charmap 2>/dev/null)" = UTF-8 ]; then
	is "$(res zh)" "msprof-exec: 未知选项 '--bogus'；请参阅 'msprof-exec --help'" \
	    "static launcher under zh_CN.UTF-8: the message is Chinese"
else
	skip "no zh_CN.UTF-8 locale (localedef -i zh_CN -f UTF-8 failed: package locales)"
fi

# --- The aarch64 tarball under qemu-user: cross-check's smoke test -----------

A=$T/unpacked-aarch64/msprof-exec-$VERSION-linux-aarch64
AH=$REL/aarch64/build/t/helpers
if ! command -v qemu-aarch64 > /dev/null || [ ! -x "$AH/execs" ]; then
	skip "aarch64 smoke: needs qemu-aarch64 (make cross-deps) and make release"
else
	mkdir -p "$A/t"
	cp -R "$AH" "$A/t/helpers"
	make -s -C "$TOP" REL_B="$REL" release-smoke-script > "$T/smoke-make.log" 2>&1
	CROSS_TOP=$TOP CROSS_B=$A CROSS_TRIPLE=aarch64-linux-gnu \
	    CROSS_QEMU="qemu-aarch64 -L /usr/aarch64-linux-gnu" \
	    CROSS_GLIBC_MAX=$GLIBC_MAX bash "$REL/aarch64-smoke.t" > "$T/smoke.out" 2>&1
	src=$?
	oks=$(grep -c '^ok ' "$T/smoke.out")
	nots=$(grep -c '^not ok ' "$T/smoke.out")
	ok "$([ "$src" -eq 0 ] && [ "$nots" -eq 0 ] && [ "$oks" -ge 10 ]; echo $?)" \
	    "aarch64 tarball under qemu: the shim, injector and launcher smoke test ($oks passed, $nots failed)"
	[ "$src" -eq 0 ] && [ "$nots" -eq 0 ] || diag "$(cat "$T/smoke-make.log" "$T/smoke.out")"
fi

# --- The packages ------------------------------------------------------------

DEB=$REL/msprof-exec_${VERSION}_amd64.deb
if command -v dpkg-deb > /dev/null && [ -f "$DEB" ]; then
	is "$(dpkg-deb -f "$DEB" Version)" "$VERSION" ".deb: the tarball's version"
	files=$(dpkg-deb -c "$DEB" | awk '$1 !~ /^d/ { print $6 }' | sed 's|^\./||' | sort)
	for f in usr/bin/msprof-exec usr/lib/msprof-exec/msprof-exec-inject \
	    usr/lib/msprof-exec/msprof-exec-shim.so usr/share/msprof-exec/launchers.conf \
	    usr/share/man/man1/msprof-exec.1.gz usr/share/man/man5/msprof-exec-launchers.5.gz \
	    usr/share/man/man7/msprof-exec-summary.7.gz \
	    usr/share/bash-completion/completions/msprof-exec \
	    usr/share/locale/zh_CN/LC_MESSAGES/msprof-exec.mo; do
		has_line "$files" "$f" ".deb: /$f"
	done
else
	skip ".deb: no dpkg-deb or no $DEB"
fi
for arch in x86_64 aarch64; do
	RPM=$REL/msprof-exec-$VERSION-1.$arch.rpm
	if ! command -v rpm > /dev/null || [ ! -f "$RPM" ]; then
		skip ".rpm $arch: no rpm or no $RPM"
		continue
	fi
	is "$(rpm -qp --qf '%{VERSION} %{ARCH}' "$RPM" 2>/dev/null)" "$VERSION $arch" \
	    ".rpm $arch: the tarball's version and the architecture"
	files=$(rpm -qlp "$RPM" 2>/dev/null)
	for f in /usr/bin/msprof-exec /usr/lib/msprof-exec/msprof-exec-inject \
	    /usr/lib/msprof-exec/msprof-exec-shim.so /usr/share/msprof-exec/launchers.conf \
	    /usr/share/man/man1/msprof-exec.1 /usr/share/man/man5/msprof-exec-launchers.5 \
	    /usr/share/man/man7/msprof-exec-summary.7 \
	    /usr/share/bash-completion/completions/msprof-exec \
	    /usr/share/locale/zh_CN/LC_MESSAGES/msprof-exec.mo; do
		has_line "$files" "$f" ".rpm $arch: $f"
	done
	unlike "$files" '^/usr/(lib64|local)|build-release' ".rpm $arch: nothing outside its places"
	req=$(rpm -qp --requires "$RPM" 2>/dev/null)
	is "$(printf '%s\n' "$req" | grep -Ev '^(libc\.so\.6|libdl\.so\.2|ld-linux[^ ]*|rtld\(GNU_HASH\)|rpmlib\(.*)' )" "" \
	    ".rpm $arch: requires only glibc (and rpm's own features)"
	like "$req" 'libc\.so\.6' ".rpm $arch: requires libc.so.6"
	is "$(newer_than "$GLIBC_MAX" $(printf '%s\n' "$req" | grep -o 'GLIBC_[0-9.]*' | sed 's/GLIBC_//' | sort -u))" "" \
	    ".rpm $arch: no glibc version newer than $GLIBC_MAX required"
done

done_testing
