// SPDX-License-Identifier: GPL-2.0
/*
 * The batch engine against the tree and the per-address model.
 *
 *  - random streams over narrow and wide address spaces (1 and UINT64_MAX
 *    included), every prediction kind, eight owners (ties included) and
 *    weights up to 2^40: the tree fed block by block, the tree fed the
 *    aggregate (blockrange_count_agg()) and the frozen context of
 *    blockrange_build() all equal the model, through the query functions
 *    common to both engines;
 *  - the same blocks in a shuffled order, and split into sub-aggregates
 *    merged in a random order and grouping, give identical results;
 *  - merging is commutative and associative (aggregates compared as
 *    multisets), and merging an aggregate into itself doubles it;
 *  - recorded branch stacks (the LBR fixtures of shared/fixtures/lbr) through
 *    blockrange_apply_stack_n() and blockrange_agg_add_stack() with repeat
 *    counts: same statistics, same results;
 *  - -EOVERFLOW, -EINVAL and -EPERM leave everything unchanged; counters
 *    and lengths that need 64 bits;
 *  - every allocation of an aggregate workload (adds, stacks, merges,
 *    builds, feeding a tree) failed in turn.
 * Every aggregate test runs under several tunings of the adaptive engine
 * (see struct agg_tuning): the default; small chunks, table and slabs, so
 * that a few thousand blocks switch strategy, fill the table, append,
 * compact and settle; hashing only with an unbounded table (the strategy
 * of the engine before it adapted); appending only.  All must give the
 * tree's result, and hold the same multiset.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/internal.h"
#include "model.h"
#include "tests.h"

#define MAX UINT64_MAX
#define HIT BLOCKRANGE_PRED_HIT
#define MISS BLOCKRANGE_PRED_MISS
#define UNK BLOCKRANGE_PRED_UNKNOWN

struct blk {
	size_t i, j;		/* model cells */
	unsigned owner;		/* model owner index */
	enum blockrange_pred pred;
	uint64_t w;
};

/* ---- tunings ------------------------------------------------------------- */

enum {
	TUNE_DEFAULT,
	TUNE_SMALL,		/* adaptive, everything small */
	TUNE_HASH_ONLY,		/* the table only, unbounded */
	TUNE_APPEND_ONLY,	/* appending only */
	TUNE_SMALL_APPEND,	/* appending only, everything small */
	NR_TUNINGS
};

static const char *const tune_name[NR_TUNINGS] = {
	"default", "small", "hash only", "append only", "small append"
};

static void tuning_of(unsigned which, struct agg_tuning *t)
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

static struct blockrange_agg *agg_tuned(unsigned which,
					const struct blockrange_allocator *a)
{
	struct blockrange_agg *agg = blockrange_agg_new(a);
	struct agg_tuning t;

	if (!agg)
		return NULL;
	tuning_of(which, &t);
	agg_tune(agg, &t);
	return agg;
}

/* ---- comparing results ------------------------------------------------- */

