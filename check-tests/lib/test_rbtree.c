// SPDX-License-Identifier: GPL-2.0
/*
 * rbtree: unit tests and randomized insert/erase sequences against a
 * sorted-array model, checking every invariant after every operation.
 */
#include <stdlib.h>
#include <string.h>

#include <blockrange/rbtree.h>

#include "lib/rbnode.h"

#include "tests.h"

struct item {
	struct blockrange_rb_node node;
	unsigned key;
	unsigned seq;		/* insertion order, for stability checks */
	bool in_tree;
};

static struct item *item_of(const struct blockrange_rb_node *n)
{
	return blockrange_rb_entry(n, struct item, node);
}

static bool item_less(const struct blockrange_rb_node *a,
		      const struct blockrange_rb_node *b)
{
	return item_of(a)->key < item_of(b)->key;
}

static int item_cmp(const void *key, const struct blockrange_rb_node *n)
{
	unsigned k = *(const unsigned *)key;
	unsigned nk = item_of(n)->key;

	return k < nk ? -1 : k > nk;
}

/*
 * Returns the black height of the subtree (counting the NULL leaves as
 * black, height 1) after checking links, colours and key order within
 * (lo, hi] bounds; counts the nodes into *count.
 */
static int check_subtree(const struct blockrange_rb_node *n,
			 const struct blockrange_rb_node *parent,
			 const unsigned *lo, const unsigned *hi, size_t *count)
{
	int lh, rh;
	unsigned key;

	if (!n)
		return 1;
	key = item_of(n)->key;
	REQUIRE(rb_parent(n) == parent, "node %u: wrong parent pointer", key);
	REQUIRE(!lo || key >= *lo, "node %u below its lower bound %u", key,
		*lo);
	REQUIRE(!hi || key <= *hi, "node %u above its upper bound %u", key,
		*hi);
	REQUIRE(!rb_is_red(n) || !n->rb_left || rb_is_black(n->rb_left),
		"red node %u has a red left child", key);
	REQUIRE(!rb_is_red(n) || !n->rb_right || rb_is_black(n->rb_right),
		"red node %u has a red right child", key);
	(*count)++;
	lh = check_subtree(n->rb_left, n, lo, &key, count);
	rh = check_subtree(n->rb_right, n, &key, hi, count);
	REQUIRE(lh == rh, "black heights %d != %d under key %u", lh, rh, key);
	return lh + rb_is_black(n);
}

/* All invariants, plus the in-order walks equal to the sorted model. */
static void check_tree(const struct blockrange_rb_root *root,
		       const unsigned *model, size_t n)
{
	const struct blockrange_rb_node *node;
	size_t count = 0, i = 0;

	REQUIRE(!root->rb_node || rb_is_black(root->rb_node), "red root");
	check_subtree(root->rb_node, NULL, NULL, NULL, &count);
	REQUIRE(count == n, "%zu nodes, model has %zu", count, n);
	for (node = blockrange_rb_first(root); node;
	     node = blockrange_rb_next(node), i++)
		REQUIRE(i < n && item_of(node)->key == model[i],
			"in-order walk differs at %zu", i);
	REQUIRE(i == n, "in-order walk saw %zu nodes, model %zu", i, n);
	for (node = blockrange_rb_last(root); node;
	     node = blockrange_rb_prev(node)) {
		REQUIRE(i > 0, "reverse walk too long");
		i--;
		REQUIRE(item_of(node)->key == model[i],
			"reverse walk differs at %zu", i);
	}
	REQUIRE(i == 0, "reverse walk too short");
}

static void model_insert(unsigned *model, size_t *n, unsigned key)
{
	size_t i = *n;

	while (i > 0 && model[i - 1] > key) {
		model[i] = model[i - 1];
		i--;
	}
	model[i] = key;
	(*n)++;
}

static void model_erase(unsigned *model, size_t *n, unsigned key)
{
	size_t i = 0;

	while (model[i] != key)
		i++;
	memmove(&model[i], &model[i + 1], (*n - i - 1) * sizeof(*model));
	(*n)--;
}

/*
 * @ops random modifications (insert, erase, replace) of distinct keys below
 * @space, each followed by a full check: phases of 64..1024 operations
 * alternate between insert-heavy and erase-heavy so the tree grows, fills,
 * shrinks and empties.  Lookups are mixed in between (not counted).
 */
