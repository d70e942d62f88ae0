#!/usr/bin/env python3
"""The figures of a real torch_npu data set, computed from its files here,
and compared with what `msprof-exec report --json` says about it
(t/0375-real-data.t).  Standard library only.

    real_figures.py figures DATASET           the figures, as JSON
    real_figures.py check DATASET REPORT      one line per check
    real_figures.py cross TEXT TREPORT DB DREPORT
                                              the db export against the text
                                              export of the same level

DATASET is a folder of rank directories (*_ascend_pt) of one export, text
(ASCEND_PROFILER_OUTPUT/*.csv) or db (ascend_pytorch_profiler_<rank>.db,
analysis.db).  A check line is

    STATUS <tab> FEATURES <tab> NAME <tab> DIAGNOSTIC

STATUS 0 when the report agrees, FEATURES "-" or the comma-separated
features the check needs that the program may lack (the test decides
which of them are TODO): db-operators, db-memory, level0-types,
opstate-dynamic.

What is computed, from the files alone (never from the program's output):

- steps, per rank and per step: Computing, Communication(Not Overlapped),
  Free, Bubble, Overlapped / Communication, from step_trace_time.csv or
  analysis.db's StepTraceTime; the step time is Computing +
  Communication(Not Overlapped) + Free; the program's step time must
  also equal torch_npu's own Stage column (on every real set it is that
  sum within 0.25 us).  The program's figures are in us; they must agree
  within 0.01 ms; the overlap (Overlapped / Communication) within 1e-4.
- operators, all ranks together: per operator type its count, total
  device time and share of the device time of all operators; the
  communication kernels (hcom_*, on HCCL) are left out, as the
  communication summaries cover them.  Text: kernel_details.csv's Type and
  Duration(us).  Db: COMPUTE_TASK_INFO joined with TASK on globalTaskId,
  TASK.endNs - startNs, the type STRING_IDS[opType] and the core
  STRING_IDS[taskType].  Level0 writes the type N/A: the type is that of
  the same kernel name in the level1 or level2 data of the same
  generation, text or db (every level0 kernel name is there, with one
  type).  The name's last "_" part that is not a number would not do:
  "Conv2D1", "AxpyV2102" and "MaxPoolWithArgmaxV114" (2024) carry the
  instance number glued to the type.  The top 10 by total, their counts exactly, their totals
  and shares within 0.5 %; the median duration of each (of a type on one
  core: the report's operator is a type and a core) within 0.01 us, and
  said to be exact.
- peak memory, per rank: the highest "Total Reserved(MB)" of the APP rows
  of memory_record.csv (the process's device memory as the driver counts
  it; without APP rows, the highest of the other rows).  Db: torch_npu's
  MEMORY_RECORD has only the PTA, GE and PTA+GE rows (its MemoryDbParser
  writes no APP row); the APP figures are NPU_MEM's rows of type "app"
  (ddr + hbm, bytes), the same npu_mem data the text export's APP rows
  come from (the 2024 generation puts 66 MB of the 2130 MB in ddr, as its
  text export's APP total shows): the db's peak is their highest
  ddr + hbm / 2^20, component APP.
  Within 0.01 MB.
"""
import csv
import glob
import json
import math
import os
import statistics
import re
import sqlite3
import sys
from collections import defaultdict

STEP_TOL_US = 10.0      # 0.01 ms
REL_TOL = 0.005         # 0.5 %
MEM_TOL_MB = 0.01
TOP = 10


def db_open(path):
    return sqlite3.connect("file:%s?mode=ro&immutable=1" % path, uri=True)


def num(s):
    try:
        v = float(str(s).strip())
    except ValueError:
        return math.nan
    return v


def rank_dirs(ds):
    """{rank: directory}, the rank from profiler_info_<rank>.json."""
    out = {}
    for d in sorted(glob.glob(os.path.join(ds, "*_ascend_pt"))):
        for f in glob.glob(os.path.join(d, "profiler_info_*.json")):
            m = re.search(r"profiler_info_(\d+)\.json$", f)
            if m:
                out[int(m.group(1))] = d
    return out


