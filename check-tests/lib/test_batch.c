// SPDX-License-Identifier: GPL-2.0
/*
 * The batch engine against the tree and the per-address model (this file:
 * random streams, merge laws, recorded stacks; test_batch_edges.c: errors
 * and edges; test_batch_strategy.c: the strategy and allocation failures).
 *
 *  - random streams over narrow and wide address spaces (1 and UINT64_MAX
 *    included), every prediction kind, eight owners (ties included) and
 *    weights up to 2^40: the tree fed block by block, the tree fed the
 *    aggregate (blockrange_count_agg()) and the frozen context of
 *    blockrange_build() all equal the model, through the query functions
 *    common to both engines;
 *  - the same blocks in a shuffled order, and split into sub-aggregates
 *    merged in a random order and grouping, give identical results;
 *  - merging is commutative and associative (aggregates compared as
 *    multisets), and merging an aggregate into itself doubles it;
 *  - recorded branch stacks (the LBR fixtures of shared/fixtures/lbr) through
 *    blockrange_apply_stack_n() and blockrange_agg_add_stack() with repeat
 *    counts: same statistics, same results;
 *  - -EOVERFLOW, -EINVAL and -EPERM leave everything unchanged; counters
 *    and lengths that need 64 bits;
 *  - every allocation of an aggregate workload (adds, stacks, merges,
 *    builds, feeding a tree) failed in turn.
 * Every aggregate test runs under several tunings of the adaptive engine
 * (see struct agg_tuning): the default; small chunks, table and slabs, so
 * that a few thousand blocks switch strategy, fill the table, append,
 * compact and settle; hashing only with an unbounded table (the strategy
 * of the engine before it adapted); appending only.  All must give the
 * tree's result, and hold the same multiset.
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

static void random_stream(enum space sp, uint64_t seed, size_t n,
			  unsigned flags)
{
	struct rng rng = { seed };
	struct blk *b = calloc(n, sizeof(*b));
	struct model m;
	struct blockrange_agg *agg[NR_TUNINGS], *parts;
	struct blockrange_ctx *tree, *tree2, *fr3;
	size_t k;
	unsigned t;

	REQUIRE(b, "out of memory");
	bt_init_space(&m, sp, &rng);
	bt_gen_blocks(&m, &rng, b, n, flags);
	for (k = 0; k < n; k++)
		model_count_n(&m, b[k].i, b[k].j, b[k].owner, b[k].pred,
			      b[k].w);

	tree = bt_tree_of(&m, b, n);
	REQUIRE(!model_check_full(&m, tree), "tree: %s", m.err);
	bt_check_model(&m, tree, "tree (rec)");
	for (t = 0; t < NR_TUNINGS; t++) {
		agg[t] = bt_tuned_stream(t, &m, b, n, tree, &rng);
		if (t)
			bt_assert_agg_eq(agg[0], agg[t], bt_tune_name[t]);
	}

	/* Any order, any split and merge order. */
	bt_shuffle(b, n, &rng);
	tree2 = bt_tree_of(&m, b, n);
	bt_assert_same(tree2, tree, m.owner_key, MODEL_MAX_OWNERS, "shuffled tree");
	parts = bt_split_merge(&m, b, n, 2 + rng_below(&rng, 7), &rng);
	bt_assert_agg_eq(agg[0], parts, "split and merged");
	fr3 = bt_build(parts);
	bt_assert_same(fr3, tree, m.owner_key, MODEL_MAX_OWNERS, "merged batch");

	blockrange_ctx_free(tree);
	blockrange_ctx_free(tree2);
	blockrange_ctx_free(fr3);
	for (t = 0; t < NR_TUNINGS; t++)
		blockrange_agg_free(agg[t]);
	blockrange_agg_free(parts);
	model_free(&m);
	free(b);
}

START_TEST(test_batch_random_narrow_low)
{
	random_stream(NARROW_LOW, 0x1000 + (uint64_t)_i, 3000, (unsigned)_i);
}
END_TEST

