#!/bin/sh
# Install what msprof-exec needs to build and test on Debian or Ubuntu.
#   sh .ci/deps.sh          build and test dependencies
#   sh .ci/deps.sh --full   also Debian's python3-torch (the real torchrun
#                           test; about 1 GB) and the tools CI uses
set -eu
pkgs="build-essential pkg-config libcjson-dev libyaml-dev libbsd-dev
      libsqlite3-dev libxml2-utils gettext locales python3 dash perl mandoc bash-completion"
[ "${1:-}" = --full ] && pkgs="$pkgs python3-torch strace valgrind clang libclang-rt-14-dev llvm bear"

missing=
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
	    missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" -eq 0 ]; then sudo=; else sudo=sudo; fi
echo "installing:$missing"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $missing
