// SPDX-License-Identifier: GPL-2.0
/*
 * The context-sensitive raw profile: hybrid samples unwound on a trie of
 * frames, counted by calling context.  See unwind.h.
 */
#define _GNU_SOURCE

#include "collect/unwind.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "base/status.h"
#include "collect/profile.h"
#include "collect/sampleprof.h"
#include "common/search.h"
#include "resolve/spdwarf.h"

#define NONE UINT32_MAX
#define ROOT 0		/* the trie's root: no frame (address 0) */

/* A frame of the trie: an address under its caller's frame. */
struct node {
	uint64_t addr;
	uint32_t parent;
	uint32_t child;		/* first callee frame */
	uint32_t sibling;	/* next frame of the same caller */
	uint32_t recs;		/* first count of this frame */
};

/* A range or a branch counted in a frame. */
struct rec {
	uint64_t a;
	uint64_t b;
	uint32_t next;
	bool branch;
};

/* The state of one build. */
struct uw {
	const struct eb_binary *bin;
	struct spd *d;
	struct sp_names *names;
	bool fs;			/* flow-sensitive discriminators */
	uint64_t *prologue;		/* sorted, unique */
	size_t nr_prologue;
	struct node *nodes;
	size_t nr_nodes, cap_nodes;
	struct rec *recs;
	size_t nr_recs, cap_recs;
	uint64_t *path;			/* a context's frame addresses */
	size_t cap_path;
	struct spd_frame *fr;		/* their inline frames */
	size_t cap_fr;
	char *key;
	size_t cap_key;
	size_t key_frames;		/* the key's frames, at fr */
	bool leaf_inlined;
	struct csprof *out;
	/* one sample's walk */
	uint32_t leaf;
	uint64_t ip;
	size_t ip_idx;			/* code-set index of ip (or of the
					 * first instruction after it) */
	bool invalid;
};

/* ---- the code set ---- */

static size_t code_index(const struct eb_binary *bin, uint64_t addr)
{
	return br_count_lt(bin->code, bin->nr_code, sizeof(*bin->code),
			   offsetof(struct eb_insn, addr), addr);
}

static bool code_kind(const struct eb_binary *bin, uint64_t addr,
		      enum eb_kind kind)
{
	long i = eb_code_index(bin, addr);

	return i >= 0 && bin->code[i].kind == kind;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * The prologue and epilogue addresses: the first two code-set
 * instructions from each function range's start (the start itself, then
 * the instruction after the first one at or after it), every return and
 * the instruction before it.  As llvm-profgen, the walk over the starts
 * stops at one that has no next instruction.
 */
static int prologues(struct uw *u)
{
	const struct eb_binary *bin = u->bin;
	size_t i, n = 0, cap = 0, nr = spd_nr_ranges(u->d);
	uint64_t *v = NULL;

	for (i = 0; i < nr; i++) {
		uint64_t lo = spd_range_start(u->d, (long)i);
		size_t k = code_index(bin, lo);

		if (br_grow((void **)&v, &cap, n + 2, sizeof(*v)))
			goto oom;
		v[n++] = lo;
		if (k + 1 >= bin->nr_code)
			break;
		v[n++] = bin->code[k + 1].addr;
	}
	for (i = 0; i < bin->nr_code; i++) {
		if (bin->code[i].kind != EB_RET)
			continue;
		if (br_grow((void **)&v, &cap, n + 2, sizeof(*v)))
			goto oom;
		v[n++] = bin->code[i].addr;
		if (i)
			v[n++] = bin->code[i - 1].addr;
	}
	if (n)
		qsort(v, n, sizeof(*v), cmp_u64);
	u->prologue = v;
	u->nr_prologue = n;
	return 0;
oom:
	free(v);
	return BR_ENOMEM;
}

