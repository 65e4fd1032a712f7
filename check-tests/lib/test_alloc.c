// SPDX-License-Identifier: GPL-2.0
/*
 * Allocation failures: fail each allocation of a workload in turn and check
 * that the failing call returns -ENOMEM, changes nothing, and that retrying
 * gives the same final state as a run without failures; no leaks.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/internal.h"
#include "tests.h"

struct op {
	bool count;
	uint64_t start, end;
	const void *owner;
	enum blockrange_pred pred;
};

#define NR_OPS 600
#define NR_KEYS 40

static char keys[NR_KEYS];

/* A workload that grows the owner table and several range chunks. */
static void make_workload(struct op *ops)
{
	struct rng rng = { 42 };
	int i;

	for (i = 0; i < NR_OPS; i++) {
		uint64_t s = 1 + rng_below(&rng, 3000);
		uint64_t len = rng_below(&rng, 100) < 80 ? rng_below(&rng, 20) :
			       rng_below(&rng, 500);

		if (i % 50 == 7) {
			/* Near the top of the space. */
			s = UINT64_MAX - rng_below(&rng, 64);
			len = rng_below(&rng, UINT64_MAX - s + 1);
		}
		ops[i].count = rng_below(&rng, 10) != 0;
		ops[i].start = s;
		ops[i].end = s + len;
		ops[i].owner = rng_below(&rng, 8) ? &keys[rng_below(&rng, NR_KEYS)]
						  : NULL;
		ops[i].pred = (enum blockrange_pred)rng_below(&rng, 3);
	}
}

static int run_op(struct blockrange_ctx *ctx, const struct op *op)
{
	struct blockrange_iter it;
	int err;

	if (op->count)
		return blockrange_count_block(ctx, op->start, op->end,
					      op->owner, op->pred);
	err = blockrange_create(ctx, op->start, op->end, &it);
	if (err)
		REQUIRE(!it.first && !it.last && !it.next,
			"iterator after a failed create");
	else
		REQUIRE(it.first->start == op->start &&
			it.last->end == op->end, "iterator of the wrong block");
	return err;
}

static void assert_same_owners(const struct blockrange_ctx *a,
			       const struct blockrange_ctx *b)
{
	int k;

	ck_assert_uint_eq(blockrange_nr_owners(a), blockrange_nr_owners(b));
	for (k = 0; k < NR_KEYS; k++)
		ck_assert_uint_eq(blockrange_owner_max(a, &keys[k]),
				  blockrange_owner_max(b, &keys[k]));
}

/* Reference run without failures: its allocation count and final state. */
static struct blockrange_ctx *reference(const struct op *ops,
					unsigned long *nr_alloc)
{
	struct blockrange_ctx *ref = blockrange_ctx_new(NULL);
	struct test_alloc ta = { 0 };
	struct blockrange_allocator a = test_allocator(&ta);
	struct blockrange_ctx *counted = blockrange_ctx_new(&a);
	int i;

	ck_assert(ref && counted);
	for (i = 0; i < NR_OPS; i++) {
		REQUIRE(run_op(ref, &ops[i]) == 0, "op %d failed", i);
		REQUIRE(run_op(counted, &ops[i]) == 0, "op %d failed", i);
	}
	*nr_alloc = ta.nr_alloc;
	blockrange_ctx_free(counted);
	ck_assert_uint_eq(ta.live, 0);
	return ref;
}

/* Fail allocation k once, for every k of the workload. */
START_TEST(test_alloc_fail_each_once)
{
	struct op *ops = calloc(NR_OPS, sizeof(*ops));
	unsigned long total, k, failures = 0;
	struct blockrange_ctx *ref;
	struct snapshot final;

	ck_assert_ptr_nonnull(ops);
	make_workload(ops);
	ref = reference(ops, &total);
	ck_assert_uint_ge(total, 8);	/* chunks and owner tables grew */
	snapshot_take(&final, ref);

	for (k = 1; k <= total; k++) {
		struct test_alloc ta = { .fail_at = k };
		struct blockrange_allocator a = test_allocator(&ta);
		struct blockrange_ctx *ctx = blockrange_ctx_new(&a);
		int i;

		if (k == 1) {
			ck_assert_ptr_null(ctx);
			ck_assert_uint_eq(ta.live, 0);
			failures++;
			continue;
		}
		ck_assert_ptr_nonnull(ctx);
		for (i = 0; i < NR_OPS; i++) {
			struct snapshot before;
			size_t owners = blockrange_nr_owners(ctx);
			int err;

			snapshot_take(&before, ctx);
			err = run_op(ctx, &ops[i]);
			if (err) {
				REQUIRE(err == -ENOMEM, "op %d: error %d", i,
					err);
				snapshot_assert_same(&before, ctx);
				REQUIRE(blockrange_nr_owners(ctx) == owners,
					"op %d: owner added", i);
				failures++;
				/* The failure was one-shot: retry works. */
				err = run_op(ctx, &ops[i]);
				REQUIRE(!err, "op %d: retry gave %d", i, err);
			}
			snapshot_free(&before);
		}
		snapshot_assert_same(&final, ctx);
		assert_same_owners(ctx, ref);
		ck_assert_uint_eq(blockrange_ctx_mem(ctx), ta.live_bytes);
		blockrange_ctx_free(ctx);
		ck_assert_uint_eq(ta.live, 0);
		ck_assert_uint_eq(ta.failed, 1);
	}
	/* Every injected failure was seen by exactly one call. */
	ck_assert_uint_eq(failures, total);
	snapshot_free(&final);
	blockrange_ctx_free(ref);
	free(ops);
}
END_TEST

/*
 * Fail every allocation from k on: calls that need memory fail without
 * change, calls that do not still work, and freeing leaks nothing.
 */
