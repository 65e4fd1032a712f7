# Coverage reports (gcovr), included by the top-level Makefile.
#
#   make coverage   KB/coverage/kernel/       our hwmon.c under the KUnit suites
#                   build/coverage/userspace/ libblockrange + CLI under the Check suites
#                   and a one-screen summary; fails below coverage/thresholds.json
#   make coverage-kernel     the kernel part (KERNEL=6.12: on the 6.12 tree)
#   make coverage-userspace  the userspace part
#
# The kernel part comes from the KUnit guests of our core
# (scripts/check-kernel.sh --coverage, part of check-kernel): the test
# kernel compiles hwmon.c with gcov's instrumentation and the guests report
# its counters, which scripts/kernel-coverage.sh merges and gcovr reads.
# The userspace part builds the library and the CLI with --coverage in
# build/coverage/us-obj/ (the test programs' own objects without: only
# product code is measured, and their counters only slowed the suites) and
# runs both suites side by side. The counters are updated atomically:
# blockrange -j N runs the engine on several threads, and racing increments
# lose counts, which gcov then derives into negative branch counts that
# gcovr rejects. This is a build of its own, not the sanitizers' one:
# measured in one build, UBSan's checks count as branches (library branches
# 92.2 % instead of 97.1 %) and ASan with atomic counters ran the library's
# suites 15 times slower than either alone.

COV := $(BUILD)/coverage
KCOV := $(KB)/coverage
COV_GCOVR_OUT = --html-details $(COV)/$(1)/index.html \
	--cobertura $(COV)/$(1)/coverage.xml --cobertura-pretty \
	--txt $(COV)/$(1)/summary.txt --json-summary $(COV)/$(1)/summary.json
COV_US_CC := gcc --coverage -fprofile-update=atomic

.PHONY: coverage coverage-kernel coverage-userspace

coverage: coverage-kernel coverage-userspace
	@echo
	@echo "== coverage summary (reports under build/coverage/) =="
	@python3 $(TOP)/coverage/summary.py $(TOP)/coverage/thresholds.json \
		kernel=$(KCOV)/kernel/summary.json \
		userspace=$(COV)/userspace/summary.json

coverage-kernel: deps
	@$(KENV) JOBS=$(JOBS) $(TOP)/scripts/check-kernel.sh --coverage ours

coverage-userspace: deps
	find $(COV)/us-obj -name '*.gcda' -delete 2>/dev/null || true
	rm -rf $(COV)/userspace
	$(MAKE) --no-print-directory -O -j2 check-userspace check-cli \
		US_OUT=$(COV)/us-obj/lib US_CC='$(COV_US_CC)' US_TEST_CC=gcc \
		CLI_OUT=$(COV)/us-obj/cli CLI_CC='$(COV_US_CC)' CLI_TEST_CC=gcc \
		CLI_BIN=$(COV)/us-obj/bin/blockrange
	mkdir -p $(COV)/userspace
	gcovr --config $(TOP)/coverage/gcovr-userspace.cfg --root $(TOP) \
		--filter '$(TOP)/userspace/' \
		$(call COV_GCOVR_OUT,userspace) $(COV)/us-obj
	@python3 $(TOP)/coverage/summary.py $(TOP)/coverage/thresholds.json \
		userspace=$(COV)/userspace/summary.json
