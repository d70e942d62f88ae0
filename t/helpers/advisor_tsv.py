#!/usr/bin/python3
"""Regenerate t/data/real/advisor.tsv: what msprof-analyze's advisor finds
on each real data set, beside what msprof-exec's report says for it.

Needs msprof-analyze's source (github Ascend/msprof-analyze) and its
Python dependencies (Debian: python3-pandas python3-numpy python3-yaml
python3-click python3-jinja2 python3-tqdm python3-prettytable
python3-xlsxwriter python3-sqlalchemy python3-networkx python3-ijson
python3-psutil python3-plotly python3-bs4 python3-openpyxl); CI does not
run it, only t/0390-advisor.t reads its output.

    advisor_tsv.py SRC COMMIT CORPUS MSPROF OUT.tsv

SRC is the advisor's source tree at COMMIT, CORPUS a copy of t/data/real
(the advisor writes nothing there, but a copy may carry the full
trace_view.json files the repository trims), MSPROF the msprof-exec
binary.  Advisor HTML reports already in $ADVISOR_OUT/<set>/ are reused.
"""
import glob
import json
import os
import re
import subprocess
import sys

from bs4 import BeautifulSoup

SETS = ["msinsight-2025/text/level0", "msinsight-2025/text/level1",
    "msinsight-2025/text/level2", "msinsight-2025/db/level0",
    "msinsight-2025/db/level1", "msinsight-2025/db/level2",
    "msinsight-2024/text/level0", "msinsight-2024/text/level1",
    "msinsight-2024/db/level1", "msinsight-megatron", "msinsight-server",
    # Where the advisor's cluster mode stops or finds little (no
    # trace_view.json, no *_ascend_pt names), it runs on each rank.
    "msinsight-megatron/rank_0_ascend_pt",
    "msinsight-megatron/rank_1_ascend_pt",
    "msinsight-megatron/rank_2_ascend_pt",
    "msinsight-megatron/rank_3_ascend_pt",
    "msinsight-server/test_rank_0", "msinsight-server/test_rank_1"]


def report_set(ds):
    """What msprof-exec's report runs on for a row: the whole data set,
    as a user gives it, also for the advisor's runs on one rank."""
    return re.sub(r"/(test_)?rank_?\d+(_ascend_pt)?$", "", ds)

# The advisor's section titles that group checks, not checks.
GROUPS = {"overall", "performance problem analysis", "communication",
    "computation", "schedule", "comparison"}


def advisor_error(out):
    """The advisor's last error, when it wrote no report."""
    try:
        log = open(out + ".out").read()
    except OSError:
        return "no report"
    m = re.findall(r"no such table: \w+|\S+ doesn't exist, terminate "
        r"analysis", log)
    return m[-1] if m else "no report"


def run_advisor(src, path, out):
    html = glob.glob(os.path.join(out, "*.html"))
    if html or os.path.exists(out + ".out"):
        return html[0] if html else None
    os.makedirs(out, exist_ok=True)
    with open(out + ".out", "w") as log:
        subprocess.run([sys.executable, "-c", "from msprof_analyze.cli."
            "entrance import msprof_analyze_cli; msprof_analyze_cli()",
            "advisor", "all", "-d", path, "-l", "en", "--force", "-o",
            out], cwd=src, stdout=log, stderr=subprocess.STDOUT)
    html = glob.glob(os.path.join(out, "*.html"))
    return html[0] if html else None


def sections(html):
    """(title, text, [table rows as dicts]) per check of the report."""
    s = BeautifulSoup(open(html).read(), "html.parser")
    for h in s.find_all("h2"):
        title = h.get_text(" ", strip=True)
        if title in GROUPS:
            continue
        text, rows = [], []
        for el in h.find_all_next():
            if el.name == "h2":
                break
            if el.name != "table":
                continue
            head = None
            for tr in el.find_all("tr"):
                cells = [c.get_text(" ", strip=True)
                    for c in tr.find_all(["td", "th"], recursive=False)]
                if tr.find("th") and len(cells) > 1:
                    head = cells
                elif head and len(cells) == len(head):
                    rows.append(dict(zip(head, cells)))
        for el in h.next_elements:
            if getattr(el, "name", None) == "h2":
                break
            if isinstance(el, str):
                text.append(el.strip())
        yield title, " ".join(t for t in text if t), rows


def op_type(name):
    """trans_TransData_23, aclnnFoo_FooV2_Foo: the kernel type."""
    name = re.sub(r"(_\d+)+$", "", name)
    return name.rsplit("_", 1)[-1]


