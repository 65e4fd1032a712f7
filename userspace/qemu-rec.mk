# The QEMU recorder (`blockrange record --engine=qemu`, the default): its
# TCG plugin, its micro workloads and tests, its benchmark and its demo.
# Included by userspace/cli.mk (uses TOP, BUILD, CLI_OUT, CLI_BIN, CLI_CC,
# CLI_CFLAGS, CLI_LIBA, CLI_SRC, CLI_TESTS).  See docs/record.md.
#
#   make qemu-plugin   build/lib/blockrange/blockrange-qemu.so, where the
#                      CLI finds it (../lib/blockrange/ beside the binary,
#                      as installed); `make cli` builds it too
#   make qemu-record-demo
#                      record Debian's /usr/bin/sort sorting QREC_DEMO_INPUT
#                      (/var/lib/dpkg/status) with the QEMU engine: perf's
#                      share per DSO, the annotated hottest blocks of sort
#                      and of libc, the same run counted exactly, and the
#                      HTML report (build/cli/demo-qemu/report.html);
#                      `make demo` runs it (a prerequisite of cli-demo)
#   make fuzz-qrec     libFuzzer on the reader of recording directories
#                      (input/qrec.c; FUZZ_SECONDS, FUZZ_RUNS); stats in
#                      build/cli/fuzz/qrec-stats.txt
#
# The plugin is built for the host's qemu-x86_64 (Debian's qemu-user, QEMU
# 7.2, plugin API version 1), with the project's warnings, never with the
# coverage or sanitizer flags (it runs inside QEMU, not in the CLI).

QREC_SRC := $(TOP)/userspace/qemu-plugin
# Beside the CLI binary of the build (CLI_BIN may be overridden).
QREC_PLUGIN = $(abspath $(dir $(CLI_BIN))../lib/blockrange/blockrange-qemu.so)
QREC_CFLAGS := -std=c11 -Wall -Wextra -Werror -O2 -g -fPIC \
	-fvisibility=hidden -pthread -I$(TOP)/userspace
# Code the plugin shares with the CLI lives in userspace/common/, the wire
# format between them in userspace/format/.
QREC_COMMON := $(TOP)/userspace/common
# The plugin's units, one job each (plugin.h lists them and what each may
# call).
QREC_UNITS := install syscall execve image translate pair threads exact \
	ring stack maps blocks output guest context
QREC_PLUGIN_SRCS := $(patsubst %,$(QREC_SRC)/%.c,$(QREC_UNITS)) \
	$(QREC_COMMON)/x86dec.c $(QREC_COMMON)/qexec.c
