#!/usr/bin/env bash
# make demo (sim/demo.sh: the MindSpeed-LLM Qwen3 example on two simulated
# NPUs, rank 1 planted slow) keeps the README's promise: its report names
# rank 1 as the slow rank.  Two ranks have no median to stand out from:
# rank 1 computes more, and rank 0 waits for it (its exposed
# communication, and rank 1 arriving last at their collectives).
. "$(dirname "$0")/lib.sh"

MSPROF_DEMO_DIR=$T/demo MASTER_PORT=$(free_port) sh "$TOP/sim/demo.sh" \
    > out 2> err
rc=$?
is "$rc" 0 "the demo exits 0"
[ "$rc" -eq 0 ] || diag "$(tail -n 3 err)"
like "$(<out)" '^  \[slow-rank\] rank 1: Computing is [0-9.]+ ms a step above that of its one peer, rank 0 ' \
	"the demo's findings name rank 1 as the slow rank"
like "$(<out)" 'the peer waits for it: [0-9.]+ ms more exposed communication a step; it arrived last in ([0-9]+) of their \1 collectives' \
	"rank 0 waits for it: in the step table and at every collective"
like "$(<out)" '^  rank 1 +last in ([0-9]+) of its \1$' \
	"the wait table shows rank 1 last at the collectives of two ranks"
first=$(sed -n '/^Findings$/{n;p;q}' out)
like "$first" '^  \[' "the first line of the findings is a finding (not none)"
done_testing
