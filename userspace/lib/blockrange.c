// SPDX-License-Identifier: GPL-2.0
/*
 * Basic-block ranges (see blockrange.h for the contract).
 *
 * Every operation that changes the tree runs in two phases: it first makes
 * every allocation it may need (from a bound on the ranges a block can add
 * or, near the end of a chunk, from a planning walk that counts them
 * exactly), then runs a commit walk that cannot fail.  An allocation
 * failure therefore leaves the context untouched without any rollback code.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <blockrange/blockrange.h>

#include "common/hash.h"
#include "internal.h"
#include "rbnode.h"

/* Ranges are carved from chunks that grow geometrically up to this size. */
#define CHUNK_MIN	32
#define CHUNK_MAX	4096

/* Frozen contexts never count a block: they end before the block cache. */
#define FROZEN_CTX_SIZE offsetof(struct blockrange_ctx, cache)

static size_t ctx_size(const struct blockrange_ctx *ctx)
{
	return ctx->frozen ? FROZEN_CTX_SIZE : sizeof(*ctx);
}

/* A context of @size bytes (the tree's, or a frozen one's). */
static struct blockrange_ctx *ctx_new(const struct blockrange_allocator *allocator,
				      size_t size)
{
	struct blockrange_ctx *ctx;
	struct br_mem m;

	br_mem_init(&m, allocator);
	ctx = br_alloc(&m, size);
	if (!ctx)
		return NULL;
	memset(ctx, 0, size);
	ctx->root = BLOCKRANGE_RB_ROOT;
	ctx->m = m;
	return ctx;
}

struct blockrange_ctx *br_ctx_new_frozen(const struct blockrange_allocator *allocator)
{
	struct blockrange_ctx *ctx = ctx_new(allocator, FROZEN_CTX_SIZE);

	if (ctx)
		ctx->frozen = true;
	return ctx;
}

struct blockrange_ctx *blockrange_ctx_new(const struct blockrange_allocator *allocator)
{
	struct blockrange_ctx *ctx = ctx_new(allocator, sizeof(*ctx));

	if (!ctx)
		return NULL;
	ctx->next_cap = CHUNK_MIN;
	ctx->gen = 1;
	return ctx;
}

void blockrange_ctx_free(struct blockrange_ctx *ctx)
{
	struct chunk *c, *next;
	struct br_mem m;

	if (!ctx)
		return;
	for (c = ctx->chunks; c; c = next) {
		next = c->next;
		br_free(&ctx->m, c, sizeof(*c) + c->cap * sizeof(c->ranges[0]));
	}
	br_owners_free(&ctx->owners, &ctx->m);
	br_free(&ctx->m, ctx->fr, ctx->nr_ranges * sizeof(ctx->fr[0]));
	br_free(&ctx->m, ctx->fw, ctx->nr_fw * sizeof(ctx->fw[0]));
	m = ctx->m;
	br_free(&m, ctx, ctx_size(ctx));
}

size_t blockrange_ctx_nr_ranges(const struct blockrange_ctx *ctx)
{
	return ctx->nr_ranges;
}

uint64_t blockrange_ctx_nr_blocks(const struct blockrange_ctx *ctx)
{
	return ctx->nr_blocks;
}

size_t blockrange_ctx_mem(const struct blockrange_ctx *ctx)
{
	return ctx->m.used;
}

uint64_t blockrange_ctx_weight(const struct blockrange_ctx *ctx)
{
	return ctx->weight;
}

bool blockrange_ctx_frozen(const struct blockrange_ctx *ctx)
{
	return ctx->frozen;
}

bool blockrange_has_pred(const struct blockrange_ctx *ctx)
{
	return ctx->nr_pred_known != 0;
}

/* ---- range memory ------------------------------------------------------ */