static bool in_prologue(const struct uw *u, uint64_t addr)
{
	size_t i = br_count_lt(u->prologue, u->nr_prologue, sizeof(uint64_t),
			       0, addr);

	return i < u->nr_prologue && u->prologue[i] == addr;
}

/* ---- the trie ---- */

static uint32_t child(struct uw *u, uint32_t parent, uint64_t addr)
{
	uint32_t c;
	struct node *n;

	for (c = u->nodes[parent].child; c != NONE; c = u->nodes[c].sibling)
		if (u->nodes[c].addr == addr)
			return c;
	if (u->nr_nodes >= NONE - 1 ||
	    br_grow_from((void **)&u->nodes, &u->cap_nodes, u->nr_nodes + 1,
			 sizeof(*u->nodes), 64))
		return NONE;
	n = &u->nodes[u->nr_nodes];
	n->addr = addr;
	n->parent = parent;
	n->child = NONE;
	n->recs = NONE;
	n->sibling = u->nodes[parent].child;
	u->nodes[parent].child = (uint32_t)u->nr_nodes;
	return (uint32_t)u->nr_nodes++;
}

/* The leaf frame moved to @addr under the same caller. */
static int switch_to(struct uw *u, uint64_t addr)
{
	uint32_t c;

	if (u->nodes[u->leaf].addr == addr)
		return 0;
	c = child(u, u->nodes[u->leaf].parent, addr);
	if (c == NONE)
		return BR_ENOMEM;
	u->leaf = c;
	return 0;
}

static int push(struct uw *u, uint64_t addr)
{
	uint32_t c = child(u, u->leaf, addr);

	if (c == NONE)
		return BR_ENOMEM;
	u->leaf = c;
	return 0;
}

static int record(struct uw *u, uint32_t node, uint64_t a, uint64_t b,
		  bool branch)
{
	struct rec *r;

	if (!branch && a > b)
		return 0;
	if (u->nr_recs >= NONE - 1 ||
	    br_grow_from((void **)&u->recs, &u->cap_recs, u->nr_recs + 1,
			 sizeof(*u->recs), 64))
		return BR_ENOMEM;
	r = &u->recs[u->nr_recs];
	r->a = a;
	r->b = b;
	r->branch = branch;
	r->next = u->nodes[node].recs;
	u->nodes[node].recs = (uint32_t)u->nr_recs++;
	return 0;
}

static void set_ip(struct uw *u, uint64_t addr)
{
	u->ip = addr;
	u->ip_idx = code_index(u->bin, addr);
}

/* ---- inline frames ---- */

/*
 * The inline frames of @addr into u->fr from @at: their number, 0 when
 * the address has no line information, -1 out of memory.
 */
static long frames_at(struct uw *u, uint64_t addr, size_t at)
{
	const struct spd_frame *f;
	int n = spd_frames(u->d, addr, &f);

	if (n <= 0)
		return n;
	if (br_grow_from((void **)&u->fr, &u->cap_fr, at + (size_t)n,
			 sizeof(*u->fr), 64))
		return -1;
	memcpy(u->fr + at, f, (size_t)n * sizeof(*f));
	return n;
}

static bool frame_eq(const struct spd_frame *x, const struct spd_frame *y)
{
	return x->name == y->name && x->line == y->line && x->disc == y->disc;
}

/*
 * Whether @a and @b have the same inline callers: as many frames, at
 * least one, equal but for the innermost.  0 no, 1 yes, -1 no memory.
 */
static int same_inline_callers(struct uw *u, uint64_t a, uint64_t b)
{
	long na = frames_at(u, a, 0), nb, i;

	if (na <= 0)
		return na < 0 ? -1 : 0;
	nb = frames_at(u, b, (size_t)na);
	if (nb < 0)
		return -1;
	if (nb != na)
		return 0;
	for (i = 0; i + 1 < na; i++)
		if (!frame_eq(&u->fr[i], &u->fr[na + i]))
			return 0;
	return 1;
}

