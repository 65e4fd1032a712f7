# Coverage reports (gcovr), included by the top-level Makefile.
#
#   make coverage   build/coverage/kernel/    our hwmon.c under the KUnit suites (UML)
#                   build/coverage/userspace/ libblockrange + CLI under the Check suites
#                   and a one-screen summary; fails below coverage/thresholds.json
#
# The kernel part runs kunit.py --arch=um with GCOV on a third tree,
# build/coverage/src = our tree + kernel/patches/coverage/ (two build fixes
# that UML + gcc 12 + GCOV need; see the patches' descriptions). UML writes
# the .gcda files itself when the kernel exits.
# The userspace part rebuilds the library, CLI and tests with --coverage in
# build/coverage/us-obj/, so the normal build stays uninstrumented.

COV := $(BUILD)/coverage
COV_GCOVR_OUT = --html-details $(COV)/$(1)/index.html \
	--cobertura $(COV)/$(1)/coverage.xml --cobertura-pretty \
	--txt $(COV)/$(1)/summary.txt --json-summary $(COV)/$(1)/summary.json

.PHONY: coverage coverage-kernel coverage-userspace

coverage: coverage-kernel coverage-userspace
	@echo
	@echo "== coverage summary (reports under build/coverage/) =="
	@python3 $(TOP)/coverage/summary.py $(TOP)/coverage/thresholds.json \
		kernel=$(COV)/kernel/summary.json \
		userspace=$(COV)/userspace/summary.json

# The instrumented kernel bypasses ccache: a cached .gcno would record the
# working directory of whichever checkout compiled it first. kbuild's own
# incremental build still applies within build/coverage/kunit.
coverage-kernel: tree-coverage
	@mkdir -p $(COV)/kunit
	find $(COV)/kunit -name '*.gcda' -delete
	cd $(COV)/src && CCACHE_DISABLE=1 python3 tools/testing/kunit/kunit.py run --arch=um \
		--kunitconfig=$(TOP)/.kunitconfig \
		--kunitconfig=tools/testing/kunit/configs/coverage_uml.config \
		--kunitconfig=$(TOP)/coverage/kunit_uml.config \
		--build_dir=$(COV)/kunit --jobs=$(JOBS)
	rm -rf $(COV)/kernel && mkdir -p $(COV)/kernel
	gcovr --config $(TOP)/coverage/gcovr-kernel.cfg --root $(COV)/src \
		--filter '$(COV)/src/drivers/hwmon/hwmon\.c$$' \
		--object-directory $(COV)/kunit \
		$(call COV_GCOVR_OUT,kernel) $(COV)/kunit/drivers/hwmon

tree-coverage: deps
	@$(TOP)/scripts/tree.sh coverage

coverage-userspace: deps
	rm -rf $(COV)/us-obj $(COV)/userspace
	$(MAKE) --no-print-directory check-userspace check-cli \
		US_OUT=$(COV)/us-obj/lib US_CC='gcc --coverage' \
		CLI_OUT=$(COV)/us-obj/cli CLI_CC='gcc --coverage' \
		CLI_BIN=$(COV)/us-obj/bin/blockrange
	mkdir -p $(COV)/userspace
	gcovr --config $(TOP)/coverage/gcovr-userspace.cfg --root $(TOP) \
		--filter '$(TOP)/userspace/' \
		$(call COV_GCOVR_OUT,userspace) $(COV)/us-obj
