#!/usr/bin/env bash
# The report of a large job on one screen: 1,024 ranks (small files,
# written here) give at most 100 lines, ranks said as ranges in rank order
# (the directories' names sort otherwise), the planted slow rank named,
# every rank in --json, the same output whatever the threads; then, with
# damage planted, each odd rank and each file left out is named in a line,
# still on one screen, and --html keeps the size of a page.
. "$(dirname "$0")/lib.sh"
pyq_start

RANKS=1024
SLOW=777
NORAW="5 100 101 102 103 1000"	# without raw data
# The cluster: node{r/8}_{1000+r}_..._ascend_pt, so that names sort apart
# from ranks (node10_ before node2_); rank SLOW computes 25 % longer and
# arrives last at every collective.
"$PY" - "$T/cl" "$RANKS" "$SLOW" "$NORAW" <<'EOF'
import json, os, sys
root, n, slow = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
noraw = {int(r) for r in sys.argv[4].split()}
STEP = ("Device_id,Step,Computing,Communication(Not Overlapped),Overlapped,"
        "Communication,Free,Stage,Bubble\n")
KD = "Step Id,Name,Type,OP State,Accelerator Core,Duration(us)\n"

def write(path, text):
    with open(path, "w") as f:
        f.write(text)

for r in range(n):
    d = os.path.join(root, "node%d_%d_20260101000000000_ascend_pt" % (r // 8, 1000 + r))
    out = os.path.join(d, "ASCEND_PROFILER_OUTPUT")
    os.makedirs(out)
    write(os.path.join(d, "profiler_info_%d.json" % r),
          json.dumps({"config": {"experimental_config": {"_profiler_level": "Level1"}}}))
    write(os.path.join(d, "profiler_metadata.json"), json.dumps({"distributed_args": {
        "tensor_model_parallel_size": 8, "pipeline_model_parallel_size": 1,
        "data_parallel_size": n // 8, "world_size": n}}, indent=4))
    if r not in noraw:
        os.makedirs(os.path.join(d, "PROF_000001_1_A", "device_0", "data"))
        write(os.path.join(d, "PROF_000001_1_A", "device_0", "data", "d"), "x")
    comp = 100000 if r == slow else 80000
    write(os.path.join(out, "step_trace_time.csv"), STEP + "".join(
        "0,%d,%d,10000,5000,15000,4000,0,0\n" % (s, comp) for s in (4, 5)))
    write(os.path.join(out, "kernel_details.csv"), KD + "".join(
        "%d,aclnnMatMul_%d,MatMulV2,static,AI_CORE,%d\n" % (s, k, comp // 4)
        for s in (4, 5) for k in range(2)))
    comm, matrix = {}, {}
    for s in (4, 5):
        coll = {}
        for k in range(2):
            e = 1.0 if r == slow else 10.0 + 0.001 * (r % 7)
            coll["hcom_allReduce__%d_%d_1@77" % (k, s)] = {"Communication Time Info": {
                "Elapse Time(ms)": e, "Wait Time Ratio": 0.1, "Synchronization Time Ratio": 0.01}}
        comm["step%d" % s] = {"collective": coll, "p2p": {}}
        matrix["step%d" % s] = {"collective": {"allreduce@77": {"%d-%d" % (r, (r + 1) % n): {
            "Transport Type": "HCCS", "Transit Size(MB)": 64, "Transit Time(ms)": 3.5}}}}
    write(os.path.join(out, "communication.json"), json.dumps(comm, indent=4))
    write(os.path.join(out, "communication_matrix.json"), json.dumps(matrix, indent=4))
EOF
ok $? "$RANKS rank directories written"
cd "$T" || exit 1

# --- A healthy cluster but for its slow rank --------------------------------
"$MSPROF" report --json a.json --html a.html cl > a.txt 2> a.err
is "$?" 0 "report: exit 0"
lines=$(wc -l < a.txt)
ok $(( lines > 100 )) "at most 100 lines ($lines)"
like "$(<a.txt)" "^  $RANKS ranks with data \(ranks 0-1023\), [0-9.]+K to [0-9.]+K each, [0-9.]+M in all$" \
    "how many ranks have data, and their sizes"
[ "$lines" -le 100 ] || diag "$(head -n 40 a.txt)"
like "$(<a.txt)" "no raw data \(PROF_\*/device_\*/data\): ranks 5, 100-103, 1000$" \
    "an odd set of ranks in rank order, as ranges"
unlike "$(<a.txt)" "rank [0-9]+: node" "no line per rank"
like "$(sed -n '/^Step breakdown/,/^$/p' a.txt | sed -n 4p)" "^  rank $SLOW " \
    "the step table starts with the slow rank"
like "$(sed -n '/^Findings/,/^$/p' a.txt)" "\[slow-rank\] rank $SLOW: Computing is" \
    "the findings name the slow rank"
like "$(sed -n '/^Which rank/,/^$/p' a.txt)" "rank $SLOW +4 +4 " \
    "the collectives wait for it"
is "$(pyq -c 'import json, sys
d = json.load(open(sys.argv[1]))
o, s = d["outputs"][0], d["summary"]
print(len(o["found"]), len(s["ranks"]), len(s["summaries"]["steps"]["ranks"]),
      len(s["summaries"]["cluster"]["ranks"]), o["unusual"]["no_raw_data"])' a.json)" \
    "$RANKS $RANKS $RANKS $RANKS [5, 100, 101, 102, 103, 1000]" \
    "--json: every rank, in the verification and in each summary"
is "$(pyq -c 'import json, sys
f = json.load(open(sys.argv[1]))["outputs"][0]["found"]
print([d["rank"] for d in f] == sorted(d["rank"] for d in f))' a.json)" True \
    "--json: the rank directories in rank order"

# --- The same every time, on any number of threads --------------------------
MSPROF_THREADS=1 "$MSPROF" report --json b.json cl > b.txt 2> /dev/null
MSPROF_THREADS=4 "$MSPROF" report --json c.json cl > c.txt 2> /dev/null
ok "$(cmp -s a.txt b.txt && cmp -s a.txt c.txt; echo $?)" \
    "the same text on 1, 2 and 4 threads"
ok "$(cmp -s a.json b.json && cmp -s a.json c.json; echo $?)" \
    "the same JSON on 1, 2 and 4 threads"

# --- The page: pictures that keep their size --------------------------------
if command -v xmllint > /dev/null; then
	xmllint --noout a.html 2> xerr
	ok $? "--html: well-formed XML"
else
	skip "xmllint not installed (libxml2-utils)"
fi
ok $(( $(wc -l < a.html) > 600 )) "--html: at most 600 lines ($(wc -l < a.html))"
ok $(( $(grep -c '<tr>' a.html) > 60 )) "--html: no table of every rank"
like "$(<a.html)" "<title>ranks 776-777: compute up to 100\.000 ms \(rank $SLOW\)</title>" \
    "--html: the heat map of step parts shows the slow rank"

# --- Damage: each odd rank and file named, still one screen ------------------
dir() { ls -d cl/node$(( $1 / 8 ))_$(( 1000 + $1 ))_*_ascend_pt; }
f=$(dir 300)/ASCEND_PROFILER_OUTPUT/communication.json
head -c $(( $(wc -c < "$f") / 2 )) "$f" > half && mv half "$f"
rm "$(dir 301)/ASCEND_PROFILER_OUTPUT/kernel_details.csv"
mkfifo "$(dir 301)/ASCEND_PROFILER_OUTPUT/kernel_details.csv"
rm "$(dir 9)/ASCEND_PROFILER_OUTPUT/communication_matrix.json"
head -c 20000 /dev/zero | tr '\0' 'x' > "$(dir 11)/ASCEND_PROFILER_OUTPUT/trace_view.json"
cp -r "$(dir 3)" cl/node0_999_20250101000000000_ascend_pt
timeout "$MSPROF_T_WAIT_LIMIT" "$MSPROF" report --json d.json cl > d.txt 2> d.err
is "$?" 65 "damaged: exit 65 (files the summary could not read), and no wait on the FIFO"
lines=$(wc -l < d.txt)
ok $(( lines > 100 )) "damaged: at most 100 lines ($lines)"
left=$(sed -n '/^Files left out/,/^$/p' d.txt)
like "$left" "rank 300: .*node37_1300_[0-9]*_ascend_pt/ASCEND_PROFILER_OUTPUT/communication.json:[0-9]+:[0-9]+: cut short" \
    "the communication.json cut in half is named, with where and why"
like "$left" "rank 301: .*kernel_details.csv: not a regular file" \
    "the FIFO is named, not read"
like "$(sed -n '/^Which rank/,/^$/p' d.txt)" "  1023 ranks with communication data" \
    "the wait vote counts the ranks it could read"
like "$(<d.txt)" "incomplete: rank 9 without communication_matrix.json \(1024 of 1025 parsed ranks have it\)" \
    "a rank without a file the others have"
like "$(<d.txt)" "outsized: rank 11, more than 2 times the median" \
    "a rank far larger than the others"
like "$(<d.txt)" "two directories or more: rank 3; the summary reads the newest run alone" \
    "a rank with two directories"
is "$(pyq -c 'import json, sys
s = json.load(open(sys.argv[1]))["summary"]
print(sorted((f["rank"], f["reason"]) for f in s["left_out"]))' d.json)" \
    "[(11, 'not JSON'), (300, 'cut short'), (301, 'not a regular file')]" \
    "--json: each file left out, with its rank and reason (rank 11's trace_view.json of x's: the timeline is read)"
done_testing
