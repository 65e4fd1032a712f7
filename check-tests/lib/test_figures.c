// SPDX-License-Identifier: GPL-2.0
/*
 * The seed's figures: coverage ratio against the owner's maximum, +entry%,
 * -taken% and p:pred%, with UNKNOWN / NA where they cannot or do not apply.
 * Expected numbers are worked out by hand in the comments.
 */
#include "tests.h"

#define HIT BLOCKRANGE_PRED_HIT
#define MISS BLOCKRANGE_PRED_MISS
#define UNK BLOCKRANGE_PRED_UNKNOWN
#define OK BLOCKRANGE_FIG_OK
#define UNKNOWN BLOCKRANGE_FIG_UNKNOWN
#define NA BLOCKRANGE_FIG_NA

static struct blockrange_ctx *ctx;

static void count(uint64_t s, uint64_t e, const void *owner,
		  enum blockrange_pred pred)
{
	ck_assert_int_eq(blockrange_count_block(ctx, s, e, owner, pred), 0);
}

static void assert_fig(struct blockrange_fig f, enum blockrange_fig_status st,
		       double v)
{
	ck_assert_int_eq(f.status, st);
	ck_assert_double_eq_tol(f.value, st == OK ? v : 0, 1e-9);
}

/*
 * A loop:  100..108 ends in "je 116" (taken 3 times, predicted each time);
 * once it falls through to 109..114, ending in a taken "jmp" (predicted);
 * 116..130 ends in the loop branch (taken 3 times, predicted twice).
 *   [100,108] cov 4 entry 4 taken 3 pred 3   (T, B)
 *   [109,114] cov 1 entry 0 taken 1 pred 1   (B)
 *   [116,130] cov 3 entry 3 taken 3 pred 2   (T, B)
 * owner max = 4.
 */
static void loop_setup(void)
{
	int i;

	ctx = blockrange_ctx_new(NULL);
	ck_assert_ptr_nonnull(ctx);
	for (i = 0; i < 3; i++)
		count(100, 108, OWN_A, HIT);
	count(100, 114, OWN_A, HIT);
	count(116, 130, OWN_A, MISS);
	count(116, 130, OWN_A, HIT);
	count(116, 130, OWN_A, HIT);
}

static void teardown(void)
{
	blockrange_ctx_free(ctx);
	ctx = NULL;
}

START_TEST(test_fig_coverage_ratio)
{
	ck_assert_uint_eq(blockrange_owner_max(ctx, OWN_A), 4);
	assert_fig(blockrange_coverage(ctx, blockrange_find(ctx, 100)), OK, 1.0);
	assert_fig(blockrange_coverage(ctx, blockrange_find(ctx, 110)), OK, 0.25);
	assert_fig(blockrange_coverage(ctx, blockrange_find(ctx, 120)), OK, 0.75);
	/* An address in no range: 0 once any block exists. */
	assert_fig(blockrange_coverage(ctx, blockrange_find(ctx, 115)), OK, 0);
}
END_TEST

START_TEST(test_fig_entry_pct)
{
	/* 100 * entry 4 / coverage of the branch range [100,108] 4 */
	assert_fig(blockrange_entry_pct(blockrange_find(ctx, 100)), OK, 100);
	/* 100 * 3 / 3 */
	assert_fig(blockrange_entry_pct(blockrange_find(ctx, 116)), OK, 100);
	/* [109,114] is no target */
	assert_fig(blockrange_entry_pct(blockrange_find(ctx, 109)), NA, 0);
	assert_fig(blockrange_entry_pct(NULL), NA, 0);
}
END_TEST

START_TEST(test_fig_taken_pct)
{
	/* 100 * taken 3 / coverage 4 */
	assert_fig(blockrange_taken_pct(blockrange_find(ctx, 108)), OK, 75);
	assert_fig(blockrange_taken_pct(blockrange_find(ctx, 114)), OK, 100);
	assert_fig(blockrange_taken_pct(blockrange_find(ctx, 130)), OK, 100);
	assert_fig(blockrange_taken_pct(NULL), NA, 0);
}
END_TEST

START_TEST(test_fig_pred_pct)
{
	/* 100 * pred / taken: 3/3, 1/1, 2/3 */
	assert_fig(blockrange_pred_pct(ctx, blockrange_find(ctx, 108)), OK, 100);
	assert_fig(blockrange_pred_pct(ctx, blockrange_find(ctx, 114)), OK, 100);
	assert_fig(blockrange_pred_pct(ctx, blockrange_find(ctx, 130)), OK,
		   200.0 / 3);
	assert_fig(blockrange_pred_pct(ctx, NULL), NA, 0);
}
END_TEST

