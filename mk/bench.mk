# Benchmarks (issue 7): what the shim costs an exec-heavy loop (against
# bear and strace), the latency an intercepted launch adds, and the memory
# the shim adds to a process.  Not part of `make check`; see bench/README.md.
#
#   make bench                    one table, ~40 s on 2 CPUs
#   make bench BENCH_ROUNDS=300   more rounds (knobs: see bench/run)
#
# The rows for bear, strace and callgrind need those tools (Debian: bear,
# strace, valgrind); without them they are left out.

bench: all
	BENCH_B="$(abspath $(B))" CC="$(CC)" bash bench/run

.PHONY: bench
