# The summary library's test driver and benchmark.
#
#   build/t/helpers/summary PATH...   text, --json or --html of rank directories
#   make bench-summary                summary time against cat, 1,000 ranks, RSS
#                                     (knobs: see bench/summary)
#   make bench-report                 the report of 1,024 and 8,192 ranks
#                                     against cat, its RSS and its lines
#                                     (knobs: see bench/report)

# The driver links the library (the generic helper rule links libc only).
$(B)/t/helpers/summary: t/helpers/summary.c $(LIBMSPROF)
	@mkdir -p $(@D)
	$(CC) $(APP_CFLAGS) -o $@ $< $(LIBMSPROF) $(PKG_LIBS)

# The floor under the summary's time: its CSV reader alone (bench/summary).
$(B)/bench/csvscan: bench/csvscan.c $(LIBMSPROF)
	@mkdir -p $(@D)
	$(CC) $(APP_CFLAGS) -o $@ $< $(LIBMSPROF) $(PKG_LIBS)

bench-summary: all $(B)/bench/csvscan
	BENCH_B="$(abspath $(B))" bash bench/summary

bench-report: all
	BENCH_B="$(abspath $(B))" bash bench/report

.PHONY: bench-summary bench-report
