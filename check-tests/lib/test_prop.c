// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzzed split sequences, deterministic (fixed seeds): 10^5 random blocks
 * per seed over narrow address spaces touching 1 and UINT64_MAX and over
 * the wide space [1, UINT64_MAX], compared with the naive per-address model
 * (model.h) after every single step: every address's coverage, entry,
 * taken, pred, flags and owner, exact tiling, no overlap, iterators.
 */
#include <stdlib.h>

#include "model.h"
#include "tests.h"

#define PROP_BLOCKS 100000ul
#define NARROW 512

enum space { NARROW_LOW, NARROW_HIGH, WIDE };

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void init_space(struct model *m, enum space sp, struct rng *rng)
{
	static const uint64_t special[] = {
		1, 2, 3, 0x1000, 0x7fffffffffffffffull, 0x8000000000000000ull,
		UINT64_MAX - 2, UINT64_MAX - 1, UINT64_MAX,
	};
	uint64_t pts[512];
	size_t n = 0, i, k;

	switch (sp) {
	case NARROW_LOW:
		ck_assert_int_eq(model_init_narrow(m, 1, NARROW), 0);
		return;
	case NARROW_HIGH:
		ck_assert_int_eq(model_init_narrow(m, UINT64_MAX - NARROW + 1,
						   NARROW), 0);
		return;
	case WIDE:
		break;
	}
	for (i = 0; i < sizeof(special) / sizeof(special[0]); i++)
		pts[n++] = special[i];
	while (n < 400) {
		uint64_t p = rng_next(rng);

		/* Some clustered points: neighbours of existing ones. */
		if (rng_below(rng, 4) == 0)
			p = pts[rng_below(rng, n)] + 1;
		if (p)
			pts[n++] = p;
	}
	qsort(pts, n, sizeof(pts[0]), cmp_u64);
	for (i = 1, k = 1; i < n; i++)
		if (pts[i] != pts[k - 1])
			pts[k++] = pts[i];
	ck_assert_uint_eq(pts[0], 1);
	ck_assert_uint_eq(pts[k - 1], UINT64_MAX);
	ck_assert_int_eq(model_init_points(m, pts, k), 0);
}

static void pick_block(struct rng *rng, const struct model *m, size_t *i,
		       size_t *j)
{
	uint64_t r = rng_below(rng, 100), len;

	*i = rng_below(rng, m->n);
	if (r < 70)
		len = rng_below(rng, 8);
	else if (r < 95)
		len = rng_below(rng, 64);
	else
		len = rng_below(rng, m->n);
	*j = *i + len < m->n ? *i + len : m->n - 1;
}

/*
 * The model after every step; every 64th step the tree's red-black and
 * ordering invariants too (tree_check() costs a find() per range).
 */
static void assert_model(struct model *m, const struct blockrange_ctx *ctx,
			 unsigned long step)
{
	const char *err = step % 64 == 63 ? model_check_full(m, ctx) :
			  model_check(m, ctx);

	REQUIRE(!err, "step %lu: %s", step, err);
}

static void prop_blocks(uint64_t seed, enum space sp)
{
	struct rng rng = { seed };
	struct blockrange_ctx *ctx = blockrange_ctx_new(NULL);
	struct model m;
	unsigned long step, counted = 0;
	uint64_t max_cov = 0;
	size_t k;

	ck_assert_ptr_nonnull(ctx);
	init_space(&m, sp, &rng);
	for (step = 0; step < PROP_BLOCKS; step++) {
		struct blockrange_iter it;
		size_t i, j;

		pick_block(&rng, &m, &i, &j);
		if (rng_below(&rng, 10)) {
			unsigned owner = (unsigned)rng_below(&rng, MODEL_MAX_OWNERS);
			enum blockrange_pred pred =
				(enum blockrange_pred)rng_below(&rng, 3);

			REQUIRE(!blockrange_count_block(ctx, m.cell[i].lo,
							m.cell[j].hi,
							m.owner_key[owner], pred),
				"step %lu: count_block failed", step);
			model_count(&m, i, j, owner, pred);
			counted++;
		} else {
			const char *err;

			REQUIRE(!blockrange_create(ctx, m.cell[i].lo,
						   m.cell[j].hi, &it),
				"step %lu: create failed", step);
			model_create(&m, i, j);
			err = model_check_iter(&m, &it, i, j);
			REQUIRE(!err, "step %lu: %s", step, err);
		}
		assert_model(&m, ctx, step);
	}
	REQUIRE(!model_check_full(&m, ctx), "end: %s", m.err);
	/* The run really split things up and piled coverage. */
	for (k = 0; k < m.n; k++)
		if (m.cell[k].cov > max_cov)
			max_cov = m.cell[k].cov;
	ck_assert_uint_gt(counted, PROP_BLOCKS / 2);
	ck_assert_uint_gt(blockrange_ctx_nr_ranges(ctx), m.n / 4);
	ck_assert_uint_gt(max_cov, 100);
	model_free(&m);
	blockrange_ctx_free(ctx);
}