START_TEST(test_fig_addr_info)
{
	struct blockrange_addr_info info;

	/* 100: start of a target range that is also a branch at 108 */
	blockrange_addr_info(ctx, 100, &info);
	ck_assert_ptr_eq(info.range, blockrange_find(ctx, 100));
	assert_fig(info.coverage, OK, 1.0);
	assert_fig(info.entry, OK, 100);
	assert_fig(info.taken, NA, 0);
	assert_fig(info.pred, NA, 0);
	/* 104: middle of a range: coverage only */
	blockrange_addr_info(ctx, 104, &info);
	assert_fig(info.coverage, OK, 1.0);
	assert_fig(info.entry, NA, 0);
	assert_fig(info.taken, NA, 0);
	/* 108: the branch */
	blockrange_addr_info(ctx, 108, &info);
	assert_fig(info.entry, NA, 0);
	assert_fig(info.taken, OK, 75);
	assert_fig(info.pred, OK, 100);
	/* 109: start of a range that is no target */
	blockrange_addr_info(ctx, 109, &info);
	assert_fig(info.coverage, OK, 0.25);
	assert_fig(info.entry, NA, 0);
	/* 115: hole */
	blockrange_addr_info(ctx, 115, &info);
	ck_assert_ptr_null(info.range);
	assert_fig(info.coverage, OK, 0);
	assert_fig(info.entry, NA, 0);
	assert_fig(info.taken, NA, 0);
	assert_fig(info.pred, NA, 0);
}
END_TEST

/* A single-address range is target and branch at the same address. */
START_TEST(test_fig_addr_info_single)
{
	struct blockrange_addr_info info;

	count(200, 200, OWN_B, HIT);
	count(200, 200, OWN_B, MISS);
	blockrange_addr_info(ctx, 200, &info);
	assert_fig(info.coverage, OK, 1.0);	/* B's own max is 2 */
	assert_fig(info.entry, OK, 100);
	assert_fig(info.taken, OK, 100);
	assert_fig(info.pred, OK, 50);
}
END_TEST

static void empty_setup(void)
{
	ctx = blockrange_ctx_new(NULL);
	ck_assert_ptr_nonnull(ctx);
}

START_TEST(test_fig_unknown_without_blocks)
{
	struct blockrange_addr_info info;

	assert_fig(blockrange_coverage(ctx, NULL), UNKNOWN, 0);
	blockrange_addr_info(ctx, 100, &info);
	ck_assert_ptr_null(info.range);
	assert_fig(info.coverage, UNKNOWN, 0);
	assert_fig(info.entry, NA, 0);
}
END_TEST

START_TEST(test_fig_unknown_without_owner)
{
	count(100, 200, NULL, HIT);
	assert_fig(blockrange_coverage(ctx, blockrange_find(ctx, 150)),
		   UNKNOWN, 0);
	/* The other figures do not need an owner. */
	assert_fig(blockrange_taken_pct(blockrange_find(ctx, 200)), OK, 100);
	assert_fig(blockrange_entry_pct(blockrange_find(ctx, 100)), OK, 100);
}
END_TEST

/* Created but never counted: divisors are 0. */
START_TEST(test_fig_unknown_zero_coverage)
{
	struct blockrange *br;

	ck_assert_int_eq(blockrange_create(ctx, 100, 200, NULL), 0);
	count(300, 300, OWN_A, HIT);	/* prediction data exists */
	br = blockrange_find(ctx, 100);
	assert_fig(blockrange_entry_pct(br), UNKNOWN, 0);
	assert_fig(blockrange_taken_pct(br), UNKNOWN, 0);
	assert_fig(blockrange_pred_pct(ctx, br), UNKNOWN, 0);
	assert_fig(blockrange_coverage(ctx, br), UNKNOWN, 0);
}
END_TEST

/* Without any P/M flag in the data, pred% is unknown, not 0%. */
START_TEST(test_fig_pred_unknown_without_flags)
{
	count(100, 200, OWN_A, UNK);
	count(100, 200, OWN_A, UNK);
	ck_assert(!blockrange_has_pred(ctx));
	assert_fig(blockrange_taken_pct(blockrange_find(ctx, 200)), OK, 100);
	assert_fig(blockrange_pred_pct(ctx, blockrange_find(ctx, 200)),
		   UNKNOWN, 0);
	/* One mispredicted branch anywhere: now it is known (0%). */
	count(300, 400, OWN_A, MISS);
	ck_assert(blockrange_has_pred(ctx));
	assert_fig(blockrange_pred_pct(ctx, blockrange_find(ctx, 200)), OK, 0);
}
END_TEST

