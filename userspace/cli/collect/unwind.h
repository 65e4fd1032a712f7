/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The context-sensitive raw profile of one DSO: llvm-profgen-19's
 * `--skip-symbolization` output for hybrid samples (collect/hybrid.h), by
 * its rules (docs/autofdo.md, "Context-sensitive profiles"):
 *
 *  - a sample whose first frame is in a prologue or an epilogue is not
 *    used: the first two code-set instructions from the start of each
 *    DWARF function range, every return and the instruction before it;
 *  - the first frame is then the newest branch's target, and the branch
 *    stack is walked from the newest entry back, the call stack replayed
 *    backwards on a trie of frames: a call pops the caller's frame (or,
 *    when the caller's frame is not the call, the frame becomes the call),
 *    a return pushes the callee's frame at the return instruction, any
 *    other branch moves the frame to its source; between two entries the
 *    straight line [older target, newer source] is counted in the frame
 *    of each run of instructions with the same inline callers;
 *  - a line that is not a valid fall-through (see eb_range_valid()), or
 *    that has one external end, makes the rest of the stack context-free:
 *    each later entry starts a new stack of one frame, its source;
 *  - each frame's ranges and branches are counted under its context: the
 *    frames from the root (or from just below the nearest external frame)
 *    to it, each expanded into its inline frames (DWARF), discriminators
 *    reduced to their base, adjacent repeated sequences of callers
 *    collapsed (recursion), the innermost frame kept without its line; a
 *    frame without line information, an external frame, and branches from
 *    external code count under the empty context.
 *
 * Keys print as llvm-profgen prints them: "main:3 @ mid:2.1 @ leaf".
 * No global state: a struct csprof owns everything it holds.
 */
#ifndef BLOCKRANGE_CLI_COLLECT_UNWIND_H
#define BLOCKRANGE_CLI_COLLECT_UNWIND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/pairmap.h"
#include "collect/hybrid.h"
#include "resolve/elfbin.h"

struct spd_frame;
struct sp_names;

/* One calling context and what was counted under it. */
struct cs_context {
	char *key;			/* "" for the empty context */
	/*
	 * The key's frames, outermost first (names interned in
	 * csprof.names; the innermost with line 0), and whether the
	 * innermost frame's address had inline frames.
	 */
	struct spd_frame *frames;
	size_t nr_frames;
	bool leaf_inlined;
	struct pairmap ranges;		/* (start, end) -> count */
	struct pairmap branches;	/* (source, target) -> count */
};

/* What the unwinding met, as llvm-profgen's warnings count it. */
struct cs_stats {
	uint64_t samples;		/* hybrid samples unwound */
	uint64_t prologue;		/* not used: first frame in a prologue
					 * or an epilogue */
	uint64_t branches;		/* branch entries walked */
	uint64_t call_mismatch;		/* a call whose caller frame was not
					 * the call */
	uint64_t paired_external;	/* lines from external to external */
	uint64_t unpaired_external;	/* lines with one external end */
	uint64_t invalid_ranges;	/* lines that are no fall-through */
};

struct csprof {
	struct sp_names *names;		/* the frames' names */
	struct cs_context *ctx;
	size_t nr;
	size_t cap;
	struct pairmap index;		/* (key hash, probe) -> index + 1 */
	struct cs_stats st;
};

/*
 * Unwind @h's samples of the DSO @bin with the DWARF of @dwarf_path (the
 * DSO or its debug file).  0, or with a message in @err: BR_EINPUT (no
 * usable DWARF, a count past 2^64 - 1), BR_ENOMEM.
 */
int csprof_build(struct csprof *out, const struct hybrid *h,
		 const struct eb_binary *bin, const char *dwarf_path,
		 char *err, size_t errsz);

/*
 * What llvm-profgen prints for the same samples with
 * --ignore-stack-samples: the profile without contexts (collect/profile.h)
 * of the samples the prologue rule keeps, added to @flat; @st counts them.
 * 0, or as csprof_build().
 */
struct profile;
int csprof_flat(struct profile *flat, struct cs_stats *st,
		const struct hybrid *h, const struct eb_binary *bin,
		const char *dwarf_path, char *err, size_t errsz);

/* The contexts sorted by key (strcmp), in a new array (free() it); NULL: no memory. */
const struct cs_context **csprof_sorted(const struct csprof *p);

void csprof_free(struct csprof *p);

#endif /* BLOCKRANGE_CLI_COLLECT_UNWIND_H */
