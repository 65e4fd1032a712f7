/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libblockrange internals shared by the tree engine (blockrange.c), the
 * aggregate (agg.c), the batch engine (batch.c) and the common query layer
 * (query.c).  Not installed.
 */
#ifndef BLOCKRANGE_INTERNAL_H
#define BLOCKRANGE_INTERNAL_H

#include <stdint.h>

#include <blockrange/blockrange.h>

/* Ranges of the tree are carved from chunks growing up to CHUNK_MAX. */
struct chunk {
	struct chunk *next;
	size_t cap;
	size_t used;
	struct blockrange ranges[];
};

/*
 * Recent blocks of the tree engine: a direct-mapped cache from (start, end)
 * to the first and last range of the block's tiling, valid while gen equals
 * the context's generation, which every range insertion bumps.
 */
#define BLOCK_CACHE_BITS	7
#define BLOCK_CACHE_SIZE	(1u << BLOCK_CACHE_BITS)

struct block_cache_ent {
	uint64_t start;
	uint32_t len;		/* end - start */
	uint32_t gen;		/* 0: empty */
	struct blockrange *first;
	struct blockrange *last;
};

struct owner_rec {
	const void *key;
	uint64_t max_coverage;
};

/*
 * A range of a frozen context (32 bytes).  Values that do not fit in 32
 * bits (a range of 2^32 bytes or more, a counter of 2^32 or more) put the
 * whole range in the side table (struct frange_wide) and set FR_WIDE in
 * @owner.  is_target is entry > 0, is_branch is taken > 0 (every block of
 * an aggregate has a weight >= 1).
 */
struct frange {
	uint64_t start;
	uint32_t len;		/* end - start */
	uint32_t owner;		/* owner index | FR_WIDE */
	uint32_t coverage, entry, taken, pred;
};

#define FR_WIDE		0x80000000u
#define FR_OWNER_MASK	0x7fffffffu

struct frange_wide {
	uint64_t idx;		/* index of the range in frange[] */
	uint64_t end, coverage, entry, taken, pred;
};

struct blockrange_ctx {
	struct rb_root root;
	struct blockrange_allocator a;
	struct chunk *chunks;		/* newest (the one handed out) first */
	size_t next_cap;
	size_t nr_ranges;
	uint64_t nr_blocks;
	uint64_t nr_pred_known;
	uint64_t weight;		/* sum of the weights counted */
	size_t mem;

	/*
	 * Owners: records[0] is "no owner"; records[1..nr_owners] are keys in
	 * first-seen order.  hash[] is an open-addressing (linear probing)
	 * table of record indices, 0 = empty, at most half full.
	 * max_coverage is exact unless owner_max_stale (a range changed
	 * owner): then blockrange_owner_max() recomputes every maximum.
	 */
	struct owner_rec *owners;
	uint32_t nr_owners;
	uint32_t owners_cap;		/* records, slot 0 included */
	uint32_t *hash;
	uint32_t hash_cap;		/* power of two, or 0 */
	bool owner_max_stale;

	/* Frozen (batch engine) contexts: ranges in address order. */
	bool frozen;
	struct frange *fr;
	struct frange_wide *fw;
	size_t nr_fw;

	const void *last_owner;		/* the owner of the last counted block */
	uint32_t last_owner_idx;	/* and its record index (0: none yet) */
	uint32_t gen;			/* >= 1, bumped by each insertion */
	/* Last: frozen contexts are allocated without it. */
	struct block_cache_ent cache[BLOCK_CACHE_SIZE];
};

/* A frozen context, without the tree's block cache (blockrange.c). */
struct blockrange_ctx *br_ctx_new_frozen(const struct blockrange_allocator *allocator);
void *br_ctx_alloc(struct blockrange_ctx *ctx, size_t size);
void br_ctx_free(struct blockrange_ctx *ctx, void *p, size_t size);
extern const struct blockrange_allocator br_std_allocator;

/* Owner table (blockrange.c). */
uint32_t br_owner_lookup(const struct blockrange_ctx *ctx, const void *key);
int br_reserve_owners(struct blockrange_ctx *ctx, uint32_t more);
uint32_t br_insert_owner(struct blockrange_ctx *ctx, const void *key);
void br_refresh_owner_max(const struct blockrange_ctx *ctx);

/* Owner keys are compared as unsigned integers (ties of the owner rule). */
static inline int br_key_cmp(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;

	return x < y ? -1 : x > y;
}

/* Branch stacks (blockrange.c): what becomes of the block ending at br[i]. */
enum br_skip {
	BR_COUNT = 0,
	BR_SKIP_ABORT,
	BR_SKIP_IN_TX,
	BR_SKIP_ZERO,
	BR_SKIP_REVERSED,
};

enum br_skip br_stack_block(const struct blockrange_branch *br, size_t i,
			    uint64_t *start, uint64_t *end,
			    enum blockrange_pred *pred);

/*
 * @out = @st plus @repeat stacks like @br, and *@counted the weight they
 * count; -EOVERFLOW if a figure would not fit.
 */
int br_stack_stats(const struct blockrange_branch *br, size_t nr,
		   uint64_t repeat, const struct blockrange_stack_stats *st,
		   struct blockrange_stack_stats *out, uint64_t *counted);

static inline struct blockrange_fig br_fig(enum blockrange_fig_status status,
					   double value)
{
	struct blockrange_fig f = {
		status, status == BLOCKRANGE_FIG_OK ? value : 0
	};

	return f;
}

/* Frozen range @i as a value (batch.c). */
void br_frozen_get(const struct blockrange_ctx *ctx, size_t i,
		   struct blockrange_rec *rec);

/* Aggregate internals needed by the batch engine and the tree (agg.c). */
struct agg_ent {
	uint64_t start;
	uint64_t end;
	uint64_t count;		/* 0: empty slot */
	uint64_t op;		/* owner index << 2 | pred */
};

#define AGG_OCACHE	64

struct blockrange_agg {
	struct blockrange_allocator a;
	size_t mem;
	struct agg_ent *tab;
	size_t cap;			/* power of two, or 0 */
	size_t nr;			/* distinct blocks */
	uint64_t weight;		/* sum of the counts */
	/* Owner keys: keys[1..nr_owners]; ohash as in the context. */
	const void **keys;
	uint32_t nr_owners;
	uint32_t keys_cap;
	uint32_t *ohash;
	uint32_t ohash_cap;
	/* Recent owners: direct-mapped, key -> index (indices never change). */
	struct {
		const void *key;
		uint64_t idx;
	} ocache[AGG_OCACHE];
};

#endif /* BLOCKRANGE_INTERNAL_H */
