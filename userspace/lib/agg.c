// SPDX-License-Identifier: GPL-2.0
/*
 * Aggregates: blocks with counts (see blockrange.h), and the choice of how
 * to aggregate them, made per chunk of blocks from the blocks themselves.
 *
 * Two places hold blocks:
 *  - a hash table (linear probing, 32-byte slots, at most 3/4 full) that
 *    sums the counts of a block seen again.  It is worth its cost where
 *    blocks repeat within a working set that fits in the cache, so it
 *    takes new blocks only up to tune.hash_max / 2 of them.  A batch of
 *    blocks all in the table finds their slots through hints (the slot
 *    of the last block found with the same (start ^ end) & 255), without
 *    hashing or probing;
 *  - partitions (agg_part.c): 16-byte records appended by address with no
 *    per-block hashing, sorted and summed later in the cache.  They take
 *    what the table does not: new blocks once it is full, and every block
 *    of a chunk run in the append strategy.
 * A block that does not pack into a record's key (see struct agg_layout)
 * always goes to the table.
 *
 * The strategy: every block of a chunk (tune.chunk blocks) goes through the
 * table (AGG_HASH) or is appended (AGG_APPEND).  A hashed chunk in which
 * more than half the blocks were not found switches to appending; an
 * appended chunk, where one block in (tune.sample_mask + 1) still probes
 * the table, switches back when three quarters of those were found.  So a
 * stream of distinct blocks costs an append per block, a stream of a few
 * hot blocks a probe of a table that stays in the cache, and a stream that
 * changes its nature changes strategy within a chunk or two.
 *
 * Errors: every call makes all the allocations it may need before its first
 * change (room in the table and in the partitions for all its blocks,
 * whichever way each goes), so -ENOMEM and -EOVERFLOW need no rollback.
 */
#include <errno.h>
#include <string.h>

#include "common/hash.h"
#include "internal.h"

#define AGG_MIN_CAP	64

/* Batches up to this size reserve by bounds instead of counting. */
#define SMALL_BATCH	AGG_CHUNK_RECS

_Static_assert(sizeof(size_t) >= 8, "iteration positions need 64 bits");

struct agg_tuning agg_tuning_default(void)
{
	struct agg_tuning t = {
		.force = -1,
		.chunk = 4096,
		.sample_mask = 15,
		.hash_max = (size_t)1 << 15,
		.part_min = 2 * AGG_CHUNK_RECS,
		/* 2 MiB slabs: huge pages with the default allocator */
		.slab_chunks = BR_HUGE_MIN / (AGG_CHUNK_RECS *
					      sizeof(struct arec)),
	};

	return t;
}

void agg_tune(struct blockrange_agg *agg, const struct agg_tuning *t)
{
	agg->tune = *t;
	agg->left = t->chunk;
	if (t->force >= 0)
		agg->mode = (enum agg_mode)t->force;
}

void agg_stats(const struct blockrange_agg *agg, struct agg_stats *st)
{
	unsigned i;

	*st = agg->stats;
	st->hash_blocks = agg->nr;
	st->part_records = 0;
	for (i = 0; agg->parts && i < AGG_NPART; i++)
		st->part_records += agg->parts[i].n;
}

/* Every hint to hint_none (see blockrange_agg.hint). */
static void hints_reset(struct blockrange_agg *agg)
{
	size_t i;

	agg->hint_none = (struct agg_ent){ 0, UINT64_MAX, 0, UINT64_MAX };
	for (i = 0; i < AGG_HINTS; i++)
		agg->hint[i] = &agg->hint_none;
}

struct blockrange_agg *blockrange_agg_new(const struct blockrange_allocator *allocator)
{
	struct br_mem m;
	struct blockrange_agg *agg;

	br_mem_init(&m, allocator);
	agg = br_alloc(&m, sizeof(*agg));
	if (!agg)
		return NULL;
	memset(agg, 0, sizeof(*agg));
	agg->m = m;
	agg->tune = agg_tuning_default();
	agg->left = agg->tune.chunk;
	hints_reset(agg);
	atomic_init(&agg->state, AGG_CLEAN);
	return agg;
}

void blockrange_agg_free(struct blockrange_agg *agg)
{
	struct br_mem m;

	if (!agg)
		return;
	agg_part_free(agg);
	br_free(&agg->m, agg->tab, agg->cap * sizeof(agg->tab[0]));
	br_owners_free(&agg->owners, &agg->m);
	m = agg->m;
	br_free(&m, agg, sizeof(*agg));
}

static void agg_settle(const struct blockrange_agg *agg);

size_t blockrange_agg_nr_blocks(const struct blockrange_agg *agg)
{
	size_t n;
	unsigned i;

	agg_settle(agg);
	n = agg->nr;
	for (i = 0; agg->parts && i < AGG_NPART; i++)
		n += agg->parts[i].n;
	return n;
}

uint64_t blockrange_agg_weight(const struct blockrange_agg *agg)
{
	return agg->weight;
}

size_t blockrange_agg_mem(const struct blockrange_agg *agg)
{
	return agg->m.used;
}

/* ---- owners -------------------------------------------------------------- */

/* Owners change every few blocks: the cache's hash is one multiplication. */
static inline size_t ocache_slot(const void *key)
{
	return ((uint64_t)(uintptr_t)key * BR_HASH_K) >> 58;
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
	idx = br_owners_find(&agg->owners, key);
	if (!idx)
		idx = br_owners_insert(&agg->owners, key);
	agg->ocache[c].key = key;
	agg->ocache[c].idx = idx;
	return idx;
}

