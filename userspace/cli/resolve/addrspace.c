// SPDX-License-Identifier: GPL-2.0
/* Process address spaces.  See addrspace.h. */
#define _GNU_SOURCE

#include "resolve/addrspace.h"

#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "base/status.h"
#include "base/pairmap.h"
#include "common/hash.h"
#include "common/search.h"

#define KERNEL_START 0xffff800000000000ull
#define KERNEL_DSO "[kernel.kallsyms]"

struct proc {
	int32_t pid;
	struct as_maps maps;
};

/*
 * Resolved addresses, by (address, pid, kernel): branch stacks repeat the
 * same few addresses.  An entry holds only while nothing changed the
 * address spaces (@gen).
 */
#define AS_CACHE 1024
_Static_assert(!(AS_CACHE & (AS_CACHE - 1)), "a power of two");

struct as_cache_ent {
	uint64_t addr;
	int32_t pid;
	uint32_t gen;		/* 0: empty */
	bool kernel;
	struct as_resolved r;
};

struct addrspace {
	struct dso_registry *reg;
	struct as_cache_ent *cache;
	uint32_t gen;
	struct pairmap procs;	/* pid -> struct proc * */
	struct proc any;	/* mappings without a pid */
	struct proc kernel;	/* kernel-mode mappings */
	struct dso *kdso;
	uint64_t next_id;
	bool (*want)(void *arg, const struct dso *d);
	void *want_arg;
};

void as_set_filter(struct addrspace *as,
		   bool (*want)(void *arg, const struct dso *d), void *arg)
{
	as->want = want;
	as->want_arg = arg;
}

struct addrspace *as_new(struct dso_registry *reg)
{
	struct addrspace *as = calloc(1, sizeof(*as));

	if (!as)
		return NULL;
	as->reg = reg;
	as->gen = 1;
	as->any.pid = -1;
	as->kernel.pid = -1;
	as->next_id = 1;
	return as;
}

/* The process of slot @i of the table (NULL: a slot get_proc() left 0). */
static struct proc *proc_at(const struct addrspace *as, size_t i)
{
	return (struct proc *)(uintptr_t)as->procs.slots[i].count;
}

static void proc_free(struct proc *p)
{
	as_maps_free(&p->maps);
}

void as_free(struct addrspace *as)
{
	size_t i;

	if (!as)
		return;
	for (i = 0; i < as->procs.cap; i++) {
		struct proc *p = proc_at(as, i);

		if (as->procs.slots[i].used && p) {
			proc_free(p);
			free(p);
		}
	}
	proc_free(&as->any);
	proc_free(&as->kernel);
	pairmap_free(&as->procs);
	free(as->cache);
	free(as);
}

/* The address spaces changed: no cached resolution holds any more. */
static void changed(struct addrspace *as)
{
	if (++as->gen)
		return;
	if (as->cache)
		memset(as->cache, 0, AS_CACHE * sizeof(*as->cache));
	as->gen = 1;
}

static struct proc *find_proc(const struct addrspace *as, int32_t pid)
{
	return (struct proc *)(uintptr_t)pairmap_get(&as->procs,
						     (uint32_t)pid, 0);
}

static struct proc *get_proc(struct addrspace *as, int32_t pid)
{
	uint64_t *slot = pairmap_ref(&as->procs, (uint32_t)pid, 0);
	struct proc *p;

	if (!slot)
		return NULL;
	if (*slot)
		return (struct proc *)(uintptr_t)*slot;
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;	/* the slot stays 0: no process */
	p->pid = pid;
	*slot = (uintptr_t)p;
	return p;
}

static int reserve(struct as_maps *m, size_t extra)
{
	return br_grow_from((void **)&m->v, &m->cap, m->nr + extra,
			    sizeof(*m->v), 16);
}

int as_maps_insert(struct as_maps *p, const struct as_map *nm)
{
	size_t i, lo;

	/* Worst case: one mapping split in two, plus the new one. */
	if (reserve(p, 2))
		return BR_ESYS;
	for (i = 0; i < p->nr; i++) {
		struct as_map *m = &p->v[i];

		if (m->end <= nm->start || m->start >= nm->end)
			continue;
		if (m->start < nm->start && m->end > nm->end) {
			/* Split around the new mapping. */
			struct as_map tail = *m;

			tail.pgoff += nm->end - m->start;
			tail.start = nm->end;
			m->end = nm->start;
			memmove(&p->v[i + 2], &p->v[i + 1],
				(p->nr - i - 1) * sizeof(*m));
			p->v[i + 1] = tail;
			p->nr++;
			i++;
		} else if (m->start < nm->start) {
			m->end = nm->start;
		} else if (m->end > nm->end) {
			m->pgoff += nm->end - m->start;
			m->start = nm->end;
		} else {
			memmove(m, m + 1, (p->nr - i - 1) * sizeof(*m));
			p->nr--;
			i--;
		}
	}
	for (lo = 0; lo < p->nr && p->v[lo].start < nm->start; lo++)
		;
	memmove(&p->v[lo + 1], &p->v[lo], (p->nr - lo) * sizeof(*nm));
	p->v[lo] = *nm;
	p->nr++;
	p->last = 0;
	return 0;
}

