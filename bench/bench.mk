# Benchmarks against the anchors.  Included by the top-level
# Makefile, which defines TOP, BUILD and the targets deps,
# userspace (US_LIB), cli (CLI_BIN, CLI_OUT) and bench-hwmon.
#
#   make bench            bench-userspace + bench-hwmon, then merge
#                         build/bench/*.json into build/bench/results.json
#                         and print the table
#   make bench-jobs       only -j 1 against -j 2 (annotate, ranges) on
#                         BENCH_JOBS_BYTES of perf.data and on perf script
#                         text: wall ratio, the extra CPU of -j 2, and two
#                         -j 1 at once (the machine's ceiling)
#   make bench-profile    callgrind instruction counts of both sides
#                         (what limits a ratio); not part of bench
#   make bench-userspace  the splitter against perf 6.1's block-range.c
#                         (NDEBUG and not) and the offline bound;
#                         `blockrange ranges` against llvm-profgen; the CLI
#                         at scale: perf.data against the perf script
#                         pipeline, -j 1 against -j 2, merge of .brprof
#                         profiles, perf2bolt against `blockrange bolt`, a
#                         pipe-mode stream of BENCH_STREAM_GB GB
#                         -> build/bench/userspace.json
#
# Knobs: BENCH_RUNS (splitter repetitions, 5), BENCH_DEBUG_RUNS (perf
# without NDEBUG, 3), BENCH_DEBUG_CAP (seconds per such run, 4),
# BENCH_E2E_RUNS (end to end repetitions, 5); the CLI at scale:
# BENCH_SCALE (0 leaves it out, 1), BENCH_PD_BYTES (size of the replicated
# perf.data, 200 MiB), BENCH_PD_RUNS (5), BENCH_JOBS_BYTES (the perf.data
# of -j, 1 GB), BENCH_JOBS_RUNS (5),
# BENCH_MERGE_INPUTS (8), BENCH_MERGE_RECORDS (records per DSO and section
# of each, 40000), BENCH_MERGE_RUNS (3), BENCH_BOLT_RUNS (3),
# BENCH_STREAM_GB (10).  The parts must not share the two cores with each
# other: under `make -j bench`, bench-hwmon waits for bench-userspace.
#
# perf's block-range.c and tools/lib/rbtree.c are compiled here from the
# unpacked linux-source-6.1 tree (build/pristine, made by scripts/tree.sh);
# block-range.c is copied into build/bench/perf61/src first only so that its
# #include "annotate.h" finds our shim instead of perf's real header.

BENCH_SRC := $(TOP)/bench
BENCH_OUT := $(BUILD)/bench
BENCH_PRISTINE := $(BUILD)/pristine/linux-source-6.1
BENCH_PY := python3 $(BENCH_SRC)/bench.py

BENCH_RUNS ?= 5
BENCH_DEBUG_RUNS ?= 3
BENCH_DEBUG_CAP ?= 4
BENCH_E2E_RUNS ?= 5
BENCH_LLVM_PROFGEN ?= llvm-profgen-19

BENCH_CC ?= gcc
BENCH_CFLAGS := -std=c11 -Wall -Wextra -Werror -O2 -g
# As perf 6.1's Makefile.config builds it (gcc: -O6 means -O3); -DNDEBUG=1
# is added for the variant perf ships, left out for the debug-walk one.
BENCH_PERF_CFLAGS := -std=gnu11 -O3 -g -fno-omit-frame-pointer \
	-I$(BENCH_PRISTINE)/tools/include -iquote $(BENCH_SRC)/perf61-shim
BENCH_PERF_SRC := $(BENCH_OUT)/perf61/src

# The recorded workload (non-PIE: absolute addresses, no mmap lines needed).
BENCH_WL := $(CLI_OUT)/wl/sortsearch-nopie
BENCH_WL_ARG := 256
BENCH_TRACE := $(BENCH_OUT)/trace.perfscript
BENCH_E2E := $(BENCH_OUT)/e2e.perfscript
BENCH_STREAMS := $(BENCH_OUT)/streams
BENCH_BINS := $(addprefix $(BENCH_OUT)/splitbench-,ours batch perf-ndebug \
	perf-debug bound)

