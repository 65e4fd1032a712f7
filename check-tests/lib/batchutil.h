/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the batch suite's files share (test_batch.c, test_batch_edges.c,
 * test_batch_strategy.c): the tunings of the adaptive engine, comparing
 * results with the tree and the model, and random block streams.
 */
#ifndef BATCHUTIL_H
#define BATCHUTIL_H

#include <check.h>

#include "lib/internal.h"
#include "model.h"
#include "tests.h"

#define MAX UINT64_MAX
#define HIT BLOCKRANGE_PRED_HIT
#define MISS BLOCKRANGE_PRED_MISS
#define UNK BLOCKRANGE_PRED_UNKNOWN

struct blk {
	size_t i, j;		/* model cells */
	unsigned owner;		/* model owner index */
	enum blockrange_pred pred;
	uint64_t w;
};

/* ---- tunings ------------------------------------------------------------- */

enum {
	TUNE_DEFAULT,
	TUNE_SMALL,		/* adaptive, everything small */
	TUNE_HASH_ONLY,		/* the table only, unbounded */
	TUNE_APPEND_ONLY,	/* appending only */
	TUNE_SMALL_APPEND,	/* appending only, everything small */
	NR_TUNINGS
};

/* The address spaces of the random streams. */
enum space { NARROW_LOW, NARROW_TOP, NARROW_MID, WIDE };

extern const char *const bt_tune_name[NR_TUNINGS];

/* bt_gen_blocks() flags */
#define HEAVY		1	/* some weights up to 2^40 */
#define BY_START	2	/* the owner is a function of the start */

void bt_tuning_of(unsigned which, struct agg_tuning *t);

struct blockrange_agg *bt_agg_tuned(unsigned which,
				    const struct blockrange_allocator *a);

bool bt_rec_eq(const struct blockrange_rec *a, const struct blockrange_rec *b);

void bt_assert_same(const struct blockrange_ctx *a,
		    const struct blockrange_ctx *b,
		    const void *const *keys, size_t n, const char *what);

int bt_blk_cmp(const void *pa, const void *pb);

void bt_assert_room_kept(const struct blockrange_agg *agg);

void bt_assert_parts_whole(const struct blockrange_agg *agg);

void bt_assert_forced(const struct blockrange_agg *agg, unsigned which);

struct blockrange_block *bt_agg_dump(const struct blockrange_agg *agg,
				     size_t *n);

void bt_assert_agg_eq(const struct blockrange_agg *a,
		      const struct blockrange_agg *b, const char *what);

struct blockrange_ctx *bt_build(const struct blockrange_agg *agg);

void bt_check_model(struct model *m, const struct blockrange_ctx *ctx,
		    const char *what);

void bt_init_space(struct model *m, enum space sp, struct rng *rng);

void bt_gen_blocks(struct model *m, struct rng *rng, struct blk *b,
		   size_t n, unsigned flags);

void bt_shuffle(struct blk *b, size_t n, struct rng *rng);

void bt_feed_agg(struct blockrange_agg *agg, const struct model *m,
		 const struct blk *b, size_t n, bool bulk);

struct blockrange_ctx *bt_tree_of(const struct model *m,
				  const struct blk *b, size_t n);

struct blockrange_agg *bt_split_merge(const struct model *m,
				      const struct blk *b, size_t n,
				      size_t parts, struct rng *rng);

struct blockrange_agg *bt_tuned_stream(unsigned which, struct model *m,
				       struct blk *b, size_t n,
				       const struct blockrange_ctx *tree,
				       struct rng *rng);

void bt_stats_eq(const struct blockrange_stack_stats *a,
		 const struct blockrange_stack_stats *b);

/* The test cases of the other files, added to the suite's tcase. */
void batch_add_edge_tests(TCase *tc);
void batch_add_strategy_tests(TCase *tc);

#endif