static void random_run(uint64_t seed, unsigned space, unsigned long ops)
{
	struct item *items = calloc(space, sizeof(*items));
	struct item *spare = calloc(1, sizeof(*spare));
	unsigned *model = calloc(space + 1, sizeof(*model));
	struct blockrange_rb_root root = BLOCKRANGE_RB_ROOT;
	struct rng rng = { seed };
	unsigned long done = 0, phase_left = 0, inserts = 0, erases = 0;
	unsigned insert_pct = 50;
	size_t n = 0;

	ck_assert(items && spare && model);
	while (done < ops) {
		unsigned what = (unsigned)rng_below(&rng, 100);
		unsigned key = (unsigned)rng_below(&rng, space);
		struct item *it;

		if (!phase_left) {
			phase_left = 64 + rng_below(&rng, 960);
			insert_pct = insert_pct > 50 ? 20 : 80;
		}
		phase_left--;

		if (what < 10) {
			/* Lookup of a random key, present or not. */
			struct blockrange_rb_node *f;

			f = blockrange_rb_find(&key, &root, item_cmp);
			it = &items[key];
			REQUIRE(f == (it->in_tree ? &it->node : NULL),
				"blockrange_rb_find(%u) wrong", key);
			f = blockrange_rb_find_first(&key, &root, item_cmp);
			REQUIRE(f == (it->in_tree ? &it->node : NULL),
				"blockrange_rb_find_first(%u) wrong", key);
			continue;
		}
		if (what < 13 && n) {
			/* Move a node to other memory and back, in place. */
			it = &items[model[rng_below(&rng, n)]];
			blockrange_rb_replace_node(&it->node, &spare->node,
						   &root);
			spare->key = it->key;
			check_tree(&root, model, n);
			blockrange_rb_replace_node(&spare->node, &it->node,
						   &root);
		} else if ((rng_below(&rng, 100) < insert_pct && n < space) ||
			   !n) {
			while (items[key].in_tree)
				key = (unsigned)rng_below(&rng, space);
			it = &items[key];
			it->key = key;
			blockrange_rb_add(&it->node, &root, item_less);
			it->in_tree = true;
			model_insert(model, &n, key);
			inserts++;
		} else {
			it = &items[model[rng_below(&rng, n)]];
			blockrange_rb_erase(&it->node, &root);
			it->in_tree = false;
			model_erase(model, &n, it->key);
			erases++;
		}
		check_tree(&root, model, n);
		done++;
	}
	/* The phases really did both (guards against a dead generator). */
	ck_assert_uint_gt(inserts, ops / 4);
	ck_assert_uint_gt(erases, ops / 4);
	free(items);
	free(spare);
	free(model);
}

/*
 * The four randomized runs below do 4 * 262144 = 1048576 operations in
 * all, each one followed by a full invariant check.
 */
#define RANDOM_OPS 262144ul

START_TEST(test_rb_random_small_space)
{
	random_run(1, 16, RANDOM_OPS);
}
END_TEST

START_TEST(test_rb_random_medium_space)
{
	random_run(2, 128, RANDOM_OPS);
}
END_TEST

START_TEST(test_rb_random_large_space)
{
	random_run(3, 512, RANDOM_OPS);
}
END_TEST

START_TEST(test_rb_random_other_seed)
{
	random_run(0xdeadbeef, 300, RANDOM_OPS);
}
END_TEST

START_TEST(test_rb_empty)
{
	struct blockrange_rb_root root = BLOCKRANGE_RB_ROOT;

	ck_assert(BLOCKRANGE_RB_EMPTY_ROOT(&root));
	ck_assert_ptr_null(blockrange_rb_first(&root));
	ck_assert_ptr_null(blockrange_rb_last(&root));
	ck_assert_ptr_null(blockrange_rb_first_postorder(&root));
}
END_TEST

