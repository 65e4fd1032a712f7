# The fleet path on Dask: contrib/dask/fleet.py profiles many perf.data
# files with `blockrange profile` on Dask workers and merges the profiles
# with a tree of `blockrange merge` (docs/fleet.md).  Included by the
# top-level Makefile after userspace/cli.mk (CLI_BIN, CLI_OUT) and
# bench/bench.mk (BENCH_OUT, BENCH_MD, BENCH_SRC).
#
#   make check-fleet   check-tests/dask/check_fleet.py on FLEET_CHECK_N (16)
#                      recordings of sortsearch: a LocalCluster of 4
#                      workers with one worker killed mid-task, a
#                      dask-scheduler with 4 dask-workers, a corrupt input,
#                      usage errors; every merged profile against one
#                      `blockrange merge` of all the inputs' profiles
#   make bench-fleet   the job (LocalCluster, 2 workers x 1 thread) against
#                      xargs -P 2 of the same profile and merge commands on
#                      BENCH_FLEET_INPUTS (64) recordings
#                      -> build/bench/fleet.json (part of `make bench`)
#
# Knobs: FLEET_PY (the interpreter with python3-distributed: Debian's,
# /usr/bin/python3), BENCH_FLEET_INPUTS, BENCH_FLEET_COPIES (input i holds
# BENCH_FLEET_COPIES + i % 4 copies of the multi-DSO recording's samples,
# 8: 7 to 10 MB each), BENCH_FLEET_FAN_IN (8), BENCH_FLEET_RUNS (3).

FLEET_PY ?= /usr/bin/python3
FLEET_SRC := $(TOP)/contrib/dask
FLEET_JOB := $(FLEET_SRC)/fleet.py
FLEET_OUT := $(BUILD)/fleet

.PHONY: check-fleet bench-fleet

# ---- check ---------------------------------------------------------------

# Sixteen recordings of sortsearch, each of another size (17..32 elements),
# so that the sixteen profiles differ pairwise.
FLEET_CHECK_N := 16
FLEET_CHECK_WL := $(CLI_OUT)/wl/sortsearch-nopie
FLEET_CHECK_INPUTS := $(foreach i,$(shell seq -w 1 $(FLEET_CHECK_N)),\
	$(FLEET_OUT)/inputs/in-$(i).data)

$(FLEET_OUT)/inputs/in-%.data: $(CLI_BIN) $(FLEET_CHECK_WL)
	@mkdir -p $(@D)
	rm -f $@.tmp $@.tmp.old
	$(CLI_BIN) record --engine=ptrace -o $@.tmp --depth 32 --period 7 -- \
		$(FLEET_CHECK_WL) $$(( 16 + 10#$* )) > /dev/null 2> $@.log
	mv $@.tmp $@

check-fleet: deps $(CLI_BIN) $(FLEET_CHECK_INPUTS)
	$(FLEET_PY) $(TOP)/check-tests/dask/check_fleet.py --job $(FLEET_JOB) \
		--blockrange $(CLI_BIN) --scratch $(FLEET_OUT)/check \
		$(FLEET_CHECK_INPUTS)

# ---- bench ---------------------------------------------------------------

BENCH_FLEET_INPUTS ?= 64
BENCH_FLEET_COPIES ?= 8
BENCH_FLEET_FAN_IN ?= 8
BENCH_FLEET_RUNS ?= 3
BENCH_FLEET_DIR := $(BENCH_OUT)/fleet/c$(BENCH_FLEET_COPIES)
BENCH_FLEET_FILES := $(foreach i,$(shell seq 1 $(BENCH_FLEET_INPUTS)),\
	$(BENCH_FLEET_DIR)/in-$(i).data)

$(BENCH_FLEET_DIR)/in-%.data: $(BENCH_MD) $(BENCH_SRC)/pdrepl.py
	@mkdir -p $(@D)
	python3 $(BENCH_SRC)/pdrepl.py $< $@.tmp \
		--copies $$(( $(BENCH_FLEET_COPIES) + $* % 4 )) 2>/dev/null
	mv $@.tmp $@

bench-fleet: deps $(CLI_BIN) $(BENCH_FLEET_FILES)
	$(FLEET_PY) $(FLEET_SRC)/bench_fleet.py --job $(FLEET_JOB) \
		--blockrange $(CLI_BIN) --out $(BENCH_OUT) \
		--work $(BENCH_OUT)/fleet/work --fan-in $(BENCH_FLEET_FAN_IN) \
		--runs $(BENCH_FLEET_RUNS) --workers 2 $(BENCH_FLEET_FILES)

# Part of `make bench`, after the other parts (they must not share the two
# cores); bench's report then reads build/bench/fleet.json.
bench: bench-fleet
ifneq ($(filter bench,$(MAKECMDGOALS)),)
bench-fleet: | bench-userspace bench-hwmon
endif
