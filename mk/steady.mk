# make check-steady: is the suite steady, or does it pass by timing?
#
# Runs `make check` STEADY_RUNS times (default 3) in a row, each time with
# a second `make check` running beside it: the two load the machine (a
# test that waits for a time instead of for the thing fails then), and
# share it as two developers' or CI jobs' runs do, so their temporary
# files, ports and outputs must not collide.  Fails if any of the runs
# fails; the output of the runs beside is in $(B)/check-steady/.  Heavy
# (about twice the suite's time, three times over): run it before a merge,
# not in a loop.

STEADY_RUNS ?= 3
STEADY_LOGS  = $(B)/check-steady

# The build first, once: the two runs then find everything up to date and
# never build at the same time.
check-steady: all
	@mkdir -p $(STEADY_LOGS)
	@failed=; \
	for i in $$(seq $(STEADY_RUNS)); do \
		log=$(STEADY_LOGS)/beside-$$i.log; \
		$(MAKE) --no-print-directory check > $$log 2>&1 & beside=$$!; \
		echo "check-steady: run $$i of $(STEADY_RUNS), another beside it ($$log)"; \
		$(MAKE) --no-print-directory check || failed="$$failed $$i"; \
		if ! wait $$beside; then \
			failed="$$failed $$i-beside"; \
			echo "check-steady: the run beside run $$i failed:"; \
			sed -n '/^Test Summary Report/,$$p' $$log; \
		fi; \
	done; \
	if [ -n "$$failed" ]; then \
		echo "check-steady: failed:$$failed"; exit 1; \
	fi; \
	echo "check-steady: $(STEADY_RUNS) runs, each beside another: all passed"

.PHONY: check-steady
