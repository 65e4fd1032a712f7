# The one entry point of the project. See README.md.
#
#   make demo        the demo (installs its own dependencies)
#   make check       every test (installs its own dependencies)
#   make check-quick the inner loop: library and CLI suites, KUnit of our
#                    core on 6.1
#   make ci-cold     CI's command in a temporary clone with an empty
#                    compiler cache, timed (docs/testing.md)
#
#   make deps        apt packages
#   make tree        build/src, the linux-source-6.1 tree, switched to CORE
#   make kunit       KUnit suites in QEMU on our core (CORE=stock: stock core)
#   make kunit-newer-api  the same on our core with CONFIG_HWMON_NEWER_API
#   make check-kernel     KUnit on all three (stock, ours, newer API), the
#                    end-to-end boot and the coverage of hwmon.c
#
#   Every kernel target takes KERNEL=6.1 (default) or KERNEL=6.12: the tree
#   of linux-source-$(KERNEL), built under build/ (6.1) or build/6.12/.
#   make userspace   libblockrange (userspace/build.mk); make cli: the CLI
#   make install     CLI, libblockrange (.so, .a, headers, .pc), man pages,
#                    completion; PREFIX, DESTDIR (userspace/install.mk)
#   make uninstall   removes them again
#   make check-sanitize  library + CLI suites under ASan/UBSan/LSan
#   make check-userspace-arm64  the library suites built for aarch64, run
#                    under qemu-aarch64
#   make fuzz        every libFuzzer harness (FUZZ_SECONDS / FUZZ_RUNS each)
#   make fuzz-long   every harness FUZZ_LONG_SECONDS, corpora minimized into
#                    check-tests/fuzz/, figures in its ledger.tsv
#   make mutate FILE=... N=...  mutation testing of one file (scripts/mutate.py)
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

# ccache for the kernel builds. Every kernel of a tree builds from the one
# source tree KB/src into a build directory under KB (KB = build/ or
# build/6.12/), so with base_dir = build/ the compiler command lines are the
# same for any checkout location, and CI reuses what an earlier build
# compiled. Depend mode: a miss runs the compiler once (its -MMD list gives
# the headers to hash) instead of the preprocessor and then the compiler,
# which is what a cold cache mostly sees.
export PATH := /usr/lib/ccache:$(PATH)
export CCACHE_BASEDIR := $(BUILD)
export CCACHE_NOHASHDIR := 1
export CCACHE_DEPEND := 1
export CCACHE_MAXSIZE ?= 10G

CHECK_KERNEL = @$(KENV) JOBS=$(JOBS) $(TOP)/scripts/check-kernel.sh

.PHONY: all deps tree kunit kunit-ours kunit-stock kunit-newer-api \
	check-kernel check-kernel-newer-api check-sanitize fuzz \
	demo demo-kernel check check-quick check-6.12 ci-cold clean mutate

all: userspace cli

deps:
	@$(TOP)/scripts/deps.sh

# The one tree of KERNEL, switched to CORE (scripts/tree.sh; every kernel
# target switches it to what it builds).
tree: deps
	@$(KENV) top=$(TOP) bash -c '. $(TOP)/scripts/kernel-env.sh && tree_lock && $(TOP)/scripts/tree.sh $(CORE)'

kunit: kunit-$(CORE)

# The KUnit suites on the test kernel of a variant (scripts/check-kernel.sh):
# stock, ours, or ours with its opt-in API of newer kernels
# (CONFIG_HWMON_NEWER_API and the sample driver: kunit/newer-api.kunitconfig).
# The three build in one directory, so going from one to another
# recompiles only what depends on the difference.
kunit-ours kunit-stock: kunit-%: deps
	$(CHECK_KERNEL) $*

kunit-newer-api: deps
	$(CHECK_KERNEL) newer

# Everything of the tree in QEMU: KUnit on the three variants (our core's
# guests with kmemleak and the reports of the debugging options), the
# end-to-end boot of both cores and the coverage of hwmon.c.
check-kernel: deps
	$(CHECK_KERNEL) --e2e --coverage stock ours newer

