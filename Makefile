# The one entry point of the project. See README.md.
#
#   make demo        the demo (installs its own dependencies)
#   make check       every test (installs its own dependencies)
#
#   make deps        apt packages
#   make tree        build/{stock,ours}/src from linux-source-6.1
#   make kunit       KUnit suites in QEMU on our core (CORE=stock: stock core)
#   make kunit-newer-api  the same on our core with CONFIG_HWMON_NEWER_API
#
#   Every kernel target takes KERNEL=6.1 (default) or KERNEL=6.12: the tree
#   of linux-source-$(KERNEL), built under build/ (6.1) or build/6.12/.
#   make kunit-debug same suites, both cores, KASAN/UBSAN/lockdep/kmemleak kernel
#   make userspace   libblockrange (userspace/build.mk); make cli: the CLI
#   make install     CLI, libblockrange (.so, .a, headers, .pc), man pages,
#                    completion; PREFIX, DESTDIR (userspace/install.mk)
#   make uninstall   removes them again
#   make check-sanitize  library + CLI suites under ASan/UBSan/LSan
#   make fuzz        both libFuzzer harnesses (FUZZ_SECONDS / FUZZ_RUNS)
#   make coverage    gcovr reports + floors (coverage/coverage.mk)
#   make bench       benchmarks (bench/bench.mk, scripts/bench-hwmon.mk,
#                    contrib/dask/dask.mk)
#   make check-fleet the Dask fleet job (contrib/dask/dask.mk)
#   make hwmon-drivers / patches / patches-check   (scripts/drivers.mk)
#   make e2e         boot both cores in QEMU, diff sysfs + sensors (e2e/e2e.mk)

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := all

TOP := $(CURDIR)
BUILD := $(TOP)/build
CORE ?= ours
KERNEL ?= 6.1
JOBS ?= $(shell nproc)

ifeq ($(filter $(CORE),ours stock),)
$(error CORE must be 'ours' or 'stock', not '$(CORE)')
endif
ifeq ($(filter $(KERNEL),6.1 6.12),)
$(error KERNEL must be '6.1' or '6.12', not '$(KERNEL)')
endif

# The build root of the kernel tree: everything of linux-source-$(KERNEL)
# (pristine/, <core>/src, <core>/kunit, e2e, coverage, patches) lives
# under it, with the same layout for both trees. The scripts get it as
# BUILD and the tree as KERNEL (scripts/kernel-env.sh).
KB := $(if $(filter 6.1,$(KERNEL)),$(BUILD),$(BUILD)/$(KERNEL))
KENV = BUILD=$(KB) KERNEL=$(KERNEL)

# ccache for the kernel builds. Both cores' trees live at KB/<core>/src and
# build into KB/<core>/kunit (KB = build/ or build/6.12/), so with base_dir =
# build/ the compiler command lines are the same for both cores and for any
# checkout location: a stock build warms the cache for ours, and CI reuses
# what an earlier build compiled.
export PATH := /usr/lib/ccache:$(PATH)
export CCACHE_BASEDIR := $(BUILD)
export CCACHE_NOHASHDIR := 1
export CCACHE_MAXSIZE ?= 10G

KUNIT_PY = cd $(KB)/$(1)/src && python3 tools/testing/kunit/kunit.py
# Two CPUs: the race suite's kthreads then really run in parallel.
KUNIT_ARGS = --arch=x86_64 --kunitconfig=$(TOP)/.kunitconfig \
	--build_dir=$(KB)/$(1)/kunit --jobs=$(JOBS) --qemu_args="-smp 2"

.PHONY: all deps tree tree-ours tree-stock kunit kunit-ours kunit-stock \
	kunit-newer-api check-kernel-newer-api \
	check-sanitize fuzz \
	kunit-debug kunit-debug-ours kunit-debug-stock \
	kunit-debug-build-ours kunit-debug-build-stock \
	demo demo-kernel check check-kernel check-6.12 clean

all: userspace cli

deps:
	@$(TOP)/scripts/deps.sh

tree: tree-ours tree-stock

tree-ours tree-stock: tree-%: deps
	@$(KENV) $(TOP)/scripts/tree.sh $*

kunit: kunit-$(CORE)

# Builds one after the other (each uses every CPU), then both kernels boot
# at once (a debug run mostly keeps one CPU busy). See scripts/kunit-debug.sh.
# KUNIT_DEBUG_CORES: the cores it runs (.ci/run: ours only, see docs/testing.md).
KUNIT_DEBUG_CORES ?= ours stock
kunit-debug: $(addprefix kunit-debug-build-,$(KUNIT_DEBUG_CORES))
	@$(KENV) $(TOP)/scripts/kunit-debug.sh boot $(KUNIT_DEBUG_CORES)

kunit-debug-build-stock: kunit-debug-build-ours
kunit-debug-build-ours kunit-debug-build-stock: kunit-debug-build-%: tree-%
	@$(KENV) JOBS=$(JOBS) $(TOP)/scripts/kunit-debug.sh build $*

