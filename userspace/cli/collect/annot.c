// SPDX-License-Identifier: GPL-2.0
/* The collector: events -> per-DSO blocks, IPs, branches, profiles. */
#define _GNU_SOURCE

#include "collect/annot.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "base/status.h"

int annot_init(struct annot *a, const char *name,
	       const struct resolver_opts *o, const struct annot_cfg *cfg,
	       char *err, size_t errsz)
{
	struct resolver_opts so = *o;

	memset(a, 0, sizeof(*a));
	if (cfg)
		a->cfg = *cfg;
	else
		a->cfg.parts = ANNOT_BLOCKS;
	if (a->cfg.parts & ANNOT_PROFGEN)
		so.dso.code_set = true;
	return resolver_init(&a->s, name, &so, err, errsz);
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
	bolt_dso_free(&ad->bolt);
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
	free(a->frames);
	free(a->dso_addrs);
	profile_free(&a->raw);
	resolver_free(&a->s);
	a->per = NULL;
	a->ends = NULL;
	a->kept = NULL;
	a->touched = NULL;
	a->frames = NULL;
	a->dso_addrs = NULL;
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
	return BR_ESYS;
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
	return BR_EINPUT;
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
	if (r.res == AS_NOMEM)
		return BR_ESYS;
	if (r.res != AS_OK)
		return 0;
	ad = annot_blocks_of(a, r.dso);
	if (!ad || pairmap_add(&ad->ips, r.vaddr, 0, smp->repeat))
		return BR_ESYS;
	ad->has_blocks = true;
	ad->samples += smp->repeat;
	return 0;
}

/* Room for a stack of @nr entries in the scratch arrays. */
static int scratch(struct annot *a, size_t nr)
{
	if (2 * nr > a->ends_cap) {
		struct resolver_addr *e = realloc(a->ends, 2 * nr * sizeof(*e));

		if (!e)
			return BR_ESYS;
		a->ends = e;
		a->ends_cap = 2 * nr;
	}
	if (nr > a->kept_cap) {
		struct profile_kept *k = realloc(a->kept, nr * sizeof(*k));

		if (!k)
			return BR_ESYS;
		a->kept = k;
		a->kept_cap = nr;
	}
	if (2 * nr > a->touched_cap) {
		struct annot_dso **t = realloc(a->touched,
					       2 * nr * sizeof(*t));

		if (!t)
			return BR_ESYS;
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
		const struct resolver_addr *e = &a->ends[i];
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
			return BR_ESYS;
		a->touched[(*n)++] = ad;
	}
	return 0;
}

/* ANNOT_PROFGEN with --leading-ip-only: one ip-ip range per sample. */
static int leading_ip(struct annot *a, const struct ev_sample *smp)
{
	struct resolver_addr e;
	struct annot_dso *ad;

	if (a->cfg.raw)
		return pairmap_add(&a->raw.ranges, smp->ip, smp->ip,
				   smp->repeat);
	resolver_resolve(&a->s, smp, smp->ip, &e);
	if (e.r.res == AS_NOMEM)
		return BR_ESYS;
	if (!e.ok || !eb_is_code(&e.r.dso->bin, e.r.vaddr))
		return 0;
	ad = annot_per_dso(a, e.r.dso);
	if (!ad)
		return BR_ESYS;
	ad->has_prof = true;
	return pairmap_add(&ad->prof.ranges, e.r.vaddr, e.r.vaddr,
			   smp->repeat);
}

/* The sample's repeat count: within the engine's bounds, summed. */
static int check_repeat(struct annot *a, const struct ev_sample *smp,
			char *err, size_t errsz)
{
	int k;

	if (!(a->cfg.parts & ANNOT_BLOCKS))
		return 0;
	if (a->cfg.engine == ANNOT_ENGINE_TREE &&
	    smp->repeat > ANNOT_MAX_REPEAT) {
		k = pos_msg(smp, smp->repeat_line, err, errsz);
		snprintf(err + k, errsz - k,
			 "expected a repeat count of at most %u for annotate with the tree engine (each repeat replays the stack), got %" PRIu64,
			 ANNOT_MAX_REPEAT, smp->repeat);
		return BR_EINPUT;
	}
	if (a->total > UINT64_MAX - smp->repeat) {
		k = pos_msg(smp, smp->repeat_line ? smp->repeat_line :
			    smp->pos.line, err, errsz);
		snprintf(err + k, errsz - k,
			 "expected repeat counts whose sums fit in 64 bits, got %" PRIu64 ", which overflows the sample count",
			 smp->repeat);
		return BR_EINPUT;
	}
	a->total += smp->repeat;
	return 0;
}

