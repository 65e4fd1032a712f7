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
 * Sides: each case of the rebalancing is written once for a side @dir and
 * stands for its mirror image too (child(node, !dir) is the other child).
 * The functions that take a side are always inlined and every call passes
 * a constant, so the compiler makes each mirror image its own straight
 * code, as if both were written out: the tree is on the hot path of the
 * tree engine.
 */
enum { LEFT = 0, RIGHT = 1 };

#define RB_INLINE	static inline __attribute__((always_inline))

RB_INLINE struct blockrange_rb_node **child(struct blockrange_rb_node *node,
					    int dir)
{
	return dir == LEFT ? &node->rb_left : &node->rb_right;
}

/*
 * Rotation towards @dir (LEFT shown): x's child on the other side, y, takes
 * x's place.
 *
 *     x              y
 *    / \            / \
 *   a   y   -->    x   c
 *      / \        / \
 *     b   c      a   b
 */
RB_INLINE void rotate_dir(struct blockrange_rb_node *x, int dir,
			  struct blockrange_rb_root *root)
{
	struct blockrange_rb_node *y = *child(x, !dir);
	struct blockrange_rb_node *parent = rb_parent(x);
	struct blockrange_rb_node *b = *child(y, dir);

	*child(x, !dir) = b;
	if (b)
		set_parent(b, x);
	*child(y, dir) = x;
	set_parent(y, parent);
	change_child(x, y, parent, root);
	set_parent(x, y);
}

/* The two rotations, each compiled once and called from the fix-ups. */
static __attribute__((noinline)) void
rotate_left(struct blockrange_rb_node *x, struct blockrange_rb_root *root)
{
	rotate_dir(x, LEFT, root);
}

static __attribute__((noinline)) void
rotate_right(struct blockrange_rb_node *x, struct blockrange_rb_root *root)
{
	rotate_dir(x, RIGHT, root);
}

RB_INLINE void rotate(struct blockrange_rb_node *x, int dir,
		      struct blockrange_rb_root *root)
{
	if (dir == LEFT)
		rotate_left(x, root);
	else
		rotate_right(x, root);
}

/*
 * Red @node under red @parent, the child on side @dir of @gparent.
 * Returns the node to go on with (the grandparent, now red), or NULL when
 * the tree is balanced.
 */
RB_INLINE struct blockrange_rb_node *
insert_fix(struct blockrange_rb_node *node, struct blockrange_rb_node *parent,
	   struct blockrange_rb_node *gparent, int dir,
	   struct blockrange_rb_root *root)
{
	struct blockrange_rb_node *uncle = *child(gparent, !dir);

	if (is_red(uncle)) {
		/* Push the grandparent's blackness down. */
		set_color(parent, RB_BLACK);
		set_color(uncle, RB_BLACK);
		set_color(gparent, RB_RED);
		return gparent;
	}
	if (node == *child(parent, !dir)) {
		/* Turn the zig-zag into a straight line. */
		rotate(parent, dir, root);
		parent = node;
	}
	set_color(parent, RB_BLACK);
	set_color(gparent, RB_RED);
	rotate(gparent, !dir, root);
	return NULL;
}

void blockrange_rb_insert_color(struct blockrange_rb_node *node,
				struct blockrange_rb_root *root)
{
	for (;;) {
		struct blockrange_rb_node *parent = rb_parent(node);
		struct blockrange_rb_node *gparent;

		if (!parent) {
			/* @node is the root: it may always turn black. */
			set_color(node, RB_BLACK);
			return;
		}
		if (rb_is_black(parent))
			return;

		/* A red parent is never the root, so the grandparent exists. */
		gparent = rb_parent(parent);
		if (parent == gparent->rb_left)
			node = insert_fix(node, parent, gparent, LEFT, root);
		else
			node = insert_fix(node, parent, gparent, RIGHT, root);
		if (!node)
			return;
	}
}

/*
 * The paths through side @dir of @parent (a black node or NULL) are one
 * black node short.  Returns true when that is mended, false when the
 * shortage moved up to the paths through @parent itself.
 */
RB_INLINE bool erase_fix(struct blockrange_rb_node *parent, int dir,
			 struct blockrange_rb_root *root)
{
	/* The sibling exists: it has black height >= 1. */
	struct blockrange_rb_node *w = *child(parent, !dir);

	if (rb_is_red(w)) {
		set_color(w, RB_BLACK);
		set_color(parent, RB_RED);
		rotate(parent, dir, root);
		w = *child(parent, !dir);
	}
	if (!is_red(w->rb_left) && !is_red(w->rb_right)) {
		set_color(w, RB_RED);
		return false;
	}
	if (!is_red(*child(w, !dir))) {
		set_color(*child(w, dir), RB_BLACK);
		set_color(w, RB_RED);
		rotate(w, !dir, root);
		w = *child(parent, !dir);
	}
	set_color(w, rb_color(parent));
	set_color(parent, RB_BLACK);
	set_color(*child(w, !dir), RB_BLACK);
	rotate(parent, dir, root);
	return true;
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
		bool done;

		if (x == parent->rb_left)
			done = erase_fix(parent, LEFT, root);
		else
			done = erase_fix(parent, RIGHT, root);
		if (done) {
			x = root->rb_node;
			break;
		}
		x = parent;
		parent = rb_parent(x);
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

/* The node furthest on side @dir of the tree: its first or last. */
RB_INLINE struct blockrange_rb_node *
extreme(const struct blockrange_rb_root *root, int dir)
{
	struct blockrange_rb_node *node = root->rb_node;

	if (!node)
		return NULL;
	while (*child(node, dir))
		node = *child(node, dir);
	return node;
}

/* The neighbour of @node on side @dir in order: next (RIGHT) or prev. */
RB_INLINE struct blockrange_rb_node *
neighbour(const struct blockrange_rb_node *cnode, int dir)
{
	struct blockrange_rb_node *node = (struct blockrange_rb_node *)cnode;
	struct blockrange_rb_node *parent;

	if (*child(node, dir)) {
		node = *child(node, dir);
		while (*child(node, !dir))
			node = *child(node, !dir);
		return node;
	}
	/* Climb until we come up from a child on the other side. */
	while ((parent = rb_parent(node)) && node == *child(parent, dir))
		node = parent;
	return parent;
}

struct blockrange_rb_node *
blockrange_rb_first(const struct blockrange_rb_root *root)
{
	return extreme(root, LEFT);
}

struct blockrange_rb_node *
blockrange_rb_last(const struct blockrange_rb_root *root)
{
	return extreme(root, RIGHT);
}

struct blockrange_rb_node *
blockrange_rb_next(const struct blockrange_rb_node *node)
{
	return neighbour(node, RIGHT);
}

struct blockrange_rb_node *
blockrange_rb_prev(const struct blockrange_rb_node *node)
{
	return neighbour(node, LEFT);
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
