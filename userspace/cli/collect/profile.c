// SPDX-License-Identifier: GPL-2.0
#include "collect/profile.h"

#include <inttypes.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>

static size_t hash2(uint64_t a, uint64_t b)
{
	uint64_t h = a * 0x9e3779b97f4a7c15ull ^ (b + 0x632be59bd9b4e019ull);

	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ull;
	h ^= h >> 32;
	return (size_t)h;
}

static int pairmap_grow(struct pairmap *pm)
{
	size_t ncap = pm->cap ? pm->cap * 2 : 256, i;
	struct pairmap_slot *ns = calloc(ncap, sizeof(*ns));

	if (!ns)
		return -1;
	for (i = 0; i < pm->cap; i++) {
		size_t j;

		if (!pm->slots[i].used)
			continue;
		j = hash2(pm->slots[i].a, pm->slots[i].b) & (ncap - 1);
		while (ns[j].used)
			j = (j + 1) & (ncap - 1);
		ns[j] = pm->slots[i];
	}
	free(pm->slots);
	pm->slots = ns;
	pm->cap = ncap;
	return 0;
}

int pairmap_add(struct pairmap *pm, uint64_t a, uint64_t b, uint64_t count)
{
	size_t j;

	if ((pm->nr + 1) * 2 > pm->cap && pairmap_grow(pm))
		return -1;
	j = hash2(a, b) & (pm->cap - 1);
	while (pm->slots[j].used) {
		if (pm->slots[j].a == a && pm->slots[j].b == b) {
			if (pm->slots[j].count > UINT64_MAX - count)
				return -2;
			pm->slots[j].count += count;
			return 0;
		}
		j = (j + 1) & (pm->cap - 1);
	}
	pm->slots[j].used = true;
	pm->slots[j].a = a;
	pm->slots[j].b = b;
	pm->slots[j].count = count;
	pm->nr++;
	return 0;
}

uint64_t pairmap_get(const struct pairmap *pm, uint64_t a, uint64_t b)
{
	size_t j;

	if (!pm->cap)
		return 0;
	j = hash2(a, b) & (pm->cap - 1);
	while (pm->slots[j].used) {
		if (pm->slots[j].a == a && pm->slots[j].b == b)
			return pm->slots[j].count;
		j = (j + 1) & (pm->cap - 1);
	}
	return 0;
}

void pairmap_free(struct pairmap *pm)
{
	free(pm->slots);
	memset(pm, 0, sizeof(*pm));
}

static int cmp_slot(const void *x, const void *y)
{
	const struct pairmap_slot *p = x, *q = y;

	if (p->a != q->a)
		return p->a < q->a ? -1 : 1;
	if (p->b != q->b)
		return p->b < q->b ? -1 : 1;
	return 0;
}

struct pairmap_slot *pairmap_sorted(const struct pairmap *pm)
{
	struct pairmap_slot *v = malloc((pm->nr ? pm->nr : 1) * sizeof(*v));
	size_t i, n = 0;

	if (!v)
		return NULL;
	for (i = 0; i < pm->cap; i++)
		if (pm->slots[i].used)
			v[n++] = pm->slots[i];
	qsort(v, n, sizeof(*v), cmp_slot);
	return v;
}

int pairmap_merge(struct pairmap *dst, const struct pairmap *src)
{
	size_t i;
	int r;

	for (i = 0; i < src->cap; i++) {
		if (!src->slots[i].used)
			continue;
		r = pairmap_add(dst, src->slots[i].a, src->slots[i].b,
				src->slots[i].count);
		if (r)
			return r;
	}
	return 0;
}

uint64_t pairmap_total(const struct pairmap *pm)
{
	uint64_t t = 0;
	size_t i;

	for (i = 0; i < pm->cap; i++)
		if (pm->slots[i].used)
			t = pm->slots[i].count > UINT64_MAX - t ? UINT64_MAX :
			    t + pm->slots[i].count;
	return t;
}

void profile_free(struct profile *prof)
{
	pairmap_free(&prof->ranges);
	pairmap_free(&prof->branches);
}

bool profile_code_of(const struct profile *prof, const struct session_addr *e)
{
	return e->ok && e->r.dso == prof->dso &&
	       eb_is_code(&prof->dso->bin, e->r.vaddr);
}

int profile_apply(struct profile *prof, const struct ev_branch *br,
		  size_t nr, uint64_t repeat,
		  const struct session_addr *ends, struct profile_kept *k,
		  bool exact_range)
{
	size_t i, m = 0;
	int ret = 0;

	for (i = 0; i < nr; i++) {
		uint64_t f = br[i].from, t = br[i].to;
		bool fc = true, tc = true;

		if (ends) {
			fc = profile_code_of(prof, &ends[2 * i]);
			tc = profile_code_of(prof, &ends[2 * i + 1]);
			f = ends[2 * i].r.vaddr;
			t = ends[2 * i + 1].r.vaddr;
		}
		if (!fc && !tc)
			continue;
		k[m].src = fc ? f : PROFILE_EXTERNAL;
		k[m].dst = tc ? t : PROFILE_EXTERNAL;
		k[m].src_code = fc;
		k[m].dst_code = tc;
		k[m].branch = !exact_range || (i && br[i].from);
		m++;
	}
	for (i = 0; i < m && !ret; i++) {
		if (k[i].dst_code && k[i].branch)
			ret = pairmap_add(&prof->branches, k[i].src, k[i].dst,
					  repeat);
		if (!ret && i + 1 < m && k[i + 1].dst_code && k[i].src_code) {
			uint64_t start = k[i + 1].dst, end = k[i].src;
			bool ok = prof->dso ?
				  eb_range_valid(&prof->dso->bin, start, end) :
				  start <= end;

			if (ok)
				ret = pairmap_add(&prof->ranges, start, end,
						  repeat);
		}
	}
	return ret;
}

int profile_write(const struct profile *prof, uint64_t base, FILE *out)
{
	struct pairmap_slot *r = pairmap_sorted(&prof->ranges);
	struct pairmap_slot *b = pairmap_sorted(&prof->branches);
	size_t i;

	if (!r || !b) {
		free(r);
		free(b);
		return -1;
	}
	fprintf(out, "%zu\n", prof->ranges.nr);
	for (i = 0; i < prof->ranges.nr; i++)
		fprintf(out, "%" PRIx64 "-%" PRIx64 ":%" PRIu64 "\n",
			r[i].a - base, r[i].b - base, r[i].count);
	fprintf(out, "%zu\n", prof->branches.nr);
	for (i = 0; i < prof->branches.nr; i++)
		fprintf(out, "%" PRIx64 "->%" PRIx64 ":%" PRIu64 "\n",
			b[i].a - base, b[i].b - base, b[i].count);
	free(r);
	free(b);
	return ferror(out) ? -1 : 0;
}
