/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `blockrange record --engine=qemu` (the default engine): the program runs
 * under qemu-x86_64 (Debian's qemu-user, QEMU 7.2) with blockrange's TCG
 * plugin (userspace/qemu-plugin/), which writes what every process image
 * of the program did into a recording directory (the wire format,
 * format/qrec_wire.h); once every process has ended, the recording is
 * read (input/qrec.h) and written as the output:
 *
 *  - sampled (the default): perf.data (or the perf-script text of it) as
 *    the ptrace engine writes it, event "taken-branches-sw:u": every
 *    thread's last @depth taken branches, one sample every @period taken
 *    branches of the thread (varied by +-@jitter); with @call_graph
 *    each sample also carries the thread's call stack, the shadow stack
 *    the plugin keeps, as perf's user call chain;
 *  - exact (@exact): a .brprof of every straight-line range run and every
 *    taken branch, counted, for annotate, report, ranges, bolt, profile
 *    and merge.
 *
 * docs/record.md describes the recorder: the rules that classify a
 * block's end as a taken branch or not, mappings, threads, fork and
 * execve, the CPU model, the figures.
 *
 * Where things are found: qemu-x86_64 as $BLOCKRANGE_QEMU, else in $PATH;
 * the plugin as $BLOCKRANGE_QEMU_PLUGIN, else QREC_PLUGIN_REL beside the
 * blockrange binary (installed: PREFIX/lib/blockrange/; build tree:
 * build/lib/blockrange/).
 *
 * The files: qemu_run.c finds QEMU, the plugin and the program, runs it
 * and keeps the recording directory; qemu_rec.c turns the recording into
 * the output and prints the summary line.
 */
#ifndef BLOCKRANGE_CLI_QEMU_REC_H
#define BLOCKRANGE_CLI_QEMU_REC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "record/record.h"

#define QREC_PLUGIN_REL "../lib/blockrange/blockrange-qemu.so"
#define QREC_DEFAULT_CPU "max"
#define QREC_DEFAULT_PERIOD 10007
#define QREC_EXACT_EVENT "taken-branches-exact:u"
/*
 * --depth at most with call stacks: a perf.data record's 16-bit size holds
 * 2048 branches (24 bytes each) beside a chain of QREC_STACK_MAX + 2.
 */
#define QREC_CG_MAX_DEPTH 2048

struct qrec_opts {
	const char *output;	/* "-": stdout (perf.data: pipe mode) */
	enum record_format format;	/* sampled mode */
	const char *script_copy;	/* sampled: also the text there */
	unsigned fields;	/* PSW_* of the text */
	bool task_events;
	bool exact;		/* a .brprof of exact counts at @output */
	unsigned depth;		/* sampled: ring entries, >= 1 */
	uint64_t period;	/* sampled: >= 1 */
	uint64_t jitter;	/* sampled: < @period */
	bool call_graph;	/* sampled: perf.data samples carry the call
				 * stack (PERF_SAMPLE_CALLCHAIN) */
	const char *cpu;	/* QEMU's -cpu model; NULL: QREC_DEFAULT_CPU */
	char *const *argv;	/* program and arguments */
	int cmd_argc;		/* blockrange's command line (HEADER_CMDLINE) */
	char *const *cmd_argv;
	bool quiet;		/* no summary line */
};

/*
 * Record.  0, with *@status the exit status record exits with: the
 * program's own (0..255), or 128 + N if a signal N ended it (after a
 * one-line message); or a negative BR_E* (base/status.h) with a one-line
 * message in @err when recording failed (nothing is written then):
 * BR_EINPUT a damaged recording directory, BR_ESYS anything else.
 */
int qrec_record(const struct qrec_opts *o, int *status, char *err,
		size_t errsz);

/*
 * Write the output of the recording directory @dir as qrec_record() does
 * once the program has ended (no summary): for the tests of the reader,
 * which make directories of their own.  0 or a negative BR_E* with a
 * message in @err.
 */
int qrec_convert(const struct qrec_opts *o, const char *dir, char *err,
		 size_t errsz);

#endif /* BLOCKRANGE_CLI_QEMU_REC_H */
