# sim/testlib.sh -- helpers for the simulation's own TAP tests (t/sim-*.t).
# Source it from a bash test script; it activates the simulation and gives:
#   ok COND_STATUS DESC / pass DESC / fail DESC / is GOT WANT DESC / like TEXT REGEX DESC
#   unlike TEXT REGEX DESC / like_exc TEXT TYPE MESSAGE DESC / done_testing          (TAP, plan printed at the end)
#   TMP                 a fresh temporary directory, removed on exit
#   LLM_DIR, MM_DIR     the checkouts, linked into TMP (sim_checkouts)
#   free_port, wait_for, gate, release ...   from t/steady.sh
#   llm_example SCRIPT EXTRA...   run a MindSpeed-LLM example from its checkout root with
#                                 EXTRA appended to the launcher line ("added by hand")
#   csv_col FILE NAME   prints the values of column NAME of a CSV file

SIM_DIR=${BASH_SOURCE[0]%/*}     # this file's directory (a substitution: no dirname)
[ "$SIM_DIR" != "${BASH_SOURCE[0]}" ] || SIM_DIR=.
SIM_DIR=$(cd -- "$SIM_DIR" && pwd -P)
# wait_for, free_port, gate, release, sim_checkouts ...; first, as it may
# start the test again
. "$SIM_DIR/../t/steady.sh"
# the self-tests use the stand-in torch even where a system torch exists (Debian's python3-torch
# 1.13 crashes in torch.distributed.launch on Python 3.11); sim-env.t covers the real-torch path
export MSPROF_SIM_TORCH=${MSPROF_SIM_TORCH:-stub}
. "$SIM_DIR/activate" "$SIM_DIR"
export MSPROF_SIM_STEP_MS=${MSPROF_SIM_STEP_MS:-10}
export MSPROF_SIM_FIRST_STEP_MS=${MSPROF_SIM_FIRST_STEP_MS:-0}
unset MSPROF_SIM_OOM_STEP MSPROF_SIM_CRASH_RANK MSPROF_SIM_CRASH_STEP MSPROF_SIM_SIZE_MISMATCH \
      MSPROF_SIM_NO_NPU MSPROF_SIM_NPUS ASCEND_RT_VISIBLE_DEVICES RANK WORLD_SIZE LOCAL_RANK

TMP=$(mktemp -d "${TMPDIR:-/tmp}/msprof-sim-test.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
# python3 and python are the interpreter itself, Debian's where there is one (as
# t/lib.sh): a version manager's python3 on PATH (pyenv's shim) is a bash script
# that starts some thirty processes before the interpreter, each time, and a test
# starts python3 a hundred times (the launchers' "#!/usr/bin/env python3" too)
_sim_py=/usr/bin/python3
[ -x "$_sim_py" ] || _sim_py=$(python3 -c 'import sys; print(sys.executable)')
mkdir "$TMP/python-bin" && ln -s "$_sim_py" "$TMP/python-bin/python3" && ln -s "$_sim_py" "$TMP/python-bin/python"
PATH=$TMP/python-bin:$PATH
unset _sim_py
# the simulation's modules compiled once, into sim/'s own __pycache__ (which git
# ignores): with PYTHONDONTWRITEBYTECODE in the environment every worker of every
# run compiled them again, profdata.py alone in 0.1 s.  A stamp there says when:
# compileall again only once a module has changed since
_sim_stamp=$SIM_DIR/lib/__pycache__/compiled.stamp
if [ ! -e "$_sim_stamp" ] || [ -n "$(find "$SIM_DIR/lib" "$SIM_DIR/python" "$SIM_DIR/python-torch" \
    -name '*.py' -newer "$_sim_stamp" -print -quit 2>/dev/null)" ]; then
    python3 -m compileall -q "$SIM_DIR/lib" "$SIM_DIR/python" "$SIM_DIR/python-torch" >/dev/null 2>&1 &&
        mkdir -p "${_sim_stamp%/*}" && : > "$_sim_stamp"
fi
unset _sim_stamp
sim_checkouts "$TMP"
LLM_DIR=$TMP/mindspeed-llm
MM_DIR=$TMP/mindspeed-mm

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
import csv, signal, sys
signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # read by 'grep -m1': stop quietly
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

# prof_facts DIR: what a summary of the ASCEND_PROFILER_OUTPUT of every rank directory
# below DIR should find, one "key value" line each (a small reference reading of the data):
#   ranks N / spread COLUMN FRACTION (largest max-min over ranks, of the mean step) /
#   slowest_compute RANK / host_bound RANKS / max_wait_ratio R / wait_ratio_min R /
#   last_arrived RANK:COUNT... / slow_links SRC-DST... / small_packets RANK:TRANSPORT... /
#   top_op TYPE PERCENT / aicpu_20us N / dynamic_ops N (rank and type pairs of changing Input Shapes) / comm_consistent yes|no /
#   low_pipe TYPES (best pipe ratio of a row under 0.2 on average) /
#   dixon_q_max Q (largest (e2 - e1) / (en - e1) over the sorted elapse times of a
#   collective with 3 or more members: how far the last to arrive stands out) /
#   exposed_low F (Communication(Not Overlapped) - Bubble of the step, the lowest tenth
#   of the ranks) / bubble_median F (Bubble of the step) / unfused FORMS (forms whose
#   unfused marker kernels run and fused kernels do not) / mem_peak_pct P (the highest
#   APP Total Reserved(MB) of memory_record.csv, of a 65536 MB device) /
#   launch_blocking VALUE (ASCEND_LAUNCH_BLOCKING in profiler_metadata.json's ENV_VARIABLES)
prof_facts() {
    python3 -c "$_PROF_FACTS_PY" "$1"
}
# prof_facts_each DIR...: the facts of each DIR into DIR.facts, in one Python
prof_facts_each() {
    python3 -c "$_PROF_FACTS_PY" --each "$@"
}
IFS= read -r -d '' _PROF_FACTS_PY <<'PY' || :
import csv, glob, json, os, sys
from collections import defaultdict


def facts(root):
    dirs = sorted(d for d in glob.glob(os.path.join(root, "**", "*_ascend_pt"), recursive=True))
    ranks, steps, comm, matrix, groups = {}, {}, {}, {}, {}
    top = ("", 0.0)
    aicpu = dyn = 0
    shapes_of = defaultdict(set)
    best = defaultdict(list)
    types = set()
    mem_peak = None
    blocking = set()
    for d in dirs:
        info = glob.glob(os.path.join(d, "profiler_info_*.json"))[0]
        r = int(os.path.basename(info)[len("profiler_info_"):-5])
        out = os.path.join(d, "ASCEND_PROFILER_OUTPUT")
        ranks[r] = d
        with open(os.path.join(out, "step_trace_time.csv"), newline="") as f:
            steps[r] = list(csv.DictReader(f))
        p = os.path.join(out, "communication.json")
        if os.path.exists(p):
            comm[r] = json.load(open(p))
            matrix[r] = json.load(open(os.path.join(out, "communication_matrix.json")))
        p = os.path.join(out, "op_statistic.csv")
        if os.path.exists(p):
            for row in csv.DictReader(open(p, newline="")):
                if float(row["Ratio(%)"]) > top[1]:
                    top = (row["OP Type"], float(row["Ratio(%)"]))
        for row in csv.DictReader(open(os.path.join(out, "kernel_details.csv"), newline="")):
            if row["Accelerator Core"] == "AI_CPU" and float(row["Duration(us)"]) >= 20:
                aicpu += 1
            # every aclnn kernel's OP State is "dynamic" in real data: an operator
            # recompiled is one whose input shapes change from step to step
            shapes_of[(r, row["Type"])].add(row.get("Input Shapes", ""))
            types.add(row["Type"])
            ratios = [float(v) for k, v in row.items() if k.endswith("_ratio") and v not in ("N/A", "")]
            if ratios and row["Accelerator Core"] not in ("AI_CPU", "HCCL"):
                best[row["Type"]].append(max(ratios))
        p = os.path.join(out, "memory_record.csv")
        if os.path.exists(p):
            for row in csv.DictReader(open(p, newline="")):
                if row["Component"] == "APP":
                    mem_peak = max(mem_peak or 0.0, float(row["Total Reserved(MB)"]))
        meta = json.load(open(os.path.join(d, "profiler_metadata.json")))
        blocking.add(meta.get("ENV_VARIABLES", {}).get("ASCEND_LAUNCH_BLOCKING", "none") or "unset")
        gi = meta.get("parallel_group_info", {})
        for name, g in gi.items():
            groups[name] = tuple(g["global_ranks"])
    print("ranks", len(ranks))
    mean = lambda v: sum(v) / len(v)
    col = lambda r, c: mean([float(s[c]) for s in steps[r]])
    stage = mean([col(r, "Stage") for r in ranks])
    worst = ("none", 0.0)
    for c in ("Computing", "Communication(Not Overlapped)", "Free"):
        vals = [col(r, c) for r in ranks]
        sp = (max(vals) - min(vals)) / stage
        if sp > worst[1]:
            worst = (c, sp)
    print("spread %s %.4f" % worst)
    part = lambda r, c: col(r, c) / (col(r, "Computing") + col(r, "Communication(Not Overlapped)") + col(r, "Free"))
    exposed = sorted(max(col(r, "Communication(Not Overlapped)") - col(r, "Bubble"), 0) /
                     (col(r, "Computing") + col(r, "Communication(Not Overlapped)") + col(r, "Free")) for r in ranks)
    print("exposed_low %.4f" % exposed[max(-(-len(exposed) // 10) - 1, 0)])
    bub = sorted(part(r, "Bubble") for r in ranks)
    print("bubble_median %.4f" % (bub[len(bub) // 2] if len(bub) % 2 else (bub[len(bub) // 2 - 1] + bub[len(bub) // 2]) / 2))
    forms = {"attention": ({"FlashAttentionScore", "FlashAttentionScoreGrad"}, {"SoftmaxV2", "SoftmaxGrad"}),
             "rmsnorm": ({"RmsNorm", "RmsNormGrad"}, {"Rsqrt"}), "rotary": ({"RotaryPositionEmbedding", "RotaryMul"}, {"Neg"}),
             "swiglu": ({"SwiGlu", "SwiGluGrad"}, {"Swish", "SiluGrad"})}
    print("unfused", " ".join(f for f, (fused, mark) in sorted(forms.items()) if types & mark and not types & fused) or "none")
    print("mem_peak_pct", "%.1f" % (100 * mem_peak / 65536) if mem_peak is not None else "none")
    print("launch_blocking", " ".join(sorted(blocking)))
    print("slowest_compute", max(ranks, key=lambda r: col(r, "Computing")))
    print("host_bound", " ".join(str(r) for r in sorted(ranks) if col(r, "Free") > 0.1 * col(r, "Stage")) or "none")
    ops = defaultdict(dict)     # (step, op key) -> rank -> time info
    comm_kind = {}
    for r, c in comm.items():
        for st, kinds in c.items():
            for kind, o in kinds.items():
                for key, info in o.items():
                    if not key.startswith("Total"):
                        ops[(st, key)][r] = info["Communication Time Info"]
                        comm_kind[(st, key)] = kind
    wr = [t["Wait Time Ratio"] for v in ops.values() for t in v.values()]
    print("max_wait_ratio", max(wr) if wr else "none")
    last = defaultdict(int)
    member = defaultdict(int)
    lasts = {}
    for k, v in ops.items():
        if len(v) > 1:
            lr = min(v, key=lambda r: v[r]["Elapse Time(ms)"])
            lasts[k] = lr
            last[lr] += 1
            for r in v:
                member[r] += 1
    qs = []
    for v in ops.values():
        el = sorted(t["Elapse Time(ms)"] for t in v.values())
        if len(el) >= 3 and el[-1] > el[0]:
            qs.append((el[1] - el[0]) / (el[-1] - el[0]))
    print("dixon_q_max %.3f" % max(qs) if qs else "dixon_q_max none")
    print("last_arrived", " ".join("%d:%d" % kv for kv in sorted(last.items())) or "none")
    if last:
        # the rank last in the largest share of its collectives, that share, and the
        # lowest Wait Time Ratio of the others in the collectives it was last in
        top_r = max(last, key=lambda r: last[r] / member[r])
        others = [t["Wait Time Ratio"] for k, v in ops.items() if lasts.get(k) == top_r for r, t in v.items() if r != top_r]
        print("most_waited_for %d %.2f %s" % (top_r, last[top_r] / member[top_r], min(others)))
    else:
        print("most_waited_for none")
    hashes = {}
    for name, members in groups.items():
        h1 = h2 = 0
        for ch in name:
            h1 = (h1 * 29 + ord(ch)) & 0xFFFFFFFF
            h2 = (h2 * 131 + ord(ch)) & 0xFFFFFFFF
        hashes[str((h1 << 32) | h2)] = set(members)
    ok = bool(ops) or not comm
    for (st, key), v in ops.items():
        if comm_kind[(st, key)] != "collective":
            continue
        members = hashes.get(key.split("@")[1])
        if members is None or set(v) != members & set(ranks):
            ok = False
    print("comm_consistent", "yes" if ok else "no")
    links = defaultdict(lambda: [0.0, 0.0, ""])
    for r, m in matrix.items():
        for st, kinds in m.items():
            for kind, o in kinds.items():
                for key, ls in o.items():
                    if "-total@" in key:
                        for link, d in ls.items():
                            links[link][0] += d["Transit Size(MB)"]
                            links[link][1] += d["Transit Time(ms)"]
                            links[link][2] = d["Transport Type"]
    bw = {l: s / t for l, (s, t, _tt) in links.items() if t}
    slow = []
    for tt in set(v[2] for v in links.values()):
        sel = [l for l in bw if links[l][2] == tt]
        m = mean([bw[l] for l in sel])
        slow += [l for l in sel if bw[l] < 0.2 * m]
    print("slow_links", " ".join(sorted(slow)) or "none")
    small = []
    for r, c in comm.items():
        for tt, limit in (("RDMA", 1.0), ("HCCS", 16.0)):
            vol = tot = 0.0
            for st, kinds in c.items():
                for kind, o in kinds.items():
                    for key, info in o.items():
                        if key.startswith("Total"):
                            continue
                        for size, (cnt, _t) in info["Communication Bandwidth Info"][tt]["Size Distribution"].items():
                            tot += float(size) * cnt
                            if float(size) < limit:
                                vol += float(size) * cnt
            if tot and vol > 0.2 * tot:
                small.append("%d:%s" % (r, tt))
    print("small_packets", " ".join(small) or "none")
    print("top_op %s %.1f" % top)
    print("aicpu_20us", aicpu)
    dyn = sum(1 for v in shapes_of.values() if len(v) > 1)
    print("dynamic_ops", dyn)
    print("low_pipe", " ".join(sorted(t for t, v in best.items() if sum(v) / len(v) < 0.2)) or "none")


if sys.argv[1] == "--each":
    for root in sys.argv[2:]:
        with open(root + ".facts", "w") as sys.stdout:
            facts(root)
        sys.stdout = sys.__stdout__
else:
    facts(sys.argv[1])
PY