# The CLI at scale.  The recording is the multi-DSO demo's (hot code in the
# PIE executable, its own libhot.so, libc and ld.so): one run of it in
# perf.data, replicated by pdrepl.py to BENCH_PD_BYTES (kept for the next
# run; its name carries the size).
BENCH_SCALE ?= 1
BENCH_PERF ?= perf
# perf2bolt under its own name: as perf2bolt-19 it acts as llvm-bolt.
BENCH_PERF2BOLT ?= /usr/lib/llvm-19/bin/perf2bolt
BENCH_PD_BYTES ?= 209715200
BENCH_PD_RUNS ?= 5
# -j on a larger copy: at 200 MiB the serial start (loading the DSOs) and
# end (printing) are a third of the time.
BENCH_JOBS_BYTES ?= 1000000000
BENCH_JOBS_RUNS ?= 5
BENCH_MERGE_INPUTS ?= 8
BENCH_MERGE_RECORDS ?= 40000
BENCH_MERGE_DSOS := 4
BENCH_MERGE_RUNS ?= 3
BENCH_BOLT_RUNS ?= 3
BENCH_STREAM_GB ?= 10
BENCH_MD_WL := $(CLI_OUT)/wl/multidso-pie
BENCH_MD_ARGS := 2000 2000 64
BENCH_MD := $(BENCH_OUT)/md.data
BENCH_MD_BIG := $(BENCH_OUT)/md-$(BENCH_PD_BYTES).data
BENCH_MD_JOBS := $(BENCH_OUT)/md-$(BENCH_JOBS_BYTES).data
# -j on perf script text: perf 6.1's text of the BENCH_PD_BYTES copy (about
# 1.6 times its size), made once and reused.
BENCH_MD_TEXT := $(BENCH_OUT)/md-$(BENCH_PD_BYTES).perfscript
BENCH_MERGE_DIR := $(BENCH_OUT)/merge/d$(BENCH_MERGE_DSOS)-r$(BENCH_MERGE_RECORDS)
BENCH_MERGE_FILES := $(foreach i,$(shell seq 1 $(BENCH_MERGE_INPUTS)),\
	$(BENCH_MERGE_DIR)/in-$(i).brprof)
BENCH_SCALE_DEPS := $(BENCH_MD) $(BENCH_MD_BIG) $(BENCH_MD_JOBS) $(BENCH_MD_TEXT) \
	$(BENCH_MD_WL) \
	$(BENCH_MERGE_FILES)
BENCH_SCALE_ARGS := --scale --md-data $(BENCH_MD) --md-big $(BENCH_MD_BIG) \
	--md-workload $(BENCH_MD_WL) --pdrepl $(BENCH_SRC)/pdrepl.py \
	--perf $(BENCH_PERF) --perf2bolt $(BENCH_PERF2BOLT) \
	--pd-runs $(BENCH_PD_RUNS) --jobs-runs $(BENCH_JOBS_RUNS) \
	--jobs-input $(BENCH_MD_JOBS) --jobs-text $(BENCH_MD_TEXT) \
	--merge-inputs $(BENCH_MERGE_FILES) --merge-runs $(BENCH_MERGE_RUNS) \
	--bolt-runs $(BENCH_BOLT_RUNS) --stream-gb $(BENCH_STREAM_GB)

.PHONY: bench bench-userspace bench-report bench-jobs

bench: bench-userspace bench-hwmon
	@$(BENCH_PY) report --dir $(BENCH_OUT)

ifneq ($(filter bench,$(MAKECMDGOALS)),)
bench-hwmon: | bench-userspace
endif

bench-report:
	@$(BENCH_PY) report --dir $(BENCH_OUT)

# Only -j 1 against -j 2 (part of bench-userspace): BENCH_JOBS_BYTES of
# perf.data and the perf script text -> build/bench/jobs.json and a table.
bench-jobs: $(CLI_BIN) $(BENCH_MD_JOBS) $(BENCH_MD_TEXT)
	$(BENCH_PY) jobs --out $(BENCH_OUT) --cli $(CLI_BIN) \
		--jobs-input $(BENCH_MD_JOBS) --jobs-text $(BENCH_MD_TEXT) \
		--jobs-runs $(BENCH_JOBS_RUNS)

bench-userspace: $(BENCH_BINS) $(CLI_BIN) $(BENCH_WL) $(BENCH_E2E) \
		$(BENCH_STREAMS)/a.blk $(BENCH_STREAMS)/b.blk $(BENCH_STREAMS)/c.blk \
		$(if $(filter 1,$(BENCH_SCALE)),$(BENCH_SCALE_DEPS))
	@command -v $(BENCH_LLVM_PROFGEN) >/dev/null || \
		{ echo "bench: $(BENCH_LLVM_PROFGEN) not found (make deps)" >&2; exit 1; }
	@[ "$(BENCH_SCALE)" != 1 ] || { command -v $(BENCH_PERF) >/dev/null && \
		[ -x $(BENCH_PERF2BOLT) ]; } || \
		{ echo "bench: $(BENCH_PERF) or $(BENCH_PERF2BOLT) not found (make deps)" >&2; exit 1; }
	$(BENCH_PY) userspace --out $(BENCH_OUT) --streams $(BENCH_STREAMS) \
		--ours $(BENCH_OUT)/splitbench-ours \
		--batch $(BENCH_OUT)/splitbench-batch \
		--perf-ndebug $(BENCH_OUT)/splitbench-perf-ndebug \
		--perf-debug $(BENCH_OUT)/splitbench-perf-debug \
		--bound $(BENCH_OUT)/splitbench-bound \
		--runs $(BENCH_RUNS) --debug-runs $(BENCH_DEBUG_RUNS) \
		--debug-cap $(BENCH_DEBUG_CAP) --e2e-runs $(BENCH_E2E_RUNS) \
		--cli $(CLI_BIN) --llvm-profgen $(BENCH_LLVM_PROFGEN) \
		--workload $(BENCH_WL) --trace $(BENCH_TRACE) \
		--e2e-input $(BENCH_E2E) \
		$(if $(filter 1,$(BENCH_SCALE)),$(BENCH_SCALE_ARGS)) \
		$(if $(filter bench,$(MAKECMDGOALS)),,--print)

