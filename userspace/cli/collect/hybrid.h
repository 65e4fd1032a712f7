/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Hybrid samples of one DSO: a call stack with each branch stack, kept
 * for the context-sensitive raw profile (collect/unwind.h) as
 * llvm-profgen-19 keeps them when it reads `perf script` text with call
 * stacks (docs/autofdo.md, "Context-sensitive profiles"):
 *
 *  - an address is the DSO's when a code-set instruction of it starts
 *    there (eb_is_code()); every other address is external
 *    (PROFILE_EXTERNAL);
 *  - the call stack, innermost first: the first frame stays as it is; a
 *    caller's frame (a return address) becomes the call instruction just
 *    before it, and the stack ends at the first frame not preceded by a
 *    call; consecutive external frames are one, and an external frame at
 *    the bottom of a stack of more than one is dropped; a sample whose
 *    stack ends up empty is not kept;
 *  - the branch stack, newest first: entries with neither end in the DSO
 *    are dropped; a sample left without entries is not kept.
 *
 * What still needs the DSO's DWARF (the prologue rule, the unwinding) is
 * done by unwind.h once the input is read.  Equal samples (the same
 * frames and entries) are kept once with the sum of their repeat counts,
 * as llvm-profgen aggregates them; the order does not matter (the profile
 * is a sum).
 */
#ifndef BLOCKRANGE_CLI_COLLECT_HYBRID_H
#define BLOCKRANGE_CLI_COLLECT_HYBRID_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/pairmap.h"
#include "resolve/elfbin.h"

/*
 * The samples, one record each in @w: repeat, number of frames F, number
 * of branch entries B, the F frames, then B (source, target) pairs.
 */
struct hybrid {
	uint64_t *w;
	size_t len;		/* words used */
	size_t cap;
	struct pairmap index;	/* (hash, probe) -> record offset + 1 */
	uint64_t nr;		/* samples kept (distinct ones) */
	uint64_t dropped;	/* samples not kept (empty stack or branches) */
	uint64_t truncated;	/* stacks cut at a frame after no call */
};

/*
 * One sample: its @nframes frames and @nbr entries' (source, target),
 * each an ELF address of the DSO @bin or PROFILE_EXTERNAL.  0, or
 * BR_ENOMEM, or BR_EINPUT when an equal sample's repeat count would pass
 * 2^64 - 1 (nothing is changed).
 */
int hybrid_add(struct hybrid *h, const struct eb_binary *bin,
	       const uint64_t *frames, size_t nframes, const uint64_t *ends,
	       size_t nbr, uint64_t repeat);

/* The call instruction just before @addr in @bin's code set, or 0. */
uint64_t hybrid_call_before(const struct eb_binary *bin, uint64_t addr);

/* @src's samples added to @dst: 0, BR_ENOMEM or BR_EINPUT (a count). */
int hybrid_merge(struct hybrid *dst, const struct hybrid *src);

void hybrid_free(struct hybrid *h);

#endif /* BLOCKRANGE_CLI_COLLECT_HYBRID_H */