/* Make sure the next @need calls of take_range() succeed. */
static int reserve_ranges(struct blockrange_ctx *ctx, size_t need)
{
	struct chunk *c = ctx->chunks;
	size_t cap;

	if (c && c->cap - c->used >= need)
		return 0;
	/* The rest of the current chunk is abandoned (a few ranges at most). */
	cap = ctx->next_cap;
	if (cap < need)
		cap = need;
	if (cap > (SIZE_MAX - sizeof(*c)) / sizeof(c->ranges[0]))
		return -ENOMEM;
	c = br_alloc(&ctx->m, sizeof(*c) + cap * sizeof(c->ranges[0]));
	if (!c)
		return -ENOMEM;
	c->cap = cap;
	c->used = 0;
	c->next = ctx->chunks;
	ctx->chunks = c;
	if (ctx->next_cap < CHUNK_MAX)
		ctx->next_cap *= 2;
	return 0;
}

static struct blockrange *take_range(struct blockrange_ctx *ctx)
{
	struct blockrange *br = &ctx->chunks->ranges[ctx->chunks->used++];

	memset(br, 0, sizeof(*br));
	ctx->nr_ranges++;
	/* Every cached tiling may be stale now. */
	if (!++ctx->gen) {
		memset(ctx->cache, 0, sizeof(ctx->cache));
		ctx->gen = 1;
	}
	return br;
}

/* ---- owners ------------------------------------------------------------ */

/*
 * A range changed owner: its old owner's maximum may have come from it.
 * Recompute every maximum from the ranges (O(n), only after such a change;
 * a cache, hence the cast: queries take a const context).
 */
void br_refresh_owner_max(const struct blockrange_ctx *cctx)
{
	struct blockrange_ctx *ctx = (struct blockrange_ctx *)cctx;
	const struct chunk *c;
	uint32_t o;
	size_t i;

	if (!ctx->owner_max_stale)
		return;
	for (o = 1; o <= ctx->owners.nr; o++)
		ctx->owners.rec[o].max_coverage = 0;
	for (c = ctx->chunks; c; c = c->next) {
		for (i = 0; i < c->used; i++) {
			const struct blockrange *br = &c->ranges[i];

			if (br->owner &&
			    ctx->owners.rec[br->owner].max_coverage <
			    br->coverage)
				ctx->owners.rec[br->owner].max_coverage =
					br->coverage;
		}
	}
	ctx->owner_max_stale = false;
}

const void *blockrange_owner(const struct blockrange_ctx *ctx,
			     const struct blockrange *br)
{
	return br->owner ? ctx->owners.rec[br->owner].key : NULL;
}

uint64_t blockrange_owner_max(const struct blockrange_ctx *ctx,
			      const void *owner)
{
	uint32_t idx = br_owners_find(&ctx->owners, owner);

	if (!idx)
		return 0;
	br_refresh_owner_max(ctx);
	return ctx->owners.rec[idx].max_coverage;
}

size_t blockrange_nr_owners(const struct blockrange_ctx *ctx)
{
	return ctx->owners.nr;
}

/* ---- lookup and navigation --------------------------------------------- */

static inline struct blockrange *to_br(const struct blockrange_rb_node *node)
{
	return blockrange_rb_entry_safe(node, struct blockrange, node);
}

struct blockrange *blockrange_find(const struct blockrange_ctx *ctx,
				   uint64_t addr)
{
	const struct blockrange_rb_node *n = ctx->root.rb_node;

	while (n) {
		struct blockrange *br = to_br(n);

		if (addr < br->start)
			n = n->rb_left;
		else if (addr > br->end)
			n = n->rb_right;
		else
			return br;
	}
	return NULL;
}

struct blockrange *blockrange_find_ge(const struct blockrange_ctx *ctx,
				      uint64_t addr)
{
	const struct blockrange_rb_node *n = ctx->root.rb_node;
	struct blockrange *best = NULL;

	while (n) {
		struct blockrange *br = to_br(n);

		if (br->end >= addr) {
			best = br;
			n = n->rb_left;
		} else {
			n = n->rb_right;
		}
	}
	return best;
}

