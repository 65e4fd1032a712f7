# The one entry point of the project. See README.md.
#
#   make demo        main job (installs its own dependencies)
#   make check       every test (installs its own dependencies)
#
#   make deps        apt packages
#   make tree        build/{stock,ours}/src from linux-source-6.1
#   make kunit       KUnit suites in QEMU on our core (CORE=stock: stock core)
#   make kunit-debug same suites, both cores, KASAN/UBSAN/lockdep/kmemleak kernel
#   make userspace   libblockrange (userspace/build.mk); make cli: the CLI
#   make install     CLI, libblockrange (.so, .a, headers, .pc), man pages,
#                    completion; PREFIX, DESTDIR (userspace/install.mk)
#   make uninstall   removes them again
#   make check-sanitize  library + CLI suites under ASan/UBSan/LSan
#   make fuzz        both libFuzzer harnesses (FUZZ_SECONDS / FUZZ_RUNS)
#   make coverage    gcovr reports + floors (coverage/coverage.mk)
#   make bench       benchmarks (bench/bench.mk, scripts/bench-hwmon.mk)
#   make hwmon-drivers / patches / patches-check   (scripts/drivers.mk)
#   make e2e         boot both cores in QEMU, diff sysfs + sensors (e2e/e2e.mk)

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := all

TOP := $(CURDIR)
BUILD := $(TOP)/build
CORE ?= ours
JOBS ?= $(shell nproc)

ifeq ($(filter $(CORE),ours stock),)
$(error CORE must be 'ours' or 'stock', not '$(CORE)')
endif

# ccache for the kernel builds. Both trees live at build/<core>/src and build
# into build/<core>/kunit, so with base_dir = build/ the compiler command
# lines are the same for both cores and for any checkout location: a stock
# build warms the cache for ours, and CI reuses what a session compiled.
export PATH := /usr/lib/ccache:$(PATH)
export CCACHE_BASEDIR := $(BUILD)
export CCACHE_NOHASHDIR := 1
export CCACHE_MAXSIZE ?= 10G

KUNIT_PY = cd $(BUILD)/$(1)/src && python3 tools/testing/kunit/kunit.py
# Two CPUs: the race suite's kthreads then really run in parallel.
KUNIT_ARGS = --arch=x86_64 --kunitconfig=$(TOP)/.kunitconfig \
	--build_dir=$(BUILD)/$(1)/kunit --jobs=$(JOBS) --qemu_args="-smp 2"

.PHONY: all deps tree tree-ours tree-stock kunit kunit-ours kunit-stock \
	check-sanitize fuzz \
	kunit-debug kunit-debug-ours kunit-debug-stock \
	kunit-debug-build-ours kunit-debug-build-stock \
	demo demo-kernel check check-kernel clean

all: userspace cli

deps:
	@$(TOP)/scripts/deps.sh

tree: tree-ours tree-stock

tree-ours tree-stock: tree-%: deps
	@$(TOP)/scripts/tree.sh $*

kunit: kunit-$(CORE)

# Builds one after the other (each uses every CPU), then both kernels boot
# at once (a debug run mostly keeps one CPU busy). See scripts/kunit-debug.sh.
kunit-debug: kunit-debug-build-ours kunit-debug-build-stock
	@$(TOP)/scripts/kunit-debug.sh boot ours stock

kunit-debug-build-stock: kunit-debug-build-ours
kunit-debug-build-ours kunit-debug-build-stock: kunit-debug-build-%: tree-%
	@JOBS=$(JOBS) $(TOP)/scripts/kunit-debug.sh build $*

kunit-debug-ours kunit-debug-stock: kunit-debug-%: kunit-debug-build-%
	@$(TOP)/scripts/kunit-debug.sh boot $*

# flock: two runs on one build directory (e.g. by two people) would corrupt it.
kunit-ours kunit-stock: kunit-%: tree-%
	mkdir -p $(BUILD)/$*/kunit
	flock $(BUILD)/$*/kunit.lock sh -c '$(call KUNIT_PY,$*) run $(call KUNIT_ARGS,$*)'

# The main job: run the suites on our core and show the sysfs tree that the
# all-types fake chip produced (the demo case prints it into the test log).
demo-kernel: kunit-ours
	@echo
	@echo "== sysfs tree of the all-types fake chip (our core) =="
	@sed -n 's/.*hwmon-demo: //p' $(BUILD)/ours/kunit/test.log

# Ends with the HTML report of the demo workload and its path.
demo: demo-kernel userspace-demo cli-demo
	@$(MAKE) --no-print-directory report-demo

check-kernel: kunit-ours kunit-stock

# Sanitizers: ASan + UBSan + LSan over the library's and the CLI's suites.
check-sanitize: check-userspace-sanitize check-cli-sanitize

# libFuzzer, every harness, FUZZ_SECONDS each (or FUZZ_RUNS executions).
fuzz: fuzz-blockrange fuzz-perfscript fuzz-perfdata

check: check-kernel check-userspace check-cli check-sanitize check-drivers \
	check-install check-report coverage e2e kunit-debug

clean:
	rm -rf $(BUILD)/ours/kunit $(BUILD)/stock/kunit $(BUILD)/userspace \
		$(BUILD)/ours/kunit-debug $(BUILD)/stock/kunit-debug \
		$(BUILD)/stock/drivers $(BUILD)/ours/drivers $(BUILD)/patches \
		$(BUILD)/patches-work $(BUILD)/patches-check \
		$(BUILD)/ours/e2e $(BUILD)/stock/e2e $(BUILD)/e2e \
		$(BUILD)/shared $(BUILD)/report $(BUILD)/install-check

include $(TOP)/userspace/build.mk
include $(TOP)/userspace/cli.mk
include $(TOP)/userspace/install.mk
include $(TOP)/coverage/coverage.mk
include $(TOP)/bench/bench.mk
include $(TOP)/scripts/bench-hwmon.mk
include $(TOP)/scripts/drivers.mk
include $(TOP)/e2e/e2e.mk
