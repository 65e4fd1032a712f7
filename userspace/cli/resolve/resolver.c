// SPDX-License-Identifier: GPL-2.0
/* Input events -> DSO registry and address spaces.  See resolver.h. */
#define _GNU_SOURCE

#include "resolve/resolver.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/status.h"

static const char *base_of(const char *path)
{
	const char *s = strrchr(path, '/');

	return s && s[1] ? s + 1 : path;
}

static bool want_dso(void *arg, const struct dso *d)
{
	return resolver_wants(arg, d);
}

int resolver_init(struct resolver *s, const char *name,
		 const struct resolver_opts *o, char *err, size_t errsz)
{
	memset(s, 0, sizeof(*s));
	s->name = name;
	s->o = *o;
	s->reg = dso_registry_new(&o->dso);
	s->as = s->reg ? as_new(s->reg) : NULL;
	if (!s->as)
		goto oom;
	as_set_filter(s->as, want_dso, s);
	if (o->binary) {
		struct eb_open_opts eo = {
			.code_set = o->dso.code_set,
			.need_syms = true,
			.threads = o->dso.threads,
		};
		struct dso *d;
		int r = eb_open_ex(o->binary, &eo, &s->bin, err, errsz);

		if (r) {
			resolver_free(s);
			return r;
		}
		d = dso_get(s->reg, o->binary, NULL, 0, false);
		if (!d || !(d->file = strdup(o->binary))) {
			eb_close(&s->bin);
			goto oom;
		}
		d->bin = s->bin;
		d->state = DSO_READY;
		s->bin_dso = d;
		if (!d->bin.pie && as_identity(s->as, d))
			goto oom;
	}
	return BR_OK;
oom:
	resolver_free(s);
	snprintf(err, errsz, "%s: out of memory", name);
	return BR_ESYS;
}

int resolver_init_replica(struct resolver *s, const struct resolver *master)
{
	memset(s, 0, sizeof(*s));
	s->name = master->name;
	s->o = master->o;
	s->replica = true;
	s->reg = master->reg;
	s->bin_dso = master->bin_dso;
	s->started = true;
	s->as = as_new(s->reg);
	if (!s->as)
		return BR_ESYS;
	as_set_filter(s->as, want_dso, s);
	if (s->bin_dso && !s->bin_dso->bin.pie && as_identity(s->as, s->bin_dso))
		return BR_ESYS;
	return 0;
}

int resolver_start(struct resolver *s)
{
	if (s->started)
		return 0;
	if (!as_kernel_dso(s->as))
		return BR_ESYS;
	s->started = true;
	return 0;
}

void resolver_free(struct resolver *s)
{
	as_free(s->as);
	if (!s->replica)
		dso_registry_free(s->reg);
	free(s->event);
	s->as = NULL;
	s->reg = NULL;
	s->event = NULL;
}

/* "NAME:LINE: " or "NAME: offset N: " */
static int pos_prefix(const struct ev_pos *p, char *buf, size_t sz)
{
	if (p->line)
		return snprintf(buf, sz, "%s:%" PRIu64 ": ", p->name, p->line);
	return snprintf(buf, sz, "%s: offset %" PRIu64 ": ", p->name,
			p->offset);
}

/*
 * A mapping of the --binary must fit the file: its end and file end within
 * 64 bits, its offset inside the file (else it is another build).
 */
static int check_bin_map(struct resolver *s, const struct ev_mmap *m,
			 char *err, size_t errsz)
{
	const struct eb_binary *b = &s->bin_dso->bin;
	int n = pos_prefix(&m->pos, err, errsz);

	if (n < 0 || (size_t)n >= errsz)
		n = 0;
	if (m->len - 1 > UINT64_MAX - m->start ||
	    m->len - 1 > UINT64_MAX - m->pgoff) {
		snprintf(err + n, errsz - n,
			 "expected a mapping of %s whose end (start + length) and file end (offset + length) fit in 64 bits, got start 0x%" PRIx64 ", length 0x%" PRIx64 ", offset 0x%" PRIx64,
			 b->base_name, m->start, m->len, m->pgoff);
		return BR_EINPUT;
	}
	if (m->pgoff >= b->image_size) {
		snprintf(err + n, errsz - n,
			 "expected a file offset inside %s (%zu bytes) for its mapping, got 0x%" PRIx64,
			 b->base_name, b->image_size, m->pgoff);
		return BR_EINPUT;
	}
	return 0;
}