const struct as_map *as_maps_find(struct as_maps *p, uint64_t addr)
{
	size_t lo;

	if (!p->nr)
		return NULL;
	if (p->last < p->nr && addr >= p->v[p->last].start &&
	    addr < p->v[p->last].end)
		return &p->v[p->last];
	lo = br_count_le(p->v, p->nr, sizeof(*p->v),
			 offsetof(struct as_map, start), addr);
	if (lo && addr < p->v[lo - 1].end) {
		p->last = lo - 1;
		return &p->v[lo - 1];
	}
	return NULL;
}

int as_maps_copy(struct as_maps *dst, const struct as_maps *src)
{
	dst->nr = 0;
	dst->last = 0;
	if (!src->nr)
		return 0;
	if (reserve(dst, src->nr))
		return BR_ESYS;
	memcpy(dst->v, src->v, src->nr * sizeof(*src->v));
	dst->nr = src->nr;
	return 0;
}

void as_maps_free(struct as_maps *m)
{
	free(m->v);
	memset(m, 0, sizeof(*m));
}

struct dso *as_kernel_dso(struct addrspace *as)
{
	if (!as->kdso)
		as->kdso = dso_get(as->reg, KERNEL_DSO, NULL, 0, true);
	return as->kdso;
}

static bool is_kernel_mode(enum ev_cpumode m)
{
	return m == EV_CPU_KERNEL || m == EV_CPU_GUEST_KERNEL;
}

int as_mmap_prepare(struct addrspace *as, const struct ev_mmap *e,
		    struct dso *dso, struct as_mmap_res *res)
{
	bool kernel = is_kernel_mode(e->cpumode);

	memset(res, 0, sizeof(*res));
	if (!e->len || e->start + e->len < e->start ||
	    (!kernel && !e->exec)) {
		res->skip = true;
		return 0;
	}
	if (dso) {
		res->dso = dso;
	} else if (kernel &&
		   !strncmp(e->path, KERNEL_DSO, strlen(KERNEL_DSO))) {
		struct dso *k = dso_get(as->reg, KERNEL_DSO, e->build_id,
					e->build_id_size, true);

		if (!k)
			return BR_ESYS;
		/* perf records the runtime address of _text as the offset. */
		dso_set_kernel_text(as->reg, k, e->pgoff);
		res->dso = k;
		res->kernel_text = true;
	} else {
		res->dso = dso_get(as->reg, e->path, e->build_id,
				   e->build_id_size, kernel);
		if (!res->dso)
			return BR_ESYS;
	}
	return 0;
}

int as_mmap_apply(struct addrspace *as, const struct ev_mmap *e,
		  const struct as_mmap_res *res)
{
	struct as_map nm;
	struct proc *p;

	if (res->skip)
		return 0;
	changed(as);
	nm = (struct as_map){
		.start = e->start,
		.end = e->start + e->len,
		.pgoff = res->kernel_text ? 0 : e->pgoff,
		.id = as->next_id,
		.seq = as->next_id,
		.dso = res->dso,
		.prot = e->prot,
		.flags = e->flags,
		.maj = e->maj,
		.min = e->min,
		.ino = e->ino,
	};
	as->next_id++;
	if (res->kernel_text)
		as->kdso = res->dso;
	if (is_kernel_mode(e->cpumode))
		p = &as->kernel;
	else if (e->pid < 0)
		p = &as->any;
	else
		p = get_proc(as, e->pid);
	if (!p)
		return BR_ESYS;
	return as_maps_insert(&p->maps, &nm);
}

void as_set_kernel_dso(struct addrspace *as, struct dso *d)
{
	changed(as);
	as->kdso = d;
}

int as_identity(struct addrspace *as, struct dso *dso)
{
	size_t i;

	if (dso->state != DSO_READY)
		return 0;
	changed(as);
	for (i = 0; i < dso->bin.nr_loads; i++) {
		const struct eb_load *l = &dso->bin.loads[i];
		struct as_map nm;

		if (!l->exec || !l->filesz)
			continue;
		memset(&nm, 0, sizeof(nm));
		nm.start = l->vaddr;
		nm.end = l->vaddr + l->filesz;
		nm.pgoff = l->offset;
		nm.dso = dso;
		nm.id = as->next_id;
		nm.seq = as->next_id++;
		if (as_maps_insert(&as->any.maps, &nm))
			return BR_ESYS;
	}
	return 0;
}

int as_comm(struct addrspace *as, const struct ev_comm *c)
{
	struct proc *p;

	if (!c->exec || c->pid < 0)
		return 0;
	changed(as);
	p = find_proc(as, c->pid);
	if (p)
		p->maps.nr = 0;
	return 0;
}

