// SPDX-License-Identifier: GPL-2.0
/* Multi-DSO annotate engine and printer.  See annotate.h. */
#define _GNU_SOURCE

#include "collect/annotate.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define C_RED "\033[31m"
#define C_MAGENTA "\033[35m"
#define C_BLUE "\033[34m"
#define C_RESET "\033[m"

int annot_init(struct annot *a, const char *name,
	       const struct session_opts *o, const struct annot_cfg *cfg)
{
	struct session_opts so = *o;

	memset(a, 0, sizeof(*a));
	if (cfg)
		a->cfg = *cfg;
	else
		a->cfg.parts = ANNOT_BLOCKS;
	if (a->cfg.parts & ANNOT_PROFGEN)
		so.dso.code_set = true;
	return session_init(&a->s, name, &so);
}

static void bolt_free(struct bolt_dso *b)
{
	pairmap_free(&b->br);
	pairmap_free(&b->br_miss);
	pairmap_free(&b->ft);
	pairmap_free(&b->ft_ext);
}

static void annot_dso_free(struct annot_dso *ad)
{
	blockrange_agg_free(ad->agg);
	blockrange_ctx_free(ad->ctx);
	pairmap_free(&ad->ips);
	pairmap_free(&ad->edges);
	pairmap_free(&ad->edges_miss);
	free(ad->sym_samples);
	profile_free(&ad->prof);
	bolt_free(&ad->bolt);
	free(ad);
}

void annot_free(struct annot *a)
{
	size_t i;

	for (i = 0; i < a->nr_per; i++)
		if (a->per[i])
			annot_dso_free(a->per[i]);
	free(a->per);
	free(a->ends);
	free(a->kept);
	free(a->touched);
	profile_free(&a->raw);
	session_free(&a->s);
	a->per = NULL;
	a->ends = NULL;
	a->kept = NULL;
	a->touched = NULL;
	a->nr_per = 0;
}

static size_t nr_syms_of(const struct dso *d)
{
	return d->state == DSO_READY ? d->bin.nr_syms : d->nr_ksyms;
}

struct annot_dso *annot_per_dso(struct annot *a, struct dso *d)
{
	struct annot_dso *ad;

	if (d->idx >= a->nr_per) {
		size_t n = d->idx + 16, i;
		struct annot_dso **p = realloc(a->per, n * sizeof(*p));

		if (!p)
			return NULL;
		for (i = a->nr_per; i < n; i++)
			p[i] = NULL;
		a->per = p;
		a->nr_per = n;
	}
	if (a->per[d->idx])
		return a->per[d->idx];
	ad = calloc(1, sizeof(*ad));
	if (!ad)
		return NULL;
	ad->dso = d;
	ad->prof.dso = d;
	a->per[d->idx] = ad;
	return ad;
}

/*
 * The block part of @d's data, ready to count into (before annot_finish())
 * or to be queried (after: an empty context).
 */
struct annot_dso *annot_blocks_of(struct annot *a, struct dso *d)
{
	struct annot_dso *ad = annot_per_dso(a, d);

	if (!ad || ad->ctx || ad->agg)
		return ad;
	ad->nr_syms = nr_syms_of(d);
	ad->sym_samples = calloc(ad->nr_syms ? ad->nr_syms : 1,
				 sizeof(*ad->sym_samples));
	if (!ad->sym_samples)
		return NULL;
	if (a->cfg.engine == ANNOT_ENGINE_BATCH && !a->finished)
		ad->agg = blockrange_agg_new(NULL);
	else
		ad->ctx = blockrange_ctx_new(NULL);
	if (!ad->agg && !ad->ctx) {
		free(ad->sym_samples);
		ad->sym_samples = NULL;
		return NULL;
	}
	return ad;
}

const struct annot_dso *annot_dso_of(const struct annot *a,
				     const struct dso *d)
{
	const struct annot_dso *ad;

	if (d->idx >= a->nr_per)
		return NULL;
	ad = a->per[d->idx];
	return ad && (ad->ctx || ad->agg) ? ad : NULL;
}

size_t annot_nr_dsos(const struct annot *a)
{
	size_t i, n = 0;

	for (i = 0; i < a->nr_per; i++)
		n += a->per[i] && a->per[i]->has_blocks;
	return n;
}

uint64_t annot_coverage_at(const struct annot *a, const struct dso *d,
			   uint64_t vaddr)
{
	const struct annot_dso *ad = annot_dso_of(a, d);
	struct blockrange_rec rec;

	if (!ad || !ad->ctx || !blockrange_rec_find(ad->ctx, vaddr, &rec))
		return 0;
	return rec.coverage;
}

size_t annot_nr_profiles(const struct annot *a)
{
	size_t i, n = 0;

	if (a->cfg.raw)
		return 1;
	for (i = 0; i < a->nr_per; i++)
		n += a->per[i] && a->per[i]->has_prof;
	return n;
}

const struct profile *annot_profile_at(const struct annot *a, size_t i)
{
	size_t k;

	if (a->cfg.raw)
		return i ? NULL : &a->raw;
	for (k = 0; k < a->nr_per; k++)
		if (a->per[k] && a->per[k]->has_prof && !i--)
			return &a->per[k]->prof;
	return NULL;
}

const struct profile *annot_profile_of(const struct annot *a,
				       const struct dso *d)
{
	if (!d)
		return &a->raw;
	if (d->idx >= a->nr_per || !a->per[d->idx] ||
	    !a->per[d->idx]->has_prof)
		return NULL;
	return &a->per[d->idx]->prof;
}

/* The owner of a block: the symbol containing its start. */
static const void *owner_at(const struct dso *d, uint64_t vaddr,
			    size_t *idx)
{
	if (d->state == DSO_READY) {
		const struct eb_sym *s = eb_sym_at(&d->bin, vaddr);

		if (s)
			*idx = (size_t)(s - d->bin.syms);
		return s;
	}
	if (d->state == DSO_SYMS_ONLY) {
		const struct kallsym *k = dso_ksym_at(d, vaddr);

		if (k)
			*idx = (size_t)(k - d->ksyms);
		return k;
	}
	return NULL;
}

static int pos_msg(const struct ev_sample *smp, uint64_t line, char *err,
		   size_t errsz)
{
	int n;

	if (line)
		n = snprintf(err, errsz, "%s:%" PRIu64 ": ", smp->pos.name,
			     line);
	else
		n = snprintf(err, errsz, "%s: offset %" PRIu64 ": ",
			     smp->pos.name, smp->pos.offset);
	return n > 0 && (size_t)n < errsz ? n : 0;
}

static int oom(const struct ev_sample *smp, char *err, size_t errsz)
{
	int n = pos_msg(smp, smp->pos.line, err, errsz);

	snprintf(err + n, errsz - n, "out of memory");
	return -2;
}

