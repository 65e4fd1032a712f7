// SPDX-License-Identifier: GPL-2.0
/*
 * Aggregates: distinct blocks with counts (see blockrange.h).
 *
 * An open-addressing hash table with linear probing of 32-byte slots
 * (start, end, count, owner index << 2 | prediction), count 0 marking an
 * empty slot, kept at most 3/4 full.  Owner keys get small indices from a
 * second table, so that a slot holds an index, not a pointer.  As in the
 * context, every call makes all the allocations it may need before its
 * first change, so errors need no rollback.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <blockrange/blockrange.h>

#include "internal.h"

#define AGG_MIN_CAP	64
#define OWNERS_MIN	8

/*
 * Prefetch distance of blockrange_agg_add_blocks(), in blocks, for tables
 * larger than AGG_CACHED_BYTES.
 */
#define AGG_AHEAD		8
#define AGG_CACHED_BYTES	(256 * 1024)

static void *agg_alloc(struct blockrange_agg *agg, size_t size)
{
	void *p = agg->a.alloc(size, agg->a.arg);

	if (p)
		agg->mem += size;
	return p;
}

static void agg_free_mem(struct blockrange_agg *agg, void *p, size_t size)
{
	if (!p)
		return;
	agg->mem -= size;
	agg->a.free(p, size, agg->a.arg);
}

struct blockrange_agg *blockrange_agg_new(const struct blockrange_allocator *allocator)
{
	struct blockrange_allocator a = br_std_allocator;
	struct blockrange_agg *agg;

	if (allocator)
		a = *allocator;
	agg = a.alloc(sizeof(*agg), a.arg);
	if (!agg)
		return NULL;
	memset(agg, 0, sizeof(*agg));
	agg->a = a;
	agg->mem = sizeof(*agg);
	return agg;
}

void blockrange_agg_free(struct blockrange_agg *agg)
{
	if (!agg)
		return;
	agg_free_mem(agg, agg->tab, agg->cap * sizeof(agg->tab[0]));
	agg_free_mem(agg, agg->keys, agg->keys_cap * sizeof(agg->keys[0]));
	agg_free_mem(agg, agg->ohash, agg->ohash_cap * sizeof(agg->ohash[0]));
	agg->a.free(agg, sizeof(*agg), agg->a.arg);
}

size_t blockrange_agg_nr_blocks(const struct blockrange_agg *agg)
{
	return agg->nr;
}

uint64_t blockrange_agg_weight(const struct blockrange_agg *agg)
{
	return agg->weight;
}

size_t blockrange_agg_mem(const struct blockrange_agg *agg)
{
	return agg->mem;
}

/* ---- owners ------------------------------------------------------------ */

static uint32_t key_hash(const void *key, uint32_t cap)
{
	uint64_t h = (uint64_t)(uintptr_t)key * 0x9e3779b97f4a7c15ull;

	return (uint32_t)(h >> 32) & (cap - 1);
}

/* Index of @key, 0 if absent or NULL. */
static uint32_t owner_find(const struct blockrange_agg *agg, const void *key)
{
	uint32_t i, idx;

	if (!key || !agg->ohash_cap)
		return 0;
	for (i = key_hash(key, agg->ohash_cap); (idx = agg->ohash[i]);
	     i = (i + 1) & (agg->ohash_cap - 1)) {
		if (agg->keys[idx] == key)
			return idx;
	}
	return 0;
}

static void ohash_put(uint32_t *h, uint32_t cap, const void *key, uint32_t idx)
{
	uint32_t i = key_hash(key, cap);

	while (h[i])
		i = (i + 1) & (cap - 1);
	h[i] = idx;
}

/* Room for @more new owners. */
static int owners_reserve(struct blockrange_agg *agg, uint64_t more)
{
	uint64_t need = (uint64_t)agg->nr_owners + 1 + more;
	uint64_t cap, hcap;
	const void **keys;
	uint32_t *h, i;

	if (need <= agg->keys_cap && 2 * (need - 1) <= agg->ohash_cap)
		return 0;
	/* Owner indices must fit the 31 bits a frozen range has for them. */
	if (need >= FR_OWNER_MASK / 2)
		return -ENOMEM;
	cap = agg->keys_cap ? agg->keys_cap : OWNERS_MIN;
	while (cap < need)
		cap *= 2;
	hcap = agg->ohash_cap ? agg->ohash_cap : 2 * OWNERS_MIN;
	while (hcap < 2 * (need - 1))
		hcap *= 2;
	keys = agg_alloc(agg, cap * sizeof(*keys));
	if (!keys)
		return -ENOMEM;
	h = agg_alloc(agg, hcap * sizeof(*h));
	if (!h) {
		agg_free_mem(agg, keys, cap * sizeof(*keys));
		return -ENOMEM;
	}
	memset(keys, 0, cap * sizeof(*keys));
	memset(h, 0, hcap * sizeof(*h));
	if (agg->keys)
		memcpy(keys, agg->keys, (agg->nr_owners + 1) * sizeof(*keys));
	for (i = 1; i <= agg->nr_owners; i++)
		ohash_put(h, (uint32_t)hcap, keys[i], i);
	agg_free_mem(agg, agg->keys, agg->keys_cap * sizeof(*keys));
	agg_free_mem(agg, agg->ohash, agg->ohash_cap * sizeof(*h));
	agg->keys = keys;
	agg->keys_cap = (uint32_t)cap;
	agg->ohash = h;
	agg->ohash_cap = (uint32_t)hcap;
	return 0;
}

