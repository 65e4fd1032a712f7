# Sample profiles: their bench and the profile-guided loop on a real program.
# Included by bench/bench.mk (uses TOP, BUILD, CLI_BIN, BENCH_OUT,
# BENCH_MD_BIG, BENCH_MD_WL, BENCH_LLVM_PROFGEN).
#
#   make bench-autofdo  `blockrange autofdo` against llvm-profgen-19
#                       --perfdata on the same >= 200 MiB perf.data (the
#                       multi-DSO recording of the CLI-at-scale bench, its
#                       executable's profile): CPU and peak RSS ratios, equal
#                       profiles -> build/bench/autofdo.json (part of
#                       `make bench`, after bench-userspace)
#   make pgo-demo       the whole loop on a binutils program (Debian's
#                       binutils-source; readelf -wi by default, objdump -d
#                       with PGO_PROGRAM=objdump): build, record a training run,
#                       rebuild with our sample profile and with
#                       llvm-profgen's of the same recording, BOLT with our
#                       .fdata and with perf2bolt's, time each natively on
#                       another input -> speed-ups on stdout and in
#                       build/pgo/PROGRAM/pgo.json.  Minutes; not in CI.
#
# Knobs: BENCH_AUTOFDO_RUNS (3); PGO_RUNS (timed runs of each build, 7),
# PGO_RECORD (the recording command, given -o FILE -- CMD; default
# `blockrange record --engine=qemu --depth 32 --period 10007 --jitter 2000`
# when the CLI has the QEMU engine, else the ptrace recorder `blockrange
# record --depth 32 --period 7`), PGO_PROGRAM (readelf or objdump),
# PGO_TRAIN_COPIES (2 for objdump, 12 for readelf), PGO_OUT.

BENCH_AUTOFDO_RUNS ?= 3

.PHONY: bench-autofdo pgo-demo

bench: bench-autofdo

ifneq ($(filter bench,$(MAKECMDGOALS)),)
# The parts never share the two cores.
bench-autofdo: | bench-userspace
bench-hwmon: | bench-autofdo
endif

bench-autofdo: $(CLI_BIN) $(BENCH_MD_BIG) $(BENCH_MD_WL)
	@command -v $(BENCH_LLVM_PROFGEN) >/dev/null || \
		{ echo "bench: $(BENCH_LLVM_PROFGEN) not found (make deps)" >&2; exit 1; }
	python3 $(TOP)/bench/autofdo.py --cli $(CLI_BIN) \
		--llvm-profgen $(BENCH_LLVM_PROFGEN) --input $(BENCH_MD_BIG) \
		--binary $(BENCH_MD_WL) --out $(BENCH_OUT) \
		--runs $(BENCH_AUTOFDO_RUNS)

PGO_OUT ?= $(BUILD)/pgo
PGO_RUNS ?= 7
PGO_RECORD ?=
PGO_PROGRAM ?= readelf

pgo-demo: $(CLI_BIN) | deps
	BLOCKRANGE=$(CLI_BIN) PGO_RECORD='$(PGO_RECORD)' PGO_RUNS=$(PGO_RUNS) \
		PGO_PROGRAM=$(PGO_PROGRAM) \
		LLVM_PROFGEN=$(BENCH_LLVM_PROFGEN) \
		bash $(TOP)/bench/pgo-demo.sh $(PGO_OUT)
