# libblockrange: library, demo, Check suites and libFuzzer harness.
# Included by the top-level Makefile, which defines TOP, BUILD and `deps`.
#
#   make userspace        build/userspace/libblockrange.a (the installed
#                         archive: public names only) and
#                         libblockrange-internal.a (every name: the suites,
#                         the CLI and the benchmarks link it)
#   make check-userspace  all Check suites (fork mode) + corpus replay;
#                         logs: build/userspace/check.tap, check.xml
#   make check-userspace-arm64  the same, built for aarch64 and run under
#                         qemu-aarch64 (build/arm64/userspace/)
#   make check-userspace-sanitize  the same, library, suites and replay
#                         runner built with clang ASan + UBSan (LSan on) in
#                         build/userspace/sanitize/; any report fails it
#   make fuzz-blockrange  libFuzzer (clang, ASan + UBSan) for FUZZ_SECONDS
#                         (default 60), or FUZZ_RUNS executions (then no time
#                         limit unless FUZZ_SECONDS is given too); final
#                         stats in build/userspace/fuzz/blockrange-stats.txt
#   make userspace-demo   a short demonstration
#   make check-userspace-valgrind  the same suites under valgrind (no fork,
#                         full leak check; several minutes)

US_SRC := $(TOP)/userspace

# The version of libblockrange's ABI (the shared library's file name is
# libblockrange.so.$(BR_LIB_VERSION), its SONAME libblockrange.so.$(major);
# blockrange.pc carries it).  The major changes with every incompatible
# change of the exported symbols (CHANGELOG.md).
BR_LIB_VERSION := 3.0.0
BR_LIB_SOMAJOR := $(firstword $(subst ., ,$(BR_LIB_VERSION)))
US_TESTS := $(TOP)/check-tests/lib
# The fuzz harnesses and their corpora (check-tests/fuzz/).
FUZZ_TESTS := $(TOP)/check-tests/fuzz
US_OUT := $(BUILD)/userspace

US_CC ?= gcc
# The compiler of the test programs' own objects. The coverage build gives
# them no counters (their coverage is not measured, and counters in the
# oracles' loops made the library's suites five times slower).
US_TEST_CC ?= $(US_CC)
# -I$(US_SRC): the library's private headers shared with the CLI
# ("common/hash.h").
US_CFLAGS := -std=c11 -Wall -Wextra -Werror -O2 -g -I$(US_SRC)/include \
	-I$(US_SRC)
# -MT: ccache (CCACHE_BASEDIR=build/) rewrites the absolute object path to
# a relative one, which would name the wrong target in the .d file, and a
# changed header would then rebuild nothing.
US_DEPFLAGS = -MMD -MP -MT $@