/* ranges' modes of their own (one range a sample, or no binary). */
static int profgen_only(struct annot *a, const struct ev_sample *smp,
			char *err, size_t errsz)
{
	int r;

	if (a->cfg.leading_ip_only)
		r = leading_ip(a, smp);
	else if (smp->nr > a->kept_cap && scratch(a, smp->nr))
		r = BR_ESYS;
	else
		r = profile_apply(&a->raw, smp->br, smp->nr, smp->repeat, NULL,
				  a->kept, smp->exact_range);
	if (r == BR_EINPUT)
		return too_many(smp, a->cfg.leading_ip_only ? "range" :
				"range or branch", err, errsz);
	return r ? oom(smp, err, errsz) : 0;
}

/*
 * Resolve both ends of every entry (a->ends[2i]: entry i's source, 2i + 1:
 * its target); with blocks, count the taken branches within one mapping.
 * 0 or BR_ESYS.
 */
static int resolve_entries(struct annot *a, const struct ev_sample *smp,
			   bool blocks)
{
	size_t i;

	for (i = 0; i < smp->nr; i++) {
		const struct resolver_addr *f = &a->ends[2 * i];
		const struct resolver_addr *t = &a->ends[2 * i + 1];
		struct annot_dso *ad;

		resolver_resolve(&a->s, smp, smp->br[i].from, &a->ends[2 * i]);
		resolver_resolve(&a->s, smp, smp->br[i].to, &a->ends[2 * i + 1]);
		if (f->r.res == AS_NOMEM || t->r.res == AS_NOMEM)
			return BR_ESYS;
		if (!blocks || !f->ok || !t->ok || f->r.dso != t->r.dso ||
		    f->r.map_id != t->r.map_id || smp->br[i].abort ||
		    (smp->exact_range && !i))
			continue;
		ad = annot_blocks_of(a, f->r.dso);
		if (!ad || pairmap_add(&ad->edges, f->r.vaddr, t->r.vaddr,
				       smp->repeat))
			return BR_ESYS;
		ad->has_blocks = true;
		if (smp->br[i].mispredicted &&
		    pairmap_add(&ad->edges_miss, f->r.vaddr, t->r.vaddr,
				smp->repeat))
			return BR_ESYS;
	}
	return 0;
}

/*
 * The blocks of consecutive entries (older, newer): [older.to,
 * newer.from], as the resolver's rules count them; into the DSO's
 * aggregate (batch) or context (tree).  0, BR_EINPUT a count overflows,
 * BR_ESYS.
 */
static int count_blocks(struct annot *a, const struct ev_sample *smp,
			bool blocks)
{
	bool tree = a->cfg.engine == ANNOT_ENGINE_TREE;
	size_t i;
	int r;

	for (i = smp->nr - 1; i-- > 0;) {
		const struct ev_branch *older = &smp->br[i + 1];
		const struct ev_branch *newer = &smp->br[i];
		const struct resolver_addr *st = &a->ends[2 * (i + 1) + 1];
		const struct resolver_addr *en = &a->ends[2 * i];
		enum blockrange_pred pred = newer->predicted ?
			BLOCKRANGE_PRED_HIT : newer->mispredicted ?
			BLOCKRANGE_PRED_MISS : BLOCKRANGE_PRED_UNKNOWN;
		struct annot_dso *ad;
		const void *owner;
		uint64_t rep;
		size_t idx;

		if (resolver_block(&a->s, older, newer, st, en, smp->repeat) !=
		    SKIP_NR || !blocks)
			continue;
		ad = annot_blocks_of(a, st->r.dso);
		if (!ad)
			return BR_ESYS;
		ad->has_blocks = true;
		if (!tree) {
			/* owners are given to the distinct blocks at the end */
			r = blockrange_agg_add(ad->agg, st->r.vaddr,
					       en->r.vaddr, NULL, pred,
					       smp->repeat);
			if (r)
				return r == -EOVERFLOW ? BR_EINPUT : BR_ESYS;
			continue;
		}
		owner = dso_sym_at(st->r.dso, st->r.vaddr, &idx);
		for (rep = 0; rep < smp->repeat; rep++)
			if (blockrange_count_block(ad->ctx, st->r.vaddr,
						   en->r.vaddr, owner, pred))
				return BR_ESYS;
	}
	return 0;
}

/* The sample's call stack resolved into a->frames. */
static int resolve_frames(struct annot *a, const struct ev_sample *smp)
{
	size_t i;

	if (br_grow((void **)&a->frames, &a->frames_cap, smp->callchain_nr,
		    sizeof(*a->frames)))
		return BR_ENOMEM;
	for (i = 0; i < smp->callchain_nr; i++) {
		resolver_resolve(&a->s, smp, smp->callchain[i], &a->frames[i]);
		if (a->frames[i].r.res == AS_NOMEM)
			return BR_ENOMEM;
	}
	return 0;
}

