#!/usr/bin/env bash
# Rank directories gathered into one folder with symbolic links (ln -s
# from each node's storage): the report gives exactly the summary of the
# real directories, sizes are the targets' (never a link's own), and a
# link that leads nowhere or loops is named in one line while the rest is
# summarised.
. "$(dirname "$0")/lib.sh"
pyq_start

MSPROF_SIM_RANKS_PER_NODE=2 MSPROF_SIM_SLOW_RANK=2 \
    "$TOP/sim/gen-cluster" --ranks 4 --by-node -j 1 cl > /dev/null 2> gen.err
is "$?" 0 "gen-cluster: 4 ranks on 2 nodes"
real() { ls -d "$T"/cl/node*/*_4000"$1"_*_ascend_pt; }
mkdir gathered
# two links of the directories' names, two of other names
ln -s "$(real 0)" "$(real 1)" gathered/
ln -s "$(real 2)" gathered/rank2
ln -s "$(real 3)" gathered/rank3
ln -s /nonexistent/node9_40009_20251203000000000_ascend_pt gathered/
ln -s loop_ascend_pt gathered/loop_ascend_pt
ln -s .. gathered/up_ascend_pt

"$MSPROF" report --json real.json cl > real.txt 2> real.err
is "$?" 0 "the real directories: exit 0"
"$MSPROF" report --json g.json gathered > g.txt 2> g.err
is "$?" 0 "the gathered links: exit 0"
summary() { sed -n '/^Step breakdown/,/^Next:/p' "$1" | sed '$d'; }
is "$(summary g.txt)" "$(summary real.txt)" \
    "the summary of the links is the real directories' summary"
like "$(summary g.txt)" '\[slow-rank\] rank 2: Computing is' \
    "and it names the slow rank"
for r in 0 1 2 3; do
	size=$(grep -o "^  rank $r: [^ ]*  [0-9.]*[KMG]\?B\?" real.txt | sed 's/.*  //')
	like "$(grep "^  rank $r: " g.txt)" "  $size(, |$)" \
	    "rank $r: the size of the directory linked to ($size), not of the link"
done
is "$(grep -c 'node9_40009_20251203000000000_ascend_pt: a symbolic' g.txt)" 1 \
    "the link that leads nowhere: named once"
like "$(<g.txt)" "gathered/node9_40009_20251203000000000_ascend_pt: a symbolic link to /nonexistent/node9_40009_20251203000000000_ascend_pt, which does not exist" \
    "... with where it leads"
is "$(grep -c 'loop_ascend_pt: a symbolic' g.txt)" 1 "the link to itself: named once"
like "$(<g.txt)" "gathered/loop_ascend_pt: a symbolic link that loops" \
    "... as a loop"
is "$(grep -c 'up_ascend_pt: a symbolic' g.txt)" 1 \
    "the link to the folder holding it: named once"
like "$(<g.txt)" "gathered/up_ascend_pt: a symbolic link back to a directory that holds it \(a loop\)" \
    "... as a loop"
unlike "$(<g.txt)" "rank unknown" "no loop read as a rank directory"
unlike "$(<g.txt)" "up_ascend_pt/" "nor walked in the tree, which shows where links lead"
is "$(pyq -c 'import json, sys
g, r = (json.load(open(p)) for p in sys.argv[1:])
gf = {d["rank"]: d for d in g["outputs"][0]["found"]}
rf = {d["rank"]: d for p in r["reports"] for o in p["outputs"] for d in o["found"]}
print(sorted(gf) == sorted(rf), all(gf[k]["bytes"] == rf[k]["bytes"] for k in gf),
      all(gf[k]["link_to"] == rf[k]["path"] for k in gf),
      len(g["outputs"][0]["links_not_followed"]))' g.json real.json)" "True True True 3" \
    "--json: the ranks, their sizes and where each link leads; 3 links not followed"

# The summary's own walk (as compare uses it): the same through links.
S=$HELPERS/summary
strip() { pyq -i -c 'import json, sys
d = json.load(sys.stdin)
for r in d["ranks"]: r.pop("path")
print(json.dumps(d, sort_keys=True))'; }
is "$("$S" --json gathered | strip)" "$("$S" --json cl | strip)" \
    "summary_find_ranks: the gathered folder reads as the real directories"
ln -s cl cl-link
is "$("$S" --json cl-link | strip)" "$("$S" --json cl | strip)" \
    "a link to the whole tree, given as the path, too"

# A link back above where the report started (to the folder that holds
# it, beside another job's data) is a loop, not a way into the other
# job, and is named; a link inside a rank directory back above it adds
# nothing.  A link that leads nowhere below the path given is named too.
mkdir -p up/a up/other
MSPROF_SIM_RANKS_PER_NODE=2 "$TOP/sim/gen-cluster" --ranks 2 -j 1 up/a > /dev/null 2>&1
MSPROF_SIM_RANKS_PER_NODE=2 "$TOP/sim/gen-cluster" --ranks 2 -j 1 up/other/foreign > /dev/null 2>&1
"$MSPROF" report --json up0.json up/a > up0.txt 2>&1
ln -s ../.. up/a/back
r0=$(echo up/a/*_40000_*_ascend_pt)
ln -s ../.. "$r0/ASCEND_PROFILER_OUTPUT/up2"
"$MSPROF" report --json up.json up/a > up.txt 2>&1
is "$?" 0 "links back above the start: exit 0"
is "$(pyq -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(sorted(r["path"] for r in d["summary"]["ranks"]),
      sorted((f["path"], f["bytes"]) for o in d["outputs"] for f in o["found"]))' up.json)" \
   "$(pyq -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(sorted(r["path"] for r in d["summary"]["ranks"]),
      sorted((f["path"], f["bytes"]) for o in d["outputs"] for f in o["found"]))' up0.json)" \
    "the same ranks, paths and sizes as without the links: none of the other job's"
like "$(<up.txt)" "up/a/back: a symbolic link back to a directory that holds it" \
    "the link back above the start: named"
mkdir -p below/gathered
ln -s /nonexistent/node9_40009_20251203000000000_ascend_pt below/gathered/
"$MSPROF" report below > below.txt 2>&1
like "$(<below.txt)" "below/gathered/node9_40009_20251203000000000_ascend_pt: a symbolic link to /nonexistent/" \
    "a link that leads nowhere, a folder below the path given: named"
done_testing
