// SPDX-License-Identifier: GPL-2.0
/*
 * One test per split situation of the seed's block_range__create(), each
 * asserting every counter, flag and owner of every resulting range.  The
 * expected values were worked out by hand from the seed's rules (see the
 * comment in each test).
 */
#include <errno.h>

#include "tests.h"

#define MAX UINT64_MAX
#define T true
#define F false
#define R(s, e, cov, ent, tk, pr, tg, br, own) \
	{ .start = (s), .end = (e), .coverage = (cov), .entry = (ent), \
	  .taken = (tk), .pred = (pr), .is_target = (tg), .is_branch = (br), \
	  .owner = (own) }

#define HIT BLOCKRANGE_PRED_HIT
#define MISS BLOCKRANGE_PRED_MISS
#define UNK BLOCKRANGE_PRED_UNKNOWN

static struct blockrange_ctx *ctx;

static void setup(void)
{
	ctx = blockrange_ctx_new(NULL);
	ck_assert_ptr_nonnull(ctx);
}

static void teardown(void)
{
	blockrange_ctx_free(ctx);
	ctx = NULL;
}

static void count(uint64_t s, uint64_t e, const void *owner,
		  enum blockrange_pred pred)
{
	ck_assert_int_eq(blockrange_count_block(ctx, s, e, owner, pred), 0);
}

static void assert_fig_ok(struct blockrange_fig f, double v)
{
	ck_assert_int_eq(f.status, BLOCKRANGE_FIG_OK);
	ck_assert_double_eq_tol(f.value, v, 1e-9);
}

/* Iterate @it and check it yields exactly @n contiguous ranges s..e. */
static void assert_iter(struct blockrange_iter *it, uint64_t s, uint64_t e,
			size_t n)
{
	struct blockrange *br, *prev = NULL;
	size_t i = 0;

	ck_assert_ptr_nonnull(it->first);
	ck_assert_ptr_nonnull(it->last);
	ck_assert_uint_eq(it->first->start, s);
	ck_assert_uint_eq(it->last->end, e);
	ck_assert(it->first->is_target);
	ck_assert(it->last->is_branch);
	while ((br = blockrange_iter_next(it))) {
		if (prev)
			ck_assert_uint_eq(br->start, prev->end + 1);
		prev = br;
		i++;
	}
	ck_assert_ptr_eq(prev, it->last);
	ck_assert_uint_eq(i, n);
	ck_assert_ptr_null(blockrange_iter_next(it));
}

/* Empty tree: the block becomes one range, target and branch. */
START_TEST(test_split_empty_tree)
{
	static const struct exp_range e[] = {
		R(0x10, 0x20, 1, 1, 1, 1, T, T, OWN_A),
	};
	struct blockrange_iter it;

	ck_assert_int_eq(blockrange_create(ctx, 0x10, 0x20, &it), 0);
	assert_iter(&it, 0x10, 0x20, 1);
	count(0x10, 0x20, OWN_A, HIT);
	assert_ranges(ctx, e);
	ck_assert_uint_eq(blockrange_ctx_nr_blocks(ctx), 2);
}
END_TEST

/* A block entirely before the existing ranges: a separate range. */
START_TEST(test_split_hole_before)
{
	static const struct exp_range e[] = {
		R(10, 20, 1, 1, 1, 1, T, T, OWN_B),
		R(100, 200, 1, 1, 1, 0, T, T, OWN_A),
	};

	count(100, 200, OWN_A, UNK);
	count(10, 20, OWN_B, HIT);
	assert_ranges(ctx, e);
}
END_TEST

/* A block entirely after the existing ranges: a separate range. */
START_TEST(test_split_hole_after)
{
	static const struct exp_range e[] = {
		R(100, 200, 1, 1, 1, 0, T, T, OWN_A),
		R(300, 400, 1, 1, 1, 0, T, T, OWN_B),
	};

	count(100, 200, OWN_A, MISS);
	count(300, 400, OWN_B, MISS);
	assert_ranges(ctx, e);
}
END_TEST

