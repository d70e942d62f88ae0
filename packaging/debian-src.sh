#!/bin/sh
# Let apt-get source fetch Debian's source packages (for cJSON, which
# Debian ships without a static library): deb-src lines for the suites
# the machine already uses.  Root; does nothing when they are there.
set -eu
f=/etc/apt/sources.list.d/msprof-exec-src.sources
grep -rqs '^Types:.*deb-src\|^deb-src' /etc/apt/sources.list /etc/apt/sources.list.d/ &&
    { apt-get update -qq; exit 0; }
. /etc/os-release
cat > "$f" <<EOS
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: $VERSION_CODENAME $VERSION_CODENAME-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb-src
URIs: http://deb.debian.org/debian-security
Suites: $VERSION_CODENAME-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOS
apt-get update -qq
