# Benchmarks: what the shim costs an exec-heavy loop (against bear and
# strace) and each exec against an empty preload, in time, instructions and
# page faults; the latency an intercepted launch adds; the memory the shim
# adds to a process; the static scan of large scripts against bash -n.
# Every figure is measured side by side in one run and printed with its
# target.  Not part of `make check`; see bench/README.md.
#
#   make bench                    one table, 1 to 2 minutes on 2 CPUs
#   make bench BENCH_ROUNDS=300   more rounds (knobs: see bench/run)
#
# The rows for bear, strace and callgrind need those tools (Debian: bear,
# strace, valgrind); without them they are left out.

bench: all
	BENCH_B="$(abspath $(B))" CC="$(CC)" bash bench/run

.PHONY: bench