struct blockrange *blockrange_first(const struct blockrange_ctx *ctx)
{
	return to_br(blockrange_rb_first(&ctx->root));
}

struct blockrange *blockrange_last(const struct blockrange_ctx *ctx)
{
	return to_br(blockrange_rb_last(&ctx->root));
}

struct blockrange *blockrange_next(const struct blockrange *br)
{
	return to_br(blockrange_rb_next(&br->node));
}

struct blockrange *blockrange_prev(const struct blockrange *br)
{
	return to_br(blockrange_rb_prev(&br->node));
}

struct blockrange *blockrange_iter_next(struct blockrange_iter *it)
{
	struct blockrange *br = it->next;

	if (br)
		it->next = br == it->last ? NULL : blockrange_next(br);
	return br;
}

static void iter_set(struct blockrange_iter *it, struct blockrange *first,
		     struct blockrange *last)
{
	if (!it)
		return;
	it->first = first;
	it->last = last;
	it->next = first;
}

int blockrange_span(const struct blockrange_ctx *ctx, uint64_t lo, uint64_t hi,
		    struct blockrange_iter *it)
{
	struct blockrange *first, *last;

	iter_set(it, NULL, NULL);
	if (lo > hi)
		return -EINVAL;
	first = blockrange_find_ge(ctx, lo);
	if (!first || first->start > hi)
		return 0;
	/* The last range starting at or before @hi. */
	last = blockrange_find_ge(ctx, hi);
	if (!last)
		last = blockrange_last(ctx);
	else if (last->start > hi)
		last = blockrange_prev(last);
	iter_set(it, first, last);
	return 0;
}

/* ---- splitting --------------------------------------------------------- */

/*
 * blockrange_next() inlined into the splitting walks, where it is the
 * step taken most (blockrange_rb_next()'s rule: the leftmost node of the right
 * subtree, else the first ancestor reached from a left child).
 */
static inline struct blockrange *walk_next(struct blockrange *br)
{
	struct blockrange_rb_node *n = &br->node, *parent;

	if (n->rb_right) {
		n = n->rb_right;
		while (n->rb_left)
			n = n->rb_left;
		return to_br(n);
	}
	while ((parent = rb_parent(n)) && n == parent->rb_right)
		n = parent;
	return to_br(parent);
}

/* Link @br as the in-order predecessor of @ref (or as the last, if NULL). */
static void link_before(struct blockrange_rb_root *root, struct blockrange *ref,
			struct blockrange *br)
{
	struct blockrange_rb_node *parent;
	struct blockrange_rb_node **link;

	if (!ref) {
		parent = blockrange_rb_last(root);
		link = parent ? &parent->rb_right : &root->rb_node;
	} else if (!ref->node.rb_left) {
		parent = &ref->node;
		link = &parent->rb_left;
	} else {
		parent = ref->node.rb_left;
		while (parent->rb_right)
			parent = parent->rb_right;
		link = &parent->rb_right;
	}
	blockrange_rb_link_node(&br->node, parent, link);
	blockrange_rb_insert_color(&br->node, root);
}

/* Link @br as the in-order successor of @ref. */
static void link_after(struct blockrange_rb_root *root, struct blockrange *ref,
		       struct blockrange *br)
{
	struct blockrange_rb_node *parent;
	struct blockrange_rb_node **link;

	if (!ref->node.rb_right) {
		parent = &ref->node;
		link = &parent->rb_right;
	} else {
		parent = ref->node.rb_right;
		while (parent->rb_left)
			parent = parent->rb_left;
		link = &parent->rb_left;
	}
	blockrange_rb_link_node(&br->node, parent, link);
	blockrange_rb_insert_color(&br->node, root);
}

/*
 * Number of ranges blockrange_create(start, end) adds.  Mirrors commit()
 * step by step without changing anything.
 */
