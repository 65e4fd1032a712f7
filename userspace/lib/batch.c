// SPDX-License-Identifier: GPL-2.0
/*
 * The batch engine: the ranges of an aggregate from one sort-and-sweep over
 * its blocks (see blockrange.h), one address window at a time.
 *
 * The windows are the aggregate's partitions (agg_part.c): window p holds
 * the blocks starting in partition p, so the windows in order hold the
 * blocks by start.  For each window, in order:
 *  1. records: the partition's records and the table's blocks that pack
 *     and start there, sorted by key in the cache and equal keys summed
 *     (each distinct block once: the count of distinct blocks);
 *  2. ends: an end event (end + 1, predicted) per block, sorted, merged
 *     with the ends carried over from earlier windows; those in the window
 *     are used, the others carried on;
 *  3. events: both decoded into start and end events, merged with the
 *     events of the blocks that do not pack (few; sorted once);
 *  4. sweep: the running coverage (starts minus ends) over the events in
 *     address order; every address where an event happens while a block
 *     is open starts a new range: entry is the weight of the starts there,
 *     the previous range ends just before it with taken / pred the weight
 *     of the ends there.  The state carries from window to window.
 * An aggregate whose blocks are all in its hash table gets a layout chosen
 * for the build, so that its blocks go through the same windows; blocks
 * that pack under none go through the events of step 3 only.
 *
 * Offsets: addresses are taken relative to an origin at or below every
 * start, so that end + 1 cannot overflow even for end == UINT64_MAX.
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

#include "internal.h"

/* A start event (key: start) or an end event (key: end + 1), as offsets. */
struct ev {
	uint64_t key;
	uint64_t a;		/* start: end + 1;  end: weight */
	uint64_t b;		/* start: weight;  end: predicted weight */
	uint64_t c;		/* start: owner index */
};

struct stk {
	uint64_t end1;		/* end + 1 */
	uint64_t owner;
};

struct sweep {
	struct blockrange_ctx *ctx;
	const struct owner_rec *owners;	/* NULL: no block has an owner */
	uint64_t lo;			/* the origin */
	size_t nr_ranges, nr_wide;	/* filled in ctx->fr, ctx->fw */
	size_t fr_cap, fw_cap;		/* allocated */
	struct stk *stk;
	size_t sp, stk_cap;
	/* The range being swept: open from x0 with cov0, entry0, owner0. */
	uint64_t cov, x0, cov0, entry0, owner0;
	bool open;
};

/* A growable array of the build. */
struct buf {
	void *p;
	size_t cap;
};

struct build {
	struct blockrange_ctx *ctx;
	const struct blockrange_agg *agg;
	struct agg_layout lay;
	bool packs;			/* lay holds a layout */
	uint64_t delta;			/* kb - origin */
	/* The table's blocks that pack, by partition (hpos[p]..hpos[p + 1]). */
	struct arec *hrec;
	size_t nh, hpos[AGG_NPART + 1];
	/* The others: start and end events, sorted. */
	struct ev *ms, *me;
	size_t nmis, ims, ime;
	/* One window: records, ends, sort temporary; carried ends. */
	struct arec *r, *t, *tmp;
	size_t wcap;
	struct buf carry[2];
	size_t ncarry, coff;		/* at carry[cur] + coff */
	unsigned cur;
	struct buf ws, we;		/* events (struct ev) */
	struct sweep sw;
};

static void *balloc(struct build *b, size_t n, size_t size)
{
	if (n > SIZE_MAX / size)
		return NULL;
	return br_alloc(&b->ctx->m, n * size);
}

/*
 * Make *@p (@cap elements of @size bytes, the first @keep of them kept)
 * hold @need, doubling; 0 or -ENOMEM (then unchanged).
 */
static int fit(struct br_mem *m, void **p, size_t *cap, size_t need,
	       size_t keep, size_t size)
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
	q = br_alloc(m, ncap * size);
	if (!q)
		return -ENOMEM;
	if (keep)
		memcpy(q, *p, keep * size);
	br_free(m, *p, *cap * size);
	*p = q;
	*cap = ncap;
	return 0;
}

