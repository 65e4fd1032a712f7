# perf.data reader: its tests' inputs and its fuzz harness.  Included by
# userspace/cli.mk (uses TOP, BUILD, CLI_*).
#
#   check-cli            also runs the suite `perfdata` (check-tests/cli/
#                        test_perfdata.c): the perf 6.1 oracle files made
#                        here, the hostile perf.data corpus, the fixtures
#   make fuzz-perfdata   libFuzzer on the reader (FUZZ_SECONDS, FUZZ_RUNS);
#                        stats in build/cli/fuzz/perfdata-stats.txt
#   make bench-script    throughput of `blockrange script` and of
#                        `perf script -F ip,brstack` on a synthesized file
#                        (BENCH_MB, default 512)

PD_TESTS := $(CLI_TESTS)
PD_GEN := $(PD_TESTS)/gen_perfdata.py
# The generator's modules: the writer, the good variants, the hostile corpus.
PD_GEN_PY := $(PD_GEN) $(addprefix $(PD_TESTS)/,perffile.py pd_good.py pd_bad.py)
PD_ORACLE := $(PD_TESTS)/perf_oracle.py
# Shared by the plain and the sanitizer runs (perf's view does not change).
PD_ORACLE_OUT := $(BUILD)/pd-oracle
PD_BAD_OUT := $(BUILD)/pd-bad
PD_FIXTURES ?= $(SHARED)/fixtures/perfdata
# What perf records at test time: a shell loop that forks, and a process
# with three threads (FORK, COMM, EXIT records).
PD_WORKLOAD := sh -c 'i=0; while [ $$i -lt 2000 ]; do i=$$((i+1)); done; \
	ls / >/dev/null & python3 -c "import threading; \
	t=[threading.Thread(target=sum, args=(range(300000),)) for _ in range(3)]; \
	[x.start() for x in t]; [x.join() for x in t]"; wait'

$(PD_ORACLE_OUT)/.stamp: $(PD_GEN_PY) $(PD_ORACLE) $(TOP)/userspace/perfdata.mk
	rm -rf $(PD_ORACLE_OUT)
	python3 $(PD_ORACLE) prepare $(PD_ORACLE_OUT) $(PD_WORKLOAD)
	touch $@

$(PD_BAD_OUT)/.stamp: $(PD_GEN_PY)
	rm -rf $(PD_BAD_OUT)
	python3 $(PD_GEN) bad $(PD_BAD_OUT)
	touch $@

# The harness joins the Check runner (its corpus replay; cli.mk lists the
# object in CLI_TEST_OBJS) under its own entry point, so that it does not
# clash with the perf script harness.
PD_FUZZ_SRC := $(FUZZ_TESTS)/fuzz_perfdata.c

$(CLI_OUT)/tests/fuzz_perfdata.o: $(PD_FUZZ_SRC) $(TOP)/userspace/perfdata.mk | deps
	@mkdir -p $(@D)
	$(CLI_CC) $(CLI_CFLAGS) \
		-MMD -MP -MT $@ -c $< -o $@

check-cli: $(PD_ORACLE_OUT)/.stamp $(PD_BAD_OUT)/.stamp
check-cli: export BLOCKRANGE_PD_ORACLE := $(PD_ORACLE_OUT)
check-cli: export BLOCKRANGE_PD_BAD := $(PD_BAD_OUT)
check-cli: export BLOCKRANGE_PD_EXPECT := $(PD_TESTS)/bad-perfdata
check-cli: export BLOCKRANGE_PD_FIXTURES := $(PD_FIXTURES)
check-cli: export BLOCKRANGE_PD_CORPUS := $(FUZZ_TESTS)/perfdata-corpus