static size_t plan(const struct blockrange_ctx *ctx, uint64_t start,
		   uint64_t end)
{
	const struct blockrange *r = blockrange_find_ge(ctx, start);
	uint64_t pos = start;
	size_t need = 0;

	if (r && r->start < start)
		need++;			/* split off the head of r */
	for (;;) {
		if (!r || r->start > end)
			return need + 1;	/* hole up to end */
		if (r->start > pos)
			need++;		/* hole before r */
		if (r->end > end)
			return need + 1;	/* split off the tail of r */
		if (r->end == end)
			return need;
		pos = r->end + 1;	/* r->end < end: no overflow */
		r = blockrange_next(r);
	}
}

static struct blockrange *new_range(struct blockrange_ctx *ctx, uint64_t start,
				    uint64_t end, bool is_target,
				    bool is_branch)
{
	struct blockrange *br = take_range(ctx);

	br->start = start;
	br->end = end;
	br->is_target = is_target;
	br->is_branch = is_branch;
	return br;
}

/* What blockrange_count_block_n() adds to the ranges of a block. */
struct tally {
	struct blockrange_ctx *ctx;
	uint64_t weight;
	uint64_t start;		/* the block's start */
	uint32_t owner;		/* owner record index, 0 for none */
	bool pred_hit;
	uint64_t *max;		/* the owner's maximum coverage, or NULL */
};

/*
 * Does a block of owner @o starting at @start take @br from its owner (see
 * Owners in blockrange.h)?  Only called with @o != 0 and @o != br->owner.
 */
static inline bool owner_wins(const struct blockrange_ctx *ctx, uint32_t o,
			      uint64_t start, const struct blockrange *br)
{
	if (!br->owner || start > br->owner_start)
		return true;
	return start == br->owner_start &&
	       br_key_cmp(ctx->owners.rec[o].key,
			  ctx->owners.rec[br->owner].key) < 0;
}

/* One more block over @br (called once @br is final for this block). */
static inline void tally_range(const struct tally *t, struct blockrange *br)
{
	uint64_t *max;

	if (!t)
		return;
	br->coverage += t->weight;
	if (br->owner == t->owner) {
		/* The common case: the block's owner owns the range. */
		if (br->owner_start < t->start)
			br->owner_start = t->start;
		if (t->max && *t->max < br->coverage)
			*t->max = br->coverage;
		return;
	}
	if (t->owner && owner_wins(t->ctx, t->owner, t->start, br)) {
		/* The old owner's maximum may have come from this range. */
		if (br->owner)
			t->ctx->owner_max_stale = true;
		br->owner = t->owner;
		br->owner_start = t->start;
	}
	if (!br->owner)
		return;
	max = &t->ctx->owners.rec[br->owner].max_coverage;
	if (*max < br->coverage)
		*max = br->coverage;
}

/* The tiling of the block is @first..@last: set the iterator, count. */
static inline void commit_done(const struct tally *t,
			       struct blockrange_iter *it,
			       struct blockrange *first,
			       struct blockrange *last)
{
	iter_set(it, first, last);
	if (!t)
		return;
	first->entry += t->weight;
	last->taken += t->weight;
	if (t->pred_hit)
		last->pred += t->weight;
}

/*
 * Make the ranges tile [start, end]; every range it needs was reserved.
 * Walks the tiling from @start with @pos the first address not yet tiled
 * and @r the first range that ends at or after @pos.  With @t, also counts
 * the block on the way (each range of the tiling once its bounds and
 * copied counters are final), so no second walk is needed.
 */
static void commit(struct blockrange_ctx *ctx, uint64_t start, uint64_t end,
		   struct blockrange_iter *it, const struct tally *t)
{
	struct blockrange *r = blockrange_find_ge(ctx, start);
	struct blockrange *first = NULL, *br;
	uint64_t pos = start;

