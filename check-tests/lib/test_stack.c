// SPDX-License-Identifier: GPL-2.0
/*
 * Branch stacks: order (newest first), the blocks between consecutive
 * entries, prediction flags, owners, and the skipped-block statistics.
 */
#include <errno.h>

#include "tests.h"

#define T true
#define F false
#define R(s, e, cov, ent, tk, pr, tg, br, own) \
	{ .start = (s), .end = (e), .coverage = (cov), .entry = (ent), \
	  .taken = (tk), .pred = (pr), .is_target = (tg), .is_branch = (br), \
	  .owner = (own) }

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

#define B(f, t, ...) { .from = (f), .to = (t), __VA_ARGS__ }

static void assert_stats(const struct blockrange_stack_stats *s,
			 uint64_t blocks, uint64_t counted, uint64_t abort_,
			 uint64_t in_tx, uint64_t zero, uint64_t reversed)
{
	ck_assert_uint_eq(s->blocks, blocks);
	ck_assert_uint_eq(s->counted, counted);
	ck_assert_uint_eq(s->skipped_abort, abort_);
	ck_assert_uint_eq(s->skipped_in_tx, in_tx);
	ck_assert_uint_eq(s->skipped_zero, zero);
	ck_assert_uint_eq(s->skipped_reversed, reversed);
}

/*
 * Newest first: br[0] = 0x130 -> 0x100 (the latest branch), br[1] =
 * 0x108 -> 0x116, br[2] = 0x200 -> 0x100.  Blocks, oldest first:
 * [br[2].to, br[1].from] = [0x100, 0x108] with br[1]'s flags (predicted),
 * [br[1].to, br[0].from] = [0x116, 0x130] with br[0]'s flags (mispredicted).
 * br[0].to and br[2].from belong to no block.
 */
START_TEST(test_stack_basic_order)
{
	static const struct blockrange_branch br[] = {
		B(0x130, 0x100, .mispredicted = true, .to_owner = OWN_C),
		B(0x108, 0x116, .predicted = true, .to_owner = OWN_B),
		B(0x200, 0x100, .to_owner = OWN_A),
	};
	static const struct exp_range e[] = {
		R(0x100, 0x108, 1, 1, 1, 1, T, T, OWN_A),
		R(0x116, 0x130, 1, 1, 1, 0, T, T, OWN_B),
	};
	struct blockrange_stack_stats st = { 0 };

	ck_assert_int_eq(blockrange_apply_stack(ctx, br, 3, &st), 0);
	assert_ranges(ctx, e);
	ck_assert_uint_eq(st.stacks, 1);
	ck_assert_uint_eq(st.entries, 3);
	assert_stats(&st, 2, 2, 0, 0, 0, 0);
	ck_assert(blockrange_has_pred(ctx));
}
END_TEST

/* 0 or 1 entries give no block; stats still count stack and entries. */
START_TEST(test_stack_too_short)
{
	static const struct blockrange_branch br[] = { B(0x10, 0x20) };
	struct blockrange_stack_stats st = { 0 };

	ck_assert_int_eq(blockrange_apply_stack(ctx, br, 0, &st), 0);
	ck_assert_int_eq(blockrange_apply_stack(ctx, NULL, 0, &st), 0);
	ck_assert_int_eq(blockrange_apply_stack(ctx, br, 1, &st), 0);
	ck_assert_uint_eq(st.stacks, 3);
	ck_assert_uint_eq(st.entries, 1);
	assert_stats(&st, 0, 0, 0, 0, 0, 0);
	ck_assert_uint_eq(blockrange_ctx_nr_ranges(ctx), 0);
	ck_assert_int_eq(blockrange_apply_stack(ctx, NULL, 2, &st), -EINVAL);
	ck_assert_int_eq(blockrange_apply_stack(ctx, br, 1, NULL), 0);
}
END_TEST

