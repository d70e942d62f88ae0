#!/usr/bin/env bash
# The shim's ELF interface: it exports the ten exec entry points and
# nothing else, needs no glibc symbol version newer than 2.17 (a missing
# version stops every program from starting, reference 1.1), depends on
# the C library only, and loads silently when no session is set up.
. "$(dirname "$0")/lib.sh"
# The build for any glibc from 2.17 (the one for 2.34 is checked below).
SHIM=$SHIM_ANY
plan 16

unset LD_PRELOAD
for v in $(env | sed -n 's/^\(MSPROF_EXEC_[A-Za-z0-9_]*\)=.*/\1/p'); do
	unset "$v"
done
WANT="execl execle execlp execv execve execvp execvpe fexecve posix_spawn
posix_spawnp"
WANT=$(printf '%s\n' $WANT | sort)

ok "$([ -f "$SHIM" ]; echo $?)" "the shim is built: $SHIM"

# Exported: exactly the wrappers (defined dynamic symbols of any kind).
got=$(nm -D --defined-only "$SHIM" | awk 'NF >= 3 { print $3 }' |
    sed 's/@.*//' | sort)
is "$got" "$WANT" "nm -D --defined-only lists exactly the ten wrappers"
is "$(nm -D --defined-only "$SHIM" | awk 'NF >= 3 && $2 != "T" && $2 != "W"' |
    wc -l | tr -d ' ')" 0 "they are all functions (no data, no absolutes)"

# Required symbol versions: none newer than GLIBC_2.17.
vers=$(objdump -T "$SHIM" | grep -o 'GLIBC_[0-9][0-9.]*' | sort -u)
like "$vers" '^GLIBC_2\.' "objdump -T shows the glibc versions it binds"
newer=$(printf '%s\n' "$vers" | awk -F'[_.]' '
	{ maj = $2 + 0; min = $3 + 0 }
	maj > 2 || (maj == 2 && min > 17) { print }')
is "$newer" "" "no symbol version newer than GLIBC_2.17 (objdump -T)"
# The version-needs section is what ld.so checks at start-up.
newer=$(readelf -V "$SHIM" | sed -n '/\.gnu\.version_r/,$p' |
    grep -o 'GLIBC_[0-9][0-9.]*' | sort -u | awk -F'[_.]' '
	{ maj = $2 + 0; min = $3 + 0 }
	maj > 2 || (maj == 2 && min > 17) { print }')
is "$newer" "" "no version need newer than GLIBC_2.17 (readelf -V)"

# Dependencies: the C library (and libdl) only.
needed=$(readelf -d "$SHIM" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | sort)
like "$needed" '^libc\.so\.6$' "DT_NEEDED names libc.so.6"
is "$(printf '%s\n' "$needed" | grep -Evx 'libc\.so\.6|libdl\.so\.2' |
    tr '\n' ' ')" "" "DT_NEEDED is only libc.so.6 and libdl.so.2"

# Before glibc 2.34 dlsym is defined in libdl.so.2, not in libc.so.6: a
# shim that binds dlsym@GLIBC_2.2.5 (or @GLIBC_2.17) must load libdl.so.2
# itself, or every program that does not link libdl dies on an older
# glibc with "undefined symbol: dlsym".
if objdump -T "$SHIM" | grep -q '\*UND\*.*[[:space:]]dlsym$'; then
	like "$needed" 'libdl\.so\.2' \
	    "dlsym is bound: libdl.so.2 is needed for glibc older than 2.34"
else
	pass "dlsym is not used"
fi

# Loaded without a session, the shim does nothing visible.
out=$(LD_PRELOAD=$SHIM /bin/true 2>&1); rc=$?
is "$rc:$out" "0:" "LD_PRELOAD=shim /bin/true: no output, status 0"
out=$(LD_PRELOAD=$SHIM /bin/sh -c 'echo a; /bin/echo b' 2>&1); rc=$?
is "$rc:$out" "0:a
b" "LD_PRELOAD=shim sh -c 'echo; /bin/echo': runs normally"
out=$(LD_BIND_NOW=1 LD_PRELOAD=$SHIM /bin/true 2>&1); rc=$?
is "$rc:$out" "0:" "with LD_BIND_NOW=1: every symbol it binds resolves"

# The build for glibc 2.34 and later: the same shim without libdl.so.2.
SHIM234=$B/lib/msprof-exec/msprof-exec-shim-glibc2.34.so
SHIM=$SHIM_ANY
is "$(nm -D --defined-only "$SHIM234" | awk '{print $3}' | sort | tr '\n' ' ')" \
    "$(nm -D --defined-only "$SHIM" | awk '{print $3}' | sort | tr '\n' ' ')" \
    "glibc 2.34 build: the same exports"
is "$(readelf -d "$SHIM234" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')" "libc.so.6 " \
    "glibc 2.34 build: needs libc.so.6 only"
out=$(LD_BIND_NOW=1 LD_PRELOAD=$SHIM234 /bin/true 2>&1); rc=$?
is "$rc:$out" "0:" "glibc 2.34 build: loads and binds here"
case "$(getconf GNU_LIBC_VERSION | sed 's/^glibc //')" in
2.[0-9]|2.[12][0-9]|2.3[0-3]) want=$SHIM_ANY ;;
*) want=$SHIM234 ;;
esac
has_line "$("$MSPROF" --version)" "shim: $want" \
    "msprof-exec preloads the build that fits this glibc"
done_testing