START_TEST(test_prop_narrow_low_seed1)
{
	prop_blocks(1, NARROW_LOW);
}
END_TEST

START_TEST(test_prop_narrow_low_seed2)
{
	prop_blocks(0x1234567, NARROW_LOW);
}
END_TEST

START_TEST(test_prop_narrow_high_seed1)
{
	prop_blocks(3, NARROW_HIGH);
}
END_TEST

START_TEST(test_prop_narrow_high_seed2)
{
	prop_blocks(0xabcdef, NARROW_HIGH);
}
END_TEST

START_TEST(test_prop_wide_seed1)
{
	prop_blocks(5, WIDE);
}
END_TEST

START_TEST(test_prop_wide_seed2)
{
	prop_blocks(0xfeedface, WIDE);
}
END_TEST

/*
 * Branch stacks: random stacks of up to 32 entries on cell bounds, with
 * random flags, zero addresses and reversed blocks, against the model's
 * own reading of the stack rules; statistics compared too.
 */
static void prop_stacks(uint64_t seed, enum space sp, unsigned long nstacks)
{
	struct rng rng = { seed };
	struct blockrange_ctx *ctx = blockrange_ctx_new(NULL);
	struct blockrange_stack_stats ls = { 0 }, ms = { 0 };
	struct blockrange_branch br[32];
	struct model m;
	unsigned long s;

	ck_assert_ptr_nonnull(ctx);
	init_space(&m, sp, &rng);
	for (s = 0; s < nstacks; s++) {
		size_t nr = rng_below(&rng, 33), e;

		for (e = 0; e < nr; e++) {
			uint64_t f = rng_below(&rng, 1000);
			size_t from = rng_below(&rng, m.n);
			size_t to = rng_below(&rng, m.n);

			br[e] = (struct blockrange_branch){
				.from = f < 10 ? 0 : m.cell[from].hi,
				.to = f > 990 ? 0 : m.cell[to].lo,
				.to_owner = m.owner_key[rng_below(&rng,
							MODEL_MAX_OWNERS)],
				.cycles = (uint16_t)f,
				.predicted = f % 3 == 0,
				.mispredicted = f % 5 == 0,
				.in_tx = f % 97 == 1,
				.abort = f % 89 == 2,
			};
		}
		/* Make most blocks valid: from of br[e] after to of br[e+1]. */
		for (e = 0; e + 1 < nr; e++) {
			size_t i = model_cell_lo(&m, br[e + 1].to);

			if (br[e + 1].to && br[e].from && i != (size_t)-1 &&
			    rng_below(&rng, 10) < 8) {
				size_t j = i + rng_below(&rng, 16);

				br[e].from = m.cell[j < m.n ? j : m.n - 1].hi;
			}
		}
		REQUIRE(!blockrange_apply_stack(ctx, br, nr, &ls),
			"stack %lu failed", s);
		REQUIRE(!model_apply_stack(&m, br, nr, &ms),
			"stack %lu: block off cell bounds", s);
		assert_model(&m, ctx, s);
	}
	REQUIRE(!model_check_full(&m, ctx), "end: %s", m.err);
	ck_assert_uint_eq(ls.stacks, ms.stacks);
	ck_assert_uint_eq(ls.entries, ms.entries);
	ck_assert_uint_eq(ls.blocks, ms.blocks);
	ck_assert_uint_eq(ls.counted, ms.counted);
	ck_assert_uint_eq(ls.skipped_abort, ms.skipped_abort);
	ck_assert_uint_eq(ls.skipped_in_tx, ms.skipped_in_tx);
	ck_assert_uint_eq(ls.skipped_zero, ms.skipped_zero);
	ck_assert_uint_eq(ls.skipped_reversed, ms.skipped_reversed);
	/* Every kind of block occurred. */
	ck_assert_uint_gt(ls.counted, ls.blocks / 2);
	ck_assert_uint_gt(ls.skipped_abort, 0);
	ck_assert_uint_gt(ls.skipped_in_tx, 0);
	ck_assert_uint_gt(ls.skipped_zero, 0);
	ck_assert_uint_gt(ls.skipped_reversed, 0);
	model_free(&m);
	blockrange_ctx_free(ctx);
}

START_TEST(test_prop_stacks_narrow)
{
	prop_stacks(7, NARROW_LOW, 8000);
}
END_TEST

START_TEST(test_prop_stacks_wide)
{
	prop_stacks(8, WIDE, 8000);
}
END_TEST

Suite *prop_suite(void)
{
	Suite *s = suite_create("property");
	TCase *tc = tcase_create("sequences");

	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_prop_narrow_low_seed1);
	tcase_add_test(tc, test_prop_narrow_low_seed2);
	tcase_add_test(tc, test_prop_narrow_high_seed1);
	tcase_add_test(tc, test_prop_narrow_high_seed2);
	tcase_add_test(tc, test_prop_wide_seed1);
	tcase_add_test(tc, test_prop_wide_seed2);
	tcase_add_test(tc, test_prop_stacks_narrow);
	tcase_add_test(tc, test_prop_stacks_wide);
	suite_add_tcase(s, tc);
	return s;
}