/* ---- one sample's walk ---- */

/* The line [the entry's target, ip] in the frames of its inline runs. */
static int walk_line(struct uw *u, uint64_t target)
{
	uint64_t end = u->ip;
	int r;

	if (end == PROFILE_EXTERNAL && target == PROFILE_EXTERNAL) {
		u->out->st.paired_external++;
		return 0;
	}
	if (end == PROFILE_EXTERNAL || target == PROFILE_EXTERNAL) {
		u->out->st.unpaired_external++;
		u->invalid = true;
		return 0;
	}
	if (!eb_range_valid(u->bin, target, end)) {
		u->out->st.invalid_ranges++;
		u->invalid = true;
		return 0;
	}
	while (u->ip > target && u->ip_idx > 0) {
		uint64_t prev = u->ip;
		int same;

		u->ip = u->bin->code[--u->ip_idx].addr;
		same = same_inline_callers(u, prev, u->ip);
		if (same < 0)
			return BR_ENOMEM;
		if (same)
			continue;
		r = switch_to(u, prev);
		if (!r)
			r = record(u, u->leaf, prev, end, false);
		if (r)
			return r;
		end = u->ip;
	}
	r = switch_to(u, u->ip);
	return r ? r : record(u, u->leaf, u->ip, end, false);
}

/* The frame before the entry @s -> @t ran, replayed backwards. */
static int walk_branch(struct uw *u, uint64_t s, uint64_t t)
{
	const struct eb_binary *bin = u->bin;
	uint64_t before = hybrid_call_before(bin, t);
	int r;

	if (u->invalid) {
		/* context-free from here: a stack of one frame */
		set_ip(u, s);
		u->leaf = ROOT;
		return push(u, s);
	}
	if (code_kind(bin, s, EB_CALL) ||
	    (s == PROFILE_EXTERNAL && !before)) {
		uint32_t parent = u->nodes[u->leaf].parent;

		if (parent == ROOT || u->nodes[parent].addr != s) {
			if (parent != ROOT)
				u->out->st.call_mismatch++;
			r = switch_to(u, s);
			if (r)
				return r;
		} else {
			u->leaf = parent;
		}
	} else if (code_kind(bin, s, EB_RET) || s == PROFILE_EXTERNAL) {
		r = switch_to(u, before);
		if (!r)
			r = push(u, s);
		if (r)
			return r;
	} else {
		r = switch_to(u, s);
		if (r)
			return r;
	}
	set_ip(u, s);
	return 0;
}

/* One sample: @cs frames (innermost first), @br entries, newest first. */
static int walk(struct uw *u, const uint64_t *cs, size_t nf,
		const uint64_t *br, size_t nb)
{
	size_t i;
	int r;

	u->nr_nodes = 1;
	u->nr_recs = 0;
	u->nodes[ROOT] = (struct node){ 0, NONE, NONE, NONE, NONE };
	u->leaf = ROOT;
	u->invalid = false;
	/* the first frame is the newest branch's target */
	for (i = nf; i-- > 0;) {
		r = push(u, i ? cs[i] : br[1]);
		if (r)
			return r;
	}
	set_ip(u, br[1]);
	for (i = 0; i < nb; i++) {
		uint64_t s = br[2 * i], t = br[2 * i + 1];

		u->out->st.branches++;
		r = i ? walk_line(u, t) : 0;
		if (!r)
			r = walk_branch(u, s, t);
		if (r)
			return r;
		if (t == PROFILE_EXTERNAL)
			continue;
		r = record(u, s == PROFILE_EXTERNAL ? ROOT : u->leaf, s, t,
			   true);
		if (r)
			return r;
	}
	return 0;
}

/* ---- contexts ---- */

/*
 * Collapse adjacent repeated sequences of @n frames, shortest first (a
 * sequence of one frame, then two, ...), the way llvm-profgen's
 * compressRecursionContext() slides a window of twice the length over
 * the frames and skips a right half equal to its left half.  The new
 * number of frames.
 */