# ---- the perf 6.1 anchor, from the unpacked tree ---------------------------

$(BUILD)/pristine/.unpacked: | deps
	BUILD=$(BUILD) $(TOP)/scripts/tree.sh pristine

$(BENCH_PERF_SRC)/%: $(BUILD)/pristine/.unpacked
	@mkdir -p $(@D)
	cp $(BENCH_PRISTINE)/tools/perf/util/$* $@

$(BENCH_OUT)/perf61/%/block-range.o: $(BENCH_PERF_SRC)/block-range.c \
		$(BENCH_PERF_SRC)/block-range.h $(BENCH_SRC)/perf61-shim/annotate.h
	@mkdir -p $(@D)
	$(BENCH_CC) $(BENCH_PERF_CFLAGS) $(if $(filter ndebug,$*),-DNDEBUG=1) \
		-Dmalloc=perf61_counted_malloc -c $< -o $@

$(BENCH_OUT)/perf61/%/rbtree.o: $(BUILD)/pristine/.unpacked
	@mkdir -p $(@D)
	$(BENCH_CC) $(BENCH_PERF_CFLAGS) $(if $(filter ndebug,$*),-DNDEBUG=1) \
		-c $(BENCH_PRISTINE)/tools/lib/rbtree.c -o $@

# Keep them: they are inputs of four binaries, not throwaway intermediates.
.SECONDARY: $(BENCH_PERF_SRC)/block-range.c $(BENCH_PERF_SRC)/block-range.h \
	$(foreach v,ndebug debug,$(BENCH_OUT)/perf61/$(v)/block-range.o \
		$(BENCH_OUT)/perf61/$(v)/rbtree.o)

# ---- drivers and generators ------------------------------------------------

BENCH_DRIVER_DEPS := $(BENCH_SRC)/splitbench.c $(BENCH_SRC)/stream.h

$(BENCH_OUT)/splitbench-ours: $(BENCH_DRIVER_DEPS) $(US_LIB)
	@mkdir -p $(@D)
	$(BENCH_CC) $(BENCH_CFLAGS) -DIMPL_OURS -DIMPL_NAME='"ours"' \
		-I$(TOP)/userspace/include -o $@ $< $(US_LIB)

# The batch driver reads the strategy's internals (lib/internal.h) to force
# a strategy and to report what it did.
$(BENCH_OUT)/splitbench-batch: $(BENCH_DRIVER_DEPS) $(US_LIB) \
		$(TOP)/userspace/lib/internal.h
	@mkdir -p $(@D)
	$(BENCH_CC) $(BENCH_CFLAGS) -DIMPL_BATCH -DIMPL_NAME='"batch"' \
		-I$(TOP)/userspace/include -I$(TOP)/userspace -o $@ $< $(US_LIB)

$(BENCH_OUT)/splitbench-bound: $(BENCH_DRIVER_DEPS)
	@mkdir -p $(@D)
	$(BENCH_CC) $(BENCH_CFLAGS) -DIMPL_BOUND -DIMPL_NAME='"bound"' -o $@ $<

# The driver includes perf's block-range.h (GNU C: typeof); its own code
# keeps -Werror.
$(BENCH_OUT)/splitbench-perf-%: $(BENCH_DRIVER_DEPS) \
		$(BENCH_OUT)/perf61/%/block-range.o $(BENCH_OUT)/perf61/%/rbtree.o \
		$(BENCH_PERF_SRC)/block-range.h
	@mkdir -p $(@D)
	$(BENCH_CC) $(BENCH_CFLAGS) -std=gnu11 -DIMPL_PERF -DIMPL_NAME='"perf_$*"' \
		-iquote $(BENCH_PERF_SRC) -iquote $(BENCH_SRC)/perf61-shim \
		-isystem $(BENCH_PRISTINE)/tools/include -o $@ $< \
		$(BENCH_OUT)/perf61/$*/block-range.o $(BENCH_OUT)/perf61/$*/rbtree.o