static inline size_t ocache_slot(const void *key)
{
	return ((uintptr_t)key * 0x9e3779b97f4a7c15ull) >> 58;
}

/* Index of @key, added if new; room was reserved.  0 for NULL. */
static inline uint32_t owner_get(struct blockrange_agg *agg, const void *key)
{
	size_t c = ocache_slot(key);
	uint32_t idx;

	if (!key)
		return 0;
	if (agg->ocache[c].key == key)
		return (uint32_t)agg->ocache[c].idx;
	idx = owner_find(agg, key);
	if (!idx) {
		idx = ++agg->nr_owners;
		agg->keys[idx] = key;
		ohash_put(agg->ohash, agg->ohash_cap, key, idx);
	}
	agg->ocache[c].key = key;
	agg->ocache[c].idx = idx;
	return idx;
}

/* Is @key (non-NULL) a new owner?  Read-only. */
static inline bool owner_is_new(const struct blockrange_agg *agg,
				const void *key)
{
	return key && agg->ocache[ocache_slot(key)].key != key &&
	       !owner_find(agg, key);
}

/* ---- the block table ---------------------------------------------------- */

static inline uint64_t blk_hash(uint64_t start, uint64_t end, uint64_t op)
{
	/* The end's low bits go high, the owner's to the middle. */
	uint64_t x = start ^ (end << 32 | end >> 32) ^ (op << 40 | op >> 24);

	return x * 0x9e3779b97f4a7c15ull;
}

static inline size_t slot_of(const struct blockrange_agg *agg, uint64_t h)
{
	/* The high bits of the product are the well-mixed ones. */
	return (size_t)((h ^ (h >> 29)) >> 20) & (agg->cap - 1);
}

/* Put a block known to be absent into @tab (no count checks). */
static void tab_put(struct agg_ent *tab, size_t cap, const struct agg_ent *e)
{
	uint64_t h = blk_hash(e->start, e->end, e->op);
	size_t i = (size_t)((h ^ (h >> 29)) >> 20) & (cap - 1);

	while (tab[i].count)
		i = (i + 1) & (cap - 1);
	tab[i] = *e;
}

/* Room for @more new blocks (the table at most 3/4 full). */
static int tab_reserve(struct blockrange_agg *agg, uint64_t more)
{
	uint64_t need = agg->nr + more;
	size_t cap, i;
	struct agg_ent *tab;

	if (need <= agg->cap / 4 * 3 && agg->cap)
		return 0;
	if (need > (SIZE_MAX / sizeof(*tab)) / 2)
		return -ENOMEM;
	cap = agg->cap ? agg->cap : AGG_MIN_CAP;
	while (need > cap / 4 * 3)
		cap *= 2;
	tab = agg_alloc(agg, cap * sizeof(*tab));
	if (!tab)
		return -ENOMEM;
	memset(tab, 0, cap * sizeof(*tab));
	for (i = 0; i < agg->cap; i++) {
		const struct agg_ent *e = &agg->tab[i];

		/* The new slots are random: ask for them a few ahead. */
		if (i + AGG_AHEAD < agg->cap && e[AGG_AHEAD].count) {
			uint64_t h = blk_hash(e[AGG_AHEAD].start,
					      e[AGG_AHEAD].end, e[AGG_AHEAD].op);

			__builtin_prefetch(&tab[(size_t)((h ^ (h >> 29)) >> 20) &
						(cap - 1)], 1);
		}
		if (e->count)
			tab_put(tab, cap, e);
	}
	agg_free_mem(agg, agg->tab, agg->cap * sizeof(*tab));
	agg->tab = tab;
	agg->cap = cap;
	return 0;
}

