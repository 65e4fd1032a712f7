// SPDX-License-Identifier: GPL-2.0
#include "profile.h"

#include <inttypes.h>
#include <stdlib.h>
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

static bool is_code(const struct profile *p, uint64_t v)
{
	return !p->bin || eb_is_code(p->bin, v);
}

int profile_mmap(void *arg, const struct ps_mmap *m, char *err, size_t errsz)
{
	struct profile *p = arg;
	char why[PS_ERR_MAX];
	int r = mapper_add(p->map, m, why, sizeof(why));

	if (r == -1) {
		snprintf(err, errsz, "%s:%lu: out of memory", p->name, m->line);
		return -2;
	}
	if (r == -2) {
		snprintf(err, errsz, "%s:%lu: %s", p->name, m->line, why);
		return -1;
	}
	return 0;
}

struct kept {
	uint64_t src;
	uint64_t dst;
	bool src_code;
	bool dst_code;
};

int profile_sample(void *arg, const struct ps_sample *s, char *err,
		   size_t errsz)
{
	struct profile *p = arg;
	struct kept *k;
	size_t i, m = 0;
	int ret = 0;

	if (p->event && strcmp(s->event, p->event))
		return 0;
	if (mapper_missing(p->map)) {
		snprintf(err, errsz,
			 "%s:%lu: expected a PERF_RECORD_MMAP2 line for '%s' before the first sample (it is a PIE, its load address is unknown), got a sample",
			 p->name, s->line, p->bin->base_name);
		return -1;
	}
	p->samples_used++;
	if (p->leading_ip_only) {
		uint64_t v;

		if (mapper_map(p->map, s->pid, s->ip, &v) && is_code(p, v))
			ret = pairmap_add(&p->ranges, v, v, s->repeat);
		goto out;
	}
	k = malloc((s->nr ? s->nr : 1) * sizeof(*k));
	if (!k) {
		ret = -1;
		goto out;
	}
	for (i = 0; i < s->nr; i++) {
		uint64_t f, t;
		bool fc = mapper_map(p->map, s->pid, s->entries[i].from, &f) &&
			  is_code(p, f);
		bool tc = mapper_map(p->map, s->pid, s->entries[i].to, &t) &&
			  is_code(p, t);

		if (!fc && !tc)
			continue;
		k[m].src = fc ? f : PROFILE_EXTERNAL;
		k[m].dst = tc ? t : PROFILE_EXTERNAL;
		k[m].src_code = fc;
		k[m].dst_code = tc;
		m++;
	}
	for (i = 0; i < m && !ret; i++) {
		if (k[i].dst_code)
			ret = pairmap_add(&p->branches, k[i].src, k[i].dst,
					  s->repeat);
		if (!ret && i + 1 < m && k[i + 1].dst_code && k[i].src_code) {
			uint64_t start = k[i + 1].dst, end = k[i].src;
			bool ok = p->bin ? eb_range_valid(p->bin, start, end) :
				  start <= end;

			if (ok)
				ret = pairmap_add(&p->ranges, start, end,
						  s->repeat);
		}
	}
	free(k);
out:
	if (ret == -2) {
		/* Blame the count line: the stack itself is fine. */
		snprintf(err, errsz,
			 "%s:%lu: expected repeat counts whose sums fit in 64 bits, got %" PRIu64 ", which overflows the count of a %s",
			 p->name, s->repeat_line ? s->repeat_line : s->line,
			 s->repeat, p->leading_ip_only ? "range" :
			 "range or branch");
		return -1;
	}
	if (ret) {
		snprintf(err, errsz, "%s:%lu: out of memory", p->name,
			 s->line);
		return -2;
	}
	return 0;
}

int profile_write(const struct profile *p, FILE *out)
{
	struct pairmap_slot *r = pairmap_sorted(&p->ranges);
	struct pairmap_slot *b = pairmap_sorted(&p->branches);
	size_t i;

	if (!r || !b) {
		free(r);
		free(b);
		return -1;
	}
	fprintf(out, "%zu\n", p->ranges.nr);
	for (i = 0; i < p->ranges.nr; i++)
		fprintf(out, "%" PRIx64 "-%" PRIx64 ":%" PRIu64 "\n",
			r[i].a - p->base, r[i].b - p->base, r[i].count);
	fprintf(out, "%zu\n", p->branches.nr);
	for (i = 0; i < p->branches.nr; i++)
		fprintf(out, "%" PRIx64 "->%" PRIx64 ":%" PRIu64 "\n",
			b[i].a - p->base, b[i].b - p->base, b[i].count);
	free(r);
	free(b);
	return ferror(out) ? -1 : 0;
}

void profile_free(struct profile *p)
{
	pairmap_free(&p->ranges);
	pairmap_free(&p->branches);
}