/*
 * Head add: [50, 150] over [100, 200].  New head [50, 99] (target, no
 * branch); [100, 200] is split at 150: [100, 150] keeps coverage, entry and
 * target and becomes a branch with taken = pred = 0; the tail [151, 200]
 * keeps coverage, taken, pred and is_branch, is no target, has entry 0.
 * Then the count: entry on [50, 99], coverage on both, taken/pred on
 * [100, 150].  Owners: [100, 150] is covered by A's block (start 100) and
 * B's (start 50): the higher start wins, A; so A's maximum is 2, B's 1.
 */
START_TEST(test_split_head_add)
{
	static const struct exp_range e[] = {
		R(50, 99, 1, 1, 0, 0, T, F, OWN_B),
		R(100, 150, 2, 1, 1, 1, T, T, OWN_A),
		R(151, 200, 1, 0, 1, 0, F, T, OWN_A),
	};
	struct blockrange_iter it;

	count(100, 200, OWN_A, UNK);
	count(50, 150, OWN_B, HIT);
	assert_ranges(ctx, e);
	ck_assert_uint_eq(blockrange_owner_max(ctx, OWN_A), 2);
	ck_assert_uint_eq(blockrange_owner_max(ctx, OWN_B), 1);
	/* Creating the same block again returns the same two ranges. */
	ck_assert_int_eq(blockrange_create(ctx, 50, 150, &it), 0);
	assert_iter(&it, 50, 150, 2);
	assert_ranges(ctx, e);
}
END_TEST

/*
 * Split of an existing head: [150, 200] inside [100, 200] at its end.  The
 * head [100, 149] keeps is_target, coverage and entry, is no branch, taken 0;
 * [150, 200] becomes a target with entry 0 and keeps taken.
 */
START_TEST(test_split_existing_head)
{
	static const struct exp_range e[] = {
		R(100, 149, 1, 1, 0, 0, T, F, OWN_A),
		R(150, 200, 2, 1, 2, 0, T, T, OWN_B),
	};

	count(100, 200, OWN_A, UNK);
	count(150, 200, OWN_B, MISS);
	assert_ranges(ctx, e);
	ck_assert(blockrange_has_pred(ctx));
}
END_TEST

/* Exact match: no new range, the counters add up. */
START_TEST(test_split_exact_match)
{
	static const struct exp_range e[] = {
		R(100, 200, 2, 2, 2, 1, T, T, OWN_A),
	};
	struct blockrange_iter it;

	count(100, 200, OWN_A, HIT);
	count(100, 200, OWN_A, MISS);
	assert_ranges(ctx, e);
	ck_assert_int_eq(blockrange_create(ctx, 100, 200, &it), 0);
	assert_iter(&it, 100, 200, 1);
	assert_ranges(ctx, e);
	ck_assert_uint_eq(blockrange_owner_max(ctx, OWN_A), 2);
}
END_TEST

/*
 * Split tail: [100, 150] inside [100, 200] at its start.  [100, 150] keeps
 * entry and coverage, becomes a branch with taken = pred = 0; the tail
 * [151, 200] takes coverage, taken and pred, entry 0, no target.  Both
 * blocks start at 100: the owner of [100, 150] is the smaller key, A.
 */
START_TEST(test_split_tail)
{
	static const struct exp_range e[] = {
		R(100, 150, 2, 2, 1, 0, T, T, OWN_A),
		R(151, 200, 1, 0, 1, 1, F, T, OWN_A),
	};

	count(100, 200, OWN_A, HIT);
	count(100, 150, OWN_B, UNK);
	assert_ranges(ctx, e);
}
END_TEST

/*
 * Tail add: [150, 300] starts inside [100, 200] and goes past the last
 * range.  Head split at 150, then a new range [201, 300] that is a branch
 * but no target; [150, 200] keeps taken 1 (200 is still a branch).
 */
START_TEST(test_split_tail_add)
{
	static const struct exp_range e[] = {
		R(100, 149, 1, 1, 0, 0, T, F, OWN_A),
		R(150, 200, 2, 1, 1, 0, T, T, OWN_B),
		R(201, 300, 1, 0, 1, 0, F, T, OWN_B),
	};

	count(100, 200, OWN_A, UNK);
	count(150, 300, OWN_B, UNK);
	assert_ranges(ctx, e);
	ck_assert(!blockrange_has_pred(ctx));
}
END_TEST

