# The libFuzzer harnesses beyond the readers' (check-tests/fuzz/): merge of
# .brprof pairs, ELF/DWARF debug files; and `make fuzz-long`, every harness
# towards 10^8 executions in runs whose corpora and figures are kept.
# Included by userspace/cli.mk (uses CLI_*, US_*, FUZZ_TESTS).
#
#   make fuzz-brprof   blockrange merge on hostile .brprof pairs
#   make fuzz-dwarf    hostile ELF/DWARF files through spd_open() (autofdo)
#                      and the DSO loader's source lines (annotate --source)
#   make fuzz-long     every harness FUZZ_LONG_SECONDS (default 1800) from
#                      its committed corpus and a working corpus under
#                      build/fuzz-long/, then the new inputs minimized into
#                      the committed corpus and a line per harness appended
#                      to check-tests/fuzz/ledger.tsv (docs/testing.md)

# Every source of the CLI but builtin/, for the harnesses that need more
# than a reader (each links only what it calls).  clang 14 takes input/
# par.c's copy of a pointer's bytes out of its buffer for a sizeof mistake;
# the CLI's own build (gcc) keeps that warning.
$(CLI_FUZZ_OUT)/obj/%.o: $(CLI_SRC)/%.c $(TOP)/userspace/fuzz.mk
	@mkdir -p $(@D)
	clang $(CLI_FUZZ_CFLAGS) -Wno-sizeof-pointer-memaccess \
		$$(pkg-config --cflags capstone libelf libdw libdebuginfod libgvc libzstd) \
		-fsanitize=fuzzer-no-link -MMD -MP -MT $@ -c $< -o $@

CLI_FUZZ_LIB_SRCS := $(filter-out $(CLI_SRC)/builtin/%,$(CLI_LIB_SRCS))
CLI_FUZZ_LIBA := $(CLI_FUZZ_OUT)/libblockrange-cli-fuzz.a
# The library as fuzz-blockrange builds it (userspace/build.mk).
US_FUZZ_LIBA := $(US_FUZZ_OUT)/libblockrange-fuzz.a

$(CLI_FUZZ_LIBA): $(patsubst $(CLI_SRC)/%.c,$(CLI_FUZZ_OUT)/obj/%.o,\
		$(CLI_FUZZ_LIB_SRCS))
	rm -f $@
	ar rcs $@ $^

$(US_FUZZ_LIBA): $(patsubst %.c,$(US_FUZZ_OUT)/obj/%.o,$(notdir $(US_LIB_SRCS)))
	rm -f $@
	ar rcs $@ $^

# A harness of the CLI: its own object (sanitizers only) and the
# instrumented archives.
$(CLI_FUZZ_OUT)/obj/h/%.o: $(FUZZ_TESTS)/%.c $(TOP)/userspace/fuzz.mk
	@mkdir -p $(@D)
	clang $(CLI_FUZZ_CFLAGS) -DBLOCKRANGE_FUZZ_LIBFUZZER \
		$$(pkg-config --cflags libelf libdw) -MMD -MP -MT $@ -c $< -o $@