/* The key of owner index @idx (0: NULL). */
static const void *owner_key(const struct blockrange_agg *agg, uint64_t idx)
{
	return idx ? agg->owners.rec[idx].key : NULL;
}

/* Is @key (non-NULL) a new owner?  Read-only. */
static inline bool owner_is_new(const struct blockrange_agg *agg,
				const void *key)
{
	return key && agg->ocache[ocache_slot(key)].key != key &&
	       !br_owners_find(&agg->owners, key);
}

/* Owner index of @key, with the previous block's as a shortcut. */
struct owner_memo {
	const void *key;
	uint32_t idx;
};

static inline uint64_t op_of(struct blockrange_agg *agg, struct owner_memo *om,
			     const void *key, enum blockrange_pred pred)
{
	if (key != om->key) {
		om->key = key;
		om->idx = owner_get(agg, key);
	}
	return (uint64_t)om->idx << 2 | pred;
}

/* ---- the hash table ------------------------------------------------------ */

/*
 * The home slot of a block in a table of @mask + 1 slots (a power of two
 * up to 2^32): bits 32 and up of one multiplication by the shared
 * constant (the table is probed for every block of a repeating stream: its
 * hash must be cheap).  The end's low bits go high, the owner's higher
 * still; what shifts out is the high bits, which blocks of one program
 * share anyway.
 */
static inline size_t blk_slot(uint64_t start, uint64_t end, uint64_t op,
			      size_t mask)
{
	return (size_t)(((start ^ end << 24 ^ op << 50) * BR_HASH_K) >> 32) &
	       mask;
}

/*
 * The slot of the block in @tab (@mask + 1 slots), or the empty slot
 * (start 0: blocks start at 1 or above) where it would go.  The loops over
 * a batch pass the table's base and mask from locals.
 */
static inline struct agg_ent *tab_probe(struct agg_ent *tab, size_t mask,
					uint64_t start, uint64_t end,
					uint64_t op)
{
	size_t i = blk_slot(start, end, op, mask);

	for (;; i = (i + 1) & mask) {
		struct agg_ent *e = &tab[i];

		if (e->start == start ? e->end == end && e->op == op :
		    !e->start)
			return e;
	}
}

static inline struct agg_ent *tab_find(const struct blockrange_agg *agg,
				       uint64_t start, uint64_t end,
				       uint64_t op)
{
	return tab_probe(agg->tab, agg->cap - 1, start, end, op);
}

/* Put a new block into @x, an empty slot of the table. */
static inline void tab_fill(struct blockrange_agg *agg, struct agg_ent *x,
			    uint64_t start, uint64_t end, uint64_t op,
			    uint64_t w)
{
	x->start = start;
	x->end = end;
	x->op = op;
	x->count = w;
	agg->nr++;
}

/* Put a block known to be absent into @tab. */
static void tab_put(struct agg_ent *tab, size_t cap, const struct agg_ent *e)
{
	size_t i = blk_slot(e->start, e->end, e->op, cap - 1);

	while (tab[i].start)
		i = (i + 1) & (cap - 1);
	tab[i] = *e;
}

/* Room for @more new blocks in the table (at most 3/4 full). */
static int tab_reserve(struct blockrange_agg *agg, uint64_t more)
{
	uint64_t need = agg->nr + more;
	size_t cap, i;
	struct agg_ent *tab;

	if (agg->cap && need <= agg->cap / 4 * 3)
		return 0;
	if (need > (SIZE_MAX / sizeof(*tab)) / 2)
		return -ENOMEM;
	cap = agg->cap ? agg->cap : AGG_MIN_CAP;
	while (need > cap / 4 * 3)
		cap *= 2;
	tab = br_alloc(&agg->m, cap * sizeof(*tab));
	if (!tab)
		return -ENOMEM;
	memset(tab, 0, cap * sizeof(*tab));
	for (i = 0; i < agg->cap; i++)
		if (agg->tab[i].start)
			tab_put(tab, cap, &agg->tab[i]);
	br_free(&agg->m, agg->tab, agg->cap * sizeof(*tab));
	agg->tab = tab;
	agg->cap = cap;
	hints_reset(agg);
	return 0;
}

/*
 * Some slots were emptied (zeroed): put every block back where a probe from
 * its home slot finds it.  Starting after an empty slot, no run of full
 * slots wraps around the start of the walk.
 */
static void tab_repack(struct blockrange_agg *agg)
{
	size_t mask = agg->cap - 1, s = 0, k;

	while (agg->tab[s].start)
		s++;
	for (k = 1; k <= agg->cap; k++) {
		struct agg_ent *e = &agg->tab[(s + k) & mask], x;

		if (!e->start)
			continue;
		x = *e;
		memset(e, 0, sizeof(*e));
		tab_put(agg->tab, agg->cap, &x);
	}
	hints_reset(agg);
}

/* ---- settling ------------------------------------------------------------ */

/*
 * Sort every partition and move the count of any block that is also in the
 * table into its partition's record.  Cannot fail: the scratch the sorts
 * use was reserved with the room of the blocks (agg_part_room()).
 */
