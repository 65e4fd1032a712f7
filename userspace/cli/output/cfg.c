// SPDX-License-Identifier: GPL-2.0
/* Control-flow graph of a symbol.  See cfg.h for the rules. */
#define _GNU_SOURCE

#include "output/cfg.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "base/status.h"
#include "common/search.h"

const char *const cfg_edge_kind_names[] = {
	[CFG_TAKEN] = "taken",
	[CFG_CALL] = "call",
	[CFG_RETURN] = "return",
	[CFG_FALL] = "fallthrough",
	[CFG_AFTER_CALL] = "after_call",
};

void cfg_free(struct cfg *g)
{
	size_t i;

	for (i = 0; i < g->nr_exts; i++)
		free(g->exts[i].name);
	free(g->exts);
	free(g->insns);
	free(g->blocks);
	free(g->edges);
	memset(g, 0, sizeof(*g));
}

/* Index of the instruction starting at @addr, or -1 (binary search). */
static long insn_at(const struct cfg *g, uint64_t addr)
{
	size_t lo = br_count_lt(g->insns, g->nr_insns, sizeof(*g->insns),
				offsetof(struct cfg_insn, addr), addr);

	return lo < g->nr_insns && g->insns[lo].addr == addr ? (long)lo : -1;
}

long cfg_block_at(const struct cfg *g, uint64_t addr)
{
	size_t lo = br_count_le(g->blocks, g->nr_blocks, sizeof(*g->blocks),
				offsetof(struct cfg_block, end), addr);

	if (lo < g->nr_blocks && g->blocks[lo].start <= addr)
		return (long)lo;
	return -1;
}

/* The direct target in capstone's text: "ADDR" or "ADDR <sym+0xOFF>". */
static bool parse_target(const char *ops, uint64_t *t)
{
	char *e;

	if (!isxdigit((unsigned char)ops[0]))
		return false;
	*t = strtoull(ops, &e, 16);
	return *e == '\0' || *e == ' ';
}

static int decode(const struct annot_sym *p, struct annot_insn_text *tx,
		  struct cfg *g)
{
	const struct dso *d = p->ad->dso;
	uint64_t addr = p->start;
	size_t cap = 0;

	while (addr < p->end) {
		struct cfg_insn *in;
		unsigned size;

		if (br_grow_from((void **)&g->insns, &cap, g->nr_insns + 1,
				 sizeof(*g->insns), 64))
			return BR_ESYS;
		size = annot_insn_line(d, addr, tx, 0);
		in = &g->insns[g->nr_insns++];
		memset(in, 0, sizeof(*in));
		in->addr = addr;
		in->size = (uint8_t)size;
		in->kind = tx->insn.kind;
		if ((in->kind == EB_COND || in->kind == EB_JMP ||
		     in->kind == EB_CALL) && parse_target(tx->ops, &in->target))
			in->has_target = true;
		if (addr + size < addr)
			break;
		addr += size;
	}
	return 0;
}

static void mark_leader(const struct cfg *g, bool *leader, uint64_t addr)
{
	long i = insn_at(g, addr);

	if (i >= 0)
		leader[i] = true;
}

/* The range containing @addr into @rec, or NULL. */
static const struct blockrange_rec *range_at(const struct annot_sym *p,
					     uint64_t addr,
					     struct blockrange_rec *rec)
{
	return blockrange_rec_find(p->ad->ctx, addr, rec) ? rec : NULL;
}

static int make_blocks(const struct annot_sym *p, struct cfg *g,
		       const struct annot_branch *br, long nr_br)
{
	bool *leader = calloc(g->nr_insns ? g->nr_insns : 1, sizeof(*leader));
	size_t i, n = 0;
	long k;

	if (!leader)
		return BR_ESYS;
	if (g->nr_insns)
		leader[0] = true;
	for (i = 0; i < g->nr_insns; i++) {
		const struct cfg_insn *in = &g->insns[i];

		if (in->has_target)
			mark_leader(g, leader, in->target);
		if (eb_kind_branch(in->kind) && i + 1 < g->nr_insns)
			leader[i + 1] = true;
	}
	for (k = 0; k < nr_br; k++)
		if (br[k].to >= p->start && br[k].to < p->end)
			mark_leader(g, leader, br[k].to);
	for (i = 0; i < g->nr_insns; i++)
		n += leader[i];
	g->blocks = calloc(n ? n : 1, sizeof(*g->blocks));
	if (!g->blocks) {
		free(leader);
		return BR_ESYS;
	}
	for (i = 0; i < g->nr_insns; i++) {
		const struct cfg_insn *in = &g->insns[i];
		struct blockrange_rec rec;
		const struct blockrange_rec *r = range_at(p, in->addr, &rec);
		struct cfg_block *b;

		if (leader[i]) {
			b = &g->blocks[g->nr_blocks++];
			b->start = in->addr;
			b->first = i;
		}
		b = &g->blocks[g->nr_blocks - 1];
		b->nr_insns++;
		b->last = in->addr;
		b->end = in->addr + in->size;
		if (b->end < in->addr)
			b->end = UINT64_MAX;
		b->samples += pairmap_get(&p->ad->ips, in->addr, 0);
		if (b->nr_insns == 1 || (r && r->coverage > b->coverage)) {
			b->coverage = r ? r->coverage : 0;
			b->coverage_fig = annot_sym_coverage(p, r);
		}
	}
	for (i = 0; i < g->nr_blocks; i++)
		g->blocks[i].heat = annot_heat_of(g->blocks[i].coverage_fig);
	free(leader);
	return 0;
}

