# sim/testlib.sh -- helpers for the simulation's own TAP tests (t/sim-*.t).
# Source it from a bash test script; it activates the simulation and gives:
#   ok COND_STATUS DESC / pass DESC / fail DESC / is GOT WANT DESC / like TEXT REGEX DESC
#   unlike TEXT REGEX DESC / like_exc TEXT TYPE MESSAGE DESC / done_testing          (TAP, plan printed at the end)
#   TMP                 a fresh temporary directory, removed on exit
#   free_port           prints a free TCP port
#   llm_example SCRIPT EXTRA...   run a MindSpeed-LLM example from its checkout root with
#                                 EXTRA appended to the launcher line ("added by hand")
#   csv_col FILE NAME   prints the values of column NAME of a CSV file

SIM_DIR=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd -P)
# the self-tests use the stand-in torch even where a system torch exists (Debian's python3-torch
# 1.13 crashes in torch.distributed.launch on Python 3.11); sim-env.t covers the real-torch path
export MSPROF_SIM_TORCH=${MSPROF_SIM_TORCH:-stub}
. "$SIM_DIR/activate" "$SIM_DIR"
LLM_DIR=$SIM_DIR/mindspeed-llm
MM_DIR=$SIM_DIR/mindspeed-mm
export MSPROF_SIM_STEP_MS=${MSPROF_SIM_STEP_MS:-10}
unset MSPROF_SIM_OOM_STEP MSPROF_SIM_CRASH_RANK MSPROF_SIM_CRASH_STEP MSPROF_SIM_SIZE_MISMATCH \
      MSPROF_SIM_NO_NPU MSPROF_SIM_NPUS ASCEND_RT_VISIBLE_DEVICES RANK WORLD_SIZE LOCAL_RANK

TMP=$(mktemp -d "${TMPDIR:-/tmp}/msprof-sim-test.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

_tap_n=0
_tap_failed=0

ok() {   # ok STATUS DESC
    _tap_n=$((_tap_n + 1))
    if [ "$1" -eq 0 ]; then
        echo "ok $_tap_n - $2"
    else
        echo "not ok $_tap_n - $2"
        _tap_failed=$((_tap_failed + 1))
    fi
}
pass() { ok 0 "$1"; }
fail() { ok 1 "$1"; }
is() {
    if [ "$1" = "$2" ]; then ok 0 "$3"; else ok 1 "$3"; echo "#   got: '$1'" >&2; echo "#   expected: '$2'" >&2; fi
}
like() {
    if printf '%s' "$1" | grep -Eq -- "$2"; then ok 0 "$3"; else
        ok 1 "$3"; { echo "#   no match for /$2/ in:"; printf '%s\n' "$1" | tail -n 40 | sed 's/^/#     /'; } >&2; fi
}
unlike() {
    if printf '%s' "$1" | grep -Eq -- "$2"; then
        ok 1 "$3"; { echo "#   unexpected match for /$2/:"; printf '%s\n' "$1" | grep -E -- "$2" | head -n 5 | sed 's/^/#     /'; } >&2
    else ok 0 "$3"; fi
}
# like_exc TEXT TYPE MESSAGE DESC: a Python exception "TYPE: MESSAGE" in TEXT.  Workers run
# "python -u" (as torchrun starts them), and an unbuffered stderr gets a traceback's last line
# in four writes (TYPE, ": ", MESSAGE, "\n"); when two workers fail at once those pieces
# interleave, so TYPE and MESSAGE are matched apart (each write is atomic on a pipe).
like_exc() {
    if printf '%s' "$1" | grep -Eq -- "$2" && printf '%s' "$1" | grep -Eq -- "$3"; then ok 0 "$4"; else
        ok 1 "$4"; { echo "#   no /$2/ and /$3/ in:"; printf '%s\n' "$1" | tail -n 40 | sed 's/^/#     /'; } >&2; fi
}
done_testing() {
    echo "1..$_tap_n"
    [ "$_tap_failed" -eq 0 ]
}

free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("",0)); print(s.getsockname()[1])'
}

llm_example() {   # llm_example SCRIPT EXTRA-ARGS...   (prints the output, returns the status)
    local script=$1; shift
    local copy=$TMP/example.$$.$RANDOM.sh
    local extra
    extra=$(printf ' %s' "$@")
    sed "s|--distributed-backend nccl|--distributed-backend nccl$extra|" "$LLM_DIR/$script" > "$copy"
    (cd "$LLM_DIR" && MASTER_PORT=${MASTER_PORT:-$(free_port)} bash "$copy" 2>&1)
}

csv_col() {   # csv_col FILE COLUMN-NAME
    python3 - "$1" "$2" <<'PY'
import csv, sys
with open(sys.argv[1]) as f:
    for row in csv.DictReader(f):
        print(row[sys.argv[2]].strip())
PY
}

count_dirs() {   # count_dirs DIR: number of *_ascend_pt directories directly below DIR
    local n=0 d
    for d in "$1"/*_ascend_pt; do [ -d "$d" ] && n=$((n + 1)); done
    echo "$n"
}

json_set() {   # json_set IN OUT path.to.key=JSON-VALUE ... : copy a JSON file with keys replaced
    python3 - "$@" <<'PY'
import json, sys
src, dst = sys.argv[1], sys.argv[2]
data = json.load(open(src))
for item in sys.argv[3:]:
    key, value = item.split("=", 1)
    node = data
    parts = key.split(".")
    for p in parts[:-1]:
        node = node.setdefault(p, {})
    if value == "DELETE":
        node.pop(parts[-1], None)
    else:
        node[parts[-1]] = json.loads(value)
json.dump(data, open(dst, "w"), indent=4)
PY
}

mm_sora() {   # mm_sora TOOLS_JSON EXTRA... : run pretrain_sora.py on 2 workers from the MM checkout
    local tool=$1; shift
    (cd "$MM_DIR" && torchrun --nproc_per_node 2 --master_port "$(free_port)" pretrain_sora.py \
        --mm-data examples/wan2.1/1.3b/t2v/feature_data.json --mm-model examples/wan2.1/1.3b/t2v/pretrain_model.json \
        --mm-tool "$tool" "$@" 2>&1)
}
