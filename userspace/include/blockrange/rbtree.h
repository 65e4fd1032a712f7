/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Intrusive red-black tree, kernel style.
 *
 * The caller embeds a struct rb_node in its own structure, finds the place
 * for a new node itself (or uses rb_add() with a "less" function), links it
 * with rb_link_node() and rebalances with rb_insert_color().  The tree never
 * allocates and never compares keys on its own.
 *
 * Invariants (hold between any two calls of this API; checked by the
 * randomized tests in check-tests/test_rbtree.c):
 *  1. Order: an in-order walk (rb_first()/rb_next()) visits the nodes in the
 *     order the caller linked them in; every node of a left subtree comes
 *     before its parent, every node of a right subtree after it.
 *  2. Colour: every node is red or black; the root is black; a red node has
 *     no red child.
 *  3. Black height: every path from a node down to a missing (NULL) child
 *     passes through the same number of black nodes.
 *  4. Links: a node's parent pointer names the node whose rb_left or
 *     rb_right points to it; the root's parent is NULL.
 * Consequence: the height is at most 2 * log2(n + 1), so lookups, insertion
 * and erasure are O(log n); rb_next()/rb_prev() are O(log n) worst case and
 * O(1) amortized over a full walk.
 *
 * A node takes three words (24 bytes on LP64): the parent pointer with the
 * colour in its least significant bit, and the two child pointers.  Nodes
 * must therefore be at least 2-byte aligned (always true for a struct that
 * holds pointers).
 *
 * Not thread-safe: callers serialize access to one tree.
 *
 * Names: the library exports its functions under its own prefix
 * (blockrange_rb_insert_color(), blockrange_rb_erase(), ...), so that a
 * program may also link another red-black tree that uses the kernel's
 * names.  This header also offers the kernel-style short names rb_*() as
 * static inline functions that call them; both spellings are the same
 * API.  The inline functions (rb_link_node(), rb_add(), rb_find(), ...) are
 * not exported at all.
 */
#ifndef BLOCKRANGE_RBTREE_H
#define BLOCKRANGE_RBTREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct rb_node {
	uintptr_t rb_parent_color;	/* parent pointer | colour (1 = black) */
	struct rb_node *rb_right;
	struct rb_node *rb_left;
};

struct rb_root {
	struct rb_node *rb_node;
};

#define RB_RED		0
#define RB_BLACK	1

#define RB_ROOT		((struct rb_root) { NULL })

#ifndef container_of
#define container_of(ptr, type, member) \
	((type *)(void *)((char *)(ptr) - offsetof(type, member)))
#endif

#define rb_entry(ptr, type, member)	container_of(ptr, type, member)
/* Like rb_entry() but maps NULL to NULL. */
#define rb_entry_safe(ptr, type, member) \
	((ptr) ? rb_entry(ptr, type, member) : NULL)

#define RB_EMPTY_ROOT(root)	((root)->rb_node == NULL)

/*
 * A node that is not in any tree may be marked by RB_CLEAR_NODE() (parent
 * pointing to itself) so that RB_EMPTY_NODE() can tell.  rb_erase() does not
 * mark the node; callers that need the mark set it after erasing.
 */
#define RB_CLEAR_NODE(node) \
	((node)->rb_parent_color = (uintptr_t)(node))
#define RB_EMPTY_NODE(node) \
	((node)->rb_parent_color == (uintptr_t)(node))

static inline struct rb_node *rb_parent(const struct rb_node *node)
{
	return (struct rb_node *)(node->rb_parent_color & ~(uintptr_t)1);
}

static inline int rb_color(const struct rb_node *node)
{
	return (int)(node->rb_parent_color & 1);
}

static inline bool rb_is_red(const struct rb_node *node)
{
	return rb_color(node) == RB_RED;
}

static inline bool rb_is_black(const struct rb_node *node)
{
	return rb_color(node) == RB_BLACK;
}

/**
 * rb_link_node() - attach a new node as a red leaf
 * @node:   the node to insert; its previous contents are overwritten
 * @parent: the node that becomes its parent, NULL for an empty tree
 * @link:   &parent->rb_left, &parent->rb_right or &root->rb_node; must be
 *          NULL on entry
 *
 * Must be followed by rb_insert_color() before any other tree operation.
 */
static inline void rb_link_node(struct rb_node *node, struct rb_node *parent,
				struct rb_node **link)
{
	node->rb_parent_color = (uintptr_t)parent;	/* red */
	node->rb_left = NULL;
	node->rb_right = NULL;
	*link = node;
}