# libFuzzer: the reader and the harness, clang with ASan + UBSan; only the
# reader gets libFuzzer's coverage (as fuzz-perfscript).  Seeds: the
# committed corpus, the generated good variants and the hostile files.
PD_FUZZ_BIN := $(CLI_FUZZ_OUT)/fuzz_perfdata
PD_FUZZ_CFLAGS := $(CLI_FUZZ_CFLAGS) -DBLOCKRANGE_FUZZ_LIBFUZZER
PD_FUZZ_MAX_LEN := 16384

.PHONY: fuzz-perfdata bench-script

$(CLI_FUZZ_OUT)/obj/pd/fuzz_perfdata.o: $(PD_FUZZ_SRC) $(TOP)/userspace/perfdata.mk
	@mkdir -p $(@D)
	clang $(PD_FUZZ_CFLAGS) -MMD -MP -MT $@ -c $< -o $@

$(PD_FUZZ_BIN): $(CLI_FUZZ_OUT)/obj/pd/fuzz_perfdata.o \
		$(CLI_FUZZ_OUT)/obj/input/perfdata.o \
		$(CLI_FUZZ_OUT)/obj/input/pdqueue.o
	clang $(PD_FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $^ \
		$$(pkg-config --libs libzstd)

fuzz-perfdata: $(PD_FUZZ_BIN) $(PD_ORACLE_OUT)/.stamp $(PD_BAD_OUT)/.stamp
	mkdir -p $(CLI_FUZZ_OUT)/pd-corpus $(CLI_FUZZ_OUT)/pd-artifacts
	cp $(FUZZ_TESTS)/perfdata-corpus/* $(CLI_FUZZ_OUT)/pd-corpus/
	for f in $(PD_ORACLE_OUT)/*-le.data $(PD_BAD_OUT)/*.data; do \
		[ $$(stat -c %s "$$f") -le $(PD_FUZZ_MAX_LEN) ] && \
		cp "$$f" $(CLI_FUZZ_OUT)/pd-corpus/seed-$${f##*/} || true; done
	cd $(CLI_FUZZ_OUT) && ASAN_OPTIONS=$(FUZZ_ASAN_OPTIONS) \
		$(PD_FUZZ_BIN) $(CLI_FUZZ_LIMITS) \
		-max_len=$(PD_FUZZ_MAX_LEN) -dict=$(FUZZ_TESTS)/perfdata.dict \
		-print_final_stats=1 -artifact_prefix=$(CLI_FUZZ_OUT)/pd-artifacts/ \
		pd-corpus 2>&1 | tee $(CLI_FUZZ_OUT)/perfdata.log | \
		{ grep --line-buffered -Ev '^#[0-9]+[[:space:]]+(NEW|REDUCE) ' \
		  || true; }
	grep -E '^(Done |stat::)' $(CLI_FUZZ_OUT)/perfdata.log \
		> $(CLI_FUZZ_OUT)/perfdata-stats.txt

BENCH_MB ?= 512

bench-script: $(CLI_BIN)
	mkdir -p $(CLI_OUT)/bench
	python3 $(PD_GEN) big $(CLI_OUT)/bench/big.data $(BENCH_MB)
	@size=$$(stat -c %s $(CLI_OUT)/bench/big.data); \
	t0=$$(date +%s.%N); $(CLI_BIN) script -i $(CLI_OUT)/bench/big.data \
		> $(CLI_OUT)/bench/ours.txt; t1=$$(date +%s.%N); \
	perf script --force -F ip,brstack -i $(CLI_OUT)/bench/big.data \
		> $(CLI_OUT)/bench/perf.txt 2>/dev/null; t2=$$(date +%s.%N); \
	cmp $(CLI_OUT)/bench/ours.txt $(CLI_OUT)/bench/perf.txt && \
	echo "identical output" ; \
	awk -v s=$$size -v a=$$t0 -v b=$$t1 -v c=$$t2 'BEGIN { \
		printf "blockrange script: %.1f s, %.0f MB/s\n", b - a, s / 1e6 / (b - a); \
		printf "perf script:       %.1f s, %.0f MB/s\n", c - b, s / 1e6 / (c - b) }'
