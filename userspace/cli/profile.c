// SPDX-License-Identifier: GPL-2.0
#include "profile.h"

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

struct kept {
	uint64_t src;
	uint64_t dst;
	bool src_code;
	bool dst_code;
};

int profiler_init(struct profiler *p, const char *name,
		  const struct session_opts *so,
		  const struct profiler_opts *o)
{
	struct session_opts sso = *so;

	memset(p, 0, sizeof(*p));
	p->o = *o;
	sso.dso.code_set = true;
	return session_init(&p->s, name, &sso);
}

static void profile_free(struct profile *prof)
{
	pairmap_free(&prof->ranges);
	pairmap_free(&prof->branches);
}

void profiler_free(struct profiler *p)
{
	size_t i;

	for (i = 0; i < p->nr_per; i++) {
		if (p->per[i]) {
			profile_free(p->per[i]);
			free(p->per[i]);
		}
	}
	profile_free(&p->raw);
	free(p->per);
	free(p->ends);
	free(p->kept);
	free(p->touched);
	session_free(&p->s);
	p->per = NULL;
	p->ends = NULL;
	p->kept = NULL;
	p->touched = NULL;
}

static struct profile *per_dso(struct profiler *p, struct dso *d)
{
	struct profile *prof;

	if (d->idx >= p->nr_per) {
		size_t n = d->idx + 16, i;
		struct profile **x = realloc(p->per, n * sizeof(*x));

		if (!x)
			return NULL;
		for (i = p->nr_per; i < n; i++)
			x[i] = NULL;
		p->per = x;
		p->nr_per = n;
	}
	if (!p->per[d->idx]) {
		prof = calloc(1, sizeof(*prof));
		if (!prof)
			return NULL;
		prof->dso = d;
		p->per[d->idx] = prof;
	}
	return p->per[d->idx];
}

const struct profile *profiler_get(const struct profiler *p,
				   const struct dso *d)
{
	if (!d)
		return &p->raw;
	return d->idx < p->nr_per ? p->per[d->idx] : NULL;
}

size_t profiler_nr(const struct profiler *p)
{
	size_t i, n = 0;

	for (i = 0; i < p->nr_per; i++)
		n += p->per[i] != NULL;
	return n;
}

const struct profile *profiler_at(const struct profiler *p, size_t i)
{
	size_t k;

	for (k = 0; k < p->nr_per; k++)
		if (p->per[k] && !i--)
			return p->per[k];
	return NULL;
}

/* Is entry end @e code of the profile's DSO? */
static bool code_of(const struct profile *prof, const struct session_addr *e)
{
	return e->ok && e->r.dso == prof->dso &&
	       eb_is_code(&prof->dso->bin, e->r.vaddr);
}

/*
 * llvm-profgen's rules for one DSO on one sample's entries (ends[2i]:
 * entry i's source, ends[2i + 1]: its target; raw mode: the addresses as
 * they are, all code).
 */
static int apply_rules(struct profiler *p, struct profile *prof,
		       const struct ev_sample *smp)
{
	struct kept *k = p->kept;
	size_t i, m = 0;
	int ret = 0;

	for (i = 0; i < smp->nr; i++) {
		uint64_t f = smp->br[i].from, t = smp->br[i].to;
		bool fc = true, tc = true;

		if (prof->dso) {
			fc = code_of(prof, &p->ends[2 * i]);
			tc = code_of(prof, &p->ends[2 * i + 1]);
			f = p->ends[2 * i].r.vaddr;
			t = p->ends[2 * i + 1].r.vaddr;
		}
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
			ret = pairmap_add(&prof->branches, k[i].src, k[i].dst,
					  smp->repeat);
		if (!ret && i + 1 < m && k[i + 1].dst_code && k[i].src_code) {
			uint64_t start = k[i + 1].dst, end = k[i].src;
			bool ok = prof->dso ?
				  eb_range_valid(&prof->dso->bin, start, end) :
				  start <= end;

			if (ok)
				ret = pairmap_add(&prof->ranges, start, end,
						  smp->repeat);
		}
	}
	return ret;
}