START_TEST(test_batch_random_narrow_top)
{
	random_stream(NARROW_TOP, 0x2000 + (uint64_t)_i, 3000, (unsigned)_i);
}
END_TEST

START_TEST(test_batch_random_narrow_mid)
{
	random_stream(NARROW_MID, 0x3000 + (uint64_t)_i, 3000, (unsigned)_i);
}
END_TEST

START_TEST(test_batch_random_wide)
{
	random_stream(WIDE, 0x4000 + (uint64_t)_i, 2000, (unsigned)_i);
}
END_TEST

/* Few blocks, many repeats: mostly hits in the aggregate. */
START_TEST(test_batch_random_repeats)
{
	random_stream(NARROW_MID, 0x5000, 20, 0);
	random_stream(NARROW_LOW, 0x5001, 1, 0);
	random_stream(WIDE, 0x5002, 2, HEAVY);
	/* Many blocks over few addresses: the dense bt_build. */
	random_stream(NARROW_TOP, 0x5003, 20000, BY_START);
	random_stream(NARROW_LOW, 0x5004, 20000, BY_START | HEAVY);
}
END_TEST

/* ---- merge laws ----------------------------------------------------------- */

START_TEST(test_batch_merge_laws)
{
	struct rng rng = { 0x6000 };
	struct model m;
	struct blk b[3][500];
	struct blockrange_agg *a[3], *ab, *ba, *ab_c, *bc, *a_bc, *self;
	size_t k;

	bt_init_space(&m, NARROW_MID, &rng);
	for (k = 0; k < 3; k++) {
		bt_gen_blocks(&m, &rng, b[k], 500, 0);
		a[k] = blockrange_agg_new(NULL);
		ck_assert_ptr_nonnull(a[k]);
		bt_feed_agg(a[k], &m, b[k], 500, k == 1);
	}
	/* A + B == B + A */
	ab = blockrange_agg_new(NULL);
	ba = blockrange_agg_new(NULL);
	ck_assert_ptr_nonnull(ab);
	ck_assert_ptr_nonnull(ba);
	ck_assert_int_eq(blockrange_agg_merge(ab, a[0]), 0);
	ck_assert_int_eq(blockrange_agg_merge(ab, a[1]), 0);
	ck_assert_int_eq(blockrange_agg_merge(ba, a[1]), 0);
	ck_assert_int_eq(blockrange_agg_merge(ba, a[0]), 0);
	bt_assert_agg_eq(ab, ba, "commutative");
	ck_assert_uint_eq(blockrange_agg_weight(ab),
			  blockrange_agg_weight(a[0]) + blockrange_agg_weight(a[1]));
	/* (A + B) + C == A + (B + C) */
	ab_c = ab;
	ck_assert_int_eq(blockrange_agg_merge(ab_c, a[2]), 0);
	bc = blockrange_agg_new(NULL);
	a_bc = blockrange_agg_new(NULL);
	ck_assert_ptr_nonnull(bc);
	ck_assert_ptr_nonnull(a_bc);
	ck_assert_int_eq(blockrange_agg_merge(bc, a[1]), 0);
	ck_assert_int_eq(blockrange_agg_merge(bc, a[2]), 0);
	ck_assert_int_eq(blockrange_agg_merge(a_bc, a[0]), 0);
	ck_assert_int_eq(blockrange_agg_merge(a_bc, bc), 0);
	bt_assert_agg_eq(ab_c, a_bc, "associative");
	/* Aggregates without owners merge too. */
	{
		struct blockrange_agg *x = blockrange_agg_new(NULL);
		struct blockrange_agg *y = blockrange_agg_new(NULL);
		struct blockrange_block bl;
		size_t pos = 0;

		ck_assert_ptr_nonnull(x);
		ck_assert_ptr_nonnull(y);
		ck_assert_int_eq(blockrange_agg_merge(x, y), 0);
		ck_assert_int_eq(blockrange_agg_add(y, 5, 9, NULL, HIT, 3), 0);
		ck_assert_int_eq(blockrange_agg_merge(x, y), 0);
		ck_assert_int_eq(blockrange_agg_merge(x, y), 0);
		ck_assert(blockrange_agg_next(x, &pos, &bl));
		ck_assert_uint_eq(bl.count, 6);
		ck_assert_ptr_null(bl.owner);
		ck_assert(!blockrange_agg_next(x, &pos, &bl));
		blockrange_agg_free(x);
		blockrange_agg_free(y);
	}
	/* The sources are unchanged; A + A doubles every count. */
	self = blockrange_agg_new(NULL);
	ck_assert_ptr_nonnull(self);
	ck_assert_int_eq(blockrange_agg_merge(self, a[0]), 0);
	ck_assert_int_eq(blockrange_agg_merge(self, a[0]), 0);
	ck_assert_int_eq(blockrange_agg_merge(a[0], a[0]), 0);
	bt_assert_agg_eq(self, a[0], "self merge");
	for (k = 0; k < 3; k++)
		blockrange_agg_free(a[k]);
	blockrange_agg_free(ab);
	blockrange_agg_free(ba);
	blockrange_agg_free(bc);
	blockrange_agg_free(a_bc);
	blockrange_agg_free(self);
	model_free(&m);
}
END_TEST

