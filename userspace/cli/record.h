/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `blockrange record`: a software branch sampler for machines without LBR.
 *
 * The program runs under ptrace.  It runs freely until its ELF entry point
 * (the dynamic loader is not traced), then every instruction is
 * single-stepped.  A *taken branch* is recorded when
 *  - an instruction of the main executable that is a jump, call or return
 *    moved the IP somewhere else than its fall-through (unconditional
 *    kinds always count, even to the next instruction), or
 *  - the IP moved from the executable to other code or back (calls into
 *    shared libraries, their returns, callbacks).
 * Branches between two addresses outside the executable are not recorded.
 *
 * The last @depth branches are kept in a ring; after every @period-th taken
 * branch one sample is written, newest entry first, in the text of
 * `perf script -F ip,brstack` (6.x generation, prediction flags '-'), IP =
 * the newest branch's source.  Depth 0 means unbounded: each sample holds
 * every branch since the previous sample plus that sample's newest entry,
 * so consecutive samples share one entry and every block is counted exactly
 * once; at exit the branches not yet written form one last sample.  A PIE
 * gets the PERF_RECORD_MMAP2 line of its executable mapping first.
 *
 * @counts, if set, receives "VADDR COUNT" per executed instruction of the
 * executable (an instruction repeated in place by a rep prefix counts once).
 */
#ifndef BLOCKRANGE_CLI_RECORD_H
#define BLOCKRANGE_CLI_RECORD_H

#include <stddef.h>
#include <stdint.h>

struct record_opts {
	const char *output;	/* "-" for stdout */
	const char *counts;	/* NULL: none */
	unsigned depth;		/* 0: unbounded */
	uint64_t period;	/* >= 1 */
	char *const *argv;	/* program and arguments */
	int quiet;		/* no summary on stderr */
};

/* 0, or -1 with a message in @err. */
int record_run(const struct record_opts *o, char *err, size_t errsz);

#endif /* BLOCKRANGE_CLI_RECORD_H */
