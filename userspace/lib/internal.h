/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libblockrange internals shared by the tree engine (blockrange.c), the
 * aggregate (agg.c, agg_part.c), the batch engine (batch.c), the common
 * query layer (query.c) and the figures (figures.c).  Not installed.
 */
#ifndef BLOCKRANGE_INTERNAL_H
#define BLOCKRANGE_INTERNAL_H

#include <stdatomic.h>
#include <stdint.h>

#include <blockrange/blockrange.h>

/* ---- memory (mem.c) ------------------------------------------------------ */

/*
 * Where a context or an aggregate gets its memory, and how many bytes it
 * holds.  The default allocator maps arrays of BR_HUGE_MIN bytes or more
 * itself, aligned to 2 MiB and with madvise(MADV_HUGEPAGE).
 */
#define BR_HUGE_MIN	((size_t)2 << 20)

struct br_mem {
	struct blockrange_allocator a;
	size_t used;
};

extern const struct blockrange_allocator br_std_allocator;
void br_mem_init(struct br_mem *m, const struct blockrange_allocator *a);
void *br_alloc(struct br_mem *m, size_t size);
void br_free(struct br_mem *m, void *p, size_t size);

/* ---- owners (owners.c) --------------------------------------------------- */

struct owner_rec {
	const void *key;
	uint64_t max_coverage;	/* contexts only */
};

/*
 * The one owner table: rec[0] is "no owner"; rec[1..nr] are keys in
 * first-seen order.  hash[] is an open-addressing (linear probing) table
 * of record indices, 0 = empty, at most half full.
 */
struct br_owners {
	struct owner_rec *rec;
	uint32_t nr;
	uint32_t cap;		/* records, slot 0 included */
	uint32_t *hash;
	uint32_t hash_cap;	/* power of two, or 0 */
};

/* Index of @key, 0 if absent (or @key is NULL). */
uint32_t br_owners_find(const struct br_owners *o, const void *key);
/* Room for @more new keys; 0 or -ENOMEM (nothing changed). */
int br_owners_reserve(struct br_owners *o, struct br_mem *m, uint64_t more);
/* Add @key after a successful br_owners_reserve(); cannot fail. */
uint32_t br_owners_insert(struct br_owners *o, const void *key);
void br_owners_free(struct br_owners *o, struct br_mem *m);

/* Owner keys are compared as unsigned integers (ties of the owner rule). */
static inline int br_key_cmp(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;

	return x < y ? -1 : x > y;
}

/* ---- contexts (blockrange.c) --------------------------------------------- */

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
	struct blockrange_rb_root root;
	struct br_mem m;
	struct chunk *chunks;		/* newest (the one handed out) first */
	size_t next_cap;
	size_t nr_ranges;
	uint64_t nr_blocks;
	uint64_t nr_pred_known;
	uint64_t weight;		/* sum of the weights counted */

	/*
	 * Owners; max_coverage is exact unless owner_max_stale (a range
	 * changed owner): then blockrange_owner_max() recomputes every
	 * maximum.
	 */
	struct br_owners owners;
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
void br_refresh_owner_max(const struct blockrange_ctx *ctx);

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
 * The checks of both engines before they count @repeat stacks like @br
 * into a total weight @weight, in this order: -EINVAL (@br NULL with
 * @nr > 0, or @repeat 0); @refuse unless it is 0 (the caller's own reason,
 * such as -EPERM for a frozen context); -EOVERFLOW if a figure of @st
 * (NULL: all 0) plus the stacks', or @weight plus the weight they count,
 * would pass 2^64 - 1.  Then, and only then, @out is @st plus the stacks
 * and *@counted the weight they count.
 */
int br_stack_begin(const struct blockrange_branch *br, size_t nr,
		   uint64_t repeat, int refuse, uint64_t weight,
		   const struct blockrange_stack_stats *st,
		   struct blockrange_stack_stats *out, uint64_t *counted);

/* Frozen range @i as a value (batch.c). */
void br_frozen_get(const struct blockrange_ctx *ctx, size_t i,
		   struct blockrange_rec *rec);

/* ---- aggregates (agg.c, agg_part.c) -------------------------------------- */

/*
 * The hash table of an aggregate: linear probing of 32-byte slots, an empty
 * slot all zero (start 0), at most 3/4 full.  @op is the owner index << 2 |
 * the prediction.
 */
struct agg_ent {
	uint64_t start;
	uint64_t end;
	uint64_t count;
	uint64_t op;
};

/*
 * A block in a partition: its packed key (see struct agg_layout) and its
 * count.  Also the end events of a build (key: end + 1 << 1 | predicted).
 */
struct arec {
	uint64_t key;
	uint64_t count;
};

/*
 * How blocks pack into a 64-bit key, fixed when the aggregate first
 * appends: key = (start - kb) << sh_s | (end - start) << sh_l | op.  A block
 * packs if start >= kb, start - kb <= max_off, end - start <= max_len and
 * op <= max_op; the others (misfits) stay in the hash table.  Keys in
 * increasing order are blocks by start.  Partition of an offset off = start
 * - kb: 0 below pb, then one per 2^psh addresses, the last one taking
 * everything above (so partitions in order hold increasing keys).
 */
