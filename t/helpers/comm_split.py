#!/usr/bin/env python3
"""The communication of a real torch_npu data set by parallel group, from
its files alone (t/0377-real-more.t compares the report with it).
Standard library only.

    comm_split.py DATASET      the figures, as JSON

DATASET is a folder of rank directories (*_ascend_pt) of a text export
whose profiler_metadata.json has distributed_args and parallel_group_info.

- Groups: communication.json names a group "<op>@<id>", the id a hash of
  the HCCL group's name (parallel_group_info's keys, "group_name_5"): two
  32-bit polynomial hashes, primes 29 and 131, high and low word
  (msprof-analyze's double_hash).  The group's kind is Megatron's name of
  it: dp and dp_cp are data parallel, pp and embd (the embedding's group
  of the first and last stage) the pipeline's.
- One operator is one (step, group, operator name) on every rank that has
  it.  A rank's wait in it is its elapse above the shortest elapse of
  that operator's ranks (the one that arrived last, waited for); with one
  rank only, the file's Wait Time(ms).
- Per rank and step, scaled by Communication(Not Overlapped) /
  Communication of step_trace_time.csv: the time waited in the pipeline's
  groups for each pipeline stage (the stage of the rank waited for:
  rank // (tp cp dp) % pp), and each group kind's time not spent waiting.
"""
import csv
import glob
import json
import os
import re
import sys

KINDS = {"dp": "dp", "dp_cp": "dp", "pp": "pp", "embd": "pp", "tp": "tp",
         "cp": "cp", "ep": "ep"}


def double_hash(s):
    a = b = 0
    for ch in s:
        a = (a * 29 + ord(ch)) & 0xFFFFFFFF
        b = (b * 131 + ord(ch)) & 0xFFFFFFFF
    return str(a << 32 | b)


def main(ds):
    ranks, groups, steps, share, step_ms, layout = {}, {}, {}, {}, {}, None
    for d in sorted(glob.glob(os.path.join(ds, "*_ascend_pt"))):
        info = [f for f in os.listdir(d) if re.match(r"profiler_info_\d+\.json$", f)]
        rank = int(re.search(r"(\d+)", info[0]).group(1))
        meta = json.load(open(os.path.join(d, "profiler_metadata.json")))
        a = meta["distributed_args"]
        layout = (a["tensor_model_parallel_size"], a["context_parallel_size"],
                  a["data_parallel_size"], a["pipeline_model_parallel_size"])
        for key, g in meta["parallel_group_info"].items():
            groups[double_hash(key)] = KINDS.get(g["group_name"], "other")
        out = os.path.join(d, "ASCEND_PROFILER_OUTPUT")
        rows = list(csv.DictReader(open(os.path.join(out, "step_trace_time.csv"))))
        comm = sum(float(r["Communication"]) for r in rows)
        exposed = sum(float(r["Communication(Not Overlapped)"]) for r in rows)
        share[rank] = exposed / comm if comm > 0 else 1.0
        step_ms[rank] = sum(float(r["Stage"]) for r in rows) / len(rows) / 1000
        c = json.load(open(os.path.join(out, "communication.json")))
        steps[rank] = len(c)
        for st, secs in c.items():
            for sec in ("collective", "p2p"):
                for name, op in secs.get(sec, {}).items():
                    if name.startswith("Total") or "@" not in name:
                        continue
                    t = op["Communication Time Info"]
                    opname, gid = name.rsplit("@", 1)
                    ranks.setdefault((st, gid, opname), {})[rank] = (
                        t["Elapse Time(ms)"], t.get("Wait Time(ms)") or 0.0)
    tp, cp, dp, pp = layout
    wait_for = {}
    beyond = {}
    sendrecv = {}
    for (st, gid, opname), seen in ranks.items():
        kind = groups.get(gid, "unnamed")
        low = min(seen, key=lambda r: seen[r][0])
        for r, (e, w) in seen.items():
            wait = e - seen[low][0] if len(seen) > 1 else w
            f = share[r] / steps[r]
            if len(seen) > 1 and wait > 0 and kind == "pp":
                stage = low // (tp * cp * dp) % pp
                wait_for.setdefault(r, {}).setdefault(stage, 0.0)
                wait_for[r][stage] += wait * f
            beyond.setdefault(r, {}).setdefault(kind, 0.0)
            beyond[r][kind] += (e - wait) * f
            if kind == "pp" and re.search(r"send|recv|receive", opname, re.I):
                sendrecv[r] = sendrecv.get(r, 0.0) + e * f
    json.dump({"wait_for_stage": wait_for, "beyond_wait": beyond,
               "pp_sendrecv": sendrecv, "step_ms": step_ms,
               "stage": {r: r // (tp * cp * dp) % pp for r in step_ms}},
              sys.stdout, sort_keys=True)


main(sys.argv[1])