	if (r && r->start < start) {
		/*
		 * @start is inside r: r keeps [start, r->end] and becomes the
		 * target; the head [r->start, start - 1] keeps r's coverage,
		 * entry, is_target and owner, and ends in no branch.
		 */
		br = new_range(ctx, r->start, start - 1, r->is_target, false);
		br->coverage = r->coverage;
		br->entry = r->entry;
		br->owner = r->owner;
		br->owner_start = r->owner_start;
		r->start = start;
		r->is_target = true;
		r->entry = 0;
		link_before(&ctx->root, r, br);
	}

	for (;;) {
		if (!r || r->start > end) {
			/* Nothing more up to @end: one new range to @end. */
			br = new_range(ctx, pos, end, pos == start, true);
			link_before(&ctx->root, r, br);
			tally_range(t, br);
			commit_done(t, it, first ? first : br, br);
			return;
		}
		if (r->start > pos) {
			/* Fill the hole before r. */
			br = new_range(ctx, pos, r->start - 1, pos == start,
				       false);
			link_before(&ctx->root, r, br);
			tally_range(t, br);
			if (!first)
				first = br;
			pos = r->start;
		}
		/* Now r->start == pos. */
		if (!first)
			first = r;
		if (pos == start)
			r->is_target = true;
		if (r->end > end) {
			/*
			 * @end is inside r: r keeps [pos, end] and becomes a
			 * branch; the tail [end + 1, r->end] keeps r's
			 * coverage, taken, pred, is_branch and owner.
			 */
			br = new_range(ctx, end + 1, r->end, false,
				       r->is_branch);
			br->coverage = r->coverage;
			br->taken = r->taken;
			br->pred = r->pred;
			br->owner = r->owner;
			br->owner_start = r->owner_start;
			r->end = end;
			r->is_branch = true;
			r->taken = 0;
			r->pred = 0;
			link_after(&ctx->root, r, br);
			tally_range(t, r);
			commit_done(t, it, first, r);
			return;
		}
		tally_range(t, r);
		if (r->end == end) {
			r->is_branch = true;
			commit_done(t, it, first, r);
			return;
		}
		pos = r->end + 1;
		r = walk_next(r);
	}
}

/*
 * Make sure commit(start, end) finds every range it takes.  A block adds
 * at most its length + 2 ranges (the two pieces split off outside it, and
 * holes inside it, each at least one byte): when the current chunk holds
 * that many, the exact count (plan(), a second walk) is not needed.
 */
static int reserve_block(struct blockrange_ctx *ctx, uint64_t start,
			 uint64_t end)
{
	const struct chunk *c = ctx->chunks;

	if (c && end - start < CHUNK_MAX && c->cap - c->used >= end - start + 3)
		return 0;
	return reserve_ranges(ctx, plan(ctx, start, end));
}

int blockrange_create(struct blockrange_ctx *ctx, uint64_t start, uint64_t end,
		      struct blockrange_iter *it)
{
	int err;

	iter_set(it, NULL, NULL);
	if (!start || start > end)
		return -EINVAL;
	if (ctx->frozen)
		return -EPERM;
	err = reserve_block(ctx, start, end);
	if (err)
		return err;
	commit(ctx, start, end, it, NULL);
	ctx->nr_blocks++;
	return 0;
}

static struct block_cache_ent *cache_slot(struct blockrange_ctx *ctx,
					   uint64_t start, uint64_t end)
{
	uint64_t h = br_hash64(start ^ (end - start) << 32);

	if (end - start > UINT32_MAX)
		return NULL;
	return &ctx->cache[h >> (64 - BLOCK_CACHE_BITS)];
}

int blockrange_count_block(struct blockrange_ctx *ctx, uint64_t start,
			   uint64_t end, const void *owner,
			   enum blockrange_pred pred)
{
	return blockrange_count_block_n(ctx, start, end, owner, pred, 1);
}

