// SPDX-License-Identifier: GPL-2.0
/* LLVM sample profiles from llvm-profgen's raw profile.  See sampleprof.h. */
#define _GNU_SOURCE

#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "base/status.h"
#include "collect/sampleprof.h"
#include "resolve/spdwarf.h"

/* ---- discriminators (LLVM's encoding) ---- */

/* LLVM's prefix-encoded discriminator component. */
static uint32_t prefix_decode(uint32_t u)
{
	if (u & 1)
		return 0;
	u >>= 1;
	if (u & 0x20)
		return ((u >> 1) & 0xfe0) | (u & 0x1f);
	return u & 0x1f;
}

static uint32_t next_component(uint32_t d)
{
	if (!(d & 1))
		return d >> ((d & 0x40) ? 14 : 7);
	return d >> 1;
}

uint32_t sp_base_discriminator(uint32_t d)
{
	/* A pseudo-probe discriminator (low 3 bits set). */
	if ((d & 7) == 7) {
		if (d & 0x10000000)
			return (d >> 16) & 7;
		return (d >> 3) & 0xffff;
	}
	return prefix_decode(d);
}

uint32_t sp_duplication_factor(uint32_t d)
{
	uint32_t r = prefix_decode(next_component(d));

	return r ? r : 1;
}

/* ---- the model ---- */

static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a + b < a ? UINT64_MAX : a + b;
}

void sp_func_free(struct sp_func *f)
{
	size_t i;

	if (!f)
		return;
	for (i = 0; i < f->nr_body; i++)
		free(f->body[i].targets);
	for (i = 0; i < f->nr_calls; i++)
		sp_func_free(f->calls[i].callee);
	free(f->body);
	pairmap_free(&f->body_idx);
	free(f->calls);
	free(f);
}

/* The body sample at (line, disc), made with count 0 if new. */
struct sp_body *sp_body_get(struct sp_func *f, uint32_t line, uint32_t disc)
{
	uint64_t *slot = pairmap_ref(&f->body_idx, line, disc);

	if (!slot)
		return NULL;
	if (*slot)
		return &f->body[*slot - 1];
	if (br_grow((void **)&f->body, &f->cap_body, f->nr_body + 1,
		 sizeof(*f->body))) {
		*slot = 0;
		return NULL;
	}
	memset(&f->body[f->nr_body], 0, sizeof(*f->body));
	f->body[f->nr_body].line = line;
	f->body[f->nr_body].disc = disc;
	*slot = f->nr_body + 1;
	return &f->body[f->nr_body++];
}

struct sp_body *sp_body_find(const struct sp_func *f, uint32_t line,
			     uint32_t disc)
{
	uint64_t i = pairmap_get(&f->body_idx, line, disc);

	return i ? &f->body[i - 1] : NULL;
}

int sp_add_target(struct sp_body *b, const char *name, uint64_t count)
{
	size_t i;

	for (i = 0; i < b->nr_targets; i++)
		if (b->targets[i].name == name) {
			b->targets[i].count = sat_add(b->targets[i].count,
						      count);
			return 0;
		}
	if (br_grow((void **)&b->targets, &b->cap_targets, b->nr_targets + 1,
		 sizeof(*b->targets)))
		return BR_ESYS;
	b->targets[b->nr_targets].name = name;
	b->targets[b->nr_targets].count = count;
	b->nr_targets++;
	return 0;
}

struct sp_func *sp_func_new(const char *name)
{
	struct sp_func *f = calloc(1, sizeof(*f));

	if (f)
		f->name = name;
	return f;
}

/* The inlined instance of @name at (line, disc) of @f, made if new. */
static struct sp_func *callsite_get(struct sp_func *f, uint32_t line,
				    uint32_t disc, const char *name)
{
	size_t i;

	for (i = 0; i < f->nr_calls; i++)
		if (f->calls[i].line == line && f->calls[i].disc == disc &&
		    f->calls[i].callee->name == name)
			return f->calls[i].callee;
	if (br_grow((void **)&f->calls, &f->cap_calls, f->nr_calls + 1,
		 sizeof(*f->calls)))
		return NULL;
	f->calls[f->nr_calls].line = line;
	f->calls[f->nr_calls].disc = disc;
	f->calls[f->nr_calls].callee = sp_func_new(name);
	if (!f->calls[f->nr_calls].callee)
		return NULL;
	return f->calls[f->nr_calls++].callee;
}