/* A count that would pass 2^64 - 1: the count line is to blame. */
static int too_many(const struct ev_sample *smp, const char *what, char *err,
		    size_t errsz)
{
	int n = pos_msg(smp, smp->repeat_line ? smp->repeat_line :
			smp->pos.line, err, errsz);

	snprintf(err + n, errsz - n,
		 "expected repeat counts whose sums fit in 64 bits, got %" PRIu64 ", which overflows the count of a %s",
		 smp->repeat, what);
	return -1;
}

static int count_ip(struct annot *a, const struct ev_sample *smp)
{
	struct as_resolved r;
	struct annot_dso *ad;

	as_resolve(a->s.as, smp->pid, smp->cpumode, smp->ip, &r);
	if (r.res == AS_KERNEL) {
		a->s.st.ips_kernel += smp->repeat;
		return 0;
	}
	if (r.res != AS_OK)
		return 0;
	ad = annot_blocks_of(a, r.dso);
	if (!ad || pairmap_add(&ad->ips, r.vaddr, 0, smp->repeat))
		return -1;
	ad->has_blocks = true;
	ad->samples += smp->repeat;
	return 0;
}

/* Room for a stack of @nr entries in the scratch arrays. */
static int scratch(struct annot *a, size_t nr)
{
	if (2 * nr > a->ends_cap) {
		struct session_addr *e = realloc(a->ends, 2 * nr * sizeof(*e));

		if (!e)
			return -1;
		a->ends = e;
		a->ends_cap = 2 * nr;
	}
	if (nr > a->kept_cap) {
		struct profile_kept *k = realloc(a->kept, nr * sizeof(*k));

		if (!k)
			return -1;
		a->kept = k;
		a->kept_cap = nr;
	}
	if (2 * nr > a->touched_cap) {
		struct annot_dso **t = realloc(a->touched,
					       2 * nr * sizeof(*t));

		if (!t)
			return -1;
		a->touched = t;
		a->touched_cap = 2 * nr;
	}
	return 0;
}

/* The DSOs this sample's entries touch (resolved, counted), once each. */
static int touched(struct annot *a, const struct ev_sample *smp, size_t *n)
{
	size_t i, k;

	*n = 0;
	for (i = 0; i < 2 * smp->nr; i++) {
		const struct session_addr *e = &a->ends[i];
		struct annot_dso *ad;

		if (!e->ok)
			continue;
		for (k = 0; k < *n; k++)
			if (a->touched[k]->dso == e->r.dso)
				break;
		if (k < *n)
			continue;
		ad = annot_per_dso(a, e->r.dso);
		if (!ad)
			return -1;
		a->touched[(*n)++] = ad;
	}
	return 0;
}

/* Is the resolved end @e in @d? Its ELF address then, else external. */
static uint64_t bolt_addr(const struct session_addr *e, const struct dso *d)
{
	return e->ok && e->r.dso == d ? e->r.vaddr : BOLT_EXTERNAL;
}

static const void *bolt_func(const struct dso *d, uint64_t vaddr)
{
	size_t idx;

	return owner_at(d, vaddr, &idx);
}

/*
 * BOLT's aggregation of one sample for @ad's DSO: every entry with an end
 * in the DSO is a taken branch; consecutive entries (older, newer) whose
 * trace [older.to, newer.from] lies in the DSO are a fall-through trace,
 * entered from inside when older.from is in the function of older.to.
 */
static int bolt_apply(struct annot_dso *ad, const struct ev_sample *smp,
		      const struct session_addr *ends)
{
	const struct dso *d = ad->dso;
	uint64_t rep = smp->repeat;
	size_t i;
	int r;

	for (i = 0; i < smp->nr; i++) {
		uint64_t f = bolt_addr(&ends[2 * i], d);
		uint64_t t = bolt_addr(&ends[2 * i + 1], d);

		if ((f == BOLT_EXTERNAL && t == BOLT_EXTERNAL) ||
		    (smp->exact_range && (!i || !smp->br[i].from)))
			continue;
		r = pairmap_add(&ad->bolt.br, f, t, rep);
		if (!r && smp->br[i].mispredicted)
			r = pairmap_add(&ad->bolt.br_miss, f, t, rep);
		if (r)
			return r;
	}
	for (i = 0; i + 1 < smp->nr; i++) {
		/* older: entry i + 1, newer: entry i */
		uint64_t from = bolt_addr(&ends[2 * (i + 1)], d);
		uint64_t start = bolt_addr(&ends[2 * (i + 1) + 1], d);
		uint64_t end = bolt_addr(&ends[2 * i], d);
		bool inside;

		if (start == BOLT_EXTERNAL || end == BOLT_EXTERNAL)
			continue;
		inside = from != BOLT_EXTERNAL &&
			 bolt_func(d, from) == bolt_func(d, start);
		r = pairmap_add(inside ? &ad->bolt.ft : &ad->bolt.ft_ext,
				start, end, rep);
		if (r)
			return r;
	}
	return 0;
}

/* ANNOT_PROFGEN with --leading-ip-only: one ip-ip range per sample. */
static int leading_ip(struct annot *a, const struct ev_sample *smp)
{
	struct session_addr e;
	struct annot_dso *ad;

	if (a->cfg.raw)
		return pairmap_add(&a->raw.ranges, smp->ip, smp->ip,
				   smp->repeat);
	session_resolve(&a->s, smp, smp->ip, &e);
	if (!e.ok || !eb_is_code(&e.r.dso->bin, e.r.vaddr))
		return 0;
	ad = annot_per_dso(a, e.r.dso);
	if (!ad)
		return -1;
	ad->has_prof = true;
	return pairmap_add(&ad->prof.ranges, e.r.vaddr, e.r.vaddr,
			   smp->repeat);
}