/*
 * Hole fill between ranges: [100, 250] over [100, 150] and [200, 250]: the
 * hole [151, 199] becomes a range that is neither target nor branch.
 * Owners: [100, 150] has A and B starting at 100 (tie: the smaller key, A),
 * [200, 250] A starting at 200 against B at 100 (A); A's maximum is 2.
 */
START_TEST(test_split_hole_fill)
{
	static const struct exp_range e[] = {
		R(100, 150, 2, 2, 1, 0, T, T, OWN_A),
		R(151, 199, 1, 0, 0, 0, F, F, OWN_B),
		R(200, 250, 2, 1, 2, 1, T, T, OWN_A),
	};
	struct blockrange_iter it;

	count(100, 150, OWN_A, UNK);
	count(200, 250, OWN_A, UNK);
	count(100, 250, OWN_B, HIT);
	assert_ranges(ctx, e);
	ck_assert_uint_eq(blockrange_owner_max(ctx, OWN_A), 2);
	ck_assert_uint_eq(blockrange_owner_max(ctx, OWN_B), 1);
	ck_assert_int_eq(blockrange_create(ctx, 100, 250, &it), 0);
	assert_iter(&it, 100, 250, 3);
}
END_TEST

/*
 * Single-instruction block (a jump to a jump): start == end.  Then a block
 * around it: head hole [90, 99], the one-address range, tail [101, 110].
 * [100, 100] stays A's: A's block starts there, B's at 90.
 */
START_TEST(test_split_single_instruction)
{
	static const struct exp_range e1[] = {
		R(100, 100, 1, 1, 1, 1, T, T, OWN_A),
	};
	static const struct exp_range e2[] = {
		R(90, 99, 1, 1, 0, 0, T, F, OWN_B),
		R(100, 100, 2, 1, 1, 1, T, T, OWN_A),
		R(101, 110, 1, 0, 1, 0, F, T, OWN_B),
	};

	count(100, 100, OWN_A, HIT);
	assert_ranges(ctx, e1);
	count(90, 110, OWN_B, MISS);
	assert_ranges(ctx, e2);
}
END_TEST

/* A single instruction in the middle of a range splits it in three. */
START_TEST(test_split_single_instruction_inside)
{
	static const struct exp_range e[] = {
		R(100, 149, 1, 1, 0, 0, T, F, OWN_A),
		R(150, 150, 2, 1, 1, 0, T, T, OWN_B),
		R(151, 200, 1, 0, 1, 1, F, T, OWN_A),
	};

	count(100, 200, OWN_A, HIT);
	count(150, 150, OWN_B, MISS);
	assert_ranges(ctx, e);
}
END_TEST

/*
 * Adjacent ranges are never merged, and a block over both needs no hole.
 * B's block starts at 100, no later than A's: A keeps both ranges.
 */
START_TEST(test_split_adjacent)
{
	static const struct exp_range e1[] = {
		R(100, 149, 1, 1, 1, 0, T, T, OWN_A),
		R(150, 200, 1, 1, 1, 0, T, T, OWN_A),
	};
	static const struct exp_range e2[] = {
		R(100, 149, 2, 2, 1, 0, T, T, OWN_A),
		R(150, 200, 2, 1, 2, 0, T, T, OWN_A),
	};
	struct blockrange_iter it;

	count(100, 149, OWN_A, UNK);
	count(150, 200, OWN_A, UNK);
	assert_ranges(ctx, e1);
	ck_assert_int_eq(blockrange_create(ctx, 100, 200, &it), 0);
	assert_iter(&it, 100, 200, 2);
	count(100, 200, OWN_B, UNK);
	assert_ranges(ctx, e2);
}
END_TEST

/*
 * One block covering many ranges: holes before, between and after four
 * ranges are filled; only the first piece gets entry, only the last taken.
 * A's four ranges stay A's (their blocks start after B's), the holes are
 * B's.
 */
