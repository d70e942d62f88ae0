#!/bin/sh
# Build the libraries pkg-config does not find from their sources unpacked
# beside the tree, into build-deps/ (static libraries and .pc files; the
# Makefile looks there).  No network: only what is unpacked is used.
#
#   ../cJSON-1.7.15/    https://github.com/DaveGamble/cJSON/releases
#   ../yaml-0.2.5/      https://pyyaml.org/download/libyaml/ (or a libyaml-* checkout)
#   ../libmd-1.1.0/     https://libbsd.freedesktop.org/releases/ (libbsd needs it)
#   ../libbsd-0.11.7/   https://libbsd.freedesktop.org/releases/
#
# Any version; cjson-*, libyaml-* and Debian's source directories work too.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
prefix=$top/build-deps
PKG_CONFIG_PATH=$prefix/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
export PKG_CONFIG_PATH
CC=${CC:-cc}
missing=

# src FILE GLOB...: the first directory beside the tree that has FILE.
src() {
	f=$1
	shift
	for g; do
		for d in "$top"/../$g; do
			[ -f "$d/$f" ] && { (cd "$d" && pwd); return 0; }
		done
	done
	return 0
}

cjson() {
	d=$(src cJSON.c 'cJSON-*' 'cjson-*')
	[ -n "$d" ] || { missing="$missing cJSON(../cJSON-VERSION)"; return 0; }
	echo "deps-src: cJSON from $d"
	mkdir -p "$prefix/include/cjson" "$prefix/lib/pkgconfig"
	cp "$d/cJSON.h" "$prefix/include/cjson/"
	$CC -O2 -c -o "$prefix/cJSON.o" "$d/cJSON.c"
	rm -f "$prefix/lib/libcjson.a"
	ar rcs "$prefix/lib/libcjson.a" "$prefix/cJSON.o"
	cat > "$prefix/lib/pkgconfig/libcjson.pc" <<EOF
prefix=$prefix
Name: libcjson
Description: cJSON, built from $d
Version: 1
Cflags: -I\${prefix}/include -I\${prefix}/include/cjson
Libs: -L\${prefix}/lib -lcjson -lm
EOF
}

# autotools NAME DIR: configure, make, make install a static library.
autotools() {
	echo "deps-src: $1 from $2"
	mkdir -p "$prefix/build/$1"
	(cd "$prefix/build/$1" &&
	    "$2/configure" -q --prefix="$prefix" --disable-shared --enable-static \
		CPPFLAGS="-I$prefix/include" LDFLAGS="-L$prefix/lib" &&
	    make -s && make -s install) > "$prefix/build/$1.log" 2>&1 || {
		tail -n 20 "$prefix/build/$1.log" >&2
		echo "deps-src: building $1 failed; the log: $prefix/build/$1.log" >&2
		exit 1
	}
}

# Compiled directly, as its CMake build does: a git checkout has no
# configure script, and the release tarball does not need one.
libyaml() {
	d=$(src src/api.c 'yaml-[0-9]*' 'libyaml-*')
	[ -n "$d" ] || { missing="$missing libyaml(../yaml-VERSION)"; return 0; }
	echo "deps-src: libyaml from $d"
	v=$(basename "$d" | sed 's/^[a-z]*-//')
	maj=${v%%.*} rest=${v#*.}
	mkdir -p "$prefix/include" "$prefix/lib/pkgconfig" "$prefix/build/yaml"
	for c in "$d"/src/*.c; do
		$CC -O2 -I"$d/include" -DYAML_VERSION_STRING="\"$v\"" \
		    -DYAML_VERSION_MAJOR="$maj" -DYAML_VERSION_MINOR="${rest%%.*}" \
		    -DYAML_VERSION_PATCH="${rest#*.}" \
		    -c -o "$prefix/build/yaml/$(basename "$c" .c).o" "$c"
	done
	cp "$d/include/yaml.h" "$prefix/include/"
	rm -f "$prefix/lib/libyaml.a"
	ar rcs "$prefix/lib/libyaml.a" "$prefix"/build/yaml/*.o
	cat > "$prefix/lib/pkgconfig/yaml-0.1.pc" <<EOF
prefix=$prefix
Name: LibYAML
Description: libyaml, built from $d
Version: $v
Cflags: -I\${prefix}/include
Libs: -L\${prefix}/lib -lyaml
EOF
}

# libbsd links libmd's digests; the static library needs it named.
libbsd() {
	md=$(src configure 'libmd-*')
	bsd=$(src configure 'libbsd-*')
	[ -n "$bsd" ] || { missing="$missing libbsd(../libbsd-VERSION)"; return 0; }
	if ! $CC -xc - -o /dev/null -lmd > /dev/null 2>&1 <<EOF
int main(void) { return 0; }
EOF
	then
		[ -n "$md" ] || { missing="$missing libmd(../libmd-VERSION)"; return 0; }
		autotools libmd "$md"
	fi
	autotools libbsd "$bsd"
	# Its linker script for the shared library it did not build.
	rm -f "$prefix/lib/libbsd.so" "$prefix"/lib/*.la
	sed -i 's/^Libs: \(.*\)$/Libs: \1 -lmd/' "$prefix"/lib/pkgconfig/libbsd*.pc
}

mkdir -p "$prefix"
pkg-config --exists libcjson || cjson
pkg-config --exists yaml-0.1 || libyaml
pkg-config --exists libbsd-overlay || libbsd
if [ -n "$missing" ]; then
	echo "deps-src: no source beside the tree ($top/..) for:$missing" >&2
	echo "deps-src: install the system's package, or unpack the source there" \
	    "(see the top of .ci/deps-src.sh) and run it again" >&2
	exit 1
fi
echo "deps-src: everything found; make uses $prefix"