def out_dir(d):
    return os.path.join(d, "ASCEND_PROFILER_OUTPUT")


def export_of(ds):
    for d in rank_dirs(ds).values():
        if os.path.exists(os.path.join(out_dir(d), "kernel_details.csv")) or \
                os.path.exists(os.path.join(out_dir(d), "step_trace_time.csv")):
            return "text"
    return "db"


def level_of(ds):
    for d in rank_dirs(ds).values():
        for f in glob.glob(os.path.join(d, "profiler_info_*.json")):
            with open(f) as fp:
                info = json.load(fp)
            lv = info.get("config", {}).get("experimental_config", {}) \
                .get("_profiler_level", "")
            return str(lv).lower()
    return ""


def the_db(d):
    f = glob.glob(os.path.join(out_dir(d), "ascend_pytorch_profiler_*.db"))
    return f[0] if f else None


def is_comm(name, core):
    return name.startswith("hcom_") or core in ("HCCL", "COMMUNICATION")


# --- steps -----------------------------------------------------------------

STEP_COLS = [("computing_us", "Computing", "computing"),
             ("communication_not_overlapped_us",
              "Communication(Not Overlapped)", "communication_not_overlapped"),
             ("free_us", "Free", "free"),
             ("bubble_us", "Bubble", "bubble"),
             ("stage_us", "Stage", "stage"),
             ("overlapped_us", "Overlapped", "overlapped"),
             ("communication_us", "Communication", "communication")]


def step_rows(d, export):
    rows = []
    if export == "text":
        with open(os.path.join(out_dir(d), "step_trace_time.csv"),
                  newline="") as fp:
            for r in csv.DictReader(fp):
                rows.append((r["Step"].strip(),
                             {k: num(r[c]) for k, c, _ in STEP_COLS}))
    else:
        db = db_open(os.path.join(out_dir(d), "analysis.db"))
        sql = "SELECT step, %s FROM StepTraceTime" % \
            ", ".join(c for _, _, c in STEP_COLS)
        for r in db.execute(sql):
            rows.append((str(r[0]), {k: num(v) for (k, _, _), v in
                                     zip(STEP_COLS, r[1:])}))
        db.close()
    out = []
    for step, v in rows:
        if any(math.isnan(v[k]) for k in ("computing_us",
                                          "communication_not_overlapped_us",
                                          "free_us")):
            continue
        v["step_us"] = v["computing_us"] + \
            v["communication_not_overlapped_us"] + v["free_us"]
        v["overlap"] = v["overlapped_us"] / v["communication_us"] \
            if v["communication_us"] > 0 else None
        v["step"] = int(step) if step.isdigit() else None
        out.append(v)
    return out


def mean_row(rows):
    m = {}
    for k in ("computing_us", "communication_not_overlapped_us", "free_us",
              "bubble_us", "stage_us", "step_us", "overlapped_us",
              "communication_us"):
        m[k] = sum(r[k] for r in rows) / len(rows)
    m["overlap"] = m["overlapped_us"] / m["communication_us"] \
        if m["communication_us"] > 0 else None
    return m


# --- operators -------------------------------------------------------------

def kernels(d, export):
    """(name, type, core, duration_us) of each compute kernel of a rank."""
    if export == "text":
        with open(os.path.join(out_dir(d), "kernel_details.csv"),
                  newline="") as fp:
            for r in csv.DictReader(fp):
                yield (r["Name"].strip(), r["Type"].strip(),
                       r["Accelerator Core"].strip(), num(r["Duration(us)"]))
    else:
        db = db_open(the_db(d))
        sql = ("SELECT n.value, o.value, k.value, t.endNs - t.startNs "
               "FROM COMPUTE_TASK_INFO c "
               "JOIN TASK t ON t.globalTaskId = c.globalTaskId "
               "LEFT JOIN STRING_IDS n ON n.id = c.name "
               "LEFT JOIN STRING_IDS o ON o.id = c.opType "
               "LEFT JOIN STRING_IDS k ON k.id = c.taskType")
        for name, typ, core, ns in db.execute(sql):
            yield (name or "", typ or "", core or "", ns / 1000.0)
        db.close()


