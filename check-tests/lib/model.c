// SPDX-License-Identifier: GPL-2.0
/* Naive per-address oracle for libblockrange; see model.h. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "treecheck.h"

/* Distinct static objects used as owner keys. */
static const char owner_objs[MODEL_MAX_OWNERS];

static void model_reset(struct model *m)
{
	unsigned o;

	m->blocks = 0;
	m->weight = 0;
	m->nr_ranges = 0;
	m->pred_known = 0;
	for (o = 0; o < MODEL_MAX_OWNERS; o++) {
		m->owner_key[o] = o ? &owner_objs[o] : NULL;
		m->owner_max[o] = 0;
	}
	m->err[0] = '\0';
}

int model_init_narrow(struct model *m, uint64_t base, size_t n)
{
	size_t i;

	m->n = n;
	m->cell = calloc(n, sizeof(*m->cell));
	if (!m->cell)
		return -1;
	for (i = 0; i < n; i++)
		m->cell[i].lo = m->cell[i].hi = base + i;
	model_reset(m);
	return 0;
}

int model_init_points(struct model *m, const uint64_t *points, size_t n)
{
	size_t i;

	if (!n || points[0] != 1)
		return -1;
	for (i = 1; i < n; i++)
		if (points[i] <= points[i - 1])
			return -1;
	m->n = n;
	m->cell = calloc(n, sizeof(*m->cell));
	if (!m->cell)
		return -1;
	for (i = 0; i < n; i++) {
		m->cell[i].lo = points[i];
		m->cell[i].hi = i + 1 < n ? points[i + 1] - 1 : UINT64_MAX;
	}
	model_reset(m);
	return 0;
}

void model_free(struct model *m)
{
	free(m->cell);
	m->cell = NULL;
	m->n = 0;
}

size_t model_cell_lo(const struct model *m, uint64_t addr)
{
	size_t a = 0, b = m->n;

	while (a < b) {
		size_t mid = a + (b - a) / 2;

		if (m->cell[mid].lo < addr)
			a = mid + 1;
		else
			b = mid;
	}
	return a < m->n && m->cell[a].lo == addr ? a : (size_t)-1;
}

size_t model_cell_hi(const struct model *m, uint64_t addr)
{
	size_t a = 0, b = m->n;

	while (a < b) {
		size_t mid = a + (b - a) / 2;

		if (m->cell[mid].hi < addr)
			a = mid + 1;
		else
			b = mid;
	}
	return a < m->n && m->cell[a].hi == addr ? a : (size_t)-1;
}

unsigned model_owner_idx(const struct model *m, const void *key)
{
	unsigned o;

	for (o = 1; o < MODEL_MAX_OWNERS; o++)
		if (m->owner_key[o] == key)
			return o;
	return 0;
}

/* Does a range boundary fall between cells k - 1 and k (both in U)? */
static bool cut_before(const struct model *m, size_t k)
{
	return m->cell[k].start_set || m->cell[k - 1].end_set;
}

/* Does a range of the model start at cell k (in U)? */
static bool starts_range(const struct model *m, size_t k)
{
	return k == 0 || !m->cell[k - 1].in_u || cut_before(m, k);
}

/* Number of ranges of the model that start at cells a..b. */
static size_t count_starts(const struct model *m, size_t a, size_t b)
{
	size_t k, nr = 0;

	for (k = a; k <= b; k++)
		nr += m->cell[k].in_u && starts_range(m, k);
	return nr;
}

/*
 * Only whether a range starts at cells i..j + 1 can change (each depends on
 * the cell and the one before it): recount those.
 */
void model_create(struct model *m, size_t i, size_t j)
{
	size_t k, b = j + 1 < m->n ? j + 1 : j;
	size_t before = count_starts(m, i, b);

	for (k = i; k <= j; k++)
		m->cell[k].in_u = true;
	m->cell[i].start_set = true;
	m->cell[j].end_set = true;
	m->blocks++;
	m->nr_ranges = m->nr_ranges - before + count_starts(m, i, b);
}

