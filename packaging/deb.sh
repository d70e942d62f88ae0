#!/bin/sh
# Build the .deb from a staged release tree (run by mk/release.mk):
# everything under /usr, the README and licences in /usr/share/doc.
#   ARCH DEBARCH VERSION STAGE (the tree) OUT (the .deb) TOP (the checkout)
set -eu
root=${OUT%.deb}.root
rm -rf "$root"
mkdir -p "$root/DEBIAN" "$root/usr/share/doc/msprof-exec"
cp -R "$STAGE/bin" "$STAGE/lib" "$STAGE/share" "$root/usr/"
cp "$STAGE/README" "$root/usr/share/doc/msprof-exec/"
cp -R "$STAGE/LICENSES" "$root/usr/share/doc/msprof-exec/licenses"
# Debian's copyright file: where the texts of what is linked in are.
printf '%s\n' "msprof-exec: the launcher and the injector are linked" \
    "statically; the licences of the libraries they contain are in" \
    "/usr/share/doc/msprof-exec/licenses/." \
    > "$root/usr/share/doc/msprof-exec/copyright"
gzip -9n "$root"/usr/share/man/man*/*
size=$(du -sk "$root/usr" | cut -f1)
sed -e "s/@VERSION@/$VERSION/" -e "s/@DEBARCH@/$DEBARCH/" \
    -e "s/@SIZE@/$size/" "$TOP/packaging/control.in" > "$root/DEBIAN/control"
chmod -R u+rwX,go+rX,go-w "$root"
dpkg-deb --root-owner-group -Zxz --build "$root" "$OUT"
rm -rf "$root"
