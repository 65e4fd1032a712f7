// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for libblockrange.
 *
 * The input is decoded into a small address space (64 cells: near 1, near
 * UINT64_MAX, in the middle, or wide cells spanning all of [1, UINT64_MAX])
 * and a sequence of operations: count_block, bare create, invalid create,
 * find, span, branch stacks, figures, navigation, allocation failures and
 * context resets.  After every operation that may change the context, the
 * part it can change is compared with the naive model (model_check_region():
 * the cells of the block and the ranges next to it, the counts and the
 * owners); every FULL_CHECK_EVERY such operations, after a branch stack,
 * before a reset and at the end, the whole context is (model_check_full():
 * every cell and range plus the red-black and ordering invariants).  A change
 * outside the region would persist (counters only grow, bounds only split)
 * and be seen by the next full check.  Any difference prints a message and
 * aborts.
 *
 * Differential: every counted block and branch stack also goes into three
 * aggregates and a second model that sees counted blocks only; at every
 * full check the batch engine's result (blockrange_build()) of each must
 * equal that model through the common query functions, and the tree too
 * while the tree has seen exactly the same blocks (no bare create, no stack
 * cut short by an allocation failure).  Counts carry weights, some above
 * 2^32.  The aggregates are tuned three ways (see struct agg_tuning): the
 * default, small (4-block chunks, an 8-slot table, so that a few dozen
 * blocks switch strategy, append, fill the table and compact) and
 * appending only; all three must count the same distinct blocks.
 *
 * Operation byte: op % 12 selects the operation, op / 12 its variant.
 *
 * Built two ways: with clang -fsanitize=fuzzer,address,undefined for `make
 * fuzz`, and with gcc into the Check runner, which replays the committed
 * corpus (check-tests/fuzz/blockrange-corpus/) as a regression test.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <blockrange/blockrange.h>

#include "lib/internal.h"
#include "model.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define NCELLS 64
#define MAX_STACK 40
#define FULL_CHECK_EVERY 16

/*
 * The checking code itself needs no coverage feedback: keep libFuzzer's
 * instrumentation (edge counters, comparison tracing) out of it.  The
 * library functions it calls stay instrumented.
 */
#if defined(__clang__)
#define NO_COVERAGE __attribute__((no_sanitize("coverage")))
#else
#define NO_COVERAGE
#endif

struct reader {
	const uint8_t *p;
	size_t n;
};

static unsigned u8(struct reader *r)
{
	if (!r->n)
		return 0;
	r->n--;
	return *r->p++;
}

/* Allocator that fails on demand. */
struct fail_alloc {
	long countdown;		/* fail when it reaches 0; < 0: never */
	bool sticky;		/* keep failing once triggered */
	bool failing;
};

static void *fa_alloc(size_t size, void *arg)
{
	struct fail_alloc *fa = arg;

	if (fa->failing)
		return NULL;
	if (fa->countdown >= 0 && fa->countdown-- == 0) {
		fa->failing = fa->sticky;
		return NULL;
	}
	return malloc(size);
}

static void fa_free(void *ptr, size_t size, void *arg)
{
	(void)size;
	(void)arg;
	free(ptr);
}

static void fa_disarm(struct fail_alloc *fa)
{
	fa->countdown = -1;
	fa->failing = false;
}

#define DIE(...) do {							\
	fprintf(stderr, "fuzz_blockrange: " __VA_ARGS__);		\
	fputc('\n', stderr);						\
	abort();							\
} while (0)

/* The batch side: aggregates and a model of the counted blocks. */
#define NR_AGGS 3

struct batch_side {
	struct blockrange_agg *agg[NR_AGGS];
	struct model m;
	bool pure;		/* the tree saw exactly these blocks */
};

static void batch_new(struct batch_side *bs)
{
	struct agg_tuning t = agg_tuning_default();
	unsigned k;

	for (k = 0; k < NR_AGGS; k++) {
		bs->agg[k] = blockrange_agg_new(NULL);
		if (!bs->agg[k])
			DIE("agg_new failed");
	}
	t.chunk = 4;
	t.sample_mask = 1;
	t.hash_max = 8;
	t.part_min = 2;
	t.slab_chunks = 2;
	agg_tune(bs->agg[1], &t);
	t.force = AGG_APPEND;
	agg_tune(bs->agg[2], &t);
	bs->pure = true;
}

static void batch_free(struct batch_side *bs)
{
	unsigned k;

	for (k = 0; k < NR_AGGS; k++)
		blockrange_agg_free(bs->agg[k]);
}

