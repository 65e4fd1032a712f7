// SPDX-License-Identifier: GPL-2.0
/*
 * The batch engine's plans against what its batches then write.
 *
 * Before a batch writes anything, the engine reserves room: table slots,
 * owners and partition chunks, counted block by block for a large batch
 * (the plan) or bounded for a small one.  Nothing may fail once writing
 * starts, and the allocations keep some slack, so a plan that reserves too
 * little can go unnoticed for a long time.  The engine therefore records
 * what each reservation promised and counts every batch that writes more
 * (agg_stats().room_overruns); the other suites check that count through
 * their comparisons, and the cases here build the batches whose plans are
 * exact, where any wrong count overruns:
 *
 *  - a branch stack whose owners cannot pack into the layout's keys, so
 *    that every owned block goes to the table: the plan must count the
 *    owner of each block's own (older) branch;
 *  - a batch of blocks whose partitions are filled chunk by chunk: each
 *    partition takes exactly the chunks the plan gave it.
 */
#include <stdlib.h>
#include <string.h>

#include "lib/internal.h"
#include "tests.h"

/* Addresses of the blocks: all inside the first batch's span. */
#define BASE		0x100000u
#define STEP		32u

static struct blockrange_agg *small_append_agg(void)
{
	struct blockrange_agg *agg = blockrange_agg_new(NULL);
	struct agg_tuning t = agg_tuning_default();

	REQUIRE(agg, "out of memory");
	t.force = AGG_APPEND;
	t.chunk = 16;
	t.hash_max = 8;		/* the table is "full" at 4 blocks */
	t.part_min = 2;
	t.slab_chunks = 2;
	agg_tune(agg, &t);
	return agg;
}

static uint64_t room_overruns(const struct blockrange_agg *agg)
{
	struct agg_stats st;

	agg_stats(agg, &st);
	return st.room_overruns;
}

/*
 * The layout is chosen by the first large batch, while the aggregate has
 * no owner: its keys then have room for about a thousand owner indices.
 */
static void first_batch(struct blockrange_agg *agg, size_t n)
{
	struct blockrange_block *b = calloc(n, sizeof(*b));
	size_t k;

	REQUIRE(b, "out of memory");
	for (k = 0; k < n; k++)
		b[k] = (struct blockrange_block){
			.start = BASE + STEP * k, .end = BASE + STEP * k + 4,
			.pred = BLOCKRANGE_PRED_HIT, .count = 1 };
	ck_assert_int_eq(blockrange_agg_add_blocks(agg, b, n), 0);
	ck_assert(agg->parts != NULL);
	free(b);
}

START_TEST(test_plan_counts_the_owner_of_each_stack_block)
{
	/*
	 * 1100 owners before the stack: more than the keys can hold, so the
	 * stack's new owners never pack and their blocks are the table's.
	 * Entry k of the stack is owned when k % 4 is 0 or 1, except entry
	 * 0, and the two oldest are owned: an off-by-two owner (the newer
	 * branch's) would count two owned blocks fewer.
	 */
	enum { PRE = 1100, NR = 602 };
	static char owner_keys[PRE + NR];
	struct blockrange_agg *agg = small_append_agg();
	struct blockrange_branch *all = calloc(NR + 1, sizeof(*all));
	struct blockrange_branch *br = all + 1;
	size_t k, owned = 0, nr_before;

	ck_assert_ptr_nonnull(all);
	first_batch(agg, 700);
	for (k = 0; k < PRE; k++)
		ck_assert_int_eq(blockrange_agg_add(agg, BASE + STEP * k + 8,
						    BASE + STEP * k + 12,
						    &owner_keys[k],
						    BLOCKRANGE_PRED_HIT, 1),
				 0);
	ck_assert_uint_eq(room_overruns(agg), 0);

	/* Block i runs from br[i + 1].to to br[i].from, owned by br[i + 1]. */
	for (k = 0; k < NR; k++) {
		bool own = k && k % 4 < 2;

		br[k] = (struct blockrange_branch){
			.from = BASE + STEP * (k + 1) + 16,
			.to = BASE + STEP * k + 16,
			.to_owner = own ? &owner_keys[PRE + k] : NULL,
			.predicted = true };
		owned += k >= 1 && own;
	}
	ck_assert(br[NR - 1].to_owner && br[NR - 2].to_owner);
	ck_assert(!br[0].to_owner && !all[0].to_owner);

	nr_before = agg->nr;
	ck_assert_int_eq(blockrange_agg_add_stack(agg, br, NR, 1, NULL), 0);
	/* Every owned block went to the table, as the plan said: exact. */
	ck_assert_uint_eq(agg->nr - nr_before, owned);
	ck_assert_uint_eq(agg->room.nr_max, agg->nr);
	ck_assert_uint_eq(room_overruns(agg), 0);
	blockrange_agg_free(agg);
	free(all);
}
END_TEST

START_TEST(test_plan_gives_each_partition_its_chunks)
{
	/*
	 * 40 chunks' worth of new blocks, all packable, into one partition
	 * per address range: the plan gives each partition exactly the
	 * chunks its blocks fill, and the pool no more in all.
	 */
	enum { N = 40 * AGG_CHUNK_RECS };
	struct blockrange_agg *agg = small_append_agg();
	struct blockrange_block *b = calloc(N, sizeof(*b));
	size_t k;

	ck_assert_ptr_nonnull(b);
	first_batch(agg, 4 * AGG_CHUNK_RECS);
	for (k = 0; k < N; k++)
		b[k] = (struct blockrange_block){
			.start = BASE + (STEP / 4) * (k % (4 * AGG_CHUNK_RECS)) +
				 1,
			.end = BASE + (STEP / 4) * (k % (4 * AGG_CHUNK_RECS)) +
			       2 + k / (4 * AGG_CHUNK_RECS),
			.pred = BLOCKRANGE_PRED_MISS, .count = 1 };
	ck_assert_int_eq(blockrange_agg_add_blocks(agg, b, N), 0);
	ck_assert_uint_eq(room_overruns(agg), 0);
	for (k = 0; k < AGG_NPART; k++)
		REQUIRE(agg->parts[k].budget < 2,
			"partition %zu: %zu chunks reserved and not taken", k,
			agg->parts[k].budget);
	blockrange_agg_free(agg);
	free(b);
}
END_TEST

Suite *plan_suite(void)
{
	Suite *s = suite_create("plan");
	TCase *tc = tcase_create("room");

	tcase_add_test(tc, test_plan_counts_the_owner_of_each_stack_block);
	tcase_add_test(tc, test_plan_gives_each_partition_its_chunks);
	suite_add_tcase(s, tc);
	return s;
}