static void settle(struct blockrange_agg *agg)
{
	bool moved = false;
	struct arec *r;
	size_t i;

	agg_part_sort_all(agg);
	for (i = 0; i < agg->cap; i++) {
		struct agg_ent *e = &agg->tab[i];

		if (!e->start)
			continue;
		r = agg_part_find(agg, e->start, e->end, e->op);
		if (!r)
			continue;
		r->count += e->count;
		memset(e, 0, sizeof(*e));
		agg->nr--;
		moved = true;
	}
	if (moved)
		tab_repack(agg);
}

static void agg_settle(const struct blockrange_agg *cagg)
{
	/* A cache of the multiset's canonical form, hence the cast. */
	struct blockrange_agg *agg = (struct blockrange_agg *)cagg;
	int dirty = AGG_DIRTY;

	if (atomic_load_explicit(&agg->state, memory_order_acquire) ==
	    AGG_CLEAN)
		return;
	/* Only aggregates with partitions are ever dirty. */
	if (atomic_compare_exchange_strong_explicit(&agg->state, &dirty,
						    AGG_SETTLING,
						    memory_order_acquire,
						    memory_order_acquire)) {
		settle(agg);
		atomic_store_explicit(&agg->state, AGG_CLEAN,
				      memory_order_release);
		return;
	}
	/* Another reader settles it: wait for it to finish. */
	while (atomic_load_explicit(&agg->state, memory_order_acquire) !=
	       AGG_CLEAN)
		;
}

/* ---- one block ----------------------------------------------------------- */

static inline size_t hash_limit(const struct blockrange_agg *agg)
{
	return agg->tune.hash_max / 2;
}

static inline void put_new(struct blockrange_agg *agg, struct agg_ent *x,
			   uint64_t start, uint64_t end, uint64_t op,
			   uint64_t w)
{
	const struct agg_layout *l = &agg->lay;

	if (agg->parts && agg->nr >= hash_limit(agg) &&
	    agg_packs(l, start, end, op)) {
		agg_append(agg, agg_key(l, start, end, op),
			   agg_part_of(l, start - l->kb), w);
		return;
	}
	tab_fill(agg, x, start, end, op, w);
}

/* Not in the table: taken in, or appended once it is full (out of line). */
static __attribute__((noinline)) void
put_missed(struct blockrange_agg *agg, struct agg_ent *x, uint64_t start,
	   uint64_t end, uint64_t op, uint64_t w)
{
	put_new(agg, x, start, end, op, w);
}

/* Through the table: found, taken in, or appended once it is full. */
static inline void put_probe(struct blockrange_agg *agg, uint64_t start,
			     uint64_t end, uint64_t op, uint64_t w)
{
	struct agg_ent *x = tab_find(agg, start, end, op);

	agg->seen++;
	if (x->start) {
		x->count += w;
		agg->hits++;
		return;
	}
	put_missed(agg, x, start, end, op, w);
}

/*
 * The hashing strategy's loop over @b[0..n): the table's base and mask and
 * the hits in locals (nothing a probe writes can move them).
 */
static void hash_run(struct blockrange_agg *agg,
		     const struct blockrange_block *b, size_t n,
		     struct owner_memo *om)
{
	struct agg_ent *tab = agg->tab;
	size_t mask = agg->cap - 1, k;
	uint32_t hits = 0;

	for (k = 0; k < n; k++) {
		uint64_t s = b[k].start, e = b[k].end;
		uint64_t op = op_of(agg, om, b[k].owner, b[k].pred);
		struct agg_ent *x = tab_probe(tab, mask, s, e, op);

		if (x->start) {
			x->count += b[k].count;
			hits++;
		} else {
			put_missed(agg, x, s, e, op, b[k].count);
		}
	}
	agg->seen += (uint32_t)n;
	agg->hits += hits;
}

/* Appended, unless it does not pack. */
static inline void put_append(struct blockrange_agg *agg, uint64_t start,
			      uint64_t end, uint64_t op, uint64_t w)
{
	const struct agg_layout *l = &agg->lay;
	struct agg_ent *x;

	if (agg_packs(l, start, end, op)) {
		agg_append(agg, agg_key(l, start, end, op),
			   agg_part_of(l, start - l->kb), w);
		return;
	}
	x = tab_find(agg, start, end, op);
	if (x->start) {
		x->count += w;
		return;
	}
	tab_fill(agg, x, start, end, op, w);
}

/*
 * Is this block in the sample that still probes the table while appending?
 * One in (sample_mask + 1), at positions drawn from a linear congruential
 * sequence, so that the sample's hit rate estimates what hashing would
 * find (a fixed period could line up with a stream's own).
 */
static inline bool sampled(struct blockrange_agg *agg)
{
	agg->tick = agg->tick * BR_HASH_K + 1;
	return !((agg->tick >> 48) & agg->tune.sample_mask);
}

static inline void put(struct blockrange_agg *agg, uint64_t start,
		       uint64_t end, uint64_t op, uint64_t w)
{
	if (agg->mode == AGG_HASH || sampled(agg))
		put_probe(agg, start, end, op, w);
	else
		put_append(agg, start, end, op, w);
}

/* ---- the strategy and room ----------------------------------------------- */

/*
 * The end of a chunk: keep the strategy or switch.  A hashed chunk that
 * missed more than half its blocks goes to appending, and stays there for
 * a number of chunks that doubles each time hashing fails again (up to
 * BACKOFF_MAX), so that a working set larger than the table, whose sample
 * hits but whose whole does not, does not flip the strategy every chunk.
 */