START_TEST(test_split_covering_many)
{
	static const struct exp_range e[] = {
		R(5, 9, 1, 1, 0, 0, T, F, OWN_B),
		R(10, 19, 2, 1, 1, 0, T, T, OWN_A),
		R(20, 29, 1, 0, 0, 0, F, F, OWN_B),
		R(30, 39, 2, 1, 1, 0, T, T, OWN_A),
		R(40, 49, 1, 0, 0, 0, F, F, OWN_B),
		R(50, 59, 2, 1, 1, 0, T, T, OWN_A),
		R(60, 69, 1, 0, 0, 0, F, F, OWN_B),
		R(70, 79, 2, 1, 1, 0, T, T, OWN_A),
		R(80, 100, 1, 0, 1, 1, F, T, OWN_B),
	};
	struct blockrange_iter it;

	count(10, 19, OWN_A, UNK);
	count(50, 59, OWN_A, UNK);
	count(30, 39, OWN_A, UNK);
	count(70, 79, OWN_A, UNK);
	count(5, 100, OWN_B, HIT);
	assert_ranges(ctx, e);
	ck_assert_uint_eq(blockrange_owner_max(ctx, OWN_A), 2);
	ck_assert_uint_eq(blockrange_owner_max(ctx, OWN_B), 1);
	ck_assert_int_eq(blockrange_create(ctx, 5, 100, &it), 0);
	assert_iter(&it, 5, 100, 9);
}
END_TEST

/*
 * A block strictly inside one range: split at both ends.  The head keeps
 * entry, the tail keeps taken / pred / is_branch, the middle gets neither.
 */
START_TEST(test_split_inside_one_range)
{
	static const struct exp_range e[] = {
		R(100, 119, 1, 1, 0, 0, T, F, OWN_A),
		R(120, 150, 2, 1, 1, 0, T, T, OWN_B),
		R(151, 200, 1, 0, 1, 1, F, T, OWN_A),
	};

	count(100, 200, OWN_A, HIT);
	count(120, 150, OWN_B, UNK);
	assert_ranges(ctx, e);
}
END_TEST

/*
 * Head split, hole fill and tail split in one call.  [300, 350] stays A's
 * (its A block starts at 300, B's at 150).
 */
START_TEST(test_split_head_hole_tail)
{
	static const struct exp_range e[] = {
		R(100, 149, 1, 1, 0, 0, T, F, OWN_A),
		R(150, 200, 2, 1, 1, 0, T, T, OWN_B),
		R(201, 299, 1, 0, 0, 0, F, F, OWN_B),
		R(300, 350, 2, 1, 1, 1, T, T, OWN_A),
		R(351, 400, 1, 0, 1, 0, F, T, OWN_A),
	};
	struct blockrange_iter it;

	count(100, 200, OWN_A, UNK);
	count(300, 400, OWN_A, UNK);
	ck_assert_int_eq(blockrange_create(ctx, 150, 350, &it), 0);
	assert_iter(&it, 150, 350, 3);
	count(150, 350, OWN_B, HIT);
	assert_ranges(ctx, e);
}
END_TEST

/*
 * The whole address space [1, UINT64_MAX], then its last and first
 * address: no end + 1 overflow anywhere.  [1, 1] has A's and C's blocks
 * starting at 1: the smaller key, A.
 */
START_TEST(test_split_full_space)
{
	static const struct exp_range e1[] = {
		R(1, MAX, 1, 1, 1, 0, T, T, OWN_A),
	};
	static const struct exp_range e2[] = {
		R(1, MAX - 1, 1, 1, 0, 0, T, F, OWN_A),
		R(MAX, MAX, 2, 1, 2, 1, T, T, OWN_B),
	};
	static const struct exp_range e3[] = {
		R(1, 1, 2, 2, 1, 0, T, T, OWN_A),
		R(2, MAX - 1, 1, 0, 0, 0, F, F, OWN_A),
		R(MAX, MAX, 2, 1, 2, 1, T, T, OWN_B),
	};

	count(1, MAX, OWN_A, UNK);
	assert_ranges(ctx, e1);
	count(MAX, MAX, OWN_B, HIT);
	assert_ranges(ctx, e2);
	count(1, 1, OWN_C, UNK);
	assert_ranges(ctx, e3);
	ck_assert_ptr_eq(blockrange_find(ctx, MAX), blockrange_last(ctx));
	ck_assert_ptr_eq(blockrange_find(ctx, 1), blockrange_first(ctx));
	ck_assert_ptr_null(blockrange_find(ctx, 0));
}
END_TEST