/* A loop sampled twice: the counters add up over stacks. */
START_TEST(test_stack_loop_accumulates)
{
	/* Loop body [0x100, 0x120], the back edge 0x120 -> 0x100. */
	static const struct blockrange_branch br[] = {
		B(0x120, 0x100, .predicted = true),
		B(0x120, 0x100, .predicted = true),
		B(0x120, 0x100, .mispredicted = true),
		B(0x120, 0x100),
	};
	static const struct exp_range e[] = {
		R(0x100, 0x120, 6, 6, 6, 4, T, T, NULL),
	};
	struct blockrange_stack_stats st = { 0 };

	/* Each stack: 3 blocks; flags of br[0], br[1], br[2]: P, P, M. */
	ck_assert_int_eq(blockrange_apply_stack(ctx, br, 4, &st), 0);
	ck_assert_int_eq(blockrange_apply_stack(ctx, br, 4, &st), 0);
	assert_ranges(ctx, e);
	ck_assert_uint_eq(st.stacks, 2);
	ck_assert_uint_eq(st.entries, 8);
	assert_stats(&st, 6, 6, 0, 0, 0, 0);
}
END_TEST

START_TEST(test_stack_skip_reversed)
{
	/* Block [0x200, 0x100]: reversed. */
	static const struct blockrange_branch br[] = {
		B(0x100, 0x300), B(0x50, 0x200),
	};
	struct blockrange_stack_stats st = { 0 };

	ck_assert_int_eq(blockrange_apply_stack(ctx, br, 2, &st), 0);
	assert_stats(&st, 1, 0, 0, 0, 0, 1);
	ck_assert_uint_eq(blockrange_ctx_nr_ranges(ctx), 0);
	ck_assert_uint_eq(blockrange_ctx_nr_blocks(ctx), 0);
}
END_TEST

START_TEST(test_stack_skip_zero)
{
	/* Blocks: [0, 0x100] (start 0), [0x200, 0] (end 0), [0x10, 0x20]. */
	static const struct blockrange_branch br[] = {
		B(0x20, 0x30), B(0, 0x10), B(0x100, 0x200), B(0x5, 0),
	};
	static const struct exp_range e[] = {
		R(0x10, 0x20, 1, 1, 1, 0, T, T, NULL),
	};
	struct blockrange_stack_stats st = { 0 };

	ck_assert_int_eq(blockrange_apply_stack(ctx, br, 4, &st), 0);
	assert_stats(&st, 3, 1, 0, 0, 2, 0);
	assert_ranges(ctx, e);
}
END_TEST

/*
 * An abort entry bounds two blocks: the one ending at it (its from is no
 * branch) and the one starting at its to.  Both are skipped.
 */
START_TEST(test_stack_skip_abort)
{
	static const struct blockrange_branch br[] = {
		B(0x400, 0x500),
		B(0x300, 0x350),
		B(0x200, 0x250, .abort = true),
		B(0x100, 0x150),
	};
	static const struct exp_range e[] = {
		R(0x350, 0x400, 1, 1, 1, 0, T, T, NULL),
	};
	struct blockrange_stack_stats st = { 0 };

	ck_assert_int_eq(blockrange_apply_stack(ctx, br, 4, &st), 0);
	assert_stats(&st, 3, 1, 2, 0, 0, 0);
	assert_ranges(ctx, e);
}
END_TEST

START_TEST(test_stack_skip_in_tx)
{
	static const struct blockrange_branch br[] = {
		B(0x400, 0x500),
		B(0x300, 0x350, .in_tx = true, .predicted = true),
		B(0x200, 0x250),
		B(0x100, 0x150),
	};
	static const struct exp_range e[] = {
		R(0x150, 0x200, 1, 1, 1, 0, T, T, NULL),
	};
	struct blockrange_stack_stats st = { 0 };

	ck_assert_int_eq(blockrange_apply_stack(ctx, br, 4, &st), 0);
	assert_stats(&st, 3, 1, 0, 2, 0, 0);
	assert_ranges(ctx, e);
	ck_assert(!blockrange_has_pred(ctx));
}
END_TEST