#define BACKOFF_MAX	64

static void decide(struct blockrange_agg *agg)
{
	bool hash = agg->mode == AGG_HASH;
	enum agg_mode next = agg->mode;

	if (hash)
		agg->stats.chunks_hash++;
	else
		agg->stats.chunks_append++;
	if (hash && !agg->no_layout && agg->seen - agg->hits > agg->seen / 2) {
		next = AGG_APPEND;
		agg->backoff = agg->backoff ? 2 * agg->backoff : 1;
		if (agg->backoff > BACKOFF_MAX)
			agg->backoff = BACKOFF_MAX;
		agg->wait = agg->backoff;
	} else if (hash) {
		agg->backoff = 0;
	} else if (agg->wait) {
		agg->wait--;
	} else if (4 * (uint64_t)agg->hits > 3 * (uint64_t)agg->seen) {
		next = AGG_HASH;
	}
	if (agg->tune.force >= 0)
		next = (enum agg_mode)agg->tune.force;
	if (agg->no_layout)
		next = AGG_HASH;
	if (next != agg->mode)
		agg->stats.switches++;
	agg->mode = next;
	agg->left = agg->tune.chunk;
	agg->seen = agg->hits = 0;
}

/*
 * What a batch of blocks needs, counted when it is larger than SMALL_BATCH
 * (smaller ones reserve by bounds): the blocks that may go to the table
 * because they do not pack, and per partition those that may be appended.
 */
struct agg_plan {
	size_t n;
	bool counted;
	size_t misfits;
	size_t per_part[AGG_NPART];
};

static void plan_add(struct agg_plan *pl, const struct agg_layout *l,
		     bool owners_fit, uint64_t start, uint64_t end, bool owned)
{
	if (start < l->kb || start - l->kb > l->max_off ||
	    end - start > l->max_len) {
		pl->misfits++;
		return;
	}
	pl->per_part[agg_part_of(l, start - l->kb)]++;
	/* A new owner's index may not pack: either way then. */
	if (owned && !owners_fit)
		pl->misfits++;
}

/* Can every owner index after @more new owners pack into a key? */
static bool owners_fit(const struct blockrange_agg *agg, uint64_t more)
{
	return ((uint64_t)agg->owners.nr + more) << 2 <= agg->lay.max_op - 3;
}

/* Adds the blocks of a batch to a span (for the layout). */
typedef void span_fn(const void *batch, struct agg_span *s);

/*
 * Choose the layout if partitions may be needed for @n more blocks: in the
 * append strategy, when the table may fill up, or when a chunk ends within
 * a large batch.  The layout covers the table's blocks and the batch's
 * (@fn(@batch) adds them).
 */
static int need_parts(struct blockrange_agg *agg, size_t n, span_fn *fn,
		      const void *batch)
{
	struct agg_span s = AGG_SPAN_EMPTY;
	int err;

	if (agg->parts || agg->no_layout)
		return 0;
	if (agg->mode == AGG_HASH && agg->nr + n <= hash_limit(agg) &&
	    (n <= SMALL_BATCH || (int64_t)n < agg->left))
		return 0;
	fn(batch, &s);
	if (agg_layout_choose(agg->tab, agg->cap, &s, agg->owners.nr,
			      &agg->lay)) {
		/* Nothing packs: the table takes every block, as it can. */
		agg->no_layout = true;
		agg->mode = AGG_HASH;
		return 0;
	}
	err = agg_part_init(agg);
	if (err)
		memset(&agg->lay, 0, sizeof(agg->lay));
	return err;
}

/*
 * Room for @n more blocks whichever way each goes, @new_owners owners among
 * them; @pl counted (for large batches) or NULL.
 */
static int reserve(struct blockrange_agg *agg, size_t n, uint64_t new_owners,
		   const struct agg_plan *pl)
{
	size_t to_table = n;
	int err;

	err = br_owners_reserve(&agg->owners, &agg->m, new_owners);
	if (err)
		return err;
	if (agg->parts) {
		size_t lim = hash_limit(agg);

		/* New packable blocks enter the table only up to its limit. */
		to_table = agg->nr < lim ? lim - agg->nr : 0;
		if (to_table > n)
			to_table = n;
		to_table += pl ? pl->misfits : n;
		if (to_table > n)
			to_table = n;
	}
	if (agg->no_layout || !agg->parts)
		to_table = n;
	err = tab_reserve(agg, to_table);
	if (!err && agg->parts)
		err = agg_part_room(agg, n, pl ? pl->per_part : NULL);
	agg->room.nr_max = agg->nr + to_table;
	agg->room.owners_max = agg->owners.nr + new_owners;
	return err;
}

/*
 * The end of a batch: did it stay within what reserve() promised?  The
 * partitions' chunks are checked as they are taken (agg_part_chunk_full()).
 */
static void room_check(struct blockrange_agg *agg)
{
	if (agg->nr > agg->room.nr_max ||
	    agg->owners.nr > agg->room.owners_max)
		agg->stats.room_overruns++;
}

/*
 * Start a batch of @n blocks (@fn(@batch) adds their span): a decision that
 * is due, the layout if partitions may be needed.  Then the caller counts a
 * large batch (plan_start(), plan_add()) and calls reserve().
 */
static int begin(struct blockrange_agg *agg, size_t n, span_fn *fn,
		 const void *batch)
{
	if (agg->left <= 0)
		decide(agg);
	return need_parts(agg, n, fn, batch);
}