def name_types(ds):
    """{kernel name: type} from the level1 and level2 data, text and db,
    of the generation DATASET belongs to (its grandparent folder)."""
    gen = os.path.dirname(os.path.dirname(os.path.abspath(ds)))
    seen = defaultdict(set)
    for lv in sorted(glob.glob(os.path.join(gen, "*", "level[12]"))):
        ex = export_of(lv)
        for d in rank_dirs(lv).values():
            for name, typ, core, _ in kernels(d, ex):
                if typ and typ != "N/A":
                    seen[name].add(typ)
    return {n: t.pop() for n, t in seen.items() if len(t) == 1}


def operators(ds):
    """{type: {count, total_us, cores}}, all ranks; the unknown names."""
    export = export_of(ds)
    level0 = level_of(ds) == "level0"
    names = name_types(ds) if level0 else {}
    ops = defaultdict(lambda: {"count": 0, "total_us": 0.0, "cores": set(),
                               "durs": []})
    unknown = set()
    for d in rank_dirs(ds).values():
        for name, typ, core, dur in kernels(d, export):
            if is_comm(name, core):
                continue
            if level0 or typ in ("", "N/A"):
                if name not in names:
                    unknown.add(name)
                    continue
                typ = names[name]
            o = ops[typ]
            o["count"] += 1
            o["total_us"] += dur
            o["cores"].add(core)
            o["durs"].append(dur)
    return ops, unknown


def top_of(ops):
    return sorted(ops, key=lambda t: (-ops[t]["total_us"], t))[:TOP]


# --- memory ----------------------------------------------------------------

def peak_memory(d, export):
    """(peak reserved MB, component) of a rank, or (None, why)."""
    if export == "text":
        f = os.path.join(out_dir(d), "memory_record.csv")
        if not os.path.exists(f):
            return None, "no memory_record.csv"
        app, other = [], []
        with open(f, newline="") as fp:
            for r in csv.DictReader(fp):
                v = num(r["Total Reserved(MB)"])
                if math.isnan(v):
                    continue
                (app if r["Component"].strip() == "APP" else other).append(v)
        if app:
            return max(app), "APP"
        return (max(other), "PTA") if other else (None, "no rows")
    db = db_open(the_db(d))
    r = db.execute("SELECT max(m.ddr + m.hbm) FROM NPU_MEM m JOIN STRING_IDS s "
                   "ON s.id = m.type WHERE s.value = 'app'").fetchone()
    if r[0] is not None:
        db.close()
        return r[0] / 1048576.0, "APP"
    r = db.execute("SELECT max(totalReserved) FROM MEMORY_RECORD").fetchone()
    db.close()
    return (r[0] / 1048576.0, "PTA") if r[0] is not None else (None, "no rows")


def has_opstate_dynamic(ds):
    """Some kernel of the text export has OP State dynamic."""
    if export_of(ds) != "text":
        return False
    for d in rank_dirs(ds).values():
        with open(os.path.join(out_dir(d), "kernel_details.csv"),
                  newline="") as fp:
            for r in csv.DictReader(fp):
                if r.get("OP State", "").strip().lower() == "dynamic":
                    return True
    return False


# --- the figures and the checks --------------------------------------------

def figures(ds):
    export = export_of(ds)
    ops, unknown = operators(ds)
    f = {"export": export, "level": level_of(ds), "ranks": {}}
    for rank, d in sorted(rank_dirs(ds).items()):
        rows = step_rows(d, export)
        peak, comp = peak_memory(d, export)
        f["ranks"][rank] = {"steps": rows, "mean": mean_row(rows),
                            "peak_mb": peak, "component": comp}
    f["operators"] = {t: {"count": o["count"], "total_us": o["total_us"],
                          "cores": sorted(o["cores"]),
                          "median_us": statistics.median(o["durs"])}
                      for t, o in ops.items()}
    f["operators_total_us"] = sum(o["total_us"] for o in ops.values())
    f["unknown_names"] = sorted(unknown)
    f["top"] = top_of(ops)
    return f