kunit-debug-ours kunit-debug-stock: kunit-debug-%: kunit-debug-build-%
	@$(KENV) $(TOP)/scripts/kunit-debug.sh boot $*

# flock: two runs on one build directory (e.g. by two people) would corrupt it.
kunit-ours kunit-stock: kunit-%: tree-%
	mkdir -p $(KB)/$*/kunit
	flock $(KB)/$*/kunit.lock sh -c '$(call KUNIT_PY,$*) run $(call KUNIT_ARGS,$*)'

# Our core with its opt-in API of newer kernels (CONFIG_HWMON_NEWER_API and
# the sample driver: kunit/newer-api.kunitconfig), the same suites. It uses
# the build directory of kunit-ours: the two configurations differ only in
# what depends on the option (the files that include <linux/hwmon.h>), so
# going from one to the other rebuilds those and links again, where a
# directory of its own would cost a whole kernel build.
kunit-newer-api: tree-ours
	mkdir -p $(KB)/ours/kunit
	flock $(KB)/ours/kunit.lock sh -c '$(call KUNIT_PY,ours) run $(call KUNIT_ARGS,ours) \
		--kunitconfig=$(TOP)/kunit/newer-api.kunitconfig'

# The demo: run the suites on our core and show the sysfs tree that the
# all-types fake chip produced (the demo case prints it into the test log).
demo-kernel: kunit-ours
	@echo
	@echo "== sysfs tree of the all-types fake chip (our core) =="
	@sed -n 's/.*hwmon-demo: //p' $(KB)/ours/kunit/test.log

# Ends with the HTML report of the demo workload and its path.
demo: demo-kernel userspace-demo cli-demo
	@$(MAKE) --no-print-directory report-demo

check-kernel: kunit-ours kunit-stock

# CI's 6.12 part: the stock core, and ours with CONFIG_HWMON_NEWER_API only
# (the option off is tested on 6.1 by check-kernel, and on 6.12 by the full
# check): one kernel of our core instead of two, see docs/hwmon.md, CI.
check-kernel-newer-api: kunit-newer-api kunit-stock

# Sanitizers: ASan + UBSan + LSan over the library's and the CLI's suites.
check-sanitize: check-userspace-sanitize check-cli-sanitize

# libFuzzer, every harness, FUZZ_SECONDS each (or FUZZ_RUNS executions).
fuzz: fuzz-blockrange fuzz-perfscript fuzz-perfdata

# The checks of the 6.12 tree: KUnit on both its cores and on ours with
# CONFIG_HWMON_NEWER_API (after kunit-ours, in its build directory: on 6.1
# the option runs in ours' kunit-debug kernel, see scripts/kunit-debug.sh),
# its drivers and patch series, its e2e boot and the coverage of hwmon.c on
# it (recursive makes with KERNEL=6.12; the rest of check is the 6.1
# tree's), each part with its time.  .ci/run narrows it to CI_612, where
# our core runs with the option only (time budget, see docs/testing.md).
CHECK_612 ?= check-kernel kunit-newer-api check-drivers e2e coverage-kernel
CI_612 := check-kernel-newer-api
check-6.12:
	@set -e; for part in $(CHECK_612); do \
		start=$$(date +%s); \
		$(MAKE) --no-print-directory KERNEL=6.12 $$part; \
		echo "== check-6.12: $$part passed in $$(( $$(date +%s) - start )) s"; \
	done

# The parts of check, one after the other, each with its time.  The
# library's and the CLI's suites run in `coverage` (instrumented, same -O2)
# and in `check-sanitize`, not a third time on their own.
CHECK_PARTS := check-kernel check-sanitize check-drivers check-install \
	check-report check-fleet coverage e2e kunit-debug check-6.12

check:
	@set -e; for part in $(CHECK_PARTS); do \
		start=$$(date +%s); \
		$(MAKE) --no-print-directory $$part; \
		echo "== check: $$part passed in $$(( $$(date +%s) - start )) s"; \
	done

clean:
	rm -rf $(BUILD)/userspace $(BUILD)/shared $(BUILD)/report \
		$(BUILD)/install-check
	$(foreach kb,$(BUILD) $(BUILD)/6.12,rm -rf $(kb)/ours/kunit $(kb)/stock/kunit \
		$(kb)/ours/kunit-debug $(kb)/stock/kunit-debug \
		$(kb)/stock/drivers $(kb)/ours/drivers $(kb)/patches \
		$(kb)/patches-work $(kb)/patches-check \
		$(kb)/ours/e2e $(kb)/stock/e2e $(kb)/e2e;)

include $(TOP)/userspace/build.mk
include $(TOP)/userspace/cli.mk
include $(TOP)/userspace/install.mk
include $(TOP)/coverage/coverage.mk
include $(TOP)/bench/bench.mk
include $(TOP)/scripts/bench-hwmon.mk
include $(TOP)/contrib/dask/dask.mk
include $(TOP)/scripts/drivers.mk
include $(TOP)/e2e/e2e.mk