int annot_sample(void *arg, const struct ev_sample *smp, char *err,
		 size_t errsz)
{
	struct annot *a = arg;
	bool blocks = a->cfg.parts & ANNOT_BLOCKS;
	bool tree = a->cfg.engine == ANNOT_ENGINE_TREE;
	size_t i, n = 0;
	uint64_t rep;
	int r;

	if (a->cfg.event && strcmp(smp->event, a->cfg.event))
		return 0;
	if (blocks && tree && smp->repeat > ANNOT_MAX_REPEAT) {
		int k = pos_msg(smp, smp->repeat_line, err, errsz);

		snprintf(err + k, errsz - k,
			 "expected a repeat count of at most %u for annotate with the tree engine (each repeat replays the stack), got %" PRIu64,
			 ANNOT_MAX_REPEAT, smp->repeat);
		return -1;
	}
	if (blocks && a->total > UINT64_MAX - smp->repeat) {
		int k = pos_msg(smp, smp->repeat_line ? smp->repeat_line :
				smp->pos.line, err, errsz);

		snprintf(err + k, errsz - k,
			 "expected repeat counts whose sums fit in 64 bits, got %" PRIu64 ", which overflows the sample count",
			 smp->repeat);
		return -1;
	}
	if (blocks)
		a->total += smp->repeat;
	r = session_sample(&a->s, smp, err, errsz);
	if (r)
		return r;
	if ((a->cfg.parts & ANNOT_PROFGEN) &&
	    (a->cfg.leading_ip_only || a->cfg.raw)) {
		/* ranges' modes of its own: nothing else is collected */
		if (a->cfg.leading_ip_only)
			r = leading_ip(a, smp);
		else if (smp->nr > a->kept_cap && scratch(a, smp->nr))
			r = -1;
		else
			r = profile_apply(&a->raw, smp->br, smp->nr,
					  smp->repeat, NULL, a->kept,
					  smp->exact_range);
		if (r == -2)
			return too_many(smp, a->cfg.leading_ip_only ? "range" :
					"range or branch", err, errsz);
		return r ? oom(smp, err, errsz) : 0;
	}
	if (blocks && smp->has_ip && count_ip(a, smp))
		return oom(smp, err, errsz);
	if (!smp->nr)
		return 0;
	if (scratch(a, smp->nr))
		return oom(smp, err, errsz);
	/* ends[2i]: entry i's source, ends[2i + 1]: its target */
	for (i = 0; i < smp->nr; i++) {
		const struct session_addr *f = &a->ends[2 * i];
		const struct session_addr *t = &a->ends[2 * i + 1];
		struct annot_dso *ad;

		session_resolve(&a->s, smp, smp->br[i].from, &a->ends[2 * i]);
		session_resolve(&a->s, smp, smp->br[i].to, &a->ends[2 * i + 1]);
		if (!blocks || !f->ok || !t->ok || f->r.dso != t->r.dso ||
		    f->r.map_id != t->r.map_id || smp->br[i].abort ||
		    (smp->exact_range && !i))
			continue;
		ad = annot_blocks_of(a, f->r.dso);
		if (!ad || pairmap_add(&ad->edges, f->r.vaddr, t->r.vaddr,
				       smp->repeat))
			return oom(smp, err, errsz);
		ad->has_blocks = true;
		if (smp->br[i].mispredicted &&
		    pairmap_add(&ad->edges_miss, f->r.vaddr, t->r.vaddr,
				smp->repeat))
			return oom(smp, err, errsz);
	}
	for (i = smp->nr - 1; i-- > 0;) {
		const struct ev_branch *older = &smp->br[i + 1];
		const struct ev_branch *newer = &smp->br[i];
		const struct session_addr *st = &a->ends[2 * (i + 1) + 1];
		const struct session_addr *en = &a->ends[2 * i];
		enum blockrange_pred pred = newer->predicted ?
			BLOCKRANGE_PRED_HIT : newer->mispredicted ?
			BLOCKRANGE_PRED_MISS : BLOCKRANGE_PRED_UNKNOWN;
		struct annot_dso *ad;
		const void *owner;
		size_t idx;

		if (session_block(&a->s, older, newer, st, en, smp->repeat) !=
		    SKIP_NR || !blocks)
			continue;
		ad = annot_blocks_of(a, st->r.dso);
		if (!ad)
			return oom(smp, err, errsz);
		ad->has_blocks = true;
		if (!tree) {
			/* owners are given to the distinct blocks at the end */
			r = blockrange_agg_add(ad->agg, st->r.vaddr,
					       en->r.vaddr, NULL, pred,
					       smp->repeat);
			if (r == -EOVERFLOW)
				return too_many(smp, "block", err, errsz);
			if (r)
				return oom(smp, err, errsz);
			continue;
		}
		owner = owner_at(st->r.dso, st->r.vaddr, &idx);
		for (rep = 0; rep < smp->repeat; rep++)
			if (blockrange_count_block(ad->ctx, st->r.vaddr,
						   en->r.vaddr, owner, pred))
				return oom(smp, err, errsz);
	}
	if (!(a->cfg.parts & (ANNOT_PROFGEN | ANNOT_BOLT)))
		return 0;
	if (touched(a, smp, &n))
		return oom(smp, err, errsz);
	for (i = 0; i < n; i++) {
		struct annot_dso *ad = a->touched[i];

		if (a->cfg.parts & ANNOT_PROFGEN) {
			ad->has_prof = true;
			ad->prof.samples += smp->repeat;
			r = profile_apply(&ad->prof, smp->br, smp->nr,
					  smp->repeat, a->ends, a->kept,
					  smp->exact_range);
			if (r == -2)
				return too_many(smp, "range or branch", err,
						errsz);
			if (r)
				return oom(smp, err, errsz);
		}
		if (a->cfg.parts & ANNOT_BOLT) {
			ad->has_bolt = true;
			r = bolt_apply(ad, smp, a->ends);
			if (r == -2)
				return too_many(smp, "branch or trace", err,
						errsz);
			if (r)
				return oom(smp, err, errsz);
		}
	}
	return 0;
}

void annot_sink(struct annot *a, struct ev_sink *sink)
{
	memset(sink, 0, sizeof(*sink));
	sink->sample = annot_sample;
	sink->mmap = session_mmap;
	sink->comm = session_comm;
	sink->task = session_task;
	sink->build_id = session_build_id;
	sink->arg = a;
}

/*
 * The session callbacks take the session; annot embeds it first, so the
 * same pointer serves both.
 */
_Static_assert(offsetof(struct annot, s) == 0, "session first");

int annot_add_block(struct annot *a, struct annot_dso *ad, uint64_t start,
		    uint64_t end, enum blockrange_pred pred, uint64_t count)
{
	size_t idx;
	int r;

	if (ad->agg) {
		r = blockrange_agg_add(ad->agg, start, end, NULL, pred, count);
	} else {
		(void)a;
		r = blockrange_count_block_n(ad->ctx, start, end,
					     owner_at(ad->dso, start, &idx),
					     pred, count);
	}
	return r == -EOVERFLOW ? -1 : r ? -2 : 0;
}

/*
 * The batch engine counts blocks without owner (an owner is a function of
 * the block's start: the symbol containing it); here every distinct block
 * gets its owner, once.
 */
static int with_owners(struct annot_dso *ad)
{
	struct blockrange_agg *o = blockrange_agg_new(NULL);
	struct blockrange_block b[256];
	size_t pos = 0, n = 0, idx;
	int r = 0;

	if (!o)
		return -1;
	while (!r) {
		bool more = blockrange_agg_next(ad->agg, &pos, &b[n]);

		if (more) {
			b[n].owner = owner_at(ad->dso, b[n].start, &idx);
			if (++n < sizeof(b) / sizeof(b[0]))
				continue;
		}
		if (n)
			r = blockrange_agg_add_blocks(o, b, n);
		n = 0;
		if (!more)
			break;
	}
	if (r) {
		blockrange_agg_free(o);
		return -1;
	}
	blockrange_agg_free(ad->agg);
	ad->agg = o;
	return 0;
}

