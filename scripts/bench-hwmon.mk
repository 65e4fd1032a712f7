# The KUnit-hosted hwmon core benchmark. Included by the top-level Makefile
# (TOP, BUILD, JOBS, the ccache environment).
#
#   make bench-hwmon   for each tree of BENCH_HWMON_KERNELS (6.1 6.12):
#                      builds both KUnit kernels (same build directories,
#                      configuration and flock as `make kunit`), boots each
#                      core BENCH_HWMON_BOOTS times (8) with only the
#                      bench_hwmon suite (kunit/hwmon_bench.c) and
#                      BENCH_HWMON_REPS (100) interleaved repetitions of every
#                      timed figure per boot, alternating the cores in ABBA
#                      order; boots each core once more under QEMU's
#                      -icount (guest instruction counts, BENCH_HWMON_ICOUNT=0
#                      leaves that out); then builds and boots the counts
#                      kernel of each core once (BENCH_HWMON_COUNTS=0 leaves
#                      that out). Keeps
#                      every raw log as build/bench/hwmon-<kernel>-<core>-<n>.log
#                      (and -counts.log) and writes build/bench/hwmon.json: per
#                      tree and figure, the median over the boots of each
#                      core, the median of the per-round ratios ours/stock
#                      with its distribution-free confidence interval, the
#                      target and whether it is met; and the counts of both
#                      cores side by side. See scripts/bench-hwmon.py.

BENCH_HWMON_OUT := $(BUILD)/bench
BENCH_HWMON_KERNELS ?= 6.1 6.12
BENCH_HWMON_BOOTS ?= 8
BENCH_HWMON_REPS ?= 100
BENCH_HWMON_COUNTS ?= 1
BENCH_HWMON_ICOUNT ?= 1
BENCH_HWMON_ICOUNT_REPS ?= 5

.PHONY: bench-hwmon bench-hwmon-report

bench-hwmon: deps
	@BENCH_OUT=$(BENCH_HWMON_OUT) BENCH_HWMON_BOOTS=$(BENCH_HWMON_BOOTS) \
		BENCH_HWMON_REPS=$(BENCH_HWMON_REPS) \
		BENCH_HWMON_COUNTS=$(BENCH_HWMON_COUNTS) \
		BENCH_HWMON_ICOUNT=$(BENCH_HWMON_ICOUNT) \
		BENCH_HWMON_ICOUNT_REPS=$(BENCH_HWMON_ICOUNT_REPS) \
		JOBS=$(JOBS) $(TOP)/scripts/bench-hwmon.sh $(BENCH_HWMON_KERNELS)
	python3 $(TOP)/scripts/bench-hwmon.py --dir $(BENCH_HWMON_OUT) \
		--boots $(BENCH_HWMON_BOOTS) --out $(BENCH_HWMON_OUT)/hwmon.json \
		$(if $(filter bench,$(MAKECMDGOALS)),,--print) $(BENCH_HWMON_KERNELS)

# The table of the last bench-hwmon run again, from its logs.
bench-hwmon-report:
	python3 $(TOP)/scripts/bench-hwmon.py --dir $(BENCH_HWMON_OUT) \
		--boots $(BENCH_HWMON_BOOTS) --out $(BENCH_HWMON_OUT)/hwmon.json \
		--print $(BENCH_HWMON_KERNELS)
