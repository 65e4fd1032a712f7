// SPDX-License-Identifier: GPL-2.0
/*
 * The partitions of an aggregate (see agg.c for the strategy that feeds
 * them): blocks that do not repeat are appended as 16-byte records (packed
 * key, count) to one of AGG_NPART partitions by address, without any
 * hashing.  A partition is a list of 4 KiB chunks taken from slabs, so it
 * grows without ever copying or rehashing what it holds.  A partition that
 * doubles since its last compaction is compacted: sorted by key (a radix
 * sort small enough to stay in the cache), equal keys summed, the chunks
 * it no longer needs given back; so its memory grows with its distinct
 * blocks, not with how often they repeat.
 *
 * A unit below the engine of agg.c, which drives it through the functions
 * internal.h declares for it; it calls nothing of agg.c and never touches
 * the hash table.  For settling (agg.c), agg_part_sort_all() sorts every
 * partition and agg_part_find() finds the record of a block; neither can
 * fail: the scratch memory the sorts use is reserved ahead, by
 * agg_part_room().
 */
#include <errno.h>
#include <string.h>

#include "internal.h"

#define CHUNK_BYTES	(AGG_CHUNK_RECS * sizeof(struct arec))

/* A slab: its first chunk holds this header, the others are handed out. */
struct slab {
	struct slab *next;
	size_t bytes;
};

struct agg_pool {
	struct slab *slabs;
	struct arec *free;	/* free chunks, linked by their first key */
	size_t nfree;
	size_t slab_chunks;	/* chunks per slab, the header's included */
};

/* ---- layout -------------------------------------------------------------- */

static unsigned bits(uint64_t x)
{
	return x ? 64 - (unsigned)__builtin_clzll(x) : 0;
}

