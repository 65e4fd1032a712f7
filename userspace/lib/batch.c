// SPDX-License-Identifier: GPL-2.0
/*
 * The batch engine: the ranges of an aggregate from one sort-and-sweep over
 * its distinct blocks (see blockrange.h).
 *
 * Addresses are taken relative to the lowest start lo, so that a block
 * [s, e] becomes a start event at s - lo and an end event at e - lo + 1,
 * which cannot overflow even for e == UINT64_MAX (lo >= 1).  Both event
 * lists are radix sorted; one sweep in address order then keeps the running
 * coverage (starts minus ends), and every address where an event happens
 * while a block is open starts a new range: entry is the weight of the
 * starts there, the previous range ends just before it with taken / pred
 * the weight of the ends there.
 *
 * When the blocks span no more addresses than there are distinct blocks
 * (a hot region sampled many times), there is nothing to sort: per-address
 * arrays get the weight of the starts and of the ends at each address, and
 * the sweep walks the addresses (the dense build).  It needs the owners of
 * the blocks starting at one address to be one owner (always the case when
 * the owner is a function of the start); otherwise the sorting build runs.
 *
 * Owners: a stack of the blocks with an owner, each entry beating every
 * entry below it (higher start, or the same start and a smaller key:
 * same-start groups are pushed by decreasing key) and outliving it (an
 * entry that ends no later than the one pushed over it can never be the
 * answer again, so it is dropped).  The owner of a range starting at x is
 * the top entry once those ended before x are popped.  Every block is
 * pushed and popped at most once.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <blockrange/blockrange.h>

#include "internal.h"

/* A start event (key: start - lo) or an end event (key: end - lo + 1). */
struct ev {
	uint64_t key;
	uint64_t a;		/* start: end - lo + 1;  end: weight */
	uint64_t b;		/* start: weight;  end: predicted weight */
	uint64_t c;		/* start: owner index */
};

struct stk {
	uint64_t end1;		/* end - lo + 1 */
	uint64_t owner;
};

/*
 * LSD radix sort by key, 8-bit digits; @diff has the bits in which some
 * keys differ, digits without any are skipped (and not even counted).
 */
static void radix_sort(struct ev *a, struct ev *tmp, size_t n, uint64_t diff)
{
	size_t cnt[8][256];
	struct ev *src = a, *dst = tmp;
	int digit[8], nd = 0, d, x;
	size_t i;

	for (d = 0; d < 8; d++)
		if ((diff >> (8 * d)) & 0xff)
			digit[nd++] = d;
	memset(cnt, 0, sizeof(cnt[0]) * (size_t)nd);
	for (i = 0; i < n; i++) {
		uint64_t k = a[i].key;

		for (x = 0; x < nd; x++)
			cnt[x][(k >> (8 * digit[x])) & 0xff]++;
	}
	for (x = 0; x < nd; x++) {
		size_t sum = 0, v;
		struct ev *t;

		d = digit[x];
		for (v = 0; v < 256; v++) {
			size_t c = cnt[x][v];

			cnt[x][v] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++)
			dst[cnt[x][(src[i].key >> (8 * d)) & 0xff]++] = src[i];
		t = src;
		src = dst;
		dst = t;
	}
	if (src != a)
		memcpy(a, src, n * sizeof(*a));
}

static bool fits32(uint64_t v)
{
	return v <= UINT32_MAX;
}

struct sweep {
	struct blockrange_ctx *ctx;
	const void *const *keys;	/* owner keys by index */
	uint64_t lo;
	size_t nr_ranges, nr_wide;	/* filled in ctx->fr, ctx->fw */
	size_t fr_cap, fw_cap;		/* allocated */
	struct stk *stk;
	size_t sp;
};

/* Make *@p (@cap elements of @size bytes) hold @need; 0 or -ENOMEM. */
static int grow(struct blockrange_ctx *ctx, void **p, size_t *cap,
		size_t need, size_t size)
{
	size_t ncap = *cap ? *cap : 16;
	void *q;

	if (need <= *cap)
		return 0;
	while (ncap < need) {
		if (ncap > SIZE_MAX / 2 / size)
			return -ENOMEM;
		ncap *= 2;
	}
	q = br_ctx_alloc(ctx, ncap * size);
	if (!q)
		return -ENOMEM;
	if (*p)
		memcpy(q, *p, *cap * size);
	br_ctx_free(ctx, *p, *cap * size);
	*p = q;
	*cap = ncap;
	return 0;
}