/* The ELF address of @e in @prof's DSO, or PROFILE_EXTERNAL. */
static uint64_t view_addr(const struct profile *prof,
			 const struct resolver_addr *e)
{
	return profile_code_of(prof, e) ? e->r.vaddr : PROFILE_EXTERNAL;
}

/* The sample with its call stack, as @ad's DSO sees it (hybrid.h). */
static int add_hybrid(struct annot *a, struct annot_dso *ad,
		      const struct ev_sample *smp)
{
	size_t i, nf = smp->callchain_nr, need = nf + 2 * smp->nr;
	uint64_t *v;

	if (br_grow((void **)&a->dso_addrs, &a->dso_addrs_cap, need,
		    sizeof(*a->dso_addrs)))
		return BR_ENOMEM;
	v = a->dso_addrs;
	for (i = 0; i < nf; i++)
		v[i] = view_addr(&ad->prof, &a->frames[i]);
	for (i = 0; i < 2 * smp->nr; i++)
		v[nf + i] = view_addr(&ad->prof, &a->ends[i]);
	return hybrid_add(&ad->prof.hybrid, &ad->dso->bin, v, nf, v + nf,
			  smp->nr, smp->repeat);
}

/* Is @line/@offset before the sample that decided @a's kind of profile? */
static bool before_first(const struct annot *a, uint64_t line,
			 uint64_t offset)
{
	return !a->decided || line < a->first_line ||
	       (line == a->first_line && offset < a->first_offset);
}

/* The kind of profile, if @smp is the first sample that decides it. */
static void decide(struct annot *a, const struct ev_sample *smp)
{
	if (smp->nr < (smp->callchain_nr ? 2u : 1u) ||
	    !before_first(a, smp->pos.line, smp->pos.offset))
		return;
	a->decided = true;
	a->stacks = smp->callchain_nr > 0;
	a->first_line = smp->pos.line;
	a->first_offset = smp->pos.offset;
}

/* llvm-profgen's and BOLT's parts for every DSO the sample touched. */
static int count_parts(struct annot *a, const struct ev_sample *smp,
		       char *err, size_t errsz)
{
	size_t i, n = 0;
	int r;

	bool stack = (a->cfg.parts & ANNOT_PROFGEN) && smp->callchain_nr;

	if (touched(a, smp, &n) || (stack && resolve_frames(a, smp)))
		return oom(smp, err, errsz);
	decide(a, smp);
	for (i = 0; i < n; i++) {
		struct annot_dso *ad = a->touched[i];

		r = stack ? add_hybrid(a, ad, smp) : 0;
		if (r == BR_EINPUT)
			return too_many(smp, "sample with a call stack", err,
					errsz);
		if (r)
			return oom(smp, err, errsz);
		if (a->cfg.parts & ANNOT_PROFGEN) {
			ad->has_prof = true;
			ad->prof.samples += smp->repeat;
			r = profile_apply(&ad->prof, smp->br, smp->nr,
					  smp->repeat, a->ends, a->kept,
					  smp->exact_range);
			if (r == BR_EINPUT)
				return too_many(smp, "range or branch", err,
						errsz);
			if (r)
				return oom(smp, err, errsz);
		}
		if (a->cfg.parts & ANNOT_BOLT) {
			ad->has_bolt = true;
			r = bolt_apply(&ad->bolt, ad->dso, smp, a->ends);
			if (r == BR_EINPUT)
				return too_many(smp, "branch or trace", err,
						errsz);
			if (r)
				return oom(smp, err, errsz);
		}
	}
	return 0;
}

int annot_sample(void *arg, const struct ev_sample *smp, char *err,
		 size_t errsz)
{
	struct annot *a = arg;
	bool blocks = a->cfg.parts & ANNOT_BLOCKS;
	int r;

	if (a->cfg.event && strcmp(smp->event, a->cfg.event))
		return 0;
	r = check_repeat(a, smp, err, errsz);
	if (!r)
		r = resolver_sample(&a->s, smp, err, errsz);
	if (r)
		return r;
	if ((a->cfg.parts & ANNOT_PROFGEN) &&
	    (a->cfg.leading_ip_only || a->cfg.raw))
		return profgen_only(a, smp, err, errsz);
	if (blocks && smp->has_ip && count_ip(a, smp))
		return oom(smp, err, errsz);
	if (!smp->nr)
		return 0;
	if (scratch(a, smp->nr) || resolve_entries(a, smp, blocks))
		return oom(smp, err, errsz);
	r = count_blocks(a, smp, blocks);
	if (r == BR_EINPUT)
		return too_many(smp, "block", err, errsz);
	if (r)
		return oom(smp, err, errsz);
	if (!(a->cfg.parts & (ANNOT_PROFGEN | ANNOT_BOLT)))
		return 0;
	return count_parts(a, smp, err, errsz);
}

