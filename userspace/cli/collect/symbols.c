// SPDX-License-Identifier: GPL-2.0
/* The symbols to show and their figures.  See symbols.h. */
#define _GNU_SOURCE

#include "collect/symbols.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "base/status.h"

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
	if (br_grow_from((void **)&ps->v, &ps->cap, ps->nr + 1,
			 sizeof(*ps->v), 64))
		return NULL;
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
	size_t idx;

	return dso_sym_at(d, addr, &idx) != NULL;
}

/*
 * Pseudo-symbols over the hot code no symbol covers (all of it in a DSO
 * without symbols): runs of covered ranges and sample IPs.
 */
static int pseudo_picks(const struct annot_dso *ad, struct annot_syms *ps)
{
	const struct dso *d = ad->dso;
	struct pairmap_slot *ips = pairmap_sorted(&ad->ips);
	struct blockrange_rec br;
	bool have = blockrange_rec_first(ad->ctx, &br);
	size_t i = 0, first = ps->nr;
	struct annot_sym *cur = NULL;

	if (!ips)
		return BR_ESYS;
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
				return BR_ESYS;
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
			return BR_ESYS;
		}
		p->name = p->own_name;
	}
	return 0;
}

static int sym_pick(const struct annot_dso *ad, size_t i, struct annot_syms *ps,
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
		return BR_ESYS;
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

/*
 * The @symbols named, each in every DSO that has it; a DSO with the symbol
 * but no data gets its (empty) block data.
 */
static int named_picks(struct annot *a, const char *const *symbols,
		       size_t nr_symbols, struct annot_syms *ps, char *err,
		       size_t errsz)
{
	size_t i, k;

	for (k = 0; k < nr_symbols; k++) {
		bool found = false;

		for (i = 0; i < dso_count(a->s.reg); i++) {
			struct dso *d = dso_at(a->s.reg, i);
			const struct eb_sym *s;
			struct annot_dso *ad;

			if (d->state != DSO_READY ||
			    !resolver_wants(&a->s, d) ||
			    (!annot_dso_of(a, d) && a->s.bin_dso != d))
				continue;
			s = eb_sym_by_name(&d->bin, symbols[k]);
			if (!s)
				continue;
			ad = annot_blocks_of(a, d);
			if (!ad ||
			    sym_pick(ad, (size_t)(s - d->bin.syms), ps, true))
				return BR_ESYS;
			found = true;
		}
		if (!found) {
			snprintf(err, errsz,
				 "expected a function symbol of %s for --symbol, got '%s'",
				 a->s.bin_dso ? a->s.bin_dso->path :
				 "the profiled DSOs", symbols[k]);
			return BR_EINPUT;
		}
	}
	return 0;
}

/* Every symbol and pseudo-symbol with data, hottest first. */
static int hot_picks(const struct annot *a, struct annot_syms *ps)
{
	size_t i, k;

	for (i = 0; i < a->nr_per; i++) {
		const struct annot_dso *ad = a->per[i];

		if (!ad || !ad->ctx)
			continue;
		for (k = 0; k < ad->nr_syms; k++)
			if (sym_pick(ad, k, ps, false))
				return BR_ESYS;
		if (ad->dso->state == DSO_READY && pseudo_picks(ad, ps))
			return BR_ESYS;
	}
	if (ps->nr > 1)
		qsort(ps->v, ps->nr, sizeof(*ps->v), cmp_pick);
	return 0;
}

int annot_symbols(struct annot *a, const char *const *symbols,
		  size_t nr_symbols, struct annot_syms *ps, char *err,
		  size_t errsz)
{
	int r;

	memset(ps, 0, sizeof(*ps));
	r = annot_finish(a);
	if (!r)
		r = nr_symbols ? named_picks(a, symbols, nr_symbols, ps, err,
					     errsz) : hot_picks(a, ps);
	if (r == BR_ESYS)
		snprintf(err, errsz, "out of memory");
	return r;
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
		return BR_ESYS;
	for (i = 0; i < pm->nr; i++) {
		bool in_from = v[i].a >= p->start && v[i].a < p->end;
		bool in_to = v[i].b >= p->start && v[i].b < p->end;

		if (!in_from && !in_to)
			continue;
		if (!b) {
			b = malloc(pm->nr * sizeof(*b));
			if (!b) {
				free(v);
				return BR_ESYS;
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
