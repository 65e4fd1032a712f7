// SPDX-License-Identifier: GPL-2.0
/* The context-sensitive sample profile.  See csprofile.h. */
#define _GNU_SOURCE

#include "collect/csprofile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "base/status.h"
#include "common/search.h"
#include "resolve/spdwarf.h"

struct build {
	struct csp_profile *p;
	const struct eb_binary *bin;
	struct spd *d;
	bool fs;			/* flow-sensitive discriminators */
};

/* ---- the trie ---- */

static uint32_t child(struct csp_profile *p, uint32_t parent,
		      uint32_t line, uint32_t disc, const char *name)
{
	uint32_t c;
	struct csp_node *n;

	for (c = p->nodes[parent].child; c != CSP_NONE;
	     c = p->nodes[c].sibling)
		if (p->nodes[c].name == name && p->nodes[c].line == line &&
		    p->nodes[c].disc == disc)
			return c;
	if (p->nr >= CSP_NONE - 1 ||
	    br_grow_from((void **)&p->nodes, &p->cap, p->nr + 1,
			 sizeof(*p->nodes), 64))
		return CSP_NONE;
	n = &p->nodes[p->nr];
	*n = (struct csp_node){
		.name = name, .line = line, .disc = disc, .parent = parent,
		.child = CSP_NONE, .sibling = p->nodes[parent].child,
	};
	p->nodes[parent].child = (uint32_t)p->nr;
	return (uint32_t)p->nr++;
}

/* The profile of node @n, made if new; NULL: no memory. */
static struct sp_func *profile_of(struct csp_profile *p, uint32_t n)
{
	if (!p->nodes[n].f)
		p->nodes[n].f = sp_func_new(p->nodes[n].name);
	return p->nodes[n].f;
}

/* The node of context @c (its frames outermost first), made if new. */
static uint32_t context_node(struct csp_profile *p, const struct cs_context *c)
{
	uint32_t n = 0, line = 0, disc = 0;
	size_t i;

	for (i = 0; i < c->nr_frames && n != CSP_NONE; i++) {
		n = child(p, n, line, disc, c->frames[i].name);
		line = c->frames[i].line;
		disc = c->frames[i].disc;
	}
	return n;
}

/* ---- body samples ---- */

struct point {
	uint64_t addr;
	uint64_t begin;		/* counts of the ranges that begin here */
	uint64_t end;		/* ... and end here (inclusive) */
	bool has_begin;
	bool has_end;
};