/* Tail add and hole fill that end at UINT64_MAX. */
START_TEST(test_split_top_of_space)
{
	static const struct exp_range e1[] = {
		R(MAX - 10, MAX - 8, 1, 1, 0, 0, T, F, OWN_A),
		R(MAX - 7, MAX - 5, 2, 1, 1, 0, T, T, OWN_B),
		R(MAX - 4, MAX, 1, 0, 1, 0, F, T, OWN_B),
	};

	count(MAX - 10, MAX - 5, OWN_A, UNK);
	count(MAX - 7, MAX, OWN_B, UNK);
	assert_ranges(ctx, e1);
}
END_TEST

/* The two one-address ranges stay A's: its blocks start after B's. */
START_TEST(test_split_top_hole_fill)
{
	static const struct exp_range e[] = {
		R(MAX - 3, MAX - 2, 1, 1, 0, 0, T, F, OWN_B),
		R(MAX - 1, MAX - 1, 2, 1, 1, 0, T, T, OWN_A),
		R(MAX, MAX, 2, 1, 2, 0, T, T, OWN_A),
	};

	count(MAX, MAX, OWN_A, UNK);
	count(MAX - 1, MAX - 1, OWN_A, UNK);
	count(MAX - 3, MAX, OWN_B, UNK);
	assert_ranges(ctx, e);
}
END_TEST

/* start == 0 and start > end are rejected and change nothing. */
START_TEST(test_split_invalid)
{
	static const struct exp_range e[] = {
		R(100, 200, 1, 1, 1, 0, T, T, OWN_A),
	};
	struct blockrange_iter it = { (void *)1, (void *)1, (void *)1 };

	ck_assert_int_eq(blockrange_create(ctx, 0, 5, &it), -EINVAL);
	ck_assert(!it.first && !it.last && !it.next);
	ck_assert_int_eq(blockrange_create(ctx, 0, 0, NULL), -EINVAL);
	ck_assert_int_eq(blockrange_create(ctx, 0, MAX, NULL), -EINVAL);
	ck_assert_int_eq(blockrange_create(ctx, 6, 5, NULL), -EINVAL);
	ck_assert_int_eq(blockrange_create(ctx, MAX, MAX - 1, NULL), -EINVAL);
	ck_assert_uint_eq(blockrange_ctx_nr_ranges(ctx), 0);
	ck_assert_uint_eq(blockrange_ctx_nr_blocks(ctx), 0);
	count(100, 200, OWN_A, UNK);
	ck_assert_int_eq(blockrange_count_block(ctx, 0, 150, OWN_B, HIT),
			 -EINVAL);
	ck_assert_int_eq(blockrange_count_block(ctx, 150, 149, OWN_B, HIT),
			 -EINVAL);
	assert_ranges(ctx, e);
	ck_assert_uint_eq(blockrange_ctx_nr_blocks(ctx), 1);
	ck_assert_uint_eq(blockrange_nr_owners(ctx), 1);
	ck_assert(!blockrange_has_pred(ctx));
}
END_TEST

/* Create without counting sets the flags only. */
START_TEST(test_split_create_only)
{
	static const struct exp_range e[] = {
		R(100, 149, 0, 0, 0, 0, T, F, NULL),
		R(150, 200, 0, 0, 0, 0, T, T, NULL),
		R(201, 250, 0, 0, 0, 0, F, T, NULL),
	};
	struct blockrange_iter it;

	ck_assert_int_eq(blockrange_create(ctx, 100, 200, &it), 0);
	assert_iter(&it, 100, 200, 1);
	ck_assert_int_eq(blockrange_create(ctx, 150, 250, &it), 0);
	assert_iter(&it, 150, 250, 2);
	assert_ranges(ctx, e);
	ck_assert_uint_eq(blockrange_ctx_nr_blocks(ctx), 2);
	ck_assert_uint_eq(blockrange_nr_owners(ctx), 0);
}
END_TEST

/* The iterator can be rewound and walked again; NULL @it is allowed. */
START_TEST(test_split_iter_rewind)
{
	struct blockrange_iter it;

	count(10, 19, OWN_A, UNK);
	count(30, 39, OWN_A, UNK);
	ck_assert_int_eq(blockrange_create(ctx, 10, 39, &it), 0);
	assert_iter(&it, 10, 39, 3);
	blockrange_iter_rewind(&it);
	assert_iter(&it, 10, 39, 3);
	ck_assert_int_eq(blockrange_create(ctx, 5, 45, NULL), 0);
	ck_assert_uint_eq(blockrange_ctx_nr_ranges(ctx), 5);
}
END_TEST

