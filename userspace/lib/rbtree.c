// SPDX-License-Identifier: GPL-2.0
/*
 * Red-black tree rebalancing.  Written from the textbook rules (see the
 * invariants in rbtree.h); missing children (NULL) count as black.
 */
#include "rbnode.h"

static inline void set_parent(struct blockrange_rb_node *node,
			      struct blockrange_rb_node *parent)
{
	node->rb_parent_color = (uintptr_t)parent | (node->rb_parent_color & 1);
}

static inline void set_parent_color(struct blockrange_rb_node *node,
				    struct blockrange_rb_node *parent,
				    int color)
{
	node->rb_parent_color = (uintptr_t)parent | (uintptr_t)color;
}

static inline void set_color(struct blockrange_rb_node *node, int color)
{
	node->rb_parent_color = (node->rb_parent_color & ~(uintptr_t)1) |
				(uintptr_t)color;
}

static inline bool is_red(const struct blockrange_rb_node *node)
{
	return node && rb_is_red(node);
}

/* Make @parent (or the root, if NULL) point to @new instead of @old. */
static inline void change_child(struct blockrange_rb_node *old,
				struct blockrange_rb_node *new,
				struct blockrange_rb_node *parent,
				struct blockrange_rb_root *root)
{
	if (!parent)
		root->rb_node = new;
	else if (parent->rb_left == old)
		parent->rb_left = new;
	else
		parent->rb_right = new;
}

/*
 *     x              y
 *    / \            / \
 *   a   y   -->    x   c
 *      / \        / \
 *     b   c      a   b
 */
static void rotate_left(struct blockrange_rb_node *x,
			struct blockrange_rb_root *root)
{
	struct blockrange_rb_node *y = x->rb_right;
	struct blockrange_rb_node *parent = rb_parent(x);

	x->rb_right = y->rb_left;
	if (y->rb_left)
		set_parent(y->rb_left, x);
	y->rb_left = x;
	set_parent(y, parent);
	change_child(x, y, parent, root);
	set_parent(x, y);
}

/* Mirror image of rotate_left(). */
static void rotate_right(struct blockrange_rb_node *x,
			 struct blockrange_rb_root *root)
{
	struct blockrange_rb_node *y = x->rb_left;
	struct blockrange_rb_node *parent = rb_parent(x);

	x->rb_left = y->rb_right;
	if (y->rb_right)
		set_parent(y->rb_right, x);
	y->rb_right = x;
	set_parent(y, parent);
	change_child(x, y, parent, root);
	set_parent(x, y);
}

void blockrange_rb_insert_color(struct blockrange_rb_node *node,
				struct blockrange_rb_root *root)
{
	for (;;) {
		struct blockrange_rb_node *parent = rb_parent(node);
		struct blockrange_rb_node *gparent, *uncle;

		if (!parent) {
			/* @node is the root: it may always turn black. */
			set_color(node, RB_BLACK);
			return;
		}
		if (rb_is_black(parent))
			return;

		/* A red parent is never the root, so the grandparent exists. */
		gparent = rb_parent(parent);
		if (parent == gparent->rb_left) {
			uncle = gparent->rb_right;
			if (is_red(uncle)) {
				/* Push the grandparent's blackness down. */
				set_color(parent, RB_BLACK);
				set_color(uncle, RB_BLACK);
				set_color(gparent, RB_RED);
				node = gparent;
				continue;
			}
			if (node == parent->rb_right) {
				/* Turn the zig-zag into a straight line. */
				rotate_left(parent, root);
				parent = node;
			}
			set_color(parent, RB_BLACK);
			set_color(gparent, RB_RED);
			rotate_right(gparent, root);
			return;
		}

		uncle = gparent->rb_left;
		if (is_red(uncle)) {
			set_color(parent, RB_BLACK);
			set_color(uncle, RB_BLACK);
			set_color(gparent, RB_RED);
			node = gparent;
			continue;
		}
		if (node == parent->rb_left) {
			rotate_right(parent, root);
			parent = node;
		}
		set_color(parent, RB_BLACK);
		set_color(gparent, RB_RED);
		rotate_left(gparent, root);
		return;
	}
}

/*
 * One black node was removed from the paths through the position of @x (a
 * child of @parent; @x may be NULL).  Restore the black height.
 */
