// SPDX-License-Identifier: GPL-2.0
/* Lookup, navigation, spans, independent contexts and memory accounting. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#include "tests.h"

static struct blockrange_ctx *ctx;

/* Ranges [10,19] [20,29] (adjacent) and [40,49], [60,60]. */
static void setup(void)
{
	ctx = blockrange_ctx_new(NULL);
	ck_assert_ptr_nonnull(ctx);
	ck_assert_int_eq(blockrange_create(ctx, 10, 19, NULL), 0);
	ck_assert_int_eq(blockrange_create(ctx, 20, 29, NULL), 0);
	ck_assert_int_eq(blockrange_create(ctx, 40, 49, NULL), 0);
	ck_assert_int_eq(blockrange_create(ctx, 60, 60, NULL), 0);
}

static void teardown(void)
{
	blockrange_ctx_free(ctx);
	ctx = NULL;
}

static uint64_t start_of(const struct blockrange *br)
{
	ck_assert_ptr_nonnull(br);
	return br->start;
}

START_TEST(test_nav_find)
{
	ck_assert_ptr_null(blockrange_find(ctx, 0));
	ck_assert_ptr_null(blockrange_find(ctx, 9));
	ck_assert_uint_eq(start_of(blockrange_find(ctx, 10)), 10);
	ck_assert_uint_eq(start_of(blockrange_find(ctx, 15)), 10);
	ck_assert_uint_eq(start_of(blockrange_find(ctx, 19)), 10);
	ck_assert_uint_eq(start_of(blockrange_find(ctx, 20)), 20);
	ck_assert_uint_eq(start_of(blockrange_find(ctx, 29)), 20);
	ck_assert_ptr_null(blockrange_find(ctx, 30));
	ck_assert_ptr_null(blockrange_find(ctx, 39));
	ck_assert_uint_eq(start_of(blockrange_find(ctx, 49)), 40);
	ck_assert_uint_eq(start_of(blockrange_find(ctx, 60)), 60);
	ck_assert_ptr_null(blockrange_find(ctx, 61));
	ck_assert_ptr_null(blockrange_find(ctx, UINT64_MAX));
}
END_TEST

START_TEST(test_nav_find_ge)
{
	ck_assert_uint_eq(start_of(blockrange_find_ge(ctx, 0)), 10);
	ck_assert_uint_eq(start_of(blockrange_find_ge(ctx, 19)), 10);
	ck_assert_uint_eq(start_of(blockrange_find_ge(ctx, 30)), 40);
	ck_assert_uint_eq(start_of(blockrange_find_ge(ctx, 50)), 60);
	ck_assert_uint_eq(start_of(blockrange_find_ge(ctx, 60)), 60);
	ck_assert_ptr_null(blockrange_find_ge(ctx, 61));
	ck_assert_ptr_null(blockrange_find_ge(ctx, UINT64_MAX));
}
END_TEST

START_TEST(test_nav_first_last_next_prev)
{
	struct blockrange *br = blockrange_first(ctx);
	static const uint64_t starts[] = { 10, 20, 40, 60 };
	int i;

	for (i = 0; i < 4; i++, br = blockrange_next(br))
		ck_assert_uint_eq(start_of(br), starts[i]);
	ck_assert_ptr_null(br);
	br = blockrange_last(ctx);
	for (i = 3; i >= 0; i--, br = blockrange_prev(br))
		ck_assert_uint_eq(start_of(br), starts[i]);
	ck_assert_ptr_null(br);
}
END_TEST

/* Count the ranges of span(lo, hi) and check its first and last. */
static size_t span(uint64_t lo, uint64_t hi, uint64_t first, uint64_t last)
{
	struct blockrange_iter it;
	struct blockrange *br;
	size_t n = 0;

	ck_assert_int_eq(blockrange_span(ctx, lo, hi, &it), 0);
	if (!it.first) {
		ck_assert_ptr_null(it.last);
		ck_assert_ptr_null(blockrange_iter_next(&it));
		return 0;
	}
	ck_assert_uint_eq(it.first->start, first);
	ck_assert_uint_eq(it.last->start, last);
	while ((br = blockrange_iter_next(&it)))
		n++;
	return n;
}

START_TEST(test_nav_span)
{
	struct blockrange_iter it;

	ck_assert_uint_eq(span(1, 9, 0, 0), 0);
	ck_assert_uint_eq(span(30, 39, 0, 0), 0);
	ck_assert_uint_eq(span(61, UINT64_MAX, 0, 0), 0);
	ck_assert_uint_eq(span(1, UINT64_MAX, 10, 60), 4);
	ck_assert_uint_eq(span(0, 10, 10, 10), 1);
	ck_assert_uint_eq(span(19, 20, 10, 20), 2);
	ck_assert_uint_eq(span(25, 45, 20, 40), 2);
	ck_assert_uint_eq(span(29, 59, 20, 40), 2);
	ck_assert_uint_eq(span(30, 60, 40, 60), 2);
	ck_assert_uint_eq(span(60, 60, 60, 60), 1);
	ck_assert_int_eq(blockrange_span(ctx, 5, 4, &it), -EINVAL);
	ck_assert_ptr_null(it.first);
	ck_assert_ptr_null(blockrange_iter_next(&it));
}
END_TEST

