// SPDX-License-Identifier: GPL-2.0
/*
 * Malloc-failure sweep over a representative workload.
 *
 * The workload is what a profiler does with the library: two contexts (a
 * program and, created later, a second object high in the address space),
 * branch stacks recorded from a simulated program (calls, returns, loops,
 * fall-through, owners per function, prediction flags, the odd transaction
 * or abort entry), symbol-extent creates, invalid blocks, one create that
 * fills thousands of holes at once, read-only passes (find, span iteration,
 * navigation, figures) and finally freeing both contexts.
 *
 * For every N = 1, 2, ... the N-th allocation of the workload fails, either
 * once or for good (sticky), until a run sees no injected failure.  At every
 * injected failure:
 *  - the call that hit it returns the documented error (NULL from
 *    blockrange_ctx_new(), -ENOMEM otherwise), and no other call fails;
 *  - the tree is valid (tree_check(): red-black and ordering invariants);
 *  - the context equals a shadow context (default allocator, same calls)
 *    that never saw the failed call: every range, counter, flag, owner,
 *    owner maximum and count, i.e. nothing changed, except that a branch
 *    stack keeps the blocks before the failing one, as documented;
 *  - read-only calls keep working and never allocate.
 * Once failures stop (one-shot), the failed call is retried and the rest of
 * the workload runs; the final state must equal the shadow's.  At the end
 * blockrange_ctx_mem() matches the live bytes of the allocator and, after
 * the frees, no block is live (allocations == frees; LSan and valgrind
 * check the real heap in check-userspace-sanitize / -valgrind).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tests.h"
#include "treecheck.h"

#define NR_SLOTS	2
#define NR_FUNCS	160	/* program functions (owners of slot 0) */
#define NR_EXT		40	/* owners of slot 1 */
#define LBR_DEPTH	32
#define NR_SAMPLES	2400
#define NR_EXTENTS	2500	/* disjoint creates in slot 1 */

enum wl_kind { W_NEW, W_CREATE, W_COUNT, W_STACK, W_READ, W_FREE };

struct wl_op {
	enum wl_kind kind;
	unsigned slot;
	uint64_t start, end;		/* create, count, read window */
	const void *owner;
	enum blockrange_pred pred;
	size_t first, nr;		/* stack: entries in wl->br[] */
};

struct workload {
	struct wl_op *ops;
	size_t nr_ops, cap_ops;
	struct blockrange_branch *br;
	size_t nr_br, cap_br;
	const void *keys[NR_FUNCS + NR_EXT];
	size_t nr_keys;
};

/* Owner keys: distinct static objects. */
static const char key_objs[NR_FUNCS + NR_EXT];

static struct wl_op *add_op(struct workload *wl, enum wl_kind kind,
			    unsigned slot)
{
	struct wl_op *op;

	if (wl->nr_ops == wl->cap_ops) {
		wl->cap_ops = wl->cap_ops ? 2 * wl->cap_ops : 1024;
		wl->ops = realloc(wl->ops, wl->cap_ops * sizeof(*wl->ops));
		REQUIRE(wl->ops, "out of memory");
	}
	op = &wl->ops[wl->nr_ops++];
	memset(op, 0, sizeof(*op));
	op->kind = kind;
	op->slot = slot;
	return op;
}

/* ---- a simulated program for slot 0 ------------------------------------- */

struct bb {
	uint64_t start, end;	/* end: address of the last instruction */
};

struct prog {
	struct bb *bb;
	size_t nr_bb;
	/* The basic blocks of function f: [func_first[f], func_first[f + 1]) */
	size_t func_first[NR_FUNCS + 1];
};

static void prog_build(struct prog *p, struct rng *rng)
{
	uint64_t addr = 0x401000;
	size_t f, cap = NR_FUNCS * 64;

	p->bb = calloc(cap, sizeof(*p->bb));
	REQUIRE(p->bb, "out of memory");
	p->nr_bb = 0;
	for (f = 0; f < NR_FUNCS; f++) {
		size_t k, n = 8 + rng_below(rng, 56);

		p->func_first[f] = p->nr_bb;
		for (k = 0; k < n; k++) {
			uint64_t len = 2 + rng_below(rng, 24);

			p->bb[p->nr_bb].start = addr;
			p->bb[p->nr_bb].end = addr + len - 1;
			p->nr_bb++;
			addr += len;
		}
		addr = (addr + 15) & ~(uint64_t)15;	/* align functions */
	}
	p->func_first[NR_FUNCS] = p->nr_bb;
}

