/* SPDX-License-Identifier: GPL-2.0 */
/*
 * BOLT's profile of one DSO, aggregated from branch stacks as perf2bolt
 * aggregates them (output/bolt.h writes it in perf2bolt's pre-aggregated
 * form):
 *  - taken branches: every entry with at least one end in the DSO, the
 *    other end BOLT_EXTERNAL when it is outside; with how many were
 *    mispredicted;
 *  - fall-through traces [older.to, newer.from] of consecutive entries
 *    (older, newer) with both ends in the DSO, split by whether the branch
 *    that entered the trace (older.from) came from the function the trace
 *    starts in (dso_sym_at()).
 * Every count is weighted by the sample's repeat count.
 */
#ifndef BLOCKRANGE_CLI_COLLECT_BOLT_H
#define BLOCKRANGE_CLI_COLLECT_BOLT_H

#include "base/pairmap.h"
#include "input/events.h"
#include "resolve/resolver.h"

#define BOLT_EXTERNAL 0

struct bolt_dso {
	struct pairmap br;		/* (from, to) -> taken */
	struct pairmap br_miss;		/* (from, to) -> mispredicted */
	struct pairmap ft;		/* (start, end) -> entered from inside */
	struct pairmap ft_ext;		/* entered from elsewhere */
};

void bolt_dso_free(struct bolt_dso *bd);

/*
 * The sample @smp for @d's profile @bd; @ends (2 per entry: source,
 * target) are its entries resolved.  0, BR_ESYS out of memory, BR_EINPUT
 * a count would pass 2^64 - 1.
 */
int bolt_apply(struct bolt_dso *bd, const struct dso *d,
	       const struct ev_sample *smp, const struct resolver_addr *ends);

/* Add @src to @dst: 0, BR_ESYS out of memory, BR_EINPUT a sum overflows. */
int bolt_dso_merge(struct bolt_dso *dst, const struct bolt_dso *src);

#endif /* BLOCKRANGE_CLI_COLLECT_BOLT_H */