/* Rebalance after rb_link_node(); restores invariants 2 and 3. */
void blockrange_rb_insert_color(struct rb_node *node, struct rb_root *root);

/* Remove @node from the tree; @node's own fields are left undefined. */
void blockrange_rb_erase(struct rb_node *node, struct rb_root *root);

/*
 * Put @new in the place of @victim (same parent, children and colour)
 * without rebalancing.  The caller guarantees @new sorts where @victim did.
 */
void blockrange_rb_replace_node(struct rb_node *victim, struct rb_node *new,
				struct rb_root *root);

/* In-order navigation; NULL past either end or on an empty tree. */
struct rb_node *blockrange_rb_first(const struct rb_root *root);
struct rb_node *blockrange_rb_last(const struct rb_root *root);
struct rb_node *blockrange_rb_next(const struct rb_node *node);
struct rb_node *blockrange_rb_prev(const struct rb_node *node);

/*
 * Post-order walk (children before their parent), for tearing a tree down:
 * blockrange_rb_next_postorder(node) reads only @node and nodes not yet
 * returned, so a caller may free each node once it has fetched the next
 * one.  The tree is not valid during such a walk.
 */
struct rb_node *blockrange_rb_first_postorder(const struct rb_root *root);
struct rb_node *blockrange_rb_next_postorder(const struct rb_node *node);

/* The kernel-style short names of the exported functions (see above). */
static inline void rb_insert_color(struct rb_node *node, struct rb_root *root)
{
	blockrange_rb_insert_color(node, root);
}

static inline void rb_erase(struct rb_node *node, struct rb_root *root)
{
	blockrange_rb_erase(node, root);
}

static inline void rb_replace_node(struct rb_node *victim, struct rb_node *new,
				   struct rb_root *root)
{
	blockrange_rb_replace_node(victim, new, root);
}

static inline struct rb_node *rb_first(const struct rb_root *root)
{
	return blockrange_rb_first(root);
}

static inline struct rb_node *rb_last(const struct rb_root *root)
{
	return blockrange_rb_last(root);
}

static inline struct rb_node *rb_next(const struct rb_node *node)
{
	return blockrange_rb_next(node);
}

static inline struct rb_node *rb_prev(const struct rb_node *node)
{
	return blockrange_rb_prev(node);
}

static inline struct rb_node *rb_first_postorder(const struct rb_root *root)
{
	return blockrange_rb_first_postorder(root);
}

static inline struct rb_node *rb_next_postorder(const struct rb_node *node)
{
	return blockrange_rb_next_postorder(node);
}

/**
 * rb_add() - insert @node in order
 * @less: true if the first node sorts before the second
 *
 * Equal nodes go after the existing ones (stable).
 */
static inline void rb_add(struct rb_node *node, struct rb_root *root,
			  bool (*less)(const struct rb_node *,
				       const struct rb_node *))
{
	struct rb_node **link = &root->rb_node;
	struct rb_node *parent = NULL;

	while (*link) {
		parent = *link;
		if (less(node, parent))
			link = &parent->rb_left;
		else
			link = &parent->rb_right;
	}
	rb_link_node(node, parent, link);
	rb_insert_color(node, root);
}

/**
 * rb_find() - look up a node by key
 * @cmp: <0 if @key sorts before the node, >0 after, 0 on a match
 *
 * Returns a matching node (any one if several match) or NULL.
 */
static inline struct rb_node *rb_find(const void *key,
				      const struct rb_root *root,
				      int (*cmp)(const void *key,
						 const struct rb_node *))
{
	struct rb_node *node = root->rb_node;

	while (node) {
		int c = cmp(key, node);

		if (c < 0)
			node = node->rb_left;
		else if (c > 0)
			node = node->rb_right;
		else
			return node;
	}
	return NULL;
}

/**
 * rb_find_first() - the leftmost node matching @key, or NULL
 * @cmp: as for rb_find()
 */
static inline struct rb_node *rb_find_first(const void *key,
					    const struct rb_root *root,
					    int (*cmp)(const void *key,
						       const struct rb_node *))
{
	struct rb_node *node = root->rb_node;
	struct rb_node *match = NULL;

	while (node) {
		int c = cmp(key, node);

		if (c <= 0) {
			if (!c)
				match = node;
			node = node->rb_left;
		} else {
			node = node->rb_right;
		}
	}
	return match;
}

#endif /* BLOCKRANGE_RBTREE_H */