/* Shrink *@p from @cap to exactly @n elements (never fails: keeps it). */
static void shrink(struct blockrange_ctx *ctx, void **p, size_t *cap,
		   size_t n, size_t size)
{
	void *q;

	if (n == *cap)
		return;
	q = n ? br_ctx_alloc(ctx, n * size) : NULL;
	if (n && !q)
		return;
	if (n)
		memcpy(q, *p, n * size);
	br_ctx_free(ctx, *p, *cap * size);
	*p = q;
	*cap = n;
}

/* Push the same-start group s[0..n) (owners only). */
static void push_group(struct sweep *sw, struct ev *s, size_t n)
{
	size_t i, j;

	if (!sw->keys)
		return;		/* no block has an owner */
	/* Decreasing key, so that the smallest key ends up on top. */
	for (i = 1; i < n; i++) {
		struct ev x = s[i];

		for (j = i; j > 0 && br_key_cmp(sw->keys[s[j - 1].c],
						 sw->keys[x.c]) < 0; j--)
			s[j] = s[j - 1];
		s[j] = x;
	}
	for (i = 0; i < n; i++) {
		if (!s[i].c)
			continue;
		while (sw->sp && sw->stk[sw->sp - 1].end1 <= s[i].a)
			sw->sp--;
		sw->stk[sw->sp].end1 = s[i].a;
		sw->stk[sw->sp].owner = s[i].c;
		sw->sp++;
	}
}

static int emit(struct sweep *sw, uint64_t x, uint64_t y, uint64_t cov,
		uint64_t entry, uint64_t taken, uint64_t pred, uint64_t owner)
{
	uint64_t len = y - x;	/* offsets: the range is [lo + x, lo + y] */
	bool wide = !fits32(len) || !fits32(cov) || !fits32(entry) ||
		    !fits32(taken) || !fits32(pred);
	struct blockrange_ctx *ctx = sw->ctx;
	struct frange *fr;

	if (grow(ctx, (void **)&ctx->fr, &sw->fr_cap, sw->nr_ranges + 1,
		 sizeof(*ctx->fr)) ||
	    (wide && grow(ctx, (void **)&ctx->fw, &sw->fw_cap,
			  sw->nr_wide + 1, sizeof(*ctx->fw))))
		return -ENOMEM;
	{
		fr = &ctx->fr[sw->nr_ranges];
		fr->start = sw->lo + x;
		fr->owner = (uint32_t)owner;
		if (wide) {
			struct frange_wide *w = &ctx->fw[sw->nr_wide];

			fr->owner |= FR_WIDE;
			fr->len = 0;
			fr->coverage = fr->entry = fr->taken = fr->pred = 0;
			w->idx = sw->nr_ranges;
			w->end = sw->lo + y;
			w->coverage = cov;
			w->entry = entry;
			w->taken = taken;
			w->pred = pred;
		} else {
			fr->len = (uint32_t)len;
			fr->coverage = (uint32_t)cov;
			fr->entry = (uint32_t)entry;
			fr->taken = (uint32_t)taken;
			fr->pred = (uint32_t)pred;
		}
		if (owner && ctx->owners[owner].max_coverage < cov)
			ctx->owners[owner].max_coverage = cov;
	}
	sw->nr_ranges++;
	sw->nr_wide += wide;
	return 0;
}

/* One pass over the sorted events s[] and e[] (n each); 0 or -ENOMEM. */
static int sweep(struct sweep *sw, struct ev *s, const struct ev *e, size_t n)
{
	size_t i = 0, j = 0;
	uint64_t cov = 0, x0 = 0, cov0 = 0, entry0 = 0, owner0 = 0;
	bool open = false;

	sw->nr_ranges = sw->nr_wide = 0;
	sw->sp = 0;
	while (i < n || j < n) {
		uint64_t x, taken = 0, pred = 0, entry = 0;
		size_t g;

		if (i < n && (j >= n || s[i].key < e[j].key))
			x = s[i].key;
		else
			x = e[j].key;
		for (; j < n && e[j].key == x; j++) {
			taken += e[j].a;
			pred += e[j].b;
			cov -= e[j].a;
		}
		for (g = i; i < n && s[i].key == x; i++) {
			entry += s[i].b;
			cov += s[i].b;
		}
		if (i > g)
			push_group(sw, &s[g], i - g);
		if (open && emit(sw, x0, x - 1, cov0, entry0, taken, pred,
				 owner0))
			return -ENOMEM;
		open = cov != 0;
		if (open) {
			x0 = x;
			cov0 = cov;
			entry0 = entry;
			while (sw->sp && sw->stk[sw->sp - 1].end1 <= x)
				sw->sp--;
			owner0 = sw->sp ? sw->stk[sw->sp - 1].owner : 0;
		}
	}
	return 0;
}

