/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Intrusive red-black tree, kernel style.
 *
 * The caller embeds a struct blockrange_rb_node in its own structure, finds
 * the place for a new node itself (or uses blockrange_rb_add() with a "less"
 * function), links it with blockrange_rb_link_node() and rebalances with
 * blockrange_rb_insert_color().  The tree never allocates and never compares
 * keys on its own.
 *
 * Invariants (hold between any two calls of this API; checked by the
 * randomized tests of the library's suite):
 *  1. Order: an in-order walk (blockrange_rb_first()/blockrange_rb_next())
 *     visits the nodes in the order the caller linked them in; every node
 *     of a left subtree comes before its parent, every node of a right
 *     subtree after it.
 *  2. Colour: every node is red or black; the root is black; a red node has
 *     no red child.
 *  3. Black height: every path from a node down to a missing (NULL) child
 *     passes through the same number of black nodes.
 *  4. Links: a node's parent pointer names the node whose rb_left or
 *     rb_right points to it; the root's parent is NULL.
 * Consequence: the height is at most 2 * log2(n + 1), so lookups, insertion
 * and erasure are O(log n); blockrange_rb_next()/blockrange_rb_prev() are
 * O(log n) worst case and O(1) amortized over a full walk.
 *
 * A node takes three words (24 bytes on LP64): the parent pointer with the
 * colour in its least significant bit, and the two child pointers.  Nodes
 * must therefore be at least 2-byte aligned (always true for a struct that
 * holds pointers).
 *
 * Not thread-safe: callers serialize access to one tree.
 *
 * Names: every name this header defines carries the library's prefix
 * (struct blockrange_rb_node, BLOCKRANGE_RB_ROOT, blockrange_rb_entry(),
 * blockrange_rb_insert_color(), ...), so that a program that has its own
 * kernel-style tree (struct rb_node, rb_entry(), container_of(), rb_*())
 * compiles and links beside it.  The names after the prefix, and the
 * members of the two structures, are those of the kernel's API.  The inline
 * functions (blockrange_rb_link_node(), blockrange_rb_add(),
 * blockrange_rb_find(), ...) are not exported.
 */
#ifndef BLOCKRANGE_RBTREE_H
#define BLOCKRANGE_RBTREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct blockrange_rb_node {
	uintptr_t rb_parent_color;	/* parent pointer | colour (1 = black) */
	struct blockrange_rb_node *rb_right;
	struct blockrange_rb_node *rb_left;
};

struct blockrange_rb_root {
	struct blockrange_rb_node *rb_node;
};

#define BLOCKRANGE_RB_ROOT	((struct blockrange_rb_root) { NULL })

/* The structure of type @type whose member @member is the node @ptr. */
#define blockrange_rb_entry(ptr, type, member) \
	((type *)(void *)((char *)(ptr) - offsetof(type, member)))
/* Like blockrange_rb_entry() but maps NULL to NULL. */
#define blockrange_rb_entry_safe(ptr, type, member) \
	((ptr) ? blockrange_rb_entry(ptr, type, member) : NULL)

#define BLOCKRANGE_RB_EMPTY_ROOT(root)	((root)->rb_node == NULL)

/*
 * A node that is not in any tree may be marked by BLOCKRANGE_RB_CLEAR_NODE()
 * (parent pointing to itself) so that BLOCKRANGE_RB_EMPTY_NODE() can tell.
 * blockrange_rb_erase() does not mark the node; callers that need the mark
 * set it after erasing.
 */
#define BLOCKRANGE_RB_CLEAR_NODE(node) \
	((node)->rb_parent_color = (uintptr_t)(node))
#define BLOCKRANGE_RB_EMPTY_NODE(node) \
	((node)->rb_parent_color == (uintptr_t)(node))