static NO_COVERAGE bool same_rec(const struct blockrange_rec *a,
				 const struct blockrange_rec *b)
{
	return a->start == b->start && a->end == b->end &&
	       a->coverage == b->coverage && a->entry == b->entry &&
	       a->taken == b->taken && a->pred == b->pred &&
	       a->owner == b->owner && a->is_target == b->is_target &&
	       a->is_branch == b->is_branch;
}

static NO_COVERAGE void check_batch_one(struct batch_side *bs,
					const struct blockrange_agg *agg,
					const struct blockrange_ctx *ctx,
					const char *what)
{
	struct blockrange_ctx *fr = NULL;
	struct blockrange_rec a, b;
	bool ha, hb;
	const char *err;
	unsigned o;

	if (blockrange_build(agg, NULL, &fr))
		DIE("after %s: build failed", what);
	err = model_check_rec(&bs->m, fr, true);
	if (err)
		DIE("after %s: batch: %s", what, err);
	if (blockrange_ctx_nr_blocks(fr) != blockrange_agg_nr_blocks(agg) ||
	    blockrange_agg_nr_blocks(agg) !=
	    blockrange_agg_nr_blocks(bs->agg[0]))
		DIE("after %s: distinct blocks differ", what);
	if (bs->pure) {
		ha = blockrange_rec_first(ctx, &a);
		hb = blockrange_rec_first(fr, &b);
		while (ha && hb) {
			if (!same_rec(&a, &b))
				DIE("after %s: tree and batch differ at %#"
				    PRIx64, what, a.start);
			ha = blockrange_rec_next(ctx, &a);
			hb = blockrange_rec_next(fr, &b);
		}
		if (ha || hb)
			DIE("after %s: tree and batch: range counts", what);
		for (o = 1; o < MODEL_MAX_OWNERS; o++)
			if (blockrange_owner_max(ctx, bs->m.owner_key[o]) !=
			    blockrange_owner_max(fr, bs->m.owner_key[o]))
				DIE("after %s: owner %u max", what, o);
	}
	blockrange_ctx_free(fr);
}

static NO_COVERAGE void check_batch(struct batch_side *bs,
				    const struct blockrange_ctx *ctx,
				    const char *what)
{
	unsigned k;

	for (k = 0; k < NR_AGGS; k++)
		check_batch_one(bs, bs->agg[k], ctx, what);
}

static NO_COVERAGE void check_model(struct model *m,
				    const struct blockrange_ctx *ctx,
				    struct batch_side *bs, const char *what)
{
	const char *err = model_check_full(m, ctx);

	if (err)
		DIE("after %s: %s", what, err);
	check_batch(bs, ctx, what);
}

/* After an operation on cells i..j; *nr counts these checks. */
static NO_COVERAGE void check_op(struct model *m,
				 const struct blockrange_ctx *ctx,
				 struct batch_side *bs, size_t i,
				 size_t j, unsigned *nr, const char *what)
{
	const char *err;

	if (++*nr % FULL_CHECK_EVERY == 0) {
		check_model(m, ctx, bs, what);
		return;
	}
	err = model_check_region(m, ctx, i, j);
	if (err)
		DIE("after %s: %s", what, err);
}

/* Cell containing @addr, or (size_t)-1 outside the space. */
static NO_COVERAGE size_t cell_of(const struct model *m, uint64_t addr)
{
	size_t a = 0, b = m->n;

	while (a < b) {
		size_t mid = a + (b - a) / 2;

		if (m->cell[mid].hi < addr)
			a = mid + 1;
		else
			b = mid;
	}
	return a < m->n && m->cell[a].lo <= addr ? a : (size_t)-1;
}

static const uint64_t wide_points[] = {
	1, 2, 3, 4, 5, 0x10, 0x11, 0xff, 0x100, 0x101, 0x1000, 0x1001,
	0xfffff, 0x400000, 0x400001, 0x7fffffff, 0x80000000, 0xffffffff,
	0x100000000ull, 0x100000001ull, 0x555555554000ull, 0x7ffffffff000ull,
	0x7fffffffffffull, 0x7fffffffffffffffull, 0x8000000000000000ull,
	0x8000000000000001ull, 0xffff800000000000ull, 0xffffffff80000000ull,
	0xffffffffff600000ull, 0xfffffffffffff000ull, 0xfffffffffffffff0ull,
	0xfffffffffffffffaull, 0xfffffffffffffffbull, 0xfffffffffffffffcull,
	0xfffffffffffffffdull, 0xfffffffffffffffeull, 0xffffffffffffffffull,
};