/*
 * LSD radix sort of u64 keys by bits [lo_bit, 64), 8-bit digits, skipping
 * digits in which no key differs (@diff: the bits in which some differ).
 */
static void radix_sort64(uint64_t *a, uint64_t *tmp, size_t n, uint64_t diff,
			 unsigned lo_bit)
{
	size_t cnt[8][256];
	uint64_t *src = a, *dst = tmp;
	unsigned shift[8], nd = 0, sh, x;
	size_t i;

	for (sh = lo_bit; sh < 64; sh += 8)
		if (diff >> sh & 0xff)
			shift[nd++] = sh;
	memset(cnt, 0, sizeof(cnt[0]) * nd);
	for (i = 0; i < n; i++)
		for (x = 0; x < nd; x++)
			cnt[x][a[i] >> shift[x] & 0xff]++;
	for (x = 0; x < nd; x++) {
		size_t sum = 0, v;
		uint64_t *t;

		for (v = 0; v < 256; v++) {
			size_t c = cnt[x][v];

			cnt[x][v] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++)
			dst[cnt[x][src[i] >> shift[x] & 0xff]++] = src[i];
		t = src;
		src = dst;
		dst = t;
	}
	if (src != a)
		memcpy(a, src, n * sizeof(*a));
}

/*
 * The packed sorting build: the events are u64 keys, the address offset
 * above @b bits holding the block's slot in the aggregate's table, which
 * the sweep reads the rest from.  The owner stack holds slots too (in
 * @tmp once sorting is done).  Same sweep as sweep().
 */
static int build_packed(struct sweep *sw, const struct blockrange_agg *agg,
			uint64_t *s, uint64_t *e, uint64_t *tmp, size_t n,
			unsigned b)
{
	const struct agg_ent *tab = agg->tab;
	uint64_t mask = ((uint64_t)1 << b) - 1, sdiff = 0, ediff = 0;
	uint64_t cov = 0, x0 = 0, cov0 = 0, entry0 = 0, owner0 = 0;
	size_t i, k, j, sp = 0;
	bool open = false;

	for (i = 0, k = 0; i < agg->cap; i++) {
		if (!tab[i].count)
			continue;
		s[k] = (tab[i].start - sw->lo) << b | i;
		e[k] = (tab[i].end - sw->lo + 1) << b | i;
		sdiff |= s[k] ^ s[0];
		ediff |= e[k] ^ e[0];
		k++;
	}
	radix_sort64(s, tmp, n, sdiff, b);
	radix_sort64(e, tmp, n, ediff, b);

	for (i = 0, j = 0; i < n || j < n;) {
		uint64_t x, taken = 0, pred = 0, entry = 0;
		size_t g;

		if (i < n && (j >= n || s[i] >> b < e[j] >> b))
			x = s[i] >> b;
		else
			x = e[j] >> b;
		for (; j < n && e[j] >> b == x; j++) {
			const struct agg_ent *a = &tab[e[j] & mask];

			if (j + 8 < n)
				__builtin_prefetch(&tab[e[j + 8] & mask]);
			taken += a->count;
			if ((a->op & 3) == BLOCKRANGE_PRED_HIT)
				pred += a->count;
			cov -= a->count;
		}
		for (g = i; i < n && s[i] >> b == x; i++) {
			if (i + 8 < n)
				__builtin_prefetch(&tab[s[i + 8] & mask]);
			entry += tab[s[i] & mask].count;
			cov += tab[s[i] & mask].count;
		}
		/* Push the owners of the blocks starting at x. */
		if (sw->keys && i - g > 1) {
			/* Decreasing key: the smallest ends up on top. */
			size_t p, q;

			for (p = g + 1; p < i; p++) {
				uint64_t v = s[p];

				for (q = p; q > g &&
				     br_key_cmp(sw->keys[tab[s[q - 1] & mask].op >> 2],
						sw->keys[tab[v & mask].op >> 2]) < 0;
				     q--)
					s[q] = s[q - 1];
				s[q] = v;
			}
		}
		for (k = g; sw->keys && k < i; k++) {
			const struct agg_ent *a = &tab[s[k] & mask];
			uint64_t end1 = a->end - sw->lo + 1;

			if (!(a->op >> 2))
				continue;
			while (sp && tab[tmp[sp - 1]].end - sw->lo + 1 <= end1)
				sp--;
			tmp[sp++] = s[k] & mask;
		}
		if (open && emit(sw, x0, x - 1, cov0, entry0, taken, pred,
				 owner0))
			return -ENOMEM;
		open = cov != 0;
		if (open) {
			x0 = x;
			cov0 = cov;
			entry0 = entry;
			while (sp && tab[tmp[sp - 1]].end - sw->lo + 1 <= x)
				sp--;
			owner0 = sp ? tab[tmp[sp - 1]].op >> 2 : 0;
		}
	}
	return 0;
}