int resolver_mmap_prepare(struct resolver *s, const struct ev_mmap *m,
			 struct resolver_mmap_res *res, char *err, size_t errsz)
{
	struct dso *d = NULL;

	memset(res, 0, sizeof(*res));
	res->skip = true;
	if (!m->len)
		return 0;
	if (s->bin_dso && !strcmp(base_of(m->path), s->bin_dso->short_name)) {
		if (check_bin_map(s, m, err, errsz))
			return BR_EINPUT;
		if (!s->bin_dso->bin.pie)
			return 0;	/* non-PIE: mapped at its own addresses */
		d = s->bin_dso;
		res->bin = true;
	}
	if (as_mmap_prepare(s->as, m, d, &res->as)) {
		snprintf(err, errsz, "%s: out of memory", s->name);
		return BR_ESYS;
	}
	res->skip = false;
	return 0;
}

int resolver_mmap_apply(struct resolver *s, const struct ev_mmap *m,
		       const struct resolver_mmap_res *res, char *err,
		       size_t errsz)
{
	if (res->skip)
		return 0;
	if (res->bin)
		s->bin_mapped = true;
	if (as_mmap_apply(s->as, m, &res->as)) {
		snprintf(err, errsz, "%s: out of memory", s->name);
		return BR_ESYS;
	}
	return 0;
}

int resolver_mmap(void *arg, const struct ev_mmap *m, char *err, size_t errsz)
{
	struct resolver *s = arg;
	struct resolver_mmap_res res;
	int r = resolver_mmap_prepare(s, m, &res, err, errsz);

	return r ? r : resolver_mmap_apply(s, m, &res, err, errsz);
}

int resolver_comm(void *arg, const struct ev_comm *c, char *err, size_t errsz)
{
	struct resolver *s = arg;

	if (as_comm(s->as, c)) {
		snprintf(err, errsz, "%s: out of memory", s->name);
		return BR_ESYS;
	}
	return 0;
}

int resolver_task(void *arg, const struct ev_task *t, char *err, size_t errsz)
{
	struct resolver *s = arg;

	if (as_task(s->as, t)) {
		snprintf(err, errsz, "%s: out of memory", s->name);
		return BR_ESYS;
	}
	return 0;
}

int resolver_build_id(void *arg, const struct ev_build_id *b, char *err,
		     size_t errsz)
{
	struct resolver *s = arg;
	bool kernel = b->cpumode == EV_CPU_KERNEL ||
		      b->cpumode == EV_CPU_GUEST_KERNEL;

	if (kernel && b->path[0] == '[')
		/* "[kernel.kallsyms]": the name the kernel DSO has. */
		kernel = true;
	if (dso_note_build_id(s->reg, b->path, b->id, b->size, kernel)) {
		snprintf(err, errsz, "%s: out of memory", s->name);
		return BR_ESYS;
	}
	return 0;
}

static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