int annot_finish(struct annot *a)
{
	size_t i, k;

	if (a->finished)
		return 0;
	for (i = 0; i < a->nr_per; i++) {
		struct annot_dso *ad = a->per[i];

		if (!ad || (!ad->agg && !ad->ctx))
			continue;
		if (ad->agg) {
			if (with_owners(ad) ||
			    blockrange_build(ad->agg, NULL, &ad->ctx))
				return -2;
			blockrange_agg_free(ad->agg);
			ad->agg = NULL;
		}
		memset(ad->sym_samples, 0,
		       (ad->nr_syms ? ad->nr_syms : 1) *
		       sizeof(*ad->sym_samples));
		for (k = 0; k < ad->ips.cap; k++) {
			const struct pairmap_slot *sl = &ad->ips.slots[k];
			size_t idx = SIZE_MAX;

			if (sl->used && owner_at(ad->dso, sl->a, &idx) &&
			    idx < ad->nr_syms)
				ad->sym_samples[idx] += sl->count;
		}
	}
	a->finished = true;
	return 0;
}

static uint64_t sat_add(uint64_t x, uint64_t y)
{
	return x > UINT64_MAX - y ? UINT64_MAX : x + y;
}

static int merge_dso(struct annot *dst, const struct annot_dso *s)
{
	struct annot_dso *d = annot_per_dso(dst, s->dso);
	int r = 0;

	if (!d)
		return -2;
	if (s->agg || s->ctx) {
		if (!annot_blocks_of(dst, s->dso))
			return -2;
		/* only aggregates merge (the tree runs on one thread) */
		if (!s->agg || !d->agg)
			return -2;
		r = blockrange_agg_merge(d->agg, s->agg);
		if (r)
			return r == -EOVERFLOW ? -1 : -2;
		d->has_blocks |= s->has_blocks;
		if (d->samples > UINT64_MAX - s->samples)
			return -1;
		d->samples += s->samples;
		if ((r = pairmap_merge(&d->ips, &s->ips)) ||
		    (r = pairmap_merge(&d->edges, &s->edges)) ||
		    (r = pairmap_merge(&d->edges_miss, &s->edges_miss)))
			return r == -1 ? -2 : -1;
	}
	if (s->has_prof) {
		d->has_prof = true;
		if (d->prof.samples > UINT64_MAX - s->prof.samples)
			return -1;
		d->prof.samples += s->prof.samples;
		if ((r = pairmap_merge(&d->prof.ranges, &s->prof.ranges)) ||
		    (r = pairmap_merge(&d->prof.branches, &s->prof.branches)))
			return r == -1 ? -2 : -1;
	}
	if (s->has_bolt) {
		d->has_bolt = true;
		if ((r = pairmap_merge(&d->bolt.br, &s->bolt.br)) ||
		    (r = pairmap_merge(&d->bolt.br_miss, &s->bolt.br_miss)) ||
		    (r = pairmap_merge(&d->bolt.ft, &s->bolt.ft)) ||
		    (r = pairmap_merge(&d->bolt.ft_ext, &s->bolt.ft_ext)))
			return r == -1 ? -2 : -1;
	}
	return 0;
}

int annot_merge(struct annot *dst, const struct annot *src)
{
	struct session_stats *d = &dst->s.st;
	const struct session_stats *s = &src->s.st;
	size_t i;
	int r;

	for (i = 0; i < src->nr_per; i++)
		if (src->per[i] && (r = merge_dso(dst, src->per[i])))
			return r;
	if (dst->total > UINT64_MAX - src->total)
		return -1;
	dst->total += src->total;
	r = pairmap_merge(&dst->raw.ranges, &src->raw.ranges);
	if (!r)
		r = pairmap_merge(&dst->raw.branches, &src->raw.branches);
	if (r)
		return r == -1 ? -2 : -1;
	d->samples = sat_add(d->samples, s->samples);
	d->brstack_samples = sat_add(d->brstack_samples, s->brstack_samples);
	d->entries = sat_add(d->entries, s->entries);
	d->blocks = sat_add(d->blocks, s->blocks);
	d->counted = sat_add(d->counted, s->counted);
	for (i = 0; i < SKIP_NR; i++)
		d->skipped[i] = sat_add(d->skipped[i], s->skipped[i]);
	d->ips_kernel = sat_add(d->ips_kernel, s->ips_kernel);
	return session_merge_event(&dst->s, &src->s) ? -2 : 0;
}

/* ---- printing ---- */

static int cmp_pick(const void *x, const void *y)
{
	const struct annot_sym *p = x, *q = y;

	if (p->samples != q->samples)
		return p->samples > q->samples ? -1 : 1;
	if (p->maxcov != q->maxcov)
		return p->maxcov > q->maxcov ? -1 : 1;
	if (p->ad->dso->idx != q->ad->dso->idx)
		return p->ad->dso->idx < q->ad->dso->idx ? -1 : 1;
	return p->start < q->start ? -1 : p->start > q->start;
}

static struct annot_sym *new_pick(struct annot_syms *ps)
{
	if (ps->nr == ps->cap) {
		size_t c = ps->cap ? 2 * ps->cap : 64;
		struct annot_sym *v = realloc(ps->v, c * sizeof(*v));

		if (!v)
			return NULL;
		ps->v = v;
		ps->cap = c;
	}
	memset(&ps->v[ps->nr], 0, sizeof(ps->v[0]));
	return &ps->v[ps->nr++];
}

void annot_symbols_free(struct annot_syms *ps)
{
	size_t i;

	for (i = 0; i < ps->nr; i++)
		free(ps->v[i].own_name);
	free(ps->v);
}

static unsigned insn_size_at(const struct dso *d, uint64_t addr)
{
	struct eb_insn in;

	if (eb_decode(&d->bin, addr, &in, NULL, 0, NULL, 0))
		return 1;
	return in.size;
}

/* Is @addr inside a symbol of the DSO (the symbols cover it)? */
static bool in_symbol(const struct dso *d, uint64_t addr)
{
	if (d->state == DSO_READY)
		return eb_sym_at(&d->bin, addr) != NULL;
	return d->state == DSO_SYMS_ONLY && dso_ksym_at(d, addr);
}

/*
 * Pseudo-symbols over the hot code no symbol covers (all of it in a DSO
 * without symbols): runs of covered ranges and sample IPs.
 */
