// SPDX-License-Identifier: GPL-2.0
/* The hash table.  See pairmap.h. */
#include "base/pairmap.h"

#include <stdlib.h>
#include <string.h>

#include "base/status.h"
#include "common/hash.h"

static size_t slot_of(const struct pairmap *pm, uint64_t a, uint64_t b)
{
	return (size_t)br_hash2(a, b) & (pm->cap - 1);
}

static int grow(struct pairmap *pm)
{
	struct pairmap old = *pm;
	size_t i;

	pm->cap = old.cap ? old.cap * 2 : 256;
	pm->slots = calloc(pm->cap, sizeof(*pm->slots));
	if (!pm->slots) {
		*pm = old;
		return BR_ESYS;
	}
	for (i = 0; i < old.cap; i++) {
		size_t j;

		if (!old.slots[i].used)
			continue;
		for (j = slot_of(pm, old.slots[i].a, old.slots[i].b);
		     pm->slots[j].used; j = (j + 1) & (pm->cap - 1))
			;
		pm->slots[j] = old.slots[i];
	}
	free(old.slots);
	return BR_OK;
}

/* The slot of (a, b), or the free slot where it goes; NULL: empty table. */
static struct pairmap_slot *lookup(const struct pairmap *pm, uint64_t a,
				   uint64_t b)
{
	size_t j;

	if (!pm->cap)
		return NULL;
	for (j = slot_of(pm, a, b); pm->slots[j].used;
	     j = (j + 1) & (pm->cap - 1))
		if (pm->slots[j].a == a && pm->slots[j].b == b)
			break;
	return &pm->slots[j];
}

uint64_t *pairmap_ref(struct pairmap *pm, uint64_t a, uint64_t b)
{
	struct pairmap_slot *s = lookup(pm, a, b);

	if (s && s->used)
		return &s->count;
	if ((pm->nr + 1) * 2 > pm->cap) {
		if (grow(pm))
			return NULL;
		s = lookup(pm, a, b);
	}
	s->used = true;
	s->a = a;
	s->b = b;
	s->count = 0;
	pm->nr++;
	return &s->count;
}

int pairmap_add(struct pairmap *pm, uint64_t a, uint64_t b, uint64_t count)
{
	uint64_t *v = pairmap_ref(pm, a, b);

	if (!v)
		return BR_ESYS;
	if (*v > UINT64_MAX - count)
		return BR_EINPUT;
	*v += count;
	return BR_OK;
}

uint64_t pairmap_get(const struct pairmap *pm, uint64_t a, uint64_t b)
{
	const struct pairmap_slot *s = lookup(pm, a, b);

	return s && s->used ? s->count : 0;
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
	return BR_OK;
}

void pairmap_free(struct pairmap *pm)
{
	free(pm->slots);
	memset(pm, 0, sizeof(*pm));
}