void annot_sink(struct annot *a, struct ev_sink *sink)
{
	*sink = (struct ev_sink){
		.sample = annot_sample,
		.mmap = resolver_mmap,
		.comm = resolver_comm,
		.task = resolver_task,
		.build_id = resolver_build_id,
		.profile = annot_profile,
		.profile_dso = annot_profile_dso,
		.arg = a,
	};
}

/*
 * The resolver callbacks take the resolver; annot embeds it first, so the
 * same pointer serves both.
 */
_Static_assert(offsetof(struct annot, s) == 0, "resolver first");

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
					     dso_sym_at(ad->dso, start, &idx),
					     pred, count);
	}
	return r == -EOVERFLOW ? BR_EINPUT : r ? BR_ESYS : 0;
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
		return BR_ESYS;
	while (!r) {
		bool more = blockrange_agg_next(ad->agg, &pos, &b[n]);

		if (more) {
			b[n].owner = dso_sym_at(ad->dso, b[n].start, &idx);
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
		return BR_ESYS;
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
				return BR_ESYS;
			blockrange_agg_free(ad->agg);
			ad->agg = NULL;
		}
		memset(ad->sym_samples, 0,
		       (ad->nr_syms ? ad->nr_syms : 1) *
		       sizeof(*ad->sym_samples));
		for (k = 0; k < ad->ips.cap; k++) {
			const struct pairmap_slot *sl = &ad->ips.slots[k];
			size_t idx = SIZE_MAX;

			if (sl->used && dso_sym_at(ad->dso, sl->a, &idx) &&
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
		return BR_ESYS;
	if (s->agg || s->ctx) {
		if (!annot_blocks_of(dst, s->dso))
			return BR_ESYS;
		/* only aggregates merge (the tree runs on one thread) */
		if (!s->agg || !d->agg)
			return BR_ESYS;
		r = blockrange_agg_merge(d->agg, s->agg);
		if (r)
			return r == -EOVERFLOW ? BR_EINPUT : BR_ESYS;
		d->has_blocks |= s->has_blocks;
		if (d->samples > UINT64_MAX - s->samples)
			return BR_EINPUT;
		d->samples += s->samples;
		if ((r = pairmap_merge(&d->ips, &s->ips)) ||
		    (r = pairmap_merge(&d->edges, &s->edges)) ||
		    (r = pairmap_merge(&d->edges_miss, &s->edges_miss)))
			return r;
	}
	if (s->has_prof) {
		d->has_prof = true;
		if (d->prof.samples > UINT64_MAX - s->prof.samples)
			return BR_EINPUT;
		d->prof.samples += s->prof.samples;
		if ((r = pairmap_merge(&d->prof.ranges, &s->prof.ranges)) ||
		    (r = pairmap_merge(&d->prof.branches, &s->prof.branches)) ||
		    (r = hybrid_merge(&d->prof.hybrid, &s->prof.hybrid)))
			return r;
	}
	if (s->has_bolt) {
		d->has_bolt = true;
		r = bolt_dso_merge(&d->bolt, &s->bolt);
		if (r)
			return r;
	}
	return 0;
}

int annot_merge(struct annot *dst, const struct annot *src)
{
	struct resolver_stats *d = &dst->s.st;
	const struct resolver_stats *s = &src->s.st;
	size_t i;
	int r;

	for (i = 0; i < src->nr_per; i++)
		if (src->per[i] && (r = merge_dso(dst, src->per[i])))
			return r;
	if (dst->total > UINT64_MAX - src->total)
		return BR_EINPUT;
	dst->total += src->total;
	if (src->decided && before_first(dst, src->first_line,
					 src->first_offset)) {
		dst->decided = true;
		dst->stacks = src->stacks;
		dst->first_line = src->first_line;
		dst->first_offset = src->first_offset;
	}
	r = pairmap_merge(&dst->raw.ranges, &src->raw.ranges);
	if (!r)
		r = pairmap_merge(&dst->raw.branches, &src->raw.branches);
	if (r)
		return r;
	d->samples = sat_add(d->samples, s->samples);
	d->brstack_samples = sat_add(d->brstack_samples, s->brstack_samples);
	d->entries = sat_add(d->entries, s->entries);
	d->blocks = sat_add(d->blocks, s->blocks);
	d->counted = sat_add(d->counted, s->counted);
	for (i = 0; i < SKIP_NR; i++)
		d->skipped[i] = sat_add(d->skipped[i], s->skipped[i]);
	d->ips_kernel = sat_add(d->ips_kernel, s->ips_kernel);
	return resolver_merge_event(&dst->s, &src->s) ? BR_ESYS : 0;
}
