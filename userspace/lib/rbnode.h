/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The encoding of a tree node's parent pointer and colour (see
 * <blockrange/rbtree.h>): private to the library and its tests' tree
 * checkers, which read the colours the public API does not show.
 */
#ifndef BLOCKRANGE_LIB_RBNODE_H
#define BLOCKRANGE_LIB_RBNODE_H

#include <blockrange/rbtree.h>

#define RB_RED		0
#define RB_BLACK	1

static inline struct blockrange_rb_node *
rb_parent(const struct blockrange_rb_node *node)
{
	return (struct blockrange_rb_node *)(node->rb_parent_color &
					     ~(uintptr_t)1);
}

static inline int rb_color(const struct blockrange_rb_node *node)
{
	return (int)(node->rb_parent_color & 1);
}

static inline bool rb_is_red(const struct blockrange_rb_node *node)
{
	return rb_color(node) == RB_RED;
}

static inline bool rb_is_black(const struct blockrange_rb_node *node)
{
	return rb_color(node) == RB_BLACK;
}

#endif /* BLOCKRANGE_LIB_RBNODE_H */