def close(a, b, tol):
    return a is not None and b is not None and abs(a - b) <= tol


def rel_close(a, b, rel=REL_TOL):
    return a is not None and b is not None and \
        abs(a - b) <= rel * max(abs(a), abs(b), 1e-9)


class Checks:
    def __init__(self, prefix):
        self.prefix = prefix

    def emit(self, good, features, name, diag=""):
        print("%d\t%s\t%s: %s\t%s" % (0 if good else 1,
                                      ",".join(features) or "-",
                                      self.prefix, name,
                                      diag.replace("\t", " ")
                                      .replace("\n", "; ")))


def summary_of(report):
    with open(report) as fp:
        return json.load(fp).get("summary", {})


def check_steps(c, fig, summ, feats):
    want_ranks = sorted(fig["ranks"])
    got = {r.get("rank"): r for r in
           summ.get("summaries", {}).get("steps", {}).get("ranks", [])}
    for rank in want_ranks:
        w = fig["ranks"][rank]
        g = got.get(rank)
        bad = []
        if g is None or "step_us" not in g:
            c.emit(False, feats, "rank %d: step breakdown" % rank,
                   "no steps for rank %d: %s" %
                   (rank, (g or {}).get("why", "not in the JSON")))
            continue
        for k in ("computing_us", "communication_not_overlapped_us",
                  "free_us", "bubble_us", "step_us"):
            if not close(g.get(k), w["mean"][k], STEP_TOL_US):
                bad.append("%s %s, the files %.3f" % (k, g.get(k),
                                                      w["mean"][k]))
        if not close(g.get("step_us"), w["mean"]["stage_us"],
                     STEP_TOL_US):
            bad.append("step_us %s, Stage %.3f" % (g.get("step_us"),
                                                  w["mean"]["stage_us"]))
        if w["mean"]["overlap"] is not None and \
                not close(g.get("overlap"), w["mean"]["overlap"], 1e-4):
            bad.append("overlap %s, the files %.5f" % (g.get("overlap"),
                                                       w["mean"]["overlap"]))
        gsteps = {s.get("step"): s for s in g.get("steps", [])}
        for s in w["steps"]:
            gs = gsteps.get(s["step"])
            if gs is None:
                bad.append("step %s missing" % s["step"])
                continue
            for k in ("computing_us", "communication_not_overlapped_us",
                      "free_us", "bubble_us", "step_us"):
                if not close(gs.get(k), s[k], STEP_TOL_US):
                    bad.append("step %s %s %s, the files %.3f" %
                               (s["step"], k, gs.get(k), s[k]))
        if len(gsteps) != len(w["steps"]):
            bad.append("%d steps, the files %d" % (len(gsteps),
                                                   len(w["steps"])))
        c.emit(not bad, feats,
               "rank %d: step breakdown (computing, exposed communication, "
               "free, bubble, step = Stage; %d step%s) within 0.01 ms" %
               (rank, len(w["steps"]), "" if len(w["steps"]) == 1 else "s"),
               "; ".join(bad))