static int buf_fit(struct build *b, struct buf *f, size_t n, size_t keep,
		   size_t size)
{
	return fit(&b->ctx->m, &f->p, &f->cap, n, keep, size);
}

/* Cut *@p from @cap to exactly @n > 0 elements; false if that failed. */
static bool shrink(struct blockrange_ctx *ctx, void **p, size_t *cap,
		   size_t n, size_t size)
{
	void *q;

	if (n == *cap)
		return true;
	q = br_alloc(&ctx->m, n * size);
	if (!q)
		return false;
	memcpy(q, *p, n * size);
	br_free(&ctx->m, *p, *cap * size);
	*p = q;
	*cap = n;
	return true;
}

/* ---- the sweep ----------------------------------------------------------- */

/*
 * The range [lo + x, lo + y] with its counters.  Entry, taken and pred are
 * at most the coverage (blocks that start or end at a range cover it), so
 * the range is wide when its length or its coverage needs 33 bits.
 */
static int emit(struct sweep *sw, uint64_t x, uint64_t y, uint64_t taken,
		uint64_t pred)
{
	uint64_t len = y - x, cov = sw->cov0, entry = sw->entry0;
	bool wide = (len | cov) > UINT32_MAX;
	struct blockrange_ctx *ctx = sw->ctx;
	struct frange *fr;

	if (fit(&ctx->m, (void **)&ctx->fr, &sw->fr_cap, sw->nr_ranges + 1,
		sw->nr_ranges, sizeof(*ctx->fr)) ||
	    (wide && fit(&ctx->m, (void **)&ctx->fw, &sw->fw_cap,
			 sw->nr_wide + 1, sw->nr_wide, sizeof(*ctx->fw))))
		return -ENOMEM;
	fr = &ctx->fr[sw->nr_ranges];
	fr->start = sw->lo + x;
	fr->owner = (uint32_t)sw->owner0;
	if (wide) {
		struct frange_wide *w = &ctx->fw[sw->nr_wide];

		fr->owner |= FR_WIDE;
		fr->len = 0;
		fr->coverage = fr->entry = fr->taken = fr->pred = 0;
		*w = (struct frange_wide){ sw->nr_ranges, sw->lo + y, cov,
					   entry, taken, pred };
	} else {
		fr->len = (uint32_t)len;
		fr->coverage = (uint32_t)cov;
		fr->entry = (uint32_t)entry;
		fr->taken = (uint32_t)taken;
		fr->pred = (uint32_t)pred;
	}
	if (sw->owner0 &&
	    ctx->owners.rec[sw->owner0].max_coverage < cov)
		ctx->owners.rec[sw->owner0].max_coverage = cov;
	sw->nr_ranges++;
	sw->nr_wide += wide;
	return 0;
}