void model_count(struct model *m, size_t i, size_t j, unsigned owner,
		 enum blockrange_pred pred)
{
	model_count_n(m, i, j, owner, pred, 1);
}

void model_count_n(struct model *m, size_t i, size_t j, unsigned owner,
		   enum blockrange_pred pred, uint64_t weight)
{
	uint64_t start = m->cell[i].lo;
	size_t k;

	model_create(m, i, j);
	m->cell[i].entry += weight;
	for (k = i; k <= j; k++) {
		struct model_cell *c = &m->cell[k];

		c->cov += weight;
		if (owner && (!c->owner || start > c->owner_start ||
			      (start == c->owner_start && owner < c->owner))) {
			c->owner = owner;
			c->owner_start = start;
		}
	}
	m->cell[j].taken += weight;
	if (pred == BLOCKRANGE_PRED_HIT)
		m->cell[j].pred += weight;
	if (pred != BLOCKRANGE_PRED_UNKNOWN)
		m->pred_known++;
	m->weight += weight;
}

void model_owner_max(struct model *m)
{
	size_t k;
	unsigned o;

	for (o = 0; o < MODEL_MAX_OWNERS; o++)
		m->owner_max[o] = 0;
	for (k = 0; k < m->n; k++) {
		const struct model_cell *c = &m->cell[k];

		if (c->owner && m->owner_max[c->owner] < c->cov)
			m->owner_max[c->owner] = c->cov;
	}
}

int model_apply_stack(struct model *m, const struct blockrange_branch *br,
		      size_t nr, struct blockrange_stack_stats *st)
{
	size_t k;

	st->stacks++;
	st->entries += nr;
	/* Oldest pair first: block from br[k].to to br[k - 1].from. */
	for (k = nr; k >= 2; k--) {
		const struct blockrange_branch *o = &br[k - 1], *n = &br[k - 2];
		enum blockrange_pred pred;
		size_t i, j;

		st->blocks++;
		if (o->abort || n->abort) {
			st->skipped_abort++;
			continue;
		}
		if (o->in_tx || n->in_tx) {
			st->skipped_in_tx++;
			continue;
		}
		if (o->to == 0 || n->from == 0) {
			st->skipped_zero++;
			continue;
		}
		if (o->to > n->from) {
			st->skipped_reversed++;
			continue;
		}
		i = model_cell_lo(m, o->to);
		j = model_cell_hi(m, n->from);
		if (i == (size_t)-1 || j == (size_t)-1 || i > j) {
			st->blocks--;
			return -1;
		}
		pred = n->predicted ? BLOCKRANGE_PRED_HIT :
		       n->mispredicted ? BLOCKRANGE_PRED_MISS :
		       BLOCKRANGE_PRED_UNKNOWN;
		model_count(m, i, j, model_owner_idx(m, o->to_owner), pred);
		st->counted++;
	}
	return 0;
}

static const char *fail(struct model *m, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(m->err, sizeof(m->err), fmt, ap);
	va_end(ap);
	return m->err;
}

/*
 * Compare the ranges over cells k0..k1 (k0 and k1 at the first and last
 * cell of a model range, or outside U) range by range and cell by cell,
 * starting from library range @br, whose predecessor is @prev.  Returns
 * the first library range after k1 in *next and the last one compared (or
 * @prev) in *last.
 */