/**
 * blockrange_rb_link_node() - attach a new node as a red leaf
 * @node:   the node to insert; its previous contents are overwritten
 * @parent: the node that becomes its parent, NULL for an empty tree
 * @link:   &parent->rb_left, &parent->rb_right or &root->rb_node; must be
 *          NULL on entry
 *
 * Must be followed by blockrange_rb_insert_color() before any other tree
 * operation.
 */
static inline void blockrange_rb_link_node(struct blockrange_rb_node *node,
					   struct blockrange_rb_node *parent,
					   struct blockrange_rb_node **link)
{
	node->rb_parent_color = (uintptr_t)parent;	/* red */
	node->rb_left = NULL;
	node->rb_right = NULL;
	*link = node;
}

/* Rebalance after blockrange_rb_link_node(); restores invariants 2 and 3. */
void blockrange_rb_insert_color(struct blockrange_rb_node *node,
				struct blockrange_rb_root *root);

/* Remove @node from the tree; @node's own fields are left undefined. */
void blockrange_rb_erase(struct blockrange_rb_node *node,
			 struct blockrange_rb_root *root);

/*
 * Put @new in the place of @victim (same parent, children and colour)
 * without rebalancing.  The caller guarantees @new sorts where @victim did.
 */
void blockrange_rb_replace_node(struct blockrange_rb_node *victim,
				struct blockrange_rb_node *new,
				struct blockrange_rb_root *root);

/* In-order navigation; NULL past either end or on an empty tree. */
struct blockrange_rb_node *
blockrange_rb_first(const struct blockrange_rb_root *root);
struct blockrange_rb_node *
blockrange_rb_last(const struct blockrange_rb_root *root);
struct blockrange_rb_node *
blockrange_rb_next(const struct blockrange_rb_node *node);
struct blockrange_rb_node *
blockrange_rb_prev(const struct blockrange_rb_node *node);

/*
 * Post-order walk (children before their parent), for tearing a tree down:
 * blockrange_rb_next_postorder(node) reads only @node and nodes not yet
 * returned, so a caller may free each node once it has fetched the next
 * one.  The tree is not valid during such a walk.
 */
struct blockrange_rb_node *
blockrange_rb_first_postorder(const struct blockrange_rb_root *root);
struct blockrange_rb_node *
blockrange_rb_next_postorder(const struct blockrange_rb_node *node);

/**
 * blockrange_rb_add() - insert @node in order
 * @less: true if the first node sorts before the second
 *
 * Equal nodes go after the existing ones (stable).
 */
static inline void
blockrange_rb_add(struct blockrange_rb_node *node,
		  struct blockrange_rb_root *root,
		  bool (*less)(const struct blockrange_rb_node *,
			       const struct blockrange_rb_node *))
{
	struct blockrange_rb_node **link = &root->rb_node;
	struct blockrange_rb_node *parent = NULL;

	while (*link) {
		parent = *link;
		if (less(node, parent))
			link = &parent->rb_left;
		else
			link = &parent->rb_right;
	}
	blockrange_rb_link_node(node, parent, link);
	blockrange_rb_insert_color(node, root);
}

/**
 * blockrange_rb_find() - look up a node by key
 * @cmp: <0 if @key sorts before the node, >0 after, 0 on a match
 *
 * Returns a matching node (any one if several match) or NULL.
 */
static inline struct blockrange_rb_node *
blockrange_rb_find(const void *key, const struct blockrange_rb_root *root,
		   int (*cmp)(const void *key,
			      const struct blockrange_rb_node *))
{
	struct blockrange_rb_node *node = root->rb_node;

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
 * blockrange_rb_find_first() - the leftmost node matching @key, or NULL
 * @cmp: as for blockrange_rb_find()
 */
static inline struct blockrange_rb_node *
blockrange_rb_find_first(const void *key,
			 const struct blockrange_rb_root *root,
			 int (*cmp)(const void *key,
				    const struct blockrange_rb_node *))
{
	struct blockrange_rb_node *node = root->rb_node;
	struct blockrange_rb_node *match = NULL;

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