/* Slot of the block, or of the empty slot where it would go. */
static inline struct agg_ent *tab_find(const struct blockrange_agg *agg,
				       uint64_t start, uint64_t end,
				       uint64_t op, uint64_t h)
{
	size_t i = slot_of(agg, h);

	for (;;) {
		struct agg_ent *e = &agg->tab[i];

		if (!e->count || (e->start == start && e->end == end &&
				  e->op == op))
			return e;
		i = (i + 1) & (agg->cap - 1);
	}
}

/* Count a block; room was checked; the caller adds @w to agg->weight. */
static inline void tab_count(struct blockrange_agg *agg, uint64_t start,
			     uint64_t end, uint64_t op, uint64_t h, uint64_t w)
{
	struct agg_ent *e = tab_find(agg, start, end, op, h);

	if (!e->count) {
		e->start = start;
		e->end = end;
		e->op = op;
		agg->nr++;
	}
	e->count += w;
}

static inline void tab_add(struct blockrange_agg *agg, uint64_t start,
			   uint64_t end, uint64_t op, uint64_t h, uint64_t w)
{
	tab_count(agg, start, end, op, h, w);
	agg->weight += w;
}

static bool block_ok(uint64_t start, uint64_t end, enum blockrange_pred pred,
		     uint64_t w)
{
	return start && start <= end && w &&
	       (unsigned)pred <= BLOCKRANGE_PRED_MISS;
}

int blockrange_agg_add(struct blockrange_agg *agg, uint64_t start,
		       uint64_t end, const void *owner,
		       enum blockrange_pred pred, uint64_t weight)
{
	uint64_t op;
	int err;

	if (!block_ok(start, end, pred, weight))
		return -EINVAL;
	if (weight > UINT64_MAX - agg->weight)
		return -EOVERFLOW;
	if (owner_is_new(agg, owner)) {
		err = owners_reserve(agg, 1);
		if (err)
			return err;
	}
	err = tab_reserve(agg, 1);
	if (err)
		return err;
	op = (uint64_t)owner_get(agg, owner) << 2 | pred;
	tab_add(agg, start, end, op, blk_hash(start, end, op), weight);
	return 0;
}

int blockrange_agg_add_blocks(struct blockrange_agg *agg,
			      const struct blockrange_block *b, size_t n)
{
	uint64_t sum = 0, new_owners = 0, h[AGG_AHEAD], op[AGG_AHEAD];
	const void *prev = NULL;
	size_t i;
	int err;

	for (i = 0; i < n; i++) {
		if (!block_ok(b[i].start, b[i].end, b[i].pred, b[i].count))
			return -EINVAL;
		if (b[i].count > UINT64_MAX - sum)
			return -EOVERFLOW;
		sum += b[i].count;
		if (b[i].owner != prev) {
			prev = b[i].owner;
			new_owners += owner_is_new(agg, prev);
		}
	}
	if (sum > UINT64_MAX - agg->weight)
		return -EOVERFLOW;
	err = owners_reserve(agg, new_owners);
	if (!err)
		err = tab_reserve(agg, n);
	if (err)
		return err;

	/* Nothing can fail from here on. */
	agg->weight += sum;
	if (agg->cap * sizeof(agg->tab[0]) <= AGG_CACHED_BYTES) {
		/* A table that stays in the cache: no prefetching. */
		for (i = 0; i < n; i++) {
			uint64_t o = (uint64_t)owner_get(agg, b[i].owner) << 2 |
				     b[i].pred;

			tab_count(agg, b[i].start, b[i].end, o,
				  blk_hash(b[i].start, b[i].end, o), b[i].count);
		}
		return 0;
	}
	for (i = 0; i < n + AGG_AHEAD; i++) {
		size_t k = i % AGG_AHEAD;

		if (i >= AGG_AHEAD) {
			const struct blockrange_block *x = &b[i - AGG_AHEAD];

			tab_count(agg, x->start, x->end, op[k], h[k],
				  x->count);
		}
		if (i < n) {
			op[k] = (uint64_t)owner_get(agg, b[i].owner) << 2 |
				b[i].pred;
			h[k] = blk_hash(b[i].start, b[i].end, op[k]);
			__builtin_prefetch(&agg->tab[slot_of(agg, h[k])], 1);
		}
	}
	return 0;
}

int blockrange_agg_add_stack(struct blockrange_agg *agg,
			     const struct blockrange_branch *br, size_t nr,
			     uint64_t repeat,
			     struct blockrange_stack_stats *stats)
{
	struct blockrange_stack_stats dummy = { 0 }, after;
	uint64_t counted, blocks = 0, new_owners = 0;
	size_t i;
	int err;