/* Span functions of the batches: an array of blocks, a stack, a source. */
struct blocks_batch {
	const struct blockrange_block *b;
	size_t n;
};

static void blocks_span(const void *batch, struct agg_span *s)
{
	const struct blocks_batch *bb = batch;
	size_t i;

	for (i = 0; i < bb->n; i++)
		agg_span_add(s, bb->b[i].start, bb->b[i].end);
}

struct stack_batch {
	const struct blockrange_branch *br;
	size_t nr;
};

static void stack_span(const void *batch, struct agg_span *s)
{
	const struct stack_batch *sb = batch;
	enum blockrange_pred p;
	uint64_t st, e;
	size_t i;

	for (i = sb->nr > 1 ? sb->nr - 1 : 0; i-- > 0;)
		if (br_stack_block(sb->br, i, &st, &e, &p) == BR_COUNT)
			agg_span_add(s, st, e);
}

/* Does a batch of @n blocks need counting (plan_add() for each block)? */
static bool plan_start(const struct blockrange_agg *agg, struct agg_plan *pl,
		       size_t n)
{
	if (!agg->parts || n <= SMALL_BATCH)
		return false;
	memset(pl, 0, sizeof(*pl));
	pl->n = n;
	pl->counted = true;
	return true;
}

static void mark_dirty(struct blockrange_agg *agg)
{
	if (agg->parts)
		atomic_store_explicit(&agg->state, AGG_DIRTY,
				      memory_order_relaxed);
}

/* ---- adding -------------------------------------------------------------- */

static bool block_ok(uint64_t start, uint64_t end, enum blockrange_pred pred,
		     uint64_t w)
{
	return start && start <= end && w &&
	       (unsigned)pred <= BLOCKRANGE_PRED_MISS;
}

/*
 * Index of @key without adding it (0: NULL, or not there yet); an empty
 * cache slot holds NULL with index 0.
 */
static inline uint32_t owner_peek(const struct blockrange_agg *agg,
				  const void *key)
{
	size_t c = ocache_slot(key);

	if (agg->ocache[c].key == key)
		return (uint32_t)agg->ocache[c].idx;
	return br_owners_find(&agg->owners, key);
}

/*
 * One block: when hashing, a valid block already in the table is counted
 * here (the common case of a program's hot blocks); any other goes through
 * the batch paths.
 */
int blockrange_agg_add(struct blockrange_agg *agg, uint64_t start,
		       uint64_t end, const void *owner,
		       enum blockrange_pred pred, uint64_t weight)
{
	struct blockrange_block b = { start, end, owner, pred, weight };
	struct agg_ent *x;
	uint64_t idx;

	if (agg->mode == AGG_HASH && agg->left > 0 && agg->cap &&
	    start - 1 < end && weight &&
	    (unsigned)pred <= BLOCKRANGE_PRED_MISS &&
	    weight <= UINT64_MAX - agg->weight) {
		idx = owner_peek(agg, owner);
		x = owner && !idx ? NULL : tab_find(agg, start, end,
						    idx << 2 | pred);
		if (x && x->start) {
			x->count += weight;
			agg->weight += weight;
			agg->seen++;
			agg->hits++;
			agg->left--;
			return 0;
		}
	}
	return blockrange_agg_add_blocks(agg, &b, 1);
}

/*
 * Count @b[0..n) (valid, room reserved), a run per chunk: a large batch
 * decides at each chunk's end, a small one at the start of the next call.
 */
static void commit_blocks(struct blockrange_agg *agg,
			  const struct blockrange_block *b, size_t n)
{
	struct owner_memo om = { NULL, 0 };
	size_t i = 0, k, run;
	uint64_t op;

	while (i < n) {
		run = n - i;
		if (n > SMALL_BATCH && (int64_t)run > agg->left)
			run = (size_t)agg->left;
		if (agg->mode == AGG_HASH) {
			hash_run(agg, b + i, run, &om);
		} else {
			for (k = i; k < i + run; k++) {
				op = op_of(agg, &om, b[k].owner, b[k].pred);
				put(agg, b[k].start, b[k].end, op, b[k].count);
			}
		}
		agg->left -= (int64_t)run;
		i += run;
		if (n > SMALL_BATCH && agg->left <= 0)
			decide(agg);
	}
}

/* The first error of @b[0..n) in order: -EINVAL or -EOVERFLOW. */
static int blocks_error(const struct blockrange_block *b, size_t n)
{
	uint64_t sum = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!block_ok(b[i].start, b[i].end, b[i].pred, b[i].count))
			return -EINVAL;
		if (b[i].count > UINT64_MAX - sum)
			return -EOVERFLOW;
		sum += b[i].count;
	}
	return 0;
}

