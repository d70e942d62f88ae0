# Fuzzing: libFuzzer targets over the launch matcher and rewriter,
# the script scanner and the config copies (fuzz/*.c).
#
#   make fuzz                     build into build-fuzz/ with clang
#                                 (-fsanitize=fuzzer,address,undefined) and
#                                 run each target FUZZ_SECONDS (60) seconds
#   make fuzz FUZZ_TARGETS=scan FUZZ_SECONDS=600
#   make fuzz-merge               add what the runs found to fuzz/corpus/
#                                 (minimised with -merge=1)
#   make fuzz-minimise            keep only the seeds of fuzz/corpus/ that
#                                 add coverage (-merge=1 into an empty dir)
#
# A run starts from the seed corpus fuzz/corpus/TARGET and keeps what it
# finds in build-fuzz/corpus/TARGET; crashes are written to
# build-fuzz/crashes/TARGET/ and make fails naming them.  Copy a crash to
# fuzz/regress/TARGET/ (and, while the bug is open, list it in
# fuzz/regress/KNOWN): t/0610-fuzz-regress.t replays fuzz/regress and
# fuzz/corpus in every `make check`, through $(B)/fuzz/replay-TARGET, the
# same targets linked with fuzz/replay.c instead of libFuzzer (built by
# `make`, with the sanitizers under SANITIZE=...).
#
# Needs clang and its runtimes (Debian: clang, libclang-rt-14-dev).

FUZZ_TARGETS ?= launch scan config journal summary
FUZZ_SECONDS ?= 60
FUZZ_CC      ?= clang
FUZZ_B       ?= build-fuzz
# More libFuzzer options, e.g. FUZZ_FLAGS='-jobs=2 -workers=2'.
FUZZ_FLAGS   ?=

FUZZ_ABS     = $(abspath $(FUZZ_B))
FUZZ_ENV     = TMPDIR=$(FUZZ_ABS)/tmp \
               UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
               ASAN_OPTIONS=fast_unwind_on_malloc=0:malloc_context_size=40 \
               LSAN_OPTIONS=suppressions=$(CURDIR)/fuzz/lsan.supp:print_suppressions=0
FUZZ_SAN     = -fsanitize=address,undefined -fno-sanitize-recover=undefined \
               -fno-omit-frame-pointer
FUZZ_DEFS    = -I. \
               -DFUZZ_LAUNCHTAB='"$(CURDIR)/config/launchers.conf"'
FUZZ_CFLAGS  = $(BASE_CFLAGS) $(PKG_CFLAGS) $(FUZZ_DEFS) -g -O1 $(FUZZ_SAN)
FUZZ_OBJS    = $(COMMON:%.c=$(FUZZ_B)/obj/%.o) $(FUZZ_B)/obj/fuzz/common.o
FUZZ_BINS    = $(FUZZ_TARGETS:%=$(FUZZ_B)/fuzz-%)
FUZZ_REPLAYS = $(patsubst %,$(B)/fuzz/replay-%,launch scan config journal summary)

# The replay programs are part of every build: t/0610 runs them.
all: $(FUZZ_REPLAYS)

$(B)/fuzz/replay-%: fuzz/%.c fuzz/common.c fuzz/replay.c fuzz/fuzz.h \
    $(LIBMSPROF)
	@mkdir -p $(@D)
	$(CC) $(APP_CFLAGS) $(FUZZ_DEFS) -o $@ fuzz/$*.c fuzz/common.c \
	    fuzz/replay.c $(LIBMSPROF) $(PKG_LIBS)

fuzz-cc:
	@command -v $(FUZZ_CC) > /dev/null || { echo "fuzz: $(FUZZ_CC) not" \
	    "found (Debian: apt-get install clang libclang-rt-14-dev)"; exit 1; }

$(FUZZ_B)/obj/%.o: %.c | fuzz-cc
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c -o $@ $<