START_TEST(test_nav_empty_context)
{
	struct blockrange_ctx *e = blockrange_ctx_new(NULL);
	struct blockrange_iter it;

	ck_assert_ptr_nonnull(e);
	ck_assert_ptr_null(blockrange_first(e));
	ck_assert_ptr_null(blockrange_last(e));
	ck_assert_ptr_null(blockrange_find(e, 1));
	ck_assert_ptr_null(blockrange_find_ge(e, 0));
	ck_assert_int_eq(blockrange_span(e, 0, UINT64_MAX, &it), 0);
	ck_assert_ptr_null(blockrange_iter_next(&it));
	ck_assert_uint_eq(blockrange_ctx_nr_ranges(e), 0);
	ck_assert_uint_eq(blockrange_ctx_nr_blocks(e), 0);
	ck_assert_uint_eq(blockrange_nr_owners(e), 0);
	ck_assert(!blockrange_has_pred(e));
	blockrange_ctx_free(e);
	blockrange_ctx_free(NULL);
}
END_TEST

/* Two contexts never see each other's ranges. */
START_TEST(test_nav_independent_contexts)
{
	struct blockrange_ctx *a = blockrange_ctx_new(NULL);
	struct blockrange_ctx *b = blockrange_ctx_new(NULL);

	ck_assert(a && b);
	ck_assert_int_eq(blockrange_count_block(a, 100, 200, OWN_A,
						BLOCKRANGE_PRED_HIT), 0);
	ck_assert_int_eq(blockrange_count_block(b, 150, 250, OWN_A,
						BLOCKRANGE_PRED_UNKNOWN), 0);
	ck_assert_uint_eq(blockrange_ctx_nr_ranges(a), 1);
	ck_assert_uint_eq(blockrange_ctx_nr_ranges(b), 1);
	ck_assert_uint_eq(start_of(blockrange_find(a, 150)), 100);
	ck_assert_uint_eq(start_of(blockrange_find(b, 150)), 150);
	ck_assert_ptr_null(blockrange_find(b, 100));
	ck_assert(blockrange_has_pred(a));
	ck_assert(!blockrange_has_pred(b));
	blockrange_ctx_free(a);
	ck_assert_uint_eq(start_of(blockrange_find(b, 250)), 150);
	blockrange_ctx_free(b);
}
END_TEST

/*
 * Many ranges (chunk growth); pointers handed out earlier stay valid and
 * the order is right; ctx_mem matches what the allocator holds and
 * everything is freed.
 */
START_TEST(test_nav_many_ranges_and_memory)
{
	enum { N = 20000 };
	struct test_alloc ta = { 0 };
	struct blockrange_allocator a = test_allocator(&ta);
	struct blockrange_ctx *c = blockrange_ctx_new(&a);
	struct blockrange *first, *br;
	uint64_t i;

	ck_assert_ptr_nonnull(c);
	ck_assert_uint_eq(blockrange_ctx_mem(c), ta.live_bytes);
	/* Odd blocks first, then even ones: inserts all over the tree. */
	for (i = 1; i < 2 * N; i += 4)
		REQUIRE(!blockrange_create(c, i * 4 + 1, i * 4 + 2, NULL),
			"create %" PRIu64, i);
	first = blockrange_first(c);
	for (i = 3; i < 2 * N; i += 4)
		REQUIRE(!blockrange_create(c, i * 4 + 1, i * 4 + 2, NULL),
			"create %" PRIu64, i);
	for (i = 0; i < 2 * N; i += 2)
		REQUIRE(!blockrange_create(c, i * 4 + 1, i * 4 + 2, NULL),
			"create %" PRIu64, i);
	ck_assert_uint_eq(blockrange_ctx_nr_ranges(c), 2 * N);
	ck_assert_uint_eq(first->start, 5);	/* block 1, still valid */
	ck_assert_uint_eq(first->end, 6);
	for (i = 0, br = blockrange_first(c); br; br = blockrange_next(br)) {
		REQUIRE(br->start == i * 4 + 1 && br->end == i * 4 + 2,
			"range %" PRIu64 " is [%" PRIu64 ", %" PRIu64 "]", i,
			br->start, br->end);
		i++;
	}
	ck_assert_uint_eq(i, 2 * N);
	ck_assert_uint_eq(blockrange_ctx_mem(c), ta.live_bytes);
	/* No per-range allocation: at most ~1.3 x the range size each. */
	ck_assert_uint_le(blockrange_ctx_mem(c),
			  blockrange_ctx_nr_ranges(c) * sizeof(struct blockrange)
			  * 13 / 10 + 4096);
	blockrange_ctx_free(c);
	ck_assert_uint_eq(ta.live, 0);
	ck_assert_uint_eq(ta.live_bytes, 0);
}
END_TEST

/* Range size stays what the header documents (88 bytes on LP64). */
START_TEST(test_nav_range_size)
{
	ck_assert_uint_eq(sizeof(struct blockrange_rb_node), 3 * sizeof(void *));
	if (sizeof(void *) == 8)
		ck_assert_uint_eq(sizeof(struct blockrange), 88);
}
END_TEST

Suite *nav_suite(void)
{
	Suite *s = suite_create("navigation");
	TCase *tc = tcase_create("lookup");
	TCase *ctxs = tcase_create("contexts");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_nav_find);
	tcase_add_test(tc, test_nav_find_ge);
	tcase_add_test(tc, test_nav_first_last_next_prev);
	tcase_add_test(tc, test_nav_span);
	suite_add_tcase(s, tc);

	tcase_set_timeout(ctxs, 60);
	tcase_add_test(ctxs, test_nav_empty_context);
	tcase_add_test(ctxs, test_nav_independent_contexts);
	tcase_add_test(ctxs, test_nav_many_ranges_and_memory);
	tcase_add_test(ctxs, test_nav_range_size);
	suite_add_tcase(s, ctxs);
	return s;
}