/* The top-level profile of @name, made if new. */
static struct sp_func *top_get(struct sp_profile *p, const char *name)
{
	uint64_t *slot = pairmap_ref(&p->func_idx, (uintptr_t)name, 0);

	if (!slot)
		return NULL;
	if (*slot)
		return p->funcs[*slot - 1];
	if (br_grow((void **)&p->funcs, &p->cap_funcs, p->nr_funcs + 1,
		 sizeof(*p->funcs)))
		goto nomem;
	p->funcs[p->nr_funcs] = sp_func_new(name);
	if (!p->funcs[p->nr_funcs])
		goto nomem;
	*slot = p->nr_funcs + 1;
	return p->funcs[p->nr_funcs++];
nomem:
	*slot = 0;
	return NULL;
}

void sp_free(struct sp_profile *p)
{
	size_t i;

	for (i = 0; i < p->nr_funcs; i++)
		sp_func_free(p->funcs[i]);
	free(p->funcs);
	pairmap_free(&p->func_idx);
	free(p->st.no_line_names);
	sp_names_free(p->names);
	memset(p, 0, sizeof(*p));
}

/* ---- the builder ---- */

struct build {
	struct sp_profile *p;
	const struct eb_binary *bin;
	struct spd *d;
	struct no_line {
		const struct eb_sym *sym;
		uint64_t samples;
	} *no_line;			/* symbols without line info */
	size_t nr_no_line, cap_no_line;
};

/*
 * llvm-profgen's getLeafProfileAndAddTotalSamples: the profile of the
 * innermost frame, every frame's total raised by @add.
 */
static struct sp_func *leaf_of(struct build *b, const struct spd_frame *fr,
			       size_t n, uint64_t add)
{
	struct sp_func *f = top_get(b->p, fr[0].name);
	size_t i;

	if (!f)
		return NULL;
	f->total = sat_add(f->total, add);
	for (i = 1; i < n; i++) {
		f = callsite_get(f, fr[i - 1].line,
				 sp_base_discriminator(fr[i - 1].disc),
				 fr[i].name);
		if (!f)
			return NULL;
		f->total = sat_add(f->total, add);
	}
	return f;
}

static int note_no_line(struct build *b, uint64_t addr, uint64_t samples)
{
	const struct eb_sym *s = eb_sym_at(b->bin, addr);
	size_t i;

	b->p->st.insns_no_line++;
	b->p->st.samples_no_line = sat_add(b->p->st.samples_no_line, samples);
	if (!s || !samples)
		return 0;
	for (i = 0; i < b->nr_no_line; i++)
		if (b->no_line[i].sym == s) {
			b->no_line[i].samples =
				sat_add(b->no_line[i].samples, samples);
			return 0;
		}
	if (br_grow((void **)&b->no_line, &b->cap_no_line, b->nr_no_line + 1,
		 sizeof(*b->no_line)))
		return BR_ESYS;
	b->no_line[b->nr_no_line].sym = s;
	b->no_line[b->nr_no_line++].samples = samples;
	return 0;
}

static int visit(struct build *b, const struct eb_insn *in, uint64_t count)
{
	const struct spd_frame *fr;
	int n = spd_frames(b->d, in->addr, &fr);
	struct sp_func *f;
	struct sp_body *body;
	uint32_t disc;
	uint64_t c;

	if (n < 0)
		return BR_ESYS;
	b->p->st.insns++;
	if (!n)
		return note_no_line(b, in->addr, count * in->size);
	/* Totals per byte: llvm-profgen's workaround, kept. */
	f = leaf_of(b, fr, (size_t)n, count * in->size);
	if (!f)
		return BR_ESYS;
	disc = b->p->fs_discriminators ? fr[n - 1].disc :
	       sp_base_discriminator(fr[n - 1].disc);
	c = b->p->fs_discriminators ? count :
	    count * sp_duplication_factor(fr[n - 1].disc);
	body = sp_body_find(f, fr[n - 1].line, disc);
	if (!body || body->count <= c) {
		body = body ? body : sp_body_get(f, fr[n - 1].line, disc);
		if (!body)
			return BR_ESYS;
		body->count = c;
	}
	return 0;
}

