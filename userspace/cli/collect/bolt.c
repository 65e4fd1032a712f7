// SPDX-License-Identifier: GPL-2.0
/* BOLT's aggregation of branch stacks.  See bolt.h. */
#include "collect/bolt.h"

void bolt_dso_free(struct bolt_dso *bd)
{
	pairmap_free(&bd->br);
	pairmap_free(&bd->br_miss);
	pairmap_free(&bd->ft);
	pairmap_free(&bd->ft_ext);
}

/* Is the resolved end @e in @d? Its ELF address then, else external. */
static uint64_t bolt_addr(const struct resolver_addr *e, const struct dso *d)
{
	return e->ok && e->r.dso == d ? e->r.vaddr : BOLT_EXTERNAL;
}

static const void *bolt_func(const struct dso *d, uint64_t vaddr)
{
	size_t idx;

	return dso_sym_at(d, vaddr, &idx);
}

int bolt_apply(struct bolt_dso *bd, const struct dso *d,
	       const struct ev_sample *smp, const struct resolver_addr *ends)
{
	uint64_t rep = smp->repeat;
	size_t i;
	int r;

	for (i = 0; i < smp->nr; i++) {
		uint64_t f = bolt_addr(&ends[2 * i], d);
		uint64_t t = bolt_addr(&ends[2 * i + 1], d);

		if ((f == BOLT_EXTERNAL && t == BOLT_EXTERNAL) ||
		    (smp->exact_range && (!i || !smp->br[i].from)))
			continue;
		r = pairmap_add(&bd->br, f, t, rep);
		if (!r && smp->br[i].mispredicted)
			r = pairmap_add(&bd->br_miss, f, t, rep);
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
		r = pairmap_add(inside ? &bd->ft : &bd->ft_ext, start, end, rep);
		if (r)
			return r;
	}
	return 0;
}

int bolt_dso_merge(struct bolt_dso *dst, const struct bolt_dso *src)
{
	int r;

	if ((r = pairmap_merge(&dst->br, &src->br)) ||
	    (r = pairmap_merge(&dst->br_miss, &src->br_miss)) ||
	    (r = pairmap_merge(&dst->ft, &src->ft)))
		return r;
	return pairmap_merge(&dst->ft_ext, &src->ft_ext);
}