int blockrange_count_block_n(struct blockrange_ctx *ctx, uint64_t start,
			     uint64_t end, const void *owner,
			     enum blockrange_pred pred, uint64_t weight)
{
	struct tally t = { ctx, weight, start, 0, pred == BLOCKRANGE_PRED_HIT,
			   NULL };
	struct block_cache_ent *ce;
	struct blockrange_iter it;
	bool hit;
	int err;

	if (!start || start > end || !weight ||
	    (unsigned)pred > BLOCKRANGE_PRED_MISS)
		return -EINVAL;
	if (ctx->frozen)
		return -EPERM;
	if (weight > UINT64_MAX - ctx->weight)
		return -EOVERFLOW;
	if (owner) {
		t.owner = owner == ctx->last_owner ? ctx->last_owner_idx :
			  br_owners_find(&ctx->owners, owner);
		if (!t.owner) {
			err = br_owners_reserve(&ctx->owners, &ctx->m, 1);
			if (err)
				return err;
		}
	}
	ce = cache_slot(ctx, start, end);
	hit = ce && ce->gen == ctx->gen && ce->start == start &&
	      ce->len == (uint32_t)(end - start);
	if (!hit) {
		err = reserve_block(ctx, start, end);
		if (err)
			return err;
	}

	/* Nothing can fail from here on. */
	if (owner && !t.owner)
		t.owner = br_owners_insert(&ctx->owners, owner);
	if (t.owner) {
		t.max = &ctx->owners.rec[t.owner].max_coverage;
		ctx->last_owner = owner;
		ctx->last_owner_idx = t.owner;
	}
	if (hit) {
		/*
		 * The tiling is unchanged since the block was last committed,
		 * with its first range a target and its last a branch: only
		 * the counting is left to do.
		 */
		struct blockrange *br = ce->first;

		for (;;) {
			tally_range(&t, br);
			if (br == ce->last)
				break;
			br = walk_next(br);
		}
		commit_done(&t, NULL, ce->first, ce->last);
	} else {
		commit(ctx, start, end, &it, &t);
		if (ce) {
			ce->start = start;
			ce->len = (uint32_t)(end - start);
			ce->gen = ctx->gen;
			ce->first = it.first;
			ce->last = it.last;
		}
	}
	ctx->nr_blocks++;
	ctx->weight += weight;
	if (pred == BLOCKRANGE_PRED_HIT || pred == BLOCKRANGE_PRED_MISS)
		ctx->nr_pred_known++;
	return 0;
}

/* ---- branch stacks ----------------------------------------------------- */

enum br_skip br_stack_block(const struct blockrange_branch *br, size_t i,
			    uint64_t *start, uint64_t *end,
			    enum blockrange_pred *pred)
{
	const struct blockrange_branch *older = &br[i + 1];
	const struct blockrange_branch *newer = &br[i];

	*start = older->to;
	*end = newer->from;
	*pred = newer->predicted ? BLOCKRANGE_PRED_HIT :
		newer->mispredicted ? BLOCKRANGE_PRED_MISS :
		BLOCKRANGE_PRED_UNKNOWN;
	if (older->abort || newer->abort)
		return BR_SKIP_ABORT;
	if (older->in_tx || newer->in_tx)
		return BR_SKIP_IN_TX;
	if (!*start || !*end)
		return BR_SKIP_ZERO;
	if (*start > *end)
		return BR_SKIP_REVERSED;
	return BR_COUNT;
}

static uint64_t *stats_field(struct blockrange_stack_stats *st,
			     enum br_skip why)
{
	switch (why) {
	case BR_SKIP_ABORT:
		return &st->skipped_abort;
	case BR_SKIP_IN_TX:
		return &st->skipped_in_tx;
	case BR_SKIP_ZERO:
		return &st->skipped_zero;
	case BR_SKIP_REVERSED:
		return &st->skipped_reversed;
	default:
		return &st->counted;
	}
}

