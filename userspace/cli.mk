# blockrange CLI: build, tests and demo.  Included by the top-level Makefile
# after userspace/build.mk (uses TOP, BUILD, deps, US_LIB, US_CFLAGS; the
# sanitizer build overrides US_OUT and US_CC like the coverage build).
#
#   make cli        build/bin/blockrange
#   make check-cli  the layers of the sources and the length of their
#                   functions (check-cli-layers), then the
#                   Check suites of the CLI (parser, mapper, formatting, LBR
#                   fixtures, llvm-profgen-19 parity, exactness, the
#                   hostile-input corpus); logs in build/cli/check-{a,b}.tap
#                   and .xml
#   make cli-demo   record the branchy workload and annotate its hot function
#   make fuzz-perfscript
#                   libFuzzer on the perf script reader (FUZZ_SECONDS,
#                   FUZZ_RUNS); stats in build/cli/fuzz/perfscript-stats.txt
#   make check-cli-sanitize
#                   the same runner, CLI, library and bad-input runs built
#                   with ASan + UBSan (LSan on) in build/cli-sanitize/; any
#                   sanitizer report fails it

CLI_SRC := $(TOP)/userspace/cli
CLI_TESTS := $(TOP)/check-tests/cli
CLI_OUT := $(BUILD)/cli
CLI_BIN := $(BUILD)/bin/blockrange
SHARED ?= $(TOP)/../shared
CLI_FIXTURES ?= $(SHARED)/fixtures/lbr
LLVM_PROFGEN ?= llvm-profgen-19

CLI_CC ?= gcc
# The test runner's own objects (as US_TEST_CC in build.mk).
CLI_TEST_CC ?= $(CLI_CC)
# Workloads are never instrumented (the coverage build overrides CLI_CC).
CLI_WL_CC ?= gcc
CLI_CFLAGS := -std=c11 -Wall -Wextra -Werror -O2 -g -pthread \
	-I$(CLI_SRC) -I$(TOP)/userspace -I$(TOP)/userspace/include \
	$$(pkg-config --cflags capstone libelf libdw libdebuginfod libgvc libzstd)
# report.c links Graphviz's dot layout and core (SVG) plugins directly and
# registers them itself (see report.h), so they are found by the runpath.
CLI_GV_PLUGINS = $$(pkg-config --variable=libdir libgvc)/graphviz
CLI_LIBS := -pthread $$(pkg-config --libs capstone libelf libdw libdebuginfod libgvc libzstd) \
	-L$(CLI_GV_PLUGINS) -Wl,-rpath,$(CLI_GV_PLUGINS) \
	-lgvplugin_dot_layout -lgvplugin_core -ldl

