# The KUnit-hosted hwmon core benchmark (issue 8, part 4).  Included by the
# top-level Makefile (TOP, BUILD, KUNIT_PY, KUNIT_ARGS, tree-ours/stock).
#
#   make bench-hwmon   boots the existing KUnit kernel of each core (ours,
#                      then stock) with only the bench_hwmon suite
#                      (kunit/hwmon_bench.c), keeps each raw log as
#                      build/bench/hwmon-<core>.log and writes
#                      build/bench/hwmon.json: rows {metric, ours, stock,
#                      ratio = ours/stock, target, met} plus the raw
#                      median/min/max of every figure.
#
# Same .kunitconfig, same build dirs and the same flock as `make kunit`: no
# config change, so the builds stay incremental.

BENCH_HWMON_OUT := $(BUILD)/bench
BENCH_HWMON_CORES := ours stock

.PHONY: bench-hwmon

bench-hwmon: tree-ours tree-stock
	@mkdir -p $(BENCH_HWMON_OUT)
	$(foreach c,$(BENCH_HWMON_CORES),\
	mkdir -p $(BUILD)/$(c)/kunit && \
	flock $(BUILD)/$(c)/kunit.lock sh -c '$(call KUNIT_PY,$(c)) run \
		$(call KUNIT_ARGS,$(c)) bench_hwmon && \
		cp $(BUILD)/$(c)/kunit/test.log $(BENCH_HWMON_OUT)/hwmon-$(c).log';)
	python3 $(TOP)/scripts/bench-hwmon.py \
		--ours $(BENCH_HWMON_OUT)/hwmon-ours.log \
		--stock $(BENCH_HWMON_OUT)/hwmon-stock.log \
		--out $(BENCH_HWMON_OUT)/hwmon.json \
		$(if $(filter bench,$(MAKECMDGOALS)),,--print)