static size_t collapse_repeats(struct spd_frame *f, size_t n)
{
	size_t len, limit = n / 2;

	for (len = 1; len <= limit; len++) {
		size_t right = len - 1, out = len, guard = 0;

		while (right + len < n) {
			size_t left = right + 1;	/* one past the match */
			bool dup;

			while (left > guard &&
			       frame_eq(&f[left - 1], &f[left - 1 + len]))
				left--;
			dup = left == guard;
			guard = right + 1;
			if (dup) {
				right += len;
			} else {
				/* keep the part after the common suffix */
				size_t k = left + len - right - 1;

				memmove(f + out, f + right + 1,
					k * sizeof(*f));
				out += k;
				right = left - 1 + len;
			}
		}
		memmove(f + out, f + right + 1, (n - right - 1) * sizeof(*f));
		out += n - right - 1;
		n = out;
		if (limit > n / 2)
			limit = n / 2;
	}
	return n;
}

static int key_put(struct uw *u, size_t *len, const char *s, size_t n)
{
	if (br_grow_from((void **)&u->key, &u->cap_key, *len + n + 1, 1, 256))
		return BR_ENOMEM;
	memcpy(u->key + *len, s, n);
	*len += n;
	u->key[*len] = '\0';
	return 0;
}

/* The key of the @np addresses at u->path into u->key. */
static int make_key(struct uw *u, size_t np)
{
	size_t i, nf = 0, len = 0;
	struct spd_frame leaf;
	char num[32];
	int r = key_put(u, &len, "", 0);

	u->key_frames = 0;
	u->leaf_inlined = false;
	for (i = 0; i < np && !r; i++) {
		long n = frames_at(u, u->path[i], nf);

		if (n < 0)
			return BR_ENOMEM;
		if (!n)
			return 0;	/* no line: the empty context */
		nf += (size_t)n;
		u->leaf_inlined = n > 1;
	}
	if (!nf || r)
		return r;
	for (i = 0; i < nf; i++)
		u->fr[i].disc = u->fs ? u->fr[i].disc :
				sp_base_discriminator(u->fr[i].disc);
	/* the callers collapsed; the innermost frame keeps its name only */
	leaf = u->fr[nf - 1];
	leaf.line = 0;
	leaf.disc = 0;
	nf = collapse_repeats(u->fr, nf - 1);
	u->fr[nf++] = leaf;
	u->key_frames = nf;
	for (i = 0; i < nf && !r; i++) {
		if (i)
			r = key_put(u, &len, " @ ", 3);
		if (!r)
			r = key_put(u, &len, u->fr[i].name,
				    strlen(u->fr[i].name));
		if (r || i + 1 == nf)
			break;
		if (u->fr[i].disc)
			snprintf(num, sizeof(num), ":%" PRIu32 ".%" PRIu32,
				 u->fr[i].line, u->fr[i].disc);
		else
			snprintf(num, sizeof(num), ":%" PRIu32, u->fr[i].line);
		r = key_put(u, &len, num, strlen(num));
	}
	return r;
}

static uint64_t key_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	return h;
}

/* The context of u->key, added if new: NULL out of memory. */
static struct cs_context *context(struct uw *u)
{
	struct csprof *p = u->out;
	uint64_t h = key_hash(u->key), probe, *slot;
	struct cs_context *c;

