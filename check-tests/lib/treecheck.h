/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Structural validator of a libblockrange context, shared by the Check
 * suites, the fuzz harness and its replay runner (no Check dependency).
 *
 * tree_check() reaches the red-black tree through the public range nodes
 * (the root is the ancestor of blockrange_first()) and checks:
 *  - red-black invariants: the root is black and has no parent, every
 *    node's parent pointer names the node that links to it, no red node has
 *    a red child, every path down to a NULL child has the same number of
 *    black nodes;
 *  - the library's own invariants: every range has 1 <= start <= end, the
 *    tree is ordered by address and ranges never overlap (every node lies
 *    strictly between its in-order neighbours' bounds), the tree holds
 *    exactly blockrange_ctx_nr_ranges() nodes;
 *  - navigation: blockrange_first()/last()/next()/prev() walk the same
 *    sequence both ways, and blockrange_find() of each range's start and
 *    end returns that range.
 */
#ifndef CHECK_TESTS_TREECHECK_H
#define CHECK_TESTS_TREECHECK_H

#include <stddef.h>

#include <blockrange/blockrange.h>

/*
 * NULL if @ctx is valid, else @buf (@len bytes, > 0) with a description
 * of the first violation found.
 */
const char *tree_check(const struct blockrange_ctx *ctx, char *buf,
		       size_t len);

#endif /* CHECK_TESTS_TREECHECK_H */
