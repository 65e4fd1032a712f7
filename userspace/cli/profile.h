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
 */
#ifndef BLOCKRANGE_CLI_PROFILE_H
#define BLOCKRANGE_CLI_PROFILE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "elfbin.h"
#include "mapper.h"
#include "perfscript.h"

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

struct profile {
	const char *name;		/* input name, for messages */
	const struct eb_binary *bin;	/* NULL: every address is code */
	struct mapper *map;
	uint64_t base;			/* subtracted on output */
	const char *event;		/* keep only samples of this event */
	bool leading_ip_only;
	struct pairmap ranges;
	struct pairmap branches;
	unsigned long samples_used;
};

/* ps_callbacks.sample */
int profile_sample(void *arg, const struct ps_sample *s, char *err,
		   size_t errsz);
/* ps_callbacks.mmap for every reader that maps through a struct mapper */
int profile_mmap(void *arg, const struct ps_mmap *m, char *err, size_t errsz);
int profile_write(const struct profile *p, FILE *out);
void profile_free(struct profile *p);

#endif /* BLOCKRANGE_CLI_PROFILE_H */
