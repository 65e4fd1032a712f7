// SPDX-License-Identifier: GPL-2.0
/*
 * The batch suite, the adaptive engine's strategy: switching, backing off,
 * hints, misfits, settling, the bytes of a result, readers beside a
 * writer; and every allocation of an aggregate workload (adds, stacks,
 * merges, builds, feeding a tree) failed in turn.
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

/* ---- the strategy ------------------------------------------------------------ */

/* A block of cells i..j repeated @w times, hot (from @hot) or random. */
static void phase_blocks(struct model *m, struct rng *rng, struct blk *b,
			 size_t n, const struct blk *hot, size_t nhot)
{
	size_t k;

	if (!hot) {
		bt_gen_blocks(m, rng, b, n, 0);
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

	bt_tuning_of(which, &t);
	chunk = t.chunk;
	n = 4 * 3 * chunk;
	b = calloc(n, sizeof(*b));
	REQUIRE(b, "out of memory");
	bt_init_space(&m, NARROW_MID, &rng);
	bt_gen_blocks(&m, &rng, hot, 8, 0);
	for (ph = 0; ph < 4; ph++)
		phase_blocks(&m, &rng, b + ph * 3 * chunk, 3 * chunk,
			     ph % 2 ? NULL : hot, 8);
	for (k = 0; k < n; k++)
		model_count_n(&m, b[k].i, b[k].j, b[k].owner, b[k].pred,
			      b[k].w);
	tree = bt_tree_of(&m, b, n);
	ref = bt_agg_tuned(TUNE_HASH_ONLY, NULL);
	ck_assert_ptr_nonnull(ref);
	bt_feed_agg(ref, &m, b, n, true);
	agg = bt_tuned_stream(which, &m, b, n, tree, &rng);
	agg_stats(agg, &st);
	ck_assert_uint_gt(st.chunks_hash, 0);
	ck_assert_uint_gt(st.chunks_append, 0);
	ck_assert_uint_ge(st.switches, 3);
	bt_assert_agg_eq(agg, ref, "adaptive vs hash only");
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
	struct blockrange_agg *agg = bt_agg_tuned(TUNE_SMALL, NULL);
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
	struct blockrange_agg *agg = bt_agg_tuned(TUNE_APPEND_ONLY, NULL);
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
	struct blockrange_agg *agg, *ref = bt_agg_tuned(TUNE_HASH_ONLY, NULL);
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
		agg = bt_agg_tuned(tunes[t], NULL);
		ck_assert_ptr_nonnull(agg);
		for (k = 0; k < n; k += 100)
			ck_assert_int_eq(blockrange_agg_add_blocks(agg, v + k,
								   n - k < 100 ?
								   n - k : 100),
					 0);
		agg_stats(agg, &st);
		ck_assert_uint_gt(st.part_records, 0);
		ck_assert_uint_gt(st.hash_blocks, 3 * 15000 / 5);
		fr = bt_build(agg);
		bt_assert_same(tree, fr, keys, NOWN + 1, bt_tune_name[tunes[t]]);
		bt_assert_agg_eq(agg, ref, bt_tune_name[tunes[t]]);
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
	struct blockrange_agg *agg = bt_agg_tuned(_i ? TUNE_SMALL_APPEND : TUNE_SMALL, NULL);
	struct blockrange_agg *ref = bt_agg_tuned(TUNE_HASH_ONLY, NULL), *other;
	struct blockrange_ctx *tree, *fr;
	struct blockrange_block bl;

	REQUIRE(b && agg && ref, "out of memory");
	bt_init_space(&m, NARROW_LOW, &rng);
	bt_gen_blocks(&m, &rng, b, n, HEAVY);
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
	bt_feed_agg(ref, &m, b, n, false);
	bt_assert_agg_eq(agg, ref, "settled along the way");
	/* Merges: a settled source into an unsettled one, then itself. */
	other = bt_agg_tuned(TUNE_SMALL, NULL);
	ck_assert_ptr_nonnull(other);
	bt_feed_agg(other, &m, b, n / 2, false);
	ck_assert_int_eq(blockrange_agg_merge(other, agg), 0);
	ck_assert_int_eq(blockrange_agg_merge(ref, ref), 0);
	ck_assert_int_eq(blockrange_agg_merge(agg, agg), 0);
	bt_assert_agg_eq(agg, ref, "self merge");
	ck_assert_int_eq(blockrange_agg_merge(agg, other), 0);
	ck_assert_int_eq(blockrange_agg_merge(agg, other), 0);
	ck_assert_int_eq(blockrange_agg_merge(ref, other), 0);
	ck_assert_int_eq(blockrange_agg_merge(ref, other), 0);
	/* Both: 2 x all + 2 x (half + all). */
	bt_assert_agg_eq(agg, ref, "merged");
	for (k = 0; k < n; k++)
		model_count_n(&m, b[k].i, b[k].j, b[k].owner, b[k].pred,
			      b[k].w);
	tree = bt_tree_of(&m, b, n);
	fr = bt_build(ref);
	{
		struct blockrange_ctx *fa = bt_build(agg);

		bt_assert_same(fa, fr, m.owner_key, MODEL_MAX_OWNERS, "builds");
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
	struct blockrange_agg *agg = bt_agg_tuned(TUNE_APPEND_ONLY, NULL);
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

	x = bt_agg_tuned(tune, &a);
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
	bt_assert_agg_eq(x, sx, "adds");
	err = blockrange_agg_add_blocks(x, v + SW_N / 2, SW_N / 2);
	if (!err)
		ck_assert_int_eq(blockrange_agg_add_blocks(sx, v + SW_N / 2,
							   SW_N / 2), 0);
	else
		ck_assert_int_eq(err, -ENOMEM);
	bt_assert_agg_eq(x, sx, "bulk add");
	y = bt_agg_tuned(tune, &a);
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
			bt_stats_eq(&s1, &s2);
		}
		bt_assert_agg_eq(y, sy, "stacks");
		err = blockrange_agg_merge(x, y);
		if (!err)
			ck_assert_int_eq(blockrange_agg_merge(sx, sy), 0);
		else
			ck_assert_int_eq(err, -ENOMEM);
		bt_assert_agg_eq(x, sx, "merge");
	}
	err = blockrange_build(x, &a, &fr);
	if (err) {
		ck_assert_int_eq(err, -ENOMEM);
		ck_assert_ptr_null(fr);
	} else {
		struct blockrange_ctx *ref = bt_build(sx);

		bt_assert_same(fr, ref, NULL, 0, "bt_build");
		blockrange_ctx_free(ref);
	}
	t = blockrange_ctx_new(&a);
	if (t) {
		err = blockrange_count_agg(t, x);
		if (err) {
			ck_assert_int_eq(err, -ENOMEM);
		} else if (fr) {
			bt_assert_same(t, fr, NULL, 0, "count_agg");
		}
	}
	/*
	 * The dense bt_build (many blocks over 64 addresses, owners by start)
	 * and the record bt_build (a span of 2^64 - 1: keys do not pack).
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
/*
 * Compaction at every size around a chunk's: one partition (one start, a
 * length per block) of 250 to 800 distinct blocks, each added twice in
 * one batch, appending only.  After its compaction the partition keeps
 * exactly the chunks its distinct records need, the last holding at least
 * one (bt_assert_parts_whole()), and every block counts 2.
 */
START_TEST(test_batch_compaction_sizes)
{
	struct blockrange_block *v = calloc(2 * 800, sizeof(*v)), *got;
	size_t d, k, n;

	REQUIRE(v, "out of memory");
	for (d = 250; d <= 800; d++) {
		struct blockrange_agg *agg = bt_agg_tuned(TUNE_APPEND_ONLY, NULL);

		ck_assert_ptr_nonnull(agg);
		for (k = 0; k < d; k++) {
			v[2 * k] = (struct blockrange_block){
				0x10000, 0x10000 + k, NULL, HIT, 1 };
			v[2 * k + 1] = v[2 * k];
		}
		ck_assert_int_eq(blockrange_agg_add_blocks(agg, v, 2 * d), 0);
		bt_assert_parts_whole(agg);
		got = bt_agg_dump(agg, &n);
		ck_assert_uint_eq(n, d);
		for (k = 0; k < n; k++)
			ck_assert_uint_eq(got[k].count, 2);
		free(got);
		blockrange_agg_free(agg);
	}
	free(v);
}
END_TEST

void batch_add_strategy_tests(TCase *tc)
{
	tcase_add_test(tc, test_batch_compaction_sizes);
	tcase_add_loop_test(tc, test_batch_alloc_sweep, 0, 6);
	tcase_add_loop_test(tc, test_batch_switch, 0, 2);
	tcase_add_test(tc, test_batch_backoff);
	tcase_add_test(tc, test_batch_misfits);
	tcase_add_test(tc, test_batch_hint_emptied);
	tcase_add_loop_test(tc, test_batch_settle_interleaved, 0, 2);
	tcase_add_loop_test(tc, test_batch_result_bytes, 0, 2);
	tcase_add_test(tc, test_batch_readers);
}
