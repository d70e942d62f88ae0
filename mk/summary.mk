# The summary library's test driver and benchmark.
#
#   build/t/helpers/summary PATH...   text, --json or --html of rank directories
#   make bench-summary                summary time against cat, 1,000 ranks, RSS
#                                     (knobs: see bench/summary)

# The driver links the library (the generic helper rule links libc only).
$(B)/t/helpers/summary: t/helpers/summary.c $(SUMMARY_OBJS) $(COMMON_OBJS)
	@mkdir -p $(@D)
	$(CC) $(APP_CFLAGS) -Isummary -Ilauncher -o $@ $< $(SUMMARY_OBJS) \
	    $(COMMON_OBJS) $(PKG_LIBS)

bench-summary: all
	BENCH_B="$(abspath $(B))" bash bench/summary

.PHONY: bench-summary