def check_operators(c, fig, summ, feats):
    o = summ.get("summaries", {}).get("operators", {})
    ops, top = fig["operators"], fig["top"]
    if fig["level"] == "level0":
        c.emit(not fig["unknown_names"], [], "the files: every level0 "
               "kernel name has a type in the level1/level2 data",
               "unknown: " + ", ".join(fig["unknown_names"][:5]))
    c.emit(bool(o.get("made")), feats["total"], "operators summarised",
           str(o.get("why", "")))
    total = fig["operators_total_us"]
    c.emit(rel_close(o.get("total_us"), total), feats["total"],
           "device time of all operators %.3f ms within 0.5 %%" %
           (total / 1000), "the report: %s us" % o.get("total_us"))
    feats = feats["types"]
    c.emit(o.get("operator_types") == len(ops), feats,
           "%d operator types" % len(ops),
           "the report: %s" % o.get("operator_types"))
    gtop = o.get("top", [])
    gnames = [x.get("type") for x in gtop]
    c.emit(gnames == top, feats, "the top %d types, in order: %s" %
           (len(top), ", ".join(top)), "the report: %s" % ", ".join(
               str(x) for x in gnames))
    g = {x.get("type"): x for x in gtop}
    bad = [t for t in top if g.get(t, {}).get("count") != ops[t]["count"]]
    c.emit(not bad, feats, "their counts: %s" %
           " ".join(str(ops[t]["count"]) for t in top),
           "; ".join("%s %s, the files %d" % (t, g.get(t, {}).get("count"),
                                              ops[t]["count"]) for t in bad))
    bad = [t for t in top if not rel_close(g.get(t, {}).get("total_us"),
                                           ops[t]["total_us"])]
    c.emit(not bad, feats, "their total ms within 0.5 %%: %s" %
           " ".join("%.3f" % (ops[t]["total_us"] / 1000) for t in top),
           "; ".join("%s %s us, the files %.3f" %
                     (t, g.get(t, {}).get("total_us"), ops[t]["total_us"])
                     for t in bad))
    bad = [t for t in top if not rel_close(g.get(t, {}).get("share"),
                                           ops[t]["total_us"] / total)]
    c.emit(not bad, feats, "their shares of the device time within 0.5 %",
           "; ".join("%s %s, the files %.4f" %
                     (t, g.get(t, {}).get("share"),
                      ops[t]["total_us"] / total) for t in bad))
    one = [t for t in top if len(ops[t]["cores"]) == 1]
    bad = [t for t in one if not (g.get(t, {}).get("median_exact") and
                                  close(g.get(t, {}).get("median_us"),
                                        ops[t]["median_us"], 0.01))]
    c.emit(not bad, feats, "their exact median us within 0.01: %s" %
           " ".join("%.2f" % ops[t]["median_us"] for t in one),
           "; ".join("%s %s (exact: %s), the files %.3f" %
                     (t, g.get(t, {}).get("median_us"),
                      g.get(t, {}).get("median_exact"), ops[t]["median_us"])
                     for t in bad))
    if fig["level"] != "level0":
        bad = [t for t in top if [g.get(t, {}).get("core")] !=
               ops[t]["cores"]]
        c.emit(not bad, feats, "their accelerator cores",
               "; ".join("%s %s, the files %s" % (t, g.get(t, {}).get("core"),
                                                  ops[t]["cores"])
                         for t in bad))


def check_memory(c, fig, summ, feats):
    got = {r.get("rank"): r for r in
           summ.get("summaries", {}).get("memory", {}).get("ranks", [])}
    for rank, w in sorted(fig["ranks"].items()):
        g = got.get(rank, {})
        if w["peak_mb"] is None:
            continue
        c.emit(close(g.get("peak_mb"), w["peak_mb"], MEM_TOL_MB) and
               g.get("component") == w["component"], feats,
               "rank %d: peak reserved %.3f MB (%s)" %
               (rank, w["peak_mb"], w["component"]),
               "the report: %s MB (%s)" % (g.get("peak_mb"),
                                           g.get("component")))