/* Append an edge; equal ones are merged later (merge_edges()). */
static struct cfg_edge *add_edge(struct cfg *g, size_t *cap,
				 enum cfg_edge_kind kind,
				 struct cfg_node_ref from,
				 struct cfg_node_ref to)
{
	struct cfg_edge *e;

	if (br_grow_from((void **)&g->edges, cap, g->nr_edges + 1,
			 sizeof(*g->edges), 32))
		return NULL;
	e = &g->edges[g->nr_edges++];
	memset(e, 0, sizeof(*e));
	e->kind = kind;
	e->from = from;
	e->to = to;
	return e;
}

static int cmp_ref(const struct cfg_node_ref *a, const struct cfg_node_ref *b)
{
	if (a->ext != b->ext)
		return a->ext ? 1 : -1;
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

/* By source, target, then kind. */
static int cmp_edge(const void *x, const void *y)
{
	const struct cfg_edge *a = x, *b = y;
	int c = cmp_ref(&a->from, &b->from);

	if (!c)
		c = cmp_ref(&a->to, &b->to);
	if (!c)
		c = (int)a->kind - (int)b->kind;
	return c;
}

/* One edge per (source, target, kind), with the sums of the counts. */
static void merge_edges(struct cfg *g)
{
	size_t i, n = 0;

	if (!g->nr_edges)
		return;
	qsort(g->edges, g->nr_edges, sizeof(*g->edges), cmp_edge);
	for (i = 1; i < g->nr_edges; i++) {
		struct cfg_edge *e = &g->edges[n];

		if (!cmp_edge(e, &g->edges[i])) {
			e->count += g->edges[i].count;
			e->mispredicted += g->edges[i].mispredicted;
		} else {
			g->edges[++n] = g->edges[i];
		}
	}
	g->nr_edges = n + 1;
}

/* The external node for @addr of the symbol's DSO, created if new. */
static long ext_node(struct cfg *g, size_t *cap, const struct annot_sym *p,
		     uint64_t addr)
{
	const struct dso *d = p->ad->dso;
	const char *name = "(no symbol)";
	size_t i;

	if (d->state == DSO_READY) {
		const struct eb_sym *s = eb_sym_at(&d->bin, addr);
		const struct eb_section *x = eb_xsec_at(&d->bin, addr);

		if (s)
			name = s->name;
		else if (x && x->name)
			name = x->name;	/* .plt, .plt.sec, ... */
	} else if (d->state == DSO_SYMS_ONLY) {
		const struct kallsym *k = dso_ksym_at(d, addr);

		if (k)
			name = k->name;
	}
	for (i = 0; i < g->nr_exts; i++)
		if (!strcmp(g->exts[i].name, name))
			return (long)i;
	if (br_grow((void **)&g->exts, cap, g->nr_exts + 1, sizeof(*g->exts)))
		return BR_ESYS;
	g->exts[g->nr_exts].name = strdup(name);
	g->exts[g->nr_exts].drawn = false;
	if (!g->exts[g->nr_exts].name)
		return BR_ESYS;
	return (long)g->nr_exts++;
}

/* Kind of the branch whose source instruction is at @from. */
static enum cfg_edge_kind branch_kind(const struct annot_sym *p,
				      const struct cfg *g, uint64_t from)
{
	long i = insn_at(g, from);
	struct eb_insn in;
	int k;

	if (i >= 0)
		k = g->insns[i].kind;
	else if (p->ad->dso->state == DSO_READY &&
		 !eb_decode(&p->ad->dso->bin, from, &in, NULL, 0, NULL, 0))
		k = in.kind;
	else
		k = EB_OTHER;
	if (k == EB_CALL)
		return CFG_CALL;
	if (k == EB_RET)
		return CFG_RETURN;
	return CFG_TAKEN;
}

static int make_edges(const struct annot_sym *p, struct cfg *g,
		      const struct annot_branch *br, long nr_br)
{
	size_t ecap = 0, xcap = 0, i;
	long k;

	for (k = 0; k < nr_br; k++) {
		bool in_from = br[k].from >= p->start && br[k].from < p->end;
		bool in_to = br[k].to >= p->start && br[k].to < p->end;
		struct cfg_node_ref f = { 0, false }, t = { 0, false };
		struct cfg_edge *e;
		long x;

		if (in_from) {
			x = cfg_block_at(g, br[k].from);
		} else {
			x = ext_node(g, &xcap, p, br[k].from);
			f.ext = true;
		}
		if (x < 0)
			return BR_ESYS;
		f.idx = (size_t)x;
		if (in_to) {
			x = cfg_block_at(g, br[k].to);
		} else {
			x = ext_node(g, &xcap, p, br[k].to);
			t.ext = true;
		}
		if (x < 0)
			return BR_ESYS;
		t.idx = (size_t)x;
		e = add_edge(g, &ecap, branch_kind(p, g, br[k].from), f, t);
		if (!e)
			return BR_ESYS;
		e->count += br[k].count;
		e->mispredicted += br[k].mispredicted;
	}
	/* Static edges: direct branches inside the symbol, fall-throughs. */
	for (i = 0; i < g->nr_blocks; i++) {
		const struct cfg_block *b = &g->blocks[i];
		const struct cfg_insn *last = &g->insns[b->first + b->nr_insns - 1];
		struct cfg_node_ref f = { i, false }, t = { i + 1, false };
		struct blockrange_rec rec;
		const struct blockrange_rec *r;
		struct cfg_edge *e;
		long x;

		if (last->has_target &&
		    (x = cfg_block_at(g, last->target)) >= 0 &&
		    g->blocks[x].start == last->target) {
			struct cfg_node_ref tt = { (size_t)x, false };

			if (!add_edge(g, &ecap, last->kind == EB_CALL ?
				      CFG_CALL : CFG_TAKEN, f, tt))
				return BR_ESYS;
		}
		if (i + 1 >= g->nr_blocks || last->kind == EB_JMP ||
		    last->kind == EB_JMP_IND || last->kind == EB_RET)
			continue;
		if (last->kind == EB_CALL) {
			if (!add_edge(g, &ecap, CFG_AFTER_CALL, f, t))
				return BR_ESYS;
			continue;
		}
		e = add_edge(g, &ecap, CFG_FALL, f, t);
		if (!e)
			return BR_ESYS;
		r = range_at(p, last->addr, &rec);
		if (r)
			e->count = r->coverage - (r->end == last->addr ?
						  r->taken : 0);
	}
	merge_edges(g);
	return 0;
}

/* Hottest first: coverage, samples, then address. */
static int cmp_hot(const void *x, const void *y, void *arg)
{
	const struct cfg_block *v = arg;
	const struct cfg_block *a = &v[*(const size_t *)x];
	const struct cfg_block *b = &v[*(const size_t *)y];

	if (a->coverage != b->coverage)
		return a->coverage > b->coverage ? -1 : 1;
	if (a->samples != b->samples)
		return a->samples > b->samples ? -1 : 1;
	return a->start < b->start ? -1 : a->start > b->start;
}

static int apply_cap(struct cfg *g, size_t max_blocks)
{
	size_t i, *order;

	for (i = 0; i < g->nr_blocks; i++)
		g->blocks[i].drawn = true;
	if (g->nr_blocks > max_blocks) {
		order = malloc(g->nr_blocks * sizeof(*order));
		if (!order)
			return BR_ESYS;
		for (i = 0; i < g->nr_blocks; i++)
			order[i] = i;
		qsort_r(order, g->nr_blocks, sizeof(*order), cmp_hot,
			g->blocks);
		for (i = max_blocks; i < g->nr_blocks; i++) {
			struct cfg_block *b = &g->blocks[order[i]];

			b->drawn = false;
			g->nr_hidden++;
			if (b->coverage > g->hidden_max_cov)
				g->hidden_max_cov = b->coverage;
		}
		free(order);
	}
	g->nr_drawn = g->nr_blocks - g->nr_hidden;
	for (i = 0; i < g->nr_edges; i++) {
		struct cfg_edge *e = &g->edges[i];
		bool f = e->from.ext || g->blocks[e->from.idx].drawn;
		bool t = e->to.ext || g->blocks[e->to.idx].drawn;

		e->drawn = f && t;
		if (!e->drawn)
			continue;
		if (e->from.ext)
			g->exts[e->from.idx].drawn = true;
		if (e->to.ext)
			g->exts[e->to.idx].drawn = true;
		if (e->kind != CFG_AFTER_CALL && e->count > g->max_count)
			g->max_count = e->count;
	}
	return 0;
}

int cfg_build(const struct annot_sym *p, size_t max_blocks,
	      struct annot_insn_text *tx, struct cfg *g)
{
	struct annot_branch *br = NULL;
	long nr_br;

	memset(g, 0, sizeof(*g));
	nr_br = annot_sym_branches(p, &br);
	if (nr_br < 0)
		return BR_ESYS;
	if (decode(p, tx, g) || make_blocks(p, g, br, nr_br) ||
	    make_edges(p, g, br, nr_br) || apply_cap(g, max_blocks)) {
		free(br);
		cfg_free(g);
		return BR_ESYS;
	}
	free(br);
	return 0;
}