static int init_space(struct model *m, unsigned kind)
{
	switch (kind % 4) {
	case 0:
		return model_init_narrow(m, 1, NCELLS);
	case 1:
		return model_init_narrow(m, UINT64_MAX - NCELLS + 1, NCELLS);
	case 2:
		return model_init_narrow(m, 0x400000, NCELLS);
	default:
		if (model_init_points(m, wide_points, sizeof(wide_points) /
				      sizeof(wide_points[0])))
			DIE("wide_points must be sorted and start at 1");
		return 0;
	}
}

/* A block i <= j from two bytes. */
static void pick_block(struct reader *r, const struct model *m, size_t *i,
		       size_t *j)
{
	unsigned a = u8(r), len = u8(r);

	*i = a % m->n;
	/* Mostly short blocks, sometimes long ones. */
	len = len < 192 ? len % 8 : len % m->n;
	*j = *i + len < m->n ? *i + len : m->n - 1;
}

static enum blockrange_pred pick_pred(unsigned b)
{
	return (enum blockrange_pred)(b % 3);
}

/* An address in or next to cell @b (interior for wide cells). */
static uint64_t pick_addr(struct reader *r, const struct model *m)
{
	const struct model_cell *c = &m->cell[u8(r) % m->n];
	unsigned how = u8(r);

	switch (how % 4) {
	case 0:
		return c->lo;
	case 1:
		return c->hi;
	case 2:
		return c->hi - c->lo > how ? c->lo + how : c->hi;
	default:
		return how & 4 ? c->lo - 1 : c->hi + 1;	/* may wrap: fine */
	}
}

static NO_COVERAGE bool fig_eq(struct blockrange_fig f,
				 enum blockrange_fig_status st, double v)
{
	if (f.status != st)
		return false;
	if (st != BLOCKRANGE_FIG_OK)
		return f.value == 0;
	return fabs(f.value - v) <= 1e-9 * (fabs(v) + 1);
}

/* Is cell k the first / last cell of its range? (k in U) */
static NO_COVERAGE bool range_starts(const struct model *m, size_t k)
{
	return k == 0 || !m->cell[k - 1].in_u || m->cell[k].start_set ||
	       m->cell[k - 1].end_set;
}

static NO_COVERAGE bool range_ends(const struct model *m, size_t k)
{
	return k + 1 == m->n || range_starts(m, k + 1) || !m->cell[k + 1].in_u;
}

static NO_COVERAGE void check_figures(struct model *m,
				      const struct blockrange_ctx *ctx,
				      uint64_t addr)
{
	struct blockrange_addr_info info;
	size_t k = cell_of(m, addr), l;
	const struct model_cell *c;
	enum blockrange_fig_status st;
	double v = 0;

	blockrange_addr_info(ctx, addr, &info);
	if (k == (size_t)-1 || !m->cell[k].in_u) {
		if (info.range)
			DIE("figures: %#" PRIx64 " found a range", addr);
		if (!fig_eq(info.coverage, m->blocks ? BLOCKRANGE_FIG_OK :
			    BLOCKRANGE_FIG_UNKNOWN, 0) ||
		    info.entry.status != BLOCKRANGE_FIG_NA ||
		    info.taken.status != BLOCKRANGE_FIG_NA ||
		    info.pred.status != BLOCKRANGE_FIG_NA)
			DIE("figures outside ranges at %#" PRIx64, addr);
		return;
	}
	c = &m->cell[k];
	if (!info.range || info.range->start > addr || info.range->end < addr)
		DIE("figures: no range for %#" PRIx64, addr);
	model_owner_max(m);

	if (!c->owner) {
		st = BLOCKRANGE_FIG_UNKNOWN;
	} else {
		st = BLOCKRANGE_FIG_OK;
		v = (double)c->cov / (double)m->owner_max[c->owner];
	}
	if (!fig_eq(info.coverage, st, v))
		DIE("coverage at %#" PRIx64 ": %d %g, model %d %g", addr,
		    info.coverage.status, info.coverage.value, st, v);

	/* +entry%: at the start of a target range. */
	st = BLOCKRANGE_FIG_NA;
	v = 0;
	if (addr == c->lo && range_starts(m, k) && c->start_set) {
		for (l = k; l < m->n && !(m->cell[l].end_set &&
					  range_ends(m, l)); l++)
			;
		if (l == m->n || !m->cell[l].cov) {
			st = BLOCKRANGE_FIG_UNKNOWN;
		} else {
			st = BLOCKRANGE_FIG_OK;
			v = 100.0 * (double)c->entry / (double)m->cell[l].cov;
		}
	}
	if (!fig_eq(info.entry, st, v))
		DIE("entry%% at %#" PRIx64 ": %d %g, model %d %g", addr,
		    info.entry.status, info.entry.value, st, v);

	/* -taken% and p:pred%: at the end of a branch range. */
	if (addr == c->hi && range_ends(m, k) && c->end_set) {
		if (!fig_eq(info.taken, c->cov ? BLOCKRANGE_FIG_OK :
			    BLOCKRANGE_FIG_UNKNOWN,
			    c->cov ? 100.0 * (double)c->taken / (double)c->cov : 0))
			DIE("taken%% at %#" PRIx64, addr);
		if (!fig_eq(info.pred, c->taken && m->pred_known ?
			    BLOCKRANGE_FIG_OK : BLOCKRANGE_FIG_UNKNOWN,
			    c->taken ? 100.0 * (double)c->pred /
			    (double)c->taken : 0))
			DIE("pred%% at %#" PRIx64, addr);
	} else if (info.taken.status != BLOCKRANGE_FIG_NA ||
		   info.pred.status != BLOCKRANGE_FIG_NA) {
		DIE("taken/pred%% not NA at %#" PRIx64, addr);
	}
}

