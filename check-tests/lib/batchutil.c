// SPDX-License-Identifier: GPL-2.0
/*
 * The batch suite's shared helpers (batchutil.h).
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batchutil.h"
#include "tests.h"



const char *const bt_tune_name[NR_TUNINGS] = {
	"default", "small", "hash only", "append only", "small append"
};

void bt_tuning_of(unsigned which, struct agg_tuning *t)
{
	*t = agg_tuning_default();
	switch (which) {
	case TUNE_SMALL:
		t->chunk = 16;
		t->sample_mask = 1;
		t->hash_max = 32;
		t->part_min = 2;
		t->slab_chunks = 4;
		break;
	case TUNE_HASH_ONLY:
		t->force = AGG_HASH;
		t->hash_max = SIZE_MAX;
		break;
	case TUNE_APPEND_ONLY:
		t->force = AGG_APPEND;
		break;
	case TUNE_SMALL_APPEND:
		t->force = AGG_APPEND;
		t->chunk = 16;
		t->hash_max = 8;
		t->part_min = 2;
		t->slab_chunks = 2;
		break;
	}
}

struct blockrange_agg *bt_agg_tuned(unsigned which,
				    const struct blockrange_allocator *a)
{
	struct blockrange_agg *agg = blockrange_agg_new(a);
	struct agg_tuning t;

	if (!agg)
		return NULL;
	bt_tuning_of(which, &t);
	agg_tune(agg, &t);
	return agg;
}

/* ---- comparing results ------------------------------------------------- */

bool bt_rec_eq(const struct blockrange_rec *a, const struct blockrange_rec *b)
{
	return a->start == b->start && a->end == b->end &&
	       a->coverage == b->coverage && a->entry == b->entry &&
	       a->taken == b->taken && a->pred == b->pred &&
	       a->owner == b->owner && a->is_target == b->is_target &&
	       a->is_branch == b->is_branch;
}

/*
 * Assert that @a and @b hold the same ranges (every field), the same
 * has_pred, weight and number of ranges, and the same maximum for each of
 * the @n owner keys.
 */
void bt_assert_same(const struct blockrange_ctx *a,
		    const struct blockrange_ctx *b,
		    const void *const *keys, size_t n, const char *what)
{
	struct blockrange_rec ra, rb;
	bool ha = blockrange_rec_first(a, &ra), hb = blockrange_rec_first(b, &rb);
	size_t i = 0;

	while (ha && hb) {
		REQUIRE(bt_rec_eq(&ra, &rb), "%s: range %zu differs: [%#" PRIx64
			", %#" PRIx64 "] cov %" PRIu64 " vs [%#" PRIx64 ", %#"
			PRIx64 "] cov %" PRIu64, what, i, ra.start, ra.end,
			ra.coverage, rb.start, rb.end, rb.coverage);
		ha = blockrange_rec_next(a, &ra);
		hb = blockrange_rec_next(b, &rb);
		i++;
	}
	REQUIRE(!ha && !hb, "%s: %zu ranges, then only one side has more",
		what, i);
	REQUIRE(blockrange_ctx_nr_ranges(a) == i &&
		blockrange_ctx_nr_ranges(b) == i, "%s: nr_ranges", what);
	REQUIRE(blockrange_has_pred(a) == blockrange_has_pred(b),
		"%s: has_pred", what);
	REQUIRE(blockrange_ctx_weight(a) == blockrange_ctx_weight(b),
		"%s: weight", what);
	for (i = 0; i < n; i++)
		REQUIRE(blockrange_owner_max(a, keys[i]) ==
			blockrange_owner_max(b, keys[i]),
			"%s: owner %zu max %" PRIu64 " vs %" PRIu64, what, i,
			blockrange_owner_max(a, keys[i]),
			blockrange_owner_max(b, keys[i]));
}

/* An aggregate as a sorted array, to compare multisets. */
int bt_blk_cmp(const void *pa, const void *pb)
{
	const struct blockrange_block *a = pa, *b = pb;

	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	if (a->end != b->end)
		return a->end < b->end ? -1 : 1;
	if (a->owner != b->owner)
		return (uintptr_t)a->owner < (uintptr_t)b->owner ? -1 : 1;
	return (int)a->pred - (int)b->pred;
}

