/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The raw (unsymbolized) profile of llvm-profgen --skip-symbolization, for
 * LBR samples without call stacks, computed with llvm-profgen's rules (see
 * README.md, "ranges"):
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
#ifndef BLOCKRANGE_CLI_PROFILE_H
#define BLOCKRANGE_CLI_PROFILE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "elfbin.h"
#include "events.h"
#include "session.h"

/* (a, b) -> count, open addressing. */
struct pairmap {
	struct pairmap_slot {
		uint64_t a;
		uint64_t b;
		uint64_t count;
		bool used;
	} *slots;
	size_t cap;
	size_t nr;
};

/*
 * Add @count to (a, b): 0, -1 out of memory, or -2 (nothing changed) if the
 * sum would not fit in 64 bits.
 */
int pairmap_add(struct pairmap *pm, uint64_t a, uint64_t b, uint64_t count);
void pairmap_free(struct pairmap *pm);
/* Count of (a, b), 0 if absent. */
uint64_t pairmap_get(const struct pairmap *pm, uint64_t a, uint64_t b);
/* Used slots sorted by (a, b); caller frees.  NULL if out of memory. */
struct pairmap_slot *pairmap_sorted(const struct pairmap *pm);

#define PROFILE_EXTERNAL 1

/* One DSO's raw profile (NULL dso: the raw mode, every address is code). */
struct profile {
	struct dso *dso;
	struct pairmap ranges;
	struct pairmap branches;
	uint64_t samples;	/* samples that touched this DSO's code */
};

struct profiler_opts {
	const char *event;		/* keep only samples of this event */
	bool leading_ip_only;
	bool raw;			/* no binary: every address is code */
};

struct profiler {
	struct session s;		/* first: the sink's arg is both */
	struct profiler_opts o;
	struct profile raw;		/* raw mode */
	struct profile **per;		/* by dso->idx */
	size_t nr_per;
	struct session_addr *ends;
	size_t ends_cap;
	struct kept *kept;
	size_t kept_cap;
	struct dso **touched;
	size_t touched_cap;
	uint64_t samples_used;
};

/* 0, or an exit status after a message (see session_init()). */
int profiler_init(struct profiler *p, const char *name,
		  const struct session_opts *so,
		  const struct profiler_opts *o);
void profiler_free(struct profiler *p);
void profiler_sink(struct profiler *p, struct ev_sink *sink);

/* The profile of @d (NULL: none), or the raw one. */
const struct profile *profiler_get(const struct profiler *p,
				   const struct dso *d);
/* Number of DSOs with a profile. */
size_t profiler_nr(const struct profiler *p);
/* The i-th profile in DSO order. */
const struct profile *profiler_at(const struct profiler *p, size_t i);

/*
 * Print @prof in llvm-profgen's text: addresses minus @base (external ones
 * as 1 - base).  0 or -1 (out of memory or an output error).
 */
int profile_write(const struct profile *prof, uint64_t base, FILE *out);

#endif /* BLOCKRANGE_CLI_PROFILE_H */