def check(ds, report, name):
    fig = figures(ds)
    summ = summary_of(report)
    c = Checks(name)
    db = fig["export"] == "db"
    level0 = fig["level"] == "level0"
    ranks = sorted(r.get("rank") for r in summ.get("ranks", []))
    c.emit(ranks == sorted(fig["ranks"]), [], "ranks %s" %
           " ".join(map(str, sorted(fig["ranks"]))),
           "the report: %s" % ranks)
    check_steps(c, fig, summ, [])
    of = ["db-operators"] if db else []
    check_operators(c, fig, summ,
                    {"total": of,
                     "types": of + (["level0-types"] if level0 else []) +
                     (["level0-variants"] if level0 and "2024" in ds else [])})
    check_memory(c, fig, summ, ["db-memory"] if db else [])
    rules = [f.get("rule") for f in summ.get("findings", [])]
    c.emit("dynamic-shape" not in rules,
           ["opstate-dynamic"] if has_opstate_dynamic(ds) else [],
           "no dynamic-shape finding (every aclnn kernel is dynamic in real "
           "output)", "findings: %s" % ", ".join(map(str, rules)))


def cross(tds, treport, dds, dreport, name):
    """The db export's operators against the text export's, in the
    report.  The corpus's text and db folders are two collections of the
    same training step, not one collection exported twice: the types and
    counts must be the same, the totals may differ by what the files'
    figures differ by, plus 0.5 %."""
    tf, df = figures(tds), figures(dds)
    c = Checks(name)
    feats = ["db-operators"] + (["level0-types"] if tf["level"] == "level0"
                                else [])
    # the files first: the two collections hold the same kernels
    tc = {t: o["count"] for t, o in tf["operators"].items()}
    dc = {t: o["count"] for t, o in df["operators"].items()}
    c.emit(tc == dc and len(tc) > 0, [],
           "the files: db and text hold the same %d types, with the same "
           "counts" % len(tc),
           "; ".join("%s: text %s, db %s" % (t, tc.get(t), dc.get(t))
                     for t in sorted(set(tc) | set(dc))
                     if tc.get(t) != dc.get(t)))
    to = summary_of(treport).get("summaries", {}).get("operators", {})
    do = summary_of(dreport).get("summaries", {}).get("operators", {})
    tg = {x.get("type"): x for x in to.get("top", [])}
    dg = {x.get("type"): x for x in do.get("top", [])}
    c.emit(set(tg) == set(dg) and len(tg) > 0, feats,
           "the report: the db export's top types are the text export's",
           "text %s; db %s" % (sorted(map(str, tg)), sorted(map(str, dg))))
    bad = [t for t in tg if dg.get(t, {}).get("count") !=
           tg[t].get("count") or dg.get(t, {}).get("core") !=
           tg[t].get("core")]
    c.emit(not bad and len(tg) > 0, feats,
           "the report: their counts and cores are the text export's",
           "; ".join("%s: text %s %s, db %s %s" %
                     (t, tg[t].get("count"), tg[t].get("core"),
                      dg.get(t, {}).get("count"), dg.get(t, {}).get("core"))
                     for t in bad))
    bad = []
    for t in tg:
        ft = tf["operators"].get(t, {}).get("total_us")
        fd = df["operators"].get(t, {}).get("total_us")
        gt, gd = tg[t].get("total_us"), dg.get(t, {}).get("total_us")
        if None in (ft, fd, gt, gd) or \
                abs(gd - gt) > abs(fd - ft) + REL_TOL * ft:
            bad.append("%s: text %s, db %s; the files %s, %s" %
                       (t, gt, gd, ft, fd))
    c.emit(not bad and len(tg) > 0, feats,
           "the report: their totals differ by the files' difference, "
           "within 0.5 %", "; ".join(bad))


def main(argv):
    if len(argv) >= 2 and argv[0] == "figures":
        f = figures(argv[1])
        json.dump(f, sys.stdout, indent=1, default=list)
        print()
        return 0
    if len(argv) >= 3 and argv[0] == "check":
        check(argv[1], argv[2], argv[3] if len(argv) > 3 else argv[1])
        return 0
    if len(argv) >= 5 and argv[0] == "cross":
        cross(argv[1], argv[2], argv[3], argv[4],
              argv[5] if len(argv) > 5 else argv[1])
        return 0
    sys.stderr.write(__doc__)
    return 64


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