/* Push one owner candidate (dense build): beats everything below it. */
static void push_one(struct sweep *sw, uint64_t end1, uint64_t owner)
{
	while (sw->sp && sw->stk[sw->sp - 1].end1 <= end1)
		sw->sp--;
	sw->stk[sw->sp].end1 = end1;
	sw->stk[sw->sp].owner = owner;
	sw->sp++;
}

/*
 * The dense build over offsets 0..span - 1 (span <= the number of distinct
 * blocks).  Returns 0, -ENOMEM, or 1 if two owners have blocks starting at
 * one address (then the sorting build must run; nothing was emitted).
 */
static int build_dense(struct sweep *sw, const struct blockrange_agg *agg,
		       size_t span)
{
	struct blockrange_ctx *ctx = sw->ctx;
	/* Per address: starts, ends, predicted ends, owner and its end. */
	size_t bytes = span * (4 * sizeof(uint64_t) + sizeof(uint32_t));
	uint64_t *entry, *taken, *pred, *oend, cov = 0, x0 = 0, cov0 = 0;
	uint64_t entry0 = 0, owner0 = 0;
	uint32_t *oidx;
	bool open = false;
	void *mem;
	size_t i, x;
	int ret = 0;

	if (span > SIZE_MAX / (4 * sizeof(uint64_t) + sizeof(uint32_t)))
		return 1;
	mem = br_ctx_alloc(ctx, bytes);
	if (!mem)
		return -ENOMEM;
	memset(mem, 0, bytes);
	entry = mem;
	taken = entry + span;
	pred = taken + span;
	oend = pred + span;
	oidx = (uint32_t *)(oend + span);
	for (i = 0; i < agg->cap; i++) {
		const struct agg_ent *a = &agg->tab[i];
		size_t s, e;
		uint32_t o;

		if (!a->count)
			continue;
		s = (size_t)(a->start - sw->lo);
		e = (size_t)(a->end - sw->lo);
		entry[s] += a->count;
		taken[e] += a->count;
		if ((a->op & 3) == BLOCKRANGE_PRED_HIT)
			pred[e] += a->count;
		o = (uint32_t)(a->op >> 2);
		if (!o)
			continue;
		if (oidx[s] && oidx[s] != o) {
			ret = 1;	/* two owners start here */
			goto out;
		}
		oidx[s] = o;
		if (oend[s] < e + 1)
			oend[s] = e + 1;
	}
	for (x = 0; x < span; x++) {
		uint64_t t = x ? taken[x - 1] : 0;

		cov += entry[x] - t;
		if (oidx[x])
			push_one(sw, oend[x], oidx[x]);
		if (!entry[x] && !t)
			continue;	/* no cut point here */
		if (open && emit(sw, x0, x - 1, cov0, entry0, t,
				 x ? pred[x - 1] : 0, owner0)) {
			ret = -ENOMEM;
			goto out;
		}
		open = cov != 0;
		if (open) {
			x0 = x;
			cov0 = cov;
			entry0 = entry[x];
			while (sw->sp && sw->stk[sw->sp - 1].end1 <= x)
				sw->sp--;
			owner0 = sw->sp ? sw->stk[sw->sp - 1].owner : 0;
		}
	}
	/* The last address ends a block: close the open range there. */
	if (open && emit(sw, x0, span - 1, cov0, entry0, taken[span - 1],
			 pred[span - 1], owner0))
		ret = -ENOMEM;
out:
	br_ctx_free(ctx, mem, bytes);
	return ret;
}