static size_t func_of(const struct prog *p, size_t b)
{
	size_t f = 0;

	while (p->func_first[f + 1] <= b)
		f++;
	return f;
}

/* Half of the calls go to hot functions (low numbers), half anywhere. */
static size_t pick_func(struct rng *rng)
{
	uint64_t r = rng_below(rng, NR_FUNCS);

	if (rng_below(rng, 2))
		return (size_t)r;
	return (size_t)(r * rng_below(rng, NR_FUNCS) / NR_FUNCS);
}

static void add_stack(struct workload *wl, const struct blockrange_branch *ring,
		      size_t head, size_t nr)
{
	struct wl_op *op = add_op(wl, W_STACK, 0);
	size_t e;

	if (wl->nr_br + nr > wl->cap_br) {
		wl->cap_br = 2 * (wl->cap_br + nr);
		wl->br = realloc(wl->br, wl->cap_br * sizeof(*wl->br));
		REQUIRE(wl->br, "out of memory");
	}
	/* Newest first, as perf delivers them. */
	for (e = 0; e < nr; e++)
		wl->br[wl->nr_br + e] =
			ring[(head + LBR_DEPTH - 1 - e) % LBR_DEPTH];
	op->first = wl->nr_br;
	op->nr = nr;
	wl->nr_br += nr;
}

/*
 * Run the program: basic blocks fall through or end in a taken branch (a
 * loop back or a jump in the function, a call, a return); every taken
 * branch goes into a 32-entry ring, a sample copies the ring out.
 */
static void gen_program_stacks(struct workload *wl, const struct prog *p,
			       struct rng *rng, size_t nr_samples)
{
	struct blockrange_branch ring[LBR_DEPTH];
	size_t calls[64], depth = 0, head = 0, filled = 0, samples = 0;
	size_t b = p->func_first[0], next_sample = 20;

	while (samples < nr_samples) {
		size_t f = func_of(p, b), lo = p->func_first[f];
		size_t hi = p->func_first[f + 1], to;
		uint64_t r = rng_below(rng, 100), flags;
		struct blockrange_branch *e;

		if (r < 50 && b + 1 < hi) {
			b++;		/* not taken: fall through */
			continue;
		}
		if (r < 75) {
			/* Loop back a few blocks, or jump forward. */
			to = rng_below(rng, 4) ?
			     b - rng_below(rng, b - lo + 1) :
			     lo + rng_below(rng, hi - lo);
		} else if (r < 88 && depth < 64) {
			calls[depth++] = b + 1 < hi ? b + 1 : lo;
			to = p->func_first[pick_func(rng)];
		} else if (depth) {
			to = calls[--depth];
		} else {
			to = p->func_first[pick_func(rng)];
		}
		e = &ring[head];
		memset(e, 0, sizeof(*e));
		e->from = p->bb[b].end;
		e->to = p->bb[to].start;
		e->to_owner = wl->keys[func_of(p, to)];
		flags = rng_below(rng, 1000);
		e->predicted = flags < 850;
		e->mispredicted = !e->predicted;
		e->in_tx = flags >= 995;
		e->abort = flags == 999;
		e->cycles = (uint16_t)(1 + rng_below(rng, 40));
		head = (head + 1) % LBR_DEPTH;
		if (filled < LBR_DEPTH)
			filled++;
		b = to;
		if (!--next_sample) {
			add_stack(wl, ring, head, filled);
			samples++;
			next_sample = 8 + rng_below(rng, 40);
			if (samples % 40 == 0)
				add_op(wl, W_READ, 0)->start =
					p->bb[rng_below(rng, p->nr_bb)].start;
		}
	}
}

