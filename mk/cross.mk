# make cross-check: build for aarch64 (the Ascend hosts are Kunpeng ARM
# servers) with Debian's cross compiler into $(CROSS_B), then
#   - run the C unit tests under qemu-user, through prove;
#   - smoke-test the aarch64 shim under qemu: it loads silently into an
#     aarch64 program (also with LD_BIND_NOW=1), puts itself back into an
#     environment a program emptied, and hands a torchrun exec to the
#     aarch64 injector, which rewrites it and runs the launcher without
#     the shim; the aarch64 launcher answers --version and --dry-run;
#   - check that the aarch64 shim exports only the exec wrappers and needs
#     no glibc symbol version newer than GLIBC_2.17 (the aarch64 baseline).
#
#   make cross-deps     install what it needs (Debian, root or sudo):
#                       dpkg --add-architecture arm64; apt-get update;
#                       apt-get install gcc-aarch64-linux-gnu
#                       binutils-aarch64-linux-gnu libc6-dev-arm64-cross
#                       qemu-user libcjson-dev:arm64 libyaml-dev:arm64
#                       libbsd-dev:arm64 libsqlite3-dev:arm64
#   make cross-check
#
# qemu-user gives the guest its own environment, so variables for the
# guest can be set as usual, except LD_PRELOAD: set in qemu's environment
# it would also make the host's ld.so try to preload the aarch64 shim into
# qemu itself.  "qemu-aarch64 -E LD_PRELOAD=..." sets it for the guest
# only.  Without binfmt_misc, an aarch64 program cannot exec another
# aarch64 program (the kernel cannot run it): the smoke test's injector
# is a host script that runs the aarch64 injector under qemu.

CROSS_ARCH   ?= aarch64
CROSS_TRIPLE ?= $(CROSS_ARCH)-linux-gnu
CROSS_DEBARCH ?= arm64
CROSS_B      ?= build-$(CROSS_ARCH)
CROSS_CC     ?= $(CROSS_TRIPLE)-gcc
CROSS_SYSROOT ?= /usr/$(CROSS_TRIPLE)
# The arm64 .pc files of the multiarch -dev packages, and only those.
CROSS_PKG_CONFIG ?= env PKG_CONFIG_LIBDIR=/usr/lib/$(CROSS_TRIPLE)/pkgconfig:/usr/share/pkgconfig PKG_CONFIG_PATH= pkg-config
CROSS_QEMU   ?= qemu-$(CROSS_ARCH) -L $(CROSS_SYSROOT)
CROSS_GLIBC_MAX ?= 2.17
CROSS_PKGS   = gcc-$(CROSS_TRIPLE) binutils-$(CROSS_TRIPLE) \
               libc6-dev-$(CROSS_DEBARCH)-cross qemu-user \
               $(foreach p,libcjson-dev libyaml-dev libbsd-dev libsqlite3-dev,$(p):$(CROSS_DEBARCH))
