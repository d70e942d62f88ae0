#!/usr/bin/env bash
# make deps (.ci/deps.sh) on a dnf or yum system, with stand-ins for dnf,
# yum and rpm on a PATH without apt-get: the package names it asks for,
# one at a time; what the repositories lack is named; a missing library
# leads to the source build (.ci/deps-src.sh), which names the source to
# unpack beside the tree; a missing compiler is an error.
. "$(dirname "$0")/lib.sh"

TREE=$T/tree
mkdir -p "$TREE/.ci" "$T/fake"
cp "$TOP/.ci/deps.sh" "$TOP/.ci/deps-src.sh" "$TREE/.ci/"
# Only these tools, so that apt-get is not found.
for tool in sh bash dirname basename grep sed cat rm mkdir cp id ar cc; do
	p=$(command -v "$tool") && ln -s "$p" "$T/fake/$tool"
done
# rpm -q --whatprovides NAME: installed when listed in $INSTALLED.
cat > "$T/fake/rpm" <<'EOS'
#!/bin/sh
eval "n=\${$#}"
case " $INSTALLED " in *" $n "*) exit 0 ;; esac
exit 1
EOS
# dnf|yum install -y -q NAME: logged; fails for names in $ABSENT.
cat > "$T/fake/dnf" <<'EOS'
#!/bin/sh
eval "n=\${$#}"
echo "${0##*/} $*" >> "$PMLOG"
case " $ABSENT " in *" $n "*) exit 1 ;; esac
exit 0
EOS
cp "$T/fake/dnf" "$T/fake/yum.real"
printf '#!/bin/sh\nexec "$@"\n' > "$T/fake/sudo"
# pkg-config: finds the packages listed in $PC.
cat > "$T/fake/pkg-config" <<'EOS'
#!/bin/sh
eval "n=\${$#}"
case " $PC " in *" $n "*) exit 0 ;; esac
exit 1
EOS
chmod +x "$T/fake"/*
export PMLOG=$T/pm.log

deps() {	# deps: run .ci/deps.sh with the stand-ins; sets out, rc
	: > "$PMLOG"
	out=$(env PATH="$T/fake" PMLOG="$PMLOG" INSTALLED="$INSTALLED" \
	    ABSENT="$ABSENT" PC="$PC" sh "$TREE/.ci/deps.sh" 2>&1)
	rc=$?
}

# Everything available (openEuler 22.03): each package installed by name.
INSTALLED="gcc make" ABSENT= PC="libcjson yaml-0.1 libbsd-overlay"
deps
is "$rc" 0 "dnf, everything available: exit 0"
is "$(cut -d' ' -f5 "$PMLOG" | tr '\n' ' ')" \
    "pkgconfig cjson-devel libyaml-devel libbsd-devel sqlite-devel libxml2 gettext python3 perl perl-Test-Harness bash-completion strace xz " \
    "dnf: the RPM names, one install each, the installed ones (gcc, make) skipped"
like "$(head -n 1 "$PMLOG")" '^dnf install -y -q ' "dnf install -y -q NAME"

# CentOS 7 without EPEL: yum, no cjson-devel and libbsd-devel.
rm "$T/fake/dnf"
mv "$T/fake/yum.real" "$T/fake/yum"
INSTALLED= ABSENT="cjson-devel libbsd-devel" PC="yaml-0.1"
deps
like "$(head -n 1 "$PMLOG")" '^yum install -y -q gcc$' "no dnf: yum"
has_line "$out" "not available from yum here: cjson-devel libbsd-devel" \
    "the packages the repositories lack are named"
like "$out" 'deps-src: no source beside the tree .*cJSON\(\.\./cJSON-VERSION\).*libbsd\(\.\./libbsd-VERSION\)' \
    "the source build names the sources to unpack beside the tree"
unlike "$out" 'libyaml\(' "... but not libyaml, which pkg-config finds"
ok "$([ "$rc" -ne 0 ]; echo $?)" "libraries missing, no source: deps.sh fails"

# No compiler at all: an error.
ABSENT="gcc" PC="libcjson yaml-0.1 libbsd-overlay"
deps
ok "$([ "$rc" -ne 0 ]; echo $?)" "gcc not available: deps.sh fails"
has_line "$out" "  gcc: install it by hand (needed to build)" "... and says to install gcc by hand"

# Neither apt-get nor dnf nor yum.
rm "$T/fake/yum"
deps
ok "$([ "$rc" -ne 0 ]; echo $?)" "no package manager: deps.sh fails"
like "$out" 'neither apt-get nor dnf nor yum' "... and says what to install"

done_testing
