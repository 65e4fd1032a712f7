/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The CLI's one hash table: a pair of 64-bit keys (a, b) -> a 64-bit value
 * (a count for most of its users), open addressing with linear probing in
 * a power-of-two array kept at most half full, hashed with br_hash2() of
 * common/hash.h.  Single keys use b = 0.
 *
 * Iterating the slots (i < cap, slots[i].used) visits the entries in no
 * particular order: whatever is printed from a table goes through
 * pairmap_sorted() or is a sum, so that no output depends on the hash.
 * Zero-initialise a table; pairmap_free() releases it.
 */
#ifndef BLOCKRANGE_CLI_BASE_PAIRMAP_H
#define BLOCKRANGE_CLI_BASE_PAIRMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pairmap {
	struct pairmap_slot {
		uint64_t a;
		uint64_t b;
		uint64_t count;		/* the value */
		bool used;
	} *slots;
	size_t cap;
	size_t nr;
};

/*
 * Add @count to the value of (a, b) (a new key starts at 0).  BR_OK,
 * BR_ESYS out of memory, or BR_EINPUT (nothing changed) when the sum would
 * not fit in 64 bits.
 */
int pairmap_add(struct pairmap *pm, uint64_t a, uint64_t b, uint64_t count);

/* The value of (a, b), 0 if absent. */
uint64_t pairmap_get(const struct pairmap *pm, uint64_t a, uint64_t b);

/*
 * The value of (a, b) to read and write in place, inserted as 0 if absent;
 * valid until the next insertion.  NULL out of memory.
 */
uint64_t *pairmap_ref(struct pairmap *pm, uint64_t a, uint64_t b);

/* The entries sorted by (a, b), in a new array (free() it); NULL: no memory. */
struct pairmap_slot *pairmap_sorted(const struct pairmap *pm);

/* pairmap_add() of every entry of @src to @dst: BR_OK, BR_ESYS, BR_EINPUT. */
int pairmap_merge(struct pairmap *dst, const struct pairmap *src);

void pairmap_free(struct pairmap *pm);

#endif /* BLOCKRANGE_CLI_BASE_PAIRMAP_H */
