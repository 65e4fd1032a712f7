# The QEMU recorder's benchmark (bench/qemu_rec_bench.py), part of `make
# bench`; included by userspace/qemu-rec.mk.
#
#   make bench-qemu-record  CPU of native, qemu-x86_64, the plugin (sampled,
#                           sampled with the call stacks of -g, and exact,
#                           alone and through `blockrange
#                           record`) and callgrind on sort of
#                           BENCH_QREC_SORT_LINES shuffled lines, gzip -c of
#                           BENCH_QREC_GZIP_MB MB and a python3 loop; the
#                           ptrace engine's instructions per second; exact
#                           mode's memory on gzip of a tenth and of all of
#                           the text; and the floor of any recorder that
#                           pairs blocks under QEMU's plugin API version 1
#                           (bench/qemu-probe.c: an empty callback in every
#                           block, and the least pairing) ->
#                           build/bench/qemu-record.json
#   make bench-qemu-api4    the same floor under plugin API version 4
#                           (bench/qemu-probe4.c in a QEMU 10.0 built by
#                           scripts/qemu-api4.py into build/qemu-api4/, as
#                           Debian 12 has no QEMU that loads such plugins)
#                           beside version 1's, on the same workloads ->
#                           build/bench/qemu-api4.json
#
# Knobs: BENCH_QREC_RUNS (3), BENCH_QREC_CG_RUNS (callgrind, 1),
# BENCH_QREC_SORT_LINES (2000000), BENCH_QREC_GZIP_MB (50),
# BENCH_QREC_PY_ITERS (3000000).  Inputs are made once, in
# build/bench/qemu-record/.

BENCH_QREC_RUNS ?= 3
BENCH_QREC_CG_RUNS ?= 1
BENCH_QREC_SORT_LINES ?= 2000000
BENCH_QREC_GZIP_MB ?= 50
BENCH_QREC_PY_ITERS ?= 3000000

# In the CLI's tree (the sanitizer and coverage runs of check-cli have
# their own), like the plugin.
QREC_PROBE = $(CLI_OUT)/bench/qemu-probe.so

.PHONY: bench-qemu-record bench-qemu-api4

QREC_QEMU4 = $(BUILD)/qemu-api4/qemu-x86_64
QREC_PROBE4 = $(CLI_OUT)/bench/qemu-probe4.so

$(QREC_PROBE): $(TOP)/bench/qemu-probe.c $(QREC_SRC)/qemu_api.h \
		$(TOP)/bench/qemu-rec.mk
	@mkdir -p $(@D)
	gcc $(QREC_CFLAGS) -shared -o $@ $<

# The CLI's checks hold the probe to the rules' counts (test_qemu.c).
check-cli: $(QREC_PROBE)
check-cli: export BLOCKRANGE_QEMU_PROBE := $(QREC_PROBE)

bench-qemu-record: deps $(CLI_BIN) $(QREC_PLUGIN) $(QREC_PROBE)
	python3 $(TOP)/bench/qemu_rec_bench.py --cli $(CLI_BIN) \
		--plugin $(QREC_PLUGIN) --probe $(QREC_PROBE) --out $(BUILD)/bench \
		--runs $(BENCH_QREC_RUNS) --cg-runs $(BENCH_QREC_CG_RUNS) \
		--sort-lines $(BENCH_QREC_SORT_LINES) \
		--gzip-mb $(BENCH_QREC_GZIP_MB) --py-iters $(BENCH_QREC_PY_ITERS) \
		$(if $(filter bench,$(MAKECMDGOALS)),,--print)

$(QREC_QEMU4): $(TOP)/scripts/qemu-api4.py
	rm -f $@
	python3 $< $(@D)

$(QREC_PROBE4): $(TOP)/bench/qemu-probe4.c $(TOP)/bench/qemu-rec.mk
	@mkdir -p $(@D)
	gcc $(QREC_CFLAGS) -shared -o $@ $<

bench-qemu-api4: deps $(QREC_QEMU4) $(QREC_PROBE) $(QREC_PROBE4)
	python3 $(TOP)/bench/qemu_api4_bench.py --qemu4 $(QREC_QEMU4) \
		--probe1 $(QREC_PROBE) --probe4 $(QREC_PROBE4) \
		--out $(BUILD)/bench --runs $(BENCH_QREC_RUNS) \
		--sort-lines $(BENCH_QREC_SORT_LINES) \
		--gzip-mb $(BENCH_QREC_GZIP_MB) --py-iters $(BENCH_QREC_PY_ITERS) \
		$(if $(filter bench,$(MAKECMDGOALS)),,--print)

bench: bench-qemu-record bench-qemu-api4

# Never two benchmarks on the two cores at once.
ifneq ($(filter bench,$(MAKECMDGOALS)),)
bench-qemu-record: | bench-userspace
bench-qemu-api4: | bench-qemu-record
bench-hwmon: | bench-qemu-api4
endif
