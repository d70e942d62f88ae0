#!/usr/bin/env python3
"""Synthetic profiler output for bench/summary: DIR/cluster holds RANKS rank
directories (four per node) with MB megabytes of kernel_details.csv each
(rows of 40 operator types, start times ending in a tab, triple-quoted
shapes, pipe ratios: the columns and quoting of real torch_npu files, t/data/real) plus step_trace_time.csv, op_statistic.csv and the communication
files; DIR/big holds BIG ranks with step and communication files only.
One rank's kernel_details.csv is written and then copied."""
import json, os, random, shutil, sys

root, ranks, mb, big = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
HEAD = ("Step Id,Model ID,Task ID,Stream ID,Name,Type,OP State,Accelerator Core,Start Time(us),"
        "Duration(us),Wait Time(us),Block Dim,Mix Block Dim,HF32 Eligible,Input Shapes,Input Data Types,"
        "Input Formats,Output Shapes,Output Data Types,Output Formats,Context ID,aicore_time(us),"
        "aic_total_cycles,aic_mac_ratio,aic_scalar_ratio,aic_mte2_ratio,aiv_vec_ratio,aiv_mte2_ratio\n")
STEP_HEAD = ("Step,Computing,Communication(Not Overlapped),Overlapped,Communication,Free,Stage,"
             "Bubble,Communication(Not Overlapped and Exclude Receive),Preparing\n")
TYPES = [("Op%02d" % i, ("AI_CORE", "AI_VECTOR_CORE", "MIX_AIC")[i % 3]) for i in range(40)]


def kernel_file(path):
    rnd = random.Random(7)
    lines, t, size, task = [HEAD], 1.7e15, 0, 0
    while size < mb << 20:
        typ, core = TYPES[rnd.randrange(len(TYPES))]
        d = round(rnd.uniform(5, 3000), 3)
        line = ('%d,4294967295,%d,2,aclnn%s_%s,%s,dynamic,%s,%.3f\t,%.3f,1.2,24,0,NO,'
                '"""4096,4096;4096,6144""",BF16;BF16,FORMAT_ND;FORMAT_ND,"""4096,6144""",BF16,FORMAT_ND,N/A,'
                '%.3f,123456,0.61,0.12,0.33,0.05,0.2\n' % (4 + task // 20000, task, typ, typ, typ, core, t,
                                                         d, d * 0.9))
        lines.append(line)
        size += len(line)
        t += d + 2
        task += 1
    with open(path, "w") as f:
        f.writelines(lines)


def rank_dir(base, r):
    d = os.path.join(base, "node%d" % (r // 8), "host%d_%d_20261203081500123_ascend_pt" % (r // 8, 1000 + r))
    out = os.path.join(d, "ASCEND_PROFILER_OUTPUT")
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(d, "profiler_info_%d.json" % r), "w") as f:
        json.dump({"config": {"experimental_config": {"_profiler_level": "Level1"}}}, f)
    return d, out


def small_files(out, r, world):
    rnd = random.Random(r)
    with open(os.path.join(out, "step_trace_time.csv"), "w") as f:
        f.write(STEP_HEAD)
        for s in range(4, 7):
            c, e, fr = 80000 * rnd.uniform(0.99, 1.01), 10000.0, 4000.0
            f.write("%d,%.3f,%.3f,5000,%.3f,%.3f,%.3f,0,%.3f,100\n" % (s, c, e, e + 5000, fr, c + e + fr, e))
    comm, matrix = {}, {}
    for s in range(4, 7):
        coll = {}
        for k in range(20):
            e = 10 + rnd.uniform(0, 0.5)
            coll["hcom_allReduce__%d_%d_1@123" % (k, s)] = {
                "Communication Time Info": {"Elapse Time(ms)": e, "Transit Time(ms)": e * 0.9,
                                            "Wait Time(ms)": e * 0.1, "Synchronization Time(ms)": 0.01,
                                            "Wait Time Ratio": 0.1, "Synchronization Time Ratio": 0.01},
                "Communication Bandwidth Info": {"RDMA": {"Transit Size(MB)": 64, "Transit Time(ms)": 6.4,
                                                          "Size Distribution": {"4.0": [16, 6.4]}}}}
        comm["step%d" % s] = {"collective": coll, "p2p": {}}
        links = {}
        for p in range(8):
            dst = (r // 8) * 8 + p
            if dst != r and dst < world:
                links["%d-%d" % (r, dst)] = {"Transport Type": "HCCS", "Transit Size(MB)": 64,
                                             "Transit Time(ms)": 3.5, "Bandwidth(GB/s)": 18.3}
        links["%d-%d" % (r, (r + 8) % world)] = {"Transport Type": "RDMA", "Transit Size(MB)": 64,
                                                 "Transit Time(ms)": 6.4, "Bandwidth(GB/s)": 10}
        matrix["step%d" % s] = {"collective": {"allreduce-top1@123": links}, "p2p": {}}
    with open(os.path.join(out, "communication.json"), "w") as f:
        json.dump(comm, f)
    with open(os.path.join(out, "communication_matrix.json"), "w") as f:
        json.dump(matrix, f)


first = None
for r in range(ranks):
    d, out = rank_dir(os.path.join(root, "cluster"), r)
    small_files(out, r, ranks)
    kd = os.path.join(out, "kernel_details.csv")
    if first is None:
        kernel_file(kd)
        first = kd
    else:
        shutil.copyfile(first, kd)
for r in range(big):
    d, out = rank_dir(os.path.join(root, "big"), r)
    small_files(out, r, big)