/* Every batch of @agg stayed within the room its plan reserved. */
void bt_assert_room_kept(const struct blockrange_agg *agg)
{
	struct agg_stats st;

	agg_stats(agg, &st);
	REQUIRE(!st.room_overruns,
		"%" PRIu64 " batches wrote more than their plan reserved",
		st.room_overruns);
	bt_assert_parts_whole(agg);
}

/*
 * Every partition of @agg as internal.h states it: its chunks all full but
 * the last, which holds at least one record and is filled up to @tail, and
 * @n counts exactly those records (none in a partition without chunks).
 */
void bt_assert_parts_whole(const struct blockrange_agg *agg)
{
	const size_t bytes = AGG_CHUNK_RECS * sizeof(struct arec);
	unsigned i;

	if (!agg->parts)
		return;
	for (i = 0; i < AGG_NPART; i++) {
		const struct agg_part *p = &agg->parts[i];
		uintptr_t last, tail;
		size_t in_last;

		if (!p->nchunks) {
			REQUIRE(!p->n, "partition %u: %zu records in no chunk",
				i, p->n);
			continue;
		}
		last = (uintptr_t)p->dir[p->nchunks - 1];
		tail = (uintptr_t)p->tail;
		REQUIRE((uintptr_t)p->end == last + bytes,
			"partition %u: its end is not its last chunk's", i);
		REQUIRE(tail > last && tail <= last + bytes,
			"partition %u: its last chunk (of %u) holds no record "
			"or its tail is outside it", i, (unsigned)p->nchunks);
		in_last = (tail - last) / sizeof(struct arec);
		REQUIRE(p->n == (size_t)(p->nchunks - 1) * AGG_CHUNK_RECS +
				in_last,
			"partition %u: %zu records, its chunks hold %zu", i,
			p->n, (size_t)(p->nchunks - 1) * AGG_CHUNK_RECS +
			in_last);
		REQUIRE(p->sorted_n <= p->n, "partition %u: %zu of %zu sorted",
			i, p->sorted_n, p->n);
	}
}

struct blockrange_block *bt_agg_dump(const struct blockrange_agg *agg,
				     size_t *n)
{
	size_t cap = blockrange_agg_nr_blocks(agg), pos = 0, k = 0;
	struct blockrange_block *v = calloc(cap + 1, sizeof(*v));
	uint64_t sum = 0;

	REQUIRE(v, "out of memory");
	bt_assert_room_kept(agg);
	while (blockrange_agg_next(agg, &pos, &v[k])) {
		REQUIRE(k < cap, "more blocks than nr_blocks");
		REQUIRE(v[k].count, "block with count 0");
		sum += v[k].count;
		k++;
	}
	REQUIRE(k == cap, "fewer blocks than nr_blocks");
	REQUIRE(sum == blockrange_agg_weight(agg), "weight is not the sum");
	qsort(v, k, sizeof(*v), bt_blk_cmp);
	*n = k;
	return v;
}

void bt_assert_agg_eq(const struct blockrange_agg *a,
		      const struct blockrange_agg *b, const char *what)
{
	size_t na, nb, i;
	struct blockrange_block *va = bt_agg_dump(a, &na), *vb = bt_agg_dump(b, &nb);

	REQUIRE(na == nb, "%s: %zu vs %zu distinct blocks", what, na, nb);
	for (i = 0; i < na; i++)
		REQUIRE(!bt_blk_cmp(&va[i], &vb[i]) && va[i].count == vb[i].count,
			"%s: block %zu differs", what, i);
	free(va);
	free(vb);
}

struct blockrange_ctx *bt_build(const struct blockrange_agg *agg)
{
	struct blockrange_ctx *ctx = NULL;

	bt_assert_room_kept(agg);
	ck_assert_int_eq(blockrange_build(agg, NULL, &ctx), 0);
	ck_assert_ptr_nonnull(ctx);
	ck_assert(blockrange_ctx_frozen(ctx));
	return ctx;
}

void bt_check_model(struct model *m, const struct blockrange_ctx *ctx,
		    const char *what)
{
	const char *err = model_check_rec(m, ctx, true);

	REQUIRE(!err, "%s: %s", what, err);
}

/* ---- random streams ----------------------------------------------------- */


