// SPDX-License-Identifier: GPL-2.0
/* Structural validator of a libblockrange context; see treecheck.h. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

#include "lib/rbnode.h"
#include "treecheck.h"

/* Deeper than any valid tree (2 log2(n + 1) <= 128 for any n < 2^64). */
#define MAX_DEPTH 130

struct walk {
	char *buf;
	size_t len;
	size_t count;		/* nodes visited */
	size_t limit;		/* nr_ranges: a corrupt tree stops there */
	bool failed;
};

static int failf(struct walk *w, const char *fmt, ...)
{
	va_list ap;

	if (!w->failed) {
		va_start(ap, fmt);
		vsnprintf(w->buf, w->len, fmt, ap);
		va_end(ap);
		w->failed = true;
	}
	return -1;
}

static const struct blockrange *node_br(const struct blockrange_rb_node *n)
{
	return blockrange_rb_entry(n, const struct blockrange, node);
}

/*
 * Check the subtree at @n, whose parent is @parent and whose ranges must
 * all lie after @lo and before @hi (NULL: unbounded).  Returns its black
 * height (NULL children count 1), or -1 on a violation.
 */
static int check_subtree(struct walk *w, const struct blockrange_rb_node *n,
			 const struct blockrange_rb_node *parent,
			 const struct blockrange *lo,
			 const struct blockrange *hi, unsigned depth)
{
	const struct blockrange *br;
	int lh, rh;

	if (!n)
		return 1;
	br = node_br(n);
	if (depth > MAX_DEPTH || ++w->count > w->limit)
		return failf(w, "tree deeper or larger than nr_ranges allows");
	if (rb_parent(n) != parent)
		return failf(w, "range [%#" PRIx64 ", %#" PRIx64
			     "]: wrong parent pointer", br->start, br->end);
	if (!br->start || br->start > br->end)
		return failf(w, "range [%#" PRIx64 ", %#" PRIx64
			     "]: bad bounds", br->start, br->end);
	if (lo && lo->end >= br->start)
		return failf(w, "range [%#" PRIx64 ", %#" PRIx64 "] overlaps"
			     " or precedes [%#" PRIx64 ", %#" PRIx64 "] on its"
			     " left", br->start, br->end, lo->start, lo->end);
	if (hi && br->end >= hi->start)
		return failf(w, "range [%#" PRIx64 ", %#" PRIx64 "] overlaps"
			     " or follows [%#" PRIx64 ", %#" PRIx64 "] on its"
			     " right", br->start, br->end, hi->start, hi->end);
	if (rb_is_red(n) && ((n->rb_left && rb_is_red(n->rb_left)) ||
			     (n->rb_right && rb_is_red(n->rb_right))))
		return failf(w, "red range [%#" PRIx64 ", %#" PRIx64
			     "] has a red child", br->start, br->end);
	lh = check_subtree(w, n->rb_left, n, lo, br, depth + 1);
	if (lh < 0)
		return -1;
	rh = check_subtree(w, n->rb_right, n, br, hi, depth + 1);
	if (rh < 0)
		return -1;
	if (lh != rh)
		return failf(w, "black heights %d != %d under [%#" PRIx64
			     ", %#" PRIx64 "]", lh, rh, br->start, br->end);
	return lh + rb_is_black(n);
}

const char *tree_check(const struct blockrange_ctx *ctx, char *buf,
		       size_t len)
{
	struct walk w = { buf, len, 0, blockrange_ctx_nr_ranges(ctx), false };
	const struct blockrange *first = blockrange_first(ctx);
	const struct blockrange *last = blockrange_last(ctx);
	const struct blockrange *br, *prev = NULL;
	const struct blockrange_rb_node *root;
	size_t n = 0, depth = 0;

	if (!first || !last) {
		if (first || last || w.limit)
			failf(&w, "first %p, last %p with %zu ranges",
			      (const void *)first, (const void *)last, w.limit);
		return w.failed ? buf : NULL;
	}
	for (root = &first->node; rb_parent(root); root = rb_parent(root))
		if (++depth > MAX_DEPTH)
			return failf(&w, "parent chain loops"), buf;
	if (!rb_is_black(root))
		return failf(&w, "red root"), buf;
	if (check_subtree(&w, root, NULL, NULL, NULL, 0) < 0)
		return buf;
	if (w.count != w.limit)
		return failf(&w, "tree holds %zu ranges, nr_ranges %zu",
			     w.count, w.limit), buf;

	/* Both walks and find() over every range. */
	for (br = first; br; prev = br, br = blockrange_next(br)) {
		if (++n > w.limit)
			return failf(&w, "next() walk too long"), buf;
		if (blockrange_prev(br) != prev)
			return failf(&w, "prev() of [%#" PRIx64 ", %#" PRIx64
				     "] wrong", br->start, br->end), buf;
		if (blockrange_find(ctx, br->start) != br ||
		    blockrange_find(ctx, br->end) != br)
			return failf(&w, "find() misses [%#" PRIx64 ", %#"
				     PRIx64 "]", br->start, br->end), buf;
	}
	if (n != w.limit || prev != last)
		return failf(&w, "next() walk saw %zu ranges of %zu, or did not"
			     " end at last()", n, w.limit), buf;
	for (br = last; br; br = blockrange_prev(br))
		n--;
	if (n)
		return failf(&w, "prev() walk length differs by %zu", n), buf;
	return NULL;
}
