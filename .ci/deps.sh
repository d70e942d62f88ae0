#!/bin/sh
# Install what msprof-exec needs to build and test.
#   sh .ci/deps.sh          build and test dependencies
#   sh .ci/deps.sh --full   Debian only: also python3-torch (the real
#                           torchrun test; about 1 GB), the tools CI uses and
#                           what make release needs (aarch64 cross compiler
#                           and libraries, qemu-user, rpm)
# Debian and Ubuntu: apt-get.  openEuler, Kylin, CentOS/RHEL, Fedora: dnf or
# yum; what the system does not package is named, and a library among them
# is built from its source unpacked beside the tree (.ci/deps-src.sh).
set -eu
if [ "$(id -u)" -eq 0 ]; then sudo=; else sudo=sudo; fi
here=$(cd "$(dirname "$0")" && pwd)

debian() {
	pkgs="build-essential pkg-config libcjson-dev libyaml-dev libbsd-dev
	      libsqlite3-dev libxml2-utils gettext locales python3 dash perl
	      mandoc bash-completion strace xz-utils"
	if [ "${1:-}" = --full ]; then
		pkgs="$pkgs python3-torch valgrind clang libclang-rt-14-dev
		      llvm bear rpm dpkg-dev qemu-user gcc-aarch64-linux-gnu
		      binutils-aarch64-linux-gnu libc6-dev-arm64-cross
		      libcjson-dev:arm64 libyaml-dev:arm64 libbsd-dev:arm64
		      libsqlite3-dev:arm64"
		dpkg --print-foreign-architectures | grep -qx arm64 ||
		    $sudo dpkg --add-architecture arm64
	fi
	missing=
	for p in $pkgs; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		    missing="$missing $p"
	done
	[ -z "$missing" ] && return 0
	echo "installing:$missing"
	$sudo apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq \
	    --no-install-recommends $missing
}

# One package at a time: a name the repositories do not have must not stop
# the others (CentOS 7 has cjson-devel and libbsd-devel only in EPEL).
rpm_based() {
	pm=$1
	pkgs="gcc make pkgconfig cjson-devel libyaml-devel libbsd-devel
	      sqlite-devel libxml2 gettext
	      python3 perl perl-Test-Harness bash-completion strace xz"
	absent=
	for p in $pkgs; do
		rpm -q --whatprovides "$p" > /dev/null 2>&1 && continue
		echo "installing $p"
		$sudo "$pm" install -y -q "$p" > /dev/null 2>&1 || absent="$absent $p"
	done
	[ -z "$absent" ] && return 0
	echo "not available from $pm here:$absent"
	fatal= libs=
	for p in $absent; do
		case $p in
		cjson-devel|libyaml-devel|libbsd-devel)
			libs=1
			echo "  $p: built from its source beside the tree instead" ;;
		gcc|make|pkgconfig|gettext|sqlite-devel)
			fatal=1
			echo "  $p: install it by hand (needed to build)" ;;
		*)	echo "  $p: install it by hand (needed by make check)" ;;
		esac
	done
	[ -z "$fatal" ] || exit 1
	[ -z "$libs" ] || sh "$here/deps-src.sh"
}

if command -v apt-get > /dev/null && command -v dpkg-query > /dev/null; then
	debian "$@"
elif command -v dnf > /dev/null; then
	rpm_based dnf
elif command -v yum > /dev/null; then
	rpm_based yum
else
	echo "deps: neither apt-get nor dnf nor yum; install a C compiler, make," \
	    "pkg-config, gettext and the development files of cJSON, libyaml," \
	    "libbsd and SQLite (or unpack their sources beside the tree and run" \
	    "sh .ci/deps-src.sh)" >&2
	exit 1
fi