static const char *check_cells(struct model *m,
			       const struct blockrange_ctx *ctx, size_t k0,
			       size_t k1, const struct blockrange *br,
			       const struct blockrange *prev,
			       const struct blockrange **next,
			       const struct blockrange **last)
{
	size_t k = k0, j, l;

	for (;;) {
		const struct model_cell *c;

		/* Addresses outside U belong to no range. */
		while (k <= k1 && !m->cell[k].in_u) {
			if (blockrange_find(ctx, m->cell[k].lo) ||
			    blockrange_find(ctx, m->cell[k].hi))
				return fail(m, "address %#" PRIx64
					    " in no block is in a range",
					    m->cell[k].lo);
			k++;
		}
		if (k > k1)
			break;
		c = &m->cell[k];
		if (!br)
			return fail(m, "no range at %#" PRIx64, c->lo);
		if (blockrange_prev(br) != prev)
			return fail(m, "prev() of range %#" PRIx64 " wrong",
				    br->start);
		if (br->start != c->lo)
			return fail(m, "range starts at %#" PRIx64
				    ", expected %#" PRIx64, br->start, c->lo);
		for (j = k; j + 1 < m->n && m->cell[j + 1].in_u &&
		     !cut_before(m, j + 1); j++)
			;
		if (br->end != m->cell[j].hi)
			return fail(m, "range [%#" PRIx64 ", %#" PRIx64
				    "]: expected end %#" PRIx64,
				    br->start, br->end, m->cell[j].hi);
		/* Every address of the range against the range's counters. */
		for (l = k; l <= j; l++) {
			const struct model_cell *d = &m->cell[l];

			if (d->cov != br->coverage)
				return fail(m, "coverage at %#" PRIx64 ": model %"
					    PRIu64 ", range [%#" PRIx64 ", %#"
					    PRIx64 "] %" PRIu64, d->lo, d->cov,
					    br->start, br->end, br->coverage);
			if (d->entry != (l == k ? br->entry : 0))
				return fail(m, "entry at %#" PRIx64 ": model %"
					    PRIu64 ", range %" PRIu64, d->lo,
					    d->entry, br->entry);
			if (d->taken != (l == j ? br->taken : 0))
				return fail(m, "taken at %#" PRIx64 ": model %"
					    PRIu64 ", range %" PRIu64, d->hi,
					    d->taken, br->taken);
			if (d->pred != (l == j ? br->pred : 0))
				return fail(m, "pred at %#" PRIx64 ": model %"
					    PRIu64 ", range %" PRIu64, d->hi,
					    d->pred, br->pred);
			if (m->owner_key[d->owner] != blockrange_owner(ctx, br))
				return fail(m, "owner at %#" PRIx64 ": model %u",
					    d->lo, d->owner);
		}
		if (br->is_target != c->start_set)
			return fail(m, "is_target of %#" PRIx64 ": model %d",
				    br->start, c->start_set);
		if (br->is_branch != m->cell[j].end_set)
			return fail(m, "is_branch of %#" PRIx64 ": model %d",
				    br->end, m->cell[j].end_set);
		if (blockrange_find(ctx, br->start) != br ||
		    blockrange_find(ctx, br->end) != br)
			return fail(m, "find() misses [%#" PRIx64 ", %#" PRIx64
				    "]", br->start, br->end);
		prev = br;
		br = blockrange_next(br);
		k = j + 1;
	}
	*next = br;
	*last = prev;
	return NULL;
}

/* What every check compares: counts and owners. */
static const char *check_globals(struct model *m,
				 const struct blockrange_ctx *ctx)
{
	unsigned o;

	model_owner_max(m);
	if (m->nr_ranges != blockrange_ctx_nr_ranges(ctx))
		return fail(m, "nr_ranges %zu, model %zu",
			    blockrange_ctx_nr_ranges(ctx), m->nr_ranges);
	if (m->blocks != blockrange_ctx_nr_blocks(ctx))
		return fail(m, "nr_blocks %" PRIu64 ", model %" PRIu64,
			    blockrange_ctx_nr_blocks(ctx), m->blocks);
	if ((m->pred_known != 0) != blockrange_has_pred(ctx))
		return fail(m, "has_pred %d, model %" PRIu64,
			    blockrange_has_pred(ctx), m->pred_known);
	for (o = 1; o < MODEL_MAX_OWNERS; o++)
		if (blockrange_owner_max(ctx, m->owner_key[o]) !=
		    m->owner_max[o])
			return fail(m, "owner %u max %" PRIu64 ", model %"
				    PRIu64, o,
				    blockrange_owner_max(ctx, m->owner_key[o]),
				    m->owner_max[o]);
	return NULL;
}

