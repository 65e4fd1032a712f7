// SPDX-License-Identifier: GPL-2.0
/*
 * The query functions common to both engines (see blockrange.h): a range is
 * reported as a value, and its position is a tree node (tree) or an index
 * into the array of ranges (frozen context).
 */
#include <errno.h>
#include <string.h>

#include <blockrange/blockrange.h>

#include "internal.h"
#include "common/search.h"

static void tree_get(const struct blockrange_ctx *ctx,
		     const struct blockrange *br, struct blockrange_rec *rec)
{
	rec->start = br->start;
	rec->end = br->end;
	rec->coverage = br->coverage;
	rec->entry = br->entry;
	rec->taken = br->taken;
	rec->pred = br->pred;
	rec->owner = blockrange_owner(ctx, br);
	rec->is_target = br->is_target;
	rec->is_branch = br->is_branch;
	rec->pos = (uintptr_t)br;
}

static bool tree_rec(const struct blockrange_ctx *ctx,
		     const struct blockrange *br, struct blockrange_rec *rec)
{
	if (!br)
		return false;
	tree_get(ctx, br, rec);
	return true;
}

/* Index of the last frozen range starting at or before @addr, or -1. */
static ptrdiff_t frozen_floor(const struct blockrange_ctx *ctx, uint64_t addr)
{
	return (ptrdiff_t)br_count_le(ctx->fr, ctx->nr_ranges, sizeof(*ctx->fr),
				      offsetof(struct frange, start), addr) - 1;
}

static uint64_t frozen_end(const struct blockrange_ctx *ctx, size_t i)
{
	struct blockrange_rec r;

	if (!(ctx->fr[i].owner & FR_WIDE))
		return ctx->fr[i].start + ctx->fr[i].len;
	br_frozen_get(ctx, i, &r);
	return r.end;
}

static bool frozen_rec(const struct blockrange_ctx *ctx, ptrdiff_t i,
		       struct blockrange_rec *rec)
{
	if (i < 0 || (size_t)i >= ctx->nr_ranges)
		return false;
	br_frozen_get(ctx, (size_t)i, rec);
	return true;
}

bool blockrange_rec_find(const struct blockrange_ctx *ctx, uint64_t addr,
			 struct blockrange_rec *rec)
{
	ptrdiff_t i;

	if (!ctx->frozen)
		return tree_rec(ctx, blockrange_find(ctx, addr), rec);
	i = frozen_floor(ctx, addr);
	if (i < 0 || frozen_end(ctx, (size_t)i) < addr)
		return false;
	return frozen_rec(ctx, i, rec);
}

/* Index of the first frozen range ending at or after @addr (may be n). */
static size_t frozen_ge(const struct blockrange_ctx *ctx, uint64_t addr)
{
	ptrdiff_t i = frozen_floor(ctx, addr);

	if (i >= 0 && frozen_end(ctx, (size_t)i) >= addr)
		return (size_t)i;
	return (size_t)(i + 1);
}

bool blockrange_rec_find_ge(const struct blockrange_ctx *ctx, uint64_t addr,
			    struct blockrange_rec *rec)
{
	if (!ctx->frozen)
		return tree_rec(ctx, blockrange_find_ge(ctx, addr), rec);
	return frozen_rec(ctx, (ptrdiff_t)frozen_ge(ctx, addr), rec);
}

bool blockrange_rec_first(const struct blockrange_ctx *ctx,
			  struct blockrange_rec *rec)
{
	if (!ctx->frozen)
		return tree_rec(ctx, blockrange_first(ctx), rec);
	return frozen_rec(ctx, 0, rec);
}

bool blockrange_rec_last(const struct blockrange_ctx *ctx,
			 struct blockrange_rec *rec)
{
	if (!ctx->frozen)
		return tree_rec(ctx, blockrange_last(ctx), rec);
	return frozen_rec(ctx, (ptrdiff_t)ctx->nr_ranges - 1, rec);
}

bool blockrange_rec_next(const struct blockrange_ctx *ctx,
			 struct blockrange_rec *rec)
{
	if (!ctx->frozen)
		return tree_rec(ctx, blockrange_next(
					(const struct blockrange *)rec->pos),
				rec);
	return frozen_rec(ctx, (ptrdiff_t)rec->pos + 1, rec);
}

bool blockrange_rec_prev(const struct blockrange_ctx *ctx,
			 struct blockrange_rec *rec)
{
	if (!ctx->frozen)
		return tree_rec(ctx, blockrange_prev(
					(const struct blockrange *)rec->pos),
				rec);
	return frozen_rec(ctx, (ptrdiff_t)rec->pos - 1, rec);
}

int blockrange_rec_span(const struct blockrange_ctx *ctx, uint64_t lo,
			uint64_t hi, struct blockrange_cursor *cur)
{
	struct blockrange_iter it;
	size_t first;
	ptrdiff_t last;
	int err;

	cur->next = cur->last = 0;
	if (!ctx->frozen) {
		err = blockrange_span(ctx, lo, hi, &it);
		cur->next = (uintptr_t)it.first;
		cur->last = (uintptr_t)it.last;
		return err;
	}
	if (lo > hi)
		return -EINVAL;
	/* Frozen: indices + 1, 0 for an empty run. */
	first = frozen_ge(ctx, lo);
	last = frozen_floor(ctx, hi);
	if (first >= ctx->nr_ranges || last < (ptrdiff_t)first)
		return 0;
	cur->next = first + 1;
	cur->last = (size_t)last + 1;
	return 0;
}

bool blockrange_rec_iter(const struct blockrange_ctx *ctx,
			 struct blockrange_cursor *cur,
			 struct blockrange_rec *rec)
{
	if (!cur->next)
		return false;
	if (!ctx->frozen) {
		const struct blockrange *br = (const struct blockrange *)cur->next;

		tree_get(ctx, br, rec);
		cur->next = cur->next == cur->last ? 0 :
			    (uintptr_t)blockrange_next(br);
		return true;
	}
	br_frozen_get(ctx, cur->next - 1, rec);
	cur->next = cur->next == cur->last ? 0 : cur->next + 1;
	return true;
}
