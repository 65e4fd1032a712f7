// SPDX-License-Identifier: GPL-2.0
/*
 * A program with its own kernel-style red-black tree names (struct rb_node,
 * RB_ROOT, container_of(), rb_entry(), global rb_insert_color(), rb_first(),
 * rb_next()) and functions named like the library's internal ones, using
 * libblockrange beside them.  It must compile with the installed headers
 * and link against the shared and the static library alike.  Its own "tree"
 * is a plain binary search tree: only the names matter here.
 */
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

struct rb_node {
	struct rb_node *rb_left, *rb_right, *rb_parent;
};

struct rb_root {
	struct rb_node *rb_node;
};

#define RB_ROOT ((struct rb_root) { NULL })
#define container_of(ptr, type, member) \
	((type *)(void *)((char *)(ptr) - offsetof(type, member)))
#define rb_entry(ptr, type, member) container_of(ptr, type, member)

#include <blockrange/blockrange.h>
#include <blockrange/rbtree.h>

void rb_insert_color(struct rb_node *node, struct rb_root *root);
struct rb_node *rb_first(const struct rb_root *root);
struct rb_node *rb_next(const struct rb_node *node);
void *br_alloc(size_t size);
void br_free(void *p);
void agg_stats(const char *what);

struct item {
	struct rb_node node;
	int key;
};

/* Links a node placed by the caller (no rebalancing in this stand-in). */
void rb_insert_color(struct rb_node *node, struct rb_root *root)
{
	(void)node;
	(void)root;
}

struct rb_node *rb_first(const struct rb_root *root)
{
	struct rb_node *n = root->rb_node;

	while (n && n->rb_left)
		n = n->rb_left;
	return n;
}

struct rb_node *rb_next(const struct rb_node *node)
{
	const struct rb_node *n = node;

	if (n->rb_right) {
		for (n = n->rb_right; n->rb_left; n = n->rb_left)
			;
		return (struct rb_node *)n;
	}
	while (n->rb_parent && n == n->rb_parent->rb_right)
		n = n->rb_parent;
	return n->rb_parent;
}

void *br_alloc(size_t size)
{
	return calloc(1, size);
}

void br_free(void *p)
{
	free(p);
}

void agg_stats(const char *what)
{
	printf("own agg_stats: %s\n", what);
}

static void insert(struct rb_root *root, struct item *it)
{
	struct rb_node **link = &root->rb_node, *parent = NULL;

	while (*link) {
		parent = *link;
		link = it->key < rb_entry(parent, struct item, node)->key ?
		       &parent->rb_left : &parent->rb_right;
	}
	it->node.rb_parent = parent;
	*link = &it->node;
	rb_insert_color(&it->node, root);
}

int main(void)
{
	static const int keys[] = { 3, 1, 2 };
	static const struct blockrange_branch stack[] = {
		{ .from = 0x401030, .to = 0x401010, .predicted = 1 },
		{ .from = 0x401020, .to = 0x401028, .predicted = 1 },
		{ .from = 0x401030, .to = 0x401010, .predicted = 1 },
	};
	struct rb_root own = RB_ROOT;
	struct blockrange_ctx *ctx;
	struct blockrange *br;
	struct rb_node *n;
	struct item *items = br_alloc(3 * sizeof(*items));
	size_t i;

	if (!items)
		return 1;
	for (i = 0; i < 3; i++) {
		items[i].key = keys[i];
		insert(&own, &items[i]);
	}
	for (n = rb_first(&own); n; n = rb_next(n))
		printf("own %d\n", rb_entry(n, struct item, node)->key);
	br_free(items);

	ctx = blockrange_ctx_new(NULL);
	if (!ctx || blockrange_apply_stack(ctx, stack, 3, NULL))
		return 1;
	for (br = blockrange_first(ctx); br; br = blockrange_next(br))
		printf("%" PRIx64 "-%" PRIx64 " coverage %" PRIu64 "\n",
		       br->start, br->end, br->coverage);
	blockrange_ctx_free(ctx);
	agg_stats("done");
	return 0;
}