void bt_init_space(struct model *m, enum space sp, struct rng *rng)
{
	uint64_t pts[160];
	size_t n = 0, i;

	switch (sp) {
	case NARROW_LOW:
		ck_assert_int_eq(model_init_narrow(m, 1, 200), 0);
		return;
	case NARROW_TOP:
		ck_assert_int_eq(model_init_narrow(m, MAX - 199, 200), 0);
		return;
	case NARROW_MID:
		ck_assert_int_eq(model_init_narrow(m, 0x400000, 300), 0);
		return;
	case WIDE:
		/* 1, points with gaps above 2^32, and UINT64_MAX alone. */
		pts[n++] = 1;
		for (i = 1; i < 158; i++, n++)
			pts[n] = pts[n - 1] + 1 +
				 (rng_below(rng, 4) ? rng_below(rng, 64) :
				  rng_below(rng, (uint64_t)1 << 56));
		pts[n++] = MAX;
		ck_assert_int_eq(model_init_points(m, pts, n), 0);
		return;
	}
}


void bt_gen_blocks(struct model *m, struct rng *rng, struct blk *b,
		   size_t n, unsigned flags)
{
	size_t k;

	for (k = 0; k < n; k++) {
		size_t i = rng_below(rng, m->n), len;

		len = rng_below(rng, 4) ? rng_below(rng, 8) :
		      rng_below(rng, m->n);
		b[k].i = i;
		b[k].j = i + len < m->n ? i + len : m->n - 1;
		/*
		 * Owners: NULL sometimes; ties come from equal starts.  By
		 * start, the dense bt_build can run (narrow spaces).
		 */
		b[k].owner = flags & BY_START ? (unsigned)(i / 8) %
			     MODEL_MAX_OWNERS :
			     (unsigned)rng_below(rng, MODEL_MAX_OWNERS);
		b[k].pred = (enum blockrange_pred)rng_below(rng, 3);
		b[k].w = 1;
		if (flags & HEAVY && !rng_below(rng, 16))
			b[k].w = 1 + rng_below(rng, (uint64_t)1 << 40);
		else if (!rng_below(rng, 4))
			b[k].w = 1 + rng_below(rng, 1000);
	}
}

void bt_shuffle(struct blk *b, size_t n, struct rng *rng)
{
	size_t k;

	for (k = n; k > 1; k--) {
		size_t r = rng_below(rng, k);
		struct blk t = b[k - 1];

		b[k - 1] = b[r];
		b[r] = t;
	}
}

void bt_feed_agg(struct blockrange_agg *agg, const struct model *m,
		 const struct blk *b, size_t n, bool bulk)
{
	size_t k;

	if (bulk) {
		struct blockrange_block *v = calloc(n + 1, sizeof(*v));

		REQUIRE(v, "out of memory");
		for (k = 0; k < n; k++)
			v[k] = (struct blockrange_block){
				m->cell[b[k].i].lo, m->cell[b[k].j].hi,
				m->owner_key[b[k].owner], b[k].pred, b[k].w };
		ck_assert_int_eq(blockrange_agg_add_blocks(agg, v, n), 0);
		free(v);
		return;
	}
	for (k = 0; k < n; k++)
		ck_assert_int_eq(blockrange_agg_add(agg, m->cell[b[k].i].lo,
						    m->cell[b[k].j].hi,
						    m->owner_key[b[k].owner],
						    b[k].pred, b[k].w), 0);
}

struct blockrange_ctx *bt_tree_of(const struct model *m,
				  const struct blk *b, size_t n)
{
	struct blockrange_ctx *ctx = blockrange_ctx_new(NULL);
	size_t k;

	ck_assert_ptr_nonnull(ctx);
	for (k = 0; k < n; k++)
		ck_assert_int_eq(blockrange_count_block_n(ctx,
							  m->cell[b[k].i].lo,
							  m->cell[b[k].j].hi,
							  m->owner_key[b[k].owner],
							  b[k].pred, b[k].w), 0);
	return ctx;
}

/*
 * Aggregate @b split into @parts random sub-aggregates, merged in a random
 * order and grouping.
 */