struct agg_layout {
	uint64_t kb;
	uint64_t max_off, max_len, max_op;
	unsigned sh_s, sh_l;
	uint64_t pb;
	unsigned psh;
};

#define AGG_PART_BITS	8
#define AGG_NPART	(1u << AGG_PART_BITS)
#define AGG_CHUNK_RECS	256	/* records per chunk (4 KiB) */

/*
 * A partition: chunks of records in append order (dir[0..nchunks)), all
 * full but the last, which is filled up to @tail (tail == end: full, or no
 * chunk yet).  The first @sorted_n records are in key order and distinct
 * (the whole partition when sorted_n == n).  Compacted (sorted, duplicates
 * summed) once it reaches @trigger records.
 */
struct agg_part {
	struct arec **dir;
	uint32_t nchunks;
	uint32_t dircap;
	struct arec *tail;	/* next free record of dir[nchunks - 1] */
	struct arec *end;	/* end of that chunk */
	size_t n;		/* records, the tail chunk's included */
	size_t sorted_n;
	size_t trigger;
	size_t budget;		/* chunks the last counted plan gave it */
};

enum agg_mode {
	AGG_HASH = 0,		/* every block through the hash table */
	AGG_APPEND,		/* appending; a sample probes the table */
};

/*
 * What the strategy runs on; the defaults come from agg_tuning_default().
 * @force:       AGG_HASH or AGG_APPEND for every chunk (tests and the
 *               benchmark compare the strategies), or -1: choose
 * @chunk:       blocks per decision
 * @sample_mask: in AGG_APPEND, one block in (sample_mask + 1) probes (at
 *               pseudo-random positions: see sampled() in agg.c)
 * @hash_max:    hash-table slots beyond which only misfits are inserted
 * @part_min:    records a partition reaches before its first compaction
 * @slab_chunks: chunks per slab of partition memory (the first one holds
 *               the slab's header)
 */
struct agg_tuning {
	int force;
	uint32_t chunk;
	uint32_t sample_mask;
	size_t hash_max;
	size_t part_min;
	size_t slab_chunks;
};

/* What the strategy did, for tests and the benchmark (agg_stats()). */
struct agg_stats {
	uint64_t chunks_hash, chunks_append;	/* decisions taken */
	uint64_t switches;
	uint64_t compactions;
	size_t hash_blocks, part_records;	/* where the blocks are now */
	/*
	 * Batches that wrote more than their reservation promised (see
	 * blockrange_agg.room): always 0 unless a plan is wrong, even when
	 * the slack of the allocations kept it from doing harm.
	 */
	uint64_t room_overruns;
};

struct agg_pool;

#define AGG_HINTS	256

struct blockrange_agg {
	struct br_mem m;
	uint64_t weight;		/* sum of the counts */
	struct br_owners owners;	/* max_coverage unused */
	/* Recent owners: direct-mapped, key -> index (indices never change). */
	struct {
		const void *key;
		uint64_t idx;
	} ocache[64];

	/*
	 * Where the table held a block recently: the slot of the last block
	 * found there, by (start ^ end) & (AGG_HINTS - 1), or hint_none.
	 * Only a hint, compared with the block before use, but never an
	 * empty slot (a zero start would match it) nor a freed one: every
	 * hint is reset to hint_none (start 0, end and op that no block has)
	 * when the table moves or has slots emptied.
	 */
	struct agg_ent *hint[AGG_HINTS];
	struct agg_ent hint_none;

	/* The hash table. */
	struct agg_ent *tab;
	size_t cap;			/* power of two, or 0 */
	size_t nr;			/* blocks in it */

	/* The partitions, once a layout is chosen (parts != NULL). */
	struct agg_layout lay;
	struct agg_part *parts;
	struct agg_pool *pool;
	struct arec *scratch;		/* >= the largest partition */
	size_t scratch_cap;
	size_t max_part;		/* bound of the largest partition */
	bool dir_low;			/* a dir may lack 2 free slots */
	bool compact_due;		/* a partition reached its trigger */
	bool no_layout;			/* nothing packs: table only */

	/* The strategy. */
	enum agg_mode mode;
	int64_t left;			/* blocks left in this chunk */
	uint32_t seen, hits;		/* this chunk: probed, found */
	uint32_t backoff, wait;		/* chunks to append, retry */
	uint64_t tick;			/* the sample's positions */
	struct agg_tuning tune;
	struct agg_stats stats;

	/*
	 * What the last reservation (reserve() in agg.c) promised the batch
	 * that follows it: the table up to @nr_max blocks, the owners up to
	 * @owners_max, @chunks partition chunks in all and, when the plan
	 * was @counted block by block, each partition its budget (a bound
	 * reservation gives any partition all of @chunks).  Checked where the
	 * batch writes (chunks) and where it ends (table, owners): a write
	 * beyond the promise is an overrun.
	 */
	struct {
		size_t nr_max;
		uint64_t owners_max;
		size_t chunks;
		bool counted;
	} room;