$(BENCH_OUT)/blockgen: $(BENCH_SRC)/blockgen.c $(BENCH_SRC)/stream.h
	@mkdir -p $(@D)
	$(BENCH_CC) $(BENCH_CFLAGS) -o $@ $<

# ---- inputs ------------------------------------------------------------------

# (a) start uniform over 64 KiB, length uniform 1..64 bytes.
$(BENCH_STREAMS)/a.blk: $(BENCH_OUT)/blockgen
	@mkdir -p $(@D)
	$< random $@ 1000000 65536 64 1

# (c) block i inside [base + 32 i, base + 32 i + 31], shuffled.
$(BENCH_STREAMS)/c.blk: $(BENCH_OUT)/blockgen
	@mkdir -p $(@D)
	$< distinct $@ 100000 32 3

# (b) the blocks of the recorded trace inside the executable (0x400000 up;
# the libraries are at 0x7f...), repeated to 10^6, owners from nm.
$(BENCH_STREAMS)/b.blk: $(BENCH_OUT)/blockgen $(BENCH_TRACE) $(BENCH_WL)
	@mkdir -p $(@D)
	nm -n --defined-only $(BENCH_WL) > $(BENCH_STREAMS)/b.nm
	$< trace $@ 1000000 $(BENCH_TRACE) 0x400000 0x10000000 $(BENCH_STREAMS)/b.nm

# Recorded once, then reused (single-stepping takes a few seconds).
$(BENCH_TRACE): $(CLI_BIN) $(BENCH_WL)
	@mkdir -p $(@D)
	$(CLI_BIN) record --engine=ptrace --format=perfscript -o $@.tmp --depth 32 --period 7 -- \
		$(BENCH_WL) $(BENCH_WL_ARG) >/dev/null
	mv $@.tmp $@

# >= 200 MiB of perf script: the recorded samples, replicated; reused.
$(BENCH_E2E): $(BENCH_TRACE) $(BENCH_SRC)/bench.py
	$(BENCH_PY) replicate $< $@

# One run of the multi-DSO workload in perf.data, then replicated; reused.
$(BENCH_MD): $(CLI_BIN) $(BENCH_MD_WL)
	@mkdir -p $(@D)
	rm -f $@.tmp $@.tmp.old
	$(CLI_BIN) record --engine=ptrace -o $@.tmp --depth 32 --period 7 -- \
		$(BENCH_MD_WL) $(BENCH_MD_ARGS) >/dev/null
	mv $@.tmp $@

$(BENCH_OUT)/md-%.data: $(BENCH_MD) $(BENCH_SRC)/pdrepl.py
	python3 $(BENCH_SRC)/pdrepl.py $< $@ --min-bytes $*

$(BENCH_OUT)/md-%.perfscript: $(BENCH_OUT)/md-%.data
	$(BENCH_PERF) script -F event,ip,brstack --show-mmap-events -f \
		-i $< > $@.tmp
	mv $@.tmp $@

# Synthetic profiles for merge (the same DSOs, keys overlapping in part).
$(BENCH_OUT)/brpgen: $(BENCH_SRC)/brpgen.c $(CLI_LIBA) $(US_LIB)
	@mkdir -p $(@D)
	$(BENCH_CC) $(BENCH_CFLAGS) -I$(TOP)/userspace/cli \
		-I$(TOP)/userspace/include -o $@ $< $(CLI_LIBA) $(US_LIB) \
		$(CLI_LIBS)

$(BENCH_MERGE_DIR)/in-%.brprof: $(BENCH_OUT)/brpgen
	@mkdir -p $(@D)
	$< $@.tmp $* $(BENCH_MERGE_DSOS) $(BENCH_MERGE_RECORDS)
	mv $@.tmp $@

# Instruction counts (callgrind) behind the ratios; not part of `bench`.
.PHONY: bench-profile
bench-profile: $(BENCH_BINS) $(BENCH_OUT)/blockgen $(BENCH_STREAMS)/b.blk \
		$(BENCH_STREAMS)/c.blk \
		$(CLI_BIN) $(BENCH_WL) $(BENCH_MD)
	BLOCKRANGE=$(CLI_BIN) WORKLOAD=$(BENCH_WL) \
	LLVM_PROFGEN=$(BENCH_LLVM_PROFGEN) \
	MD_DATA=$(BENCH_MD) PDREPL=$(BENCH_SRC)/pdrepl.py PERF=$(BENCH_PERF) \
		bash $(BENCH_SRC)/profile.sh $(BENCH_OUT)/profile
include $(TOP)/bench/autofdo.mk