/* ---- recorded branch stacks -------------------------------------------- */

#define MAX_ENTRIES 64

struct stack {
	struct blockrange_branch br[MAX_ENTRIES];
	size_t nr;
};

/* Owner of a block: the 64-byte "function" of its start, as a small id. */
static const void *owner_of(uint64_t addr)
{
	return (const void *)(uintptr_t)((addr >> 6) % 1000 + 1);
}

/* The brstack entries of one perf script line (newest first). */
static bool parse_line(char *line, struct stack *st)
{
	char *tok, *save = NULL;

	st->nr = 0;
	for (tok = strtok_r(line, " \t\n", &save); tok;
	     tok = strtok_r(NULL, " \t\n", &save)) {
		struct blockrange_branch *b = &st->br[st->nr];
		char *f[5], *p = tok;
		int k;

		if (strncmp(tok, "0x", 2) || !strchr(tok, '/') ||
		    st->nr == MAX_ENTRIES)
			continue;
		for (k = 0; k < 5; k++) {
			f[k] = p;
			p = strchr(p, '/');
			if (!p)
				break;
			*p++ = '\0';
		}
		if (k < 5)
			continue;
		memset(b, 0, sizeof(*b));
		b->from = strtoull(f[0], NULL, 16);
		b->to = strtoull(f[1], NULL, 16);
		b->predicted = f[2][0] == 'P';
		b->mispredicted = f[2][0] == 'M';
		b->in_tx = f[3][0] == 'X';
		b->abort = f[4][0] == 'A';
		b->to_owner = owner_of(b->to);
		st->nr++;
	}
	return st->nr > 0;
}

static size_t load_stacks(const char *path, struct stack **out)
{
	FILE *f = fopen(path, "r");
	char line[16384];
	size_t n = 0, cap = 0;
	struct stack *v = NULL;

	REQUIRE(f, "cannot open %s", path);
	while (fgets(line, sizeof(line), f)) {
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			v = realloc(v, cap * sizeof(*v));
			REQUIRE(v, "out of memory");
		}
		if (parse_line(line, &v[n]))
			n++;
	}
	fclose(f);
	*out = v;
	return n;
}


