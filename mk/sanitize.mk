# Sanitizers and valgrind.
#
#   make check-sanitize   build into build-asan/ with SANITIZE=address,undefined
#                         (launcher, injector, unit tests, fuzz replays; never
#                         the shim, which is preloaded into unsanitized
#                         programs) and run the unit tests and the whole shell
#                         suite against that build (JOBS files at a time, as
#                         make check).  Fails when a test fails
#                         or when ASan, UBSan or LeakSanitizer reported
#                         anything: one line per distinct finding (how many
#                         times, the first frames in msprof-exec's code, a
#                         report), the reports in build-asan/reports/.
#   make check-valgrind   a full simulated run (sim/: the MindSpeed-LLM example
#                         of `make demo`, then a MindSpeed-MM one) with the
#                         launcher and every injector run under valgrind
#                         (memcheck, definite leaks are errors).  Fails on any
#                         error; the logs are in build-valgrind/logs/.
#
# The shell tests find the build as $TOP/build (t/lib.sh), TOP being the
# directory above t/.  check-sanitize gives them a tree of their own,
# build-asan/top/: t, sim, config... are links to the checkout, build/ holds
# a copy of the sanitized build, so that the launcher finds its files there
# (it locates them from /proc/self/exe) and every path the tests compare
# matches.  The copy has the objects too (timestamps kept): tests that run
# make in $TOP (make install) find everything up to date instead of
# replacing the sanitized programs with ordinary ones.
#
# Reports are written by the sanitized programs themselves (log_path), so
# the tests' own output and exit statuses are as usual: memory errors abort
# the program, leaks only write a report.  Leaks of bugs still open are
# listed in fuzz/lsan.supp.  The options are also compiled into the
# launcher and the injector (__asan_default_options, linked in through
# LDFLAGS): tests run them with environments of their own (env -i, an
# explicit envp) that carry no ASAN_OPTIONS.

ASAN_B     ?= build-asan
VG_B       ?= build-valgrind
VALGRIND   ?= valgrind
ASAN_ABS    = $(abspath $(ASAN_B))
SAN_TOP     = $(ASAN_ABS)/top
SAN_REPORTS = $(ASAN_ABS)/reports
SAN_OPTS    = log_path=$(SAN_REPORTS)/report:abort_on_error=1:exitcode=0
# SAN_LEAKS=0: memory errors and undefined behaviour only, without
# LeakSanitizer (CI runs with it: the programs free what they own on every
# way out of main()).
SAN_LEAKS  ?= 1
ASAN_OPTS   = $(SAN_OPTS):detect_leaks=$(SAN_LEAKS):fast_unwind_on_malloc=0:verify_asan_link_order=0:malloc_context_size=30
UBSAN_OPTS  = $(SAN_OPTS):print_stacktrace=1:halt_on_error=1
LSAN_OPTS   = suppressions=$(CURDIR)/fuzz/lsan.supp:print_suppressions=0
SAN_ENV     = ASAN_OPTIONS=$(ASAN_OPTS) UBSAN_OPTIONS=$(UBSAN_OPTS) \
              LSAN_OPTIONS=$(LSAN_OPTS)
SAN_DEFAULTS = $(ASAN_ABS)/sanitizer-defaults
# The checkout as the tests see it, without the build trees.
SAN_LINKED  = $(filter-out build build-% $(ASAN_B) $(VG_B) $(FUZZ_B),$(wildcard *)) .ci

