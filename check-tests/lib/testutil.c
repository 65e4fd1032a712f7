// SPDX-License-Identifier: GPL-2.0
/* Helpers shared by the Check suites. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "tests.h"

/* One array, so that OWN_A < OWN_B < OWN_C as unsigned integers. */
const char test_owners[3];

/* Size header in front of every block, to check frees. */
struct hdr {
	size_t size;
	size_t magic;
};

#define HDR_MAGIC 0x5a5a1234u

static void *ta_alloc(size_t size, void *arg)
{
	struct test_alloc *ta = arg;
	struct hdr *h;

	ta->nr_alloc++;
	if (ta->fail_at && (ta->nr_alloc == ta->fail_at ||
			    (ta->sticky && ta->nr_alloc > ta->fail_at))) {
		ta->failed++;
		return NULL;
	}
	h = malloc(sizeof(*h) + size);
	if (!h)
		return NULL;
	h->size = size;
	h->magic = HDR_MAGIC;
	ta->live++;
	ta->live_bytes += size;
	return h + 1;
}

static void ta_free(void *ptr, size_t size, void *arg)
{
	struct test_alloc *ta = arg;
	struct hdr *h = (struct hdr *)ptr - 1;

	REQUIRE(h->magic == HDR_MAGIC, "free of a block not allocated here");
	REQUIRE(h->size == size, "free with size %zu of a %zu-byte block",
		size, h->size);
	h->magic = 0;
	ta->live--;
	ta->live_bytes -= size;
	free(h);
}

struct blockrange_allocator test_allocator(struct test_alloc *ta)
{
	struct blockrange_allocator a = { ta_alloc, ta_free, ta };

	return a;
}

void assert_ranges_at(const struct blockrange_ctx *ctx,
		      const struct exp_range *e, size_t n,
		      const char *file, int line)
{
	const struct blockrange *br = blockrange_first(ctx);
	size_t i;

	for (i = 0; i < n; i++, br = blockrange_next(br)) {
		REQUIRE(br, "%s:%d: range %zu [%#" PRIx64 ", %#" PRIx64
			"] missing", file, line, i, e[i].start, e[i].end);
#define FIELD(f) \
		REQUIRE(br->f == e[i].f, "%s:%d: range %zu [%#" PRIx64	\
			", %#" PRIx64 "]: " #f " is %" PRIu64		\
			", expected %" PRIu64, file, line, i,		\
			br->start, br->end, (uint64_t)br->f,		\
			(uint64_t)e[i].f)
		FIELD(start);
		FIELD(end);
		FIELD(coverage);
		FIELD(entry);
		FIELD(taken);
		FIELD(pred);
		FIELD(is_target);
		FIELD(is_branch);
#undef FIELD
		REQUIRE(blockrange_owner(ctx, br) == e[i].owner,
			"%s:%d: range %zu: wrong owner", file, line, i);
	}
	REQUIRE(!br, "%s:%d: extra range [%#" PRIx64 ", %#" PRIx64 "]",
		file, line, br ? br->start : 0, br ? br->end : 0);
	REQUIRE(blockrange_ctx_nr_ranges(ctx) == n,
		"%s:%d: nr_ranges %zu, expected %zu", file, line,
		blockrange_ctx_nr_ranges(ctx), n);
}

void snapshot_take(struct snapshot *s, const struct blockrange_ctx *ctx)
{
	const struct blockrange *br;
	size_t i = 0;

	s->n = blockrange_ctx_nr_ranges(ctx);
	s->r = calloc(s->n ? s->n : 1, sizeof(*s->r));
	REQUIRE(s->r, "out of memory");
	for (br = blockrange_first(ctx); br; br = blockrange_next(br), i++) {
		REQUIRE(i < s->n, "more ranges than nr_ranges");
		s->r[i] = (struct exp_range){
			.start = br->start, .end = br->end,
			.coverage = br->coverage, .entry = br->entry,
			.taken = br->taken, .pred = br->pred,
			.is_target = br->is_target, .is_branch = br->is_branch,
			.owner = blockrange_owner(ctx, br),
		};
	}
	REQUIRE(i == s->n, "fewer ranges than nr_ranges");
	s->blocks = blockrange_ctx_nr_blocks(ctx);
	s->has_pred = blockrange_has_pred(ctx);
}

void snapshot_assert_same(const struct snapshot *s,
			  const struct blockrange_ctx *ctx)
{
	assert_ranges_at(ctx, s->r, s->n, __FILE__, __LINE__);
	REQUIRE(blockrange_ctx_nr_blocks(ctx) == s->blocks,
		"nr_blocks changed");
	REQUIRE(blockrange_has_pred(ctx) == s->has_pred, "has_pred changed");
}

void snapshot_free(struct snapshot *s)
{
	free(s->r);
	s->r = NULL;
}