START_TEST(test_rb_single)
{
	struct blockrange_rb_root root = BLOCKRANGE_RB_ROOT;
	struct item a = { .key = 7 };
	unsigned model[] = { 7 };

	blockrange_rb_link_node(&a.node, NULL, &root.rb_node);
	blockrange_rb_insert_color(&a.node, &root);
	ck_assert(!BLOCKRANGE_RB_EMPTY_ROOT(&root));
	ck_assert(rb_is_black(&a.node));
	ck_assert_ptr_eq(blockrange_rb_first(&root), &a.node);
	ck_assert_ptr_eq(blockrange_rb_last(&root), &a.node);
	ck_assert_ptr_null(blockrange_rb_next(&a.node));
	ck_assert_ptr_null(blockrange_rb_prev(&a.node));
	check_tree(&root, model, 1);
	blockrange_rb_erase(&a.node, &root);
	ck_assert(BLOCKRANGE_RB_EMPTY_ROOT(&root));
}
END_TEST

/* Ascending and descending insertion force every rotation case. */
START_TEST(test_rb_sorted_inserts)
{
	enum { N = 1000 };
	struct item *items = calloc(N, sizeof(*items));
	unsigned *model = calloc(N, sizeof(*model));
	struct blockrange_rb_root root = BLOCKRANGE_RB_ROOT;
	size_t n = 0;
	int i;

	ck_assert(items && model);
	for (i = 0; i < N; i++) {
		/* 0, 999, 1, 998, ...: alternates ends */
		unsigned key = i % 2 ? N - 1 - i / 2 : i / 2;

		items[i].key = key;
		blockrange_rb_add(&items[i].node, &root, item_less);
		model_insert(model, &n, key);
		check_tree(&root, model, n);
	}
	for (i = 0; i < N; i++) {
		blockrange_rb_erase(&items[i].node, &root);
		model_erase(model, &n, items[i].key);
		check_tree(&root, model, n);
	}
	ck_assert(BLOCKRANGE_RB_EMPTY_ROOT(&root));
	free(items);
	free(model);
}
END_TEST

/* Height stays within 2 log2(n + 1) for sequential keys. */
static int height(const struct blockrange_rb_node *n)
{
	int l, r;

	if (!n)
		return 0;
	l = height(n->rb_left);
	r = height(n->rb_right);
	return 1 + (l > r ? l : r);
}

START_TEST(test_rb_height_bound)
{
	enum { N = 65535 };	/* 2 log2(N + 1) = 32 */
	struct item *items = calloc(N, sizeof(*items));
	struct blockrange_rb_root root = BLOCKRANGE_RB_ROOT;
	int i;

	ck_assert_ptr_nonnull(items);
	for (i = 0; i < N; i++) {
		items[i].key = (unsigned)i;
		blockrange_rb_add(&items[i].node, &root, item_less);
	}
	ck_assert_int_le(height(root.rb_node), 32);
	/* Erase every other key, then check everything again. */
	for (i = 0; i < N; i += 2)
		blockrange_rb_erase(&items[i].node, &root);
	{
		size_t count = 0;

		check_subtree(root.rb_node, NULL, NULL, NULL, &count);
		ck_assert_uint_eq(count, N / 2);
	}
	free(items);
}
END_TEST

/*
 * blockrange_rb_add() puts equal keys after existing ones;
 * blockrange_rb_find_first() finds the first.
 */
START_TEST(test_rb_add_stable_and_find_first)
{
	struct item items[9];
	struct blockrange_rb_root root = BLOCKRANGE_RB_ROOT;
	struct blockrange_rb_node *n;
	unsigned key = 5, seq = 0;
	int i;

	for (i = 0; i < 9; i++) {
		items[i].key = i % 3 ? 5 : (unsigned)i;	/* 0,5,5,3,5,5,6,5,5 */
		items[i].seq = (unsigned)i;
		blockrange_rb_add(&items[i].node, &root, item_less);
	}
	n = blockrange_rb_find_first(&key, &root, item_cmp);
	ck_assert_ptr_eq(n, &items[1].node);
	for (; n && item_of(n)->key == 5; n = blockrange_rb_next(n)) {
		ck_assert_uint_ge(item_of(n)->seq, seq);
		seq = item_of(n)->seq;
	}
	ck_assert_uint_eq(seq, 8);
	key = 4;
	ck_assert_ptr_null(blockrange_rb_find(&key, &root, item_cmp));
	ck_assert_ptr_null(blockrange_rb_find_first(&key, &root, item_cmp));
}
END_TEST