# CI's 6.12 part: KUnit on the stock core and on ours with
# CONFIG_HWMON_NEWER_API (the option off is tested on 6.1 by check-kernel,
# and on 6.12 by the full check).
check-kernel-newer-api: deps
	$(CHECK_KERNEL) stock newer

# The demo: run the suites on our core and show the sysfs tree that the
# all-types fake chip produced (the demo case prints it into the test log).
demo-kernel: kunit-ours
	@echo
	@echo "== sysfs tree of the all-types fake chip (our core) =="
	@sed -n 's/.*hwmon-demo: //p' $(KB)/runs/ours/rest/console.txt

# Ends with the HTML report of the demo workload and its path.
demo: demo-kernel userspace-demo cli-demo
	@$(MAKE) --no-print-directory report-demo

# Sanitizers: ASan + UBSan + LSan over the library's and the CLI's suites,
# side by side (separate build directories).
check-sanitize: deps
	$(MAKE) --no-print-directory -O -j2 check-userspace-sanitize check-cli-sanitize

# libFuzzer, every harness, FUZZ_SECONDS each (or FUZZ_RUNS executions).
fuzz: fuzz-blockrange fuzz-perfscript fuzz-perfdata fuzz-brprof fuzz-dwarf \
	fuzz-qrec

# Mutation testing of one file: N mutants (default 30, SEED 1) of FILE, each
# built and tested by the suite that covers it, TEST overriding
# (scripts/mutate.py; report under build/mutate/). Not part of check: a
# mutant takes the time of its suite.
mutate:
	@test -n "$(FILE)" || { echo "usage: make mutate FILE=PATH [N=30] [SEED=1] [TEST='command']" >&2; exit 2; }
	python3 $(TOP)/scripts/mutate.py $(FILE) --n $(or $(N),30) \
		--seed $(or $(SEED),1) $(if $(TEST),--test '$(TEST)')

# The checks of the 6.12 tree: KUnit, the end-to-end boot and the coverage
# of hwmon.c (check-kernel), its drivers and patch series (check-drivers),
# recursive makes with KERNEL=6.12 (the rest of check is the 6.1 tree's),
# each part with its time. .ci/run narrows it to CI_612: KUnit of the stock
# core and of ours with CONFIG_HWMON_NEWER_API (time budget, see
# docs/testing.md).
CHECK_612 ?= check-kernel check-drivers
CI_612 := check-kernel-newer-api
check-6.12:
	@set -e; for part in $(CHECK_612); do \
		start=$$(date +%s); \
		$(MAKE) --no-print-directory KERNEL=6.12 $$part; \
		echo "== check-6.12: $$part passed in $$(( $$(date +%s) - start )) s"; \
	done

# The parts of check, in lanes that run side by side: the 6.1 tree's
# kernel checks, the 6.12 tree's, and the userspace ones. Within a lane the
# parts run one after the other (check-drivers builds in the tree that
# check-kernel switched); the lanes share nothing but the compiler cache.
# Each part writes its whole output to build/check-logs/PART.log and one
# line with its time to the console; a failed part's log ends the output.
# The library's and the CLI's suites run in check-sanitize and,
# instrumented, in coverage-userspace, not a third time on their own;
# check-kernel has the debug kernels, the end-to-end boot and the kernel
# coverage in it. The library's suites built for aarch64 (under
# qemu-aarch64) follow the 6.12 tree, the shortest lane.
CHECK_LANES := kernel-6.1 kernel-6.12 userspace
CHECK_LANE_kernel-6.1 := check-kernel check-drivers
CHECK_LANE_kernel-6.12 := check-6.12 check-userspace-arm64
CHECK_LANE_userspace := check-sanitize coverage-userspace check-install \
	check-report check-fleet
CHECK_PARTS := $(foreach l,$(CHECK_LANES),$(CHECK_LANE_$(l)))
CHECK_LOGS := $(BUILD)/check-logs

# Hang guards of the Check suites: a lane's neighbours slow a test down.
check: export CK_TIMEOUT_MULTIPLIER ?= 10