const char *model_check(struct model *m, const struct blockrange_ctx *ctx)
{
	const struct blockrange *first = blockrange_first(ctx);
	const struct blockrange *next = NULL, *last = NULL;
	const char *err;

	if (!m->n)
		return fail(m, "empty model");
	err = check_cells(m, ctx, 0, m->n - 1, first, NULL, &next, &last);
	if (err)
		return err;
	if (next)
		return fail(m, "extra range [%#" PRIx64 ", %#" PRIx64 "]",
			    next->start, next->end);
	if (blockrange_last(ctx) != last)
		return fail(m, "last() is not the last range");
	/* The model's own running count against a recount. */
	if (count_starts(m, 0, m->n - 1) != m->nr_ranges)
		return fail(m, "model: nr_ranges %zu, recount %zu",
			    m->nr_ranges, count_starts(m, 0, m->n - 1));
	return check_globals(m, ctx);
}

static bool rec_same(const struct blockrange_rec *a,
		     const struct blockrange_rec *b)
{
	return a->start == b->start && a->end == b->end &&
	       a->coverage == b->coverage && a->entry == b->entry &&
	       a->taken == b->taken && a->pred == b->pred &&
	       a->owner == b->owner && a->is_target == b->is_target &&
	       a->is_branch == b->is_branch;
}

const char *model_check_rec(struct model *m, const struct blockrange_ctx *ctx,
			    bool weight)
{
	struct blockrange_rec r, f, prev;
	bool have, have_prev = false;
	size_t k = 0, j, l, nr = 0;
	unsigned o;

	model_owner_max(m);
	have = blockrange_rec_first(ctx, &r);
	for (;;) {
		while (k < m->n && !m->cell[k].in_u) {
			if (blockrange_rec_find(ctx, m->cell[k].lo, &f) ||
			    blockrange_rec_find(ctx, m->cell[k].hi, &f))
				return fail(m, "rec: address %#" PRIx64
					    " in no block is in a range",
					    m->cell[k].lo);
			k++;
		}
		if (k >= m->n)
			break;
		if (!have)
			return fail(m, "rec: no range at %#" PRIx64,
				    m->cell[k].lo);
		for (j = k; j + 1 < m->n && m->cell[j + 1].in_u &&
		     !cut_before(m, j + 1); j++)
			;
		if (r.start != m->cell[k].lo || r.end != m->cell[j].hi)
			return fail(m, "rec: range [%#" PRIx64 ", %#" PRIx64
				    "], model [%#" PRIx64 ", %#" PRIx64 "]",
				    r.start, r.end, m->cell[k].lo,
				    m->cell[j].hi);
		for (l = k; l <= j; l++) {
			const struct model_cell *d = &m->cell[l];

			if (d->cov != r.coverage ||
			    d->entry != (l == k ? r.entry : 0) ||
			    d->taken != (l == j ? r.taken : 0) ||
			    d->pred != (l == j ? r.pred : 0) ||
			    m->owner_key[d->owner] != r.owner)
				return fail(m, "rec: counters or owner at %#"
					    PRIx64 " (cov %" PRIu64 "/%" PRIu64
					    " owner %u)", d->lo, r.coverage,
					    d->cov, d->owner);
			if (!blockrange_rec_find(ctx, d->lo, &f) ||
			    !rec_same(&f, &r) ||
			    !blockrange_rec_find(ctx, d->hi, &f) ||
			    !rec_same(&f, &r) ||
			    !blockrange_rec_find_ge(ctx, d->lo, &f) ||
			    !rec_same(&f, &r))
				return fail(m, "rec: find at %#" PRIx64, d->lo);
		}
		if (r.is_target != m->cell[k].start_set ||
		    r.is_branch != m->cell[j].end_set)
			return fail(m, "rec: flags of [%#" PRIx64 ", %#" PRIx64
				    "]", r.start, r.end);
		f = r;
		if (blockrange_rec_prev(ctx, &f) != have_prev ||
		    (have_prev && !rec_same(&f, &prev)))
			return fail(m, "rec: prev of %#" PRIx64, r.start);
		prev = r;
		have_prev = true;
		nr++;
		have = blockrange_rec_next(ctx, &r);
		k = j + 1;
	}
	if (have)
		return fail(m, "rec: extra range [%#" PRIx64 ", %#" PRIx64 "]",
			    r.start, r.end);
	if (have_prev && (!blockrange_rec_last(ctx, &f) || !rec_same(&f, &prev)))
		return fail(m, "rec: last() is not the last range");
	if (nr != blockrange_ctx_nr_ranges(ctx) || nr != m->nr_ranges)
		return fail(m, "rec: %zu ranges, nr_ranges %zu, model %zu", nr,
			    blockrange_ctx_nr_ranges(ctx), m->nr_ranges);
	if ((m->pred_known != 0) != blockrange_has_pred(ctx))
		return fail(m, "rec: has_pred %d", blockrange_has_pred(ctx));
	if (weight && m->weight != blockrange_ctx_weight(ctx))
		return fail(m, "rec: weight %" PRIu64 ", model %" PRIu64,
			    blockrange_ctx_weight(ctx), m->weight);
	for (o = 1; o < MODEL_MAX_OWNERS; o++)
		if (blockrange_owner_max(ctx, m->owner_key[o]) !=
		    m->owner_max[o])
			return fail(m, "rec: owner %u max %" PRIu64 ", model %"
				    PRIu64, o,
				    blockrange_owner_max(ctx, m->owner_key[o]),
				    m->owner_max[o]);
	return NULL;
}