/* ---- slot 1: symbol extents, one huge fill, counted blocks -------------- */

static void gen_slot1(struct workload *wl, struct rng *rng, size_t phase)
{
	const uint64_t base = 0x7f3a12000000ull;
	struct wl_op *op;
	size_t k;

	if (phase == 0) {
		/* Disjoint extents with gaps: one new range each. */
		for (k = 0; k < NR_EXTENTS; k++) {
			op = add_op(wl, W_CREATE, 1);
			op->start = base + 64 * k + rng_below(rng, 16);
			op->end = op->start + rng_below(rng, 40);
		}
		/* Invalid blocks: rejected without allocating. */
		add_op(wl, W_CREATE, 1)->start = 0;
		op = add_op(wl, W_COUNT, 1);
		op->start = base + 100;
		op->end = base + 99;
		return;
	}
	if (phase == 1) {
		/* Fill every hole from below base to the top of the space. */
		op = add_op(wl, W_CREATE, 1);
		op->start = base - 0x1000;
		op->end = UINT64_MAX;
		return;
	}
	for (k = 0; k < 3000; k++) {
		uint64_t s = base + rng_below(rng, 64 * NR_EXTENTS);

		op = add_op(wl, W_COUNT, 1);
		if (k % 500 == 499) {
			/* Near the end of the space. */
			s = UINT64_MAX - rng_below(rng, 200);
			op->end = s + rng_below(rng, UINT64_MAX - s + 1);
		} else {
			op->end = s + rng_below(rng, 300);
		}
		op->start = s;
		op->owner = wl->keys[NR_FUNCS + rng_below(rng, NR_EXT)];
		op->pred = (enum blockrange_pred)rng_below(rng, 3);
		if (k % 100 == 0)
			add_op(wl, W_READ, 1)->start = s;
	}
}

static void make_workload(struct workload *wl)
{
	struct rng rng = { 20260301 };
	struct prog p;
	size_t k;

	memset(wl, 0, sizeof(*wl));
	for (k = 0; k < NR_FUNCS + NR_EXT; k++)
		wl->keys[k] = &key_objs[k];
	wl->nr_keys = NR_FUNCS + NR_EXT;
	prog_build(&p, &rng);

	add_op(wl, W_NEW, 0);
	gen_program_stacks(wl, &p, &rng, NR_SAMPLES / 2);
	/* Function extents, as an annotate pass creates them. */
	for (k = 0; k < NR_FUNCS; k += 3) {
		struct wl_op *op = add_op(wl, W_CREATE, 0);

		op->start = p.bb[p.func_first[k]].start;
		op->end = p.bb[p.func_first[k + 1] - 1].end;
	}
	add_op(wl, W_NEW, 1);
	gen_slot1(wl, &rng, 0);
	gen_program_stacks(wl, &p, &rng, NR_SAMPLES / 4);
	gen_slot1(wl, &rng, 1);
	gen_slot1(wl, &rng, 2);
	gen_program_stacks(wl, &p, &rng, NR_SAMPLES / 4);
	add_op(wl, W_READ, 0)->start = 1;
	add_op(wl, W_READ, 1)->start = UINT64_MAX;
	add_op(wl, W_FREE, 1);
	add_op(wl, W_FREE, 0);
	free(p.bb);
}

/* ---- running it --------------------------------------------------------- */

struct run {
	struct test_alloc ta;
	struct blockrange_allocator a;
	struct blockrange_ctx *ctx[NR_SLOTS];
	struct blockrange_ctx *shadow[NR_SLOTS];
	const struct workload *wl;
	unsigned long failed_calls;	/* calls that returned an error */
	unsigned kinds_failed;		/* 1 << kind, per failed call */
	unsigned long compared;		/* comparisons with the shadow */
};

