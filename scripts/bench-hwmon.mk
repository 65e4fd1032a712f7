# The KUnit-hosted hwmon core benchmark. Included by the top-level Makefile
# (TOP, BUILD, JOBS, the ccache environment).
#
#   make bench-hwmon   for each tree of BENCH_HWMON_KERNELS (6.1 6.12):
#                      builds both KUnit kernels (same build directories,
#                      configuration and flock as `make kunit`, so the
#                      builds stay incremental), boots each core
#                      BENCH_HWMON_BOOTS times (5) with only the bench_hwmon
#                      suite (kunit/hwmon_bench.c), alternating the cores in
#                      ABBA order, keeps every raw log as
#                      build/bench/hwmon-<kernel>-<core>-<n>.log and writes
#                      build/bench/hwmon.json: per tree and figure, the
#                      median over the boots of each core, the median of the
#                      per-round ratios ours/stock, the ratio of the minima,
#                      the target and whether it is met.

BENCH_HWMON_OUT := $(BUILD)/bench
BENCH_HWMON_KERNELS ?= 6.1 6.12
BENCH_HWMON_BOOTS ?= 5

.PHONY: bench-hwmon

bench-hwmon: deps
	@BENCH_OUT=$(BENCH_HWMON_OUT) BENCH_HWMON_BOOTS=$(BENCH_HWMON_BOOTS) \
		JOBS=$(JOBS) $(TOP)/scripts/bench-hwmon.sh $(BENCH_HWMON_KERNELS)
	python3 $(TOP)/scripts/bench-hwmon.py --dir $(BENCH_HWMON_OUT) \
		--boots $(BENCH_HWMON_BOOTS) --out $(BENCH_HWMON_OUT)/hwmon.json \
		$(if $(filter bench,$(MAKECMDGOALS)),,--print) $(BENCH_HWMON_KERNELS)