static NO_COVERAGE void check_span(const struct model *m,
				   const struct blockrange_ctx *ctx,
				   uint64_t lo, uint64_t hi)
{
	struct blockrange_iter it;
	const struct blockrange *br, *prev = NULL;
	int err = blockrange_span(ctx, lo, hi, &it);
	size_t nr = 0, expect = 0, k;

	if (lo > hi) {
		if (err != -EINVAL || it.first || it.last || it.next)
			DIE("span(%#" PRIx64 ", %#" PRIx64 ") not rejected",
			    lo, hi);
		return;
	}
	if (err)
		DIE("span failed: %d", err);
	while ((br = blockrange_iter_next(&it))) {
		if (br->end < lo || br->start > hi)
			DIE("span(%#" PRIx64 ", %#" PRIx64 ") returned [%#"
			    PRIx64 ", %#" PRIx64 "]", lo, hi, br->start,
			    br->end);
		if (prev && blockrange_next(prev) != br)
			DIE("span skipped a range");
		prev = br;
		nr++;
	}
	/* Count the model's ranges that intersect [lo, hi]. */
	for (k = 0; k < m->n; k++) {
		size_t j = k;

		if (!m->cell[k].in_u)
			continue;
		while (!range_ends(m, j))
			j++;
		if (!(m->cell[j].hi < lo || m->cell[k].lo > hi))
			expect++;
		k = j;
	}
	if (nr != expect)
		DIE("span(%#" PRIx64 ", %#" PRIx64 "): %zu ranges, model %zu",
		    lo, hi, nr, expect);
}

static NO_COVERAGE void
stack_stats_eq(const struct blockrange_stack_stats *a,
	       const struct blockrange_stack_stats *b)
{
	if (a->blocks != b->blocks || a->counted != b->counted ||
	    a->skipped_abort != b->skipped_abort ||
	    a->skipped_in_tx != b->skipped_in_tx ||
	    a->skipped_zero != b->skipped_zero ||
	    a->skipped_reversed != b->skipped_reversed)
		DIE("stack stats differ: blocks %" PRIu64 "/%" PRIu64
		    " counted %" PRIu64 "/%" PRIu64, a->blocks, b->blocks,
		    a->counted, b->counted);
}

static void op_stack(struct reader *r, struct model *m,
		     struct blockrange_ctx *ctx, struct batch_side *bs)
{
	struct blockrange_branch br[MAX_STACK];
	struct blockrange_stack_stats ls = { 0 }, ms = { 0 }, as = { 0 };
	struct blockrange_stack_stats bms = { 0 };
	size_t nr = u8(r) % MAX_STACK, i;
	int err;