def findings(title, text, rows):
    """(check, finding, evidence) in a short normalised form."""
    if title == "Environment Variable Issues":
        for r in rows:
            if r.get("Environment"):
                yield title, "unset " + r["Environment"], ""
    elif title == "slow rank":
        m = re.search(r"There is no slow rank", text)
        if m:
            yield title, "none", ""
        else:
            m = re.search(r"Description (\w+) has some issues .*? the max "
                r"difference of \w+ time has reached ([\d.]+ms)",
                re.sub(r"\s+", " ", text))
            yield title, "%s spread between ranks" % m.group(1).lower(), (
                "max difference " + m.group(2))
    elif title == "slow link":
        m = re.findall(r"(RDMA|SDMA) bandwidth\(GB/s\):\s+The average is "
            r"([\d.]+)", text)
        yield title, "none flagged", "; ".join("%s mean %s GB/s" % x
            for x in m)
    elif title == "Byte Alignment Analysis":
        for r in rows:
            if "op name" in r:
                share = (float(r["abnormal duration(us)"]) /
                    float(r["duration(us)"]))
                yield title, "unaligned %s %s B" % (re.sub(
                    r"__\d+_\d+_\d+$", "", r["op name"]),
                    r["total size(Byte)"]), ("%s of %s us (%.0f %%)" %
                    (r["abnormal duration(us)"], r["duration(us)"],
                    100 * share))
    elif title == "AI Core Performance Analysis":
        seen = {}
        for r in rows:
            if "name" not in r:
                continue
            t = op_type(r["name"])
            if "bound type" in r:
                k = ("bound " + r["bound type"], t)
            else:
                k = ("optimisation space", t)
            seen.setdefault(k, r.get("bound type") or
                r.get("refer to Performance Optimization Space", ""))
        for (what, t), v in seen.items():
            yield title, "%s %s" % (t, what.split(" ")[0]), v
    elif title.startswith("Api compare of "):
        m = re.match(r"Api compare of Rank(\d+) Step(\d+) and Rank(\d+)",
            title)
        diffs = []
        for r in rows:
            if "api name" in r:
                d = abs(float(r["Total Duration(ms)"]) -
                    float(r["Benchmark  Total Duration(ms)"]))
                diffs.append((d, r["api name"]))
        d, api = max(diffs) if diffs else (0, "")
        yield ("Api compare", "rank %s against rank %s, step %s" %
            (m.group(1), m.group(3), m.group(2)),
            "largest difference of the rows shown: %s %.2f ms" % (api, d))
    elif title == "Packet Analysis":
        for tr, share, size, ms in re.findall(r"In the (\w+) communication, "
                r"([\d.]+%) of the communication data volume is less than "
                r"([\d.]+ MB), and the total time is ([\d.]+) ms", text):
            yield title, "small %s transfers" % tr, ("%s under %s, %s ms" %
                (share, size, ms))
    elif title == "AICPU Issues":
        for r in rows:
            if "Operator Type" in r:
                yield title, r["Operator Type"] + " over 20 us", (
                    "%s tasks, %s us" % (r["Counts"], r["Elapsed Time(us)"]))
    elif title == "Operator Dispatch Issues":
        for r in rows:
            if "Issue" in r:
                yield title, r["Issue"] + " calls", "%s calls, %.0f us" % (
                    r["Counts"], float(r["Elapsed Time(us)"]))
    elif title == "Operator Dynamic Shape Issues":
        m = re.search(r"Analysis of rank (\d+)", text)
        yield title, "all operators dynamic shape", ("rank " + m.group(1)
            if m else "")
    elif title == "Affinity API Issues":
        for api in sorted(set(re.findall(r"torch_npu\.[\w.]+", text))):
            frames = re.findall(r"([^;\s]+\.py)\((\d+)\): (\w+);", text)
            user = [f for f in frames if "site-packages" not in f[0]
                and "/lib/python" not in f[0]]
            yield title, api, ("%s:%s %s" % ((os.path.basename(
                user[0][0]),) + user[0][1:]) if user else "no stack")
    elif title == "Operator No Bound Issues":
        for r in rows:
            if "Operator Type" in r:
                yield title, r["Operator Type"] + " no bound", (
                    "%s kernels, %s us" % (r["Counts"],
                    r["Elapsed Time(us)"]))
    else:
        yield title, re.sub(r"\s+", " ", text)[:80], ""