QREC_HDRS := $(wildcard $(QREC_SRC)/*.h) $(QREC_COMMON)/qexec.h \
	$(QREC_COMMON)/x86dec.h $(QREC_COMMON)/hash.h \
	$(TOP)/userspace/format/qrec_wire.h

.PHONY: qemu-plugin

qemu-plugin: $(QREC_PLUGIN)

# Link-time optimisation: calls between the plugin's units inline as they
# would within one file (tick() in ring.c inlines tick_arm() and output.c's
# counts_sync(), for one), so that the per-block callbacks and their slow
# paths cost the same instructions whichever unit their helpers are in.
QREC_LTO := -flto=auto

# No -z defs: the qemu_plugin_* functions come from qemu-x86_64 at load.
$(QREC_PLUGIN): $(QREC_PLUGIN_SRCS) $(QREC_HDRS) $(TOP)/userspace/qemu-rec.mk
	@mkdir -p $(@D)
	gcc $(QREC_CFLAGS) $(QREC_LTO) -shared -o $@ $(QREC_PLUGIN_SRCS)

cli: $(QREC_PLUGIN)
$(CLI_BIN): | $(QREC_PLUGIN)

# The CLI shares qexec.c (what execve would run) with the plugin; the tests
# check x86dec.c against capstone.
$(CLI_OUT)/obj/common/%.o: $(QREC_COMMON)/%.c $(TOP)/userspace/qemu-rec.mk | deps
	@mkdir -p $(@D)
	$(CLI_CC) $(CLI_CFLAGS) -MMD -MP -MT $@ -c $< -o $@

$(CLI_LIBA): $(CLI_OUT)/obj/common/qexec.o $(CLI_OUT)/obj/common/x86dec.o

# Micro workloads with known counts (check-tests/cli/workloads/qemu/, built
# into $(CLI_OUT)/wl/qemu/): static assembly programs for the rules (calls,
# cond, repmovs, pagecross, signal) and C programs for threads, fork,
# dlopen/dlclose and exec, gcc -O0 -g like the other workloads.
QREC_WL_SRC := $(CLI_TESTS)/workloads/qemu
QREC_WL_OUT := $(CLI_OUT)/wl/qemu
QREC_WL_ASM := calls cond repmovs pagecross longblock signal
QREC_WL := $(addprefix $(QREC_WL_OUT)/,$(QREC_WL_ASM) threads fork dlopen \
	exec strings libqa.so libqb.so stacks throw)

$(QREC_WL_OUT)/%: $(QREC_WL_SRC)/%.S
	@mkdir -p $(@D)
	$(CLI_WL_CC) -nostdlib -static -no-pie -Wl,-Ttext=0x401000 -o $@ $<

$(QREC_WL_OUT)/threads: $(QREC_WL_SRC)/threads.c
	@mkdir -p $(@D)
	$(CLI_WL_CC) -O0 -g -pthread -o $@ $<

$(QREC_WL_OUT)/fork $(QREC_WL_OUT)/exec $(QREC_WL_OUT)/strings: \
		$(QREC_WL_OUT)/%: $(QREC_WL_SRC)/%.c
	@mkdir -p $(@D)
	$(CLI_WL_CC) -O0 -g -o $@ $<

# Call stacks of known shapes (-g): real calls, no inlining, no sibling
# calls but the one written as a jmp.
$(QREC_WL_OUT)/stacks: $(QREC_WL_SRC)/stacks.c
	@mkdir -p $(@D)
	$(CLI_WL_CC) -O1 -fno-inline -fno-optimize-sibling-calls -g -pthread -o $@ $<

$(QREC_WL_OUT)/throw: $(QREC_WL_SRC)/throw.cc
	@mkdir -p $(@D)
	g++ -O1 -fno-inline -fno-optimize-sibling-calls -g -o $@ $<

$(QREC_WL_OUT)/dlopen: $(QREC_WL_SRC)/dlopen.c
	@mkdir -p $(@D)
	$(CLI_WL_CC) -O0 -g -o $@ $< -ldl

$(QREC_WL_OUT)/libqa.so $(QREC_WL_OUT)/libqb.so: $(QREC_WL_OUT)/lib%.so: \
		$(QREC_WL_SRC)/libq.c
	@mkdir -p $(@D)
	$(CLI_WL_CC) -O0 -g -fpic -shared -DNAME=$*_work -o $@ $<

check-cli: $(QREC_WL) $(QREC_PLUGIN)
check-cli: export BLOCKRANGE_QEMU_WL := $(QREC_WL_OUT)

# ---- the reader's fuzz harness ---------------------------------------------------
#
# check-tests/fuzz/fuzz_qrec.c turns its input (a small container of
# files) into a recording directory and reads it through input/qrec.c.  It
# joins the Check runner, whose qemu-record suite replays the committed
# corpus (check-tests/fuzz/qrec-corpus/: recordings the plugin made,
# trimmed by qrec_corpus.py; a crash's input would join them) through it
# and through the whole conversion.  The runner's link lists it after the
# CLI's archive: the reader it calls is linked for record/ already.
QREC_FUZZ_SRC := $(FUZZ_TESTS)/fuzz_qrec.c
QREC_FUZZ_CORPUS := $(FUZZ_TESTS)/qrec-corpus

$(CLI_OUT)/tests/fuzz_qrec.o: $(QREC_FUZZ_SRC) $(TOP)/userspace/qemu-rec.mk | deps
	@mkdir -p $(@D)
	$(CLI_CC) $(CLI_CFLAGS) -MMD -MP -MT $@ -c $< -o $@

$(CLI_CHECK_BIN): $(CLI_OUT)/tests/fuzz_qrec.o
check-cli: export BLOCKRANGE_QREC_CORPUS := $(QREC_FUZZ_CORPUS)

# libFuzzer: the reader and the harness, clang with ASan + UBSan (LSan on),
# as fuzz-perfdata; a crash leaves its input in qrec-artifacts/.
QREC_FUZZ_BIN := $(CLI_FUZZ_OUT)/fuzz_qrec
QREC_FUZZ_CFLAGS := -std=c11 -Wall -Wextra -Werror -g -O1 -I$(CLI_SRC) \
	-I$(TOP)/userspace -DBLOCKRANGE_FUZZ_LIBFUZZER \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
QREC_FUZZ_MAX_LEN := 32768

.PHONY: fuzz-qrec

$(QREC_FUZZ_BIN): $(QREC_FUZZ_SRC) $(CLI_SRC)/input/qrec.c \
		$(CLI_SRC)/input/qrec.h $(CLI_SRC)/base/pairmap.c \
		$(CLI_SRC)/base/pairmap.h $(TOP)/userspace/format/qrec_wire.h \
		$(TOP)/userspace/qemu-rec.mk
	@mkdir -p $(@D)
	clang $(QREC_FUZZ_CFLAGS) -o $@ $(QREC_FUZZ_SRC) \
		$(CLI_SRC)/input/qrec.c $(CLI_SRC)/base/pairmap.c

fuzz-qrec: $(QREC_FUZZ_BIN)
	mkdir -p $(CLI_FUZZ_OUT)/qrec-corpus $(CLI_FUZZ_OUT)/qrec-artifacts
	cp $(QREC_FUZZ_CORPUS)/* $(CLI_FUZZ_OUT)/qrec-corpus/
	cd $(CLI_FUZZ_OUT) && $(QREC_FUZZ_BIN) $(CLI_FUZZ_LIMITS) \
		-max_len=$(QREC_FUZZ_MAX_LEN) -dict=$(FUZZ_TESTS)/qrec.dict \
		-print_final_stats=1 \
		-artifact_prefix=$(CLI_FUZZ_OUT)/qrec-artifacts/ \
		qrec-corpus 2>&1 | tee $(CLI_FUZZ_OUT)/qrec.log | \
		{ grep --line-buffered -Ev '^#[0-9]+[[:space:]]+(NEW|REDUCE) ' \
		  || true; }
	grep -E '^(Done |stat::)' $(CLI_FUZZ_OUT)/qrec.log \
		> $(CLI_FUZZ_OUT)/qrec-stats.txt

# ---- the demo -----------------------------------------------------------------

QREC_DEMO := $(CLI_OUT)/demo-qemu
QREC_DEMO_INPUT ?= /var/lib/dpkg/status
# The first lines of the hottest symbol of DSO $(1) in the annotate text $(2).
QREC_DEMO_HOT = awk -v d='$(1)' '/Disassembly of/ { on = index($$0, " of " d " for ") > 0; \
	if (on) n++ } on && n == 1 && k++ < 16' $(2)

.PHONY: qemu-record-demo

# `make demo` shows it: cli-demo (userspace/cli.mk) runs it after the
# ptrace engine's demos.
cli-demo: qemu-record-demo

qemu-record-demo: deps $(CLI_BIN) $(QREC_PLUGIN)
	@mkdir -p $(QREC_DEMO)
	@echo "== blockrange record -- sort $(QREC_DEMO_INPUT) (QEMU engine, sampled) =="
	$(CLI_BIN) record -o $(QREC_DEMO)/sort.data --period 1000 \
		-- /usr/bin/sort $(QREC_DEMO_INPUT) > /dev/null
	@echo "== perf 6.1 reads it: the share of each DSO =="
	perf report -i $(QREC_DEMO)/sort.data --stdio --sort dso 2>/dev/null | \
		grep -v -e '^#' -e '^$$'
	$(CLI_BIN) annotate -i $(QREC_DEMO)/sort.data --color=always --no-pager \
		> $(QREC_DEMO)/annotate.txt
	@echo "== the hottest blocks of sort (stripped: pseudo-symbols) =="
	@$(call QREC_DEMO_HOT,sort,$(QREC_DEMO)/annotate.txt)
	@echo "== the hottest blocks of libc (symbols from libc6-dbg) =="
	@$(call QREC_DEMO_HOT,libc.so.6,$(QREC_DEMO)/annotate.txt)
	@echo "== the same run counted exactly (--exact): every block's count =="
	$(CLI_BIN) record --exact -o $(QREC_DEMO)/sort.brprof \
		-- /usr/bin/sort $(QREC_DEMO_INPUT) > /dev/null
	$(CLI_BIN) annotate -i $(QREC_DEMO)/sort.brprof --color=always \
		--no-pager > $(QREC_DEMO)/annotate-exact.txt
	@$(call QREC_DEMO_HOT,libc.so.6,$(QREC_DEMO)/annotate-exact.txt)
	$(CLI_BIN) report -i $(QREC_DEMO)/sort.data -o $(QREC_DEMO)/report.html
	@echo "report: $(QREC_DEMO)/report.html"

include $(TOP)/bench/qemu-rec.mk