/* @ctx equals @shadow: ranges, counters, flags, owners, counts. */
static void assert_same_ctx(const struct run *r, unsigned slot,
			    const char *when, size_t op_idx)
{
	const struct blockrange_ctx *ctx = r->ctx[slot];
	const struct blockrange_ctx *sh = r->shadow[slot];
	struct snapshot s;
	char buf[256];
	const char *err;
	size_t k;

	err = tree_check(ctx, buf, sizeof(buf));
	REQUIRE(!err, "fail_at %lu, op %zu (%s): invalid tree: %s",
		r->ta.fail_at, op_idx, when, err);
	snapshot_take(&s, sh);
	snapshot_assert_same(&s, ctx);
	snapshot_free(&s);
	REQUIRE(blockrange_nr_owners(ctx) == blockrange_nr_owners(sh),
		"fail_at %lu, op %zu (%s): %zu owners, shadow %zu",
		r->ta.fail_at, op_idx, when, blockrange_nr_owners(ctx),
		blockrange_nr_owners(sh));
	for (k = 0; k < r->wl->nr_keys; k++)
		REQUIRE(blockrange_owner_max(ctx, r->wl->keys[k]) ==
			blockrange_owner_max(sh, r->wl->keys[k]),
			"fail_at %lu, op %zu (%s): owner %zu max differs",
			r->ta.fail_at, op_idx, when, k);
}

static bool same_fig(struct blockrange_fig a, struct blockrange_fig b)
{
	return a.status == b.status && a.value == b.value;
}

/* Read-only calls: same answers as the shadow, and no allocation. */
static void do_read(struct run *r, const struct wl_op *op, size_t op_idx)
{
	const struct blockrange_ctx *ctx = r->ctx[op->slot];
	const struct blockrange_ctx *sh = r->shadow[op->slot];
	unsigned long nr_alloc = r->ta.nr_alloc;
	struct blockrange_iter it, its;
	const struct blockrange *a, *b;
	uint64_t lo = op->start > 4096 ? op->start - 4096 : 1;
	uint64_t hi = op->start < UINT64_MAX - 4096 ? op->start + 4096 :
		      UINT64_MAX;
	size_t n = 0;

	REQUIRE(!blockrange_span(ctx, lo, hi, &it) &&
		!blockrange_span(sh, lo, hi, &its), "op %zu: span failed",
		op_idx);
	for (;;) {
		struct blockrange_addr_info ia, ib;

		a = blockrange_iter_next(&it);
		b = blockrange_iter_next(&its);
		REQUIRE(!a == !b, "op %zu: span lengths differ", op_idx);
		if (!a)
			break;
		REQUIRE(a->start == b->start && a->end == b->end &&
			a->coverage == b->coverage, "op %zu: span range %zu "
			"differs", op_idx, n);
		blockrange_addr_info(ctx, a->start, &ia);
		blockrange_addr_info(sh, b->start, &ib);
		REQUIRE(same_fig(ia.coverage, ib.coverage) &&
			same_fig(ia.entry, ib.entry) &&
			same_fig(ia.taken, ib.taken) &&
			same_fig(ia.pred, ib.pred), "op %zu: figures differ",
			op_idx);
		n++;
	}
	/* Walks from both ends. */
	a = blockrange_first(ctx);
	b = blockrange_first(sh);
	for (n = 0; n < 64 && a && b; n++, a = blockrange_next(a),
	     b = blockrange_next(b))
		REQUIRE(a->start == b->start && a->end == b->end,
			"op %zu: forward walk differs", op_idx);
	a = blockrange_last(ctx);
	b = blockrange_last(sh);
	for (n = 0; n < 64 && a && b; n++, a = blockrange_prev(a),
	     b = blockrange_prev(b))
		REQUIRE(a->start == b->start && a->end == b->end,
			"op %zu: backward walk differs", op_idx);
	REQUIRE(r->ta.nr_alloc == nr_alloc, "op %zu: a read allocated",
		op_idx);
}

static int call_op(struct blockrange_ctx *ctx, const struct wl_op *op,
		   const struct blockrange_branch *br,
		   size_t nr, struct blockrange_stack_stats *st)
{
	struct blockrange_iter it;
	int err;

	switch (op->kind) {
	case W_CREATE:
		err = blockrange_create(ctx, op->start, op->end, &it);
		if (err)
			REQUIRE(!it.first && !it.last && !it.next,
				"iterator after a failed create");
		else
			REQUIRE(it.first->start == op->start &&
				it.last->end == op->end,
				"iterator of the wrong block");
		return err;
	case W_COUNT:
		return blockrange_count_block(ctx, op->start, op->end,
					      op->owner, op->pred);
	case W_STACK:
		return blockrange_apply_stack(ctx, br, nr, st);
	default:
		ck_abort_msg("not a tree operation");
		return -EINVAL;
	}
}

