"""Hold msprof-exec's report against t/data/real/advisor.tsv.

    advisor_check.py ADVISOR.TSV JSONDIR

JSONDIR holds the report's --json of each data set, named after the
data set's path with / as - (msinsight-2025-text-level1.json); a row of
one rank of a data set reads the data set's.  Prints a
line per row of the table: STATUS (0 holds, 1 does not), TODO reason
or "-", and the test's name, tab separated.

A row whose msprof_exec column is
  finds RULE [WORD]       holds when the report has a finding of RULE
                          (whose text names WORD, if given);
  finds RULE setting VAR  holds when RULE offers the setting VAR;
  absent RULE             holds when the report has no finding of RULE;
  n/a: WHY                the advisor found nothing to hold against
                          (it failed): holds when the report is written;
  missing: WHY            is a TODO: it holds once some finding names
                          what the advisor found (the probe below), and
                          then the row wants its column updated.
"""
import json
import re
import sys


def report_set(ds):
    """The data set a row's report is of: the advisor ran on one rank of
    some (rank_N_ascend_pt, test_rank_N), msprof-exec on all of it."""
    return re.sub(r"/(test_)?rank_?\d+(_ascend_pt)?$", "", ds)


def findings_of(path):
    try:
        return json.load(open(path)).get("summary", {}).get("findings", [])
    except (OSError, ValueError):
        return None


def names(f, word):
    return re.search(r"(?<!\w)%s(?!\w)" % re.escape(word), f["text"])


def has_setting(f, var):
    return any(var in s.get("name", "") for s in f.get("settings", []))


def probe(check, finding, evidence, fs):
    """Whether some finding names what the advisor found."""
    if check == "Environment Variable Issues":
        var = finding.split(" ", 1)[1]
        return any(has_setting(f, var) for f in fs)
    if check == "Byte Alignment Analysis":
        return any(f["rule"] == "byte-alignment" for f in fs)
    if check == "Operator Dynamic Shape Issues":
        return any(f["rule"] == "dynamic-shape" for f in fs)
    if check == "slow rank":
        return any(f["rule"] == "slow-rank" for f in fs)
    if check == "slow link":
        return any(f["rule"] == "slow-link" for f in fs)
    if check == "Api compare":
        api = re.search(r": (.+) [\d.]+ ms$", evidence).group(1)
        return any(names(f, api) for f in fs)
    if check == "Affinity API Issues":
        api = finding.rsplit(".", 1)[-1]
        return any(names(f, api) or has_setting(f, api) for f in fs)
    word = finding.split(" ")[0]
    return any(names(f, word) for f in fs)


def verdict(col, check, finding, evidence, fs):
    w = col.split(" ")
    if w[0] == "finds":
        mine = [f for f in fs if f["rule"] == w[1]]
        if len(w) > 3 and w[2] == "setting":
            return any(has_setting(f, w[3]) for f in mine), ""
        if len(w) > 2:
            return any(names(f, w[2]) for f in mine), ""
        return bool(mine), ""
    if w[0] == "n/a:":
        return True, ""
    if w[0] == "absent":
        return not any(f["rule"] == w[1] for f in fs), ""
    return probe(check, finding, evidence, fs), \
        col.split(":", 1)[-1].strip()


def main():
    tsv, jdir = sys.argv[1:3]
    for line in open(tsv):
        if line.startswith("#") or not line.strip():
            continue
        ds, check, finding, evidence, commit, col = \
            line.rstrip("\n").split("\t")
        fs = findings_of("%s/%s.json" % (jdir,
            report_set(ds).replace("/", "-")))
        name = "%s: %s: %s: %s" % (ds, check, finding, col.split(" (")[0])
        if fs is None:
            print("1\t-\t%s (no report)" % name)
            continue
        held, todo = verdict(col, check, finding, evidence, fs)
        # "-": no TODO (read splits on a tab run, an empty field is lost)
        print("%d\t%s\t%s" % (0 if held else 1, todo or "-", name))


if __name__ == "__main__":
    main()
