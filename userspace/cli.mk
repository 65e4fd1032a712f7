# blockrange CLI: build, tests and demo.  Included by the top-level Makefile
# after userspace/build.mk (uses TOP, BUILD, deps, US_LIB, US_CFLAGS).
#
#   make cli        build/bin/blockrange
#   make check-cli  Check suites of the CLI (parser, mapper, formatting, LBR
#                   fixtures, llvm-profgen-19 parity, exactness); logs in
#                   build/cli/check.tap and check.xml
#   make cli-demo   record the branchy workload and annotate its hot function

CLI_SRC := $(TOP)/userspace/cli
CLI_TESTS := $(TOP)/check-tests/cli
CLI_OUT := $(BUILD)/cli
CLI_BIN := $(BUILD)/bin/blockrange
SHARED ?= $(TOP)/../shared
CLI_FIXTURES ?= $(SHARED)/fixtures/lbr
LLVM_PROFGEN ?= llvm-profgen-19

CLI_CC ?= gcc
# Workloads are never instrumented (the coverage build overrides CLI_CC).
CLI_WL_CC ?= gcc
CLI_CFLAGS := -std=c11 -Wall -Wextra -Werror -O2 -g \
	-I$(TOP)/userspace/include $$(pkg-config --cflags capstone libelf)
CLI_LIBS := $$(pkg-config --libs capstone libelf)

CLI_LIB_SRCS := $(filter-out $(CLI_SRC)/main.c,$(wildcard $(CLI_SRC)/*.c))
CLI_LIB_OBJS := $(patsubst $(CLI_SRC)/%.c,$(CLI_OUT)/obj/%.o,$(CLI_LIB_SRCS))
CLI_LIBA := $(CLI_OUT)/libblockrange-cli.a

CLI_TEST_SRCS := $(wildcard $(CLI_TESTS)/*.c)
CLI_TEST_OBJS := $(patsubst $(CLI_TESTS)/%.c,$(CLI_OUT)/tests/%.o,$(CLI_TEST_SRCS))
CLI_CHECK_BIN := $(CLI_OUT)/check_cli

# Workloads: each built as non-PIE and PIE (gcc -O0 -g, like the seed's).
CLI_WL_NAMES := $(basename $(notdir $(wildcard $(CLI_TESTS)/workloads/*.c)))
CLI_WL := $(foreach w,$(CLI_WL_NAMES),$(CLI_OUT)/wl/$(w)-nopie $(CLI_OUT)/wl/$(w)-pie)

.PHONY: cli check-cli cli-demo

cli: $(CLI_BIN)

$(CLI_OUT)/obj/%.o: $(CLI_SRC)/%.c | deps
	@mkdir -p $(@D)
	$(CLI_CC) $(CLI_CFLAGS) -MMD -MP -c $< -o $@

$(CLI_LIBA): $(CLI_LIB_OBJS)
	rm -f $@
	ar rcs $@ $^

$(CLI_BIN): $(CLI_OUT)/obj/main.o $(CLI_LIBA) $(US_LIB)
	@mkdir -p $(@D)
	$(CLI_CC) -o $@ $^ $(CLI_LIBS)

$(CLI_OUT)/tests/%.o: $(CLI_TESTS)/%.c | deps
	@mkdir -p $(@D)
	$(CLI_CC) $(CLI_CFLAGS) -I$(CLI_SRC) $$(pkg-config --cflags check) \
		-MMD -MP -c $< -o $@

$(CLI_CHECK_BIN): $(CLI_TEST_OBJS) $(CLI_LIBA) $(US_LIB)
	$(CLI_CC) -o $@ $^ $(CLI_LIBS) $$(pkg-config --libs check) -lm

$(CLI_OUT)/wl/%-nopie: $(CLI_TESTS)/workloads/%.c
	@mkdir -p $(@D)
	$(CLI_WL_CC) -O0 -g -fno-pie -no-pie -o $@ $<

$(CLI_OUT)/wl/%-pie: $(CLI_TESTS)/workloads/%.c
	@mkdir -p $(@D)
	$(CLI_WL_CC) -O0 -g -fpie -pie -o $@ $<

# A fixed-layout static program for the golden files (no compiler codegen).
$(CLI_OUT)/wl/golden: $(CLI_TESTS)/golden/golden.S
	@mkdir -p $(@D)
	$(CLI_WL_CC) -nostdlib -static -no-pie -Wl,--build-id=none \
		-Wl,-Ttext=0x401000 -o $@ $<

# Everything runs inside one Check runner, so its summary is the last line.
check-cli: deps $(CLI_BIN) $(CLI_CHECK_BIN) $(CLI_WL) $(CLI_OUT)/wl/golden
	cd $(CLI_OUT) && CK_FORK=yes \
		CK_TAP_LOG_FILE_NAME=$(CLI_OUT)/check.tap \
		CK_XML_LOG_FILE_NAME=$(CLI_OUT)/check.xml \
		BLOCKRANGE=$(CLI_BIN) \
		BLOCKRANGE_FIXTURES=$(CLI_FIXTURES) \
		BLOCKRANGE_GOLDEN=$(CLI_TESTS)/golden \
		BLOCKRANGE_WORKLOADS=$(CLI_OUT)/wl \
		BLOCKRANGE_SCRATCH=$(CLI_OUT)/scratch \
		LLVM_PROFGEN=$(LLVM_PROFGEN) \
		$(CLI_CHECK_BIN)

cli-demo: $(CLI_BIN) $(CLI_OUT)/wl/branches-pie
	$(CLI_BIN) record -o $(CLI_OUT)/demo.perfscript --depth 32 --period 7 \
		-- $(CLI_OUT)/wl/branches-pie 1000
	$(CLI_BIN) annotate --perfscript $(CLI_OUT)/demo.perfscript \
		--binary $(CLI_OUT)/wl/branches-pie --symbol branches --color=always

-include $(wildcard $(CLI_OUT)/obj/*.d $(CLI_OUT)/tests/*.d)