int blockrange_build(const struct blockrange_agg *agg,
		     const struct blockrange_allocator *allocator,
		     struct blockrange_ctx **ctxp)
{
	struct blockrange_ctx *ctx = br_ctx_new_frozen(allocator);
	size_t n = agg->nr, i, k, bytes = 0;
	struct ev *s = NULL, *e = NULL, *tmp = NULL;
	struct sweep sw;
	uint64_t lo = UINT64_MAX, hi = 0, sdiff = 0, ediff = 0;
	int err = -ENOMEM;
	uint32_t o;

	if (!ctx)
		return -ENOMEM;
	ctx->nr_blocks = n;
	ctx->weight = agg->weight;
	/* The context's owner indices are the aggregate's. */
	if (agg->nr_owners) {
		if (br_reserve_owners(ctx, agg->nr_owners))
			goto out;
		for (o = 1; o <= agg->nr_owners; o++)
			br_insert_owner(ctx, agg->keys[o]);
	}
	if (!n) {
		*ctxp = ctx;
		return 0;
	}
	if (n > SIZE_MAX / sizeof(*s))
		goto out;
	for (i = 0; i < agg->cap; i++) {
		if (!agg->tab[i].count)
			continue;
		if (agg->tab[i].start < lo)
			lo = agg->tab[i].start;
		if (agg->tab[i].end > hi)
			hi = agg->tab[i].end;
	}
	memset(&sw, 0, sizeof(sw));
	sw.ctx = ctx;
	sw.keys = agg->nr_owners ? agg->keys : NULL;
	sw.lo = lo;
	bytes = n * sizeof(*s);
	/*
	 * Room for one range per distinct block (usually enough; emit() grows
	 * it otherwise): pages never written are never touched.  A range is
	 * as large as an event: n of them fit.
	 */
	ctx->fr = br_ctx_alloc(ctx, n * sizeof(*ctx->fr));
	if (!ctx->fr)
		goto out;
	sw.fr_cap = n;
	ctx->nr_ranges = n;	/* what blockrange_ctx_free() frees */

	/* Dense: at most one address per distinct block (hi - lo < n). */
	if (hi - lo < n) {
		size_t span = (size_t)(hi - lo) + 1;

		sw.stk = br_ctx_alloc(ctx, span * sizeof(*sw.stk));
		if (!sw.stk)
			goto out;
		for (i = 0; i < agg->cap; i++) {
			uint64_t pred = agg->tab[i].op & 3;

			if (agg->tab[i].count)
				ctx->nr_pred_known +=
					pred != BLOCKRANGE_PRED_UNKNOWN;
		}
		err = build_dense(&sw, agg, span);
		br_ctx_free(ctx, sw.stk, span * sizeof(*sw.stk));
		if (err <= 0)
			goto done;
		/* Two owners at one start (nothing emitted): sort after all. */
		ctx->nr_pred_known = 0;
		sw.stk = NULL;
		sw.sp = 0;
		err = -ENOMEM;
	}

	/*
	 * Packed keys when the offsets and the slot indices fit in 64 bits
	 * (the largest key is hi - lo + 1).
	 */
	{
		unsigned b = 0, sb = 0;
		uint64_t *ps, *pe, *pt;
		size_t pbytes = n * sizeof(uint64_t);

		while (((size_t)1 << b) < agg->cap)
			b++;
		while (sb < 64 && (hi - lo) >> sb)
			sb++;
		if (sb + 1 + b <= 64) {
			ps = br_ctx_alloc(ctx, pbytes);
			pe = br_ctx_alloc(ctx, pbytes);
			pt = br_ctx_alloc(ctx, pbytes);
			err = -ENOMEM;
			if (ps && pe && pt) {
				for (i = 0; i < agg->cap; i++)
					if (agg->tab[i].count)
						ctx->nr_pred_known +=
							(agg->tab[i].op & 3) !=
							BLOCKRANGE_PRED_UNKNOWN;
				err = build_packed(&sw, agg, ps, pe, pt, n, b);
			}
			br_ctx_free(ctx, ps, ps ? pbytes : 0);
			br_ctx_free(ctx, pe, pe ? pbytes : 0);
			br_ctx_free(ctx, pt, pt ? pbytes : 0);
			goto done;
		}
	}