/* Any batch of blocks: validated, room reserved, then counted. */
static int add_general(struct blockrange_agg *agg,
		       const struct blockrange_block *b, size_t n)
{
	uint64_t sum = 0, new_owners = 0;
	const void *prev = NULL;
	struct agg_plan pl;
	bool counted, bad = false, ovf = false;
	size_t i;
	int err;

	/*
	 * One pass without early exits; the error, if any, in a second.  New
	 * owners: at most one per change of owner in a small batch (room for
	 * a few hundred is nothing), counted in a large one.
	 */
	for (i = 0; i < n; i++) {
		bad |= !b[i].start | (b[i].start > b[i].end) | !b[i].count |
		       ((unsigned)b[i].pred > BLOCKRANGE_PRED_MISS);
		ovf |= __builtin_add_overflow(sum, b[i].count, &sum);
		if (b[i].owner != prev) {
			prev = b[i].owner;
			new_owners += n <= SMALL_BATCH ? prev != NULL :
				      owner_is_new(agg, prev);
		}
	}
	if (bad || ovf)
		return blocks_error(b, n);
	if (sum > UINT64_MAX - agg->weight)
		return -EOVERFLOW;
	err = begin(agg, n, blocks_span, &(struct blocks_batch){ b, n });
	if (err)
		return err;
	counted = plan_start(agg, &pl, n);
	if (counted) {
		bool fit = owners_fit(agg, new_owners);

		for (i = 0; i < n; i++)
			plan_add(&pl, &agg->lay, fit, b[i].start, b[i].end,
				 b[i].owner != NULL);
	}
	err = reserve(agg, n, new_owners, counted ? &pl : NULL);
	if (err)
		return err;

	/* Nothing can fail from here on. */
	mark_dirty(agg);
	agg->weight += sum;
	commit_blocks(agg, b, n);
	room_check(agg);
	return 0;
}

/*
 * A small batch in the hashing strategy: one read-only pass validates the
 * blocks and finds the slot of those already in the table (for a repeating
 * stream, all of them); the second adds their counts, and takes the others
 * through the general path once their room is reserved.
 */
static int add_hashed(struct blockrange_agg *agg,
		      const struct blockrange_block *b, size_t n)
{
	struct agg_ent *slot[SMALL_BATCH], *tab = agg->tab;
	struct owner_memo om = { NULL, 0 };
	size_t mask = agg->cap - 1, k, missed = 0;
	uint64_t sum = 0, new_owners = 0;
	int err;

	for (k = 0; k < n; k++) {
		uint64_t s = b[k].start, e = b[k].end, op;
		struct agg_ent *x;

		/* s - 1 >= e: s is 0 or s > e. */
		if (s - 1 >= e || !b[k].count ||
		    (unsigned)b[k].pred > BLOCKRANGE_PRED_MISS ||
		    __builtin_add_overflow(sum, b[k].count, &sum))
			return blocks_error(b, n);
		if (b[k].owner != om.key) {
			om.key = b[k].owner;
			om.idx = owner_peek(agg, om.key);
			/* A new owner: no op matches (ops are < 2^33). */
			if (om.key && !om.idx) {
				om.idx = UINT32_MAX;
				new_owners++;
			}
		}
		op = (uint64_t)om.idx << 2 | b[k].pred;
		x = tab_probe(tab, mask, s, e, op);
		if (x->start) {
			slot[k] = x;
		} else {
			slot[k] = NULL;
			missed++;
		}
	}
	if (sum > UINT64_MAX - agg->weight)
		return -EOVERFLOW;
	if (missed) {
		err = begin(agg, missed, blocks_span,
			    &(struct blocks_batch){ b, n });
		if (!err)
			err = reserve(agg, missed, new_owners, NULL);
		if (err)
			return err;
		mark_dirty(agg);
		if (agg->tab != tab || agg->mode != AGG_HASH) {
			/* The table moved: find every block again. */
			agg->weight += sum;
			commit_blocks(agg, b, n);
			room_check(agg);
			return 0;
		}
	}

	/* Nothing can fail from here on. */
	agg->weight += sum;
	om.key = NULL;
	om.idx = 0;
	for (k = 0; k < n; k++) {
		if (slot[k]) {
			slot[k]->count += b[k].count;
			continue;
		}
		put_probe(agg, b[k].start, b[k].end,
			  op_of(agg, &om, b[k].owner, b[k].pred), b[k].count);
	}
	agg->seen += (uint32_t)(n - missed);
	agg->hits += (uint32_t)(n - missed);
	agg->left -= (int64_t)n;
	if (missed)
		room_check(agg);
	return 0;
}

/* The hint of a block (see blockrange_agg.hint). */
static inline size_t hint_of(uint64_t start, uint64_t end)
{
	return (size_t)(start ^ end) & (AGG_HINTS - 1);
}

/*
 * The slot of a block in the table, or NULL; the block's hint updated.
 * Out of line: the hint finds nearly every block of a repeating stream.
 */
static __attribute__((noinline)) struct agg_ent *
probe_hinted(struct blockrange_agg *agg, uint64_t start, uint64_t end,
	     uint64_t op)
{
	struct agg_ent *x;

	if (!start)	/* would probe forever */
		return NULL;
	x = tab_find(agg, start, end, op);
	if (!x->start)
		return NULL;
	agg->hint[hint_of(start, end)] = x;
	return x;
}

/* Take back the counts add_found() added for @b[0..n) (out of line). */
static __attribute__((noinline)) void
take_back(struct blockrange_agg *agg, const struct blockrange_block *b,
	  size_t n)
{
	size_t k;

	for (k = 0; k < n; k++) {
		uint64_t op = (uint64_t)owner_peek(agg, b[k].owner) << 2 |
			      b[k].pred;

		tab_find(agg, b[k].start, b[k].end, op)->count -= b[k].count;
	}
}

