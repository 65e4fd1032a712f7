# blockrange record: its workloads, and the multi-DSO demo.  Included by
# userspace/cli.mk (uses CLI_OUT, CLI_TESTS, CLI_BIN, CLI_WL_CC).
#
#   make cli-demo-dso  record the multi-DSO workload (hot loops in the
#                      executable, its own shared library and libc's qsort)
#                      to perf.data, show `perf script -F ip,brstack`, then
#                      run $(CLI_DEMO_DSO_ANNOTATE)
#
# Workloads (built for check-cli, in $(CLI_OUT)/wl/):
#   multidso-nopie, multidso-pie  check-tests/cli/workloads/multidso/main.c
#                                 linked with libhot.so (same directory,
#                                 found through RUNPATH $ORIGIN)
#   tasks                         check-tests/cli/workloads/tasks/tasks.c:
#                                 threads, fork, exec

REC_WL_SRC := $(CLI_TESTS)/workloads
REC_WL_OUT := $(CLI_OUT)/wl
REC_WL := $(REC_WL_OUT)/libhot.so $(REC_WL_OUT)/multidso-nopie \
	$(REC_WL_OUT)/multidso-pie $(REC_WL_OUT)/tasks

$(REC_WL_OUT)/libhot.so: $(REC_WL_SRC)/multidso/libhot.c \
		$(REC_WL_SRC)/multidso/libhot.h
	@mkdir -p $(@D)
	$(CLI_WL_CC) -O0 -g -fpic -shared -Wl,-soname,libhot.so -o $@ $<

$(REC_WL_OUT)/multidso-nopie: $(REC_WL_SRC)/multidso/main.c $(REC_WL_OUT)/libhot.so
	$(CLI_WL_CC) -O0 -g -fno-pie -no-pie -I$(REC_WL_SRC)/multidso -o $@ $< \
		-L$(REC_WL_OUT) -lhot -Wl,-rpath,'$$ORIGIN'

$(REC_WL_OUT)/multidso-pie: $(REC_WL_SRC)/multidso/main.c $(REC_WL_OUT)/libhot.so
	$(CLI_WL_CC) -O0 -g -fpie -pie -I$(REC_WL_SRC)/multidso -o $@ $< \
		-L$(REC_WL_OUT) -lhot -Wl,-rpath,'$$ORIGIN'

$(REC_WL_OUT)/tasks: $(REC_WL_SRC)/tasks/tasks.c
	@mkdir -p $(@D)
	$(CLI_WL_CC) -O0 -g -pthread -o $@ $<

check-cli: $(REC_WL)

# The demo records a short run to perf.data (and the same recording as
# perf-script text), shows that perf 6.1 prints that text for the perf.data,
# the share of each DSO, and the annotation of the three hottest symbols:
# exe_loop (the executable), lib_loop (libhot.so), qsort's merge sort (libc).
CLI_DEMO_DSO := $(CLI_OUT)/demo-dso
CLI_DEMO_DSO_ARGS := 2000 2000 64
# The annotate step of the demo: every DSO from the perf.data, then the
# first lines of the hottest symbol of each of the three DSOs.
CLI_DEMO_DSO_ANNOTATE ?= $(CLI_BIN) annotate -i $(CLI_DEMO_DSO)/perf.data \
		--color=always --no-pager > $(CLI_DEMO_DSO)/annotate.txt && \
	for d in multidso-pie libhot.so libc.so.6; do \
		awk -v d="$$d" '/Disassembly of/ { on = index($$0, " of " d " for ") > 0; \
			if (on) n++ } on && n == 1 && k++ < 14' \
			$(CLI_DEMO_DSO)/annotate.txt; k=0; done

.PHONY: cli-demo-dso

$(CLI_DEMO_DSO)/perf.data: $(CLI_BIN) $(REC_WL)
	@mkdir -p $(CLI_DEMO_DSO)
	rm -f $@ $@.old
	$(CLI_BIN) record --engine=ptrace -o $@ --depth 32 --period 7 \
		--script-copy $(CLI_DEMO_DSO)/blockrange.perfscript \
		-- $(REC_WL_OUT)/multidso-pie $(CLI_DEMO_DSO_ARGS)

cli-demo-dso: $(CLI_DEMO_DSO)/perf.data
	perf script -i $(CLI_DEMO_DSO)/perf.data -F ip,brstack --show-mmap-events \
		> $(CLI_DEMO_DSO)/perf.script
	cmp $(CLI_DEMO_DSO)/perf.script $(CLI_DEMO_DSO)/blockrange.perfscript
	awk '!/PERF_RECORD/ && n++ < 3' $(CLI_DEMO_DSO)/perf.script | cut -c 1-160
	perf report -i $(CLI_DEMO_DSO)/perf.data --stdio --sort dso \
		> $(CLI_DEMO_DSO)/perf.report
	grep -v -e '^#' -e '^$$' $(CLI_DEMO_DSO)/perf.report
	$(CLI_DEMO_DSO_ANNOTATE)

cli-demo: cli-demo-dso