# What msprof-exec's report says for each check: the rule it matches
# and how to see it in the report's findings, else why not.
def verdict(check, finding, evidence, report):
    fs = report.get("summary", {}).get("findings", [])
    rules = {f["rule"]: f for f in fs}

    def has(rule, word=None):
        f = rules.get(rule)
        return f and (word is None or word in f["text"])
    if not fs and not report.get("summary", {}).get("summaries", {}).get(
            "steps", {}).get("made"):
        return ("missing: data not read (its rank directories are "
            "named test_rank_N, not *_ascend_pt)")
    if check == "Environment Variable Issues":
        var = finding.split(" ", 1)[1]
        for f in fs:
            if any(var in s.get("name", "") for s in
                    f.get("settings", [])):
                return "finds %s setting %s" % (f["rule"], var)
        return ("missing: rule not there (the advisor lists each "
            "variable of its list that is unset, whatever the data)")
    if check == "slow rank":
        if finding == "none":
            return ("absent slow-rank" if "slow-rank" not in rules
                else "missing: disagree: msprof-exec names a slow rank")
        if has("slow-rank"):
            return "finds slow-rank"
        return ("missing: rule not there (two ranks: slow-rank needs "
            "three; the advisor flags any spread of a step part "
            "between ranks, here a wait in the collectives, which "
            "the wait table or the timeline would give to one rank)")
    if check == "slow link":
        return ("absent slow-link" if "slow-link" not in rules
            else "missing: disagree: msprof-exec names a slow link")
    if check == "Byte Alignment Analysis":
        if has("byte-alignment"):
            return "finds byte-alignment"
        return ("missing: disagree: msprof-exec weighs the unaligned "
            "transfers' time against all of the rank's transfer time "
            "and wants 20 % (the advisor's own low-priority bound); "
            "the advisor lists every operator with any")
    if check == "AI Core Performance Analysis":
        t = finding.split(" ")[0]
        for r in ("low-pipe-utilisation", "format-conversion",
                "dominant-operator", "matmul"):
            if has(r, t):
                return "finds %s %s" % (r, t)
        return ("missing: rule not there (bound type and optimisation "
            "space per kernel shape, from the PMU columns)")
    if check == "Operator No Bound Issues":
        t = finding.split(" ")[0]
        for r in ("low-pipe-utilisation", "dominant-operator"):
            if has(r, t):
                return "finds %s %s" % (r, t)
        return ("missing: rule not there (the advisor lists the top "
            "kernel types when no pipe's ratio passes 80 %; "
            "msprof-exec's low-pipe-utilisation names only types of 5 % "
            "or more of the device time whose ratios all stay below 0.4)")
    if check == "Operator Dynamic Shape Issues":
        return ("missing: disagree: every aclnn kernel is OP State dynamic; "
            "msprof-exec's dynamic-shape weighs the compile time "
            "(opCompile in api_statistic.csv, where the export has it) "
            "against the step instead: no finding here")
    if check == "Packet Analysis":
        if has("small-packets"):
            return "finds small-packets"
        return ("missing: disagree: the advisor's share is of the "
            "operators (packet_checker.py: abnormal_count / count), "
            "though it says volume; msprof-exec counts operators only "
            "when their transit time also reaches 20 %%, and they take "
            "%s here" % evidence.rsplit(", ", 1)[-1])
    if check == "AICPU Issues":
        t = finding.split(" ")[0]
        if has("aicpu-operator", t):
            return "finds aicpu-operator " + t
        return "missing: rule there, finding not made"
    if check == "Operator Dispatch Issues":
        return ("missing: timeline (aclopCompileAndExecute calls in "
            "trace_view.json / CANN_API; msprof-exec's dynamic-shape reads "
            "opCompile in api_statistic.csv, which this set lacks)")
    if check == "Api compare":
        d = float(re.search(r"([\d.]+) ms$", evidence).group(1))
        if d < 1:
            return ("missing: disagree: the advisor compares two ranks' "
                "host APIs on every run; the differences it shows are "
                "under 1 ms a step, no finding")
        return ("missing: timeline (host API time per rank, "
            "PYTORCH_API or trace_view.json)")
    if check == "Affinity API Issues":
        return ("missing: timeline (the optimizer's call in "
            "trace_view.json / PYTORCH_API, not read yet)")
    return "missing: not reviewed"


def main():
    src, commit, corpus, msprof, out = sys.argv[1:6]
    aout = os.environ.get("ADVISOR_OUT", "/tmp/advisor-out")
    lines = ["# dataset\tcheck\tfinding\tevidence\tadvisor_commit\t"
        "msprof_exec"]
    for ds in SETS:
        path = os.path.join(corpus, ds)
        html = run_advisor(src, path, os.path.join(aout,
            ds.replace("/", "_")))
        rj = os.path.join(aout, ds.replace("/", "_") + ".report.json")
        subprocess.run([msprof, "report", "--json", rj,
            os.path.join(corpus, report_set(ds))],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            report = json.load(open(rj))
        except (OSError, ValueError):
            report = {}
        if html is None:
            lines.append("\t".join([ds, "(advisor failed)",
                advisor_error(os.path.join(aout, ds.replace("/", "_"))),
                "", commit, "n/a: the advisor stops with an error; "
                "msprof-exec's report is written"]))
            continue
        for title, text, rows in sections(html):
            for check, finding, ev in findings(title, text, rows):
                lines.append("\t".join([ds, check, finding, ev, commit,
                    verdict(check, finding, ev, report)]))
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
