#!/bin/sh
# CI (root): install the .deb, check that msprof-exec runs from /usr (the
# MindSpeed-LLM demo of the simulated Ascend machine, end to end), purge
# the package and check that it left nothing behind.
#   sh packaging/check-deb.sh build-release/msprof-exec_VERSION_amd64.deb
set -eu
deb=$(realpath "$1")
top=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "check-deb: $*" >&2; exit 1; }
# Where a package's files go (the .deb puts its own under /usr only);
# not /var, which other programs change meanwhile.
snapshot() { find /usr /etc /opt -xdev 2>/dev/null | sort; }

dpkg -s msprof-exec > /dev/null 2>&1 && fail "msprof-exec is installed already"
snapshot > "$work/before"
dpkg -i "$deb"
for f in /usr/bin/msprof-exec /usr/lib/msprof-exec/msprof-exec-inject \
    /usr/lib/msprof-exec/msprof-exec-shim.so /usr/share/msprof-exec/launchers.conf \
    /usr/share/msprof-exec/trainings.conf \
    /usr/share/man/man1/msprof-exec.1.gz /usr/share/man/man5/msprof-exec-launchers.5.gz \
    /usr/share/man/man7/msprof-exec-summary.7.gz \
    /usr/share/bash-completion/completions/msprof-exec \
    /usr/share/locale/zh_CN/LC_MESSAGES/msprof-exec.mo; do
	[ -f "$f" ] || fail "$f is not installed"
done
version=$(dpkg-deb -f "$deb" Version)
out=$(/usr/bin/msprof-exec -V)
echo "$out"
echo "$out" | grep -qx "msprof-exec $version" || fail "-V does not say $version"
echo "$out" | grep -qx "shim: /usr/lib/msprof-exec/msprof-exec-shim.so" ||
    fail "-V does not name the installed shim"

# The demo (sim/demo.sh) with the installed msprof-exec, from a copy of sim/.
cp -R "$top/sim" "$work/sim"
(
	cd "$work/sim/mindspeed-llm"
	env -i PATH=/usr/bin:/bin HOME="$work" MSPROF_SIM_TORCH=stub sh -c '
	    SIM_ROOT=$1; . "$SIM_ROOT/activate"
	    msprof-exec -y -v --cann-env "$SIM_ROOT/ascend/ascend-toolkit/set_env.sh" \
		bash examples/mcore/qwen3/pretrain_qwen3_8b_4K_ptd.sh' sh "$work/sim"
) > "$work/demo.out" 2>&1 || { tail -n 30 "$work/demo.out"; fail "the demo failed"; }
tail -n 12 "$work/demo.out"
ls -d "$work"/sim/mindspeed-llm/profiling_output/*_ascend_pt > /dev/null ||
    fail "the demo wrote no profiling data"
grep -q '"status":"injected"' "$work"/sim/mindspeed-llm/profiling_output/msprof-exec_*/journal.jsonl ||
    fail "the installed injector journaled no launch"

dpkg --purge msprof-exec
snapshot > "$work/after"
if ! cmp -s "$work/before" "$work/after"; then
	diff "$work/before" "$work/after" >&2 || true
	fail "the purge left files behind (or removed others), above"
fi
dpkg -s msprof-exec > /dev/null 2>&1 && fail "dpkg still knows msprof-exec"
ls /var/lib/dpkg/info/msprof-exec.* > /dev/null 2>&1 &&
    fail "dpkg's records of msprof-exec are left in /var/lib/dpkg/info"
echo "check-deb: installed, ran the demo from /usr, purged; nothing left behind"