/* A branch range whose taken was moved to the split-off tail: taken 0. */
START_TEST(test_fig_pred_unknown_taken_zero)
{
	struct blockrange *br;

	count(100, 200, OWN_A, HIT);
	ck_assert_int_eq(blockrange_create(ctx, 100, 150, NULL), 0);
	br = blockrange_find(ctx, 150);
	ck_assert(br->is_branch);
	ck_assert_uint_eq(br->taken, 0);
	assert_fig(blockrange_taken_pct(br), OK, 0);
	assert_fig(blockrange_pred_pct(ctx, br), UNKNOWN, 0);
	/* The tail kept taken and pred: 1/1 */
	assert_fig(blockrange_pred_pct(ctx, blockrange_find(ctx, 200)), OK, 100);
	/* The tail is no target. */
	assert_fig(blockrange_entry_pct(blockrange_find(ctx, 151)), NA, 0);
}
END_TEST

/*
 * +entry% of a target range that is no branch walks to the next branch
 * range: [50,99] entry 1 / [100,150] coverage 2 = 50% (the seed's head-add
 * case).  Non-branch ranges have NA taken / pred.  [100,150] belongs to A
 * (its block starts at 100, B's at 50): A's maximum is 2, B's 1.
 */
START_TEST(test_fig_entry_walks_to_branch)
{
	struct blockrange *head;

	count(100, 200, OWN_A, UNK);
	count(50, 150, OWN_B, HIT);
	head = blockrange_find(ctx, 50);
	ck_assert(head->is_target && !head->is_branch);
	assert_fig(blockrange_entry_pct(head), OK, 50);
	assert_fig(blockrange_taken_pct(head), NA, 0);
	assert_fig(blockrange_pred_pct(ctx, head), NA, 0);
	/* [100,150]: entry 1 / own coverage 2 */
	assert_fig(blockrange_entry_pct(blockrange_find(ctx, 100)), OK, 50);
	/* coverage of [151,200]: 1 / max of A (2) */
	assert_fig(blockrange_coverage(ctx, blockrange_find(ctx, 151)), OK, 0.5);
	/* coverage of [50,99]: 1 / max of B (1) */
	assert_fig(blockrange_coverage(ctx, head), OK, 1);
}
END_TEST

/*
 * The split-off head keeps its owner (the seed would lose it and report
 * unknown coverage although the counters were carried over).
 */
START_TEST(test_fig_split_keeps_owner)
{
	count(100, 200, OWN_A, UNK);
	count(100, 200, OWN_A, UNK);
	ck_assert_int_eq(blockrange_create(ctx, 150, 160, NULL), 0);
	assert_fig(blockrange_coverage(ctx, blockrange_find(ctx, 100)), OK, 1);
	assert_fig(blockrange_coverage(ctx, blockrange_find(ctx, 155)), OK, 1);
	assert_fig(blockrange_coverage(ctx, blockrange_find(ctx, 199)), OK, 1);
}
END_TEST

Suite *figures_suite(void)
{
	Suite *s = suite_create("figures");
	TCase *loop = tcase_create("loop");
	TCase *edge = tcase_create("edge");

	tcase_add_checked_fixture(loop, loop_setup, teardown);
	tcase_add_test(loop, test_fig_coverage_ratio);
	tcase_add_test(loop, test_fig_entry_pct);
	tcase_add_test(loop, test_fig_taken_pct);
	tcase_add_test(loop, test_fig_pred_pct);
	tcase_add_test(loop, test_fig_addr_info);
	tcase_add_test(loop, test_fig_addr_info_single);
	suite_add_tcase(s, loop);

	tcase_add_checked_fixture(edge, empty_setup, teardown);
	tcase_add_test(edge, test_fig_unknown_without_blocks);
	tcase_add_test(edge, test_fig_unknown_without_owner);
	tcase_add_test(edge, test_fig_unknown_zero_coverage);
	tcase_add_test(edge, test_fig_pred_unknown_without_flags);
	tcase_add_test(edge, test_fig_pred_unknown_taken_zero);
	tcase_add_test(edge, test_fig_entry_walks_to_branch);
	tcase_add_test(edge, test_fig_split_keeps_owner);
	suite_add_tcase(s, edge);
	return s;
}