static void recorded(const char *path, size_t *total_blocks)
{
	struct stack *st;
	size_t n = load_stacks(path, &st), k, r;
	struct blockrange_stack_stats s1 = { 0 }, s2 = { 0 }, s3[NR_TUNINGS];
	struct blockrange_ctx *t1 = blockrange_ctx_new(NULL);
	struct blockrange_ctx *t2 = blockrange_ctx_new(NULL), *fr;
	struct blockrange_agg *agg[NR_TUNINGS];
	const void *keys[1001];
	unsigned t;

	ck_assert_ptr_nonnull(t1);
	ck_assert_ptr_nonnull(t2);
	memset(s3, 0, sizeof(s3));
	for (t = 0; t < NR_TUNINGS; t++) {
		agg[t] = bt_agg_tuned(t, NULL);
		ck_assert_ptr_nonnull(agg[t]);
	}
	for (k = 0; k < n; k++) {
		uint64_t rep = k % 3 + 1;

		/* t1: the stack rep times; t2 and agg: once with repeat. */
		for (r = 0; r < rep; r++)
			ck_assert_int_eq(blockrange_apply_stack(t1, st[k].br,
								st[k].nr, &s1),
					 0);
		ck_assert_int_eq(blockrange_apply_stack_n(t2, st[k].br,
							  st[k].nr, rep, &s2),
				 0);
		/* The aggregates in the reverse order. */
		for (t = 0; t < NR_TUNINGS; t++)
			ck_assert_int_eq(blockrange_agg_add_stack(agg[t],
					 st[n - 1 - k].br, st[n - 1 - k].nr,
					 (n - 1 - k) % 3 + 1, &s3[t]), 0);
	}
	bt_stats_eq(&s1, &s2);
	for (k = 0; k <= 1000; k++)
		keys[k] = (const void *)(uintptr_t)k;
	bt_assert_same(t1, t2, keys, 1001, path);
	for (t = 0; t < NR_TUNINGS; t++) {
		bt_stats_eq(&s1, &s3[t]);
		fr = bt_build(agg[t]);
		bt_assert_same(t1, fr, keys, 1001, bt_tune_name[t]);
		blockrange_ctx_free(fr);
		if (t)
			bt_assert_agg_eq(agg[0], agg[t], bt_tune_name[t]);
	}
	*total_blocks += s1.counted;
	blockrange_ctx_free(t1);
	blockrange_ctx_free(t2);
	for (t = 0; t < NR_TUNINGS; t++)
		blockrange_agg_free(agg[t]);
	free(st);
}

START_TEST(test_batch_recorded)
{
	const char *dir = getenv("BLOCKRANGE_LBR_FIXTURES");
	struct dirent *de;
	size_t files = 0, blocks = 0;
	DIR *d;

	REQUIRE(dir, "BLOCKRANGE_LBR_FIXTURES is not set");
	d = opendir(dir);
	REQUIRE(d, "cannot open %s", dir);
	while ((de = readdir(d))) {
		char path[4096];
		size_t len = strlen(de->d_name);

		if (len < 11 || strcmp(de->d_name + len - 11, ".perfscript"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		recorded(path, &blocks);
		files++;
	}
	closedir(d);
	/* The fixtures hold thousands of blocks in several files. */
	ck_assert_uint_ge(files, 5);
	ck_assert_uint_ge(blocks, 3000);
}
END_TEST

Suite *batch_suite(void)
{
	Suite *s = suite_create("batch");
	TCase *prop = tcase_create("batch-vs-tree");
	TCase *edge = tcase_create("batch-edges");

	tcase_add_loop_test(prop, test_batch_random_narrow_low, 0, 4);
	tcase_add_loop_test(prop, test_batch_random_narrow_top, 0, 4);
	tcase_add_loop_test(prop, test_batch_random_narrow_mid, 0, 4);
	tcase_add_loop_test(prop, test_batch_random_wide, 0, 4);
	tcase_add_test(prop, test_batch_random_repeats);
	tcase_add_test(prop, test_batch_merge_laws);
	tcase_add_test(prop, test_batch_recorded);
	tcase_set_timeout(prop, 120);
	suite_add_tcase(s, prop);

	batch_add_edge_tests(edge);
	batch_add_strategy_tests(edge);
	tcase_set_timeout(edge, 120);
	suite_add_tcase(s, edge);
	return s;
}