	for (i = 0; i < nr; i++) {
		unsigned f = u8(r), from = u8(r), to = u8(r);

		memset(&br[i], 0, sizeof(br[i]));
		br[i].from = f & 0x80 && !(from & 7) ? 0 :
			     m->cell[from % m->n].hi;
		br[i].to = f & 0x40 && !(to & 7) ? 0 : m->cell[to % m->n].lo;
		br[i].predicted = f & 1;
		br[i].mispredicted = f & 2;
		br[i].in_tx = (f & 0x0c) == 0x0c;
		br[i].abort = (f & 0x30) == 0x30;
		br[i].to_owner = m->owner_key[(f >> 2) % MODEL_MAX_OWNERS];
		br[i].cycles = (uint16_t)(from * 7 + to);
	}
	for (i = 0; i < NR_AGGS; i++) {
		memset(&as, 0, sizeof(as));
		if (blockrange_agg_add_stack(bs->agg[i], br, nr, 1, &as))
			DIE("agg_add_stack failed");
	}
	if (model_apply_stack(&bs->m, br, nr, &bms))
		DIE("model_apply_stack failed");
	stack_stats_eq(&as, &bms);
	err = blockrange_apply_stack(ctx, br, nr, &ls);
	if (err == -ENOMEM) {
		bs->pure = false;
		/* The ls.blocks oldest blocks were processed. */
		if (ls.blocks + 1 >= nr)
			DIE("stack ENOMEM after %" PRIu64 " of %zu entries",
			    ls.blocks, nr);
		if (model_apply_stack(m, br + (nr - 1 - ls.blocks),
				      ls.blocks + 1, &ms))
			DIE("stack: block not on cell bounds");
	} else if (err) {
		DIE("apply_stack: %d", err);
	} else if (model_apply_stack(m, br, nr, &ms)) {
		DIE("stack: block not on cell bounds");
	}
	if (ls.stacks != 1 || ls.entries != nr)
		DIE("stack stats: stacks %" PRIu64 " entries %" PRIu64,
		    ls.stacks, ls.entries);
	if (ls.counted + ls.skipped_abort + ls.skipped_in_tx +
	    ls.skipped_zero + ls.skipped_reversed != ls.blocks)
		DIE("stack stats do not add up");
	stack_stats_eq(&ls, &ms);
	check_model(m, ctx, bs, "apply_stack");
}

/* count_block of a block, weighted by op / 12 (mostly 1). */
static void op_count(struct reader *r, struct model *m,
		     struct blockrange_ctx *ctx, struct batch_side *bs,
		     unsigned op, unsigned *nr_checks)
{
	uint64_t w = op / 12 < 16 ? 1 : op / 12 < 20 ?
		     op / 12 - 14 : ((uint64_t)1 << 33) + op;
	size_t i, j;
	unsigned k;
	int err;

	pick_block(r, m, &i, &j);
	op = u8(r);
	err = blockrange_count_block_n(ctx, m->cell[i].lo, m->cell[j].hi,
				       m->owner_key[op % MODEL_MAX_OWNERS],
				       pick_pred(op >> 3), w);
	if (err == -ENOMEM) {
		check_op(m, ctx, bs, i, j, nr_checks, "count_block ENOMEM");
		return;
	}
	if (err)
		DIE("count_block: %d", err);
	model_count_n(m, i, j, op % MODEL_MAX_OWNERS, pick_pred(op >> 3), w);
	for (k = 0; k < NR_AGGS; k++)
		if (blockrange_agg_add(bs->agg[k], m->cell[i].lo,
				       m->cell[j].hi,
				       m->owner_key[op % MODEL_MAX_OWNERS],
				       pick_pred(op >> 3), w))
			DIE("agg_add failed");
	model_count_n(&bs->m, i, j, op % MODEL_MAX_OWNERS,
		      pick_pred(op >> 3), w);
	check_op(m, ctx, bs, i, j, nr_checks, "count_block");
}

/* A bare create. */
static void op_create(struct reader *r, struct model *m,
		      struct blockrange_ctx *ctx, struct batch_side *bs,
		      unsigned *nr_checks)
{
	struct blockrange_iter it;
	size_t i, j;
	int err;

	pick_block(r, m, &i, &j);
	err = blockrange_create(ctx, m->cell[i].lo, m->cell[j].hi, &it);
	if (err == -ENOMEM) {
		if (it.first || it.last || it.next)
			DIE("iterator after ENOMEM");
		check_op(m, ctx, bs, i, j, nr_checks, "create ENOMEM");
		return;
	}
	if (err)
		DIE("create: %d", err);
	model_create(m, i, j);
	bs->pure = false;
	check_op(m, ctx, bs, i, j, nr_checks, "create");
	if (model_check_iter(m, &it, i, j))
		DIE("create iterator: %s", m->err);
}

