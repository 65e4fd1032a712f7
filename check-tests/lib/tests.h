/* SPDX-License-Identifier: GPL-2.0 */
/* Shared helpers of the libblockrange Check suites. */
#ifndef CHECK_TESTS_TESTS_H
#define CHECK_TESTS_TESTS_H

#include <check.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <blockrange/blockrange.h>

/*
 * ck_assert*() records its location with the parent process on every call
 * in fork mode (a pipe write), far too slow for checks run millions of
 * times; REQUIRE only talks to Check when the condition fails.
 */
#define REQUIRE(cond, ...) do {						\
	if (!(cond))							\
		ck_abort_msg(__VA_ARGS__);				\
} while (0)

Suite *rbtree_suite(void);
Suite *split_suite(void);
Suite *nav_suite(void);
Suite *figures_suite(void);
Suite *stack_suite(void);
Suite *alloc_suite(void);
Suite *sweep_suite(void);
Suite *prop_suite(void);
Suite *corpus_suite(void);
Suite *batch_suite(void);
Suite *plan_suite(void);

/* Deterministic PRNG (splitmix64); tests use fixed seeds. */
struct rng {
	uint64_t s;
};

static inline uint64_t rng_next(struct rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Uniform in [0, n), n > 0 (the tiny modulo bias does not matter here). */
static inline uint64_t rng_below(struct rng *r, uint64_t n)
{
	return rng_next(r) % n;
}

/*
 * Test allocator: counts allocations, checks that every free matches an
 * allocation of the same size, and fails allocation number fail_at (1-based;
 * 0 = never), or every allocation from fail_at on when sticky.
 */
struct test_alloc {
	unsigned long nr_alloc;		/* attempts */
	unsigned long fail_at;
	bool sticky;
	unsigned long live;		/* blocks not yet freed */
	size_t live_bytes;
	unsigned long failed;
};

struct blockrange_allocator test_allocator(struct test_alloc *ta);

/* The expected state of one range, written by hand in the tests. */
struct exp_range {
	uint64_t start, end;
	uint64_t coverage, entry, taken, pred;
	bool is_target, is_branch;
	const void *owner;
};

/*
 * Assert that @ctx holds exactly the @n ranges of @e, in order, with every
 * counter, flag and owner; reports the index and field of a mismatch.
 */
void assert_ranges_at(const struct blockrange_ctx *ctx,
		      const struct exp_range *e, size_t n,
		      const char *file, int line);
#define assert_ranges(ctx, e) \
	assert_ranges_at(ctx, e, sizeof(e) / sizeof((e)[0]), __FILE__, __LINE__)

/* Snapshot of a context's observable state, to prove "unchanged". */
struct snapshot {
	size_t n;
	struct exp_range *r;
	uint64_t blocks;
	bool has_pred;
};

void snapshot_take(struct snapshot *s, const struct blockrange_ctx *ctx);
void snapshot_assert_same(const struct snapshot *s,
			  const struct blockrange_ctx *ctx);
void snapshot_free(struct snapshot *s);

/*
 * Owner keys for tests, in increasing order as unsigned integers (the tie
 * rule of owners compares keys).
 */
extern const char test_owners[3];
#define OWN_A ((const void *)&test_owners[0])
#define OWN_B ((const void *)&test_owners[1])
#define OWN_C ((const void *)&test_owners[2])

#endif /* CHECK_TESTS_TESTS_H */