/* A block with several problems counts once, under the first reason. */
START_TEST(test_stack_skip_priority)
{
	static const struct blockrange_branch br[] = {
		/* abort + in_tx + zero + reversed: abort */
		B(0, 0x10, .abort = true, .in_tx = true),
		/* in_tx + reversed (0x500 > 0x400): in_tx */
		B(0x400, 0x500, .in_tx = true),
		/* zero (to = 0) */
		B(0x300, 0),
		/* its to starts the reversed block [0x900, 0x300] */
		B(0x200, 0x900),
	};
	struct blockrange_stack_stats st = { 0 };

	/*
	 * Blocks: [br[3].to, br[2].from] = [0x900, 0x300] reversed;
	 * [br[2].to, br[1].from] = [0, 0x400]: in_tx of br[1] first;
	 * [br[1].to, br[0].from] = [0x500, 0]: abort of br[0] first.
	 */
	ck_assert_int_eq(blockrange_apply_stack(ctx, br, 4, &st), 0);
	assert_stats(&st, 3, 0, 1, 1, 0, 1);
	ck_assert_uint_eq(blockrange_ctx_nr_ranges(ctx), 0);
}
END_TEST

/* Stats accumulate over calls; the caller zeroes them. */
START_TEST(test_stack_stats_accumulate)
{
	static const struct blockrange_branch good[] = {
		B(0x120, 0x100), B(0x120, 0x100),
	};
	static const struct blockrange_branch bad[] = {
		B(0x10, 0x100), B(0x120, 0x200),
	};
	struct blockrange_stack_stats st = { 0 };

	ck_assert_int_eq(blockrange_apply_stack(ctx, good, 2, &st), 0);
	ck_assert_int_eq(blockrange_apply_stack(ctx, bad, 2, &st), 0);
	ck_assert_int_eq(blockrange_apply_stack(ctx, good, 2, &st), 0);
	ck_assert_uint_eq(st.stacks, 3);
	ck_assert_uint_eq(st.entries, 6);
	assert_stats(&st, 3, 2, 0, 0, 0, 1);
	ck_assert_uint_eq(blockrange_find(ctx, 0x100)->coverage, 2);
}
END_TEST

/* predicted wins over mispredicted when both are set (as in the seed). */
START_TEST(test_stack_pred_flags)
{
	static const struct blockrange_branch br[] = {
		B(0x120, 0x100, .predicted = true, .mispredicted = true),
		B(0x120, 0x100, .mispredicted = true),
		B(0x120, 0x100),
		B(0x120, 0x100, .predicted = true),
		B(0x120, 0x100),
	};
	static const struct exp_range e[] = {
		/* 4 blocks; pred from br[0] (P+M) and br[3] (P) */
		R(0x100, 0x120, 4, 4, 4, 2, T, T, NULL),
	};

	ck_assert_int_eq(blockrange_apply_stack(ctx, br, 5, NULL), 0);
	assert_ranges(ctx, e);
	ck_assert(blockrange_has_pred(ctx));
}
END_TEST

/* The owner of a block is the to_owner of the older entry. */
START_TEST(test_stack_owner_from_older_entry)
{
	static const struct blockrange_branch br[] = {
		B(0x230, 0x100, .to_owner = OWN_C),
		B(0x130, 0x200, .to_owner = OWN_B),
		B(0x900, 0x100, .to_owner = OWN_A),
	};
	static const struct exp_range e[] = {
		R(0x100, 0x130, 1, 1, 1, 0, T, T, OWN_A),
		R(0x200, 0x230, 1, 1, 1, 0, T, T, OWN_B),
	};

	ck_assert_int_eq(blockrange_apply_stack(ctx, br, 3, NULL), 0);
	assert_ranges(ctx, e);
	ck_assert_uint_eq(blockrange_owner_max(ctx, OWN_C), 0);
	ck_assert_uint_eq(blockrange_nr_owners(ctx), 2);
}
END_TEST