/* Invalid blocks: start 0 or start > end; op / 12: bit 0 start 0, bit 1
 * create. */
static void op_invalid(struct reader *r, struct model *m,
		       struct blockrange_ctx *ctx, struct batch_side *bs,
		       unsigned op, unsigned *nr_checks)
{
	struct blockrange_iter it;
	uint64_t lo, hi;
	size_t i, j;
	int err;

	pick_block(r, m, &i, &j);
	lo = op / 12 & 1 ? 0 : m->cell[j].hi + 1; /* may wrap to 0 */
	hi = op / 12 & 1 ? m->cell[j].hi : m->cell[i].lo;
	err = op / 12 & 2 ?
	      blockrange_create(ctx, lo, hi, &it) :
	      blockrange_count_block(ctx, lo, hi, NULL, BLOCKRANGE_PRED_HIT);
	if (err != -EINVAL)
		DIE("invalid block [%#" PRIx64 ", %#" PRIx64 "] gave %d", lo,
		    hi, err);
	check_op(m, ctx, bs, i, j, nr_checks, "invalid block");
}

/* find() and find_ge() of an address against the model. */
static void op_find(struct reader *r, struct model *m,
		    struct blockrange_ctx *ctx)
{
	uint64_t addr = pick_addr(r, m);
	const struct blockrange *br = blockrange_find(ctx, addr);
	const struct blockrange *ge = blockrange_find_ge(ctx, addr);
	size_t k = cell_of(m, addr);
	bool in = k != (size_t)-1 && m->cell[k].in_u;

	if (in != !!br || (br && (br->start > addr || br->end < addr)))
		DIE("find(%#" PRIx64 ") wrong", addr);
	if (br && ge != br)
		DIE("find_ge(%#" PRIx64 ") != find", addr);
	if (ge && (ge->end < addr ||
		   (blockrange_prev(ge) && blockrange_prev(ge)->end >= addr)))
		DIE("find_ge(%#" PRIx64 ") wrong", addr);
	if (!ge && blockrange_last(ctx) && blockrange_last(ctx)->end >= addr)
		DIE("find_ge(%#" PRIx64 ") missed", addr);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct reader r = { data, size };
	struct fail_alloc fa = { -1, false, false };
	struct blockrange_allocator a = { fa_alloc, fa_free, &fa };
	struct blockrange_ctx *ctx;
	struct batch_side bs;
	struct model m;
	unsigned nr_checks = 0, kind;
	uint64_t lo, hi;

	kind = u8(&r);
	if (init_space(&m, kind) || init_space(&bs.m, kind))
		return 0;
	batch_new(&bs);
	ctx = blockrange_ctx_new(&a);
	if (!ctx)
		DIE("ctx_new failed");

	while (r.n) {
		unsigned op = u8(&r);

		switch (op % 12) {
		case 0:
		case 1:
		case 2:
			op_count(&r, &m, ctx, &bs, op, &nr_checks);
			break;
		case 3:
			op_create(&r, &m, ctx, &bs, &nr_checks);
			break;
		case 4:
			op_invalid(&r, &m, ctx, &bs, op, &nr_checks);
			break;
		case 5:
			op_find(&r, &m, ctx);
			break;
		case 6:
			lo = pick_addr(&r, &m);
			hi = pick_addr(&r, &m);
			check_span(&m, ctx, lo, hi);
			break;
		case 7:
			op_stack(&r, &m, ctx, &bs);
			break;
		case 8:
			check_figures(&m, ctx, pick_addr(&r, &m));
			break;
		case 9:
			/* Fail the k-th allocation from now (maybe for good). */
			fa.countdown = u8(&r) % 4;
			fa.sticky = op / 12 & 1;
			fa.failing = false;
			break;
		case 10:
			fa_disarm(&fa);
			break;
		default:
			/* Start over with a fresh context. */
			check_model(&m, ctx, &bs,
				    "the last operation on a context");
			fa_disarm(&fa);
			blockrange_ctx_free(ctx);
			batch_free(&bs);
			model_free(&m);
			model_free(&bs.m);
			kind = u8(&r);
			if (init_space(&m, kind) || init_space(&bs.m, kind))
				return 0;
			batch_new(&bs);
			ctx = blockrange_ctx_new(&a);
			if (!ctx)
				DIE("ctx_new failed");
			break;
		}
	}
	check_model(&m, ctx, &bs, "end");
	blockrange_ctx_free(ctx);
	batch_free(&bs);
	model_free(&m);
	model_free(&bs.m);
	return 0;
}
