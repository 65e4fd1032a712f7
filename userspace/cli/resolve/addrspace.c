// SPDX-License-Identifier: GPL-2.0
/* Process address spaces.  See addrspace.h. */
#define _GNU_SOURCE

#include "resolve/addrspace.h"

#include <stdlib.h>
#include <string.h>

#include "base/pairmap.h"
#include "common/hash.h"

#define KERNEL_START 0xffff800000000000ull
#define KERNEL_DSO "[kernel.kallsyms]"

struct proc {
	int32_t pid;
	struct as_map *maps;	/* sorted by start, disjoint */
	size_t nr;
	size_t cap;
	/* last hit, a cheap cache for runs of addresses in one mapping */
	size_t last;
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
	char **mmap_names;	/* basenames of every mmap seen */
	size_t nr_names;
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
	free(p->maps);
	p->maps = NULL;
	p->nr = p->cap = 0;
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
	for (i = 0; i < as->nr_names; i++)
		free(as->mmap_names[i]);
	free(as->mmap_names);
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

static int reserve(struct proc *p, size_t extra)
{
	if (p->nr + extra > p->cap) {
		size_t c = p->cap ? 2 * p->cap : 16;
		struct as_map *m;

		while (c < p->nr + extra)
			c *= 2;
		m = realloc(p->maps, c * sizeof(*m));
		if (!m)
			return -1;
		p->maps = m;
		p->cap = c;
	}
	return 0;
}

/* Insert @nm, cutting whatever part of older mappings it overlaps. */
static int insert_map(struct proc *p, const struct as_map *nm)
{
	size_t i, lo;

	/* Worst case: one mapping split in two, plus the new one. */
	if (reserve(p, 2))
		return -1;
	for (i = 0; i < p->nr; i++) {
		struct as_map *m = &p->maps[i];

		if (m->end <= nm->start || m->start >= nm->end)
			continue;
		if (m->start < nm->start && m->end > nm->end) {
			/* Split around the new mapping. */
			struct as_map tail = *m;

			tail.pgoff += nm->end - m->start;
			tail.start = nm->end;
			m->end = nm->start;
			memmove(&p->maps[i + 2], &p->maps[i + 1],
				(p->nr - i - 1) * sizeof(*m));
			p->maps[i + 1] = tail;
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
	for (lo = 0; lo < p->nr && p->maps[lo].start < nm->start; lo++)
		;
	memmove(&p->maps[lo + 1], &p->maps[lo], (p->nr - lo) * sizeof(*nm));
	p->maps[lo] = *nm;
	p->nr++;
	p->last = 0;
	return 0;
}

static const char *base_of(const char *path)
{
	const char *s = strrchr(path, '/');

	return s && s[1] ? s + 1 : path;
}

static int note_name(struct addrspace *as, const char *path)
{
	const char *b = base_of(path);
	char **n;
	size_t i;

	for (i = 0; i < as->nr_names; i++)
		if (!strcmp(as->mmap_names[i], b))
			return 0;
	n = realloc(as->mmap_names, (as->nr_names + 1) * sizeof(*n));
	if (!n)
		return -1;
	as->mmap_names = n;
	n[as->nr_names] = strdup(b);
	if (!n[as->nr_names])
		return -1;
	as->nr_names++;
	return 0;
}

bool as_has_mmap_of(const struct addrspace *as, const char *base_name)
{
	size_t i;

	for (i = 0; i < as->nr_names; i++)
		if (!strcmp(as->mmap_names[i], base_name))
			return true;
	return false;
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
	if (note_name(as, e->path))
		return -1;
	if (dso) {
		res->dso = dso;
	} else if (kernel &&
		   !strncmp(e->path, KERNEL_DSO, strlen(KERNEL_DSO))) {
		struct dso *k = dso_get(as->reg, KERNEL_DSO, e->build_id,
					e->build_id_size, true);

		if (!k)
			return -1;
		/* perf records the runtime address of _text as the offset. */
		dso_set_kernel_text(as->reg, k, e->pgoff);
		res->dso = k;
		res->kernel_text = true;
	} else {
		res->dso = dso_get(as->reg, e->path, e->build_id,
				   e->build_id_size, kernel);
		if (!res->dso)
			return -1;
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
	memset(&nm, 0, sizeof(nm));
	nm.start = e->start;
	nm.end = e->start + e->len;
	nm.pgoff = res->kernel_text ? 0 : e->pgoff;
	nm.id = as->next_id;
	nm.seq = as->next_id++;
	nm.dso = res->dso;
	if (res->kernel_text)
		as->kdso = res->dso;
	if (is_kernel_mode(e->cpumode))
		p = &as->kernel;
	else if (e->pid < 0)
		p = &as->any;
	else
		p = get_proc(as, e->pid);
	if (!p)
		return -1;
	return insert_map(p, &nm);
}

int as_mmap(struct addrspace *as, const struct ev_mmap *e, struct dso *dso)
{
	struct as_mmap_res res;

	if (as_mmap_prepare(as, e, dso, &res))
		return -1;
	return as_mmap_apply(as, e, &res);
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
		if (insert_map(&as->any, &nm))
			return -1;
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
		p->nr = 0;
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
		return -1;
	child->nr = 0;
	child->last = 0;
	if (!parent || !parent->nr)
		return 0;
	if (reserve(child, parent->nr))
		return -1;
	memcpy(child->maps, parent->maps, parent->nr * sizeof(*parent->maps));
	child->nr = parent->nr;
	return 0;
}

static const struct as_map *lookup(struct proc *p, uint64_t addr)
{
	size_t lo = 0, hi = p->nr;

	if (!p->nr)
		return NULL;
	if (p->last < p->nr && addr >= p->maps[p->last].start &&
	    addr < p->maps[p->last].end)
		return &p->maps[p->last];
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->maps[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo && addr < p->maps[lo - 1].end) {
		p->last = lo - 1;
		return &p->maps[lo - 1];
	}
	return NULL;
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
		out->dso = d;
		out->map_id = m ? m->id : 0;
		if (as->want && !as->want(as->want_arg, d)) {
			out->res = AS_FILTERED;
			return;
		}
		out->res = state_res(dso_load(as->reg, d));
		if (out->res != AS_OK)
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
	out->dso = d;
	out->map_id = m->id;
	if (as->want && !as->want(as->want_arg, d)) {
		out->res = AS_FILTERED;
		return;
	}
	out->res = state_res(dso_load(as->reg, d));
	if (out->res != AS_OK)
		return;
	if (!dso_addr(d, m->pgoff + (addr - m->start), &out->vaddr) ||
	    !eb_xsec_at(&d->bin, out->vaddr))
		out->res = AS_OUTSIDE;
}