	s = br_ctx_alloc(ctx, bytes);
	e = br_ctx_alloc(ctx, bytes);
	tmp = br_ctx_alloc(ctx, bytes);
	if (!s || !e || !tmp)
		goto out;

	for (i = 0, k = 0; i < agg->cap; i++) {
		const struct agg_ent *a = &agg->tab[i];
		uint64_t pred = a->op & 3;

		if (!a->count)
			continue;
		s[k].key = a->start - lo;
		s[k].a = a->end - lo + 1;
		s[k].b = a->count;
		s[k].c = a->op >> 2;
		e[k].key = a->end - lo + 1;
		e[k].a = a->count;
		e[k].b = pred == BLOCKRANGE_PRED_HIT ? a->count : 0;
		e[k].c = 0;
		ctx->nr_pred_known += pred != BLOCKRANGE_PRED_UNKNOWN;
		sdiff |= s[k].key ^ s[0].key;
		ediff |= e[k].key ^ e[0].key;
		k++;
	}
	radix_sort(s, tmp, n, sdiff);
	radix_sort(e, tmp, n, ediff);

	/*
	 * The stack never holds more entries than blocks: it reuses tmp.  The
	 * ranges go to an array that grows (one range per distinct event at
	 * most) and is cut to size at the end.
	 */
	sw.stk = (struct stk *)tmp;
	err = sweep(&sw, s, e, n);
done:
	if (!err) {
		shrink(ctx, (void **)&ctx->fr, &sw.fr_cap, sw.nr_ranges,
		       sizeof(*ctx->fr));
		shrink(ctx, (void **)&ctx->fw, &sw.fw_cap, sw.nr_wide,
		       sizeof(*ctx->fw));
	}
	/* blockrange_ctx_free() frees what these say. */
	ctx->nr_ranges = sw.fr_cap;
	ctx->nr_fw = sw.fw_cap;
	if (err)
		goto out;
	if (sw.fr_cap != sw.nr_ranges || sw.fw_cap != sw.nr_wide) {
		err = -ENOMEM;
		goto out;
	}
	*ctxp = ctx;
out:
	br_ctx_free(ctx, s, s ? bytes : 0);
	br_ctx_free(ctx, e, e ? bytes : 0);
	br_ctx_free(ctx, tmp, tmp ? bytes : 0);
	if (err)
		blockrange_ctx_free(ctx);
	return err;
}

/* ---- frozen ranges ------------------------------------------------------ */

static const struct frange_wide *wide_of(const struct blockrange_ctx *ctx,
					 size_t i)
{
	size_t a = 0, b = ctx->nr_fw;

	while (b - a > 1) {
		size_t mid = a + (b - a) / 2;

		if (ctx->fw[mid].idx <= i)
			a = mid;
		else
			b = mid;
	}
	return &ctx->fw[a];
}

void br_frozen_get(const struct blockrange_ctx *ctx, size_t i,
		   struct blockrange_rec *rec)
{
	const struct frange *fr = &ctx->fr[i];
	uint32_t o = fr->owner & FR_OWNER_MASK;

	rec->start = fr->start;
	if (fr->owner & FR_WIDE) {
		const struct frange_wide *w = wide_of(ctx, i);

		rec->end = w->end;
		rec->coverage = w->coverage;
		rec->entry = w->entry;
		rec->taken = w->taken;
		rec->pred = w->pred;
	} else {
		rec->end = fr->start + fr->len;
		rec->coverage = fr->coverage;
		rec->entry = fr->entry;
		rec->taken = fr->taken;
		rec->pred = fr->pred;
	}
	rec->owner = o ? ctx->owners[o].key : NULL;
	rec->is_target = rec->entry != 0;
	rec->is_branch = rec->taken != 0;
	rec->pos = i;
}