	if (!stats)
		stats = &dummy;
	if ((nr && !br) || !repeat)
		return -EINVAL;
	err = br_stack_stats(br, nr, repeat, stats, &after, &counted);
	if (err || counted > UINT64_MAX - agg->weight)
		return -EOVERFLOW;
	for (i = nr > 1 ? nr - 1 : 0; i-- > 0;) {
		uint64_t s, e;
		enum blockrange_pred p;

		if (br_stack_block(br, i, &s, &e, &p) != BR_COUNT)
			continue;
		blocks++;
		if (owner_is_new(agg, br[i + 1].to_owner))
			new_owners++;
	}
	err = owners_reserve(agg, new_owners);
	if (!err)
		err = tab_reserve(agg, blocks);
	if (err)
		return err;

	/* Nothing can fail from here on. */
	for (i = nr > 1 ? nr - 1 : 0; i-- > 0;) {
		uint64_t s, e, op;
		enum blockrange_pred p;

		if (br_stack_block(br, i, &s, &e, &p) != BR_COUNT)
			continue;
		op = (uint64_t)owner_get(agg, br[i + 1].to_owner) << 2 | p;
		tab_add(agg, s, e, op, blk_hash(s, e, op), repeat);
	}
	*stats = after;
	return 0;
}

int blockrange_agg_merge(struct blockrange_agg *dst,
			 const struct blockrange_agg *src)
{
	uint64_t new_blocks = 0, new_owners = 0;
	size_t i;
	int err;

	if (src->weight > UINT64_MAX - dst->weight)
		return -EOVERFLOW;
	if (src == dst) {
		for (i = 0; i < dst->cap; i++)
			dst->tab[i].count *= 2;
		dst->weight *= 2;
		return 0;
	}
	for (i = 1; i <= src->nr_owners; i++)
		new_owners += !owner_find(dst, src->keys[i]);
	err = owners_reserve(dst, new_owners);
	if (err)
		return err;
	/* Exactly the blocks @dst lacks, so that its table grows no more. */
	for (i = 0; i < src->cap; i++) {
		const struct agg_ent *e = &src->tab[i];
		const void *key = src->keys ? src->keys[e->op >> 2] : NULL;
		uint32_t o;

		if (!e->count)
			continue;
		o = owner_find(dst, key);
		if (key && !o) {
			new_blocks++;	/* a new owner: a new block */
			continue;
		}
		if (!dst->cap) {
			new_blocks++;
			continue;
		}
		{
			uint64_t op = (uint64_t)o << 2 | (e->op & 3);
			const struct agg_ent *d =
				tab_find(dst, e->start, e->end, op,
					 blk_hash(e->start, e->end, op));

			new_blocks += !d->count;
		}
	}
	err = tab_reserve(dst, new_blocks);
	if (err)
		return err;

	/* Nothing can fail from here on. */
	for (i = 0; i < src->cap; i++) {
		const struct agg_ent *e = &src->tab[i];
		const void *key;
		uint64_t op;

		if (!e->count)
			continue;
		key = src->keys ? src->keys[e->op >> 2] : NULL;
		op = (uint64_t)owner_get(dst, key) << 2 | (e->op & 3);
		tab_add(dst, e->start, e->end, op,
			blk_hash(e->start, e->end, op), e->count);
	}
	return 0;
}

bool blockrange_agg_next(const struct blockrange_agg *agg, size_t *pos,
			 struct blockrange_block *b)
{
	size_t i;

	for (i = *pos; i < agg->cap; i++) {
		const struct agg_ent *e = &agg->tab[i];

		if (!e->count)
			continue;
		b->start = e->start;
		b->end = e->end;
		b->owner = agg->keys ? agg->keys[e->op >> 2] : NULL;
		b->pred = (enum blockrange_pred)(e->op & 3);
		b->count = e->count;
		*pos = i + 1;
		return true;
	}
	*pos = agg->cap;
	return false;
}

/* ---- feeding the tree --------------------------------------------------- */

int blockrange_count_agg(struct blockrange_ctx *ctx,
			 const struct blockrange_agg *agg)
{
	struct blockrange_block b;
	size_t pos = 0;
	int err;

	if (blockrange_ctx_frozen(ctx))
		return -EPERM;
	if (agg->weight > UINT64_MAX - blockrange_ctx_weight(ctx))
		return -EOVERFLOW;
	while (blockrange_agg_next(agg, &pos, &b)) {
		err = blockrange_count_block_n(ctx, b.start, b.end, b.owner,
					       b.pred, b.count);
		if (err)
			return err;
	}
	return 0;
}
