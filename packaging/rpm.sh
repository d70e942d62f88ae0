#!/bin/sh
# Build the .rpm from a staged release tree (run by mk/release.mk) with
# rpmbuild (Debian's rpm package has it): the files are already built.
#   ARCH VERSION STAGE (the tree) OUT (the .rpm) TOP (the checkout)
#   WORK (rpmbuild's top directory)
set -eu
command -v rpmbuild > /dev/null || {
	echo "release: rpmbuild not found: make release-deps (Debian: apt-get install rpm)" >&2
	exit 1
}
rm -rf "$WORK"
mkdir -p "$WORK"
rpmbuild -bb --quiet --target "$ARCH-linux" \
    --define "_topdir $WORK" --define "_tmppath $WORK/tmp" \
    --define "msprof_version $VERSION" --define "msprof_stage $STAGE" \
    "$TOP/packaging/msprof-exec.spec"
mv "$WORK/RPMS/$ARCH/msprof-exec-$VERSION-1.$ARCH.rpm" "$OUT"
rm -rf "$WORK"