struct blockrange_agg *bt_split_merge(const struct model *m,
				      const struct blk *b, size_t n,
				      size_t parts, struct rng *rng)
{
	struct blockrange_agg *sub[8];
	size_t k, live = parts;

	for (k = 0; k < parts; k++) {
		sub[k] = bt_agg_tuned((unsigned)rng_below(rng, NR_TUNINGS), NULL);
		ck_assert_ptr_nonnull(sub[k]);
	}
	for (k = 0; k < n; k++) {
		struct blockrange_agg *a = sub[rng_below(rng, parts)];

		ck_assert_int_eq(blockrange_agg_add(a, m->cell[b[k].i].lo,
						    m->cell[b[k].j].hi,
						    m->owner_key[b[k].owner],
						    b[k].pred, b[k].w), 0);
	}
	while (live > 1) {
		size_t x = rng_below(rng, live), y = rng_below(rng, live - 1);

		if (y >= x)
			y++;
		ck_assert_int_eq(blockrange_agg_merge(sub[x], sub[y]), 0);
		blockrange_agg_free(sub[y]);
		sub[y] = sub[--live];
	}
	return sub[0];
}

/*
 * @b[0..n) through an aggregate of tuning @which, one by one, then in bulk
 * in another order: both give @tree's result and the same multiset; the
 * tree fed the aggregate gives it too.  Returns the first aggregate.
 */
/* A forced strategy held: no chunk of the other kind was ever decided. */
void bt_assert_forced(const struct blockrange_agg *agg, unsigned which)
{
	struct agg_stats st;

	agg_stats(agg, &st);
	if (which == TUNE_HASH_ONLY)
		REQUIRE(!st.chunks_append, "%s: %" PRIu64 " chunks appended",
			bt_tune_name[which], st.chunks_append);
	if (which == TUNE_APPEND_ONLY || which == TUNE_SMALL_APPEND)
		REQUIRE(!st.chunks_hash, "%s: %" PRIu64 " chunks hashed",
			bt_tune_name[which], st.chunks_hash);
}

struct blockrange_agg *bt_tuned_stream(unsigned which, struct model *m,
				       struct blk *b, size_t n,
				       const struct blockrange_ctx *tree,
				       struct rng *rng)
{
	struct blockrange_agg *agg = bt_agg_tuned(which, NULL), *agg2;
	struct blockrange_ctx *fr, *fr2, *fed;
	char what[64];

	ck_assert_ptr_nonnull(agg);
	bt_feed_agg(agg, m, b, n, false);
	ck_assert_uint_eq(blockrange_agg_weight(agg), m->weight);
	bt_assert_forced(agg, which);
	fr = bt_build(agg);
	snprintf(what, sizeof(what), "batch (%s)", bt_tune_name[which]);
	bt_check_model(m, fr, what);
	ck_assert_uint_eq(blockrange_ctx_nr_blocks(fr),
			  blockrange_agg_nr_blocks(agg));
	bt_assert_same(tree, fr, m->owner_key, MODEL_MAX_OWNERS, what);

	/* The tree fed the aggregate. */
	fed = blockrange_ctx_new(NULL);
	ck_assert_ptr_nonnull(fed);
	ck_assert_int_eq(blockrange_count_agg(fed, agg), 0);
	bt_assert_same(fed, fr, m->owner_key, MODEL_MAX_OWNERS, "count_agg");
	ck_assert_uint_eq(blockrange_ctx_nr_blocks(fed),
			  blockrange_agg_nr_blocks(agg));

	/* Another order, in bulk. */
	bt_shuffle(b, n, rng);
	agg2 = bt_agg_tuned(which, NULL);
	ck_assert_ptr_nonnull(agg2);
	bt_feed_agg(agg2, m, b, n, true);
	fr2 = bt_build(agg2);
	bt_assert_same(fr2, fr, m->owner_key, MODEL_MAX_OWNERS, "shuffled batch");
	bt_assert_agg_eq(agg, agg2, "shuffled bulk aggregate");
	blockrange_ctx_free(fr);
	blockrange_ctx_free(fr2);
	blockrange_ctx_free(fed);
	blockrange_agg_free(agg2);
	return agg;
}


void bt_stats_eq(const struct blockrange_stack_stats *a,
		 const struct blockrange_stack_stats *b)
{
	ck_assert_uint_eq(a->stacks, b->stacks);
	ck_assert_uint_eq(a->entries, b->entries);
	ck_assert_uint_eq(a->blocks, b->blocks);
	ck_assert_uint_eq(a->counted, b->counted);
	ck_assert_uint_eq(a->skipped_abort, b->skipped_abort);
	ck_assert_uint_eq(a->skipped_in_tx, b->skipped_in_tx);
	ck_assert_uint_eq(a->skipped_zero, b->skipped_zero);
	ck_assert_uint_eq(a->skipped_reversed, b->skipped_reversed);
}