START_TEST(test_rb_postorder_visits_children_first)
{
	enum { N = 200 };
	struct item items[N];
	struct blockrange_rb_root root = BLOCKRANGE_RB_ROOT;
	bool seen[N] = { false };
	struct blockrange_rb_node *n;
	int i, count = 0;

	for (i = 0; i < N; i++) {
		items[i].key = (unsigned)((i * 37) % N);
		blockrange_rb_add(&items[i].node, &root, item_less);
	}
	for (n = blockrange_rb_first_postorder(&root); n;
	     n = blockrange_rb_next_postorder(n)) {
		struct item *it = item_of(n);

		if (n->rb_left)
			ck_assert(seen[item_of(n->rb_left)->key]);
		if (n->rb_right)
			ck_assert(seen[item_of(n->rb_right)->key]);
		ck_assert(!seen[it->key]);
		seen[it->key] = true;
		count++;
	}
	ck_assert_int_eq(count, N);
}
END_TEST

/* A post-order walk may free as it goes (checked by ASan/valgrind). */
START_TEST(test_rb_postorder_free_all)
{
	struct blockrange_rb_root root = BLOCKRANGE_RB_ROOT;
	struct blockrange_rb_node *n, *next;
	int i, freed = 0;

	for (i = 0; i < 500; i++) {
		struct item *it = calloc(1, sizeof(*it));

		ck_assert_ptr_nonnull(it);
		it->key = (unsigned)(i * 7919 % 500);
		blockrange_rb_add(&it->node, &root, item_less);
	}
	for (n = blockrange_rb_first_postorder(&root); n; n = next) {
		next = blockrange_rb_next_postorder(n);
		free(item_of(n));
		freed++;
	}
	ck_assert_int_eq(freed, 500);
}
END_TEST

START_TEST(test_rb_clear_node)
{
	struct item a = { .key = 1 };
	struct blockrange_rb_root root = BLOCKRANGE_RB_ROOT;

	BLOCKRANGE_RB_CLEAR_NODE(&a.node);
	ck_assert(BLOCKRANGE_RB_EMPTY_NODE(&a.node));
	blockrange_rb_add(&a.node, &root, item_less);
	ck_assert(!BLOCKRANGE_RB_EMPTY_NODE(&a.node));
	blockrange_rb_erase(&a.node, &root);
	BLOCKRANGE_RB_CLEAR_NODE(&a.node);
	ck_assert(BLOCKRANGE_RB_EMPTY_NODE(&a.node));
	ck_assert(BLOCKRANGE_RB_EMPTY_ROOT(&root));
}
END_TEST

/* Erase the root repeatedly: exercises the two-children successor path. */
START_TEST(test_rb_erase_root_repeatedly)
{
	enum { N = 300 };
	struct item items[N];
	unsigned model[N];
	struct blockrange_rb_root root = BLOCKRANGE_RB_ROOT;
	size_t n = 0;
	int i;

	for (i = 0; i < N; i++) {
		items[i].key = (unsigned)((i * 101) % N);
		blockrange_rb_add(&items[i].node, &root, item_less);
		model_insert(model, &n, items[i].key);
	}
	while (root.rb_node) {
		struct item *it = item_of(root.rb_node);

		blockrange_rb_erase(&it->node, &root);
		model_erase(model, &n, it->key);
		check_tree(&root, model, n);
	}
	ck_assert_uint_eq(n, 0);
}
END_TEST

Suite *rbtree_suite(void)
{
	Suite *s = suite_create("rbtree");
	TCase *tc = tcase_create("unit");
	TCase *rnd = tcase_create("random");

	tcase_add_test(tc, test_rb_empty);
	tcase_add_test(tc, test_rb_single);
	tcase_add_test(tc, test_rb_sorted_inserts);
	tcase_add_test(tc, test_rb_height_bound);
	tcase_add_test(tc, test_rb_add_stable_and_find_first);
	tcase_add_test(tc, test_rb_postorder_visits_children_first);
	tcase_add_test(tc, test_rb_postorder_free_all);
	tcase_add_test(tc, test_rb_clear_node);
	tcase_add_test(tc, test_rb_erase_root_repeatedly);
	suite_add_tcase(s, tc);

	tcase_set_timeout(rnd, 300);
	tcase_add_test(rnd, test_rb_random_small_space);
	tcase_add_test(rnd, test_rb_random_medium_space);
	tcase_add_test(rnd, test_rb_random_large_space);
	tcase_add_test(rnd, test_rb_random_other_seed);
	suite_add_tcase(s, rnd);
	return s;
}