static int cmp_point(const void *a, const void *b)
{
	const struct point *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* The leaf location of @addr: 1, 0 when it has no line, -1 no memory. */
static int leaf_loc(struct build *b, uint64_t addr, struct spd_frame *leaf)
{
	const struct spd_frame *fr;
	int n = spd_frames(b->d, addr, &fr);

	if (n > 0)
		*leaf = fr[n - 1];
	return n > 0 ? 1 : n;
}

/* Every code-set instruction in [@lo, @hi] with @count into @f. */
static int visit_piece(struct build *b, struct sp_func *f, uint64_t lo,
		       uint64_t hi, uint64_t count)
{
	const struct eb_binary *bin = b->bin;
	size_t i = br_count_lt(bin->code, bin->nr_code, sizeof(*bin->code),
			       offsetof(struct eb_insn, addr), lo);

	for (; i < bin->nr_code && bin->code[i].addr <= hi; i++) {
		struct spd_frame leaf;
		struct sp_body *body;
		uint32_t disc;
		uint64_t c;
		int k = leaf_loc(b, bin->code[i].addr, &leaf);

		if (k < 0)
			return BR_ENOMEM;
		if (!k)
			continue;
		disc = b->fs ? leaf.disc : sp_base_discriminator(leaf.disc);
		c = b->fs ? count : count * sp_duplication_factor(leaf.disc);
		body = sp_body_find(f, leaf.line, disc);
		if (!body || body->count <= c) {
			body = body ? body : sp_body_get(f, leaf.line, disc);
			if (!body)
				return BR_ENOMEM;
			body->count = c;
		}
		f->total += count;
	}
	return 0;
}

/*
 * The ranges of @pm cut into disjoint pieces at their boundaries, each
 * piece counted with the sum of the ranges over it (pieces of no range
 * have none and are left out).
 */
static int body_samples(struct build *b, struct sp_func *f,
			const struct pairmap *pm)
{
	struct point *pt = malloc((2 * pm->nr + 1) * sizeof(*pt));
	size_t i, n = 0, u = 0;
	uint64_t begin = UINT64_MAX, count = 0;
	bool open = false;
	int r = 0;

	if (!pt)
		return BR_ENOMEM;
	for (i = 0; i < pm->cap; i++) {
		const struct pairmap_slot *s = &pm->slots[i];

		if (!s->used)
			continue;
		pt[n++] = (struct point){ s->a, s->count, 0, true, false };
		pt[n++] = (struct point){ s->b, 0, s->count, false, true };
	}
	qsort(pt, n, sizeof(*pt), cmp_point);
	/* one point per address */
	for (i = 0; i < n; i++) {
		if (u && pt[u - 1].addr == pt[i].addr) {
			pt[u - 1].begin += pt[i].begin;
			pt[u - 1].end += pt[i].end;
			pt[u - 1].has_begin |= pt[i].has_begin;
			pt[u - 1].has_end |= pt[i].has_end;
		} else {
			pt[u++] = pt[i];
		}
	}
	for (i = 0; i < u && !r; i++) {
		if (pt[i].has_begin) {
			if (open && count)
				r = visit_piece(b, f, begin, pt[i].addr - 1,
						count);
			count += pt[i].begin;
			begin = pt[i].addr;
			open = true;
		}
		if (!r && pt[i].has_end) {
			if (count)
				r = visit_piece(b, f, begin, pt[i].addr, count);
			count -= pt[i].end;
			begin = pt[i].addr + 1;
			open = count != 0;
		}
	}
	free(pt);
	return r;
}

/* ---- call targets and head samples ---- */

/* The canonical name of the function whose entry starts at @addr, or NULL. */
static const char *callee_at(struct build *b, uint64_t addr)
{
	long r = spd_range_at(b->d, addr);

	return r >= 0 && spd_range_entry(b->d, r) ? spd_range_name(b->d, r) :
						    NULL;
}

/* A call of @callee from @src under node @node (the root: from outside). */
static int add_call(struct build *b, uint32_t node, uint64_t src,
		    const char *callee, uint64_t count)
{
	struct csp_profile *p = b->p;
	uint32_t line = 0, disc = 0, c;
	struct spd_frame leaf;
	struct sp_func *f;

	if (node) {
		int k = leaf_loc(b, src, &leaf);

		if (k < 0)
			return BR_ENOMEM;
		if (k) {
			uint32_t d = b->fs ? leaf.disc :
				     sp_base_discriminator(leaf.disc);
			struct sp_body *body = sp_body_get(p->nodes[node].f,
							   leaf.line, d);

			if (!body || sp_add_target(body, callee, count))
				return BR_ENOMEM;
			/* the call site keeps the encoded discriminator */
			line = leaf.line;
			disc = leaf.disc;
		}
	}
	c = child(p, node, line, disc, callee);
	if (c == CSP_NONE || !(f = profile_of(p, c)))
		return BR_ENOMEM;
	f->head += count;
	return 0;
}

static int boundary_samples(struct build *b, uint32_t node,
			    const struct pairmap *pm)
{
	size_t i;
	int r = 0;

	for (i = 0; i < pm->cap && !r; i++) {
		const struct pairmap_slot *s = &pm->slots[i];
		const char *callee = s->used ? callee_at(b, s->b) : NULL;

		if (callee)
			r = add_call(b, node, s->a, callee, s->count);
	}
	return r;
}

/* The first body sample's count (by line, discriminator), 0 if none. */
static uint64_t head_estimate(const struct sp_func *f)
{
	const struct sp_body *first = NULL;
	size_t i;

	for (i = 0; i < f->nr_body; i++) {
		const struct sp_body *x = &f->body[i];

		if (!first || x->line < first->line ||
		    (x->line == first->line && x->disc < first->disc))
			first = x;
	}
	return first ? first->count : 0;
}

/*
 * Calls into inlined code have no branch: a profile with no head samples
 * under a caller gives its caller an estimated call (children first).
 */
static int inferred(struct csp_profile *p, uint32_t n)
{
	struct csp_node *node;
	struct sp_func *caller;
	struct sp_body *body;
	uint32_t c;
	uint64_t est;
	int r;

	for (c = p->nodes[n].child; c != CSP_NONE; c = p->nodes[c].sibling) {
		r = inferred(p, c);
		if (r)
			return r;
	}
	node = &p->nodes[n];
	if (!n || !node->f || node->f->head || !node->parent)
		return 0;
	est = head_estimate(node->f);
	if (!est && !node->f->nr_body)
		est = 1;
	caller = profile_of(p, node->parent);
	node = &p->nodes[n];
	body = caller ? sp_body_get(caller, node->line, node->disc) : NULL;
	if (!body || sp_add_target(body, node->name, est))
		return BR_ENOMEM;
	body->count += est;
	caller->total += est;
	return 0;
}

/* ---- cold contexts ---- */

/* @src added into @dst: totals, head samples, body samples, call targets. */
static int merge_func(struct sp_func *dst, const struct sp_func *src)
{
	size_t i, k;

	dst->total += src->total;
	dst->head += src->head;
	for (i = 0; i < src->nr_body; i++) {
		const struct sp_body *s = &src->body[i];
		struct sp_body *d = sp_body_get(dst, s->line, s->disc);

		if (!d)
			return BR_ENOMEM;
		d->count += s->count;
		for (k = 0; k < s->nr_targets; k++)
			if (sp_add_target(d, s->targets[k].name,
					  s->targets[k].count))
				return BR_ENOMEM;
	}
	return 0;
}

static int cmp_desc(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x > y ? -1 : x < y;
}

/*
 * The hot count of the profile summary: the body samples of every
 * function, its contexts merged, sorted by count; the smallest count
 * among the largest that make 99 % of the sum (all of one count taken
 * together).  0 with *@oom on no memory.
 */
static uint64_t hot_count(const struct csp_profile *p, bool *oom)
{
	struct pairmap sums = { 0 };	/* (name, line << 32 | disc) -> sum */
	uint64_t *v = NULL, total = 0, want, sum = 0, count = 0;
	size_t i, k, n = 0;

	*oom = false;
	for (i = 1; i < p->nr && !*oom; i++) {
		const struct sp_func *f = p->nodes[i].f;

		for (k = 0; f && k < f->nr_body && !*oom; k++)
			*oom = pairmap_add(&sums, (uintptr_t)f->name,
					   (uint64_t)f->body[k].line << 32 |
					   f->body[k].disc,
					   f->body[k].count) != 0;
	}
	v = *oom ? NULL : malloc((sums.nr + 1) * sizeof(*v));
	if (!v) {
		*oom = true;
		pairmap_free(&sums);
		return 0;
	}
	for (i = 0; i < sums.cap; i++)
		if (sums.slots[i].used) {
			v[n++] = sums.slots[i].count;
			total += sums.slots[i].count;
		}
	pairmap_free(&sums);
	qsort(v, n, sizeof(*v), cmp_desc);
	want = (uint64_t)((unsigned __int128)total * 990000 / 1000000);
	for (i = 0; sum < want && i < n;) {
		count = v[i];
		for (; i < n && v[i] == count; i++)
			sum += count;
	}
	free(v);
	return count;
}

/*
 * Contexts whose total is below the hot count are merged into their
 * function's context-free profile ("[leaf]"), which loses its
 * attributes (llvm-profgen's cold-context merging, on by default without
 * its pre-inliner).
 */
static int merge_cold(struct csp_profile *p)
{
	bool oom;
	uint64_t hot = hot_count(p, &oom);
	struct sp_func **merged = NULL;
	size_t i, n = p->nr;
	int r = 0;

	if (oom)
		return BR_ENOMEM;
	if (!hot)
		return 0;
	/* merged[i]: what the cold contexts of node i's function give */
	merged = calloc(n, sizeof(*merged));
	if (!merged)
		return BR_ENOMEM;
	for (i = 1; i < n && !r; i++) {
		struct csp_node *c = &p->nodes[i];
		uint32_t base;

		if (!c->f || c->f->total >= hot)
			continue;
		base = child(p, 0, 0, 0, c->name);
		if (base == CSP_NONE)
			return BR_ENOMEM;
		if (base >= n) {
			/* a new base node: no merged slot yet */
			struct sp_func **m = realloc(merged, p->nr *
						     sizeof(*merged));

			if (!m) {
				r = BR_ENOMEM;
				break;
			}
			merged = m;
			merged[base] = NULL;
			n = p->nr;
		}
		c = &p->nodes[i];
		if (!merged[base] && !(merged[base] = sp_func_new(c->name)))
			r = BR_ENOMEM;
		if (!r)
			r = merge_func(merged[base], c->f);
		sp_func_free(c->f);
		c->f = NULL;
	}
	for (i = 1; i < n; i++) {
		struct csp_node *b = &p->nodes[i];

		if (!merged[i])
			continue;
		if (!r && b->f) {
			r = merge_func(b->f, merged[i]);
			sp_func_free(merged[i]);
		} else if (!r) {
			b->f = merged[i];
			b->leaf_inlined = false;
		} else {
			sp_func_free(merged[i]);
		}
	}
	free(merged);
	return r;
}

/* ---- the profile ---- */

static int build(struct build *b, const struct csprof *cs, bool merge)
{
	struct csp_profile *p = b->p;
	size_t i;
	int r = 0;

	if (br_grow_from((void **)&p->nodes, &p->cap, 1, sizeof(*p->nodes),
			 64))
		return BR_ENOMEM;
	memset(&p->nodes[0], 0, sizeof(p->nodes[0]));
	p->nodes[0].child = CSP_NONE;
	p->nodes[0].sibling = CSP_NONE;
	p->nr = 1;
	for (i = 0; i < cs->nr && !r; i++) {
		const struct cs_context *c = &cs->ctx[i];
		uint32_t n = 0;

		if (c->nr_frames) {
			n = context_node(p, c);
			if (n == CSP_NONE || !profile_of(p, n))
				return BR_ENOMEM;
			p->nodes[n].leaf_inlined |= c->leaf_inlined;
			r = body_samples(b, p->nodes[n].f, &c->ranges);
		}
		if (!r)
			r = boundary_samples(b, n, &c->branches);
	}
	if (!r)
		r = inferred(p, 0);
	for (i = 1; !r && i < p->nr; i++)
		if (p->nodes[i].f)
			sp_raise_to_targets(p->nodes[i].f);
	return r || !merge ? r : merge_cold(p);
}

int csp_build(struct csp_profile *out, const struct csprof *cs,
	      const struct eb_binary *bin, const char *dwarf_path,
	      bool merge_cold_contexts, char *err, size_t errsz)
{
	struct build b = { .p = out, .bin = bin };
	bool oom = false;
	int r;

	memset(out, 0, sizeof(*out));
	b.d = spd_open(dwarf_path, bin->sym_path ? bin->sym_path : bin->path,
		       bin->text_base, cs->names, err, errsz, &oom);
	if (!b.d) {
		if (oom)
			snprintf(err, errsz, "out of memory");
		return oom ? BR_ENOMEM : BR_EINPUT;
	}
	b.fs = spd_fs_discriminators(b.d);
	r = build(&b, cs, merge_cold_contexts);
	spd_close(b.d);
	if (r) {
		snprintf(err, errsz, "out of memory");
		csp_free(out);
	}
	return r;
}

/* ---- order ---- */

/* A profiled node and its context: the nodes from the root's child down. */
struct ordered {
	const struct csp_node *n;
	const struct csp_node **path;
	size_t depth;
};

static int cmp_ordered(const void *x, const void *y)
{
	const struct ordered *a = x, *b = y;
	size_t i;

	if (a->n->f->total != b->n->f->total)
		return a->n->f->total > b->n->f->total ? -1 : 1;
	/* frame i: node i's name, then node i + 1's call site (0 at the leaf) */
	for (i = 0; i < a->depth && i < b->depth; i++) {
		const struct csp_node *na = i + 1 < a->depth ? a->path[i + 1] : NULL;
		const struct csp_node *nb = i + 1 < b->depth ? b->path[i + 1] : NULL;
		uint32_t la = na ? na->line : 0, lb = nb ? nb->line : 0;
		uint32_t da = na ? na->disc : 0, db = nb ? nb->disc : 0;
		int c = strcmp(a->path[i]->name, b->path[i]->name);

		if (c)
			return c;
		if (la != lb)
			return la < lb ? -1 : 1;
		if (da != db)
			return da < db ? -1 : 1;
	}
	return a->depth < b->depth ? -1 : a->depth > b->depth;
}

/* The context of @o->n into @o->path: 0 or BR_ENOMEM. */
static int make_path(const struct csp_profile *p, struct ordered *o)
{
	const struct csp_node *n;
	size_t k;

	o->depth = 0;
	for (n = o->n; n != p->nodes; n = &p->nodes[n->parent])
		o->depth++;
	o->path = malloc(o->depth * sizeof(*o->path));
	if (!o->path)
		return BR_ENOMEM;
	for (n = o->n, k = o->depth; k > 0; n = &p->nodes[n->parent])
		o->path[--k] = n;
	return 0;
}

const struct csp_node **csp_sorted(const struct csp_profile *p, size_t *nr)
{
	struct ordered *o = malloc((p->nr + 1) * sizeof(*o));
	const struct csp_node **v = malloc((p->nr + 1) * sizeof(*v));
	size_t i, n = 0;
	bool oom = !o || !v;

	for (i = 1; !oom && i < p->nr; i++) {
		if (!p->nodes[i].f || sp_ambiguous(p->nodes[i].name))
			continue;
		o[n].n = &p->nodes[i];
		oom = make_path(p, &o[n]) != 0;
		n += !oom;
	}
	if (!oom)
		qsort(o, n, sizeof(*o), cmp_ordered);
	for (i = 0; i < n; i++) {
		if (v)
			v[i] = o[i].n;
		free(o[i].path);
	}
	free(o);
	if (oom) {
		free(v);
		return NULL;
	}
	*nr = n;
	return v;
}

void csp_free(struct csp_profile *p)
{
	size_t i;

	for (i = 0; i < p->nr; i++)
		sp_func_free(p->nodes[i].f);
	free(p->nodes);
	memset(p, 0, sizeof(*p));
}