/* NULL owner: ranges without owner; a later owner takes them over. */
START_TEST(test_split_null_owner)
{
	static const struct exp_range e1[] = {
		R(100, 200, 1, 1, 1, 0, T, T, NULL),
	};
	static const struct exp_range e2[] = {
		R(100, 149, 1, 1, 0, 0, T, F, NULL),
		R(150, 200, 2, 1, 2, 0, T, T, OWN_A),
	};

	count(100, 200, NULL, UNK);
	assert_ranges(ctx, e1);
	ck_assert_uint_eq(blockrange_nr_owners(ctx), 0);
	ck_assert_uint_eq(blockrange_owner_max(ctx, NULL), 0);
	count(150, 200, OWN_A, UNK);
	assert_ranges(ctx, e2);
	ck_assert_uint_eq(blockrange_nr_owners(ctx), 1);
	ck_assert_uint_eq(blockrange_owner_max(ctx, OWN_A), 2);
}
END_TEST

/* Many owners (the owner table grows several times). */
START_TEST(test_split_many_owners)
{
	enum { N = 300 };
	static char keys[N];
	const struct blockrange *br;
	int i;

	for (i = 0; i < N; i++)
		count((uint64_t)i * 10 + 1, (uint64_t)i * 10 + 5, &keys[i],
		      UNK);
	/* Give owner i a maximum coverage of 1 + i % 5. */
	for (i = 0; i < N; i++) {
		int k;

		for (k = 0; k < i % 5; k++)
			count((uint64_t)i * 10 + 1, (uint64_t)i * 10 + 5,
			      &keys[i], UNK);
	}
	ck_assert_uint_eq(blockrange_nr_owners(ctx), N);
	for (i = 0, br = blockrange_first(ctx); i < N;
	     i++, br = blockrange_next(br)) {
		ck_assert_ptr_nonnull(br);
		ck_assert_ptr_eq(blockrange_owner(ctx, br), &keys[i]);
		ck_assert_uint_eq(br->coverage, 1 + i % 5);
		ck_assert_uint_eq(blockrange_owner_max(ctx, &keys[i]),
				  1 + i % 5);
	}
	ck_assert_ptr_null(br);
	ck_assert_uint_eq(blockrange_owner_max(ctx, OWN_A), 0);
}
END_TEST

/*
 * Owner max is the highest final coverage of a range the owner owns, and
 * the owner of a range does not depend on the order of the blocks (the seed
 * would answer B, A 2, B 3 here and A, A 3, B 1 for the reverse order): both
 * blocks start at 100, A is the smaller key and owns the range, coverage 3;
 * B owns no range.
 */
START_TEST(test_split_owner_max_rule)
{
	struct blockrange_ctx *rev = blockrange_ctx_new(NULL);
	const void *order[] = { OWN_A, OWN_A, OWN_B };
	int i;

	ck_assert_ptr_nonnull(rev);
	for (i = 0; i < 3; i++) {
		count(100, 200, order[i], UNK);
		ck_assert_int_eq(blockrange_count_block(rev, 100, 200,
							order[2 - i], UNK), 0);
	}
	ck_assert_uint_eq(blockrange_owner_max(ctx, OWN_A), 3);
	ck_assert_uint_eq(blockrange_owner_max(ctx, OWN_B), 0);
	ck_assert_ptr_eq(blockrange_owner(ctx, blockrange_first(ctx)), OWN_A);
	ck_assert_uint_eq(blockrange_owner_max(rev, OWN_A), 3);
	ck_assert_uint_eq(blockrange_owner_max(rev, OWN_B), 0);
	ck_assert_ptr_eq(blockrange_owner(rev, blockrange_first(rev)), OWN_A);
	blockrange_ctx_free(rev);
}
END_TEST

/*
 * A range taken over by another owner no longer counts for its old owner's
 * maximum: A's block [100, 200] is counted 5 times, then B's [150, 200]
 * (higher start) takes [150, 200] with coverage 6, so A's maximum is that
 * of [100, 149], 5, and B's 6.  Then C's [120, 200] takes [120, 149]
 * (start 120 > 100) but not [150, 200] (B's start 150 is higher).
 */