int resolver_sample(struct resolver *s, const struct ev_sample *smp, char *err,
		   size_t errsz)
{
	if (resolver_start(s)) {
		snprintf(err, errsz, "%s: out of memory", s->name);
		return BR_ESYS;
	}
	if (s->bin_dso && s->bin_dso->bin.pie && !s->bin_mapped) {
		int n = pos_prefix(&smp->pos, err, errsz);

		snprintf(err + (n > 0 && (size_t)n < errsz ? n : 0),
			 errsz - (n > 0 && (size_t)n < errsz ? n : 0),
			 "expected a PERF_RECORD_MMAP2 line for '%s' before the first sample (it is a PIE, its load address is unknown), got a sample",
			 s->bin_dso->short_name);
		return BR_EINPUT;
	}
	if (*smp->event) {
		if (!s->event) {
			s->event = strdup(smp->event);
			if (!s->event) {
				snprintf(err, errsz, "%s: out of memory",
					 s->name);
				return BR_ESYS;
			}
		} else if (strcmp(s->event, smp->event)) {
			s->mixed_events = true;
		}
	}
	/* Statistics saturate; the engines refuse sums that would wrap. */
	s->st.samples = sat_add(s->st.samples, smp->repeat);
	if (smp->has_brstack)
		s->st.brstack_samples = sat_add(s->st.brstack_samples,
						smp->repeat);
	s->st.entries = sat_add(s->st.entries,
				smp->nr > UINT64_MAX / (smp->repeat ? smp->repeat : 1) ?
				UINT64_MAX : smp->nr * smp->repeat);
	return 0;
}

int resolver_merge_event(struct resolver *dst, const struct resolver *src)
{
	dst->mixed_events |= src->mixed_events;
	dst->exact |= src->exact;
	if (!src->event)
		return 0;
	if (dst->event) {
		if (strcmp(dst->event, src->event))
			dst->mixed_events = true;
		return 0;
	}
	dst->event = strdup(src->event);
	return dst->event ? BR_OK : BR_ESYS;
}

bool resolver_wants(const struct resolver *s, const struct dso *d)
{
	size_t i;

	if (s->bin_dso)
		return d == s->bin_dso;
	if (!s->o.nr_dsos)
		return true;
	for (i = 0; i < s->o.nr_dsos; i++)
		if (!strcmp(s->o.dsos[i], d->short_name) ||
		    !strcmp(s->o.dsos[i], d->path))
			return true;
	return false;
}

void resolver_resolve(struct resolver *s, const struct ev_sample *smp,
		     uint64_t addr, struct resolver_addr *out)
{
	as_resolve(s->as, smp->pid, EV_CPU_UNKNOWN, addr, &out->r);
	out->ok = out->r.res == AS_OK && resolver_wants(s, out->r.dso);
}

static enum skip_reason res_reason(const struct resolver *s,
				   const struct as_resolved *r)
{
	switch (r->res) {
	case AS_OK:
		return resolver_wants(s, r->dso) ? SKIP_NR : SKIP_OTHER_DSO;
	case AS_ZERO:
		return SKIP_EMPTY;
	case AS_KERNEL:
		return SKIP_KERNEL;
	case AS_UNMAPPED:
		return SKIP_NO_MAPPING;
	case AS_NOT_FOUND:
		return SKIP_NOT_FOUND;
	case AS_MISMATCH:
		return SKIP_MISMATCH;
	case AS_UNUSABLE:
		return SKIP_UNUSABLE;
	case AS_FILTERED:
		return SKIP_OTHER_DSO;
	default:
		return SKIP_OUTSIDE;
	}
}

enum skip_reason resolver_block(struct resolver *s, const struct ev_branch *older,
			       const struct ev_branch *newer,
			       const struct resolver_addr *start,
			       const struct resolver_addr *end, uint64_t weight)
{
	enum skip_reason why = SKIP_NR;

	if (older->abort || newer->abort)
		why = SKIP_ABORT;
	else if (older->in_tx || newer->in_tx)
		why = SKIP_IN_TX;
	else if (!older->to || !newer->from)
		why = SKIP_EMPTY;
	else if (start->r.res == AS_OK && end->r.res == AS_OK &&
		 (start->r.dso != end->r.dso ||
		  start->r.map_id != end->r.map_id))
		why = SKIP_CROSS;
	else if ((why = res_reason(s, &start->r)) == SKIP_NR)
		why = res_reason(s, &end->r);
	if (why == SKIP_NR && start->r.vaddr > end->r.vaddr)
		why = SKIP_REVERSED;
	s->st.blocks = sat_add(s->st.blocks, weight);
	if (why == SKIP_NR)
		s->st.counted = sat_add(s->st.counted, weight);
	else
		s->st.skipped[why] = sat_add(s->st.skipped[why], weight);
	return why;
}