CROSS_SUDO   = $(if $(filter 0,$(shell id -u)),,sudo)
# What is cross-built: the product, the C unit tests and the test helpers.
CROSS_UNIT   = $(patsubst t/unit/%.c,$(CROSS_B)/t/%.t,$(wildcard t/unit/*.c))
CROSS_TARGETS = $(patsubst $(B)/%,$(CROSS_B)/%,$(LAUNCHER) $(INJECTOR) \
               $(SHIM) $(LAUNCHTAB) $(TRAININGS)) $(CROSS_UNIT) \
               $(patsubst t/helpers/%.c,$(CROSS_B)/t/helpers/%,$(wildcard t/helpers/*.c))

cross-deps:
	$(CROSS_SUDO) dpkg --add-architecture $(CROSS_DEBARCH)
	$(CROSS_SUDO) apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $(CROSS_SUDO) apt-get install -y -qq \
	    --no-install-recommends $(CROSS_PKGS)

cross-check:
	@command -v $(CROSS_CC) >/dev/null && \
	    command -v qemu-$(CROSS_ARCH) >/dev/null && \
	    command -v $(CROSS_TRIPLE)-readelf >/dev/null || { \
		echo "cross-check: needs $(CROSS_CC), qemu-$(CROSS_ARCH) and" \
		    "$(CROSS_TRIPLE)-readelf: run 'make cross-deps'" >&2; \
		exit 1; }
	@$(CROSS_PKG_CONFIG) --exists $(PKGS) || { \
		echo "cross-check: the $(CROSS_DEBARCH) build dependencies are" \
		    "missing ($(PKGS)): run 'make cross-deps'" >&2; \
		exit 1; }
	$(MAKE) B=$(CROSS_B) CC=$(CROSS_CC) \
	    PKG_CONFIG='$(CROSS_PKG_CONFIG)' SANITIZE= $(CROSS_TARGETS)
	# Debian 12's qemu-user can hang in the guest's pthread_create (seen
	# on a 6.x host kernel); the summary then reads on one thread.
	MSPROF_THREADS=1 prove -j$(JOBS) $(PROVE_FLAGS) -e '$(CROSS_QEMU)' $(CROSS_UNIT)
	@: $(shell mkdir -p $(CROSS_B)/cross)$(file >$(CROSS_B)/cross/smoke.t,$(value cross_smoke))
	CROSS_TOP='$(CURDIR)' CROSS_B='$(abspath $(CROSS_B))' \
	    CROSS_QEMU='$(CROSS_QEMU)' \
	    CROSS_TRIPLE=$(CROSS_TRIPLE) CROSS_GLIBC_MAX=$(CROSS_GLIBC_MAX) \
	    prove $(PROVE_FLAGS) $(CROSS_B)/cross/smoke.t

.PHONY: cross-deps cross-check

# The smoke test, written to $(CROSS_B)/cross/smoke.t by cross-check and
# run by prove (TAP, with t/lib.sh's helpers).
define cross_smoke
#!/usr/bin/env bash
# Written by mk/cross.mk: the aarch64 shim, injector and launcher under qemu.
. "$CROSS_TOP/t/lib.sh"
XB=$CROSS_B
XSHIM=$XB/lib/msprof-exec/msprof-exec-shim.so
XINJ=$XB/lib/msprof-exec/msprof-exec-inject
read -ra QEMU <<< "$CROSS_QEMU"
unset LD_PRELOAD
for v in $(env | sed -n 's/^\(MSPROF_EXEC_[A-Za-z0-9_]*\)=.*/\1/p'); do
	unset "$v"
done

# Loaded without a session, the shim does nothing visible.
out=$("${QEMU[@]}" -E LD_PRELOAD="$XSHIM" "$XB/t/helpers/errno0" 2>&1)
is "$?:$out" "0:errno=0" "aarch64: the shim loads silently, errno kept"
out=$("${QEMU[@]}" -E LD_PRELOAD="$XSHIM" -E LD_BIND_NOW=1 \
    "$XB/t/helpers/errno0" 2>&1)
is "$?:$out" "0:errno=0" "aarch64: with LD_BIND_NOW=1 every symbol resolves"

# A session: the injector is a host script that runs the aarch64 injector
# under qemu, with the LD_PRELOAD it was given.
S=$T/session
mkdir -p "$S"
printf '{"version": 1, "launchtab": "%s", "shim": "%s", "session": "%s"}\n' \
    "$TOP/config/launchers.conf" "$XSHIM" "$S" > "$S/plan.json"
cat > "$T/inject" <<EOS
#!/bin/sh
p=\$LD_PRELOAD
unset LD_PRELOAD
exec ${QEMU[*]} -E LD_PRELOAD="\$p" "$XINJ" "\$@"
EOS
chmod +x "$T/inject"
make_recorder torchrun
cat > "$RBIN/envrec" <<EOS
#!/bin/sh
env > "$REC/envrec.env"
EOS
chmod +x "$RBIN/envrec"
export MSPROF_EXEC_SHIM=$XSHIM MSPROF_EXEC_INJECTOR=$T/inject \
    MSPROF_EXEC_SESSION=$S \
    MSPROF_EXEC_MATCH='launcher=torchrun,msrun;python=python,python3,python3.*;module=torch.distributed.run,torch.distributed.launch;entry=pretrain_gpt.py,posttrain_gpt.py'
export PATH="$RBIN:$PATH"

# A program that execs with an empty environment keeps the shim.
"${QEMU[@]}" -E LD_PRELOAD="$XSHIM" "$XB/t/helpers/execs" -E execve \
    "$RBIN/envrec" > "$T/out" 2> "$T/err"
env=$(cat "$REC/envrec.env" 2>/dev/null)
has_line "$env" "LD_PRELOAD=$XSHIM" "aarch64: execve with an empty environment: the shim is put back"
has_line "$env" "MSPROF_EXEC_SESSION=$S" "aarch64: ... and the session variables"

# torchrun, by execvp and by posix_spawnp: rewritten by the injector.
for fn in execvp posix_spawnp; do
	rm -f "$REC"/torchrun.*
	"${QEMU[@]}" -E LD_PRELOAD="$XSHIM" "$XB/t/helpers/execs" $fn torchrun \
	    --nproc_per_node 2 pretrain_gpt.py --lr 1 > "$T/out" 2> "$T/err"
	is "$(nrecorded)" 1 "aarch64 $fn torchrun: the launcher ran once"
	[ "$(nrecorded)" = 1 ] || diag "$(cat "$T/out" "$T/err")"
	is "$(rec_argv)" "$RBIN/torchrun --nproc_per_node 2 pretrain_gpt.py --lr 1 $DEFAULT_FLAGS" \
	    "aarch64 $fn torchrun: the profiling flags are appended"
	unlike "$(rec_env "$(recorded)")" 'MSPROF_EXEC_|msprof-exec-shim' \
	    "aarch64 $fn torchrun: the launcher runs without the shim"
done
is "$(grep -c '"status":"injected"' "$S/journal.jsonl")" 2 \
    "aarch64: the injector journaled both launches"
unset MSPROF_EXEC_SHIM MSPROF_EXEC_INJECTOR MSPROF_EXEC_SESSION MSPROF_EXEC_MATCH

# The aarch64 launcher finds its files next to itself.
out=$("${QEMU[@]}" "$XB/bin/msprof-exec" --version 2>&1)
has_line "$out" "shim: $XSHIM" "aarch64 msprof-exec --version names the aarch64 shim"
out=$("${QEMU[@]}" "$XB/bin/msprof-exec" -n torchrun pretrain_gpt.py 2>&1)
has_line "$out" "torchrun pretrain_gpt.py $DEFAULT_FLAGS" \
    "aarch64 msprof-exec --dry-run prints the rewritten command"

# The ELF interface.
WANT=$(printf '%s\n' execl execle execlp execv execve execvp execvpe fexecve \
    posix_spawn posix_spawnp | sort)
got=$($CROSS_TRIPLE-nm -D --defined-only "$XSHIM" | awk 'NF >= 3 { print $3 }' |
    sed 's/@.*//' | sort)
is "$got" "$WANT" "aarch64 shim: exports exactly the ten exec wrappers"
newer() {
	grep -o 'GLIBC_[0-9][0-9.]*' | sort -u | awk -F'[_.]' -v max="$CROSS_GLIBC_MAX" '
	BEGIN { split(max, m, "."); }
	{ maj = $2 + 0; min = $3 + 0 }
	maj > m[1] + 0 || (maj == m[1] + 0 && min > m[2] + 0) { print }'
}
vers=$($CROSS_TRIPLE-objdump -T "$XSHIM" | grep -o 'GLIBC_[0-9][0-9.]*' | sort -u |
    tr '\n' ' ')
diag "aarch64 shim binds: $vers"
like "$vers" 'GLIBC_2\.' "aarch64 shim: objdump -T shows glibc versions"
is "$($CROSS_TRIPLE-objdump -T "$XSHIM" | newer)" "" \
    "aarch64 shim: no symbol version newer than GLIBC_$CROSS_GLIBC_MAX (objdump -T)"
is "$($CROSS_TRIPLE-readelf -V "$XSHIM" | sed -n '/\.gnu\.version_r/,$p' | newer)" "" \
    "aarch64 shim: no version need newer than GLIBC_$CROSS_GLIBC_MAX (readelf -V)"
needed=$($CROSS_TRIPLE-readelf -d "$XSHIM" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' |
    sort | tr '\n' ' ')
is "$needed" "libc.so.6 libdl.so.2 " "aarch64 shim: needs libc.so.6 and libdl.so.2 only"
done_testing
endef