/* cycles are carried but do not change any counter. */
START_TEST(test_stack_cycles_ignored)
{
	static const struct blockrange_branch a[] = {
		B(0x120, 0x100, .cycles = 7), B(0x120, 0x100, .cycles = 65535),
	};
	static const struct blockrange_branch b[] = {
		B(0x120, 0x100), B(0x120, 0x100),
	};
	static const struct exp_range e[] = {
		R(0x100, 0x120, 2, 2, 2, 0, T, T, NULL),
	};

	ck_assert_int_eq(blockrange_apply_stack(ctx, a, 2, NULL), 0);
	ck_assert_int_eq(blockrange_apply_stack(ctx, b, 2, NULL), 0);
	assert_ranges(ctx, e);
}
END_TEST

/* -ENOMEM in the middle: the older blocks are counted, the rest not. */
START_TEST(test_stack_enomem_partial)
{
	static const struct blockrange_branch br[] = {
		B(0x330, 0x100),
		B(0x230, 0x300),	/* block [0x200, 0x230]: fails */
		B(0x130, 0x200),	/* block [0x100, 0x130]: counted */
		B(0x900, 0x100),
	};
	struct test_alloc ta = { 0 };
	struct blockrange_allocator a = test_allocator(&ta);
	struct blockrange_ctx *c;
	struct blockrange_stack_stats st = { 0 };

	blockrange_ctx_free(ctx);
	/* allocation 1: the context, 2: the first chunk, 3: fails */
	ta.fail_at = 3;
	ta.sticky = true;
	c = ctx = blockrange_ctx_new(&a);
	ck_assert_ptr_nonnull(c);
	/* Fill the first chunk so the second block needs a new one. */
	{
		uint64_t i;

		for (i = 0; i < 31; i++)
			ck_assert_int_eq(blockrange_create(c, 0x10000 + 2 * i,
							   0x10000 + 2 * i,
							   NULL), 0);
	}
	ck_assert_int_eq(blockrange_apply_stack(c, br, 4, &st), -ENOMEM);
	assert_stats(&st, 1, 1, 0, 0, 0, 0);
	ck_assert_ptr_eq(blockrange_find(c, 0x100), blockrange_first(c));
	ck_assert_ptr_null(blockrange_find(c, 0x200));
	ck_assert_uint_eq(blockrange_ctx_nr_ranges(c), 32);
	ck_assert_uint_eq(blockrange_first(c)->coverage, 1);
	ck_assert_uint_eq(blockrange_first(c)->taken, 1);
	/* ta lives on this stack frame: free here, not in teardown. */
	blockrange_ctx_free(c);
	ctx = NULL;
	ck_assert_uint_eq(ta.live, 0);
}
END_TEST

Suite *stack_suite(void)
{
	Suite *s = suite_create("branch-stack");
	TCase *tc = tcase_create("apply");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_stack_basic_order);
	tcase_add_test(tc, test_stack_too_short);
	tcase_add_test(tc, test_stack_loop_accumulates);
	tcase_add_test(tc, test_stack_skip_reversed);
	tcase_add_test(tc, test_stack_skip_zero);
	tcase_add_test(tc, test_stack_skip_abort);
	tcase_add_test(tc, test_stack_skip_in_tx);
	tcase_add_test(tc, test_stack_skip_priority);
	tcase_add_test(tc, test_stack_stats_accumulate);
	tcase_add_test(tc, test_stack_pred_flags);
	tcase_add_test(tc, test_stack_owner_from_older_entry);
	tcase_add_test(tc, test_stack_cycles_ignored);
	tcase_add_test(tc, test_stack_enomem_partial);
	suite_add_tcase(s, tc);
	return s;
}
