# libblockrange: library, demo, Check suites and libFuzzer harness.
# Included by the top-level Makefile, which defines TOP, BUILD and `deps`.
#
#   make userspace        build/userspace/libblockrange.a
#   make check-userspace  all Check suites (fork mode) + corpus replay;
#                         logs: build/userspace/check.tap, check.xml
#   make fuzz             libFuzzer (clang, ASan + UBSan) for FUZZ_SECONDS
#   make userspace-demo   a short demonstration
#   make check-userspace-valgrind  the same suites under valgrind (no fork,
#                         full leak check; several minutes)

US_SRC := $(TOP)/userspace
US_TESTS := $(TOP)/check-tests
US_OUT := $(BUILD)/userspace

US_CC ?= gcc
US_CFLAGS := -std=c11 -Wall -Wextra -Werror -O2 -g -I$(US_SRC)/include
US_DEPFLAGS = -MMD -MP

US_LIB_SRCS := $(wildcard $(US_SRC)/lib/*.c)
US_LIB_OBJS := $(patsubst $(US_SRC)/lib/%.c,$(US_OUT)/lib/%.o,$(US_LIB_SRCS))
US_LIB := $(US_OUT)/libblockrange.a

# Check runner: every suite plus the fuzz harness (for the corpus replay).
US_TEST_SRCS := $(filter-out $(US_TESTS)/fuzz_replay_main.c, \
		  $(wildcard $(US_TESTS)/*.c))
US_TEST_OBJS := $(patsubst $(US_TESTS)/%.c,$(US_OUT)/tests/%.o,$(US_TEST_SRCS))
US_CHECK_BIN := $(US_OUT)/check_blockrange
US_CORPUS := $(US_TESTS)/corpus

US_FUZZ_OUT := $(US_OUT)/fuzz
US_FUZZ_BIN := $(US_FUZZ_OUT)/fuzz_blockrange
US_FUZZ_SRCS := $(US_TESTS)/fuzz_blockrange.c $(US_TESTS)/model.c $(US_LIB_SRCS)
US_FUZZ_CFLAGS := -std=c11 -Wall -Wextra -Werror -g -O1 -I$(US_SRC)/include \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
FUZZ_SECONDS ?= 60

US_DEMO_BIN := $(US_OUT)/blockrange-demo

.PHONY: userspace check-userspace check-userspace-valgrind userspace-demo fuzz

userspace: $(US_LIB)

$(US_OUT)/lib/%.o: $(US_SRC)/lib/%.c
	@mkdir -p $(@D)
	$(US_CC) $(US_CFLAGS) $(US_DEPFLAGS) -c $< -o $@

$(US_LIB): $(US_LIB_OBJS)
	@mkdir -p $(@D)
	rm -f $@
	ar rcs $@ $^

# Test sources need POSIX (dirent, setenv) on top of C11.
$(US_OUT)/tests/%.o: $(US_TESTS)/%.c
	@mkdir -p $(@D)
	$(US_CC) $(US_CFLAGS) -D_POSIX_C_SOURCE=200809L \
		$$(pkg-config --cflags check) $(US_DEPFLAGS) -c $< -o $@

$(US_CHECK_BIN): $(US_TEST_OBJS) $(US_LIB)
	$(US_CC) -o $@ $(US_TEST_OBJS) $(US_LIB) $$(pkg-config --libs check) -lm

# The test objects need Check, which `deps` installs.
$(US_TEST_OBJS): | deps

# Fork mode, TAP and XML logs; Check prints the summary line last.
check-userspace: deps $(US_CHECK_BIN) $(US_OUT)/fuzz_replay
	cd $(US_OUT) && CK_FORK=yes \
		CK_TAP_LOG_FILE_NAME=$(US_OUT)/check.tap \
		CK_XML_LOG_FILE_NAME=$(US_OUT)/check.xml \
		BLOCKRANGE_CORPUS=$(US_CORPUS) \
		$(US_CHECK_BIN)

# One process, so valgrind's leak check covers every test; generous
# timeouts because valgrind is ~20x slower.
check-userspace-valgrind: deps $(US_CHECK_BIN)
	cd $(US_OUT) && CK_FORK=no CK_TIMEOUT_MULTIPLIER=100 \
		BLOCKRANGE_CORPUS=$(US_CORPUS) \
		valgrind --leak-check=full --show-leak-kinds=all \
		--errors-for-leak-kinds=all --error-exitcode=99 \
		$(US_CHECK_BIN)

# Standalone replay of corpus files or crash artifacts (gcc, no libFuzzer).
$(US_OUT)/fuzz_replay: $(US_OUT)/tests/fuzz_blockrange.o \
		$(US_OUT)/tests/model.o $(US_OUT)/tests/fuzz_replay_main.o $(US_LIB)
	$(US_CC) -o $@ $^ -lm

$(US_FUZZ_BIN): $(US_FUZZ_SRCS) $(wildcard $(US_SRC)/include/blockrange/*.h) \
		$(US_TESTS)/model.h
	@mkdir -p $(@D)
	clang $(US_FUZZ_CFLAGS) -o $@ $(US_FUZZ_SRCS) -lm

# Runs on a copy of the committed corpus, so new inputs stay in build/.
fuzz: $(US_FUZZ_BIN)
	rm -rf $(US_FUZZ_OUT)/corpus
	mkdir -p $(US_FUZZ_OUT)/corpus $(US_FUZZ_OUT)/artifacts
	cp $(US_CORPUS)/* $(US_FUZZ_OUT)/corpus/
	cd $(US_FUZZ_OUT) && $(US_FUZZ_BIN) -max_total_time=$(FUZZ_SECONDS) \
		-max_len=1024 -print_final_stats=1 \
		-artifact_prefix=$(US_FUZZ_OUT)/artifacts/ corpus

$(US_DEMO_BIN): $(US_SRC)/demo/blockrange-demo.c $(US_LIB)
	@mkdir -p $(@D)
	$(US_CC) $(US_CFLAGS) $(US_DEPFLAGS) -o $@ $< $(US_LIB)

userspace-demo: $(US_DEMO_BIN)
	$(US_DEMO_BIN)

-include $(wildcard $(US_OUT)/lib/*.d $(US_OUT)/tests/*.d $(US_OUT)/*.d)