/* @a += @b * @m, or false (and @a unchanged) on overflow. */
static bool add_mul(uint64_t *a, uint64_t b, uint64_t m)
{
	if (b && m > UINT64_MAX / b)
		return false;
	if (b * m > UINT64_MAX - *a)
		return false;
	*a += b * m;
	return true;
}

/*
 * @out = @st plus @repeat stacks like @br, and *@counted the weight they
 * count; -EOVERFLOW if a figure would not fit.
 */
static int stack_stats(const struct blockrange_branch *br, size_t nr,
		       uint64_t repeat, const struct blockrange_stack_stats *st,
		       struct blockrange_stack_stats *out, uint64_t *counted)
{
	struct blockrange_stack_stats d = { 0 };
	size_t i;

	d.stacks = 1;
	d.entries = nr;
	for (i = nr > 1 ? nr - 1 : 0; i-- > 0;) {
		uint64_t s, e;
		enum blockrange_pred p;

		(*stats_field(&d, br_stack_block(br, i, &s, &e, &p)))++;
		d.blocks++;
	}
	*out = *st;
	if (!add_mul(&out->stacks, d.stacks, repeat) ||
	    !add_mul(&out->entries, d.entries, repeat) ||
	    !add_mul(&out->blocks, d.blocks, repeat) ||
	    !add_mul(&out->counted, d.counted, repeat) ||
	    !add_mul(&out->skipped_abort, d.skipped_abort, repeat) ||
	    !add_mul(&out->skipped_in_tx, d.skipped_in_tx, repeat) ||
	    !add_mul(&out->skipped_zero, d.skipped_zero, repeat) ||
	    !add_mul(&out->skipped_reversed, d.skipped_reversed, repeat))
		return -EOVERFLOW;
	*counted = 0;
	if (!add_mul(counted, d.counted, repeat))
		return -EOVERFLOW;
	return 0;
}

int br_stack_begin(const struct blockrange_branch *br, size_t nr,
		   uint64_t repeat, int refuse, uint64_t weight,
		   const struct blockrange_stack_stats *st,
		   struct blockrange_stack_stats *out, uint64_t *counted)
{
	struct blockrange_stack_stats none = { 0 };

	if ((nr && !br) || !repeat)
		return -EINVAL;
	if (refuse)
		return refuse;
	if (stack_stats(br, nr, repeat, st ? st : &none, out, counted) ||
	    *counted > UINT64_MAX - weight)
		return -EOVERFLOW;
	return 0;
}

int blockrange_apply_stack(struct blockrange_ctx *ctx,
			   const struct blockrange_branch *br, size_t nr,
			   struct blockrange_stack_stats *stats)
{
	return blockrange_apply_stack_n(ctx, br, nr, 1, stats);
}

int blockrange_apply_stack_n(struct blockrange_ctx *ctx,
			     const struct blockrange_branch *br, size_t nr,
			     uint64_t repeat,
			     struct blockrange_stack_stats *stats)
{
	struct blockrange_stack_stats dummy = { 0 }, after;
	uint64_t counted;
	size_t i;
	int err;

	err = br_stack_begin(br, nr, repeat, ctx->frozen ? -EPERM : 0,
			     ctx->weight, stats, &after, &counted);
	if (err)
		return err;
	if (!stats)
		stats = &dummy;
	stats->stacks += repeat;
	stats->entries += nr * repeat;

	/* br[i + 1] is the older entry: its @to starts the block. */
	for (i = nr > 1 ? nr - 1 : 0; i-- > 0;) {
		uint64_t start, end;
		enum blockrange_pred pred;
		enum br_skip why = br_stack_block(br, i, &start, &end, &pred);

		if (why == BR_COUNT) {
			err = blockrange_count_block_n(ctx, start, end,
						       br[i + 1].to_owner,
						       pred, repeat);
			if (err)
				return err;
		}
		*stats_field(stats, why) += repeat;
		stats->blocks += repeat;
	}
	return 0;
}