US_LIB_SRCS := $(wildcard $(US_SRC)/lib/*.c)
US_LIB_OBJS := $(patsubst $(US_SRC)/lib/%.c,$(US_OUT)/lib/%.o,$(US_LIB_SRCS))
US_LIB := $(US_OUT)/libblockrange-internal.a
US_PUB_LIB := $(US_OUT)/libblockrange.a
US_PUB_SYMS := $(US_OUT)/public.syms

# Check runner: every suite plus the library's fuzz harness (for the
# corpus replay); the CLI's harnesses belong to its runner (userspace/cli.mk).
US_TEST_SRCS := $(wildcard $(US_TESTS)/*.c)
US_TEST_OBJS := $(patsubst $(US_TESTS)/%.c,$(US_OUT)/tests/%.o,$(US_TEST_SRCS)) \
	$(US_OUT)/tests/fuzz_blockrange.o
US_CHECK_BIN := $(US_OUT)/check_blockrange
US_CORPUS := $(FUZZ_TESTS)/blockrange-corpus
# Recorded branch stacks (perf script) for the batch-vs-tree tests.
US_LBR_FIXTURES ?= $(abspath $(TOP)/../shared/fixtures/lbr)

# The harness and the library get libFuzzer's coverage instrumentation;
# the oracle (model.c, treecheck.c) only the sanitizers: its comparisons
# would only slow the fuzzer down and add noise to its feedback.
US_FUZZ_OUT := $(US_OUT)/fuzz
US_FUZZ_BIN := $(US_FUZZ_OUT)/fuzz_blockrange
US_FUZZ_INSTR_SRCS := $(FUZZ_TESTS)/fuzz_blockrange.c $(US_LIB_SRCS)
US_FUZZ_ORACLE_SRCS := $(US_TESTS)/model.c $(US_TESTS)/treecheck.c
US_FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all
US_FUZZ_CFLAGS := -std=c11 -Wall -Wextra -Werror -g -O1 -I$(US_SRC)/include \
	-I$(US_SRC) $(US_FUZZ_SAN)
# Edge counters only, no comparison tracing: the input format has no magic
# values for it to find (every byte is taken modulo a small range), and the
# oracle's many find() calls would pay for a trace call per comparison.
US_FUZZ_COV := -fsanitize=fuzzer-no-link -fno-sanitize-coverage=trace-cmp
US_FUZZ_OBJS := \
	$(patsubst %.c,$(US_FUZZ_OUT)/obj/%.o,$(notdir $(US_FUZZ_INSTR_SRCS))) \
	$(patsubst %.c,$(US_FUZZ_OUT)/oracle/%.o,$(notdir $(US_FUZZ_ORACLE_SRCS)))
# Inputs above 256 bytes only make longer runs of the same 64-cell state
# machine (see fuzz_blockrange.c): keep executions short and many.
US_FUZZ_MAX_LEN := 256
# FUZZ_RUNS alone: no time limit; FUZZ_SECONDS from the command line or the
# environment always applies.
US_FUZZ_SECONDS = $(if $(FUZZ_RUNS),$(if $(filter-out undefined file,\
	$(origin FUZZ_SECONDS)),$(FUZZ_SECONDS),0),$(or $(FUZZ_SECONDS),60))
US_FUZZ_LIMITS = -max_total_time=$(US_FUZZ_SECONDS) \
	$(if $(FUZZ_RUNS),-runs=$(FUZZ_RUNS))

# Sanitizers: check-userspace again in its own tree with clang.  Every
# report aborts the process that hit it and is also written under
# reports/, which must stay empty (so a report in a forked test, or at the
# exit of the runner after its summary, still fails the target).
US_SAN_OUT := $(BUILD)/userspace/sanitize
US_SAN_CC := clang -fsanitize=address,undefined,float-divide-by-zero \
	-fno-sanitize-recover=all -fno-omit-frame-pointer
US_SAN_REPORTS := $(US_SAN_OUT)/reports
US_SAN_ENV := \
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:halt_on_error=1:detect_stack_use_after_return=1:strict_string_checks=1:log_path=$(US_SAN_REPORTS)/asan:log_exe_name=1 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:abort_on_error=1:log_path=$(US_SAN_REPORTS)/ubsan:log_exe_name=1 \
	CK_TIMEOUT_MULTIPLIER=10

US_DEMO_BIN := $(US_OUT)/blockrange-demo

.PHONY: userspace check-userspace check-userspace-valgrind \
	check-userspace-sanitize check-userspace-arm64 userspace-demo fuzz-blockrange

userspace: $(US_LIB) $(US_PUB_LIB)

$(US_OUT)/lib/%.o: $(US_SRC)/lib/%.c
	@mkdir -p $(@D)
	$(US_CC) $(US_CFLAGS) $(US_DEPFLAGS) -c $< -o $@

$(US_LIB): $(US_LIB_OBJS)
	@mkdir -p $(@D)
	rm -f $@
	ar rcs $@ $^

# The installed archive: the library's objects linked into one relocatable
# object in which only the version script's names stay global, so that a
# program linking it statically sees the same API as the shared library's
# and can define any other name itself (check-symbols.sh checks both).
$(US_PUB_SYMS): $(US_SRC)/libblockrange.map
	@mkdir -p $(@D)
	sed -n '/global:/,/local:/s/^[[:space:]]*\(blockrange_[A-Za-z0-9_]*\);.*/\1/p' \
		$< > $@.tmp
	test -s $@.tmp
	mv $@.tmp $@

$(US_PUB_LIB): $(US_LIB_OBJS) $(US_PUB_SYMS)
	ld -r -o $(US_OUT)/libblockrange-all.o $(US_LIB_OBJS)
	objcopy --keep-global-symbols=$(US_PUB_SYMS) \
		$(US_OUT)/libblockrange-all.o $(US_OUT)/libblockrange.o
	rm -f $@
	ar rcs $@ $(US_OUT)/libblockrange.o

# Test sources need POSIX (dirent, setenv) on top of C11.
$(US_OUT)/tests/%.o: $(US_TESTS)/%.c
	@mkdir -p $(@D)
	$(US_TEST_CC) $(US_CFLAGS) -D_POSIX_C_SOURCE=200809L \
		$$(pkg-config --cflags check) $(US_DEPFLAGS) -c $< -o $@

# The harness and its replay runner (the oracle's headers are the suites').
$(US_OUT)/tests/%.o: $(FUZZ_TESTS)/%.c
	@mkdir -p $(@D)
	$(US_TEST_CC) $(US_CFLAGS) -I$(US_TESTS) -D_POSIX_C_SOURCE=200809L \
		$(US_DEPFLAGS) -c $< -o $@

$(US_CHECK_BIN): $(US_TEST_OBJS) $(US_LIB)
	$(US_CC) -o $@ $(US_TEST_OBJS) $(US_LIB) $$(pkg-config --libs check) -lm

# The test objects need Check, which `deps` installs.
$(US_TEST_OBJS): | deps

# Fork mode, TAP and XML logs; Check prints the summary line last.  The
# standalone replay runner goes over the corpus first (the Check suite
# fuzz-corpus replays it again, one test per file).
# US_RUN runs the test programs (check-userspace-arm64: qemu-aarch64).
US_RUN ?=
check-userspace: deps $(US_CHECK_BIN) $(US_OUT)/fuzz_replay
	$(US_RUN) $(US_OUT)/fuzz_replay $(US_CORPUS)/* >/dev/null
	cd $(US_OUT) && CK_FORK=yes \
		CK_TAP_LOG_FILE_NAME=$(US_OUT)/check.tap \
		CK_XML_LOG_FILE_NAME=$(US_OUT)/check.xml \
		BLOCKRANGE_CORPUS=$(US_CORPUS) \
		BLOCKRANGE_LBR_FIXTURES=$(US_LBR_FIXTURES) \
		$(US_RUN) $(US_CHECK_BIN)

# The library and its suites built for aarch64 (gcc-aarch64-linux-gnu and
# the arm64 multiarch -dev packages: Check) and run under qemu-aarch64 on
# this x86-64 host, as on an ARM64 machine; Check's time limits are longer
# since every instruction is emulated.
US_ARM64_OUT := $(BUILD)/arm64/userspace
check-userspace-arm64: deps
	PKG_CONFIG_LIBDIR=/usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig \
	CK_TIMEOUT_MULTIPLIER=$(or $(CK_TIMEOUT_MULTIPLIER),20) \
	$(MAKE) --no-print-directory check-userspace US_OUT=$(US_ARM64_OUT) \
		US_CC=aarch64-linux-gnu-gcc US_RUN=qemu-aarch64

# The reports are shown whether or not the run failed.
check-userspace-sanitize: deps
	rm -rf $(US_SAN_REPORTS)
	mkdir -p $(US_SAN_REPORTS)
	status=0; $(US_SAN_ENV) $(MAKE) --no-print-directory check-userspace \
		US_OUT=$(US_SAN_OUT) US_CC='$(US_SAN_CC)' || status=$$?; \
	if [ -n "$$(ls -A $(US_SAN_REPORTS))" ]; then \
		echo "sanitizer reports in $(US_SAN_REPORTS):"; \
		head -n 40 $(US_SAN_REPORTS)/* | head -n 200; exit 1; fi; \
	exit $$status
	@echo "check-userspace-sanitize: no sanitizer reports"

# One process, so valgrind's leak check covers every test; generous
# timeouts because valgrind is ~20x slower.
check-userspace-valgrind: deps $(US_CHECK_BIN)
	cd $(US_OUT) && CK_FORK=no CK_TIMEOUT_MULTIPLIER=100 \
		BLOCKRANGE_CORPUS=$(US_CORPUS) \
		BLOCKRANGE_LBR_FIXTURES=$(US_LBR_FIXTURES) \
		valgrind --leak-check=full --show-leak-kinds=all \
		--errors-for-leak-kinds=all --error-exitcode=99 \
		$(US_CHECK_BIN)

# Standalone replay of corpus files or crash artifacts (no libFuzzer).
$(US_OUT)/fuzz_replay: $(US_OUT)/tests/fuzz_blockrange.o \
		$(US_OUT)/tests/model.o $(US_OUT)/tests/treecheck.o \
		$(US_OUT)/tests/fuzz_replay_main.o $(US_LIB)
	$(US_CC) -o $@ $^ -lm

$(US_FUZZ_OUT)/obj/%.o: $(FUZZ_TESTS)/%.c
	@mkdir -p $(@D)
	clang $(US_FUZZ_CFLAGS) -I$(US_TESTS) $(US_FUZZ_COV) $(US_DEPFLAGS) \
		-c $< -o $@

$(US_FUZZ_OUT)/obj/%.o: $(US_SRC)/lib/%.c
	@mkdir -p $(@D)
	clang $(US_FUZZ_CFLAGS) $(US_FUZZ_COV) $(US_DEPFLAGS) \
		-c $< -o $@

$(US_FUZZ_OUT)/oracle/%.o: $(US_TESTS)/%.c
	@mkdir -p $(@D)
	clang $(US_FUZZ_CFLAGS) $(US_DEPFLAGS) -c $< -o $@

$(US_FUZZ_BIN): $(US_FUZZ_OBJS)
	clang $(US_FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $^ -lm

# Runs on a corpus in build/ seeded from the committed one (new inputs stay
# in build/ and carry over to the next run), with the CLI's harnesses' ASan
# options (FUZZ_ASAN_OPTIONS, userspace/cli.mk); a crash leaves its input in
# artifacts/ and fails the target.  The final statistics go to
# blockrange-stats.txt; NEW/REDUCE lines are left out of the terminal
# output (they stay in blockrange.log).
fuzz-blockrange: $(US_FUZZ_BIN)
	mkdir -p $(US_FUZZ_OUT)/corpus $(US_FUZZ_OUT)/artifacts
	cp $(US_CORPUS)/* $(US_FUZZ_OUT)/corpus/
	cd $(US_FUZZ_OUT) && ASAN_OPTIONS=$(FUZZ_ASAN_OPTIONS) \
		$(US_FUZZ_BIN) $(US_FUZZ_LIMITS) \
		-max_len=$(US_FUZZ_MAX_LEN) -print_final_stats=1 \
		-artifact_prefix=$(US_FUZZ_OUT)/artifacts/ corpus 2>&1 | \
		tee $(US_FUZZ_OUT)/blockrange.log | \
		{ grep --line-buffered -Ev '^#[0-9]+[[:space:]]+(NEW|REDUCE) ' \
		  || true; }
	grep -E '^(Done |stat::)' $(US_FUZZ_OUT)/blockrange.log \
		> $(US_FUZZ_OUT)/blockrange-stats.txt

$(US_DEMO_BIN): $(US_SRC)/demo/blockrange-demo.c $(US_PUB_LIB)
	@mkdir -p $(@D)
	$(US_CC) $(US_CFLAGS) $(US_DEPFLAGS) -o $@ $< $(US_PUB_LIB)

userspace-demo: $(US_DEMO_BIN)
	$(US_DEMO_BIN)

-include $(wildcard $(US_OUT)/lib/*.d $(US_OUT)/tests/*.d $(US_OUT)/*.d \
	$(US_FUZZ_OUT)/obj/*.d $(US_FUZZ_OUT)/oracle/*.d)