static unsigned clampu(unsigned v, unsigned lo, unsigned hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/*
 * Field widths with headroom (16x longer blocks, 64x more owners, 4x the
 * span), narrowed to what is needed if that does not fit in 64 bits.
 */
static int layout_widths(const struct agg_span *s, uint32_t nr_owners,
			 unsigned *sb, unsigned *lb, unsigned *ob)
{
	unsigned need = bits(s->hi - s->lo);

	*lb = clampu(bits(s->maxlen) + 4, 12, 20);
	*ob = clampu(bits(nr_owners) + 6, 10, 22) + 2;
	*sb = 64 - *lb - *ob;
	if (*sb >= need + 2)
		return 0;
	*lb = bits(s->maxlen);
	*ob = bits(nr_owners) + 2;
	*sb = 64 - *lb - *ob;
	return *sb >= need + 1 && *sb <= 63 ? 0 : -1;
}

int agg_layout_choose(const struct agg_ent *tab, size_t cap,
		      const struct agg_span *batch, uint32_t nr_owners,
		      struct agg_layout *l)
{
	struct agg_span s = *batch;
	unsigned sb, lb, ob;
	uint64_t room, below, span;
	size_t i;

	for (i = 0; i < cap; i++)
		if (tab[i].count)
			agg_span_add(&s, tab[i].start, tab[i].end);
	if (s.lo > s.hi || layout_widths(&s, nr_owners, &sb, &lb, &ob))
		return -1;
	l->max_off = ((uint64_t)1 << sb) - 1;
	l->max_len = ((uint64_t)1 << lb) - 1;
	l->max_op = ((uint64_t)1 << ob) - 1;
	l->sh_l = ob;
	l->sh_s = ob + lb;
	/* Center the blocks seen in the key space (starts are >= 1). */
	span = s.hi - s.lo;
	room = l->max_off - span;
	below = room / 2 < s.lo - 1 ? room / 2 : s.lo - 1;
	l->kb = s.lo - below;
	/* The partitions cover the span seen and a quarter more each side. */
	l->pb = below - (span / 4 < below ? span / 4 : below);
	for (l->psh = 0; (span + span / 2) >> l->psh >= AGG_NPART; l->psh++)
		;
	return 0;
}

/* ---- the chunk pool ------------------------------------------------------ */

static int pool_grow(struct blockrange_agg *agg)
{
	struct agg_pool *pool = agg->pool;
	size_t bytes = pool->slab_chunks * CHUNK_BYTES, i;
	struct slab *s = br_alloc(&agg->m, bytes);
	char *c;

	if (!s)
		return -ENOMEM;
	s->bytes = bytes;
	s->next = pool->slabs;
	pool->slabs = s;
	for (i = pool->slab_chunks - 1; i >= 1; i--) {
		c = (char *)s + i * CHUNK_BYTES;
		((struct arec *)c)->key = (uint64_t)(uintptr_t)pool->free;
		pool->free = (struct arec *)c;
		pool->nfree++;
	}
	return 0;
}

static struct arec *pool_take(struct agg_pool *pool)
{
	struct arec *c = pool->free;

	pool->free = (struct arec *)(uintptr_t)c->key;
	pool->nfree--;
	return c;
}

static void pool_give(struct agg_pool *pool, struct arec *c)
{
	c->key = (uint64_t)(uintptr_t)pool->free;
	pool->free = c;
	pool->nfree++;
}

int agg_part_init(struct blockrange_agg *agg)
{
	size_t bytes = AGG_NPART * sizeof(*agg->parts);
	unsigned i;

	agg->pool = br_alloc(&agg->m, sizeof(*agg->pool));
	if (!agg->pool)
		return -ENOMEM;
	memset(agg->pool, 0, sizeof(*agg->pool));
	agg->pool->slab_chunks = agg->tune.slab_chunks;
	agg->parts = br_alloc(&agg->m, bytes);
	if (!agg->parts) {
		br_free(&agg->m, agg->pool, sizeof(*agg->pool));
		agg->pool = NULL;
		return -ENOMEM;
	}
	memset(agg->parts, 0, bytes);
	for (i = 0; i < AGG_NPART; i++)
		agg->parts[i].trigger = agg->tune.part_min;
	agg->dir_low = true;
	return 0;
}

void agg_part_free(struct blockrange_agg *agg)
{
	struct slab *s, *next;
	unsigned i;

	if (!agg->parts)
		return;
	for (i = 0; i < AGG_NPART; i++)
		br_free(&agg->m, agg->parts[i].dir,
			agg->parts[i].dircap * sizeof(agg->parts[i].dir[0]));
	for (s = agg->pool->slabs; s; s = next) {
		next = s->next;
		br_free(&agg->m, s, s->bytes);
	}
	br_free(&agg->m, agg->parts, AGG_NPART * sizeof(*agg->parts));
	br_free(&agg->m, agg->pool, sizeof(*agg->pool));
	br_free(&agg->m, agg->scratch, agg->scratch_cap * sizeof(struct arec));
	agg->parts = NULL;
	agg->pool = NULL;
	agg->scratch = NULL;
	agg->scratch_cap = 0;
}

/* ---- sorting and compaction ---------------------------------------------- */

size_t agg_part_copy(const struct agg_part *p, struct arec *dst)
{
	size_t left = p->n, i, k;

	for (i = 0; left; i++) {
		k = left < AGG_CHUNK_RECS ? left : AGG_CHUNK_RECS;
		memcpy(dst, p->dir[i], k * sizeof(*dst));
		dst += k;
		left -= k;
	}
	return p->n;
}

const struct arec *agg_part_rec(const struct agg_part *p, size_t i)
{
	return &p->dir[i / AGG_CHUNK_RECS][i % AGG_CHUNK_RECS];
}

/*
 * When to compact next, @n distinct records now: when they have
 * doubled, so that repeats never hold more than twice the memory of the
 * distinct blocks (plus part_min records per partition).
 */
static size_t next_trigger(const struct blockrange_agg *agg, size_t n)
{
	return 2 * n > agg->tune.part_min ? 2 * n : agg->tune.part_min;
}

/* Sort @p, sum its duplicates and keep the chunks that holds; in @tmp. */
static void part_sort(struct blockrange_agg *agg, struct agg_part *p,
		      struct arec *tmp)
{
	size_t n0 = agg_part_copy(p, tmp), n, i, k, keep;

	br_sort_recs(tmp, tmp + n0, n0);
	n = br_sum_equal(tmp, n0);
	/* n >= 1: a partition is sorted when it has unsorted records. */
	keep = (n + AGG_CHUNK_RECS - 1) / AGG_CHUNK_RECS;
	for (i = 0; i < keep; i++) {
		k = n - i * AGG_CHUNK_RECS;
		if (k > AGG_CHUNK_RECS)
			k = AGG_CHUNK_RECS;
		memcpy(p->dir[i], tmp + i * AGG_CHUNK_RECS, k * sizeof(*tmp));
	}
	for (i = keep; i < p->nchunks; i++)
		pool_give(agg->pool, p->dir[i]);
	p->nchunks = (uint32_t)keep;
	p->n = n;
	/* A full tail chunk (tail == end) takes a new one at the next add. */
	p->tail = p->dir[keep - 1] + (n - (keep - 1) * AGG_CHUNK_RECS);
	p->end = p->dir[keep - 1] + AGG_CHUNK_RECS;
	p->sorted_n = n;
	p->trigger = next_trigger(agg, n);
	agg->stats.compactions++;
}

static void compact_if_due(struct blockrange_agg *agg)
{
	unsigned i;

	if (!agg->compact_due)
		return;
	for (i = 0; i < AGG_NPART; i++)
		if (agg->parts[i].n >= agg->parts[i].trigger)
			part_sort(agg, &agg->parts[i], agg->scratch);
	agg->compact_due = false;
}

void agg_part_scale(struct blockrange_agg *agg, uint64_t factor)
{
	size_t i, j;

	for (i = 0; i < AGG_NPART; i++) {
		struct agg_part *p = &agg->parts[i];

		for (j = 0; j < p->n; j++)
			p->dir[j / AGG_CHUNK_RECS][j % AGG_CHUNK_RECS].count *=
				factor;
	}
}

/* ---- room ---------------------------------------------------------------- */

static int dir_reserve(struct blockrange_agg *agg, struct agg_part *p,
		       size_t more)
{
	size_t cap = p->dircap ? p->dircap : 4;
	struct arec **dir;

	if (p->nchunks + more <= p->dircap)
		return 0;
	while (cap < p->nchunks + more)
		cap *= 2;
	dir = br_alloc(&agg->m, cap * sizeof(*dir));
	if (!dir)
		return -ENOMEM;
	if (p->nchunks)
		memcpy(dir, p->dir, p->nchunks * sizeof(*dir));
	br_free(&agg->m, p->dir, p->dircap * sizeof(*dir));
	p->dir = dir;
	p->dircap = (uint32_t)cap;
	return 0;
}

static int scratch_reserve(struct blockrange_agg *agg, size_t recs)
{
	size_t cap = agg->scratch_cap ? agg->scratch_cap : 2 * AGG_CHUNK_RECS;
	struct arec *s;

	if (recs <= agg->scratch_cap)
		return 0;
	while (cap < recs)
		cap *= 2;
	s = br_alloc(&agg->m, cap * sizeof(*s));
	if (!s)
		return -ENOMEM;
	br_free(&agg->m, agg->scratch, agg->scratch_cap * sizeof(*s));
	agg->scratch = s;
	agg->scratch_cap = cap;
	return 0;
}

/* Chunks @k more records may take in a partition (a new one at the start). */
static size_t chunks_for(size_t k)
{
	return k ? k / AGG_CHUNK_RECS + 1 : 0;
}

/*
 * Make sure @n more records can be appended: chunks in the pool, room in
 * the directories, and scratch for sorting the largest partition then.
 * @per_part: how many go to each partition, or NULL (unknown, at most
 * AGG_CHUNK_RECS).  Also runs the compactions that are due.
 */
int agg_part_room(struct blockrange_agg *agg, size_t n, const size_t *per_part)
{
	size_t need = 0, i;
	int err;

	compact_if_due(agg);
	if (per_part) {
		for (i = 0; i < AGG_NPART; i++) {
			need += chunks_for(per_part[i]);
			err = dir_reserve(agg, &agg->parts[i],
					  chunks_for(per_part[i]));
			if (err)
				return err;
			agg->parts[i].budget = chunks_for(per_part[i]);
		}
		agg->dir_low = true;
	} else {
		need = n < AGG_NPART ? n : AGG_NPART;
		need += n / AGG_CHUNK_RECS;
		if (agg->dir_low) {
			for (i = 0; i < AGG_NPART; i++) {
				err = dir_reserve(agg, &agg->parts[i], 2);
				if (err)
					return err;
			}
			agg->dir_low = false;
		}
	}
	while (agg->pool->nfree < need) {
		err = pool_grow(agg);
		if (err)
			return err;
	}
	agg->room.chunks = need;
	agg->room.counted = per_part != NULL;
	/*
	 * No overflow: n blocks and max_part records are in memory, each
	 * far larger than the 32 bytes of scratch they may need.
	 */
	return scratch_reserve(agg, 2 * (agg->max_part + n + AGG_CHUNK_RECS));
}

/* The tail chunk of @p is full, or @p has none: take one (reserved). */
void agg_part_chunk_full(struct blockrange_agg *agg, struct agg_part *p)
{
	struct arec *c;

	if (!agg->room.chunks || (agg->room.counted && !p->budget)) {
		/* More than the plan reserved (see blockrange_agg.room). */
		agg->stats.room_overruns++;
	} else {
		agg->room.chunks--;
		p->budget -= agg->room.counted;
	}
	c = pool_take(agg->pool);

	p->dir[p->nchunks++] = c;
	p->tail = c;
	p->end = c + AGG_CHUNK_RECS;
	if (p->dircap - p->nchunks < 2)
		agg->dir_low = true;
	/* Records in full chunks: p->n is exact here. */
	if (p->n > agg->max_part)
		agg->max_part = p->n;
	if (p->n >= p->trigger)
		agg->compact_due = true;
}

/* ---- lookup -------------------------------------------------------------- */

/* Index of @key in the sorted partition @p, or SIZE_MAX. */
static size_t part_find(const struct agg_part *p, uint64_t key)
{
	size_t a = 0, b = p->n;

	while (a < b) {
		size_t mid = a + (b - a) / 2;
		uint64_t k = agg_part_rec(p, mid)->key;

		if (k == key)
			return mid;
		if (k < key)
			a = mid + 1;
		else
			b = mid;
	}
	return SIZE_MAX;
}

void agg_part_sort_all(struct blockrange_agg *agg)
{
	unsigned i;

	for (i = 0; i < AGG_NPART; i++)
		if (agg->parts[i].sorted_n != agg->parts[i].n)
			part_sort(agg, &agg->parts[i], agg->scratch);
}

struct arec *agg_part_find(struct blockrange_agg *agg, uint64_t start,
			   uint64_t end, uint64_t op)
{
	const struct agg_layout *l = &agg->lay;
	struct agg_part *p;
	size_t j;

	if (!agg_packs(l, start, end, op))
		return NULL;
	p = &agg->parts[agg_part_of(l, start - l->kb)];
	j = part_find(p, agg_key(l, start, end, op));
	return j == SIZE_MAX ? NULL : (struct arec *)agg_part_rec(p, j);
}