START_TEST(test_split_owner_taken_over)
{
	int i;

	for (i = 0; i < 5; i++)
		count(100, 200, OWN_A, UNK);
	ck_assert_uint_eq(blockrange_owner_max(ctx, OWN_A), 5);
	count(150, 200, OWN_B, UNK);
	ck_assert_uint_eq(blockrange_owner_max(ctx, OWN_A), 5);
	ck_assert_uint_eq(blockrange_owner_max(ctx, OWN_B), 6);
	count(120, 200, OWN_C, UNK);
	ck_assert_uint_eq(blockrange_owner_max(ctx, OWN_A), 5);
	ck_assert_uint_eq(blockrange_owner_max(ctx, OWN_B), 7);
	ck_assert_uint_eq(blockrange_owner_max(ctx, OWN_C), 6);
	ck_assert_ptr_eq(blockrange_owner(ctx, blockrange_find(ctx, 100)), OWN_A);
	ck_assert_ptr_eq(blockrange_owner(ctx, blockrange_find(ctx, 120)), OWN_C);
	ck_assert_ptr_eq(blockrange_owner(ctx, blockrange_find(ctx, 150)), OWN_B);
	/* A's maximum now comes from [100, 119] alone; A loses nothing more. */
	ck_assert_uint_eq(blockrange_find(ctx, 100)->coverage, 5);
}
END_TEST

/*
 * The old owner's maximum came only from the range it loses: B's blocks
 * make [150, 200] (coverage 5) and [100, 149] (1); A's block starts at 150
 * too and is the smaller key, so it takes [150, 200] (coverage 6) and B's
 * maximum drops to 1.
 */
START_TEST(test_split_owner_max_drops)
{
	int i;

	count(100, 200, OWN_B, UNK);
	for (i = 0; i < 4; i++)
		count(150, 200, OWN_B, UNK);
	ck_assert_uint_eq(blockrange_owner_max(ctx, OWN_B), 5);
	count(150, 200, OWN_A, UNK);
	ck_assert_ptr_eq(blockrange_owner(ctx, blockrange_find(ctx, 150)), OWN_A);
	ck_assert_uint_eq(blockrange_owner_max(ctx, OWN_A), 6);
	ck_assert_uint_eq(blockrange_owner_max(ctx, OWN_B), 1);
	assert_fig_ok(blockrange_coverage(ctx, blockrange_find(ctx, 100)), 1.0);
}
END_TEST

Suite *split_suite(void)
{
	Suite *s = suite_create("split");
	TCase *tc = tcase_create("situations");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_split_empty_tree);
	tcase_add_test(tc, test_split_hole_before);
	tcase_add_test(tc, test_split_hole_after);
	tcase_add_test(tc, test_split_head_add);
	tcase_add_test(tc, test_split_existing_head);
	tcase_add_test(tc, test_split_exact_match);
	tcase_add_test(tc, test_split_tail);
	tcase_add_test(tc, test_split_tail_add);
	tcase_add_test(tc, test_split_hole_fill);
	tcase_add_test(tc, test_split_single_instruction);
	tcase_add_test(tc, test_split_single_instruction_inside);
	tcase_add_test(tc, test_split_adjacent);
	tcase_add_test(tc, test_split_covering_many);
	tcase_add_test(tc, test_split_inside_one_range);
	tcase_add_test(tc, test_split_head_hole_tail);
	tcase_add_test(tc, test_split_full_space);
	tcase_add_test(tc, test_split_top_of_space);
	tcase_add_test(tc, test_split_top_hole_fill);
	tcase_add_test(tc, test_split_invalid);
	tcase_add_test(tc, test_split_create_only);
	tcase_add_test(tc, test_split_iter_rewind);
	tcase_add_test(tc, test_split_null_owner);
	tcase_add_test(tc, test_split_many_owners);
	tcase_add_test(tc, test_split_owner_max_rule);
	tcase_add_test(tc, test_split_owner_taken_over);
	tcase_add_test(tc, test_split_owner_max_drops);
	suite_add_tcase(s, tc);
	return s;
}