check-sanitize:
	mkdir -p $(ASAN_ABS)
	printf '%s\n' '/* check-sanitize: options that need no environment. */' \
	    'const char *__asan_default_options(void);' \
	    'const char *__ubsan_default_options(void);' \
	    'const char *__lsan_default_options(void);' \
	    'const char *__asan_default_options(void) { return "$(ASAN_OPTS)"; }' \
	    'const char *__ubsan_default_options(void) { return "$(UBSAN_OPTS)"; }' \
	    'const char *__lsan_default_options(void) { return "$(LSAN_OPTS)"; }' \
	    > $(SAN_DEFAULTS).c
	$(CC) -fPIC -c -o $(SAN_DEFAULTS).o $(SAN_DEFAULTS).c
	rm -f $(ASAN_B)/bin/msprof-exec $(ASAN_B)/lib/msprof-exec/msprof-exec-inject
	$(MAKE) B=$(ASAN_B) SANITIZE=address,undefined \
	    LDFLAGS="$(LDFLAGS) $(SAN_DEFAULTS).o" all
	rm -rf $(SAN_TOP) $(SAN_REPORTS)
	mkdir -p $(SAN_TOP)/build $(SAN_REPORTS)
	for f in $(SAN_LINKED); do ln -s $(CURDIR)/$$f $(SAN_TOP)/$$f; done
	for f in $(ASAN_B)/*; do case $${f##*/} in top|reports|sanitizer-*|summary.awk) ;; \
	    *) cp -a $$f $(SAN_TOP)/build/ ;; esac; done
	@echo "check-sanitize: the tests, against $(ASAN_B)"
	@: $(shell mkdir -p $(ASAN_ABS))$(file >$(ASAN_ABS)/summary.awk,$(value san_summary))
	@cd $(SAN_TOP) && $(SAN_ENV) prove -j$(JOBS) $(PROVE_FLAGS) \
	    $(SHELL_TESTS) build/t/*.t; \
	status=$$?; \
	reports=$$(ls $(SAN_REPORTS) 2>/dev/null); \
	if [ -n "$$reports" ]; then \
		echo "check-sanitize: $$(echo $$reports | wc -w) sanitizer report(s) in $(SAN_REPORTS); the findings, most frequent first:"; \
		awk -f $(ASAN_ABS)/summary.awk $(SAN_REPORTS)/* | sort -rn; \
		exit 1; \
	fi; \
	[ $$status -eq 0 ] || { echo "check-sanitize: tests failed"; exit 1; }; \
	echo "check-sanitize: no sanitizer report"

# One line per distinct finding in the reports: how many, what, the first
# frames in msprof-exec's code (the allocation helpers of util.c skipped),
# and a report that has it.
define san_summary
function flush() {
	if (kind != "" && nf > 0) {
		n[kind ":" frames]++
		if (!((kind ":" frames) in ex))
			ex[kind ":" frames] = FILENAME
	}
	kind = ""; frames = ""; nf = 0
}
/^Direct leak/ { flush(); kind = "leak"; next }
/^Indirect leak/ { flush(); next }
/ERROR: AddressSanitizer: / { flush(); kind = $3; next }
/runtime error:/ {
	flush(); kind = $0; sub(/.*runtime error: /, "UB ", kind); next
}
kind != "" && / #[0-9]+ 0x[0-9a-f]+ in / && nf < 3 && $0 !~ /common\/util\.c/ &&
    match($0, /(launcher|common|engines|scan|report|summary|advice|inject|shim|fuzz|t\/unit)\/[^ ]+/) {
	frames = frames " " $4 "(" substr($0, RSTART, RLENGTH) ")"; nf++
}
END {
	flush()
	for (k in n)
		printf "%5d %s  [%s]\n", n[k], k, ex[k]
}
endef

# check-valgrind: an installed-like tree whose injector is a wrapper that
# runs the real one under valgrind (the shim execs whatever is there).
VG_ABS   = $(abspath $(VG_B))
# Exit 99 on an error, to tell it from the run's own failure.
VG_FLAGS = -q --error-exitcode=99 --leak-check=full --show-leak-kinds=definite \
           --errors-for-leak-kinds=definite --track-origins=yes
VG_PREFIX = $(VG_ABS)/prefix
VG_INJECT = $(VG_PREFIX)/lib/msprof-exec/msprof-exec-inject

check-valgrind: all
	@command -v $(VALGRIND) > /dev/null || { \
	    echo "check-valgrind: $(VALGRIND) not found (Debian: apt-get install valgrind)"; \
	    exit 1; }
	rm -rf $(VG_ABS)
	mkdir -p $(VG_PREFIX)/bin $(VG_ABS)/logs $(VG_ABS)/work
	cp $(LAUNCHER) $(VG_PREFIX)/bin/
	cp -R $(B)/lib $(B)/share $(VG_PREFIX)/
	rm -f $(VG_INJECT)
	printf '#!/bin/sh\nexec %s %s --log-file=%s/logs/inject.%%p.log %s "$$@"\n' \
	    "$(VALGRIND)" "$(VG_FLAGS)" "$(VG_ABS)" \
	    "$(CURDIR)/$(INJECTOR)" > $(VG_INJECT)
	chmod +x $(VG_INJECT)
	cp -Rs $(CURDIR)/sim/mindspeed-llm $(CURDIR)/sim/mindspeed-mm $(VG_ABS)/work/
	@set -e; \
	MSPROF_SIM_TORCH=stub; SIM_ROOT=$(CURDIR)/sim; export MSPROF_SIM_TORCH SIM_ROOT; \
	. $(CURDIR)/sim/activate; \
	vg() { out=$$1; shift; \
	    $(VALGRIND) $(VG_FLAGS) --log-file=$(VG_ABS)/logs/launcher.%p.log \
	    $(VG_PREFIX)/bin/msprof-exec "$$@" > $(VG_ABS)/$$out 2>&1 && return 0; \
	    s=$$?; [ $$s -eq 99 ] && return 0; tail -n 30 $(VG_ABS)/$$out; \
	    echo "check-valgrind: the run failed (exit $$s; $(VG_ABS)/$$out)"; exit 1; }; \
	echo "check-valgrind: the MindSpeed-LLM example (make demo) under valgrind"; \
	cd $(VG_ABS)/work/mindspeed-llm; \
	vg llm.out -y --cann-env $(CURDIR)/sim/ascend/ascend-toolkit/set_env.sh \
	    bash examples/mcore/qwen3/pretrain_qwen3_8b_4K_ptd.sh; \
	echo "check-valgrind: a MindSpeed-MM example (tools.json and YAML copies)"; \
	cd $(VG_ABS)/work/mindspeed-mm; \
	vg mm.out -y --skip-checks --train-iters keep \
	    bash examples/qwen3vl/finetune_qwen3vl_8B.sh; \
	n=$$(ls $(VG_ABS)/logs | wc -l); \
	injected=$$(ls $(VG_ABS)/logs | grep -c '^inject' || true); \
	bad=$$(find $(VG_ABS)/logs -type f -size +0 | sort); \
	for f in $$bad; do echo "==== $$f"; head -n 60 $$f; done; \
	[ "$$injected" -gt 0 ] || { echo "check-valgrind: the injector never ran under valgrind"; exit 1; }; \
	[ -z "$$bad" ] || { echo "check-valgrind: valgrind reported errors, above"; exit 1; }; \
	echo "check-valgrind: $$n processes under valgrind ($$injected injector runs), no error, no definite leak"

.PHONY: check-sanitize check-valgrind