const char *model_check_full(struct model *m, const struct blockrange_ctx *ctx)
{
	const char *err = model_check(m, ctx);

	return err ? err : tree_check(ctx, m->err, sizeof(m->err));
}

const char *model_check_region(struct model *m,
			       const struct blockrange_ctx *ctx, size_t i,
			       size_t j)
{
	const struct blockrange *br, *prev, *next = NULL, *last = NULL;
	size_t k0 = i ? i - 1 : 0, k1 = j + 1 < m->n ? j + 1 : m->n - 1;
	const char *err;

	if (i > j || j >= m->n)
		return fail(m, "bad region %zu..%zu", i, j);
	/* Widen to whole model ranges. */
	while (m->cell[k0].in_u && !starts_range(m, k0))
		k0--;
	while (k1 + 1 < m->n && m->cell[k1 + 1].in_u &&
	       !cut_before(m, k1 + 1))
		k1++;
	br = blockrange_find_ge(ctx, m->cell[k0].lo);
	prev = br ? blockrange_prev(br) : blockrange_last(ctx);
	if (prev && prev->end >= m->cell[k0].lo)
		return fail(m, "find_ge(%#" PRIx64 ") skipped [%#" PRIx64
			    ", %#" PRIx64 "]", m->cell[k0].lo, prev->start,
			    prev->end);
	err = check_cells(m, ctx, k0, k1, br, prev, &next, &last);
	if (err)
		return err;
	if (next && next->start <= m->cell[k1].hi)
		return fail(m, "range [%#" PRIx64 ", %#" PRIx64
			    "] inside the region after its last range",
			    next->start, next->end);
	return check_globals(m, ctx);
}

const char *model_check_iter(struct model *m, const struct blockrange_iter *it,
			     size_t i, size_t j)
{
	struct blockrange_iter copy = *it;
	const struct blockrange *br, *prev = NULL;

	if (!it->first || !it->last || it->next != it->first)
		return fail(m, "empty or advanced iterator");
	if (it->first->start != m->cell[i].lo || !it->first->is_target)
		return fail(m, "iterator starts at %#" PRIx64 ", expected %#"
			    PRIx64, it->first->start, m->cell[i].lo);
	if (it->last->end != m->cell[j].hi || !it->last->is_branch)
		return fail(m, "iterator ends at %#" PRIx64 ", expected %#"
			    PRIx64, it->last->end, m->cell[j].hi);
	while ((br = blockrange_iter_next(&copy))) {
		if (prev && (prev->end == UINT64_MAX ||
			     br->start != prev->end + 1))
			return fail(m, "iterator not contiguous at %#" PRIx64,
				    br->start);
		if (br->start < m->cell[i].lo || br->end > m->cell[j].hi)
			return fail(m, "iterator leaves the block at %#"
				    PRIx64, br->start);
		prev = br;
	}
	if (prev != it->last)
		return fail(m, "iterator did not end at last");
	return NULL;
}