/* Push the same-start group s[0..n) (owners only). */
static void push_group(struct sweep *sw, struct ev *s, size_t n)
{
	size_t i, j;

	if (!sw->owners)
		return;
	/* Decreasing key, so that the smallest key ends up on top. */
	for (i = 1; i < n; i++) {
		struct ev x = s[i];

		for (j = i; j > 0 && br_key_cmp(sw->owners[s[j - 1].c].key,
						 sw->owners[x.c].key) < 0; j--)
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

/* The sorted events s[0..ns) and e[0..ne) of one window; 0 or -ENOMEM. */
static int sweep(struct sweep *sw, struct ev *s, size_t ns, const struct ev *e,
		 size_t ne)
{
	size_t i = 0, j = 0, g;

	while (i < ns || j < ne) {
		uint64_t x, taken = 0, pred = 0, entry = 0;

		if (i < ns && (j >= ne || s[i].key < e[j].key))
			x = s[i].key;
		else
			x = e[j].key;
		for (; j < ne && e[j].key == x; j++) {
			taken += e[j].a;
			pred += e[j].b;
			sw->cov -= e[j].a;
		}
		for (g = i; i < ns && s[i].key == x; i++) {
			entry += s[i].b;
			sw->cov += s[i].b;
		}
		if (i > g)
			push_group(sw, &s[g], i - g);
		if (sw->open && emit(sw, sw->x0, x - 1, taken, pred))
			return -ENOMEM;
		sw->open = sw->cov != 0;
		if (sw->open) {
			sw->x0 = x;
			sw->cov0 = sw->cov;
			sw->entry0 = entry;
			while (sw->sp && sw->stk[sw->sp - 1].end1 <= x)
				sw->sp--;
			sw->owner0 = sw->sp ? sw->stk[sw->sp - 1].owner : 0;
		}
	}
	return 0;
}

/* ---- the blocks that do not pack ----------------------------------------- */

/* Sort events by key through (key, index) records; in @tmp (2n records). */
static void sort_events(struct ev *ev, size_t n, struct arec *tmp,
			struct ev *out)
{
	size_t i;

	for (i = 0; i < n; i++)
		tmp[i] = (struct arec){ ev[i].key, i };
	br_sort_recs(tmp, tmp + n, n);
	for (i = 0; i < n; i++)
		out[i] = ev[tmp[i].count];
}

/* Does the event at @x (origin offset) come before the window end @wkb? */
static bool before(const struct build *b, uint64_t x, uint64_t wkb)
{
	return x < b->delta || x - b->delta < wkb;
}

/* Count the table's blocks by partition, the others; set the origin. */
static void table_census(struct build *b, size_t cnt[AGG_NPART + 1])
{
	const struct blockrange_agg *agg = b->agg;
	const struct agg_layout *l = &b->lay;
	uint64_t lo = b->packs ? l->kb : UINT64_MAX;
	size_t i;

	b->nmis = 0;
	for (i = 0; i < agg->cap; i++) {
		const struct agg_ent *e = &agg->tab[i];

		if (!e->count)
			continue;
		if (b->packs && agg_packs(l, e->start, e->end, e->op)) {
			cnt[agg_part_of(l, e->start - l->kb) + 1]++;
			continue;
		}
		b->nmis++;
		if (e->start < lo)
			lo = e->start;
	}
	b->sw.lo = lo;
	b->delta = b->packs ? l->kb - lo : 0;
}

/* The table's blocks that do not pack, as events in @evs (unsorted). */
static void misfit_events(struct build *b, struct ev *evs)
{
	const struct blockrange_agg *agg = b->agg;
	size_t i, k = 0;

	for (i = 0; i < agg->cap; i++) {
		const struct agg_ent *e = &agg->tab[i];
		uint64_t s0, e1, p = e->op & 3;

		if (!e->count || (b->packs && agg_packs(&b->lay, e->start,
							e->end, e->op)))
			continue;
		s0 = e->start - b->sw.lo;
		e1 = e->end - b->sw.lo + 1;
		evs[k] = (struct ev){ s0, e1, e->count, e->op >> 2 };
		b->me[k] = (struct ev){ e1, e->count,
					p == BLOCKRANGE_PRED_HIT ? e->count : 0,
					0 };
		b->ctx->nr_pred_known += p != BLOCKRANGE_PRED_UNKNOWN;
		k++;
	}
}

/*
 * The table's blocks: those that pack go to hrec by partition, the others
 * become the sorted events ms[] and me[].
 */
static int split_table(struct build *b)
{
	const struct blockrange_agg *agg = b->agg;
	size_t i, cnt[AGG_NPART + 1] = { 0 }, n1;
	struct ev *evs;
	struct arec *tmp;
	int err = -ENOMEM;

	table_census(b, cnt);
	for (i = 0; i < AGG_NPART; i++)
		cnt[i + 1] += cnt[i];
	memcpy(b->hpos, cnt, sizeof(b->hpos));
	b->nh = cnt[AGG_NPART];
	n1 = b->nmis + !b->nmis;
	b->hrec = balloc(b, b->nh + !b->nh, sizeof(*b->hrec));
	b->ms = balloc(b, n1, sizeof(*b->ms));
	b->me = balloc(b, n1, sizeof(*b->me));
	evs = balloc(b, n1, sizeof(*evs));
	tmp = balloc(b, 2 * n1, sizeof(*tmp));
	if (b->hrec && b->ms && b->me && evs && tmp) {
		for (i = 0; i < agg->cap; i++) {
			const struct agg_ent *e = &agg->tab[i];
			const struct agg_layout *l = &b->lay;

			unsigned p;

			if (!e->count || !b->packs ||
			    !agg_packs(l, e->start, e->end, e->op))
				continue;
			p = agg_part_of(l, e->start - l->kb);
			b->hrec[cnt[p]++] = (struct arec){
				agg_key(l, e->start, e->end, e->op), e->count };
		}
		misfit_events(b, evs);
		sort_events(evs, b->nmis, tmp, b->ms);
		memcpy(evs, b->me, b->nmis * sizeof(*evs));
		sort_events(evs, b->nmis, tmp, b->me);
		err = 0;
	}
	br_free(&b->ctx->m, evs, n1 * sizeof(*evs));
	br_free(&b->ctx->m, tmp, 2 * n1 * sizeof(*tmp));
	return err;
}

/* ---- one window ---------------------------------------------------------- */

/*
 * Exclusive end of window @p as a key offset (UINT64_MAX: none).  No
 * overflow: pb and 256 << psh are both below 2^63 (agg_layout_choose()).
 */
static uint64_t window_end(const struct agg_layout *l, unsigned p)
{
	if (p + 1 >= AGG_NPART)
		return UINT64_MAX;
	return l->pb + ((uint64_t)(p + 1) << l->psh);
}

/* Step 1: the distinct blocks of window @p in b->r, by key; how many. */
static size_t window_records(struct build *b, unsigned p)
{
	const struct agg_part *pt = b->agg->parts ? &b->agg->parts[p] : NULL;
	size_t hn = b->hpos[p + 1] - b->hpos[p], n = 0;

	if (pt)
		n = agg_part_copy(pt, b->r);
	memcpy(b->r + n, b->hrec + b->hpos[p], hn * sizeof(*b->r));
	if (!hn && pt && pt->sorted_n == pt->n)
		return n;	/* settled: sorted and distinct */
	n += hn;
	br_sort_recs(b->r, b->tmp, n);
	return br_sum_equal(b->r, n);
}

/*
 * Step 2: the end events of the @m records, sorted, merged with the carry;
 * those before @wkb (or all, if @last) start carry[!cur], the rest follow.
 * Returns how many are in the window.
 */
static int window_ends(struct build *b, size_t m, uint64_t wkb, bool last,
		       size_t *in)
{
	const struct agg_layout *l = &b->lay;
	struct arec *t = b->t, *c, *out;
	size_t i, j, k, nc = b->ncarry;
	int err;

	for (i = 0; i < m; i++) {
		uint64_t key = b->r[i].key;
		uint64_t end1 = (key >> l->sh_s) +
				(key >> l->sh_l & l->max_len) + 1;

		t[i] = (struct arec){ end1 << 1 |
				      ((key & 3) == BLOCKRANGE_PRED_HIT),
				      b->r[i].count };
	}
	br_sort_recs(t, b->tmp, m);
	err = buf_fit(b, &b->carry[!b->cur], nc + m, 0, sizeof(*t));
	if (err)
		return err;
	c = nc ? (struct arec *)b->carry[b->cur].p + b->coff : NULL;
	out = b->carry[!b->cur].p;
	for (i = j = k = 0; i < nc || j < m; k++)
		out[k] = j >= m || (i < nc && c[i].key <= t[j].key) ?
			 c[i++] : t[j++];
	for (i = 0; i < k && (last || out[i].key >> 1 < wkb); i++)
		;
	b->cur = !b->cur;
	b->coff = i;
	b->ncarry = k - i;
	*in = i;
	return 0;
}

/* The start event of record @r. */
static struct ev start_event(const struct build *b, const struct arec *r)
{
	const struct agg_layout *l = &b->lay;
	uint64_t s0 = (r->key >> l->sh_s) + b->delta;

	return (struct ev){ s0, s0 + (r->key >> l->sh_l & l->max_len) + 1,
			    r->count, (r->key & l->max_op) >> 2 };
}

/*
 * Step 3: the start events of the @m records merged with the misfits'
 * before @wkb (all, if @last), into b->ws; how many.
 */
static int window_starts(struct build *b, size_t m, uint64_t wkb, bool last,
			 size_t *ns)
{
	size_t i = 0, j = b->ims, k = 0, nm;
	struct ev *ws, x;
	int err;

	for (nm = j; nm < b->nmis && (last || before(b, b->ms[nm].key, wkb));
	     nm++)
		;
	err = buf_fit(b, &b->ws, m + nm - j, 0, sizeof(*ws));
	if (err)
		return err;
	ws = b->ws.p;
	while (i < m || j < nm) {
		if (i < m) {
			x = start_event(b, &b->r[i]);
			if (j >= nm || x.key <= b->ms[j].key) {
				ws[k++] = x;
				b->ctx->nr_pred_known +=
					(b->r[i++].key & 3) !=
					BLOCKRANGE_PRED_UNKNOWN;
				continue;
			}
		}
		ws[k++] = b->ms[j++];
	}
	b->ims = nm;
	*ns = k;
	return 0;
}

/* The @in end events of the window merged with the misfits', into b->we. */
static int window_end_events(struct build *b, size_t in, uint64_t wkb,
			     bool last, size_t *ne)
{
	const struct arec *t = b->carry[b->cur].p;
	size_t i = 0, j = b->ime, k = 0, nm;
	struct ev *we, x;
	int err;

	for (nm = j; nm < b->nmis && (last || before(b, b->me[nm].key, wkb));
	     nm++)
		;
	err = buf_fit(b, &b->we, in + nm - j, 0, sizeof(*we));
	if (err)
		return err;
	we = b->we.p;
	while (i < in || j < nm) {
		if (i < in) {
			x = (struct ev){ (t[i].key >> 1) + b->delta, t[i].count,
					 t[i].key & 1 ? t[i].count : 0, 0 };
			if (j >= nm || x.key <= b->me[j].key) {
				we[k++] = x;
				i++;
				continue;
			}
		}
		we[k++] = b->me[j++];
	}
	b->ime = nm;
	*ne = k;
	return 0;
}

/* Room on the owner stack for @n more entries. */
static int stack_fit(struct build *b, size_t n)
{
	struct buf f = { b->sw.stk, b->sw.stk_cap };
	int err = buf_fit(b, &f, b->sw.sp + n, b->sw.sp, sizeof(struct stk));

	b->sw.stk = f.p;
	b->sw.stk_cap = f.cap;
	return err;
}

/* Steps 1 to 4 for window @p. */
static int window(struct build *b, unsigned p)
{
	bool last = !b->packs || p == AGG_NPART - 1;
	uint64_t wkb = b->packs ? window_end(&b->lay, p) : UINT64_MAX;
	size_t m = 0, in = 0, ns, ne;
	int err = 0;

	if (b->packs) {
		m = window_records(b, p);
		b->ctx->nr_blocks += m;
		err = window_ends(b, m, wkb, last, &in);
	}
	if (!err)
		err = window_starts(b, m, wkb, last, &ns);
	if (!err)
		err = window_end_events(b, in, wkb, last, &ne);
	if (!err)
		err = stack_fit(b, ns);
	if (!err)
		err = sweep(&b->sw, b->ws.p, ns, b->we.p, ne);
	return err;
}

/* ---- the build ----------------------------------------------------------- */

/* The layout: the aggregate's, or one for its table's blocks. */
static void build_layout(struct build *b)
{
	const struct blockrange_agg *agg = b->agg;

	if (agg->parts) {
		b->lay = agg->lay;
		b->packs = true;
		return;
	}
	b->packs = !agg_layout_choose(agg->tab, agg->cap, &AGG_SPAN_EMPTY,
				      agg->owners.nr, &b->lay);
}

/* The window buffers: the largest window's records, three times. */
static int build_buffers(struct build *b)
{
	const struct blockrange_agg *agg = b->agg;
	size_t w = 1, n, total = b->nmis;
	unsigned p;

	for (p = 0; p < AGG_NPART; p++) {
		n = b->hpos[p + 1] - b->hpos[p];
		if (agg->parts)
			n += agg->parts[p].n;
		total += n;
		if (n > w)
			w = n;
	}
	b->wcap = w;
	b->r = balloc(b, 3 * w, sizeof(*b->r));
	if (!b->r)
		return -ENOMEM;
	b->t = b->r + w;
	b->tmp = b->t + w;
	if (!total)
		return 0;
	/*
	 * Room for one range per block (usually enough; emit() grows it):
	 * pages never written are never touched.
	 */
	b->ctx->fr = balloc(b, total, sizeof(*b->ctx->fr));
	if (!b->ctx->fr)
		return -ENOMEM;
	b->sw.fr_cap = total;
	return 0;
}

static void build_free(struct build *b)
{
	struct br_mem *m = &b->ctx->m;
	size_t n1 = b->nmis + !b->nmis;

	br_free(m, b->hrec, (b->nh + !b->nh) * sizeof(*b->hrec));
	br_free(m, b->ms, n1 * sizeof(*b->ms));
	br_free(m, b->me, n1 * sizeof(*b->me));
	br_free(m, b->r, 3 * b->wcap * sizeof(*b->r));
	br_free(m, b->carry[0].p, b->carry[0].cap * sizeof(struct arec));
	br_free(m, b->carry[1].p, b->carry[1].cap * sizeof(struct arec));
	br_free(m, b->ws.p, b->ws.cap * sizeof(struct ev));
	br_free(m, b->we.p, b->we.cap * sizeof(struct ev));
	br_free(m, b->sw.stk, b->sw.stk_cap * sizeof(struct stk));
}

/* A frozen context with the aggregate's owners (same indices). */
static struct blockrange_ctx *build_ctx(const struct blockrange_agg *agg,
					const struct blockrange_allocator *a)
{
	struct blockrange_ctx *ctx = br_ctx_new_frozen(a);
	uint32_t o;

	if (!ctx)
		return NULL;
	ctx->weight = agg->weight;
	if (!agg->owners.nr)
		return ctx;
	if (br_owners_reserve(&ctx->owners, &ctx->m, agg->owners.nr)) {
		blockrange_ctx_free(ctx);
		return NULL;
	}
	for (o = 1; o <= agg->owners.nr; o++)
		br_owners_insert(&ctx->owners, agg->owners.rec[o].key);
	return ctx;
}

/* The ranges, cut to size; what blockrange_ctx_free() frees. */
static int build_finish(struct build *b, int err)
{
	struct blockrange_ctx *ctx = b->ctx;
	struct sweep *sw = &b->sw;

	if (!err && (!shrink(ctx, (void **)&ctx->fr, &sw->fr_cap,
			     sw->nr_ranges, sizeof(*ctx->fr)) ||
		     !shrink(ctx, (void **)&ctx->fw, &sw->fw_cap,
			     sw->nr_wide, sizeof(*ctx->fw))))
		err = -ENOMEM;
	ctx->nr_ranges = sw->fr_cap;
	ctx->nr_fw = sw->fw_cap;
	return err;
}

int blockrange_build(const struct blockrange_agg *agg,
		     const struct blockrange_allocator *allocator,
		     struct blockrange_ctx **ctxp)
{
	struct build b;
	unsigned p;
	int err;

	memset(&b, 0, sizeof(b));
	b.agg = agg;
	b.ctx = build_ctx(agg, allocator);
	if (!b.ctx)
		return -ENOMEM;
	b.sw.ctx = b.ctx;
	b.sw.owners = agg->owners.nr ? agg->owners.rec : NULL;
	build_layout(&b);
	err = split_table(&b);
	if (!err)
		err = build_buffers(&b);
	b.ctx->nr_blocks = b.nmis;
	for (p = 0; !err && p < AGG_NPART; p++) {
		err = window(&b, p);
		if (!b.packs)
			break;
	}
	build_free(&b);
	err = build_finish(&b, err);
	if (err) {
		blockrange_ctx_free(b.ctx);
		return err;
	}
	*ctxp = b.ctx;
	return 0;
}

/* ---- frozen ranges ------------------------------------------------------- */

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
	rec->owner = o ? ctx->owners.rec[o].key : NULL;
	rec->is_target = rec->entry != 0;
	rec->is_branch = rec->taken != 0;
	rec->pos = i;
}