static void erase_fixup(struct blockrange_rb_node *x,
			struct blockrange_rb_node *parent,
			struct blockrange_rb_root *root)
{
	while (x != root->rb_node && !is_red(x)) {
		struct blockrange_rb_node *w;

		if (x == parent->rb_left) {
			w = parent->rb_right;	/* exists: it has black height >= 1 */
			if (rb_is_red(w)) {
				set_color(w, RB_BLACK);
				set_color(parent, RB_RED);
				rotate_left(parent, root);
				w = parent->rb_right;
			}
			if (!is_red(w->rb_left) && !is_red(w->rb_right)) {
				set_color(w, RB_RED);
				x = parent;
				parent = rb_parent(x);
				continue;
			}
			if (!is_red(w->rb_right)) {
				set_color(w->rb_left, RB_BLACK);
				set_color(w, RB_RED);
				rotate_right(w, root);
				w = parent->rb_right;
			}
			set_color(w, rb_color(parent));
			set_color(parent, RB_BLACK);
			set_color(w->rb_right, RB_BLACK);
			rotate_left(parent, root);
			x = root->rb_node;
			break;
		}

		w = parent->rb_left;
		if (rb_is_red(w)) {
			set_color(w, RB_BLACK);
			set_color(parent, RB_RED);
			rotate_right(parent, root);
			w = parent->rb_left;
		}
		if (!is_red(w->rb_left) && !is_red(w->rb_right)) {
			set_color(w, RB_RED);
			x = parent;
			parent = rb_parent(x);
			continue;
		}
		if (!is_red(w->rb_left)) {
			set_color(w->rb_right, RB_BLACK);
			set_color(w, RB_RED);
			rotate_left(w, root);
			w = parent->rb_left;
		}
		set_color(w, rb_color(parent));
		set_color(parent, RB_BLACK);
		set_color(w->rb_left, RB_BLACK);
		rotate_right(parent, root);
		x = root->rb_node;
		break;
	}
	if (x)
		set_color(x, RB_BLACK);
}

void blockrange_rb_erase(struct blockrange_rb_node *node,
			 struct blockrange_rb_root *root)
{
	struct blockrange_rb_node *parent = rb_parent(node);
	struct blockrange_rb_node *x, *xparent;
	int removed_color;

	if (!node->rb_left || !node->rb_right) {
		/* At most one child: splice @node out. */
		x = node->rb_left ? node->rb_left : node->rb_right;
		removed_color = rb_color(node);
		change_child(node, x, parent, root);
		if (x)
			set_parent(x, parent);
		xparent = parent;
	} else {
		/*
		 * Two children: the in-order successor (leftmost of the right
		 * subtree, which has no left child) leaves its own place and
		 * takes @node's place and colour.
		 */
		struct blockrange_rb_node *succ = node->rb_right;

		while (succ->rb_left)
			succ = succ->rb_left;
		removed_color = rb_color(succ);
		x = succ->rb_right;
		if (rb_parent(succ) == node) {
			xparent = succ;
		} else {
			xparent = rb_parent(succ);
			xparent->rb_left = x;
			if (x)
				set_parent(x, xparent);
			succ->rb_right = node->rb_right;
			set_parent(node->rb_right, succ);
		}
		succ->rb_left = node->rb_left;
		set_parent(node->rb_left, succ);
		set_parent_color(succ, parent, rb_color(node));
		change_child(node, succ, parent, root);
	}

	if (removed_color == RB_BLACK)
		erase_fixup(x, xparent, root);
}

void blockrange_rb_replace_node(struct blockrange_rb_node *victim,
				struct blockrange_rb_node *new,
				struct blockrange_rb_root *root)
{
	struct blockrange_rb_node *parent = rb_parent(victim);

	*new = *victim;
	if (victim->rb_left)
		set_parent(victim->rb_left, new);
	if (victim->rb_right)
		set_parent(victim->rb_right, new);
	change_child(victim, new, parent, root);
}

struct blockrange_rb_node *
blockrange_rb_first(const struct blockrange_rb_root *root)
{
	struct blockrange_rb_node *node = root->rb_node;

	if (!node)
		return NULL;
	while (node->rb_left)
		node = node->rb_left;
	return node;
}

struct blockrange_rb_node *
blockrange_rb_last(const struct blockrange_rb_root *root)
{
	struct blockrange_rb_node *node = root->rb_node;

	if (!node)
		return NULL;
	while (node->rb_right)
		node = node->rb_right;
	return node;
}

struct blockrange_rb_node *
blockrange_rb_next(const struct blockrange_rb_node *node)
{
	struct blockrange_rb_node *parent;

	if (node->rb_right) {
		struct blockrange_rb_node *next = node->rb_right;

		while (next->rb_left)
			next = next->rb_left;
		return next;
	}
	/* Climb until we come up from a left child. */
	while ((parent = rb_parent(node)) && node == parent->rb_right)
		node = parent;
	return parent;
}

struct blockrange_rb_node *
blockrange_rb_prev(const struct blockrange_rb_node *node)
{
	struct blockrange_rb_node *parent;

	if (node->rb_left) {
		struct blockrange_rb_node *prev = node->rb_left;

		while (prev->rb_right)
			prev = prev->rb_right;
		return prev;
	}
	while ((parent = rb_parent(node)) && node == parent->rb_left)
		node = parent;
	return parent;
}

/* Deepest leftmost leaf of the subtree at @node. */
static struct blockrange_rb_node *
leftmost_leaf(const struct blockrange_rb_node *node)
{
	for (;;) {
		if (node->rb_left)
			node = node->rb_left;
		else if (node->rb_right)
			node = node->rb_right;
		else
			return (struct blockrange_rb_node *)node;
	}
}

struct blockrange_rb_node *
blockrange_rb_first_postorder(const struct blockrange_rb_root *root)
{
	if (!root->rb_node)
		return NULL;
	return leftmost_leaf(root->rb_node);
}

struct blockrange_rb_node *
blockrange_rb_next_postorder(const struct blockrange_rb_node *node)
{
	struct blockrange_rb_node *parent = rb_parent(node);

	if (!parent)
		return NULL;
	if (node == parent->rb_left && parent->rb_right)
		return leftmost_leaf(parent->rb_right);
	return parent;
}