/* Errors a call may return without an injected failure. */
static int expected_error(const struct wl_op *op)
{
	if ((op->kind == W_CREATE || op->kind == W_COUNT) &&
	    (!op->start || op->start > op->end))
		return -EINVAL;
	return 0;
}

/*
 * One operation on the context and, unless it failed, on the shadow.
 * Returns true if an injected failure hit it.
 */
static bool run_op(struct run *r, const struct wl_op *op, size_t idx,
		   bool retry_after_failure)
{
	const struct workload *wl = r->wl;
	unsigned slot = op->slot;
	unsigned long failed = r->ta.failed;
	struct blockrange_stack_stats st = { 0 }, sst = { 0 };
	const struct blockrange_branch *br = wl->br + op->first;
	size_t p = 0;
	int err, serr;

	switch (op->kind) {
	case W_NEW:
		r->ctx[slot] = blockrange_ctx_new(&r->a);
		if (r->ta.failed != failed) {
			REQUIRE(!r->ctx[slot], "fail_at %lu: ctx_new succeeded"
				" without memory", r->ta.fail_at);
			REQUIRE(r->ta.live_bytes == (r->ctx[!slot] ?
				blockrange_ctx_mem(r->ctx[!slot]) : 0),
				"ctx_new failure leaked");
			r->failed_calls++;
			r->kinds_failed |= 1u << op->kind;
			if (retry_after_failure)
				run_op(r, op, idx, false);
			return true;
		}
		REQUIRE(r->ctx[slot], "ctx_new failed without injection");
		r->shadow[slot] = blockrange_ctx_new(NULL);
		REQUIRE(r->shadow[slot], "out of memory");
		return false;
	case W_FREE:
		blockrange_ctx_free(r->ctx[slot]);
		blockrange_ctx_free(r->shadow[slot]);
		r->ctx[slot] = r->shadow[slot] = NULL;
		REQUIRE(r->ta.failed == failed, "free allocated");
		return false;
	case W_READ:
		if (r->ctx[slot])
			do_read(r, op, idx);
		return false;
	default:
		break;
	}
	if (!r->ctx[slot])
		return false;	/* its ctx_new failed for good (sticky) */

	err = call_op(r->ctx[slot], op, br, op->nr, &st);
	if (r->ta.failed == failed) {
		/* No injected failure: exactly what the shadow does. */
		REQUIRE(err == expected_error(op), "fail_at %lu, op %zu: "
			"error %d without an injected failure",
			r->ta.fail_at, idx, err);
		serr = call_op(r->shadow[slot], op, br, op->nr, &sst);
		REQUIRE(serr == err, "shadow gave %d", serr);
		if (op->kind == W_STACK)
			REQUIRE(!memcmp(&st, &sst, sizeof(st)),
				"op %zu: stack stats differ", idx);
		return false;
	}
	REQUIRE(err == -ENOMEM, "fail_at %lu, op %zu: injected failure "
		"gave %d, not -ENOMEM", r->ta.fail_at, idx, err);
	r->failed_calls++;
	r->kinds_failed |= 1u << op->kind;
	if (op->kind == W_STACK) {
		/*
		 * The st.blocks oldest blocks were processed; the shadow
		 * applies the same entries br[nr - 1 - p .. nr - 1].
		 */
		p = st.blocks;
		REQUIRE(p + 1 < op->nr, "op %zu: ENOMEM after %zu of %zu "
			"entries", idx, p, op->nr);
		REQUIRE(st.stacks == 1 && st.entries == op->nr &&
			st.counted + st.skipped_abort + st.skipped_in_tx +
			st.skipped_zero + st.skipped_reversed == p,
			"op %zu: stats of the failed stack", idx);
		REQUIRE(!blockrange_apply_stack(r->shadow[slot],
						br + (op->nr - 1 - p), p + 1,
						&sst), "shadow stack failed");
		REQUIRE(sst.blocks == p && sst.counted == st.counted,
			"op %zu: partial stack differs", idx);
	}
	/* Unchanged (or the documented partial stack), valid tree. */
	if (!r->ta.sticky || r->failed_calls % 64 == 1) {
		assert_same_ctx(r, slot, "after ENOMEM", idx);
		r->compared++;
	}
	if (!retry_after_failure)
		return true;
	/* One-shot failure: the rest of the call now works. */
	memset(&st, 0, sizeof(st));
	memset(&sst, 0, sizeof(sst));
	if (op->kind == W_STACK) {
		size_t rest = op->nr - p;

		REQUIRE(!blockrange_apply_stack(r->ctx[slot], br, rest, &st),
			"op %zu: retry of the stack failed", idx);
		REQUIRE(st.blocks + p == op->nr - 1,
			"op %zu: retry did not finish the stack", idx);
		REQUIRE(!blockrange_apply_stack(r->shadow[slot], br, rest,
						&sst), "shadow failed");
	} else {
		err = call_op(r->ctx[slot], op, br, op->nr, &st);
		REQUIRE(!err, "op %zu: retry gave %d", idx, err);
		REQUIRE(!call_op(r->shadow[slot], op, br, op->nr, &sst),
			"shadow failed");
	}
	return true;
}