static int pseudo_picks(struct annot_dso *ad, struct annot_syms *ps)
{
	const struct dso *d = ad->dso;
	struct pairmap_slot *ips = pairmap_sorted(&ad->ips);
	struct blockrange_rec br;
	bool have = blockrange_rec_first(ad->ctx, &br);
	size_t i = 0, first = ps->nr;
	struct annot_sym *cur = NULL;

	if (!ips)
		return -1;
	while (have || i < ad->ips.nr) {
		uint64_t s, e, n = 0, cov = 0;

		if (have && (i >= ad->ips.nr || br.start <= ips[i].a)) {
			s = br.start;
			e = br.end + insn_size_at(d, br.end);
			if (e <= br.end)
				e = UINT64_MAX;
			cov = br.coverage;
			have = blockrange_rec_next(ad->ctx, &br);
		} else {
			s = ips[i].a;
			e = s + insn_size_at(d, s);
			n = ips[i].count;
			i++;
		}
		if (in_symbol(d, s))
			continue;
		if (!cur || s > cur->end + ANNOT_PSEUDO_GAP ||
		    (cur->end > s && in_symbol(d, cur->end))) {
			cur = new_pick(ps);
			if (!cur) {
				free(ips);
				return -1;
			}
			cur->ad = ad;
			cur->start = s;
			cur->end = e;
			cur->pseudo = true;
		}
		if (e > cur->end)
			cur->end = e;
		cur->samples += n;
		if (cov > cur->maxcov)
			cur->maxcov = cov;
	}
	free(ips);
	/* Names once the picks stopped moving. */
	for (i = first; i < ps->nr; i++) {
		struct annot_sym *p = &ps->v[i];

		if (asprintf(&p->own_name, "%s+0x%" PRIx64, d->short_name,
			     p->start) < 0) {
			p->own_name = NULL;
			return -1;
		}
		p->name = p->own_name;
	}
	return 0;
}

static int sym_pick(struct annot_dso *ad, size_t i, struct annot_syms *ps,
		    bool always)
{
	const struct dso *d = ad->dso;
	struct annot_sym *p;
	const void *owner;
	uint64_t mc, n = i < ad->nr_syms ? ad->sym_samples[i] : 0;

	owner = d->state == DSO_READY ? (const void *)&d->bin.syms[i] :
		(const void *)&d->ksyms[i];
	mc = blockrange_owner_max(ad->ctx, owner);
	if (!always && !n && !mc)
		return 0;
	p = new_pick(ps);
	if (!p)
		return -1;
	p->ad = ad;
	p->owner = owner;
	p->samples = n;
	p->maxcov = mc;
	if (d->state == DSO_READY) {
		p->name = d->bin.syms[i].name;
		p->start = d->bin.syms[i].start;
		p->end = d->bin.syms[i].end;
	} else {
		p->name = d->ksyms[i].name;
		p->start = d->ksyms[i].start;
		p->end = d->ksyms[i].end;
		p->ksym = true;
	}
	return 0;
}

/* An annot_dso for a DSO that has the symbol but no data. */
static struct annot_dso *ensure_per(struct annot *a, struct dso *d)
{
	return annot_blocks_of(a, d);
}

int annot_symbols(struct annot *a, const char *const *symbols,
		  size_t nr_symbols, struct annot_syms *ps, char *err,
		  size_t errsz)
{
	size_t i, k;

	memset(ps, 0, sizeof(*ps));
	if (annot_finish(a))
		return -2;
	if (nr_symbols) {
		for (k = 0; k < nr_symbols; k++) {
			bool found = false;

			for (i = 0; i < dso_count(a->s.reg); i++) {
				struct dso *d = dso_at(a->s.reg, i);
				const struct eb_sym *s;
				struct annot_dso *ad;

				if (d->state != DSO_READY ||
				    !session_wants(&a->s, d) ||
				    (!annot_dso_of(a, d) && a->s.bin_dso != d))
					continue;
				s = eb_sym_by_name(&d->bin, symbols[k]);
				if (!s)
					continue;
				ad = ensure_per(a, d);
				if (!ad ||
				    sym_pick(ad, (size_t)(s - d->bin.syms), ps,
					     true))
					return -2;
				found = true;
			}
			if (!found) {
				snprintf(err, errsz,
					 "expected a function symbol of %s for --symbol, got '%s'",
					 a->s.bin_dso ? a->s.bin_dso->path :
					 "the profiled DSOs", symbols[k]);
				return -1;
			}
		}
		return 0;
	}
	for (i = 0; i < a->nr_per; i++) {
		struct annot_dso *ad = a->per[i];

		if (!ad || !ad->ctx)
			continue;
		for (k = 0; k < ad->nr_syms; k++)
			if (sym_pick(ad, k, ps, false))
				return -2;
		if (ad->dso->state == DSO_READY && pseudo_picks(ad, ps))
			return -2;
	}
	qsort(ps->v, ps->nr, sizeof(*ps->v), cmp_pick);
	return 0;
}

/* Coverage of @br as the seed shows it, relative to the pick's maximum. */
struct blockrange_fig annot_sym_coverage(const struct annot_sym *p,
					 const struct blockrange_rec *rec)
{
	struct blockrange_fig f = { BLOCKRANGE_FIG_OK, 0 };

	if (p->owner)
		return blockrange_rec_coverage(p->ad->ctx, rec);
	if (!rec || !p->maxcov)
		return f;
	f.value = (double)rec->coverage / (double)p->maxcov;
	return f;
}

void annot_sym_addr_info(const struct annot_sym *p, uint64_t addr,
			 struct blockrange_addr_rec *info)
{
	blockrange_addr_rec(p->ad->ctx, addr, info);
	if (!p->owner)
		info->coverage = annot_sym_coverage(p, info->found ?
						    &info->range : NULL);
}

long annot_sym_branches(const struct annot_sym *p, struct annot_branch **out)
{
	const struct pairmap *pm = &p->ad->edges;
	struct pairmap_slot *v;
	struct annot_branch *b = NULL;
	size_t i, n = 0;

	*out = NULL;
	if (!pm->nr)
		return 0;
	v = pairmap_sorted(pm);
	if (!v)
		return -1;
	for (i = 0; i < pm->nr; i++) {
		bool in_from = v[i].a >= p->start && v[i].a < p->end;
		bool in_to = v[i].b >= p->start && v[i].b < p->end;

		if (!in_from && !in_to)
			continue;
		if (!b) {
			b = malloc(pm->nr * sizeof(*b));
			if (!b) {
				free(v);
				return -1;
			}
		}
		b[n].from = v[i].a;
		b[n].to = v[i].b;
		b[n].count = v[i].count;
		b[n].mispredicted = pairmap_get(&p->ad->edges_miss, v[i].a,
						v[i].b);
		n++;
	}
	free(v);
	*out = b;
	return (long)n;
}

