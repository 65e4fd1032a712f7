/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Naive oracle for libblockrange, per address.
 *
 * The address space under test is divided into cells: in a narrow space
 * every cell is one address; in a wide space cells are the intervals between
 * a few hundred chosen points of [1, UINT64_MAX].  Blocks always start at a
 * cell's first address and end at a cell's last address, so every address
 * of a cell has the same coverage and the per-address model is exact while
 * staying small ("compressed").  Per cell the model keeps what the contract
 * in blockrange.h defines per address:
 *   in_u      some created block contains it
 *   cov       counted blocks containing it
 *   entry     counted blocks starting at the cell's first address
 *   taken     counted blocks ending at the cell's last address
 *   pred      ... of which with the predicted flag
 *   start_set some created block starts at the cell's first address
 *   end_set   some created block ends at the cell's last address
 *   owner     owner of the counted block with an owner containing it that
 *             starts highest, the smallest key on a tie (0 = none); the
 *             model's keys are in increasing address order, so the
 *             smallest index
 *   owner_start that block's start
 * model_check() compares a context with it, range by range and address
 * (cell) by address: exact tiling, no overlap, cut points, every counter
 * and flag, owners and their maximum coverage, find() and navigation;
 * model_check_full() also checks the tree's structure (treecheck.h).
 */
#ifndef CHECK_TESTS_MODEL_H
#define CHECK_TESTS_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <blockrange/blockrange.h>

#define MODEL_MAX_OWNERS 8

struct model_cell {
	uint64_t lo, hi;
	uint64_t cov, entry, taken, pred;
	uint64_t owner_start;
	unsigned owner;
	bool in_u, start_set, end_set;
};

struct model {
	size_t n;
	struct model_cell *cell;
	uint64_t blocks;		/* successful creates */
	uint64_t weight;		/* sum of the weights counted */
	size_t nr_ranges;		/* ranges (kept by model_create()) */
	uint64_t pred_known;		/* counted with HIT or MISS */
	/* owner keys: owner_key[0] = NULL, 1..MODEL_MAX_OWNERS-1 */
	const void *owner_key[MODEL_MAX_OWNERS];
	uint64_t owner_max[MODEL_MAX_OWNERS];	/* see model_owner_max() */
	char err[256];
};

/* Cells of one address each: base, base + 1, ..., base + n - 1. */
int model_init_narrow(struct model *m, uint64_t base, size_t n);
/*
 * Cells starting at the sorted, distinct points[0] == 1 < points[1] < ...,
 * the last one ending at UINT64_MAX.  Returns -1 if @points is not so.
 */
int model_init_points(struct model *m, const uint64_t *points, size_t n);
void model_free(struct model *m);

/* Index of the cell whose lo (or hi) is @addr, or (size_t)-1. */
size_t model_cell_lo(const struct model *m, uint64_t addr);
size_t model_cell_hi(const struct model *m, uint64_t addr);

void model_create(struct model *m, size_t i, size_t j);
void model_count(struct model *m, size_t i, size_t j, unsigned owner,
		 enum blockrange_pred pred);
void model_count_n(struct model *m, size_t i, size_t j, unsigned owner,
		   enum blockrange_pred pred, uint64_t weight);

/* Recompute owner_max[]: the highest coverage of a cell each owner owns. */
void model_owner_max(struct model *m);

/*
 * Apply a branch stack to the model, accumulating into @st.  Every block
 * that is counted must start at a cell's lo and end at a cell's hi; returns
 * -1 (and counts nothing more) if one does not, else 0.
 */
int model_apply_stack(struct model *m, const struct blockrange_branch *br,
		      size_t nr, struct blockrange_stack_stats *st);

/* Owner index of a key (0 for NULL or unknown). */
unsigned model_owner_idx(const struct model *m, const void *key);

/*
 * NULL if @ctx matches the model, else a description (in m->err): every
 * cell, every range, the counts and owners.
 */
const char *model_check(struct model *m, const struct blockrange_ctx *ctx);

/* model_check(), then tree_check() (treecheck.h): red-black invariants. */
const char *model_check_full(struct model *m, const struct blockrange_ctx *ctx);

/*
 * The part of model_check() that an operation on cells i..j can affect:
 * the ranges over cells i - 1..j + 1, widened to whole model ranges (the
 * pieces a split cuts off lie there), with the same per-cell comparison,
 * plus the counts (ranges, blocks, has_pred) and every owner's maximum.
 * O(j - i + log n) library calls, so a fuzzer can run it after every
 * operation and keep the full check for fewer points.
 */
const char *model_check_region(struct model *m,
			       const struct blockrange_ctx *ctx, size_t i,
			       size_t j);

/*
 * model_check() through the query functions common to both engines
 * (blockrange_rec_*()), so that it checks a frozen context too: every range
 * and cell, rec_find() at both ends of every cell, rec_find_ge(), rec_prev(),
 * has_pred, nr_ranges, the weight (if @weight) and every owner's maximum.
 * It does not compare nr_blocks (a frozen context counts distinct blocks).
 */
const char *model_check_rec(struct model *m, const struct blockrange_ctx *ctx,
			    bool weight);

/*
 * NULL if @it is the run of ranges that tiles cells i..j exactly (first
 * starts at lo[i], contiguous, last ends at hi[j]).
 */
const char *model_check_iter(struct model *m, const struct blockrange_iter *it,
			     size_t i, size_t j);

#endif /* CHECK_TESTS_MODEL_H */