static int add_touched(struct profiler *p, size_t *n, struct dso *d)
{
	size_t i;

	for (i = 0; i < *n; i++)
		if (p->touched[i] == d)
			return 0;
	if (*n == p->touched_cap) {
		size_t c = p->touched_cap ? 2 * p->touched_cap : 8;
		struct dso **x = realloc(p->touched, c * sizeof(*x));

		if (!x)
			return -1;
		p->touched = x;
		p->touched_cap = c;
	}
	p->touched[(*n)++] = d;
	return 0;
}

static int msg(const struct ev_sample *smp, uint64_t line, char *err,
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

static int profile_sample(void *arg, const struct ev_sample *smp, char *err,
			  size_t errsz)
{
	struct profiler *p = arg;
	size_t i, n = 0;
	int ret = 0, r;

	if (p->o.event && strcmp(smp->event, p->o.event))
		return 0;
	r = session_sample(&p->s, smp, err, errsz);
	if (r)
		return r;
	p->samples_used++;
	if (p->o.leading_ip_only) {
		struct session_addr e;
		struct profile *prof = &p->raw;
		uint64_t v = smp->ip;

		if (!p->o.raw) {
			session_resolve(&p->s, smp, smp->ip, &e);
			if (!e.ok || !eb_is_code(&e.r.dso->bin, e.r.vaddr))
				return 0;
			prof = per_dso(p, e.r.dso);
			if (!prof) {
				ret = -1;
				goto out;
			}
			v = e.r.vaddr;
		}
		ret = pairmap_add(&prof->ranges, v, v, smp->repeat);
		goto out;
	}
	if (smp->nr > p->kept_cap) {
		struct kept *k = realloc(p->kept, smp->nr * sizeof(*k));

		if (!k) {
			ret = -1;
			goto out;
		}
		p->kept = k;
		p->kept_cap = smp->nr;
	}
	if (p->o.raw) {
		ret = apply_rules(p, &p->raw, smp);
		goto out;
	}
	if (2 * smp->nr > p->ends_cap) {
		struct session_addr *e = realloc(p->ends,
						 2 * smp->nr * sizeof(*e));

		if (!e) {
			ret = -1;
			goto out;
		}
		p->ends = e;
		p->ends_cap = 2 * smp->nr;
	}
	for (i = 0; i < smp->nr; i++) {
		session_resolve(&p->s, smp, smp->br[i].from, &p->ends[2 * i]);
		session_resolve(&p->s, smp, smp->br[i].to, &p->ends[2 * i + 1]);
		if (p->ends[2 * i].ok &&
		    add_touched(p, &n, p->ends[2 * i].r.dso))
			ret = -1;
		if (p->ends[2 * i + 1].ok &&
		    add_touched(p, &n, p->ends[2 * i + 1].r.dso))
			ret = -1;
	}
	/* The summary's block statistics (the seed's blocks). */
	for (i = smp->nr; i-- > 1;)
		session_block(&p->s, &smp->br[i], &smp->br[i - 1],
			      &p->ends[2 * i + 1], &p->ends[2 * (i - 1)],
			      smp->repeat);
	for (i = 0; i < n && !ret; i++) {
		struct profile *prof = per_dso(p, p->touched[i]);

		if (!prof) {
			ret = -1;
			break;
		}
		prof->samples += smp->repeat;
		ret = apply_rules(p, prof, smp);
	}
out:
	if (ret == -2) {
		/* Blame the count line: the stack itself is fine. */
		int k = msg(smp, smp->repeat_line ? smp->repeat_line :
			    smp->pos.line, err, errsz);

		snprintf(err + k, errsz - k,
			 "expected repeat counts whose sums fit in 64 bits, got %" PRIu64 ", which overflows the count of a %s",
			 smp->repeat, p->o.leading_ip_only ? "range" :
			 "range or branch");
		return -1;
	}
	if (ret) {
		int k = msg(smp, smp->pos.line, err, errsz);

		snprintf(err + k, errsz - k, "out of memory");
		return -2;
	}
	return 0;
}

void profiler_sink(struct profiler *p, struct ev_sink *sink)
{
	memset(sink, 0, sizeof(*sink));
	sink->sample = profile_sample;
	sink->mmap = session_mmap;
	sink->comm = session_comm;
	sink->task = session_task;
	sink->build_id = session_build_id;
	sink->arg = p;
}

_Static_assert(offsetof(struct profiler, s) == 0, "session first");

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
