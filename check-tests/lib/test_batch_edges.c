// SPDX-License-Identifier: GPL-2.0
/*
 * The batch suite, errors and edges: blocks across gaps, uncounted
 * records, -EOVERFLOW, -EINVAL and -EPERM that leave everything unchanged,
 * counters and lengths that need 64 bits, the query functions, memory of a
 * flat stream, the errors of a stack and a stack longer than any LBR.
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

/*
 * The dense bt_build with addresses that are no cut point and a hole: 4 starts
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
	fr = bt_build(agg);
	bt_assert_same(t, fr, keys, 3, "dense with gaps");
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
	fr = bt_build(agg);
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
	bt_assert_same(ctx, fr, (const void *[]){ OWN_A }, 1, "full space");
	ck_assert_int_eq(blockrange_count_block_n(ctx, 5, 6, NULL, HIT, 1),
			 -EOVERFLOW);
	ck_assert_int_eq(blockrange_count_agg(ctx, other), -EOVERFLOW);
	ck_assert_int_eq(blockrange_apply_stack(ctx, br, 3, &st), -EOVERFLOW);
	ck_assert_uint_eq(st.stacks, 0);
	bt_assert_same(ctx, fr, (const void *[]){ OWN_A }, 1, "unchanged");

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
	fr = bt_build(agg);
	bt_assert_same(t, fr, keys, 3, "wide");
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
	fr = bt_build(agg);
	ck_assert_uint_eq(blockrange_ctx_nr_ranges(fr), 0);
	ck_assert(!blockrange_rec_first(fr, &(struct blockrange_rec){ 0 }));
	ck_assert_int_eq(blockrange_rec_coverage(fr, NULL).status,
			 BLOCKRANGE_FIG_UNKNOWN);
	blockrange_ctx_free(fr);

	/* A frozen context cannot change, and has no tree ranges. */
	ck_assert_int_eq(blockrange_agg_add(agg, 10, 20, OWN_A, HIT, 1), 0);
	fr = bt_build(agg);
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
	fr = bt_build(agg);
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
	struct blockrange_agg *agg = bt_agg_tuned(tunes[_i], NULL);
	struct blockrange_agg *ref = bt_agg_tuned(TUNE_HASH_ONLY, NULL);
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
		bt_assert_agg_eq(agg, ref, "after errors");
	}
	/*
	 * A prediction above 3 whose bits, with the owner's index (w[1]'s
	 * owner is the first seen: 1), name the known block itself.
	 */
	memcpy(w, v, sizeof(w));
	w[1].pred = (enum blockrange_pred)(1 << 2 | w[1].pred);
	ck_assert_int_eq(blockrange_agg_add_blocks(agg, w, 10), -EINVAL);
	bt_assert_agg_eq(agg, ref, "after an aliasing prediction");
	/* A large batch with one invalid block, then valid ones. */
	memcpy(w, v, sizeof(w));
	v[250].count = 0;
	ck_assert_int_eq(blockrange_agg_add_blocks(agg, v, 300), -EINVAL);
	v[250].count = MAX;
	ck_assert_int_eq(blockrange_agg_add_blocks(agg, v, 300), -EOVERFLOW);
	v[250].count = 1;
	bt_assert_agg_eq(agg, ref, "after a large batch");
	ck_assert_int_eq(blockrange_agg_add_blocks(agg, v, 300), 0);
	ck_assert_int_eq(blockrange_agg_add_blocks(ref, v, 300), 0);
	w[4].owner = OWN_C;
	ck_assert_int_eq(blockrange_agg_add_blocks(agg, w, 10), 0);
	ck_assert_int_eq(blockrange_agg_add_blocks(ref, w, 10), 0);
	bt_assert_agg_eq(agg, ref, "valid batches");
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
		struct blockrange_agg *agg = bt_agg_tuned(tune, NULL);

		ck_assert_ptr_nonnull(agg);
		memset(&s1, 0, sizeof(s1));
		ck_assert_int_eq(blockrange_agg_add_stack(agg, br, 600, 3, &s1),
				 0);
		bt_stats_eq(&s0, &s1);
		fr = bt_build(agg);
		bt_assert_same(t, fr, keys, 3, bt_tune_name[tune]);
		blockrange_ctx_free(fr);
		blockrange_agg_free(agg);
	}
	blockrange_ctx_free(t);
}
END_TEST
/*
 * The counters at their very edge: a block already in the table, added
 * again with a weight that would overflow the total, is refused and
 * changes nothing (the fast path of blockrange_agg_add() included); a
 * batch whose counts sum to exactly UINT64_MAX does not overflow, so its
 * first invalid block decides the error.
 */
START_TEST(test_batch_edge_sums)
{
	const uint64_t big = ((uint64_t)1 << 63) + 10;
	struct blockrange_block v[2] = {
		{ 0x1000, 0x1010, NULL, HIT, UINT64_MAX },
		{ 0, 0x10, NULL, HIT, 1 },
	};
	struct blockrange_agg *agg = blockrange_agg_new(NULL);

	ck_assert_ptr_nonnull(agg);
	ck_assert_int_eq(blockrange_agg_add(agg, 0x100, 0x110, NULL, HIT, big),
			 0);
	ck_assert_int_eq(blockrange_agg_add(agg, 0x100, 0x110, NULL, HIT,
					    (uint64_t)1 << 63), -EOVERFLOW);
	ck_assert_uint_eq(blockrange_agg_weight(agg), big);
	ck_assert_int_eq(blockrange_agg_add(agg, 0x100, 0x110, NULL, HIT, 5), 0);
	ck_assert_uint_eq(blockrange_agg_weight(agg), big + 5);
	ck_assert_uint_eq(blockrange_agg_nr_blocks(agg), 1);
	blockrange_agg_free(agg);

	agg = blockrange_agg_new(NULL);
	ck_assert_ptr_nonnull(agg);
	ck_assert_int_eq(blockrange_agg_add_blocks(agg, v, 2), -EINVAL);
	ck_assert_uint_eq(blockrange_agg_weight(agg), 0);
	ck_assert_int_eq(blockrange_agg_add_blocks(agg, v, 1), 0);
	ck_assert_uint_eq(blockrange_agg_weight(agg), UINT64_MAX);
	blockrange_agg_free(agg);
}
END_TEST

void batch_add_edge_tests(TCase *tc)
{
	tcase_add_test(tc, test_batch_edge_sums);
	tcase_add_test(tc, test_batch_dense_gaps);
	tcase_add_test(tc, test_batch_rec_uncounted);
	tcase_add_test(tc, test_batch_overflow);
	tcase_add_test(tc, test_batch_wide_values);
	tcase_add_test(tc, test_batch_invalid);
	tcase_add_test(tc, test_batch_queries);
	tcase_add_test(tc, test_batch_memory_flat);
	tcase_add_loop_test(tc, test_batch_errors, 0, 3);
	tcase_add_test(tc, test_batch_long_stack);
}