$(CLI_FUZZ_OUT)/fuzz_brprof $(CLI_FUZZ_OUT)/fuzz_dwarf: \
$(CLI_FUZZ_OUT)/fuzz_%: $(CLI_FUZZ_OUT)/obj/h/fuzz_%.o $(CLI_FUZZ_LIBA) \
		$(US_FUZZ_LIBA)
	clang $(CLI_FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $^ $(CLI_LIBS) -lm

# Replayed by the CLI's runner (suite fuzz-corpus; cli.mk lists the objects
# in CLI_TEST_OBJS).

$(CLI_OUT)/tests/fuzz_brprof.o $(CLI_OUT)/tests/fuzz_dwarf.o: \
$(CLI_OUT)/tests/%.o: $(FUZZ_TESTS)/%.c $(TOP)/userspace/fuzz.mk | deps
	@mkdir -p $(@D)
	$(CLI_CC) $(CLI_CFLAGS) -MMD -MP -MT $@ -c $< -o $@

check-cli: export BLOCKRANGE_FUZZ_BRPROF := $(FUZZ_TESTS)/brprof-corpus
check-cli: export BLOCKRANGE_FUZZ_DWARF := $(FUZZ_TESTS)/dwarf-corpus

.PHONY: fuzz-brprof fuzz-dwarf fuzz-long

# $(call fuzz_run,NAME,BIN,MAX_LEN,EXTRA FLAGS,SEED DIRS): one run of a
# harness on build/cli/fuzz/NAME-corpus seeded from the committed corpus
# and SEED DIRS, as fuzz-perfscript does.
define fuzz_run
	mkdir -p $(CLI_FUZZ_OUT)/$(1)-corpus $(CLI_FUZZ_OUT)/$(1)-artifacts
	cp $(FUZZ_TESTS)/$(1)-corpus/* $(5) $(CLI_FUZZ_OUT)/$(1)-corpus/
	cd $(CLI_FUZZ_OUT) && ASAN_OPTIONS=$(FUZZ_ASAN_OPTIONS) \
		$(2) $(CLI_FUZZ_LIMITS) -max_len=$(3) $(4) \
		-print_final_stats=1 -artifact_prefix=$(CLI_FUZZ_OUT)/$(1)-artifacts/ \
		$(1)-corpus 2>&1 | tee $(CLI_FUZZ_OUT)/$(1).log | \
		{ grep --line-buffered -Ev '^#[0-9]+[[:space:]]+(NEW|REDUCE) ' \
		  || true; }
	grep -E '^(Done |stat::)' $(CLI_FUZZ_OUT)/$(1).log \
		> $(CLI_FUZZ_OUT)/$(1)-stats.txt
endef

BRPROF_FUZZ_MAX_LEN := 8192

fuzz-brprof: $(CLI_FUZZ_OUT)/fuzz_brprof
	$(call fuzz_run,brprof,$<,$(BRPROF_FUZZ_MAX_LEN),,)

# Seeds a few KiB each; an execution opens the file three times (libdw
# twice, libdwfl once), so inputs stay small.
DWARF_FUZZ_MAX_LEN := 8192

fuzz-dwarf: $(CLI_FUZZ_OUT)/fuzz_dwarf
	$(call fuzz_run,dwarf,$<,$(DWARF_FUZZ_MAX_LEN),,)

# fuzz-long: one run of every harness, one after the other, each
# FUZZ_LONG_SECONDS under nice -n 19 (check-tests/fuzz/fuzz-long.sh).
# Not part of check or CI.  A harness that fails does not stop the others;
# the target fails at the end.
FUZZ_LONG_SECONDS ?= 1800
FUZZ_LONG_DIR := $(BUILD)/fuzz-long
FUZZ_LEDGER := $(FUZZ_TESTS)/ledger.tsv
FUZZ_LONG = FUZZ_LONG_SECONDS=$(FUZZ_LONG_SECONDS) FUZZ_LONG_DIR=$(FUZZ_LONG_DIR) \
	LEDGER=$(FUZZ_LEDGER) FUZZ_ASAN_OPTIONS=$(FUZZ_ASAN_OPTIONS) \
	bash $(FUZZ_TESTS)/fuzz-long.sh
FUZZ_LONG_HARNESSES ?= blockrange perfscript perfdata brprof dwarf qrec

# perf.data seeds: the hostile files, and perf's recordings of check-cli
# when they are there (making them needs perf record).
fuzz-long: $(US_FUZZ_BIN) $(CLI_FUZZ_BIN) $(PD_FUZZ_BIN) \
		$(CLI_FUZZ_OUT)/fuzz_brprof $(CLI_FUZZ_OUT)/fuzz_dwarf \
		$(QREC_FUZZ_BIN) $(PD_BAD_OUT)/.stamp
	status=0; \
	for h in $(FUZZ_LONG_HARNESSES); do case $$h in \
	blockrange) $(FUZZ_LONG) blockrange $(US_FUZZ_BIN) $(US_CORPUS) \
		$(US_FUZZ_MAX_LEN) '' || status=1;; \
	perfscript) $(FUZZ_LONG) perfscript $(CLI_FUZZ_BIN) $(CLI_FUZZ_CORPUS) \
		$(CLI_FUZZ_MAX_LEN) '-dict=$(CLI_FUZZ_DICT)' \
		$(CLI_BAD)/*.perfscript || status=1;; \
	perfdata) $(FUZZ_LONG) perfdata $(PD_FUZZ_BIN) $(FUZZ_TESTS)/perfdata-corpus \
		$(PD_FUZZ_MAX_LEN) '-dict=$(FUZZ_TESTS)/perfdata.dict' \
		$(wildcard $(PD_ORACLE_OUT)/*-le.data) $(PD_BAD_OUT)/*.data \
		|| status=1;; \
	brprof) $(FUZZ_LONG) brprof $(CLI_FUZZ_OUT)/fuzz_brprof \
		$(FUZZ_TESTS)/brprof-corpus $(BRPROF_FUZZ_MAX_LEN) '' || status=1;; \
	dwarf) $(FUZZ_LONG) dwarf $(CLI_FUZZ_OUT)/fuzz_dwarf \
		$(FUZZ_TESTS)/dwarf-corpus $(DWARF_FUZZ_MAX_LEN) '' || status=1;; \
	qrec) $(FUZZ_LONG) qrec $(QREC_FUZZ_BIN) $(FUZZ_TESTS)/qrec-corpus \
		$(QREC_FUZZ_MAX_LEN) '-dict=$(FUZZ_TESTS)/qrec.dict' || status=1;; \
	*) echo "fuzz-long: no harness $$h" >&2; status=1;; \
	esac; done; \
	column -t -s '	' $(FUZZ_LEDGER) | tail -n 12; exit $$status