check: deps
	@rm -rf $(CHECK_LOGS); mkdir -p $(CHECK_LOGS); \
	start=$$(date +%s); status=0; \
	$(MAKE) --no-print-directory -k -j$(words $(CHECK_LANES)) \
		$(addprefix check-lane-,$(CHECK_LANES)) || status=$$?; \
	for f in $(CHECK_LOGS)/*.failed; do \
		[ -e "$$f" ] || continue; part=$$(basename "$$f" .failed); \
		echo; echo "== check: $$part FAILED; the end of $(CHECK_LOGS)/$$part.log:"; \
		tail -n 80 $(CHECK_LOGS)/$$part.log; \
	done; \
	[ "$$status" = 0 ] || exit "$$status"; \
	echo "== check: every part passed in $$(( $$(date +%s) - start )) s"
	@echo
	@echo "== coverage summary (reports under build/coverage/) =="
	@python3 $(TOP)/coverage/summary.py $(TOP)/coverage/thresholds.json \
		kernel=$(BUILD)/coverage/kernel/summary.json \
		userspace=$(BUILD)/coverage/userspace/summary.json

# One lane: its parts in order, each in a make of its own without a job
# server (as if run alone), its output in its log; the parts' own time lines
# (check-6.12's parts, check-kernel's total) are repeated on the console.
.PHONY: $(addprefix check-lane-,$(CHECK_LANES))
$(addprefix check-lane-,$(CHECK_LANES)): check-lane-%:
	@for part in $(CHECK_LANE_$*); do \
		log=$(CHECK_LOGS)/$$part.log; start=$$(date +%s); \
		echo "== check: $$part started ($*)"; \
		if $(MAKE) --no-print-directory -j1 $$part > $$log 2>&1; then \
			grep -E '^(== check-6\.12: |check-kernel: .* in [0-9]+ s$$)' $$log || true; \
			echo "== check: $$part passed in $$(( $$(date +%s) - start )) s"; \
		else \
			touch $(CHECK_LOGS)/$$part.failed; \
			echo "== check: $$part FAILED after $$(( $$(date +%s) - start )) s (log: $$log)"; \
			exit 1; \
		fi; \
	done

# The inner loop: the library's and the CLI's suites (plain build) beside
# KUnit of our core on the 6.1 tree (its fault-injection guest and the
# other suites' guest; not the benchmark suite's).
check-quick: deps
	@start=$$(date +%s); \
	$(MAKE) --no-print-directory -O -j2 check-quick-userspace check-quick-kernel; \
	echo "== check-quick passed in $$(( $$(date +%s) - start )) s"

.PHONY: check-quick-userspace check-quick-kernel
check-quick-userspace: check-userspace check-cli
check-quick-kernel: deps
	$(CHECK_KERNEL) --no-bench ours

# CI's command, cold: a clone of HEAD in a temporary directory with
# ../shared beside it, an empty compiler cache, `CI=true bash .ci/run`,
# timed part by part (scripts/ci-cold.sh; CI_COLD_KEEP=1 keeps the clone).
ci-cold:
	@$(TOP)/scripts/ci-cold.sh

clean:
	rm -rf $(BUILD)/userspace $(BUILD)/shared $(BUILD)/report \
		$(BUILD)/install-check $(BUILD)/instrumented
	$(foreach kb,$(BUILD) $(BUILD)/6.12,rm -rf $(kb)/kernel $(kb)/images \
		$(kb)/runs $(kb)/guest $(kb)/drivers $(kb)/drivers-stock \
		$(kb)/drivers-ours $(kb)/patches $(kb)/patches-work \
		$(kb)/patches-check $(kb)/coverage;)

include $(TOP)/userspace/build.mk
include $(TOP)/userspace/cli.mk
include $(TOP)/userspace/install.mk
include $(TOP)/coverage/coverage.mk
include $(TOP)/bench/bench.mk
include $(TOP)/scripts/bench-hwmon.mk
include $(TOP)/contrib/dask/dask.mk
include $(TOP)/scripts/drivers.mk
include $(TOP)/e2e/e2e.mk
