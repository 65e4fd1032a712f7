# Coverage reports (gcovr), included by the top-level Makefile.
#
#   make coverage   KB/coverage/kernel/       our hwmon.c under the KUnit suites (UML)
#                   build/coverage/userspace/ libblockrange + CLI under the Check suites
#                   and a one-screen summary; fails below coverage/thresholds.json
#   make coverage-kernel KERNEL=6.12   the kernel part on the 6.12 tree
#
# The kernel part runs kunit.py --arch=um with GCOV on a third tree of the
# tree KERNEL selects (KB = build/ or build/6.12/), KB/coverage/src = our
# tree + kernel/patches/$(KERNEL)/coverage/ (the build fixes that UML + gcc
# 12 + GCOV need; see the patches' descriptions). UML writes the .gcda files
# itself when the kernel exits.
# The userspace part rebuilds the library, CLI and tests with --coverage in
# build/coverage/us-obj/, so the normal build stays uninstrumented. The
# counters are updated atomically: blockrange -j N runs the engine on several
# threads, and racing increments lose counts, which gcov then derives into
# negative branch counts that gcovr rejects.

COV := $(BUILD)/coverage
KCOV := $(KB)/coverage
COV_GCOVR_OUT = --html-details $(COV)/$(1)/index.html \
	--cobertura $(COV)/$(1)/coverage.xml --cobertura-pretty \
	--txt $(COV)/$(1)/summary.txt --json-summary $(COV)/$(1)/summary.json
COV_GCOVR_OUT_K = --html-details $(KCOV)/$(1)/index.html \
	--cobertura $(KCOV)/$(1)/coverage.xml --cobertura-pretty \
	--txt $(KCOV)/$(1)/summary.txt --json-summary $(KCOV)/$(1)/summary.json

.PHONY: coverage coverage-kernel coverage-userspace

coverage: coverage-kernel coverage-userspace
	@echo
	@echo "== coverage summary (reports under build/coverage/) =="
	@python3 $(TOP)/coverage/summary.py $(TOP)/coverage/thresholds.json \
		kernel=$(KCOV)/kernel/summary.json \
		userspace=$(COV)/userspace/summary.json

# The instrumented kernel bypasses ccache: a cached .gcno would record the
# working directory of whichever checkout compiled it first. kbuild's own
# incremental build still applies within build/coverage/kunit.
coverage-kernel: tree-coverage
	@mkdir -p $(KCOV)/kunit
	find $(KCOV)/kunit -name '*.gcda' -delete
	cd $(KCOV)/src && CCACHE_DISABLE=1 python3 tools/testing/kunit/kunit.py run --arch=um \
		--kunitconfig=$(TOP)/.kunitconfig \
		--kunitconfig=tools/testing/kunit/configs/coverage_uml.config \
		--kunitconfig=$(TOP)/coverage/kunit_uml.config \
		--build_dir=$(KCOV)/kunit --jobs=$(JOBS)
	rm -rf $(KCOV)/kernel && mkdir -p $(KCOV)/kernel
	gcovr --config $(TOP)/coverage/gcovr-kernel.cfg --root $(KCOV)/src \
		--filter '$(KCOV)/src/drivers/hwmon/hwmon\.c$$' \
		--object-directory $(KCOV)/kunit \
		$(call COV_GCOVR_OUT_K,kernel) $(KCOV)/kunit/drivers/hwmon
	@python3 $(TOP)/coverage/summary.py $(TOP)/coverage/thresholds.json \
		kernel=$(KCOV)/kernel/summary.json

tree-coverage: deps
	@$(KENV) $(TOP)/scripts/tree.sh coverage

coverage-userspace: deps
	rm -rf $(COV)/us-obj $(COV)/userspace
	$(MAKE) --no-print-directory check-userspace check-cli \
		US_OUT=$(COV)/us-obj/lib US_CC='gcc --coverage -fprofile-update=atomic' \
		CLI_OUT=$(COV)/us-obj/cli CLI_CC='gcc --coverage -fprofile-update=atomic' \
		CLI_BIN=$(COV)/us-obj/bin/blockrange
	mkdir -p $(COV)/userspace
	gcovr --config $(TOP)/coverage/gcovr-userspace.cfg --root $(TOP) \
		--filter '$(TOP)/userspace/' \
		$(call COV_GCOVR_OUT,userspace) $(COV)/us-obj
	@python3 $(TOP)/coverage/summary.py $(TOP)/coverage/thresholds.json \
		userspace=$(COV)/userspace/summary.json