int as_task(struct addrspace *as, const struct ev_task *t)
{
	struct proc *parent, *child;

	if (t->exit || t->pid < 0 || t->pid == t->ppid)
		return 0;
	changed(as);
	parent = find_proc(as, t->ppid);
	child = get_proc(as, t->pid);
	if (!child)
		return BR_ESYS;
	if (!parent) {
		child->maps.nr = 0;
		return 0;
	}
	return as_maps_copy(&child->maps, &parent->maps);
}

static const struct as_map *lookup(struct proc *p, uint64_t addr)
{
	return as_maps_find(&p->maps, addr);
}

/* Without a pid: every process, newest mapping first. */
static const struct as_map *lookup_all(struct addrspace *as, uint64_t addr)
{
	const struct as_map *best = NULL, *m;
	size_t i;

	for (i = 0; i < as->procs.cap; i++) {
		if (!as->procs.slots[i].used || !proc_at(as, i))
			continue;
		m = lookup(proc_at(as, i), addr);
		if (m && (!best || m->seq > best->seq))
			best = m;
	}
	return best;
}

static enum as_res state_res(enum dso_state s)
{
	switch (s) {
	case DSO_READY:
	case DSO_SYMS_ONLY:
		return AS_OK;
	case DSO_NOT_FOUND:
		return AS_NOT_FOUND;
	case DSO_MISMATCH:
		return AS_MISMATCH;
	case DSO_NO_KERNEL:
		return AS_KERNEL;
	case DSO_NO_MEMORY:
		return AS_NOMEM;
	default:
		return AS_UNUSABLE;
	}
}

static void resolve(struct addrspace *as, int32_t pid, bool kernel,
		    uint64_t addr, struct as_resolved *out);

void as_resolve(struct addrspace *as, int32_t pid, enum ev_cpumode cpumode,
		uint64_t addr, struct as_resolved *out)
{
	bool kernel = is_kernel_mode(cpumode) ||
		      (cpumode == EV_CPU_UNKNOWN && addr >= KERNEL_START) ||
		      addr >= KERNEL_START;
	uint64_t h = br_hash2(addr, (uint64_t)(uint32_t)pid << 1 | kernel);
	struct as_cache_ent *e;

	if (!as->cache) {
		as->cache = calloc(AS_CACHE, sizeof(*as->cache));
		if (!as->cache) {
			resolve(as, pid, kernel, addr, out);
			return;
		}
	}
	e = &as->cache[h & (AS_CACHE - 1)];
	if (e->gen == as->gen && e->addr == addr && e->pid == pid &&
	    e->kernel == kernel) {
		*out = e->r;
		return;
	}
	resolve(as, pid, kernel, addr, out);
	e->addr = addr;
	e->pid = pid;
	e->kernel = kernel;
	e->gen = as->gen;
	e->r = *out;
}

/*
 * @d in mapping @map_id (0: none) as @out's DSO, wanted and loaded: false
 * when @out->res says why it is not.
 */
static bool dso_ready(struct addrspace *as, struct dso *d, uint64_t map_id,
		      struct as_resolved *out)
{
	out->dso = d;
	out->map_id = map_id;
	if (as->want && !as->want(as->want_arg, d)) {
		out->res = AS_FILTERED;
		return false;
	}
	out->res = state_res(dso_load(as->reg, d));
	return out->res == AS_OK;
}

static void resolve(struct addrspace *as, int32_t pid, bool kernel,
		    uint64_t addr, struct as_resolved *out)
{
	const struct as_map *m = NULL;
	struct dso *d;

	memset(out, 0, sizeof(*out));
	if (!addr) {
		out->res = AS_ZERO;
		return;
	}
	/* Branch entries carry no cpumode of their own: go by the address. */
	if (kernel) {
		m = lookup(&as->kernel, addr);
		d = m ? m->dso : as_kernel_dso(as);
		if (!d || !d->kernel) {
			out->res = AS_KERNEL;
			out->dso = d;
			return;
		}
		if (!dso_ready(as, d, m ? m->id : 0, out))
			return;
		out->vaddr = addr - d->reloc;
		if (d->state == DSO_READY && !eb_xsec_at(&d->bin, out->vaddr))
			out->res = AS_OUTSIDE;
		return;
	}
	if (pid >= 0) {
		struct proc *p = find_proc(as, pid);

		if (p)
			m = lookup(p, addr);
		if (!m)
			m = lookup(&as->any, addr);
	} else {
		m = lookup(&as->any, addr);
		if (!m)
			m = lookup_all(as, addr);
	}
	if (!m) {
		out->res = AS_UNMAPPED;
		return;
	}
	d = m->dso;
	if (!dso_ready(as, d, m->id, out))
		return;
	if (!dso_addr(d, m->pgoff + (addr - m->start), &out->vaddr) ||
	    !eb_xsec_at(&d->bin, out->vaddr))
		out->res = AS_OUTSIDE;
}