	/*
	 * Clean: partitions sorted and distinct, and no block both in a
	 * partition and in the table, so that the blocks can be counted and
	 * iterated.  Readers settle a dirty aggregate first (agg_settle() in
	 * agg.c).
	 */
	atomic_int state;
};

enum { AGG_CLEAN = 0, AGG_DIRTY, AGG_SETTLING };

struct agg_tuning agg_tuning_default(void);
/* Tests: run @agg with other thresholds (before its first block). */
void agg_tune(struct blockrange_agg *agg, const struct agg_tuning *t);
void agg_stats(const struct blockrange_agg *agg, struct agg_stats *st);

/*
 * The partitions (agg_part.c): the store below the engine.  The dependency
 * goes one way: agg.c (the strategy, the hash table, reading and merging)
 * and batch.c call the functions below; agg_part.c calls nothing of agg.c
 * nor of batch.c.  Of struct blockrange_agg, agg_part.c reads the memory
 * (m), the layout (lay) and the tuning (part_min, slab_chunks), owns the
 * partitions, pool, scratch, max_part, dir_low and compact_due, takes
 * chunks against room.chunks / room.counted and counts
 * stats.compactions and stats.room_overruns; it never touches the table.
 */
static inline unsigned agg_part_of(const struct agg_layout *l, uint64_t off)
{
	uint64_t q = (off - l->pb) >> l->psh;

	if (off < l->pb)
		return 0;
	return q < AGG_NPART ? (unsigned)q : AGG_NPART - 1;
}

static inline bool agg_packs(const struct agg_layout *l, uint64_t start,
			     uint64_t end, uint64_t op)
{
	return start >= l->kb && start - l->kb <= l->max_off &&
	       end - start <= l->max_len && op <= l->max_op;
}

static inline uint64_t agg_key(const struct agg_layout *l, uint64_t start,
			       uint64_t end, uint64_t op)
{
	return (start - l->kb) << l->sh_s | (end - start) << l->sh_l | op;
}

/* Lowest and highest start, longest block; empty: lo > hi. */
struct agg_span {
	uint64_t lo, hi, maxlen;
};

#define AGG_SPAN_EMPTY	((struct agg_span){ UINT64_MAX, 0, 0 })

static inline void agg_span_add(struct agg_span *s, uint64_t start,
				uint64_t end)
{
	if (start < s->lo)
		s->lo = start;
	if (start > s->hi)
		s->hi = start;
	if (end - start > s->maxlen)
		s->maxlen = end - start;
}

/*
 * A layout for the blocks of table @tab[0..cap) (empty slots: count 0) and
 * @batch; -1 if none fits.
 */
int agg_layout_choose(const struct agg_ent *tab, size_t cap,
		      const struct agg_span *batch, uint32_t nr_owners,
		      struct agg_layout *l);
/* The partitions and their chunk pool; 0 or -ENOMEM (nothing allocated). */
int agg_part_init(struct blockrange_agg *agg);
/* Frees them (nothing if there are none). */
void agg_part_free(struct blockrange_agg *agg);
/*
 * Room for @n more records (chunks, directories, sorting scratch):
 * @per_part[AGG_NPART] records per partition, or NULL (a bound).  Runs the
 * compactions that are due first.  0 or -ENOMEM.
 */
int agg_part_room(struct blockrange_agg *agg, size_t n,
		  const size_t *per_part);
/* agg_append()'s slow path: a new tail chunk for @p, from the room. */
void agg_part_chunk_full(struct blockrange_agg *agg, struct agg_part *p);
/* Copy the records of @p, in its order, to @dst; their number. */
size_t agg_part_copy(const struct agg_part *p, struct arec *dst);
/* Record @i of @p (i < p->n). */
const struct arec *agg_part_rec(const struct agg_part *p, size_t i);
/* Multiply every record's count by @factor (no overflow: checked before). */
void agg_part_scale(struct blockrange_agg *agg, uint64_t factor);
/* Sort and compact every partition that has unsorted records. */
void agg_part_sort_all(struct blockrange_agg *agg);
/*
 * The record of a block in the partitions, or NULL (it does not pack, or
 * is not there).  The partitions must be sorted (agg_part_sort_all()).
 */
struct arec *agg_part_find(struct blockrange_agg *agg, uint64_t start,
			   uint64_t end, uint64_t op);

static inline void agg_append(struct blockrange_agg *agg, uint64_t key,
			      unsigned part, uint64_t w)
{
	struct agg_part *p = &agg->parts[part];

	if (p->tail == p->end)
		agg_part_chunk_full(agg, p);
	p->tail->key = key;
	p->tail->count = w;
	p->tail++;
	p->n++;
}

/* Records (radix.c): sort by key, ascending (@tmp holds @n too). */
void br_sort_recs(struct arec *a, struct arec *tmp, size_t n);
/* Sum the counts of equal keys of sorted @a[0..n); the new length. */
size_t br_sum_equal(struct arec *a, size_t n);

#endif /* BLOCKRANGE_INTERNAL_H */
