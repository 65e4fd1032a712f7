// SPDX-License-Identifier: GPL-2.0
/*
 * The seed's figures (see blockrange.h): coverage relative to the owner's
 * maximum, +entry%, -taken% and p:pred%.  Each rule is written once, on the
 * counters of a range, and serves both the tree's struct blockrange and the
 * value struct blockrange_rec of either engine.
 */
#include <string.h>

#include "internal.h"

static struct blockrange_fig fig(enum blockrange_fig_status status,
				 double value)
{
	struct blockrange_fig f = {
		status, status == BLOCKRANGE_FIG_OK ? value : 0
	};

	return f;
}

static const struct blockrange_fig fig_na = { BLOCKRANGE_FIG_NA, 0 };

/* An address in no range: 0 once any block was created, else unknown. */
static struct blockrange_fig fig_outside(const struct blockrange_ctx *ctx)
{
	return fig(ctx->nr_blocks ? BLOCKRANGE_FIG_OK : BLOCKRANGE_FIG_UNKNOWN,
		   0);
}

/*
 * @coverage of a range owned by @owner (0: none), whose maximum is at least
 * @coverage (>= 1) for an owned range, so never 0 here.
 */
static struct blockrange_fig fig_coverage(uint64_t coverage, uint64_t max,
					  bool owned)
{
	if (!owned)
		return fig(BLOCKRANGE_FIG_UNKNOWN, 0);
	return fig(BLOCKRANGE_FIG_OK, (double)coverage / (double)max);
}

/*
 * Of a target range: @found says whether there is a branch range at or
 * after it, @branch_cov is that range's coverage.
 */
static struct blockrange_fig fig_entry(uint64_t entry, bool found,
				       uint64_t branch_cov)
{
	if (!found || !branch_cov)
		return fig(BLOCKRANGE_FIG_UNKNOWN, 0);
	return fig(BLOCKRANGE_FIG_OK,
		   100.0 * (double)entry / (double)branch_cov);
}

static struct blockrange_fig fig_taken(bool is_branch, uint64_t taken,
				       uint64_t coverage)
{
	if (!is_branch)
		return fig_na;
	if (!coverage)
		return fig(BLOCKRANGE_FIG_UNKNOWN, 0);
	return fig(BLOCKRANGE_FIG_OK, 100.0 * (double)taken / (double)coverage);
}

static struct blockrange_fig fig_pred(bool is_branch, uint64_t pred,
				      uint64_t taken, bool has_pred)
{
	if (!is_branch)
		return fig_na;
	if (!taken || !has_pred)
		return fig(BLOCKRANGE_FIG_UNKNOWN, 0);
	return fig(BLOCKRANGE_FIG_OK, 100.0 * (double)pred / (double)taken);
}

/* ---- the tree's ranges --------------------------------------------------- */

struct blockrange_fig blockrange_coverage(const struct blockrange_ctx *ctx,
					  const struct blockrange *br)
{
	if (!br)
		return fig_outside(ctx);
	if (!br->owner)
		return fig_coverage(br->coverage, 0, false);
	br_refresh_owner_max(ctx);
	return fig_coverage(br->coverage,
			    ctx->owners.rec[br->owner].max_coverage, true);
}

struct blockrange_fig blockrange_entry_pct(const struct blockrange *br)
{
	const struct blockrange *branch = br;

	if (!br || !br->is_target)
		return fig_na;
	while (branch && !branch->is_branch)
		branch = blockrange_next(branch);
	return fig_entry(br->entry, branch != NULL,
			 branch ? branch->coverage : 0);
}

struct blockrange_fig blockrange_taken_pct(const struct blockrange *br)
{
	if (!br)
		return fig_na;
	return fig_taken(br->is_branch, br->taken, br->coverage);
}

struct blockrange_fig blockrange_pred_pct(const struct blockrange_ctx *ctx,
					  const struct blockrange *br)
{
	if (!br)
		return fig_na;
	return fig_pred(br->is_branch, br->pred, br->taken,
			blockrange_has_pred(ctx));
}

void blockrange_addr_info(const struct blockrange_ctx *ctx, uint64_t addr,
			  struct blockrange_addr_info *info)
{
	const struct blockrange *br = blockrange_find(ctx, addr);

	info->range = br;
	info->coverage = blockrange_coverage(ctx, br);
	info->entry = fig_na;
	info->taken = fig_na;
	info->pred = fig_na;
	if (!br)
		return;
	if (addr == br->start)
		info->entry = blockrange_entry_pct(br);
	if (addr == br->end) {
		info->taken = blockrange_taken_pct(br);
		info->pred = blockrange_pred_pct(ctx, br);
	}
}

/* ---- range values of either engine --------------------------------------- */

struct blockrange_fig blockrange_rec_coverage(const struct blockrange_ctx *ctx,
					      const struct blockrange_rec *rec)
{
	if (!rec)
		return fig_outside(ctx);
	if (!rec->owner)
		return fig_coverage(rec->coverage, 0, false);
	return fig_coverage(rec->coverage,
			    blockrange_owner_max(ctx, rec->owner), true);
}

struct blockrange_fig blockrange_rec_entry_pct(const struct blockrange_ctx *ctx,
					       const struct blockrange_rec *rec)
{
	struct blockrange_rec branch;
	bool found = true;

	if (!rec || !rec->is_target)
		return fig_na;
	branch = *rec;
	while (found && !branch.is_branch)
		found = blockrange_rec_next(ctx, &branch);
	return fig_entry(rec->entry, found, found ? branch.coverage : 0);
}

struct blockrange_fig blockrange_rec_taken_pct(const struct blockrange_rec *rec)
{
	if (!rec)
		return fig_na;
	return fig_taken(rec->is_branch, rec->taken, rec->coverage);
}

struct blockrange_fig blockrange_rec_pred_pct(const struct blockrange_ctx *ctx,
					      const struct blockrange_rec *rec)
{
	if (!rec)
		return fig_na;
	return fig_pred(rec->is_branch, rec->pred, rec->taken,
			blockrange_has_pred(ctx));
}

void blockrange_addr_rec(const struct blockrange_ctx *ctx, uint64_t addr,
			 struct blockrange_addr_rec *info)
{
	memset(info, 0, sizeof(*info));
	info->found = blockrange_rec_find(ctx, addr, &info->range);
	info->coverage = blockrange_rec_coverage(ctx, info->found ?
						 &info->range : NULL);
	info->entry = fig_na;
	info->taken = fig_na;
	info->pred = fig_na;
	if (!info->found)
		return;
	if (addr == info->range.start)
		info->entry = blockrange_rec_entry_pct(ctx, &info->range);
	if (addr == info->range.end) {
		info->taken = blockrange_rec_taken_pct(&info->range);
		info->pred = blockrange_rec_pred_pct(ctx, &info->range);
	}
}
