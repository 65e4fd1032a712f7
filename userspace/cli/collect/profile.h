/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The raw (unsymbolized) profile of llvm-profgen --skip-symbolization, for
 * LBR samples without call stacks, computed with llvm-profgen's rules (see
 * docs/cli-reference.md, "ranges"):
 *  - an address is code if a code-set instruction starts there; anything
 *    else (including unmapped addresses) is external, printed as 1 - base;
 *  - entries with neither end in code are dropped before pairing;
 *  - a branch FROM->TO is counted when TO is code;
 *  - for consecutive kept entries (older, newer), the range
 *    [older.to, newer.from] is counted when both ends are code, start <= end
 *    and no call, ret or direct jmp lies in [start, end);
 *  - every count is weighted by the sample's repeat count; a count that
 *    would pass 2^64 - 1 is an input error (exit status 2), not a wrap.
 * Without a binary every address is code and only start <= end is checked.
 *
 * Every DSO gets its own profile, as llvm-profgen --binary=DSO would print
 * it: addresses in other DSOs are external to it.
 */
#ifndef BLOCKRANGE_CLI_COLLECT_PROFILE_H
#define BLOCKRANGE_CLI_COLLECT_PROFILE_H

#include <stdbool.h>
#include <stdint.h>

#include "base/pairmap.h"
#include "collect/hybrid.h"
#include "input/events.h"
#include "resolve/elfbin.h"
#include "resolve/resolver.h"

#define PROFILE_EXTERNAL 1

/* One DSO's raw profile (NULL dso: the raw mode, every address is code). */
struct profile {
	struct dso *dso;
	struct pairmap ranges;
	struct pairmap branches;
	uint64_t samples;	/* samples that touched this DSO's code */
	bool has_base;		/* @base holds the DSO's text base (a profile
				 * read back from a .brprof) */
	uint64_t base;
	/*
	 * The samples with a call stack, for the context-sensitive profile
	 * (collect/unwind.h); filled by the collector, never by
	 * profile_apply().
	 */
	struct hybrid hybrid;
};

void profile_free(struct profile *prof);

/* Scratch of profile_apply(): one per entry of the longest stack. */
struct profile_kept {
	uint64_t src;
	uint64_t dst;
	bool src_code;
	bool dst_code;
	bool branch;		/* counts as a branch (see @exact_range) */
};

/*
 * llvm-profgen's rules for @prof on one sample's @nr entries @br (newest
 * first), each count weighted by @repeat.  @ends (2 per entry: source,
 * target, resolved) gives the ELF addresses; NULL in raw mode (the
 * addresses as they are, all code).  @kept: room for @nr.  With
 * @exact_range (struct ev_sample) only the range and the entering branch
 * count.  0, BR_ESYS out of memory, BR_EINPUT a count would pass 2^64 - 1.
 */
int profile_apply(struct profile *prof, const struct ev_branch *br,
		  size_t nr, uint64_t repeat,
		  const struct resolver_addr *ends, struct profile_kept *kept,
		  bool exact_range);

/* Whether the resolved end @e is code of @prof's DSO. */
bool profile_code_of(const struct profile *prof,
		     const struct resolver_addr *e);

#endif /* BLOCKRANGE_CLI_COLLECT_PROFILE_H */