	for (probe = 0;; probe++) {
		slot = pairmap_ref(&p->index, h, probe);
		if (!slot)
			return NULL;
		if (!*slot)
			break;
		if (!strcmp(p->ctx[*slot - 1].key, u->key))
			return &p->ctx[*slot - 1];
	}
	if (br_grow((void **)&p->ctx, &p->cap, p->nr + 1, sizeof(*p->ctx)))
		return NULL;
	c = &p->ctx[p->nr];
	memset(c, 0, sizeof(*c));
	c->key = strdup(u->key);
	c->frames = malloc((u->key_frames + 1) * sizeof(*c->frames));
	if (!c->key || !c->frames) {
		free(c->key);
		free(c->frames);
		return NULL;
	}
	if (u->key_frames)
		memcpy(c->frames, u->fr, u->key_frames * sizeof(*c->frames));
	c->nr_frames = u->key_frames;
	c->leaf_inlined = u->leaf_inlined;
	/* the slot may have moved: look it up again */
	slot = pairmap_ref(&p->index, h, probe);
	if (!slot) {
		free(c->key);
		free(c->frames);
		return NULL;
	}
	*slot = ++p->nr;
	return c;
}

/*
 * The context of @node: the frames from the root, or from just below the
 * nearest external frame, to it (none for an external frame itself).
 */
static int node_key(struct uw *u, uint32_t node)
{
	size_t np = 0, i;
	uint32_t n;

	for (n = node; n != ROOT; n = u->nodes[n].parent) {
		if (u->nodes[n].addr == PROFILE_EXTERNAL)
			break;
		np++;
	}
	if (br_grow_from((void **)&u->path, &u->cap_path, np + 1,
			 sizeof(*u->path), 64))
		return BR_ENOMEM;
	for (n = node, i = np; i > 0; n = u->nodes[n].parent)
		u->path[--i] = u->nodes[n].addr;
	return make_key(u, np);
}

/* Every frame's counts added to its context. */
static int collect(struct uw *u, uint64_t repeat)
{
	size_t i;

	for (i = 0; i < u->nr_nodes; i++) {
		struct cs_context *c;
		uint32_t k;
		int r;

		if (u->nodes[i].recs == NONE)
			continue;
		r = node_key(u, (uint32_t)i);
		if (r)
			return r;
		c = context(u);
		if (!c)
			return BR_ENOMEM;
		for (k = u->nodes[i].recs; k != NONE; k = u->recs[k].next) {
			const struct rec *e = &u->recs[k];

			r = pairmap_add(e->branch ? &c->branches : &c->ranges,
					e->a, e->b, repeat);
			if (r)
				return r == BR_EINPUT ? BR_EINPUT : BR_ENOMEM;
		}
	}
	return 0;
}

static int build(struct uw *u, const struct hybrid *h)
{
	size_t at = 0;
	int r = prologues(u);

	if (!r && br_grow_from((void **)&u->nodes, &u->cap_nodes, 1,
			       sizeof(*u->nodes), 64))
		r = BR_ENOMEM;
	while (!r && at < h->len) {
		const uint64_t *rec = h->w + at;
		size_t nf = (size_t)rec[1], nb = (size_t)rec[2];

		at += 3 + nf + 2 * nb;
		if (in_prologue(u, rec[3])) {
			u->out->st.prologue++;
			continue;
		}
		u->out->st.samples++;
		r = walk(u, rec + 3, nf, rec + 3 + nf, nb);
		if (!r)
			r = collect(u, rec[0]);
	}
	return r;
}

/*
 * The profile without contexts of the samples the prologue rule keeps,
 * what llvm-profgen prints for them with --ignore-stack-samples: the
 * rules of profile.h on their (already filtered) entries.
 */
static int build_flat(struct uw *u, const struct hybrid *h,
		      struct profile *flat)
{
	size_t at = 0, i;
	int r = prologues(u);

	while (!r && at < h->len) {
		const uint64_t *rec = h->w + at, *br;
		size_t nf = (size_t)rec[1], nb = (size_t)rec[2];
		uint64_t end = 0;

		at += 3 + nf + 2 * nb;
		if (in_prologue(u, rec[3])) {
			u->out->st.prologue++;
			continue;
		}
		u->out->st.samples++;
		br = rec + 3 + nf;
		for (i = 0; !r && i < nb; i++) {
			uint64_t s = br[2 * i], t = br[2 * i + 1];

			if (eb_is_code(u->bin, t))
				r = pairmap_add(&flat->branches, s, t, rec[0]);
			if (!r && eb_is_code(u->bin, t) &&
			    eb_is_code(u->bin, end) &&
			    eb_range_valid(u->bin, t, end))
				r = pairmap_add(&flat->ranges, t, end, rec[0]);
			end = s;
		}
	}
	return r;
}