START_TEST(test_alloc_fail_from_k_on)
{
	struct op *ops = calloc(NR_OPS, sizeof(*ops));
	unsigned long total, k;
	struct blockrange_ctx *ref;

	ck_assert_ptr_nonnull(ops);
	make_workload(ops);
	ref = reference(ops, &total);

	for (k = 2; k <= total; k++) {
		struct test_alloc ta = { .fail_at = k, .sticky = true };
		struct blockrange_allocator a = test_allocator(&ta);
		struct blockrange_ctx *ctx = blockrange_ctx_new(&a);
		unsigned long ok = 0, nomem = 0;
		int i;

		ck_assert_ptr_nonnull(ctx);
		for (i = 0; i < NR_OPS; i++) {
			struct snapshot before;
			int err;

			snapshot_take(&before, ctx);
			err = run_op(ctx, &ops[i]);
			if (err) {
				REQUIRE(err == -ENOMEM, "op %d: error %d", i,
					err);
				snapshot_assert_same(&before, ctx);
				nomem++;
			} else {
				ok++;
			}
			snapshot_free(&before);
		}
		ck_assert_uint_gt(nomem, 0);
		ck_assert_uint_eq(ok + nomem, NR_OPS);
		blockrange_ctx_free(ctx);
		ck_assert_uint_eq(ta.live, 0);
	}
	blockrange_ctx_free(ref);
	free(ops);
}
END_TEST

/* The default allocator path (malloc) and a NULL-tolerant free. */
START_TEST(test_alloc_default_allocator)
{
	struct blockrange_ctx *ctx = blockrange_ctx_new(NULL);

	ck_assert_ptr_nonnull(ctx);
	ck_assert_uint_gt(blockrange_ctx_mem(ctx), 0);
	ck_assert_int_eq(blockrange_count_block(ctx, 1, 2, OWN_A,
						BLOCKRANGE_PRED_HIT), 0);
	ck_assert_uint_gt(blockrange_ctx_mem(ctx), 80);
	blockrange_ctx_free(ctx);
}
END_TEST

/*
 * The default allocator maps arrays of 2 MiB and more itself: such an
 * array is usable to its last byte and aligned to 2 MiB; sizes no mapping
 * can hold fail with NULL.
 */
START_TEST(test_alloc_default_large)
{
	const struct blockrange_allocator *a = &br_std_allocator;
	size_t sizes[] = { BR_HUGE_MIN, BR_HUGE_MIN + 1, 3 * BR_HUGE_MIN + 4095 };
	unsigned i;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		unsigned char *p = a->alloc(sizes[i], a->arg);

		ck_assert_ptr_nonnull(p);
		ck_assert_uint_eq((uintptr_t)p % BR_HUGE_MIN, 0);
		memset(p, 0xa5, sizes[i]);
		ck_assert_uint_eq(p[sizes[i] - 1], 0xa5);
		a->free(p, sizes[i], a->arg);
	}
	ck_assert_ptr_null(a->alloc(SIZE_MAX - 4096, a->arg));
	ck_assert_ptr_null(a->alloc((size_t)1 << 62, a->arg));
}
END_TEST

/*
 * A new owner needs the owner table to grow; if that fails the block is
 * not counted and the owner is not registered.
 */
START_TEST(test_alloc_owner_table_failure)
{
	struct test_alloc ta = { 0 };
	struct blockrange_allocator a = test_allocator(&ta);
	struct blockrange_ctx *ctx = blockrange_ctx_new(&a);
	struct snapshot before;

	ck_assert_ptr_nonnull(ctx);
	ck_assert_int_eq(blockrange_count_block(ctx, 10, 20, NULL,
						BLOCKRANGE_PRED_UNKNOWN), 0);
	/* Next allocation: the owner table (its first of two arrays). */
	ta.fail_at = ta.nr_alloc + 1;
	snapshot_take(&before, ctx);
	ck_assert_int_eq(blockrange_count_block(ctx, 15, 30, OWN_A,
						BLOCKRANGE_PRED_HIT), -ENOMEM);
	snapshot_assert_same(&before, ctx);
	ck_assert_uint_eq(blockrange_nr_owners(ctx), 0);
	ck_assert_uint_eq(blockrange_owner_max(ctx, OWN_A), 0);
	/* Second array of the table. */
	ta.fail_at = ta.nr_alloc + 2;
	ck_assert_int_eq(blockrange_count_block(ctx, 15, 30, OWN_A,
						BLOCKRANGE_PRED_HIT), -ENOMEM);
	snapshot_assert_same(&before, ctx);
	ck_assert_uint_eq(blockrange_nr_owners(ctx), 0);
	ck_assert_uint_eq(ta.live_bytes, blockrange_ctx_mem(ctx));
	snapshot_free(&before);
	ta.fail_at = 0;
	ck_assert_int_eq(blockrange_count_block(ctx, 15, 30, OWN_A,
						BLOCKRANGE_PRED_HIT), 0);
	ck_assert_uint_eq(blockrange_nr_owners(ctx), 1);
	ck_assert_uint_eq(blockrange_owner_max(ctx, OWN_A), 2);
	blockrange_ctx_free(ctx);
	ck_assert_uint_eq(ta.live, 0);
}
END_TEST

Suite *alloc_suite(void)
{
	Suite *s = suite_create("alloc-failure");
	TCase *tc = tcase_create("sweep");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_alloc_fail_each_once);
	tcase_add_test(tc, test_alloc_fail_from_k_on);
	tcase_add_test(tc, test_alloc_default_allocator);
	tcase_add_test(tc, test_alloc_default_large);
	tcase_add_test(tc, test_alloc_owner_table_failure);
	suite_add_tcase(s, tc);
	return s;
}