/*
 * The shortcut of a repeating stream: every block of the batch is already
 * in the table, so it is counted on the spot, its slot found through its
 * hint (through the table's probe when that misses).  A block that matches
 * a slot is a valid one (start >= 1, start <= end, a known prediction; a
 * hint is never an empty slot), so the loop checks nothing else, and once
 * at the end what a match does not: the predictions (one above 3 may have
 * matched another owner's block) and the counts (each at most 2^55, so
 * that the sum of a small batch cannot overflow, and that sum within what
 * the aggregate's weight has left).  If a block is not found or a check
 * fails, the counts added are taken back and the batch goes the other way
 * (1), which finds the error, if any.
 */
#define FOUND_COUNT_MAX	((uint64_t)1 << 55)

_Static_assert(SMALL_BATCH <= (uint64_t)1 << 8, "sums of small batches fit");

static int add_found(struct blockrange_agg *agg,
		     const struct blockrange_block *b, size_t n)
{
	const struct blockrange_block *p = b;
	const void *okey = NULL;
	uint64_t sum = 0, obase = 0, cbad = 0;
	unsigned pbad = 0;
	size_t left;

	for (left = n; left; left--, p++) {
		uint64_t s = p->start, e = p->end, c = p->count, op;
		struct agg_ent *x;

		if (p->owner != okey) {
			uint64_t idx = owner_peek(agg, p->owner);

			if (p->owner && !idx)
				break;
			okey = p->owner;
			obase = idx << 2;
		}
		/* A prediction above 3 may alias another owner's: undone. */
		pbad |= p->pred;
		op = obase | p->pred;
		x = agg->hint[hint_of(s, e)];
		if (x->start != s || x->end != e || x->op != op) {
			x = probe_hinted(agg, s, e, op);
			if (!x)
				break;
		}
		x->count += c;
		sum += c;
		cbad |= c - 1;
	}
	if (!left && pbad <= 3 && cbad < FOUND_COUNT_MAX &&
	    sum <= UINT64_MAX - agg->weight) {
		agg->weight += sum;
		agg->seen += (uint32_t)n;
		agg->hits += (uint32_t)n;
		agg->left -= (int64_t)n;
		return 0;
	}
	take_back(agg, b, (size_t)(p - b));
	return 1;
}

int blockrange_agg_add_blocks(struct blockrange_agg *agg,
			      const struct blockrange_block *b, size_t n)
{
	int ret;

	if (agg->left <= 0)
		decide(agg);
	if (agg->mode != AGG_HASH || !agg->cap || n > SMALL_BATCH)
		return add_general(agg, b, n);
	ret = add_found(agg, b, n);
	return ret <= 0 ? ret : add_hashed(agg, b, n);
}

/* One block of a batch counted block by block. */
static inline void put_one(struct blockrange_agg *agg, uint64_t start,
			   uint64_t end, uint64_t op, uint64_t w, bool large)
{
	put(agg, start, end, op, w);
	if (--agg->left <= 0 && large)
		decide(agg);
}

int blockrange_agg_add_stack(struct blockrange_agg *agg,
			     const struct blockrange_branch *br, size_t nr,
			     uint64_t repeat,
			     struct blockrange_stack_stats *stats)
{
	struct blockrange_stack_stats after;
	uint64_t counted, blocks = 0, new_owners = 0, s, e;
	enum blockrange_pred p;
	struct agg_plan pl;
	bool plan, fit;
	size_t i;
	int err;

	err = br_stack_begin(br, nr, repeat, 0, agg->weight, stats, &after,
			     &counted);
	if (err)
		return err;
	for (i = nr > 1 ? nr - 1 : 0; i-- > 0;) {
		if (br_stack_block(br, i, &s, &e, &p) != BR_COUNT)
			continue;
		blocks++;
		if (owner_is_new(agg, br[i + 1].to_owner))
			new_owners++;
	}
	err = begin(agg, blocks, stack_span,
		    &(struct stack_batch){ br, nr });
	if (err)
		return err;
	plan = plan_start(agg, &pl, blocks);
	fit = owners_fit(agg, new_owners);
	for (i = nr > 1 ? nr - 1 : 0; plan && i-- > 0;)
		if (br_stack_block(br, i, &s, &e, &p) == BR_COUNT)
			plan_add(&pl, &agg->lay, fit, s, e,
				 br[i + 1].to_owner != NULL);
	err = reserve(agg, blocks, new_owners, plan ? &pl : NULL);
	if (err)
		return err;

	/* Nothing can fail from here on. */
	mark_dirty(agg);
	agg->weight += counted;
	for (i = nr > 1 ? nr - 1 : 0; i-- > 0;) {
		if (br_stack_block(br, i, &s, &e, &p) != BR_COUNT)
			continue;
		put_one(agg, s, e,
			(uint64_t)owner_get(agg, br[i + 1].to_owner) << 2 | p,
			repeat, blocks > SMALL_BATCH);
	}
	room_check(agg);
	if (stats)
		*stats = after;
	return 0;
}

/* ---- merging and reading ------------------------------------------------- */

/* The block of a partition record. */
static void rec_block(const struct agg_layout *l, const struct arec *r,
		      uint64_t *start, uint64_t *end, uint64_t *op)
{
	*start = l->kb + (r->key >> l->sh_s);
	*end = *start + (r->key >> l->sh_l & l->max_len);
	*op = r->key & l->max_op;
}

/* Every block @src holds, duplicates included: its table, then records. */
struct src_iter {
	const struct blockrange_agg *src;
	size_t slot;
	unsigned part;
	size_t rec;
};