/*
 * Run the workload with allocation @fail_at failing (once, or from then on
 * if @sticky; 0: never).  Returns the number of allocation attempts, and
 * in *hit whether the failure was injected.
 */
static unsigned long run_workload(const struct workload *wl,
				  unsigned long fail_at, bool sticky,
				  bool *hit, unsigned long *compared,
				  unsigned *kinds)
{
	struct run r;
	size_t i;
	unsigned slot;
	bool seen = false;

	memset(&r, 0, sizeof(r));
	r.ta.fail_at = fail_at;
	r.ta.sticky = sticky;
	r.a = test_allocator(&r.ta);
	r.wl = wl;
	for (i = 0; i < wl->nr_ops; i++) {
		const struct wl_op *op = &wl->ops[i];

		if (op->kind == W_FREE && r.ctx[op->slot]) {
			size_t mem = 0;

			/* Before freeing: the whole run against the shadow. */
			assert_same_ctx(&r, op->slot, "end", i);
			r.compared++;
			for (slot = 0; slot < NR_SLOTS; slot++)
				if (r.ctx[slot])
					mem += blockrange_ctx_mem(r.ctx[slot]);
			REQUIRE(mem == r.ta.live_bytes, "fail_at %lu: ctx_mem "
				"%zu, allocator %zu live bytes", fail_at, mem,
				r.ta.live_bytes);
		}
		if (run_op(&r, op, i, !sticky))
			seen = true;
	}
	for (slot = 0; slot < NR_SLOTS; slot++)
		REQUIRE(!r.ctx[slot] && !r.shadow[slot], "context not freed");
	REQUIRE(r.ta.live == 0 && r.ta.live_bytes == 0,
		"fail_at %lu: %lu blocks (%zu bytes) leaked", fail_at,
		r.ta.live, r.ta.live_bytes);
	REQUIRE(seen == (r.ta.failed != 0), "fail_at %lu: injected failures"
		" %lu, seen %d", fail_at, r.ta.failed, seen);
	if (seen && !sticky)
		REQUIRE(r.ta.failed == 1 && r.failed_calls == 1,
			"fail_at %lu: %lu failures, %lu failed calls",
			fail_at, r.ta.failed, r.failed_calls);
	if (seen && sticky)
		REQUIRE(r.failed_calls == r.ta.failed, "fail_at %lu: %lu "
			"failed allocations, %lu failed calls", fail_at,
			r.ta.failed, r.failed_calls);
	*hit = seen;
	*compared += r.compared;
	*kinds |= r.kinds_failed;
	return r.ta.nr_alloc;
}