struct rng {
	uint64_t lo;
	uint64_t hi;		/* inclusive */
	uint64_t count;
};

static int cmp_rng(const void *a, const void *b)
{
	const struct rng *x = a, *y = b;

	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	return x->hi < y->hi ? -1 : x->hi > y->hi;
}

struct point {
	uint64_t addr;
	uint64_t count;
	bool end;
	bool zero;
};

static int cmp_point(const void *a, const void *b)
{
	const struct point *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Visit the code-set instructions starting in [lo, hi] with @count. */
static int visit_range(struct build *b, uint64_t lo, uint64_t hi,
		       uint64_t count)
{
	size_t l = 0, h = b->bin->nr_code;

	while (l < h) {
		size_t m = l + (h - l) / 2;

		if (b->bin->code[m].addr < lo)
			l = m + 1;
		else
			h = m;
	}
	for (; l < b->bin->nr_code && b->bin->code[l].addr <= hi; l++)
		if (visit(b, &b->bin->code[l], count))
			return BR_ESYS;
	return 0;
}

/*
 * llvm-profgen's preprocessRangeCounter and findDisjointRanges: the ranges
 * plus a zero range over each DWARF range of the function every range
 * starts in, cut at their boundaries; each piece is visited with the sum
 * of the counts of the ranges over it.
 */
static int body_samples(struct build *b, const struct profile *prof)
{
	struct pairmap_slot *raw = pairmap_sorted(&prof->ranges);
	struct rng *r = NULL;
	struct point *pt = NULL;
	size_t nr = 0, cap = 0, i, u, npt;
	uint64_t begin = UINT64_MAX, count = 0;
	int depth = 0, ret = -1;

	if (!raw)
		return BR_ESYS;
	for (i = 0; i < prof->ranges.nr; i++) {
		long fr = spd_find_range(b->d, raw[i].a);
		const struct spd_range *fn = NULL;
		size_t k, nfn = 0;

		if (br_grow((void **)&r, &cap, nr + 1, sizeof(*r)))
			goto out;
		r[nr].lo = raw[i].a;
		r[nr].hi = raw[i].b;
		r[nr].count = raw[i].count;
		nr++;
		if (fr >= 0)
			spd_range_func(b->d, fr, &fn, &nfn);
		for (k = 0; k < nfn; k++) {
			if (br_grow((void **)&r, &cap, nr + 1, sizeof(*r)))
				goto out;
			r[nr].lo = fn[k].lo;
			r[nr].hi = fn[k].hi - 1;
			r[nr].count = 0;
			nr++;
		}
	}
	if (nr > 1)
		qsort(r, nr, sizeof(*r), cmp_rng);
	for (i = 0, u = 0; i < nr; i++) {
		if (u && r[u - 1].lo == r[i].lo && r[u - 1].hi == r[i].hi) {
			r[u - 1].count = sat_add(r[u - 1].count, r[i].count);
			continue;
		}
		r[u++] = r[i];
	}
	nr = u;
	pt = malloc((2 * nr + 1) * sizeof(*pt));
	if (!pt)
		goto out;
	for (i = 0, npt = 0; i < nr; i++) {
		pt[npt++] = (struct point){ r[i].lo, r[i].count, false,
					    !r[i].count };
		pt[npt++] = (struct point){ r[i].hi, r[i].count, true,
					    !r[i].count };
	}
	qsort(pt, npt, sizeof(*pt), cmp_point);
	for (i = 0; i < npt;) {
		uint64_t addr = pt[i].addr, bc = 0, ec = 0;
		bool hb = false, he = false, zb = false, ze = false;

		for (; i < npt && pt[i].addr == addr; i++) {
			if (pt[i].end) {
				he = true;
				ec += pt[i].count;
				ze |= pt[i].zero;
			} else {
				hb = true;
				bc += pt[i].count;
				zb |= pt[i].zero;
			}
		}
		if (hb) {
			if (begin != UINT64_MAX && addr &&
			    visit_range(b, begin, addr - 1, count))
				goto out;
			count += bc;
			begin = addr;
			depth += zb;
		}
		if (he) {
			if (visit_range(b, begin, addr, count))
				goto out;
			count -= ec;
			begin = addr + 1;
			depth -= ze;
			if (!count && !depth)
				begin = UINT64_MAX;
		}
	}
	ret = 0;
out:
	free(raw);
	free(r);
	free(pt);
	return ret;
}

/* Branches to a function's entry: call targets and head samples. */
static int boundary_samples(struct build *b, const struct profile *prof)
{
	struct pairmap_slot *br = pairmap_sorted(&prof->branches);
	size_t i;
	int ret = -1;

	if (!br)
		return BR_ESYS;
	for (i = 0; i < prof->branches.nr; i++) {
		long fr = spd_range_at(b->d, br[i].b);
		const struct spd_frame *frames;
		const char *callee;
		struct sp_func *f;
		int n;

		if (fr < 0 || !spd_range_entry(b->d, fr))
			continue;
		callee = spd_range_name(b->d, fr);
		n = spd_frames(b->d, br[i].a, &frames);
		if (n < 0)
			goto out;
		if (n) {
			struct sp_body *body;
			uint32_t disc = b->p->fs_discriminators ?
					frames[n - 1].disc :
					sp_base_discriminator(frames[n - 1].disc);

			f = leaf_of(b, frames, (size_t)n, 0);
			if (!f)
				goto out;
			body = sp_body_get(f, frames[n - 1].line, disc);
			if (!body || sp_add_target(body, callee, br[i].count))
				goto out;
		}
		f = top_get(b->p, callee);
		if (!f)
			goto out;
		f->head = sat_add(f->head, br[i].count);
		b->p->st.branches_to_entries =
			sat_add(b->p->st.branches_to_entries, br[i].count);
	}
	ret = 0;
out:
	free(br);
	return ret;
}

/* A body sample is at least the sum of its call targets (top level). */
void sp_raise_to_targets(struct sp_func *f)
{
	size_t i, k;

	for (i = 0; i < f->nr_body; i++) {
		uint64_t sum = 0;

		for (k = 0; k < f->body[i].nr_targets; k++)
			sum = sat_add(sum, f->body[i].targets[k].count);
		if (sum > f->body[i].count)
			f->body[i].count = sum;
	}
}

/* llvm-profgen drops these (several local copies under one name). */
bool sp_ambiguous(const char *name)
{
	return !strncmp(name, "__cxx_global_var_init",
			strlen("__cxx_global_var_init")) ||
	       !strncmp(name, "__tls_init", strlen("__tls_init"));
}

static void drop_ambiguous_inlinees(struct sp_func *f)
{
	size_t i, u = 0;

	for (i = 0; i < f->nr_calls; i++) {
		if (sp_ambiguous(f->calls[i].callee->name)) {
			sp_func_free(f->calls[i].callee);
			continue;
		}
		drop_ambiguous_inlinees(f->calls[i].callee);
		f->calls[u++] = f->calls[i];
	}
	f->nr_calls = u;
}

static int drop_ambiguous(struct sp_profile *p)
{
	size_t i, u = 0;

	for (i = 0; i < p->nr_funcs; i++) {
		if (sp_ambiguous(p->funcs[i]->name)) {
			sp_func_free(p->funcs[i]);
			continue;
		}
		drop_ambiguous_inlinees(p->funcs[i]);
		p->funcs[u++] = p->funcs[i];
	}
	if (u == p->nr_funcs)
		return 0;
	p->nr_funcs = u;
	/* Rebuild the name index. */
	pairmap_free(&p->func_idx);
	for (i = 0; i < u; i++) {
		uint64_t *slot = pairmap_ref(&p->func_idx,
					     (uintptr_t)p->funcs[i]->name, 0);

		if (!slot)
			return BR_ESYS;
		*slot = i + 1;
	}
	return 0;
}

static int cmp_no_line(const void *a, const void *b)
{
	const struct no_line *x = a, *y = b;

	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	return strcmp(x->sym->name, y->sym->name);
}

/* The hottest few functions without line info, for the summary line. */
static int name_list(struct build *b)
{
	size_t i, len = 0, shown = b->nr_no_line < 5 ? b->nr_no_line : 5;
	char *s;

	b->p->st.funcs_no_line = b->nr_no_line;
	if (!shown)
		return 0;
	qsort(b->no_line, b->nr_no_line, sizeof(*b->no_line), cmp_no_line);
	for (i = 0; i < shown; i++)
		len += strlen(b->no_line[i].sym->name) + 2;
	s = malloc(len + 8);
	if (!s)
		return BR_ESYS;
	s[0] = '\0';
	for (i = 0; i < shown; i++) {
		if (i)
			strcat(s, ", ");
		strcat(s, b->no_line[i].sym->name);
	}
	if (b->nr_no_line > shown)
		strcat(s, ", ...");
	b->p->st.no_line_names = s;
	return 0;
}

/* The message of a DWARF file that cannot be used, with what to do. */
static int no_dwarf(char *err, size_t errsz)
{
	size_t n = strlen(err);

	snprintf(err + n, errsz > n ? errsz - n : 0,
		 "; rebuild it with -g (clang: -g -fdebug-info-for-profiling) or give its debug file (--debug-file FILE, --debug-file-directory DIR, --symfs DIR)");
	return BR_EINPUT;
}

int sp_build(struct sp_profile *out, const struct profile *prof,
	     const struct eb_binary *bin, const char *dwarf_path,
	     char *err, size_t errsz)
{
	struct build b = { .p = out, .bin = bin };
	bool oom;
	int r = BR_ESYS;

	memset(out, 0, sizeof(*out));
	out->names = sp_names_new();
	if (!out->names) {
		snprintf(err, errsz, "out of memory");
		return BR_ESYS;
	}
	b.d = spd_open(dwarf_path, bin->sym_path ? bin->sym_path : bin->path,
		       bin->text_base, out->names, err, errsz, &oom);
	if (!b.d) {
		sp_free(out);
		if (oom)
			snprintf(err, errsz, "out of memory");
		return oom ? BR_ESYS : no_dwarf(err, errsz);
	}
	out->fs_discriminators = spd_fs_discriminators(b.d);
	if (body_samples(&b, prof) || boundary_samples(&b, prof))
		goto out;
	if (spd_line_error(b.d)) {
		snprintf(err, errsz, "%s: %s (libdw reads discriminators of up to 24 bits: build without -fpseudo-probe-for-profiling and flow-sensitive discriminators)",
			 dwarf_path, spd_line_error(b.d));
		r = BR_EINPUT;
		goto fail;
	}
	for (size_t i = 0; i < out->nr_funcs; i++)
		sp_raise_to_targets(out->funcs[i]);
	if (drop_ambiguous(out) || name_list(&b))
		goto out;
	r = 0;
out:
	if (r)
		snprintf(err, errsz, "out of memory");
fail:
	if (r)
		sp_free(out);
	free(b.no_line);
	spd_close(b.d);
	return r;
}

/* ---- order and counts ---- */

static int cmp_top(const void *a, const void *b)
{
	const struct sp_func *x = *(struct sp_func *const *)a;
	const struct sp_func *y = *(struct sp_func *const *)b;

	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	return strcmp(x->name, y->name);
}

struct sp_func **sp_sorted(const struct sp_profile *p)
{
	struct sp_func **v = malloc((p->nr_funcs + 1) * sizeof(*v));

	if (!v)
		return NULL;
	if (p->nr_funcs)
		memcpy(v, p->funcs, p->nr_funcs * sizeof(*v));
	qsort(v, p->nr_funcs, sizeof(*v), cmp_top);
	return v;
}

static size_t count_inlined(const struct sp_func *f)
{
	size_t i, n = 0;

	for (i = 0; i < f->nr_calls; i++)
		n += 1 + count_inlined(f->calls[i].callee);
	return n;
}

size_t sp_nr_inlined(const struct sp_profile *p)
{
	size_t i, n = 0;

	for (i = 0; i < p->nr_funcs; i++)
		n += count_inlined(p->funcs[i]);
	return n;
}