void annot_dso_branch_totals(const struct annot_dso *ad, uint64_t *taken,
			     uint64_t *mispredicted)
{
	size_t i;

	*taken = 0;
	*mispredicted = 0;
	for (i = 0; i < ad->edges.cap; i++)
		if (ad->edges.slots[i].used)
			*taken += ad->edges.slots[i].count;
	for (i = 0; i < ad->edges_miss.cap; i++)
		if (ad->edges_miss.slots[i].used)
			*mispredicted += ad->edges_miss.slots[i].count;
}

static void json_str(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

static void json_str_or_null(FILE *out, const char *s)
{
	if (s)
		json_str(out, s);
	else
		fputs("null", out);
}

static void json_fig(FILE *out, const char *key, struct blockrange_fig f,
		     double scale, const char *fmt)
{
	fprintf(out, ", \"%s\": ", key);
	if (f.status == BLOCKRANGE_FIG_OK)
		fprintf(out, fmt, f.value * scale);
	else
		fputs("null", out);
}

enum annot_heat annot_heat_of(struct blockrange_fig cov)
{
	if (cov.status == BLOCKRANGE_FIG_OK) {
		if (cov.value > 0.75)
			return ANNOT_HOT;
		if (cov.value < 0.01)
			return ANNOT_COLD;
	}
	return ANNOT_WARM;
}

/* The seed's colours. */
static const char *addr_color(struct blockrange_fig cov)
{
	switch (annot_heat_of(cov)) {
	case ANNOT_HOT:
		return C_RED;
	case ANNOT_COLD:
		return NULL;
	default:
		return C_MAGENTA;
	}
}

static const char *asm_color(struct blockrange_fig cov)
{
	if (annot_heat_of(cov) == ANNOT_COLD)
		return NULL;
	return C_BLUE;
}

static void colored(FILE *out, bool color, const char *c, const char *s)
{
	if (color && c)
		fputs(c, out);
	fputs(s, out);
	if (color && c)
		fputs(C_RESET, out);
}

int annot_insn_text_init(struct annot_insn_text *t, const struct annot *a)
{
	size_t longest = 0, i, k;

	for (i = 0; i < dso_count(a->s.reg); i++) {
		const struct dso *d = dso_at(a->s.reg, i);

		if (d->state != DSO_READY)
			continue;
		for (k = 0; k < d->bin.nr_syms; k++)
			if (strlen(d->bin.syms[k].name) > longest)
				longest = strlen(d->bin.syms[k].name);
	}
	/* capstone's op_str is < 160; "ADDR <NAME+0xOFF>" < NAME + 40 */
	t->opssz = longest + 192;
	t->linesz = t->opssz + sizeof(t->mnem) + 8;
	t->ops = malloc(t->opssz);
	t->line = malloc(t->linesz);
	if (!t->ops || !t->line) {
		free(t->ops);
		free(t->line);
		return -1;
	}
	return 0;
}

void annot_insn_text_free(struct annot_insn_text *t)
{
	free(t->ops);
	free(t->line);
}

unsigned annot_insn_line(const struct dso *d, uint64_t addr,
			 struct annot_insn_text *t, int pad)
{
	struct eb_insn *inp = &t->insn, in;

	if (eb_decode(&d->bin, addr, &in, t->mnem, sizeof(t->mnem), t->ops,
		      t->opssz)) {
		in.addr = addr;
		in.size = 1;
		in.kind = EB_OTHER;
		snprintf(t->mnem, sizeof(t->mnem), "(bad)");
		t->ops[0] = '\0';
	}
	*inp = in;
	if (t->ops[0])
		snprintf(t->line, t->linesz, "%-*s %s", pad, t->mnem, t->ops);
	else
		snprintf(t->line, t->linesz, "%s", t->mnem);
	return in.size;
}

/* Source files read for --source, each once. */
struct src_file {
	char *path;
	char *text;
	char **lines;
	size_t nr;
};

struct src_cache {
	struct src_file *v;
	size_t nr;
};

static const struct src_file *src_get(struct src_cache *c, const char *path)
{
	struct src_file *f;
	FILE *in;
	size_t i, len = 0, cap = 0;
	char *p;

	for (i = 0; i < c->nr; i++)
		if (!strcmp(c->v[i].path, path))
			return &c->v[i];
	f = realloc(c->v, (c->nr + 1) * sizeof(*f));
	if (!f)
		return NULL;
	c->v = f;
	f = &c->v[c->nr];
	memset(f, 0, sizeof(*f));
	f->path = strdup(path);
	if (!f->path)
		return NULL;
	c->nr++;
	in = fopen(path, "r");
	if (!in)
		return f;
	for (;;) {
		char *t;
		size_t n;

		if (len + 4096 + 1 > cap) {
			cap = cap ? 2 * cap : 65536;
			if (cap > (64u << 20))
				break;
			t = realloc(f->text, cap);
			if (!t)
				break;
			f->text = t;
		}
		n = fread(f->text + len, 1, cap - len - 1, in);
		if (!n)
			break;
		len += n;
	}
	fclose(in);
	if (!f->text)
		return f;
	f->text[len] = '\0';
	for (p = f->text; *p; ) {
		char **l = realloc(f->lines, (f->nr + 1) * sizeof(*l));
		char *nl;

		if (!l)
			break;
		f->lines = l;
		l[f->nr++] = p;
		nl = strchr(p, '\n');
		if (!nl)
			break;
		*nl = '\0';
		p = nl + 1;
	}
	return f;
}

static void src_free(struct src_cache *c)
{
	size_t i;

	for (i = 0; i < c->nr; i++) {
		free(c->v[i].path);
		free(c->v[i].text);
		free(c->v[i].lines);
	}
	free(c->v);
}

struct printer {
	struct annot *a;
	const struct annot_opts *o;
	FILE *out;
	struct annot_insn_text tx;
	struct src_cache src;
	const char *event;
};

static void print_source(struct printer *pr, struct dso *d, uint64_t addr,
			 const char **last_file, int *last_line)
{
	const char *file;
	int line;
	const struct src_file *sf;

	if (!dso_source_line(pr->a->s.reg, d, addr, &file, &line))
		return;
	if (*last_file && !strcmp(*last_file, file) && *last_line == line)
		return;
	*last_file = file;
	*last_line = line;
	fprintf(pr->out, "         :\t%s:%d", file, line);
	sf = src_get(&pr->src, file);
	if (sf && line > 0 && (size_t)line <= sf->nr)
		fprintf(pr->out, "\t%s", sf->lines[line - 1]);
	fputc('\n', pr->out);
}

size_t annot_comment(const struct blockrange_addr_rec *info, char *buf,
		     size_t bufsz)
{
	size_t n = 0;
	int k;

	buf[0] = '\0';
	if (info->entry.status == BLOCKRANGE_FIG_OK && info->entry.value > 0.1) {
		k = snprintf(buf, bufsz, "+%.2f%%", info->entry.value);
		n = k > 0 && (size_t)k < bufsz ? (size_t)k : 0;
	}
	if (info->taken.status == BLOCKRANGE_FIG_OK && info->taken.value > 0.1) {
		if (info->pred.status == BLOCKRANGE_FIG_OK)
			k = snprintf(buf + n, bufsz - n, "%s-%.2f%% (p:%.2f%%)",
				     n ? " " : "", info->taken.value,
				     info->pred.value);
		else
			k = snprintf(buf + n, bufsz - n, "%s-%.2f%% (p:n/a)",
				     n ? " " : "", info->taken.value);
		n += k > 0 && (size_t)k < bufsz - n ? (size_t)k : 0;
	}
	return n;
}

static void print_comments(FILE *out, const struct blockrange_addr_rec *info)
{
	char buf[ANNOT_COMMENT_MAX];

	if (annot_comment(info, buf, sizeof(buf)))
		fprintf(out, "\t# %s", buf);
}

/* kallsyms only: the ranges of the symbol, no instructions. */
static void print_text_ranges(struct printer *pr, const struct annot_sym *p)
{
	struct blockrange_cursor cur;
	struct blockrange_rec rec;
	const struct blockrange_rec *br = &rec;
	FILE *out = pr->out;

	fputs("         :\t(no code: symbols only; ranges with their coverage)\n",
	      out);
	if (blockrange_rec_span(p->ad->ctx, p->start, p->end - 1, &cur))
		return;
	while (blockrange_rec_iter(p->ad->ctx, &cur, &rec)) {
		struct blockrange_addr_rec info, end;
		uint64_t n = 0;
		size_t k;
		char abuf[64];

		for (k = 0; k < p->ad->ips.cap; k++) {
			const struct pairmap_slot *sl = &p->ad->ips.slots[k];

			if (sl->used && sl->a >= br->start && sl->a <= br->end)
				n += sl->count;
		}
		blockrange_addr_rec(p->ad->ctx, br->start, &info);
		blockrange_addr_rec(p->ad->ctx, br->end, &end);
		info.taken = end.taken;
		info.pred = end.pred;
		fprintf(out, "%8.2f :\t  ", p->samples ?
			100.0 * (double)n / (double)p->samples : 0.0);
		snprintf(abuf, sizeof(abuf), "%" PRIx64 "-%" PRIx64 ":",
			 br->start, br->end);
		colored(out, pr->o->color, addr_color(info.coverage), abuf);
		fprintf(out, "       coverage %" PRIu64, br->coverage);
		print_comments(out, &info);
		fputc('\n', out);
	}
}

static void print_text_sym(struct printer *pr, const struct annot_sym *p)
{
	struct dso *d = p->ad->dso;
	FILE *out = pr->out;
	uint64_t addr = p->start;
	int width = snprintf(NULL, 0, "%" PRIx64, p->end);
	const char *last_file = NULL;
	int last_line = 0;

	if (pr->a->s.exact)
		fprintf(out, " Percent |\tSource code & Disassembly of %s for %s (exact counts)\n",
			d->short_name, pr->event);
	else
		fprintf(out, " Percent |\tSource code & Disassembly of %s for %s (%" PRIu64 " samples)\n",
			d->short_name, pr->event, p->samples);
	fputs("---------------------------------------------------------------------------------\n", out);
	fprintf(out, "         :\t%s():\n", p->name);
	if (p->ksym) {
		print_text_ranges(pr, p);
		return;
	}
	while (addr < p->end) {
		struct blockrange_addr_rec info;
		char abuf[32];
		uint64_t n = pairmap_get(&p->ad->ips, addr, 0);
		double pct = p->samples ? 100.0 * (double)n / (double)p->samples : 0;
		unsigned size;

		if (pr->o->source)
			print_source(pr, d, addr, &last_file, &last_line);
		size = annot_insn_line(d, addr, &pr->tx, 6);
		annot_sym_addr_info(p, addr, &info);
		fprintf(out, "%8.2f :\t  ", pct);
		snprintf(abuf, sizeof(abuf), "%*" PRIx64 ":", width, addr);
		colored(out, pr->o->color, addr_color(info.coverage), abuf);
		fputs("       ", out);
		colored(out, pr->o->color, asm_color(info.coverage),
			pr->tx.line);
		print_comments(out, &info);
		fputc('\n', out);
		if (addr + size < addr)
			break;
		addr += size;
	}
}

static const char *symsrc_name(const struct dso *d)
{
	if (d->state == DSO_SYMS_ONLY)
		return "kallsyms";
	if (d->state != DSO_READY)
		return "none";
	switch (d->bin.symsrc) {
	case EB_SYMS_SYMTAB:
		return d->debug_file ? "debug symtab" : "symtab";
	case EB_SYMS_DYNSYM:
		return "dynsym";
	default:
		return "none";
	}
}

static void print_json_ranges(struct printer *pr, const struct annot_sym *p)
{
	struct blockrange_cursor cur;
	struct blockrange_rec rec;
	const struct blockrange_rec *br = &rec;
	FILE *out = pr->out;
	bool first = true;

	fputs("\n     ],\n     \"ranges\": [", out);
	if (!blockrange_rec_span(p->ad->ctx, p->start, p->end - 1, &cur)) {
		while (blockrange_rec_iter(p->ad->ctx, &cur, &rec)) {
			fprintf(out, "%s\n      {\"start\": \"0x%" PRIx64 "\", \"end\": \"0x%" PRIx64 "\", \"coverage\": %" PRIu64 ", \"entry\": %" PRIu64 ", \"taken\": %" PRIu64 ", \"pred\": %" PRIu64 ", \"is_target\": %s, \"is_branch\": %s",
				first ? "" : ",", br->start, br->end,
				br->coverage, br->entry, br->taken, br->pred,
				br->is_target ? "true" : "false",
				br->is_branch ? "true" : "false");
			json_fig(out, "coverage_pct", annot_sym_coverage(p, br), 100,
				 "%.2f");
			json_fig(out, "entry_pct",
				 blockrange_rec_entry_pct(p->ad->ctx, br), 1,
				 "%.2f");
			json_fig(out, "taken_pct", blockrange_rec_taken_pct(br),
				 1, "%.2f");
			json_fig(out, "pred_pct",
				 blockrange_rec_pred_pct(p->ad->ctx, br), 1,
				 "%.2f");
			fputc('}', out);
			first = false;
		}
	}
	fputs("\n     ]", out);
}

/* Taken branches from or into the symbol (annot_sym_branches()). */
static int print_json_branches(struct printer *pr, const struct annot_sym *p)
{
	struct annot_branch *b;
	long n = annot_sym_branches(p, &b), i;
	FILE *out = pr->out;

	if (n < 0)
		return -1;
	fputs(",\n     \"branches\": [", out);
	for (i = 0; i < n; i++)
		fprintf(out, "%s\n      {\"from\": \"0x%" PRIx64 "\", \"to\": \"0x%" PRIx64 "\", \"count\": %" PRIu64 ", \"mispredicted\": %" PRIu64 "}",
			i ? "," : "", b[i].from, b[i].to, b[i].count,
			b[i].mispredicted);
	fputs(n ? "\n     ]}" : "]}", out);
	free(b);
	return 0;
}

static int print_json_sym(struct printer *pr, const struct annot_sym *p)
{
	struct dso *d = p->ad->dso;
	FILE *out = pr->out;
	uint64_t addr = p->start;
	bool first = true;

	fputs("    {\"name\": ", out);
	json_str(out, p->name);
	fprintf(out, ", \"pseudo\": %s, \"start\": \"0x%" PRIx64 "\", \"end\": \"0x%" PRIx64 "\", \"samples\": %" PRIu64 ", \"max_coverage\": %" PRIu64 ",\n",
		p->pseudo ? "true" : "false", p->start, p->end, p->samples,
		p->maxcov);
	fputs("     \"instructions\": [", out);
	while (!p->ksym && addr < p->end) {
		struct blockrange_addr_rec info;
		uint64_t n = pairmap_get(&p->ad->ips, addr, 0);
		unsigned size = annot_insn_line(d, addr, &pr->tx, 0);
		const char *file;
		int line;

		annot_sym_addr_info(p, addr, &info);
		fprintf(out, "%s\n      {\"addr\": \"0x%" PRIx64 "\", \"size\": %u, \"asm\": ",
			first ? "" : ",", addr, size);
		json_str(out, pr->tx.line);
		fprintf(out, ", \"samples\": %" PRIu64 ", \"percent\": %.2f, \"coverage\": %" PRIu64,
			n, p->samples ? 100.0 * (double)n / (double)p->samples : 0.0,
			info.found ? info.range.coverage : 0);
		json_fig(out, "coverage_pct", info.coverage, 100, "%.2f");
		json_fig(out, "entry_pct", info.entry, 1, "%.2f");
		json_fig(out, "taken_pct", info.taken, 1, "%.2f");
		json_fig(out, "pred_pct", info.pred, 1, "%.2f");
		if (pr->o->source &&
		    dso_source_line(pr->a->s.reg, d, addr, &file, &line)) {
			fputs(", \"source\": ", out);
			json_str(out, file);
			fprintf(out, ", \"line\": %d", line);
		}
		fputc('}', out);
		first = false;
		if (addr + size < addr)
			break;
		addr += size;
	}
	print_json_ranges(pr, p);
	return print_json_branches(pr, p);
}

static int print_json(struct printer *pr, const struct annot_syms *ps)
{
	struct annot *a = pr->a;
	const struct session_stats *st = &a->s.st;
	FILE *out = pr->out;
	bool has_pred = false, firstd = true;
	size_t i, k;
	int r;

	for (i = 0; i < a->nr_per; i++)
		if (a->per[i] && a->per[i]->ctx &&
		    blockrange_has_pred(a->per[i]->ctx))
			has_pred = true;
	fputs("{\"event\": ", out);
	json_str(out, a->s.event ? a->s.event : "");
	if (a->s.exact)
		fputs(", \"exact\": true", out);
	fprintf(out, ", \"samples\": %" PRIu64 ", \"prediction_flags\": %s,\n",
		st->samples, has_pred ? "true" : "false");
	fprintf(out, " \"blocks\": {\"seen\": %" PRIu64 ", \"counted\": %" PRIu64 ", \"skipped\": {",
		st->blocks, st->counted);
	for (r = 0; r < SKIP_NR; r++) {
		fprintf(out, "%s", r ? ", " : "");
		json_str(out, skip_keys[r]);
		fprintf(out, ": %" PRIu64, st->skipped[r]);
	}
	fputs("}},\n \"dsos\": [", out);
	/* DSOs in the order of their hottest symbol, symbols in pick order. */
	for (i = 0; i < ps->nr; i++) {
		struct annot_dso *ad = ps->v[i].ad;
		const struct dso *d = ad->dso;
		char hex[2 * DSO_BUILD_ID_MAX + 1];
		bool seen = false, firsts = true;
		uint64_t taken, missed;

		for (k = 0; k < i; k++)
			if (ps->v[k].ad == ad)
				seen = true;
		if (seen)
			continue;
		dso_build_id_hex(d->build_id, d->build_id_size, hex);
		fprintf(out, "%s\n  {\"name\": ", firstd ? "" : ",");
		json_str(out, d->short_name);
		fputs(", \"path\": ", out);
		json_str(out, d->path);
		fputs(", \"build_id\": ", out);
		json_str_or_null(out, d->build_id_size ? hex : NULL);
		fputs(", \"file\": ", out);
		json_str_or_null(out, d->file);
		fputs(", \"debug_file\": ", out);
		json_str_or_null(out, d->debug_file);
		fputs(", \"symbols_from\": ", out);
		json_str(out, symsrc_name(d));
		annot_dso_branch_totals(ad, &taken, &missed);
		fprintf(out, ", \"samples\": %" PRIu64 ", \"taken_branches\": %" PRIu64 ", \"mispredicted\": %" PRIu64 ",\n   \"symbols\": [\n",
			ad->samples, taken, missed);
		for (k = i; k < ps->nr; k++) {
			if (ps->v[k].ad != ad)
				continue;
			if (!firsts)
				fputs(",\n", out);
			if (print_json_sym(pr, &ps->v[k]))
				return -1;
			firsts = false;
		}
		fputs("\n   ]}", out);
		firstd = false;
	}
	fputs("\n ]}\n", out);
	return 0;
}

int annot_print(struct annot *a, const struct annot_opts *o, FILE *out,
		char *err, size_t errsz)
{
	struct annot_syms ps = { 0 };
	struct printer pr = { .a = a, .o = o, .out = out };
	size_t i;
	int r;

	pr.event = a->s.event ? a->s.event : "unknown event";
	if (annot_insn_text_init(&pr.tx, a)) {
		snprintf(err, errsz, "out of memory");
		return -2;
	}
	r = annot_symbols(a, o->symbols, o->nr_symbols, &ps, err, errsz);
	if (r) {
		if (r == -2)
			snprintf(err, errsz, "out of memory");
		goto out;
	}
	if (o->json) {
		if (print_json(&pr, &ps)) {
			snprintf(err, errsz, "out of memory");
			r = -2;
		}
	} else {
		for (i = 0; i < ps.nr; i++) {
			if (i)
				fputc('\n', out);
			print_text_sym(&pr, &ps.v[i]);
		}
	}
out:
	annot_symbols_free(&ps);
	src_free(&pr.src);
	annot_insn_text_free(&pr.tx);
	return r;
}