/* The DWARF of @bin opened for @u: 0, or BR_EINPUT / BR_ENOMEM. */
static int open_dwarf(struct uw *u, const struct eb_binary *bin,
		      const char *dwarf_path, char *err, size_t errsz)
{
	bool oom = false;

	u->names = sp_names_new();
	if (!u->names) {
		snprintf(err, errsz, "out of memory");
		return BR_ENOMEM;
	}
	u->d = spd_open(dwarf_path, bin->sym_path ? bin->sym_path : bin->path,
			bin->text_base, u->names, err, errsz, &oom);
	if (!u->d) {
		sp_names_free(u->names);
		if (oom)
			snprintf(err, errsz, "out of memory");
		return oom ? BR_ENOMEM : BR_EINPUT;
	}
	u->fs = spd_fs_discriminators(u->d);
	return 0;
}

static int finish(struct uw *u, int r, char *err, size_t errsz)
{
	if (r == BR_EINPUT)
		snprintf(err, errsz, "a count of the profile would pass 2^64 - 1");
	else if (r)
		snprintf(err, errsz, "out of memory");
	free(u->prologue);
	free(u->nodes);
	free(u->recs);
	free(u->path);
	free(u->fr);
	free(u->key);
	spd_close(u->d);
	return r;
}

int csprof_flat(struct profile *flat, struct cs_stats *st,
		const struct hybrid *h, const struct eb_binary *bin,
		const char *dwarf_path, char *err, size_t errsz)
{
	struct csprof none = { 0 };
	struct uw u = { .bin = bin, .out = &none };
	int r = open_dwarf(&u, bin, dwarf_path, err, errsz);

	if (r)
		return r;
	r = finish(&u, build_flat(&u, h, flat), err, errsz);
	sp_names_free(u.names);
	*st = none.st;
	return r;
}

int csprof_build(struct csprof *out, const struct hybrid *h,
		 const struct eb_binary *bin, const char *dwarf_path,
		 char *err, size_t errsz)
{
	struct uw u = { .bin = bin, .out = out };
	int r;

	memset(out, 0, sizeof(*out));
	r = open_dwarf(&u, bin, dwarf_path, err, errsz);
	if (r)
		return r;
	out->names = u.names;
	r = finish(&u, build(&u, h), err, errsz);
	if (r)
		csprof_free(out);
	return r;
}

static int cmp_ctx(const void *a, const void *b)
{
	const struct cs_context *x = *(const struct cs_context *const *)a;
	const struct cs_context *y = *(const struct cs_context *const *)b;

	return strcmp(x->key, y->key);
}

const struct cs_context **csprof_sorted(const struct csprof *p)
{
	const struct cs_context **v = malloc((p->nr + 1) * sizeof(*v));
	size_t i;

	if (!v)
		return NULL;
	for (i = 0; i < p->nr; i++)
		v[i] = &p->ctx[i];
	qsort(v, p->nr, sizeof(*v), cmp_ctx);
	return v;
}

void csprof_free(struct csprof *p)
{
	size_t i;

	for (i = 0; i < p->nr; i++) {
		free(p->ctx[i].key);
		free(p->ctx[i].frames);
		pairmap_free(&p->ctx[i].ranges);
		pairmap_free(&p->ctx[i].branches);
	}
	free(p->ctx);
	pairmap_free(&p->index);
	sp_names_free(p->names);
	memset(p, 0, sizeof(*p));
}