static bool src_next(struct src_iter *it, uint64_t *start, uint64_t *end,
		     uint64_t *op, uint64_t *count)
{
	const struct blockrange_agg *src = it->src;

	for (; it->slot < src->cap; it->slot++) {
		const struct agg_ent *e = &src->tab[it->slot];

		if (!e->count)
			continue;
		*start = e->start;
		*end = e->end;
		*op = e->op;
		*count = e->count;
		it->slot++;
		return true;
	}
	for (; src->parts && it->part < AGG_NPART; it->part++, it->rec = 0) {
		const struct agg_part *p = &src->parts[it->part];
		const struct arec *r;

		if (it->rec >= p->n)
			continue;
		r = agg_part_rec(p, it->rec++);
		rec_block(&src->lay, r, start, end, op);
		*count = r->count;
		return true;
	}
	return false;
}

static void src_span(const void *batch, struct agg_span *s)
{
	struct src_iter it = { batch, 0, 0, 0 };
	uint64_t st, e, op, c;

	while (src_next(&it, &st, &e, &op, &c))
		agg_span_add(s, st, e);
}

static size_t src_blocks(const struct blockrange_agg *src)
{
	struct agg_stats st;

	agg_stats(src, &st);
	return st.hash_blocks + st.part_records;
}

static void merge_self(struct blockrange_agg *agg)
{
	size_t i;

	for (i = 0; i < agg->cap; i++)
		agg->tab[i].count *= 2;	/* 0 stays 0 */
	if (agg->parts)
		agg_part_scale(agg, 2);
	agg->weight *= 2;
}

/* Room in @dst for every block of @src, and a map of @src's owners. */
static int merge_begin(struct blockrange_agg *dst,
		       const struct blockrange_agg *src, uint32_t **map)
{
	uint64_t new_owners = 0, s, e, op, c;
	size_t n = src_blocks(src), i;
	struct src_iter it = { src, 0, 0, 0 };
	struct agg_plan pl;
	bool plan, fit;
	int err;

	for (i = 1; i <= src->owners.nr; i++)
		new_owners += !br_owners_find(&dst->owners,
					      src->owners.rec[i].key);
	err = begin(dst, n, src_span, src);
	if (err)
		return err;
	plan = plan_start(dst, &pl, n);
	fit = owners_fit(dst, new_owners);
	while (plan && src_next(&it, &s, &e, &op, &c))
		plan_add(&pl, &dst->lay, fit, s, e, op >> 2 != 0);
	err = reserve(dst, n, new_owners, plan ? &pl : NULL);
	if (err)
		return err;
	*map = br_alloc(&dst->m, (src->owners.nr + 1) * sizeof(**map));
	return *map ? 0 : -ENOMEM;
}

int blockrange_agg_merge(struct blockrange_agg *dst,
			 const struct blockrange_agg *src)
{
	struct src_iter it = { src, 0, 0, 0 };
	uint64_t s, e, op, c;
	uint32_t *map, i;
	bool large;
	int err;

	if (src->weight > UINT64_MAX - dst->weight)
		return -EOVERFLOW;
	if (src == dst) {
		merge_self(dst);
		return 0;
	}
	err = merge_begin(dst, src, &map);
	if (err)
		return err;

	/* Nothing can fail from here on. */
	map[0] = 0;
	for (i = 1; i <= src->owners.nr; i++)
		map[i] = owner_get(dst, src->owners.rec[i].key);
	mark_dirty(dst);
	dst->weight += src->weight;
	large = src_blocks(src) > SMALL_BATCH;
	while (src_next(&it, &s, &e, &op, &c))
		put_one(dst, s, e, (uint64_t)map[op >> 2] << 2 | (op & 3), c,
			large);
	room_check(dst);
	br_free(&dst->m, map, (src->owners.nr + 1) * sizeof(*map));
	return 0;
}

/*
 * Positions: table slots first, then (cap + (partition << 40 | record)).
 * The aggregate is settled first, so that each block comes once.
 */
bool blockrange_agg_next(const struct blockrange_agg *agg, size_t *pos,
			 struct blockrange_block *b)
{
	size_t i, part, rec;
	uint64_t op;

	agg_settle(agg);
	for (i = *pos; i < agg->cap; i++) {
		const struct agg_ent *e = &agg->tab[i];

		if (!e->count)
			continue;
		b->start = e->start;
		b->end = e->end;
		b->owner = owner_key(agg, e->op >> 2);
		b->pred = (enum blockrange_pred)(e->op & 3);
		b->count = e->count;
		*pos = i + 1;
		return true;
	}
	part = (i - agg->cap) >> 40;
	rec = (i - agg->cap) & (((size_t)1 << 40) - 1);
	for (; agg->parts && part < AGG_NPART; part++, rec = 0) {
		const struct agg_part *p = &agg->parts[part];
		const struct arec *r;

		if (rec >= p->n)
			continue;
		r = agg_part_rec(p, rec);
		rec_block(&agg->lay, r, &b->start, &b->end, &op);
		b->owner = owner_key(agg, op >> 2);
		b->pred = (enum blockrange_pred)(op & 3);
		b->count = r->count;
		*pos = agg->cap + (part << 40 | (rec + 1));
		return true;
	}
	*pos = agg->cap + ((size_t)AGG_NPART << 40);
	return false;
}

/* ---- feeding the tree ---------------------------------------------------- */

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