static void free_workload(struct workload *wl)
{
	free(wl->ops);
	free(wl->br);
}

static void sweep(bool sticky)
{
	struct workload wl;
	unsigned long total, n, points = 0, compared = 0;
	unsigned kinds = 0;
	bool hit;

	make_workload(&wl);
	/* Reference: no failure; the number of allocations to sweep. */
	total = run_workload(&wl, 0, false, &hit, &compared, &kinds);
	REQUIRE(!hit, "failure without injection");
	/* Both contexts, range chunks up to the largest, owner tables. */
	ck_assert_uint_ge(total, 30);

	for (n = 1;; n++) {
		run_workload(&wl, n, sticky, &hit, &compared, &kinds);
		if (!hit)
			break;
		points++;
	}
	/* Every allocation of the workload was failed once. */
	ck_assert_uint_eq(points, total);
	ck_assert_uint_ge(compared, points);
	/* Failures hit every kind of call that allocates. */
	ck_assert_uint_eq(kinds, 1u << W_NEW | 1u << W_CREATE |
			  1u << W_COUNT | 1u << W_STACK);
	free_workload(&wl);
}

START_TEST(test_sweep_one_shot)
{
	sweep(false);
}
END_TEST

START_TEST(test_sweep_sticky)
{
	sweep(true);
}
END_TEST

/*
 * Both contexts grew through several chunk sizes (the largest chunk holds
 * 4096 ranges) and owner tables, and the fill made thousands of ranges in
 * one call.
 */
static void assert_shape(struct blockrange_ctx *const *ctx)
{
	ck_assert_uint_gt(blockrange_ctx_nr_ranges(ctx[0]), 4096);
	ck_assert_uint_gt(blockrange_nr_owners(ctx[0]), NR_FUNCS / 2);
	ck_assert_uint_gt(blockrange_ctx_nr_ranges(ctx[1]), 2 * NR_EXTENTS);
	ck_assert_uint_eq(blockrange_nr_owners(ctx[1]), NR_EXT);
}

/* The workload is what it claims to be (so the sweep means something). */
START_TEST(test_sweep_workload_shape)
{
	struct workload wl;
	struct blockrange_stack_stats st = { 0 };
	struct blockrange_ctx *ctx[NR_SLOTS] = { NULL, NULL };
	size_t i, stacks = 0, reads = 0;

	make_workload(&wl);
	for (i = 0; i < wl.nr_ops; i++) {
		const struct wl_op *op = &wl.ops[i];
		struct blockrange_iter it;

		switch (op->kind) {
		case W_NEW:
			ctx[op->slot] = blockrange_ctx_new(NULL);
			ck_assert_ptr_nonnull(ctx[op->slot]);
			break;
		case W_CREATE:
			blockrange_create(ctx[op->slot], op->start, op->end,
					  &it);
			break;
		case W_COUNT:
			blockrange_count_block(ctx[op->slot], op->start,
					       op->end, op->owner, op->pred);
			break;
		case W_STACK:
			ck_assert_int_eq(blockrange_apply_stack(ctx[0],
					 wl.br + op->first, op->nr, &st), 0);
			stacks++;
			break;
		case W_READ:
			reads++;
			break;
		case W_FREE:
			if (op->slot == 1)
				assert_shape(ctx);
			blockrange_ctx_free(ctx[op->slot]);
			break;
		}
	}
	ck_assert_uint_eq(stacks, NR_SAMPLES);
	ck_assert_uint_gt(reads, 20);
	ck_assert_uint_gt(st.counted, 20 * NR_SAMPLES);
	ck_assert_uint_gt(st.skipped_in_tx, 0);
	ck_assert_uint_gt(st.skipped_abort, 0);
	free_workload(&wl);
}
END_TEST

Suite *sweep_suite(void)
{
	Suite *s = suite_create("alloc-sweep");
	TCase *tc = tcase_create("every-allocation");

	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_sweep_workload_shape);
	tcase_add_test(tc, test_sweep_one_shot);
	tcase_add_test(tc, test_sweep_sticky);
	suite_add_tcase(s, tc);
	return s;
}