static bool rec_eq(const struct blockrange_rec *a, const struct blockrange_rec *b)
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
static void assert_same(const struct blockrange_ctx *a,
			const struct blockrange_ctx *b,
			const void *const *keys, size_t n, const char *what)
{
	struct blockrange_rec ra, rb;
	bool ha = blockrange_rec_first(a, &ra), hb = blockrange_rec_first(b, &rb);
	size_t i = 0;

	while (ha && hb) {
		REQUIRE(rec_eq(&ra, &rb), "%s: range %zu differs: [%#" PRIx64
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
static int blk_cmp(const void *pa, const void *pb)
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
static void assert_room_kept(const struct blockrange_agg *agg)
{
	struct agg_stats st;

	agg_stats(agg, &st);
	REQUIRE(!st.room_overruns,
		"%" PRIu64 " batches wrote more than their plan reserved",
		st.room_overruns);
}

static struct blockrange_block *agg_dump(const struct blockrange_agg *agg,
					 size_t *n)
{
	size_t cap = blockrange_agg_nr_blocks(agg), pos = 0, k = 0;
	struct blockrange_block *v = calloc(cap + 1, sizeof(*v));
	uint64_t sum = 0;

	REQUIRE(v, "out of memory");
	assert_room_kept(agg);
	while (blockrange_agg_next(agg, &pos, &v[k])) {
		REQUIRE(k < cap, "more blocks than nr_blocks");
		REQUIRE(v[k].count, "block with count 0");
		sum += v[k].count;
		k++;
	}
	REQUIRE(k == cap, "fewer blocks than nr_blocks");
	REQUIRE(sum == blockrange_agg_weight(agg), "weight is not the sum");
	qsort(v, k, sizeof(*v), blk_cmp);
	*n = k;
	return v;
}

static void assert_agg_eq(const struct blockrange_agg *a,
			  const struct blockrange_agg *b, const char *what)
{
	size_t na, nb, i;
	struct blockrange_block *va = agg_dump(a, &na), *vb = agg_dump(b, &nb);

	REQUIRE(na == nb, "%s: %zu vs %zu distinct blocks", what, na, nb);
	for (i = 0; i < na; i++)
		REQUIRE(!blk_cmp(&va[i], &vb[i]) && va[i].count == vb[i].count,
			"%s: block %zu differs", what, i);
	free(va);
	free(vb);
}

static struct blockrange_ctx *build(const struct blockrange_agg *agg)
{
	struct blockrange_ctx *ctx = NULL;

	assert_room_kept(agg);
	ck_assert_int_eq(blockrange_build(agg, NULL, &ctx), 0);
	ck_assert_ptr_nonnull(ctx);
	ck_assert(blockrange_ctx_frozen(ctx));
	return ctx;
}

static void check_model(struct model *m, const struct blockrange_ctx *ctx,
			const char *what)
{
	const char *err = model_check_rec(m, ctx, true);

	REQUIRE(!err, "%s: %s", what, err);
}

/* ---- random streams ----------------------------------------------------- */

enum space { NARROW_LOW, NARROW_TOP, NARROW_MID, WIDE };

static void init_space(struct model *m, enum space sp, struct rng *rng)
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

/* gen_blocks() flags */
#define HEAVY		1	/* some weights up to 2^40 */
#define BY_START	2	/* the owner is a function of the start */

static void gen_blocks(struct model *m, struct rng *rng, struct blk *b,
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
		 * start, the dense build can run (narrow spaces).
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

static void shuffle(struct blk *b, size_t n, struct rng *rng)
{
	size_t k;

	for (k = n; k > 1; k--) {
		size_t r = rng_below(rng, k);
		struct blk t = b[k - 1];

		b[k - 1] = b[r];
		b[r] = t;
	}
}

static void feed_agg(struct blockrange_agg *agg, const struct model *m,
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

static struct blockrange_ctx *tree_of(const struct model *m,
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
static struct blockrange_agg *split_merge(const struct model *m,
					  const struct blk *b, size_t n,
					  size_t parts, struct rng *rng)
{
	struct blockrange_agg *sub[8];
	size_t k, live = parts;

	for (k = 0; k < parts; k++) {
		sub[k] = agg_tuned((unsigned)rng_below(rng, NR_TUNINGS), NULL);
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
static struct blockrange_agg *tuned_stream(unsigned which, struct model *m,
					   struct blk *b, size_t n,
					   const struct blockrange_ctx *tree,
					   struct rng *rng)
{
	struct blockrange_agg *agg = agg_tuned(which, NULL), *agg2;
	struct blockrange_ctx *fr, *fr2, *fed;
	char what[64];

	ck_assert_ptr_nonnull(agg);
	feed_agg(agg, m, b, n, false);
	ck_assert_uint_eq(blockrange_agg_weight(agg), m->weight);
	fr = build(agg);
	snprintf(what, sizeof(what), "batch (%s)", tune_name[which]);
	check_model(m, fr, what);
	ck_assert_uint_eq(blockrange_ctx_nr_blocks(fr),
			  blockrange_agg_nr_blocks(agg));
	assert_same(tree, fr, m->owner_key, MODEL_MAX_OWNERS, what);

	/* The tree fed the aggregate. */
	fed = blockrange_ctx_new(NULL);
	ck_assert_ptr_nonnull(fed);
	ck_assert_int_eq(blockrange_count_agg(fed, agg), 0);
	assert_same(fed, fr, m->owner_key, MODEL_MAX_OWNERS, "count_agg");
	ck_assert_uint_eq(blockrange_ctx_nr_blocks(fed),
			  blockrange_agg_nr_blocks(agg));

	/* Another order, in bulk. */
	shuffle(b, n, rng);
	agg2 = agg_tuned(which, NULL);
	ck_assert_ptr_nonnull(agg2);
	feed_agg(agg2, m, b, n, true);
	fr2 = build(agg2);
	assert_same(fr2, fr, m->owner_key, MODEL_MAX_OWNERS, "shuffled batch");
	assert_agg_eq(agg, agg2, "shuffled bulk aggregate");
	blockrange_ctx_free(fr);
	blockrange_ctx_free(fr2);
	blockrange_ctx_free(fed);
	blockrange_agg_free(agg2);
	return agg;
}

static void random_stream(enum space sp, uint64_t seed, size_t n,
			  unsigned flags)
{
	struct rng rng = { seed };
	struct blk *b = calloc(n, sizeof(*b));
	struct model m;
	struct blockrange_agg *agg[NR_TUNINGS], *parts;
	struct blockrange_ctx *tree, *tree2, *fr3;
	size_t k;
	unsigned t;

	REQUIRE(b, "out of memory");
	init_space(&m, sp, &rng);
	gen_blocks(&m, &rng, b, n, flags);
	for (k = 0; k < n; k++)
		model_count_n(&m, b[k].i, b[k].j, b[k].owner, b[k].pred,
			      b[k].w);

	tree = tree_of(&m, b, n);
	REQUIRE(!model_check_full(&m, tree), "tree: %s", m.err);
	check_model(&m, tree, "tree (rec)");
	for (t = 0; t < NR_TUNINGS; t++) {
		agg[t] = tuned_stream(t, &m, b, n, tree, &rng);
		if (t)
			assert_agg_eq(agg[0], agg[t], tune_name[t]);
	}

	/* Any order, any split and merge order. */
	shuffle(b, n, &rng);
	tree2 = tree_of(&m, b, n);
	assert_same(tree2, tree, m.owner_key, MODEL_MAX_OWNERS, "shuffled tree");
	parts = split_merge(&m, b, n, 2 + rng_below(&rng, 7), &rng);
	assert_agg_eq(agg[0], parts, "split and merged");
	fr3 = build(parts);
	assert_same(fr3, tree, m.owner_key, MODEL_MAX_OWNERS, "merged batch");

	blockrange_ctx_free(tree);
	blockrange_ctx_free(tree2);
	blockrange_ctx_free(fr3);
	for (t = 0; t < NR_TUNINGS; t++)
		blockrange_agg_free(agg[t]);
	blockrange_agg_free(parts);
	model_free(&m);
	free(b);
}

START_TEST(test_batch_random_narrow_low)
{
	random_stream(NARROW_LOW, 0x1000 + (uint64_t)_i, 3000, (unsigned)_i);
}
END_TEST

START_TEST(test_batch_random_narrow_top)
{
	random_stream(NARROW_TOP, 0x2000 + (uint64_t)_i, 3000, (unsigned)_i);
}
END_TEST

START_TEST(test_batch_random_narrow_mid)
{
	random_stream(NARROW_MID, 0x3000 + (uint64_t)_i, 3000, (unsigned)_i);
}
END_TEST

START_TEST(test_batch_random_wide)
{
	random_stream(WIDE, 0x4000 + (uint64_t)_i, 2000, (unsigned)_i);
}
END_TEST

/* Few blocks, many repeats: mostly hits in the aggregate. */
START_TEST(test_batch_random_repeats)
{
	random_stream(NARROW_MID, 0x5000, 20, 0);
	random_stream(NARROW_LOW, 0x5001, 1, 0);
	random_stream(WIDE, 0x5002, 2, HEAVY);
	/* Many blocks over few addresses: the dense build. */
	random_stream(NARROW_TOP, 0x5003, 20000, BY_START);
	random_stream(NARROW_LOW, 0x5004, 20000, BY_START | HEAVY);
}
END_TEST

/*
 * The dense build with addresses that are no cut point and a hole: 4 starts
 * x 100 ends x 3 predictions over 100..299 (1200 distinct blocks for 202
 * addresses), owners by start, plus [400, 401] after a hole.
 */
START_TEST(test_batch_dense_gaps)
{
	struct blockrange_agg *agg = blockrange_agg_new(NULL);
	struct blockrange_ctx *t = blockrange_ctx_new(NULL), *fr;
	const void *keys[] = { OWN_A, OWN_B, OWN_C };
	struct blockrange_rec r;
	uint64_t st, en;
	unsigned p;

	ck_assert_ptr_nonnull(agg);
	ck_assert_ptr_nonnull(t);
	for (st = 100; st < 104; st++)
		for (en = 200; en < 300; en++)
			for (p = 0; p < 3; p++) {
				const void *o = keys[st % 3];

				ck_assert_int_eq(blockrange_agg_add(agg, st, en, o,
					(enum blockrange_pred)p, 1 + en % 3), 0);
				ck_assert_int_eq(blockrange_count_block_n(t, st, en,
					o, (enum blockrange_pred)p, 1 + en % 3), 0);
			}
	ck_assert_int_eq(blockrange_agg_add(agg, 400, 401, NULL, HIT, 5), 0);
	ck_assert_int_eq(blockrange_count_block_n(t, 400, 401, NULL, HIT, 5), 0);
	fr = build(agg);
	assert_same(t, fr, keys, 3, "dense with gaps");
	/* [103, 200] is one range (no cut inside), owned by 103's owner. */
	ck_assert(blockrange_rec_find(fr, 150, &r));
	ck_assert_uint_eq(r.start, 103);
	ck_assert_uint_eq(r.end, 200);
	ck_assert_ptr_eq(r.owner, keys[103 % 3]);
	ck_assert(!blockrange_rec_find(fr, 350, &r));
	ck_assert(blockrange_rec_find(fr, 401, &r));
	ck_assert_ptr_null(r.owner);
	ck_assert_int_eq(blockrange_rec_coverage(fr, &r).status,
			 BLOCKRANGE_FIG_UNKNOWN);
	blockrange_ctx_free(t);
	blockrange_ctx_free(fr);
	blockrange_agg_free(agg);
}
END_TEST

/*
 * The common figures on tree ranges that were created but never counted
 * (coverage 0): UNKNOWN where a divisor is 0, as blockrange_entry_pct()
 * and friends say; and a target with no branch after it.
 */
START_TEST(test_batch_rec_uncounted)
{
	struct blockrange_ctx *t = blockrange_ctx_new(NULL);
	struct blockrange_rec r;
	struct blockrange_addr_rec info;

	ck_assert_ptr_nonnull(t);
	ck_assert_int_eq(blockrange_create(t, 100, 200, NULL), 0);
	ck_assert_int_eq(blockrange_create(t, 150, 300, NULL), 0);
	ck_assert(blockrange_rec_last(t, &r));
	ck_assert_uint_eq(r.start, 201);
	ck_assert(blockrange_rec_first(t, &r));
	ck_assert_int_eq(blockrange_rec_entry_pct(t, &r).status,
			 BLOCKRANGE_FIG_UNKNOWN);
	blockrange_addr_rec(t, 200, &info);
	ck_assert(info.found);
	ck_assert_int_eq(info.taken.status, BLOCKRANGE_FIG_UNKNOWN);
	ck_assert_int_eq(info.pred.status, BLOCKRANGE_FIG_UNKNOWN);
	ck_assert_int_eq(info.coverage.status, BLOCKRANGE_FIG_UNKNOWN);
	/* [150, 200] ... [201, 300]: the last range is a branch, no target. */
	ck_assert(blockrange_rec_find(t, 250, &r));
	ck_assert_int_eq(blockrange_rec_entry_pct(t, &r).status,
			 BLOCKRANGE_FIG_NA);
	/* A target whose next branch does not exist (counted, then made). */
	blockrange_ctx_free(t);
	t = blockrange_ctx_new(NULL);
	ck_assert_ptr_nonnull(t);
	ck_assert_int_eq(blockrange_count_block(t, 10, 20, OWN_A, HIT), 0);
	ck_assert(blockrange_rec_first(t, &r));
	r.is_branch = false;	/* a value: walk on past the last range */
	r.is_target = true;
	ck_assert_int_eq(blockrange_rec_entry_pct(t, &r).status,
			 BLOCKRANGE_FIG_UNKNOWN);
	blockrange_ctx_free(t);
}
END_TEST

/* ---- merge laws ----------------------------------------------------------- */

START_TEST(test_batch_merge_laws)
{
	struct rng rng = { 0x6000 };
	struct model m;
	struct blk b[3][500];
	struct blockrange_agg *a[3], *ab, *ba, *ab_c, *bc, *a_bc, *self;
	size_t k;

	init_space(&m, NARROW_MID, &rng);
	for (k = 0; k < 3; k++) {
		gen_blocks(&m, &rng, b[k], 500, 0);
		a[k] = blockrange_agg_new(NULL);
		ck_assert_ptr_nonnull(a[k]);
		feed_agg(a[k], &m, b[k], 500, k == 1);
	}
	/* A + B == B + A */
	ab = blockrange_agg_new(NULL);
	ba = blockrange_agg_new(NULL);
	ck_assert_ptr_nonnull(ab);
	ck_assert_ptr_nonnull(ba);
	ck_assert_int_eq(blockrange_agg_merge(ab, a[0]), 0);
	ck_assert_int_eq(blockrange_agg_merge(ab, a[1]), 0);
	ck_assert_int_eq(blockrange_agg_merge(ba, a[1]), 0);
	ck_assert_int_eq(blockrange_agg_merge(ba, a[0]), 0);
	assert_agg_eq(ab, ba, "commutative");
	ck_assert_uint_eq(blockrange_agg_weight(ab),
			  blockrange_agg_weight(a[0]) + blockrange_agg_weight(a[1]));
	/* (A + B) + C == A + (B + C) */
	ab_c = ab;
	ck_assert_int_eq(blockrange_agg_merge(ab_c, a[2]), 0);
	bc = blockrange_agg_new(NULL);
	a_bc = blockrange_agg_new(NULL);
	ck_assert_ptr_nonnull(bc);
	ck_assert_ptr_nonnull(a_bc);
	ck_assert_int_eq(blockrange_agg_merge(bc, a[1]), 0);
	ck_assert_int_eq(blockrange_agg_merge(bc, a[2]), 0);
	ck_assert_int_eq(blockrange_agg_merge(a_bc, a[0]), 0);
	ck_assert_int_eq(blockrange_agg_merge(a_bc, bc), 0);
	assert_agg_eq(ab_c, a_bc, "associative");
	/* Aggregates without owners merge too. */
	{
		struct blockrange_agg *x = blockrange_agg_new(NULL);
		struct blockrange_agg *y = blockrange_agg_new(NULL);
		struct blockrange_block bl;
		size_t pos = 0;

		ck_assert_ptr_nonnull(x);
		ck_assert_ptr_nonnull(y);
		ck_assert_int_eq(blockrange_agg_merge(x, y), 0);
		ck_assert_int_eq(blockrange_agg_add(y, 5, 9, NULL, HIT, 3), 0);
		ck_assert_int_eq(blockrange_agg_merge(x, y), 0);
		ck_assert_int_eq(blockrange_agg_merge(x, y), 0);
		ck_assert(blockrange_agg_next(x, &pos, &bl));
		ck_assert_uint_eq(bl.count, 6);
		ck_assert_ptr_null(bl.owner);
		ck_assert(!blockrange_agg_next(x, &pos, &bl));
		blockrange_agg_free(x);
		blockrange_agg_free(y);
	}
	/* The sources are unchanged; A + A doubles every count. */
	self = blockrange_agg_new(NULL);
	ck_assert_ptr_nonnull(self);
	ck_assert_int_eq(blockrange_agg_merge(self, a[0]), 0);
	ck_assert_int_eq(blockrange_agg_merge(self, a[0]), 0);
	ck_assert_int_eq(blockrange_agg_merge(a[0], a[0]), 0);
	assert_agg_eq(self, a[0], "self merge");
	for (k = 0; k < 3; k++)
		blockrange_agg_free(a[k]);
	blockrange_agg_free(ab);
	blockrange_agg_free(ba);
	blockrange_agg_free(bc);
	blockrange_agg_free(a_bc);
	blockrange_agg_free(self);
	model_free(&m);
}
END_TEST

/* ---- recorded branch stacks -------------------------------------------- */

#define MAX_ENTRIES 64

struct stack {
	struct blockrange_branch br[MAX_ENTRIES];
	size_t nr;
};

/* Owner of a block: the 64-byte "function" of its start, as a small id. */
static const void *owner_of(uint64_t addr)
{
	return (const void *)(uintptr_t)((addr >> 6) % 1000 + 1);
}

/* The brstack entries of one perf script line (newest first). */
static bool parse_line(char *line, struct stack *st)
{
	char *tok, *save = NULL;

	st->nr = 0;
	for (tok = strtok_r(line, " \t\n", &save); tok;
	     tok = strtok_r(NULL, " \t\n", &save)) {
		struct blockrange_branch *b = &st->br[st->nr];
		char *f[5], *p = tok;
		int k;

		if (strncmp(tok, "0x", 2) || !strchr(tok, '/') ||
		    st->nr == MAX_ENTRIES)
			continue;
		for (k = 0; k < 5; k++) {
			f[k] = p;
			p = strchr(p, '/');
			if (!p)
				break;
			*p++ = '\0';
		}
		if (k < 5)
			continue;
		memset(b, 0, sizeof(*b));
		b->from = strtoull(f[0], NULL, 16);
		b->to = strtoull(f[1], NULL, 16);
		b->predicted = f[2][0] == 'P';
		b->mispredicted = f[2][0] == 'M';
		b->in_tx = f[3][0] == 'X';
		b->abort = f[4][0] == 'A';
		b->to_owner = owner_of(b->to);
		st->nr++;
	}
	return st->nr > 0;
}

static size_t load_stacks(const char *path, struct stack **out)
{
	FILE *f = fopen(path, "r");
	char line[16384];
	size_t n = 0, cap = 0;
	struct stack *v = NULL;

	REQUIRE(f, "cannot open %s", path);
	while (fgets(line, sizeof(line), f)) {
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			v = realloc(v, cap * sizeof(*v));
			REQUIRE(v, "out of memory");
		}
		if (parse_line(line, &v[n]))
			n++;
	}
	fclose(f);
	*out = v;
	return n;
}

static void stats_eq(const struct blockrange_stack_stats *a,
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

static void recorded(const char *path, size_t *total_blocks)
{
	struct stack *st;
	size_t n = load_stacks(path, &st), k, r;
	struct blockrange_stack_stats s1 = { 0 }, s2 = { 0 }, s3[NR_TUNINGS];
	struct blockrange_ctx *t1 = blockrange_ctx_new(NULL);
	struct blockrange_ctx *t2 = blockrange_ctx_new(NULL), *fr;
	struct blockrange_agg *agg[NR_TUNINGS];
	const void *keys[1001];
	unsigned t;

	ck_assert_ptr_nonnull(t1);
	ck_assert_ptr_nonnull(t2);
	memset(s3, 0, sizeof(s3));
	for (t = 0; t < NR_TUNINGS; t++) {
		agg[t] = agg_tuned(t, NULL);
		ck_assert_ptr_nonnull(agg[t]);
	}
	for (k = 0; k < n; k++) {
		uint64_t rep = k % 3 + 1;

		/* t1: the stack rep times; t2 and agg: once with repeat. */
		for (r = 0; r < rep; r++)
			ck_assert_int_eq(blockrange_apply_stack(t1, st[k].br,
								st[k].nr, &s1),
					 0);
		ck_assert_int_eq(blockrange_apply_stack_n(t2, st[k].br,
							  st[k].nr, rep, &s2),
				 0);
		/* The aggregates in the reverse order. */
		for (t = 0; t < NR_TUNINGS; t++)
			ck_assert_int_eq(blockrange_agg_add_stack(agg[t],
					 st[n - 1 - k].br, st[n - 1 - k].nr,
					 (n - 1 - k) % 3 + 1, &s3[t]), 0);
	}
	stats_eq(&s1, &s2);
	for (k = 0; k <= 1000; k++)
		keys[k] = (const void *)(uintptr_t)k;
	assert_same(t1, t2, keys, 1001, path);
	for (t = 0; t < NR_TUNINGS; t++) {
		stats_eq(&s1, &s3[t]);
		fr = build(agg[t]);
		assert_same(t1, fr, keys, 1001, tune_name[t]);
		blockrange_ctx_free(fr);
		if (t)
			assert_agg_eq(agg[0], agg[t], tune_name[t]);
	}
	*total_blocks += s1.counted;
	blockrange_ctx_free(t1);
	blockrange_ctx_free(t2);
	for (t = 0; t < NR_TUNINGS; t++)
		blockrange_agg_free(agg[t]);
	free(st);
}

START_TEST(test_batch_recorded)
{
	const char *dir = getenv("BLOCKRANGE_LBR_FIXTURES");
	struct dirent *de;
	size_t files = 0, blocks = 0;
	DIR *d;

	REQUIRE(dir, "BLOCKRANGE_LBR_FIXTURES is not set");
	d = opendir(dir);
	REQUIRE(d, "cannot open %s", dir);
	while ((de = readdir(d))) {
		char path[4096];
		size_t len = strlen(de->d_name);

		if (len < 11 || strcmp(de->d_name + len - 11, ".perfscript"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		recorded(path, &blocks);
		files++;
	}
	closedir(d);
	/* The fixtures hold thousands of blocks in several files. */
	ck_assert_uint_ge(files, 5);
	ck_assert_uint_ge(blocks, 3000);
}
END_TEST

/* ---- errors and edges ------------------------------------------------------- */

START_TEST(test_batch_overflow)
{
	struct blockrange_agg *agg = blockrange_agg_new(NULL), *other;
	struct blockrange_ctx *ctx = blockrange_ctx_new(NULL), *fr;
	struct blockrange_stack_stats st = { 0 };
	struct blockrange_branch br[3] = {
		{ .from = 0x110, .to = 0x200 },
		{ .from = 0x110, .to = 0x118 },
		{ .from = 0x50, .to = 0x100, .to_owner = OWN_A },
	};
	struct blockrange_block blocks[2] = {
		{ 10, 20, NULL, HIT, 1 }, { 30, 40, NULL, HIT, MAX },
	};
	struct blockrange_rec rec;

	ck_assert_ptr_nonnull(agg);
	ck_assert_ptr_nonnull(ctx);
	ck_assert_int_eq(blockrange_agg_add(agg, 1, MAX, OWN_A, HIT, MAX - 1), 0);
	ck_assert_int_eq(blockrange_agg_add(agg, 5, 5, NULL, UNK, 2), -EOVERFLOW);
	ck_assert_int_eq(blockrange_agg_add_blocks(agg, blocks, 2), -EOVERFLOW);
	ck_assert_int_eq(blockrange_agg_add_stack(agg, br, 3, 2, &st),
			 -EOVERFLOW);
	ck_assert_uint_eq(st.stacks, 0);
	ck_assert_uint_eq(blockrange_agg_nr_blocks(agg), 1);
	ck_assert_uint_eq(blockrange_agg_weight(agg), MAX - 1);
	ck_assert_int_eq(blockrange_agg_add(agg, 1, MAX, OWN_A, HIT, 1), 0);
	ck_assert_uint_eq(blockrange_agg_weight(agg), MAX);
	ck_assert_int_eq(blockrange_agg_merge(agg, agg), -EOVERFLOW);

	/* Bulk adds whose sum fits but not with the aggregate's weight. */
	other = blockrange_agg_new(NULL);
	ck_assert_ptr_nonnull(other);
	ck_assert_int_eq(blockrange_agg_add(other, 7, 9, OWN_B, MISS, MAX - 1), 0);
	blocks[1].count = 2;
	ck_assert_int_eq(blockrange_agg_add_blocks(other, blocks + 1, 1),
			 -EOVERFLOW);
	/* A known block: counted on the spot, then taken back. */
	ck_assert_int_eq(blockrange_agg_add_blocks(other,
			 &(struct blockrange_block){ 7, 9, OWN_B, MISS, 2 }, 1),
			 -EOVERFLOW);
	ck_assert_uint_eq(blockrange_agg_weight(other), MAX - 1);
	ck_assert_int_eq(blockrange_agg_add_blocks(other, blocks, 1), 0);
	ck_assert_uint_eq(blockrange_agg_nr_blocks(other), 2);
	blockrange_agg_free(other);

	/* A merge that would overflow changes nothing. */
	other = blockrange_agg_new(NULL);
	ck_assert_ptr_nonnull(other);
	ck_assert_int_eq(blockrange_agg_add(other, 7, 9, OWN_B, MISS, 1), 0);
	ck_assert_int_eq(blockrange_agg_merge(other, agg), -EOVERFLOW);
	ck_assert_uint_eq(blockrange_agg_nr_blocks(other), 1);
	ck_assert_int_eq(blockrange_agg_merge(agg, other), -EOVERFLOW);
	ck_assert_uint_eq(blockrange_agg_nr_blocks(agg), 1);

	/* The whole space counted UINT64_MAX times: 64-bit counters. */
	fr = build(agg);
	ck_assert(blockrange_rec_first(fr, &rec));
	ck_assert_uint_eq(rec.start, 1);
	ck_assert_uint_eq(rec.end, MAX);
	ck_assert_uint_eq(rec.coverage, MAX);
	ck_assert_uint_eq(rec.entry, MAX);
	ck_assert_uint_eq(rec.taken, MAX);
	ck_assert_uint_eq(rec.pred, MAX);
	ck_assert_uint_eq(blockrange_owner_max(fr, OWN_A), MAX);
	ck_assert(!blockrange_rec_next(fr, &rec));

	/* The tree: the same, and -EOVERFLOW past it. */
	ck_assert_int_eq(blockrange_count_agg(ctx, agg), 0);
	assert_same(ctx, fr, (const void *[]){ OWN_A }, 1, "full space");
	ck_assert_int_eq(blockrange_count_block_n(ctx, 5, 6, NULL, HIT, 1),
			 -EOVERFLOW);
	ck_assert_int_eq(blockrange_count_agg(ctx, other), -EOVERFLOW);
	ck_assert_int_eq(blockrange_apply_stack(ctx, br, 3, &st), -EOVERFLOW);
	ck_assert_uint_eq(st.stacks, 0);
	assert_same(ctx, fr, (const void *[]){ OWN_A }, 1, "unchanged");

	/* Statistics that would overflow: nothing changes either. */
	blockrange_ctx_free(ctx);
	ctx = blockrange_ctx_new(NULL);
	ck_assert_ptr_nonnull(ctx);
	st.entries = MAX - 2;
	ck_assert_int_eq(blockrange_agg_add_stack(other, br, 3, 1, &st),
			 -EOVERFLOW);
	ck_assert_int_eq(blockrange_apply_stack_n(ctx, br, 3, 1, &st),
			 -EOVERFLOW);
	ck_assert_uint_eq(st.entries, MAX - 2);
	ck_assert_uint_eq(st.stacks, 0);
	ck_assert_uint_eq(blockrange_agg_nr_blocks(other), 1);
	ck_assert_uint_eq(blockrange_ctx_nr_ranges(ctx), 0);
	memset(&st, 0, sizeof(st));
	ck_assert_int_eq(blockrange_agg_add_stack(other, br, 3,
						  MAX / 2, &st), -EOVERFLOW);
	ck_assert_int_eq(blockrange_agg_add_stack(other, br, 3, 5, &st), 0);
	/* br[2] -> br[1] counted (0x100..0x110), br[1] -> br[0] reversed. */
	ck_assert_uint_eq(st.stacks, 5);
	ck_assert_uint_eq(st.entries, 15);
	ck_assert_uint_eq(st.blocks, 10);
	ck_assert_uint_eq(st.counted, 5);
	ck_assert_uint_eq(st.skipped_reversed, 5);
	ck_assert_uint_eq(blockrange_agg_weight(other), 6);

	blockrange_ctx_free(ctx);
	blockrange_ctx_free(fr);
	blockrange_agg_free(agg);
	blockrange_agg_free(other);
}
END_TEST

/* Ranges and counters beyond 32 bits go to the side table of the result. */
START_TEST(test_batch_wide_values)
{
	struct blockrange_agg *agg = blockrange_agg_new(NULL);
	struct blockrange_ctx *t = blockrange_ctx_new(NULL), *fr;
	const uint64_t big = (uint64_t)1 << 33;
	struct blockrange_rec rec;
	const void *keys[] = { OWN_A, OWN_B, OWN_C };
	size_t k;

	ck_assert_ptr_nonnull(agg);
	ck_assert_ptr_nonnull(t);
	/* Narrow, long, heavy, narrow: wide entries between narrow ones. */
	const struct blockrange_block b[] = {
		{ 100, 200, OWN_A, HIT, 3 },
		{ 300, 300 + big, OWN_B, MISS, 2 },
		{ 400, 500, OWN_C, HIT, big },
		{ big * 4, big * 4 + 10, OWN_A, UNK, 1 },
		{ MAX - 5, MAX, OWN_C, HIT, UINT32_MAX },
		{ MAX - 2, MAX, OWN_C, HIT, 1 },
	};
	ck_assert_int_eq(blockrange_agg_add_blocks(agg, b, 6), 0);
	for (k = 0; k < 6; k++)
		ck_assert_int_eq(blockrange_count_block_n(t, b[k].start,
							  b[k].end, b[k].owner,
							  b[k].pred, b[k].count),
				 0);
	fr = build(agg);
	assert_same(t, fr, keys, 3, "wide");
	ck_assert(blockrange_rec_find(fr, 450, &rec));
	ck_assert_uint_eq(rec.start, 400);
	ck_assert_uint_eq(rec.end, 500);
	ck_assert_uint_eq(rec.coverage, big + 2);
	ck_assert_uint_eq(rec.entry, big);
	ck_assert(blockrange_rec_find(fr, MAX, &rec));
	ck_assert_uint_eq(rec.coverage, (uint64_t)UINT32_MAX + 1);
	ck_assert_uint_eq(rec.taken, (uint64_t)UINT32_MAX + 1);
	ck_assert(blockrange_rec_find(fr, 1000, &rec));
	ck_assert_uint_eq(rec.start, 501);
	ck_assert_uint_eq(rec.end, 300 + big);
	ck_assert(!blockrange_rec_find(fr, big * 2, &rec));
	ck_assert(blockrange_rec_find_ge(fr, big * 2, &rec));
	ck_assert_uint_eq(rec.start, big * 4);
	blockrange_ctx_free(t);
	blockrange_ctx_free(fr);
	blockrange_agg_free(agg);
}
END_TEST

START_TEST(test_batch_invalid)
{
	struct blockrange_agg *agg = blockrange_agg_new(NULL);
	struct blockrange_ctx *fr, *t = blockrange_ctx_new(NULL);
	struct blockrange_block bad[2] = {
		{ 10, 20, NULL, HIT, 1 }, { 30, 20, NULL, HIT, 1 },
	};
	struct blockrange_branch br[2] = {
		{ .from = 0x120, .to = 0x200 }, { .from = 0x50, .to = 0x100 },
	};
	struct blockrange_iter it;
	size_t pos = 0;
	struct blockrange_block out;

	ck_assert_ptr_nonnull(agg);
	ck_assert_ptr_nonnull(t);
	ck_assert_int_eq(blockrange_agg_add(agg, 0, 5, NULL, HIT, 1), -EINVAL);
	ck_assert_int_eq(blockrange_agg_add(agg, 6, 5, NULL, HIT, 1), -EINVAL);
	ck_assert_int_eq(blockrange_agg_add(agg, 5, 5, NULL, HIT, 0), -EINVAL);
	ck_assert_int_eq(blockrange_agg_add(agg, 5, 5, NULL,
					    (enum blockrange_pred)3, 1), -EINVAL);
	ck_assert_int_eq(blockrange_agg_add_blocks(agg, bad, 2), -EINVAL);
	ck_assert_int_eq(blockrange_agg_add_stack(agg, NULL, 2, 1, NULL),
			 -EINVAL);
	ck_assert_int_eq(blockrange_agg_add_stack(agg, br, 2, 0, NULL), -EINVAL);
	ck_assert_int_eq(blockrange_count_block_n(t, 5, 6, NULL, HIT, 0),
			 -EINVAL);
	ck_assert_int_eq(blockrange_count_block_n(t, 5, 6, NULL,
						  (enum blockrange_pred)7, 1),
			 -EINVAL);
	ck_assert_int_eq(blockrange_apply_stack_n(t, br, 2, 0, NULL), -EINVAL);
	ck_assert_uint_eq(blockrange_agg_nr_blocks(agg), 0);
	ck_assert_uint_eq(blockrange_agg_weight(agg), 0);
	ck_assert(!blockrange_agg_next(agg, &pos, &out));
	ck_assert_uint_eq(blockrange_ctx_nr_ranges(t), 0);

	/* Empty aggregate: an empty frozen context. */
	fr = build(agg);
	ck_assert_uint_eq(blockrange_ctx_nr_ranges(fr), 0);
	ck_assert(!blockrange_rec_first(fr, &(struct blockrange_rec){ 0 }));
	ck_assert_int_eq(blockrange_rec_coverage(fr, NULL).status,
			 BLOCKRANGE_FIG_UNKNOWN);
	blockrange_ctx_free(fr);

	/* A frozen context cannot change, and has no tree ranges. */
	ck_assert_int_eq(blockrange_agg_add(agg, 10, 20, OWN_A, HIT, 1), 0);
	fr = build(agg);
	ck_assert_int_eq(blockrange_count_block(fr, 10, 20, NULL, HIT), -EPERM);
	ck_assert_int_eq(blockrange_create(fr, 10, 20, &it), -EPERM);
	ck_assert_ptr_null(it.first);
	ck_assert_int_eq(blockrange_apply_stack(fr, br, 2, NULL), -EPERM);
	ck_assert_int_eq(blockrange_count_agg(fr, agg), -EPERM);
	ck_assert_ptr_null(blockrange_find(fr, 15));
	ck_assert_ptr_null(blockrange_first(fr));
	ck_assert_uint_eq(blockrange_ctx_nr_ranges(fr), 1);
	ck_assert_uint_eq(blockrange_nr_owners(fr), 1);
	ck_assert(blockrange_ctx_frozen(fr));
	ck_assert(!blockrange_ctx_frozen(t));
	ck_assert_uint_gt(blockrange_ctx_mem(fr), 0);
	blockrange_ctx_free(fr);
	blockrange_ctx_free(t);
	blockrange_agg_free(agg);
}
END_TEST

/*
 * The common queries on a hand-made example, on both engines:
 *   A [100, 199] x2 (HIT), B [150, 249] (MISS), A [400, 409] (no pred)
 * ranges: [100,149] cov 2 entry 2 (A), [150,199] cov 3 entry 1 taken 2
 * pred 2 (B: start 150 > 100), [200,249] cov 1 taken 1 (B),
 * [400,409] cov 1 entry 1 taken 1 (A).  Owner max: A 2, B 3.
 */
static void queries(const struct blockrange_ctx *ctx)
{
	struct blockrange_rec r;
	struct blockrange_cursor cur;
	struct blockrange_addr_rec info;
	size_t n = 0;

	ck_assert(blockrange_rec_find(ctx, 170, &r));
	ck_assert_uint_eq(r.start, 150);
	ck_assert_uint_eq(r.end, 199);
	ck_assert_uint_eq(r.coverage, 3);
	ck_assert_uint_eq(r.entry, 1);
	ck_assert_uint_eq(r.taken, 2);
	ck_assert_uint_eq(r.pred, 2);
	ck_assert_ptr_eq(r.owner, OWN_B);
	ck_assert(r.is_target && r.is_branch);
	ck_assert(!blockrange_rec_find(ctx, 300, &r));
	ck_assert(!blockrange_rec_find(ctx, 99, &r));
	ck_assert(blockrange_rec_find_ge(ctx, 300, &r));
	ck_assert_uint_eq(r.start, 400);
	ck_assert(!blockrange_rec_next(ctx, &r));
	ck_assert(!blockrange_rec_find_ge(ctx, 410, &r));
	ck_assert(blockrange_rec_last(ctx, &r));
	ck_assert(blockrange_rec_prev(ctx, &r));
	ck_assert_uint_eq(r.start, 200);
	ck_assert(!r.is_target && r.is_branch);
	ck_assert_uint_eq(blockrange_owner_max(ctx, OWN_A), 2);
	ck_assert_uint_eq(blockrange_owner_max(ctx, OWN_B), 3);
	ck_assert_uint_eq(blockrange_owner_max(ctx, OWN_C), 0);
	ck_assert_uint_eq(blockrange_nr_owners(ctx), 2);
	ck_assert(blockrange_has_pred(ctx));

	/* Span over a hole, and empty spans. */
	ck_assert_int_eq(blockrange_rec_span(ctx, 199, 400, &cur), 0);
	while (blockrange_rec_iter(ctx, &cur, &r))
		n++;
	ck_assert_uint_eq(n, 3);
	ck_assert_int_eq(blockrange_rec_span(ctx, 250, 399, &cur), 0);
	ck_assert(!blockrange_rec_iter(ctx, &cur, &r));
	ck_assert_int_eq(blockrange_rec_span(ctx, 5, 4, &cur), -EINVAL);
	ck_assert(!blockrange_rec_iter(ctx, &cur, &r));
	ck_assert_int_eq(blockrange_rec_span(ctx, 500, 600, &cur), 0);
	ck_assert(!blockrange_rec_iter(ctx, &cur, &r));

	/* Figures: [100,149] target 2 / next branch coverage 3. */
	blockrange_addr_rec(ctx, 100, &info);
	ck_assert(info.found);
	ck_assert_int_eq(info.coverage.status, BLOCKRANGE_FIG_OK);
	ck_assert_double_eq_tol(info.coverage.value, 1.0, 1e-9);
	ck_assert_int_eq(info.entry.status, BLOCKRANGE_FIG_OK);
	ck_assert_double_eq_tol(info.entry.value, 200.0 / 3, 1e-9);
	ck_assert_int_eq(info.taken.status, BLOCKRANGE_FIG_NA);
	blockrange_addr_rec(ctx, 199, &info);
	ck_assert_int_eq(info.taken.status, BLOCKRANGE_FIG_OK);
	ck_assert_double_eq_tol(info.taken.value, 200.0 / 3, 1e-9);
	ck_assert_double_eq_tol(info.pred.value, 100, 1e-9);
	ck_assert_double_eq_tol(info.coverage.value, 1.0, 1e-9);
	blockrange_addr_rec(ctx, 249, &info);
	ck_assert_double_eq_tol(info.coverage.value, 1.0 / 3, 1e-9);
	ck_assert_double_eq_tol(info.pred.value, 0, 1e-9);
	ck_assert_int_eq(info.entry.status, BLOCKRANGE_FIG_NA);
	blockrange_addr_rec(ctx, 300, &info);
	ck_assert(!info.found);
	ck_assert_int_eq(info.coverage.status, BLOCKRANGE_FIG_OK);
	ck_assert_double_eq_tol(info.coverage.value, 0, 1e-9);
	ck_assert_int_eq(info.entry.status, BLOCKRANGE_FIG_NA);
	ck_assert(blockrange_rec_find(ctx, 405, &r));
	ck_assert_double_eq_tol(blockrange_rec_coverage(ctx, &r).value, 0.5,
				1e-9);
	ck_assert_double_eq_tol(blockrange_rec_entry_pct(ctx, &r).value, 100,
				1e-9);
	ck_assert_int_eq(blockrange_rec_taken_pct(NULL).status,
			 BLOCKRANGE_FIG_NA);
	ck_assert_int_eq(blockrange_rec_pred_pct(ctx, NULL).status,
			 BLOCKRANGE_FIG_NA);
	ck_assert_int_eq(blockrange_rec_entry_pct(ctx, NULL).status,
			 BLOCKRANGE_FIG_NA);
}

START_TEST(test_batch_queries)
{
	struct blockrange_agg *agg = blockrange_agg_new(NULL);
	struct blockrange_ctx *t = blockrange_ctx_new(NULL), *fr;

	ck_assert_ptr_nonnull(agg);
	ck_assert_ptr_nonnull(t);
	ck_assert_int_eq(blockrange_agg_add(agg, 400, 409, OWN_A, UNK, 1), 0);
	ck_assert_int_eq(blockrange_agg_add(agg, 150, 249, OWN_B, MISS, 1), 0);
	ck_assert_int_eq(blockrange_agg_add(agg, 100, 199, OWN_A, HIT, 2), 0);
	ck_assert_int_eq(blockrange_count_block(t, 100, 199, OWN_A, HIT), 0);
	ck_assert_int_eq(blockrange_count_block(t, 150, 249, OWN_B, MISS), 0);
	ck_assert_int_eq(blockrange_count_block(t, 100, 199, OWN_A, HIT), 0);
	ck_assert_int_eq(blockrange_count_block(t, 400, 409, OWN_A, UNK), 0);
	fr = build(agg);
	queries(t);
	queries(fr);
	ck_assert_uint_eq(blockrange_ctx_nr_blocks(fr), 3);
	ck_assert_uint_eq(blockrange_ctx_weight(fr), 4);
	blockrange_ctx_free(t);
	blockrange_ctx_free(fr);
	blockrange_agg_free(agg);
}
END_TEST

static int u64_cmp(const void *pa, const void *pb)
{
	uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;

	return a < b ? -1 : a > b;
}

/*
 * Memory grows with distinct blocks, not with how often they repeat: a
 * stream of 200,000 blocks (most of them distinct, so most are added by
 * appending) fed six times never holds more than 32 bytes per distinct
 * block (partitions are compacted once they double: 16-byte records at
 * most twice over) and 4 MiB (a slab, the table, chunks being filled, the
 * chunks reserved for the next call).  The distinct blocks are counted by
 * sorting.
 */
#define MF_N 200000

START_TEST(test_batch_memory_flat)
{
	struct rng rng;
	struct blockrange_agg *agg = blockrange_agg_new(NULL);
	uint64_t *keys = malloc(MF_N * sizeof(*keys));
	size_t mem[6], k, rep, d = 0;

	ck_assert_ptr_nonnull(agg);
	ck_assert_ptr_nonnull(keys);
	for (rep = 0; rep < 6; rep++) {
		rng.s = 0x7000;
		for (k = 0; k < MF_N; k++) {
			uint64_t off = rng_below(&rng, 65536);
			uint64_t len = rng_below(&rng, 64);

			/* The owner is a function of the start. */
			REQUIRE(!blockrange_agg_add(agg, 0x400000 + off,
						    0x400000 + off + len,
						    (const void *)(1 + (off >> 10)),
						    HIT, 1), "add");
			keys[k] = off << 6 | len;
		}
		mem[rep] = blockrange_agg_mem(agg);
	}
	qsort(keys, MF_N, sizeof(*keys), u64_cmp);
	for (k = 0; k < MF_N; k++)
		d += !k || keys[k] != keys[k - 1];
	ck_assert_uint_eq(blockrange_agg_weight(agg), 6 * MF_N);
	ck_assert_uint_eq(blockrange_agg_nr_blocks(agg), d);
	ck_assert_uint_gt(d, MF_N * 9 / 10);
	for (rep = 0; rep < 6; rep++)
		ck_assert_uint_le(mem[rep], 32 * d + ((size_t)4 << 20));
	free(keys);
	blockrange_agg_free(agg);
}
END_TEST

/* ---- the strategy ------------------------------------------------------------ */

/* A block of cells i..j repeated @w times, hot (from @hot) or random. */
static void phase_blocks(struct model *m, struct rng *rng, struct blk *b,
			 size_t n, const struct blk *hot, size_t nhot)
{
	size_t k;

	if (!hot) {
		gen_blocks(m, rng, b, n, 0);
		return;
	}
	for (k = 0; k < n; k++)
		b[k] = hot[rng_below(rng, nhot)];
}

/*
 * Across the switch: four phases of three chunks each, eight hot blocks,
 * then random ones, then the hot ones again, then random ones.  The
 * adaptive aggregate (default and small tunings) must have hashed and
 * appended, switched at least three times, and give the tree's result
 * and the multiset of the hash-only one, one by one and in bulk.
 */
static void switch_stream(unsigned which)
{
	struct agg_tuning t;
	size_t chunk, n, k;
	struct rng rng = { 0x9000 + which };
	struct blk hot[8], *b;
	struct model m;
	struct blockrange_agg *agg, *ref;
	struct blockrange_ctx *tree;
	struct agg_stats st;
	unsigned ph;

	tuning_of(which, &t);
	chunk = t.chunk;
	n = 4 * 3 * chunk;
	b = calloc(n, sizeof(*b));
	REQUIRE(b, "out of memory");
	init_space(&m, NARROW_MID, &rng);
	gen_blocks(&m, &rng, hot, 8, 0);
	for (ph = 0; ph < 4; ph++)
		phase_blocks(&m, &rng, b + ph * 3 * chunk, 3 * chunk,
			     ph % 2 ? NULL : hot, 8);
	for (k = 0; k < n; k++)
		model_count_n(&m, b[k].i, b[k].j, b[k].owner, b[k].pred,
			      b[k].w);
	tree = tree_of(&m, b, n);
	ref = agg_tuned(TUNE_HASH_ONLY, NULL);
	ck_assert_ptr_nonnull(ref);
	feed_agg(ref, &m, b, n, true);
	agg = tuned_stream(which, &m, b, n, tree, &rng);
	agg_stats(agg, &st);
	ck_assert_uint_gt(st.chunks_hash, 0);
	ck_assert_uint_gt(st.chunks_append, 0);
	ck_assert_uint_ge(st.switches, 3);
	assert_agg_eq(agg, ref, "adaptive vs hash only");
	blockrange_ctx_free(tree);
	blockrange_agg_free(agg);
	blockrange_agg_free(ref);
	model_free(&m);
	free(b);
}

START_TEST(test_batch_switch)
{
	switch_stream(_i ? TUNE_SMALL : TUNE_DEFAULT);
}
END_TEST

/*
 * The back-off after failed hashing doubles and stops at 64 chunks (set up
 * as after six failures in a row, with a chunk just ended).
 */
START_TEST(test_batch_backoff)
{
	struct blockrange_agg *agg = agg_tuned(TUNE_SMALL, NULL);
	uint64_t k;

	ck_assert_ptr_nonnull(agg);
	for (k = 0; k < 100; k++)
		ck_assert_int_eq(blockrange_agg_add(agg, 0x100 + k, 0x180,
						    NULL, HIT, 1), 0);
	ck_assert_ptr_nonnull(agg->parts);
	agg->mode = AGG_HASH;
	agg->backoff = 32;
	agg->left = 0;
	agg->seen = 16;
	agg->hits = 0;
	ck_assert_int_eq(blockrange_agg_add(agg, 0x200, 0x210, NULL, HIT, 1), 0);
	ck_assert_int_eq(agg->mode, AGG_APPEND);
	ck_assert_uint_eq(agg->backoff, 64);
	ck_assert_uint_eq(agg->wait, 64);
	agg->mode = AGG_HASH;
	agg->left = 0;
	agg->seen = 16;
	agg->hits = 0;
	ck_assert_int_eq(blockrange_agg_add(agg, 0x200, 0x210, NULL, HIT, 1), 0);
	ck_assert_uint_eq(agg->backoff, 64);
	blockrange_agg_free(agg);
}
END_TEST

/*
 * A hint never names an empty slot: once a settle has emptied the slot in
 * which a block was found through its hint, a block with a zero start
 * (which would match an empty slot) and the same hint is still refused.
 */
START_TEST(test_batch_hint_emptied)
{
	struct blockrange_agg *agg = agg_tuned(TUNE_APPEND_ONLY, NULL);
	/* start ^ end = 0: the zero block's hint */
	const struct blockrange_block x = { 0x1100, 0x1100, NULL,
					    BLOCKRANGE_PRED_UNKNOWN, 1 };
	const struct blockrange_block zero = { 0, 0, NULL,
					       BLOCKRANGE_PRED_UNKNOWN, 1 };
	struct blockrange_block many[32];
	int k;

	ck_assert_ptr_nonnull(agg);
	agg->mode = AGG_HASH;
	ck_assert_int_eq(blockrange_agg_add_blocks(agg, &x, 1), 0);
	ck_assert_int_eq(blockrange_agg_add_blocks(agg, &x, 1), 0);
	ck_assert_uint_eq(agg->nr, 1);
	agg->mode = AGG_APPEND;
	for (k = 0; k < 32; k++)
		many[k] = x;
	ck_assert_int_eq(blockrange_agg_add_blocks(agg, many, 32), 0);
	/* The settle moves x from the table into its partition. */
	ck_assert_uint_eq(blockrange_agg_nr_blocks(agg), 1);
	ck_assert_uint_eq(agg->nr, 0);
	agg->mode = AGG_HASH;
	ck_assert_int_eq(blockrange_agg_add_blocks(agg, &zero, 1), -EINVAL);
	ck_assert_uint_eq(blockrange_agg_weight(agg), 34);
	ck_assert_uint_eq(blockrange_agg_nr_blocks(agg), 1);
	blockrange_agg_free(agg);
}
END_TEST

/*
 * Blocks that do not pack into a key, once the layout is fixed by the first
 * blocks: far below and far above them, 2^30 bytes long, and 3,000 owners
 * (more than the key's owner bits): they go to the table, and the result
 * still equals the tree's, appending only and adaptive.
 */
START_TEST(test_batch_misfits)
{
	static const unsigned tunes[] = { TUNE_APPEND_ONLY, TUNE_SMALL };
	enum { NOWN = 3000 };
	const void **keys = calloc(NOWN + 1, sizeof(*keys));
	struct blockrange_block *v = calloc(20000, sizeof(*v));
	struct rng rng = { 0xa000 };
	struct blockrange_agg *agg, *ref = agg_tuned(TUNE_HASH_ONLY, NULL);
	struct blockrange_ctx *tree = blockrange_ctx_new(NULL), *fr;
	struct agg_stats st;
	size_t n = 0, k;
	unsigned t;

	REQUIRE(keys && v && ref && tree, "out of memory");
	for (k = 0; k <= NOWN; k++)
		keys[k] = (const void *)(uintptr_t)(k + 1);
	/* The first blocks, around 0x400000, fix the layout. */
	for (k = 0; k < 5000; k++, n++) {
		uint64_t s = 0x400000 + rng_below(&rng, 4096);

		v[n] = (struct blockrange_block){ s, s + rng_below(&rng, 48),
			keys[rng_below(&rng, 4)],
			(enum blockrange_pred)rng_below(&rng, 3), 1 };
	}
	for (k = 0; k < 15000; k++, n++) {
		uint64_t s = 0x400000 + rng_below(&rng, 4096), len;

		len = rng_below(&rng, 48);
		switch (k % 5) {
		case 0:		/* far below */
			s = 1 + rng_below(&rng, 64);
			break;
		case 1:		/* far above */
			s = UINT64_MAX - 4096 + rng_below(&rng, 64);
			break;
		case 2:		/* long */
			len = ((uint64_t)1 << 30) + rng_below(&rng, 4);
			break;
		default:	/* packs, unless its owner is too many */
			break;
		}
		v[n] = (struct blockrange_block){ s, s + len,
			keys[rng_below(&rng, NOWN + 1)],
			(enum blockrange_pred)rng_below(&rng, 3),
			1 + rng_below(&rng, 3) };
	}
	for (k = 0; k < n; k++)
		ck_assert_int_eq(blockrange_count_block_n(tree, v[k].start,
							  v[k].end, v[k].owner,
							  v[k].pred,
							  v[k].count), 0);
	ck_assert_int_eq(blockrange_agg_add_blocks(ref, v, n), 0);
	for (t = 0; t < 2; t++) {
		agg = agg_tuned(tunes[t], NULL);
		ck_assert_ptr_nonnull(agg);
		for (k = 0; k < n; k += 100)
			ck_assert_int_eq(blockrange_agg_add_blocks(agg, v + k,
								   n - k < 100 ?
								   n - k : 100),
					 0);
		agg_stats(agg, &st);
		ck_assert_uint_gt(st.part_records, 0);
		ck_assert_uint_gt(st.hash_blocks, 3 * 15000 / 5);
		fr = build(agg);
		assert_same(tree, fr, keys, NOWN + 1, tune_name[tunes[t]]);
		assert_agg_eq(agg, ref, tune_name[tunes[t]]);
		blockrange_ctx_free(fr);
		blockrange_agg_free(agg);
	}
	blockrange_ctx_free(tree);
	blockrange_agg_free(ref);
	free(keys);
	free(v);
}
END_TEST

/*
 * Reading between writes: an aggregate counted and iterated (settled)
 * every 500 blocks, merged with settled and unsettled ones and with
 * itself, still equals the hash-only aggregate and builds the tree's
 * result.
 */
START_TEST(test_batch_settle_interleaved)
{
	struct rng rng = { 0xb000 + (uint64_t)_i };
	size_t n = 6000, k, pos, cnt;
	struct blk *b = calloc(n, sizeof(*b));
	struct model m;
	struct blockrange_agg *agg = agg_tuned(_i ? TUNE_SMALL_APPEND : TUNE_SMALL, NULL);
	struct blockrange_agg *ref = agg_tuned(TUNE_HASH_ONLY, NULL), *other;
	struct blockrange_ctx *tree, *fr;
	struct blockrange_block bl;

	REQUIRE(b && agg && ref, "out of memory");
	init_space(&m, NARROW_LOW, &rng);
	gen_blocks(&m, &rng, b, n, HEAVY);
	for (k = 0; k < n; k++) {
		ck_assert_int_eq(blockrange_agg_add(agg, m.cell[b[k].i].lo,
						    m.cell[b[k].j].hi,
						    m.owner_key[b[k].owner],
						    b[k].pred, b[k].w), 0);
		if (k % 500 != 499)
			continue;
		cnt = 0;
		pos = 0;
		while (blockrange_agg_next(agg, &pos, &bl))
			cnt++;
		ck_assert_uint_eq(cnt, blockrange_agg_nr_blocks(agg));
	}
	feed_agg(ref, &m, b, n, false);
	assert_agg_eq(agg, ref, "settled along the way");
	/* Merges: a settled source into an unsettled one, then itself. */
	other = agg_tuned(TUNE_SMALL, NULL);
	ck_assert_ptr_nonnull(other);
	feed_agg(other, &m, b, n / 2, false);
	ck_assert_int_eq(blockrange_agg_merge(other, agg), 0);
	ck_assert_int_eq(blockrange_agg_merge(ref, ref), 0);
	ck_assert_int_eq(blockrange_agg_merge(agg, agg), 0);
	assert_agg_eq(agg, ref, "self merge");
	ck_assert_int_eq(blockrange_agg_merge(agg, other), 0);
	ck_assert_int_eq(blockrange_agg_merge(agg, other), 0);
	ck_assert_int_eq(blockrange_agg_merge(ref, other), 0);
	ck_assert_int_eq(blockrange_agg_merge(ref, other), 0);
	/* Both: 2 x all + 2 x (half + all). */
	assert_agg_eq(agg, ref, "merged");
	for (k = 0; k < n; k++)
		model_count_n(&m, b[k].i, b[k].j, b[k].owner, b[k].pred,
			      b[k].w);
	tree = tree_of(&m, b, n);
	fr = build(ref);
	{
		struct blockrange_ctx *fa = build(agg);

		assert_same(fa, fr, m.owner_key, MODEL_MAX_OWNERS, "builds");
		blockrange_ctx_free(fa);
	}
	blockrange_ctx_free(tree);
	blockrange_ctx_free(fr);
	blockrange_agg_free(agg);
	blockrange_agg_free(ref);
	blockrange_agg_free(other);
	model_free(&m);
	free(b);
}
END_TEST

/*
 * The result holds 32 bytes per range and a fixed part: at most 40 bytes
 * per range for 100,000 disjoint blocks (100,000 ranges) and for 200,000
 * random blocks over 64 KiB (over 65,000 ranges), counted by the
 * allocator.
 */
START_TEST(test_batch_result_bytes)
{
	struct test_alloc ta = { 0 };
	struct blockrange_allocator a = test_allocator(&ta);
	struct rng rng = { 0xc000 };
	struct blockrange_agg *agg = blockrange_agg_new(NULL);
	struct blockrange_ctx *fr = NULL;
	size_t k, n = _i ? 200000 : 100000;

	ck_assert_ptr_nonnull(agg);
	for (k = 0; k < n; k++) {
		uint64_t s, e;

		if (_i) {
			s = 0x400000 + rng_below(&rng, 65536);
			e = s + rng_below(&rng, 64);
			if (e > 0x400000 + 65535)
				e = 0x400000 + 65535;
		} else {
			/* Block k in the 32 bytes of slot (k * 7919) % n. */
			s = 0x400000 + 32 * ((k * 7919) % n);
			e = s + rng_below(&rng, 32);
		}
		ck_assert_int_eq(blockrange_agg_add(agg, s, e,
						    (const void *)(1 + (s >> 10)),
						    HIT, 1), 0);
	}
	ck_assert_int_eq(blockrange_build(agg, &a, &fr), 0);
	ck_assert_uint_ge(blockrange_ctx_nr_ranges(fr), _i ? 65000 : n);
	ck_assert_uint_eq(ta.live_bytes, blockrange_ctx_mem(fr));
	ck_assert_uint_le(ta.live_bytes, 40 * blockrange_ctx_nr_ranges(fr));
	blockrange_ctx_free(fr);
	ck_assert_uint_eq(ta.live_bytes, 0);
	blockrange_agg_free(agg);
}
END_TEST

struct reader_arg {
	const struct blockrange_agg *agg;
	size_t n, sum;
	uint64_t weight;
};

static void *reader(void *p)
{
	struct reader_arg *r = p;
	struct blockrange_block bl;
	size_t pos = 0;

	r->n = blockrange_agg_nr_blocks(r->agg);
	while (blockrange_agg_next(r->agg, &pos, &bl)) {
		r->sum++;
		r->weight += bl.count;
	}
	return NULL;
}

/*
 * Two threads read an aggregate nobody changes, as the contract allows:
 * both settle it (or wait for the other) and see every block once.
 */
START_TEST(test_batch_readers)
{
	struct rng rng = { 0xd000 };
	struct blockrange_agg *agg = agg_tuned(TUNE_APPEND_ONLY, NULL);
	struct reader_arg r[2];
	pthread_t th[2];
	size_t k, round;

	ck_assert_ptr_nonnull(agg);
	for (round = 0; round < 8; round++) {
		for (k = 0; k < 20000; k++) {
			uint64_t s = 0x400000 + rng_below(&rng, 8192);

			ck_assert_int_eq(blockrange_agg_add(agg, s,
							    s + rng_below(&rng, 16),
							    NULL, MISS, 1), 0);
		}
		memset(r, 0, sizeof(r));
		for (k = 0; k < 2; k++) {
			r[k].agg = agg;
			ck_assert_int_eq(pthread_create(&th[k], NULL, reader,
							&r[k]), 0);
		}
		for (k = 0; k < 2; k++)
			ck_assert_int_eq(pthread_join(th[k], NULL), 0);
		for (k = 0; k < 2; k++) {
			ck_assert_uint_eq(r[k].n, r[k].sum);
			ck_assert_uint_eq(r[k].n, r[0].n);
			ck_assert_uint_eq(r[k].weight,
					  blockrange_agg_weight(agg));
		}
	}
	blockrange_agg_free(agg);
}
END_TEST

/*
 * Errors leave an aggregate as it was, whichever path a batch takes (a
 * small one of known blocks through the table, a new owner, a large one),
 * with the first error in block order: -EINVAL for an invalid block,
 * -EOVERFLOW for a running sum past 2^64 - 1, then -EOVERFLOW for the
 * aggregate's total.  _i: the tuning.
 */
START_TEST(test_batch_errors)
{
	static const unsigned tunes[] = {
		TUNE_DEFAULT, TUNE_SMALL, TUNE_APPEND_ONLY
	};
	struct blockrange_agg *agg = agg_tuned(tunes[_i], NULL);
	struct blockrange_agg *ref = agg_tuned(TUNE_HASH_ONLY, NULL);
	struct blockrange_block v[300], w[10];
	struct rng rng = { 0xe000 };
	size_t k, at;

	ck_assert_ptr_nonnull(agg);
	ck_assert_ptr_nonnull(ref);
	for (k = 0; k < 300; k++) {
		uint64_t s = 0x1000 + rng_below(&rng, 512);

		v[k] = (struct blockrange_block){ s, s + rng_below(&rng, 8),
			k % 3 ? OWN_A : k % 2 ? OWN_B : NULL,
			(enum blockrange_pred)(k % 3), 1 + k % 5 };
	}
	ck_assert_int_eq(blockrange_agg_add_blocks(agg, v, 100), 0);
	ck_assert_int_eq(blockrange_agg_add_blocks(ref, v, 100), 0);
	for (at = 0; at < 10; at += 3) {
		/* Known blocks, one of them made invalid. */
		memcpy(w, v, sizeof(w));
		w[at].start = 0;
		ck_assert_int_eq(blockrange_agg_add_blocks(agg, w, 10), -EINVAL);
		memcpy(w, v, sizeof(w));
		w[at].end = w[at].start - 1;
		ck_assert_int_eq(blockrange_agg_add_blocks(agg, w, 10), -EINVAL);
		memcpy(w, v, sizeof(w));
		w[at].count = 0;
		ck_assert_int_eq(blockrange_agg_add_blocks(agg, w, 10), -EINVAL);
		memcpy(w, v, sizeof(w));
		w[at].pred = (enum blockrange_pred)3;
		ck_assert_int_eq(blockrange_agg_add_blocks(agg, w, 10), -EINVAL);
		/* A running sum past 2^64 - 1, before or after an invalid one. */
		memcpy(w, v, sizeof(w));
		w[at].count = MAX;
		ck_assert_int_eq(blockrange_agg_add_blocks(agg, w, 10),
				 -EOVERFLOW);
		w[9].start = 0;
		ck_assert_int_eq(blockrange_agg_add_blocks(agg, w, 10),
				 at < 9 ? -EOVERFLOW : -EINVAL);
		w[0].end = 0;
		ck_assert_int_eq(blockrange_agg_add_blocks(agg, w, 10),
				 -EINVAL);
		/* The total: fits in the batch, not with the aggregate. */
		memcpy(w, v, sizeof(w));
		w[at].count = MAX - 100;
		ck_assert_int_eq(blockrange_agg_add_blocks(agg, w, 10),
				 -EOVERFLOW);
		/* A new owner and an invalid block. */
		memcpy(w, v, sizeof(w));
		w[at].owner = OWN_C;
		w[9 - at].start = 0;
		ck_assert_int_eq(blockrange_agg_add_blocks(agg, w, 10), -EINVAL);
		assert_agg_eq(agg, ref, "after errors");
	}
	/*
	 * A prediction above 3 whose bits, with the owner's index (w[1]'s
	 * owner is the first seen: 1), name the known block itself.
	 */
	memcpy(w, v, sizeof(w));
	w[1].pred = (enum blockrange_pred)(1 << 2 | w[1].pred);
	ck_assert_int_eq(blockrange_agg_add_blocks(agg, w, 10), -EINVAL);
	assert_agg_eq(agg, ref, "after an aliasing prediction");
	/* A large batch with one invalid block, then valid ones. */
	memcpy(w, v, sizeof(w));
	v[250].count = 0;
	ck_assert_int_eq(blockrange_agg_add_blocks(agg, v, 300), -EINVAL);
	v[250].count = MAX;
	ck_assert_int_eq(blockrange_agg_add_blocks(agg, v, 300), -EOVERFLOW);
	v[250].count = 1;
	assert_agg_eq(agg, ref, "after a large batch");
	ck_assert_int_eq(blockrange_agg_add_blocks(agg, v, 300), 0);
	ck_assert_int_eq(blockrange_agg_add_blocks(ref, v, 300), 0);
	w[4].owner = OWN_C;
	ck_assert_int_eq(blockrange_agg_add_blocks(agg, w, 10), 0);
	ck_assert_int_eq(blockrange_agg_add_blocks(ref, w, 10), 0);
	assert_agg_eq(agg, ref, "valid batches");
	blockrange_agg_free(agg);
	blockrange_agg_free(ref);
}
END_TEST

/*
 * Stacks of 600 entries (more than a small batch): every tuning builds
 * the tree's result.
 */
START_TEST(test_batch_long_stack)
{
	struct blockrange_branch br[600];
	struct blockrange_ctx *t = blockrange_ctx_new(NULL), *fr;
	struct blockrange_stack_stats s0 = { 0 }, s1;
	struct rng rng = { 0xf000 };
	const void *keys[3] = { OWN_A, OWN_B, OWN_C };
	unsigned tune;
	size_t k;

	ck_assert_ptr_nonnull(t);
	for (k = 0; k < 600; k++) {
		uint64_t to = 0x2000 + rng_below(&rng, 4096);

		br[k] = (struct blockrange_branch){
			.from = to + rng_below(&rng, 64),
			.to = 0x2000 + rng_below(&rng, 4096),
			.to_owner = keys[rng_below(&rng, 3)],
			.predicted = k & 1, .mispredicted = k % 3 == 0 };
	}
	ck_assert_int_eq(blockrange_apply_stack_n(t, br, 600, 3, &s0), 0);
	for (tune = 0; tune < NR_TUNINGS; tune++) {
		struct blockrange_agg *agg = agg_tuned(tune, NULL);

		ck_assert_ptr_nonnull(agg);
		memset(&s1, 0, sizeof(s1));
		ck_assert_int_eq(blockrange_agg_add_stack(agg, br, 600, 3, &s1),
				 0);
		stats_eq(&s0, &s1);
		fr = build(agg);
		assert_same(t, fr, keys, 3, tune_name[tune]);
		blockrange_ctx_free(fr);
		blockrange_agg_free(agg);
	}
	blockrange_ctx_free(t);
}
END_TEST

/* ---- allocation failures ------------------------------------------------ */

/*
 * The workload: two aggregates (adds with new owners, bulk adds, branch
 * stacks), a merge, builds and a tree fed the result.  Run with the N-th
 * allocation failing (once, or for good) for every N until a run sees no
 * failure.  Each failed call must return -ENOMEM (or NULL) and leave the
 * aggregate equal to its shadow, built with the default allocator; nothing
 * may leak.
 */
#define SW_N 600

static void sweep_run(unsigned long fail_at, bool sticky, unsigned tune,
		      bool *failed_any)
{
	struct test_alloc ta = { 0 };
	struct blockrange_allocator a;
	struct rng rng = { 0x8000 };
	struct blockrange_agg *x = NULL, *y = NULL, *sx, *sy;
	struct blockrange_ctx *fr = NULL, *t = NULL;
	struct blockrange_block v[SW_N];
	struct blockrange_branch br[16];
	static const char keys[64], skeys[16];
	size_t k;
	int err;

	ta.fail_at = fail_at;
	ta.sticky = sticky;
	a = test_allocator(&ta);
	sx = blockrange_agg_new(NULL);
	sy = blockrange_agg_new(NULL);
	ck_assert_ptr_nonnull(sx);
	ck_assert_ptr_nonnull(sy);
	for (k = 0; k < SW_N; k++) {
		uint64_t s = 0x1000 + rng_below(&rng, 2048);

		v[k] = (struct blockrange_block){ s, s + rng_below(&rng, 40),
			&keys[rng_below(&rng, 64)],
			(enum blockrange_pred)rng_below(&rng, 3), 1 };
	}
	for (k = 0; k < 16; k++)
		br[k] = (struct blockrange_branch){
			.from = 0x1000 + 64 * (16 - k) + 30,
			.to = 0x1000 + 64 * (15 - k),
			.to_owner = &skeys[k], .predicted = k & 1 };

	x = agg_tuned(tune, &a);
	if (!x)
		goto out;
	/* One by one (new owners, growth), then in bulk, then stacks. */
	for (k = 0; k < SW_N / 2; k++) {
		err = blockrange_agg_add(x, v[k].start, v[k].end, v[k].owner,
					 v[k].pred, v[k].count);
		if (!err)
			ck_assert_int_eq(blockrange_agg_add(sx, v[k].start,
							    v[k].end,
							    v[k].owner,
							    v[k].pred, 1), 0);
		else
			ck_assert_int_eq(err, -ENOMEM);
	}
	assert_agg_eq(x, sx, "adds");
	err = blockrange_agg_add_blocks(x, v + SW_N / 2, SW_N / 2);
	if (!err)
		ck_assert_int_eq(blockrange_agg_add_blocks(sx, v + SW_N / 2,
							   SW_N / 2), 0);
	else
		ck_assert_int_eq(err, -ENOMEM);
	assert_agg_eq(x, sx, "bulk add");
	y = agg_tuned(tune, &a);
	if (y) {
		struct blockrange_stack_stats s1 = { 0 }, s2 = { 0 };

		for (k = 0; k < 8; k++) {
			err = blockrange_agg_add_stack(y, br + k, 16 - k, k + 1,
						       &s1);
			if (!err)
				ck_assert_int_eq(blockrange_agg_add_stack(sy,
						br + k, 16 - k, k + 1, &s2), 0);
			else
				ck_assert_int_eq(err, -ENOMEM);
			stats_eq(&s1, &s2);
		}
		assert_agg_eq(y, sy, "stacks");
		err = blockrange_agg_merge(x, y);
		if (!err)
			ck_assert_int_eq(blockrange_agg_merge(sx, sy), 0);
		else
			ck_assert_int_eq(err, -ENOMEM);
		assert_agg_eq(x, sx, "merge");
	}
	err = blockrange_build(x, &a, &fr);
	if (err) {
		ck_assert_int_eq(err, -ENOMEM);
		ck_assert_ptr_null(fr);
	} else {
		struct blockrange_ctx *ref = build(sx);

		assert_same(fr, ref, NULL, 0, "build");
		blockrange_ctx_free(ref);
	}
	t = blockrange_ctx_new(&a);
	if (t) {
		err = blockrange_count_agg(t, x);
		if (err) {
			ck_assert_int_eq(err, -ENOMEM);
		} else if (fr) {
			assert_same(t, fr, NULL, 0, "count_agg");
		}
	}
	/*
	 * The dense build (many blocks over 64 addresses, owners by start)
	 * and the record build (a span of 2^64 - 1: keys do not pack).
	 */
	blockrange_ctx_free(fr);
	fr = NULL;
	blockrange_agg_free(y);
	y = blockrange_agg_new(&a);
	if (y) {
		const void *o[2] = { &skeys[0], &skeys[1] };
		uint64_t sx0, len;

		for (sx0 = 0; sx0 < 48; sx0++)
			for (len = 0; len < 16; len++)
				if (blockrange_agg_add(y, 0x9000 + sx0,
						       0x9000 + sx0 + len,
						       o[sx0 / 24], HIT, 1))
					break;
		err = blockrange_build(y, &a, &fr);
		ck_assert(!err || err == -ENOMEM);
		blockrange_ctx_free(fr);
		fr = NULL;
		blockrange_agg_free(y);
	}
	y = blockrange_agg_new(&a);
	if (y) {
		for (k = 0; k < 40; k++)
			if (blockrange_agg_add(y, k % 2 ? MAX - k * 1000 : 1 + k,
					       k % 2 ? MAX : 100 + k, &skeys[k % 3],
					       MISS, 1))
				break;
		err = blockrange_build(y, &a, &fr);
		ck_assert(!err || err == -ENOMEM);
	}
out:
	blockrange_ctx_free(fr);
	blockrange_ctx_free(t);
	blockrange_agg_free(x);
	blockrange_agg_free(y);
	blockrange_agg_free(sx);
	blockrange_agg_free(sy);
	ck_assert_uint_eq(ta.live, 0);
	ck_assert_uint_eq(ta.live_bytes, 0);
	*failed_any = ta.failed != 0;
}

/* _i: sticky or not, times the tunings default, small, small append. */
START_TEST(test_batch_alloc_sweep)
{
	static const unsigned tunes[] = {
		TUNE_DEFAULT, TUNE_SMALL, TUNE_SMALL_APPEND
	};
	unsigned long n;
	bool failed = true, sticky = _i & 1;

	for (n = 1; failed; n++) {
		REQUIRE(n < 10000, "the sweep does not end");
		sweep_run(n, sticky, tunes[_i / 2], &failed);
	}
	/* The workload makes dozens of allocations. */
	ck_assert_uint_gt(n, 30);
}
END_TEST

Suite *batch_suite(void)
{
	Suite *s = suite_create("batch");
	TCase *prop = tcase_create("batch-vs-tree");
	TCase *edge = tcase_create("batch-edges");

	tcase_add_loop_test(prop, test_batch_random_narrow_low, 0, 4);
	tcase_add_loop_test(prop, test_batch_random_narrow_top, 0, 4);
	tcase_add_loop_test(prop, test_batch_random_narrow_mid, 0, 4);
	tcase_add_loop_test(prop, test_batch_random_wide, 0, 4);
	tcase_add_test(prop, test_batch_random_repeats);
	tcase_add_test(prop, test_batch_merge_laws);
	tcase_add_test(prop, test_batch_recorded);
	tcase_set_timeout(prop, 120);
	suite_add_tcase(s, prop);

	tcase_add_test(edge, test_batch_dense_gaps);
	tcase_add_test(edge, test_batch_rec_uncounted);
	tcase_add_test(edge, test_batch_overflow);
	tcase_add_test(edge, test_batch_wide_values);
	tcase_add_test(edge, test_batch_invalid);
	tcase_add_test(edge, test_batch_queries);
	tcase_add_test(edge, test_batch_memory_flat);
	tcase_add_loop_test(edge, test_batch_alloc_sweep, 0, 6);
	tcase_add_loop_test(edge, test_batch_switch, 0, 2);
	tcase_add_test(edge, test_batch_backoff);
	tcase_add_loop_test(edge, test_batch_errors, 0, 3);
	tcase_add_test(edge, test_batch_long_stack);
	tcase_add_test(edge, test_batch_misfits);
	tcase_add_test(edge, test_batch_hint_emptied);
	tcase_add_loop_test(edge, test_batch_settle_interleaved, 0, 2);
	tcase_add_loop_test(edge, test_batch_result_bytes, 0, 2);
	tcase_add_test(edge, test_batch_readers);
	tcase_set_timeout(edge, 120);
	suite_add_tcase(s, edge);
	return s;
}
