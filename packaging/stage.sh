#!/bin/sh
# Stage one architecture's release tree (run by mk/release.mk): the layout
# msprof-exec finds its files in relative to its own location, so the tree
# works from wherever it is unpacked.
#   ARCH VERSION BUILD (the static build) STAGE (the tree) TOP (the checkout)
#   STRIP (strip for ARCH) CJSON_SRC (cJSON's source directory)
#   LICENSES ("name:file ..." of the libraries linked in)
set -eu
rm -rf "$STAGE"
lib=$STAGE/lib/msprof-exec
share=$STAGE/share
mkdir -p "$STAGE/bin" "$lib" "$share/msprof-exec" "$share/man/man1" \
    "$share/man/man5" "$share/man/man7" "$share/bash-completion/completions" \
    "$STAGE/LICENSES"

install -m 755 "$BUILD/bin/msprof-exec" "$STAGE/bin/msprof-exec"
install -m 755 "$BUILD/lib/msprof-exec/msprof-exec-inject" "$lib/"
# Only the shim that loads on every glibc from 2.17: the static launcher
# cannot learn the node's glibc version to pick the glibc 2.34 build.
install -m 644 "$BUILD/lib/msprof-exec/msprof-exec-shim.so" "$lib/"
"$STRIP" "$STAGE/bin/msprof-exec" "$lib/msprof-exec-inject"
"$STRIP" --strip-unneeded "$lib/msprof-exec-shim.so"

install -m 644 "$TOP/config/launchers.conf" "$share/msprof-exec/"
install -m 644 "$TOP/config/trainings.conf" "$share/msprof-exec/"
install -m 644 "$TOP/man/msprof-exec.1" "$share/man/man1/"
install -m 644 "$TOP/man/msprof-exec-launchers.5" "$share/man/man5/"
install -m 644 "$TOP/man/msprof-exec-summary.7" "$share/man/man7/"
install -m 644 "$TOP/completion/msprof-exec" \
    "$share/bash-completion/completions/"
(cd "$BUILD/share" && find locale -name '*.mo') | while read -r mo; do
	install -D -m 644 "$BUILD/share/$mo" "$share/$mo"
done

# The README with this release's name in its examples.
sed "s/-VERSION-linux-/-$VERSION-linux-/g" "$TOP/packaging/README" > "$STAGE/README"
chmod 644 "$STAGE/README"
install -m 644 "$CJSON_SRC/LICENSE" "$STAGE/LICENSES/cJSON"
for l in $LICENSES; do
	install -m 644 "${l#*:}" "$STAGE/LICENSES/${l%%:*}"
done
echo "staged $STAGE"