$(FUZZ_B)/fuzz-%: fuzz/%.c fuzz/fuzz.h $(FUZZ_OBJS)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_OBJS) \
	    $(PKG_LIBS)

fuzz-build: $(FUZZ_BINS)

# Each target in turn; every one runs even when an earlier one crashed.
fuzz: $(FUZZ_BINS)
	@failed=; \
	for t in $(FUZZ_TARGETS); do \
		mkdir -p $(FUZZ_B)/corpus/$$t $(FUZZ_B)/crashes/$$t \
		    $(FUZZ_B)/tmp; \
		echo "fuzz: $$t for $(FUZZ_SECONDS) s"; \
		$(FUZZ_ENV) $(FUZZ_B)/fuzz-$$t -max_total_time=$(FUZZ_SECONDS) \
		    -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
		    -print_final_stats=1 \
		    -artifact_prefix=$(FUZZ_ABS)/crashes/$$t/ \
		    -dict=$(CURDIR)/fuzz/$$t.dict $(FUZZ_FLAGS) \
		    $(FUZZ_ABS)/corpus/$$t $(CURDIR)/fuzz/corpus/$$t < /dev/null \
		    > $(FUZZ_B)/$$t.log 2>&1 || failed="$$failed $$t"; \
		grep -E '^(Done|stat::number_of_executed_units|#[0-9]+ +DONE)' \
		    $(FUZZ_B)/$$t.log | tail -n 2; \
	done; \
	if [ -n "$$failed" ]; then \
		for t in $$failed; do \
			echo "fuzz: $$t FAILED; log $(FUZZ_B)/$$t.log:"; \
			grep -E -A12 '^==[0-9]+==ERROR|runtime error|invariant broken|SUMMARY|Test unit written' \
			    $(FUZZ_B)/$$t.log | head -n 40; \
		done; \
		echo "fuzz: crash inputs in $(FUZZ_B)/crashes/; keep them in fuzz/regress/TARGET/"; \
		exit 1; \
	fi

# Minimise what the runs found into the seed corpus.
fuzz-merge: $(FUZZ_BINS)
	@for t in $(FUZZ_TARGETS); do \
		mkdir -p fuzz/corpus/$$t $(FUZZ_B)/corpus/$$t $(FUZZ_B)/tmp; \
		$(FUZZ_ENV) $(FUZZ_B)/fuzz-$$t -merge=1 -timeout=10 \
		    -max_len=65536 $(CURDIR)/fuzz/corpus/$$t \
		    $(FUZZ_ABS)/corpus/$$t < /dev/null \
		    > $(FUZZ_B)/$$t.merge.log 2>&1 || exit 1; \
		echo "fuzz-merge: $$t: $$(ls fuzz/corpus/$$t | wc -l) files"; \
	done

# Keep only the seeds that add coverage: merge the corpus into an empty
# directory and put that in its place.
fuzz-minimise: $(FUZZ_BINS)
	@for t in $(FUZZ_TARGETS); do \
		rm -rf $(FUZZ_B)/min/$$t; mkdir -p $(FUZZ_B)/min/$$t $(FUZZ_B)/tmp; \
		$(FUZZ_ENV) $(FUZZ_B)/fuzz-$$t -merge=1 -timeout=10 \
		    -max_len=65536 $(FUZZ_ABS)/min/$$t $(CURDIR)/fuzz/corpus/$$t \
		    < /dev/null > $(FUZZ_B)/$$t.min.log 2>&1 || exit 1; \
		echo "fuzz-minimise: $$t: $$(ls fuzz/corpus/$$t | wc -l) ->" \
		    "$$(ls $(FUZZ_B)/min/$$t | wc -l) files"; \
		rm -rf fuzz/corpus/$$t; mv $(FUZZ_B)/min/$$t fuzz/corpus/$$t; \
	done

.PHONY: fuzz fuzz-build fuzz-merge fuzz-minimise fuzz-cc

-include $(shell find $(FUZZ_B)/obj -name '*.d' 2>/dev/null)
