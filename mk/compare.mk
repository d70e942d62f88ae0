# The benchmark of msprof-exec compare: two runs read at once, against cat
# of their files and against one summary after the other (bench/compare).
#
#   make bench-compare     (knobs: see bench/compare)

bench-compare: all
	BENCH_B="$(abspath $(B))" bash bench/compare

.PHONY: bench-compare

# The cost of recognising a training, against python3 -c pass and cat of
# the files read (bench/recognise).
bench-recognise: all
	BENCH_B="$(abspath $(B))" bash bench/recognise

.PHONY: bench-recognise