CLI_LIB_SRCS := $(filter-out $(CLI_SRC)/builtin/main.c,$(wildcard $(CLI_SRC)/*/*.c))
CLI_LIB_OBJS := $(patsubst $(CLI_SRC)/%.c,$(CLI_OUT)/obj/%.o,$(CLI_LIB_SRCS)) \
	$(CLI_OUT)/obj/gen/manpages.o
# The manual pages of the subcommands: installed as they are, and rendered
# into the binary for `blockrange help NAME` (builtin/manpages.h).
BR_MAN_DIR := $(TOP)/userspace/man
BR_MAN_SUBS := $(sort $(wildcard $(BR_MAN_DIR)/blockrange-*.1))
CLI_LIBA := $(CLI_OUT)/libblockrange-cli.a

# The runner and its helpers at the top of check-tests/cli/, the suites in
# the folder of the layer they test (as userspace/cli/).
CLI_TEST_LAYERS := input resolve collect output record builtin
CLI_TEST_SRCS := $(wildcard $(CLI_TESTS)/*.c) \
	$(foreach d,$(CLI_TEST_LAYERS),$(wildcard $(CLI_TESTS)/$(d)/*.c))
# The plugin's own parts (check-tests/qemu-plugin/), in the same runner.
QP_TESTS := $(TOP)/check-tests/qemu-plugin
QP_TEST_OBJS := $(patsubst $(QP_TESTS)/%.c,$(CLI_OUT)/tests/qemu-plugin/%.o,\
	$(wildcard $(QP_TESTS)/*.c))
# The harnesses join the runner, which replays their corpora (the rules of
# the perf.data, .brprof and DWARF harnesses: perfdata.mk, fuzz.mk).
CLI_FUZZ_SRC := $(FUZZ_TESTS)/fuzz_perfscript.c
CLI_TEST_OBJS := $(patsubst $(CLI_TESTS)/%.c,$(CLI_OUT)/tests/%.o,$(CLI_TEST_SRCS)) \
	$(QP_TEST_OBJS) $(CLI_OUT)/tests/fuzz_perfscript.o \
	$(CLI_OUT)/tests/fuzz_perfdata.o $(CLI_OUT)/tests/fuzz_brprof.o \
	$(CLI_OUT)/tests/fuzz_dwarf.o
CLI_CHECK_BIN := $(CLI_OUT)/check_cli

# Workloads: each built as non-PIE and PIE (gcc -O0 -g, like the seed's).
CLI_WL_NAMES := $(basename $(notdir $(wildcard $(CLI_TESTS)/workloads/*.c)))
CLI_WL := $(foreach w,$(CLI_WL_NAMES),$(CLI_OUT)/wl/$(w)-nopie $(CLI_OUT)/wl/$(w)-pie)

.PHONY: cli check-cli cli-demo check-cli-part-a check-cli-part-b \
	check-cli-layers

cli: $(CLI_BIN)

# -MT: with CCACHE_BASEDIR (exported by the top Makefile) ccache would
# write the target of the .d file relative to the current directory, and
# make would never match it with $@, so header changes would not rebuild.
# Objects also depend on this file, so that changed flags rebuild them.
$(CLI_OUT)/obj/%.o: $(CLI_SRC)/%.c $(TOP)/userspace/cli.mk | deps
	@mkdir -p $(@D)
	$(CLI_CC) $(CLI_CFLAGS) -MMD -MP -MT $@ -c $< -o $@

$(CLI_OUT)/gen/manpages.c: $(BR_MAN_SUBS) $(BR_MAN_DIR)/embed.sh \
		$(BR_MAN_DIR)/render.sh | deps
	@mkdir -p $(@D)
	sh $(BR_MAN_DIR)/embed.sh $(BR_MAN_SUBS) > $@.tmp
	mv $@.tmp $@

$(CLI_OUT)/obj/gen/manpages.o: $(CLI_OUT)/gen/manpages.c $(TOP)/userspace/cli.mk | deps
	@mkdir -p $(@D)
	$(CLI_CC) $(CLI_CFLAGS) -MMD -MP -MT $@ -c $< -o $@

$(CLI_LIBA): $(CLI_LIB_OBJS)
	rm -f $@
	ar rcs $@ $^

$(CLI_BIN): $(CLI_OUT)/obj/builtin/main.o $(CLI_LIBA) $(US_LIB)
	@mkdir -p $(@D)
	$(CLI_CC) -o $@ $^ $(CLI_LIBS)

$(CLI_OUT)/tests/%.o: $(CLI_TESTS)/%.c $(TOP)/userspace/cli.mk | deps
	@mkdir -p $(@D)
	$(CLI_TEST_CC) $(CLI_CFLAGS) -I$(CLI_TESTS) $$(pkg-config --cflags check) \
		-MMD -MP -MT $@ -c $< -o $@

$(CLI_OUT)/tests/qemu-plugin/%.o: $(QP_TESTS)/%.c $(TOP)/userspace/cli.mk | deps
	@mkdir -p $(@D)
	$(CLI_TEST_CC) $(CLI_CFLAGS) -I$(CLI_TESTS) $$(pkg-config --cflags check) \
		-MMD -MP -MT $@ -c $< -o $@

$(CLI_OUT)/tests/fuzz_perfscript.o: $(CLI_FUZZ_SRC) $(TOP)/userspace/cli.mk | deps
	@mkdir -p $(@D)
	$(CLI_CC) $(CLI_CFLAGS) -MMD -MP -MT $@ -c $< -o $@

$(CLI_CHECK_BIN): $(CLI_TEST_OBJS) $(CLI_LIBA) $(US_LIB)
	$(CLI_CC) -o $@ $^ $(CLI_LIBS) $$(pkg-config --libs check) -lm

$(CLI_OUT)/wl/%-nopie: $(CLI_TESTS)/workloads/%.c
	@mkdir -p $(@D)
	$(CLI_WL_CC) -O0 -g -fno-pie -no-pie -o $@ $<

$(CLI_OUT)/wl/%-pie: $(CLI_TESTS)/workloads/%.c
	@mkdir -p $(@D)
	$(CLI_WL_CC) -O0 -g -fpie -pie -o $@ $<

# Test tools (not part of the CLI).
$(CLI_OUT)/tools/%: $(CLI_TESTS)/tools/%.c $(CLI_LIBA) $(US_LIB) \
		$(TOP)/userspace/cli.mk | deps
	@mkdir -p $(@D)
	$(CLI_CC) $(CLI_CFLAGS) -o $@ $< $(CLI_LIBA) $(US_LIB) \
		$(CLI_LIBS)

# The allocation-failure shim of test_oom.c, preloaded into blockrange:
# never instrumented (coverage, sanitizers), it only counts and fails the
# program's own allocations.
$(CLI_OUT)/tools/failalloc.so: $(CLI_TESTS)/tools/failalloc.c \
		$(TOP)/userspace/cli.mk
	@mkdir -p $(@D)
	gcc -std=c11 -Wall -Wextra -Werror -O2 -fPIC -shared -o $@ $< \
		-ldl -pthread

# The full disk of test_options.c, preloaded into blockrange: not
# instrumented either.
$(CLI_OUT)/tools/fullfs.so: $(CLI_TESTS)/tools/fullfs.c \
		$(TOP)/userspace/cli.mk
	@mkdir -p $(@D)
	gcc -std=c11 -Wall -Wextra -Werror -O2 -fPIC -shared -o $@ $< -ldl

# Its symbols exported in .dynsym too, for the .dynsym-only lookup test.
$(CLI_OUT)/wl/sortsearch-rdynamic: $(CLI_TESTS)/workloads/sortsearch.c
	@mkdir -p $(@D)
	$(CLI_WL_CC) -O0 -g -fpie -pie -rdynamic -o $@ $<

# The same program linked at a kernel address: a stand-in vmlinux.
$(CLI_OUT)/wl/golden-vmlinux: $(CLI_TESTS)/golden/golden.S
	@mkdir -p $(@D)
	$(CLI_WL_CC) -nostdlib -static -no-pie -Wl,--build-id=none \
		-Wl,-Ttext=0xffffffff81000000 -o $@ $<

# A fixed-layout static program for the golden files (no compiler codegen).
$(CLI_OUT)/wl/golden: $(CLI_TESTS)/golden/golden.S
	@mkdir -p $(@D)
	$(CLI_WL_CC) -nostdlib -static -no-pie -Wl,--build-id=none \
		-Wl,-Ttext=0x401000 -o $@ $<

# Hostile-input corpus (check-tests/cli/bad-input/): the binaries and 1 MB
# lines of its classes are made here.
CLI_BAD := $(CLI_TESTS)/bad-input
CLI_BADGEN := $(CLI_OUT)/bad-gen

$(CLI_BADGEN)/.stamp: $(CLI_BAD)/make-fixtures.sh $(CLI_OUT)/wl/golden \
		$(CLI_TESTS)/golden/golden.S
	rm -rf $(CLI_BADGEN)
	sh $< $(CLI_BADGEN) $(CLI_OUT)/wl/golden $(CLI_TESTS)/golden/golden.S \
		'$(CLI_WL_CC)'
	touch $@

# No layer of userspace/cli includes a higher one, only builtin/ picks exit
# statuses, resolve/ never prints (userspace/cli/README.md), and no function
# of userspace/ (library, CLI, plugin) or kernel/ is longer than 100 lines;
# a second.
check-cli-layers:
	sh $(CLI_TESTS)/check-layers.sh $(CLI_SRC)
	sh $(CLI_TESTS)/long-functions.sh $(TOP)/userspace 100
	sh $(CLI_TESTS)/long-functions.sh $(TOP)/kernel 100

check-cli: check-cli-layers

# Everything runs inside one Check runner, so its summary is the last line.
# The suites run as two processes side by side, CLI_SUITES_A and all the
# others (together: every suite), with the multi-DSO oracle beside them;
# logs per part: build/cli/check-a.tap / .xml, check-b.tap / .xml.
CLI_SUITES_A ?= perfdata bad-input lookup record qemu-record
CLI_CHECK_JOBS ?= 2

check-cli: deps $(CLI_BIN) $(CLI_CHECK_BIN) $(CLI_WL) $(CLI_OUT)/wl/golden \
		$(CLI_OUT)/wl/sortsearch-rdynamic $(CLI_OUT)/wl/golden-vmlinux \
		$(CLI_BADGEN)/.stamp $(CLI_OUT)/tools/pdreloc \
		$(CLI_OUT)/tools/failalloc.so \
		$(CLI_OUT)/tools/fullfs.so \
		$(CLI_OUT)/wl/multidso-nopie $(CLI_OUT)/wl/multidso-pie
	$(MAKE) --no-print-directory -O -j$(CLI_CHECK_JOBS) \
		check-cli-part-a check-cli-part-b check-cli-dsos-nopie \
		check-cli-dsos-pie

check-cli-part-a: CLI_PART_SEL = BLOCKRANGE_SUITES='$(CLI_SUITES_A)'
check-cli-part-b: CLI_PART_SEL = BLOCKRANGE_SKIP_SUITES='$(CLI_SUITES_A)'
check-cli-part-a check-cli-part-b: check-cli-part-%:
	cd $(CLI_OUT) && CK_FORK=yes $(CLI_PART_SEL) \
		CK_TAP_LOG_FILE_NAME=$(CLI_OUT)/check-$*.tap \
		CK_XML_LOG_FILE_NAME=$(CLI_OUT)/check-$*.xml \
		BLOCKRANGE=$(CLI_BIN) \
		BLOCKRANGE_FIXTURES=$(CLI_FIXTURES) \
		BLOCKRANGE_GOLDEN=$(CLI_TESTS)/golden \
		BLOCKRANGE_WORKLOADS=$(CLI_OUT)/wl \
		BLOCKRANGE_SCRATCH=$(CLI_OUT)/scratch-$* \
		BLOCKRANGE_BADINPUT=$(CLI_BAD) \
		BLOCKRANGE_BADGEN=$(CLI_BADGEN) \
		BLOCKRANGE_FUZZ_CORPUS=$(CLI_FUZZ_CORPUS) \
		BLOCKRANGE_LOOKUP=$(CLI_TESTS) \
		BLOCKRANGE_TESTS=$(CLI_TESTS) \
		BLOCKRANGE_MAN=$(BR_MAN_DIR) \
		BLOCKRANGE_PERFDATA=$(SHARED)/fixtures/perfdata \
		BLOCKRANGE_TOOLS=$(CLI_OUT)/tools \
		LLVM_PROFGEN=$(LLVM_PROFGEN) \
		$(CLI_CHECK_BIN)

# Multi-DSO checks on recordings of the multi-DSO workload (non-PIE and
# PIE): perf 6.1's `perf annotate --stdio` is the oracle of every branch
# comment of every symbol of the executable, libhot.so, libc and ld.so
# (annotate_oracle.py: perf annotates a copy in which the DSO runs at its ELF
# addresses, see tools/pdreloc.c), and full traces give every executed
# instruction of every DSO its single-step count (exact_dso.py).
CLI_DSOS_OUT := $(CLI_OUT)/dsos
CLI_DSOS := multidso-nopie libhot.so libc.so.6 ld-linux-x86-64.so.2

.PHONY: check-cli-dsos check-cli-dsos-nopie check-cli-dsos-pie

check-cli-dsos: check-cli-dsos-nopie check-cli-dsos-pie

check-cli-dsos-nopie check-cli-dsos-pie: check-cli-dsos-%: $(CLI_BIN) \
		$(CLI_OUT)/tools/pdreloc $(CLI_OUT)/wl/multidso-%
	rm -rf $(CLI_DSOS_OUT)/$*
	mkdir -p $(CLI_DSOS_OUT)/$*
	$(CLI_BIN) record --engine=ptrace -o $(CLI_DSOS_OUT)/$*/rec.data --depth 32 \
		--period 7 -- $(REC_WL_OUT)/multidso-$* 300 300 32 \
		> /dev/null 2> $(CLI_DSOS_OUT)/$*/rec.record
	python3 $(CLI_TESTS)/annotate_oracle.py $(CLI_BIN) \
		$(CLI_OUT)/tools/pdreloc $(CLI_DSOS_OUT)/$* \
		$(CLI_DSOS_OUT)/$*/rec.data multidso-$* \
		$(filter-out multidso-nopie,$(CLI_DSOS))
	$(CLI_BIN) record --engine=ptrace -o $(CLI_DSOS_OUT)/$*/full.data --depth 0 \
		--period 1 --counts $(CLI_DSOS_OUT)/$*/full.counts \
		-- $(REC_WL_OUT)/multidso-$* 40 40 16 \
		> /dev/null 2> $(CLI_DSOS_OUT)/$*/full.record
	$(CLI_BIN) annotate -i $(CLI_DSOS_OUT)/$*/full.data \
		--format=json > $(CLI_DSOS_OUT)/$*/full.json \
		2> $(CLI_DSOS_OUT)/$*/full.err
	python3 $(CLI_TESTS)/exact_dso.py $(CLI_DSOS_OUT)/$*/full.json \
		$(CLI_DSOS_OUT)/$*/full.counts multidso-$* libhot.so \
		libc.so.6

cli-demo: $(CLI_BIN) $(CLI_OUT)/wl/branches-pie
	$(CLI_BIN) record --engine=ptrace --format=perfscript -o $(CLI_OUT)/demo.perfscript \
		--depth 32 --period 7 \
		-- $(CLI_OUT)/wl/branches-pie 1000
	$(CLI_BIN) annotate --perfscript $(CLI_OUT)/demo.perfscript \
		--binary $(CLI_OUT)/wl/branches-pie --symbol branches --color=always \
		--no-pager

# libFuzzer on the perf script reader: check-tests/fuzz/fuzz_perfscript.c and
# input/perfscript.c, clang with ASan + UBSan.  FUZZ_SECONDS (default 60)
# and/or FUZZ_RUNS (-runs=N; alone it sets no time limit).  Runs on a corpus in
# build/cli/fuzz/ seeded from the committed one (new inputs stay in build/
# and carry over to the next run) and the bad-input files; a crash leaves
# its input in artifacts/ and fails the target.  Final statistics in
# build/cli/fuzz/perfscript-stats.txt, the whole log in perfscript.log.
CLI_FUZZ_OUT := $(CLI_OUT)/fuzz
CLI_FUZZ_BIN := $(CLI_FUZZ_OUT)/fuzz_perfscript
CLI_FUZZ_CORPUS := $(FUZZ_TESTS)/perfscript-corpus
CLI_FUZZ_DICT := $(FUZZ_TESTS)/perfscript.dict
# The reader gets libFuzzer's coverage (with comparison tracing: its input
# is text with keywords); the harness and its model only the sanitizers,
# as the library's oracle: their branches are no feature of the reader,
# and tracing their comparisons only costs time.
CLI_FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all
CLI_FUZZ_CFLAGS := -std=c11 -Wall -Wextra -Werror -g -O1 -I$(CLI_SRC) \
	-I$(TOP)/userspace -I$(TOP)/userspace/include $(CLI_FUZZ_SAN)
CLI_FUZZ_MAX_LEN := 4096
CLI_FUZZ_SECONDS = $(if $(FUZZ_RUNS),$(if $(filter-out undefined file,\
	$(origin FUZZ_SECONDS)),$(FUZZ_SECONDS),0),$(or $(FUZZ_SECONDS),60))
CLI_FUZZ_LIMITS = -max_total_time=$(CLI_FUZZ_SECONDS) \
	$(if $(FUZZ_RUNS),-runs=$(FUZZ_RUNS))
# ASan's quarantine of freed memory: 16 MiB instead of 256, for every
# harness (fuzz-blockrange and fuzz-long too).  An execution frees well
# under 1 MiB (the perf script reader: three 64 KiB line buffers and small
# pieces), so a use after free within an execution, or dozens after, is
# still caught; the default made every such buffer come from cold memory
# (a one-byte input of fuzz-perfscript: 32 us of CPU, 18 us with 16 MiB).
FUZZ_ASAN_OPTIONS := quarantine_size_mb=16

.PHONY: fuzz-perfscript

$(CLI_FUZZ_OUT)/obj/%.o: $(FUZZ_TESTS)/%.c $(TOP)/userspace/cli.mk
	@mkdir -p $(@D)
	clang $(CLI_FUZZ_CFLAGS) -MMD -MP -MT $@ -c $< -o $@

$(CLI_FUZZ_BIN): $(CLI_FUZZ_OUT)/obj/fuzz_perfscript.o \
		$(CLI_FUZZ_OUT)/obj/input/perfscript.o
	clang $(CLI_FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $^

fuzz-perfscript: $(CLI_FUZZ_BIN)
	mkdir -p $(CLI_FUZZ_OUT)/corpus $(CLI_FUZZ_OUT)/artifacts
	cp $(CLI_FUZZ_CORPUS)/* $(CLI_FUZZ_OUT)/corpus/
	for f in $(CLI_BAD)/*.perfscript; do \
		cp "$$f" $(CLI_FUZZ_OUT)/corpus/bad-input-$${f##*/}; done
	cd $(CLI_FUZZ_OUT) && ASAN_OPTIONS=$(FUZZ_ASAN_OPTIONS) \
		$(CLI_FUZZ_BIN) $(CLI_FUZZ_LIMITS) \
		-max_len=$(CLI_FUZZ_MAX_LEN) -dict=$(CLI_FUZZ_DICT) \
		-print_final_stats=1 -artifact_prefix=$(CLI_FUZZ_OUT)/artifacts/ \
		corpus 2>&1 | tee $(CLI_FUZZ_OUT)/perfscript.log | \
		{ grep --line-buffered -Ev '^#[0-9]+[[:space:]]+(NEW|REDUCE) ' \
		  || true; }
	grep -E '^(Done |stat::)' $(CLI_FUZZ_OUT)/perfscript.log \
		> $(CLI_FUZZ_OUT)/perfscript-stats.txt

# Sanitizers: check-cli again in a separate tree (the coverage build's
# pattern), with the library rebuilt there too.  Every report aborts the
# process that hit it (-fno-sanitize-recover, exit status 86, so no expected
# status can mask it) and is also written under reports/, which must stay
# empty: a report in a subprocess whose status a test ignores still fails.
CLI_SAN_OUT := $(BUILD)/cli-sanitize
CLI_SAN_CC := gcc -fsanitize=address,undefined -fno-sanitize-recover=all \
	-fno-omit-frame-pointer
CLI_SAN_REPORTS := $(CLI_SAN_OUT)/reports
# Graphviz's own leaks (report) are suppressed, see the file.
CLI_SAN_ENV := \
	ASAN_OPTIONS=detect_leaks=1:exitcode=86:log_path=$(CLI_SAN_REPORTS)/asan:log_exe_name=1 \
	LSAN_OPTIONS=suppressions=$(CLI_TESTS)/lsan-graphviz.supp:print_suppressions=0 \
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:exitcode=86:log_path=$(CLI_SAN_REPORTS)/ubsan:log_exe_name=1 \
	CK_TIMEOUT_MULTIPLIER=10

.PHONY: check-cli-sanitize

check-cli-sanitize: deps
	rm -rf $(CLI_SAN_REPORTS)
	mkdir -p $(CLI_SAN_REPORTS)
	$(CLI_SAN_ENV) $(MAKE) --no-print-directory check-cli \
		US_OUT=$(CLI_SAN_OUT)/userspace US_CC='$(CLI_SAN_CC)' \
		CLI_OUT=$(CLI_SAN_OUT)/cli CLI_CC='$(CLI_SAN_CC)' \
		CLI_BIN=$(CLI_SAN_OUT)/bin/blockrange
	@if [ -n "$$(ls -A $(CLI_SAN_REPORTS))" ]; then \
		echo "sanitizer reports in $(CLI_SAN_REPORTS):"; \
		head -n 40 $(CLI_SAN_REPORTS)/*; exit 1; fi
	@echo "check-cli-sanitize: no sanitizer reports"

include $(TOP)/userspace/record.mk
include $(TOP)/userspace/qemu-rec.mk
include $(TOP)/userspace/perfdata.mk
include $(TOP)/userspace/fuzz.mk

-include $(wildcard $(CLI_OUT)/obj/*/*.d $(CLI_OUT)/tests/*.d $(CLI_OUT)/tests/*/*.d \
	$(CLI_FUZZ_OUT)/obj/*.d $(CLI_FUZZ_OUT)/obj/*/*.d)
