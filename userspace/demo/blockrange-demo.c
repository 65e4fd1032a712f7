// SPDX-License-Identifier: GPL-2.0
/*
 * A short demonstration of libblockrange: three branch stacks of a small
 * loop (the seed's "branches" shape: a test, two paths, a back edge) are
 * applied, then every range is printed with its counters and the seed's
 * figures.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include <blockrange/blockrange.h>

static const char sym[] = "branches";

#define B(f, t, p) { .from = (f), .to = (t), .to_owner = sym, .predicted = (p), \
		     .mispredicted = !(p) }

/*
 * 0x40059f: loop head ... 0x4005a9: je 0x4005bf
 * 0x4005ab: path A ...     0x4005bd: jmp 0x4005d1
 * 0x4005bf: path B ...     (falls through)
 * 0x4005d1: join ...       0x40065e: jb 0x40059f (back edge)
 * Newest entry first.
 */
static const struct blockrange_branch stack1[] = {
	B(0x40065e, 0x40059f, 1), B(0x4005bd, 0x4005d1, 1),
	B(0x40065e, 0x40059f, 1), B(0x4005a9, 0x4005bf, 0),
	B(0x40065e, 0x40059f, 1),
};
static const struct blockrange_branch stack2[] = {
	B(0x4005a9, 0x4005bf, 1), B(0x40065e, 0x40059f, 1),
	B(0x4005bd, 0x4005d1, 1), B(0x40065e, 0x40059f, 0),
};
static const struct blockrange_branch stack3[] = {
	B(0x40065e, 0x40059f, 1), B(0x4005a9, 0x4005bf, 1),
	B(0x40065e, 0x40059f, 1),
};

static void fig(const char *fmt, struct blockrange_fig f)
{
	if (f.status == BLOCKRANGE_FIG_OK)
		printf(fmt, f.value);
	else if (f.status == BLOCKRANGE_FIG_UNKNOWN)
		printf(" n/a");
}

/* Print every range of @ctx (either engine) through the common queries. */
static void show(const struct blockrange_ctx *ctx)
{
	struct blockrange_rec r;
	bool more;

	printf("%-21s %3s %3s %3s %3s %2s  %s\n", "range", "cov", "ent", "tkn",
	       "prd", "TB", "figures");
	for (more = blockrange_rec_first(ctx, &r); more;
	     more = blockrange_rec_next(ctx, &r)) {
		printf("%" PRIx64 "-%" PRIx64 " %3" PRIu64 " %3" PRIu64
		       " %3" PRIu64 " %3" PRIu64 " %c%c ", r.start, r.end,
		       r.coverage, r.entry, r.taken, r.pred,
		       r.is_target ? 'T' : '-', r.is_branch ? 'B' : '-');
		fig(" cov %.2f", blockrange_rec_coverage(ctx, &r));
		if (r.is_target)
			fig("  +%.2f%%", blockrange_rec_entry_pct(ctx, &r));
		if (r.is_branch) {
			fig("  -%.2f%%", blockrange_rec_taken_pct(&r));
			printf(" (p:");
			fig("%.2f%%", blockrange_rec_pred_pct(ctx, &r));
			printf(")");
		}
		printf("\n");
	}
}

#define NR(a) (sizeof(a) / sizeof((a)[0]))

int main(void)
{
	struct blockrange_ctx *ctx = blockrange_ctx_new(NULL), *frozen = NULL;
	struct blockrange_agg *agg = blockrange_agg_new(NULL);
	struct blockrange_stack_stats st = { 0 }, ast = { 0 };
	int status = 1;

	if (!ctx || !agg)
		goto oom;
	/* The tree, one stack at a time. */
	if (blockrange_apply_stack(ctx, stack1, NR(stack1), &st) ||
	    blockrange_apply_stack(ctx, stack2, NR(stack2), &st) ||
	    blockrange_apply_stack(ctx, stack3, NR(stack3), &st))
		goto oom;
	printf("tree: %" PRIu64 " stacks, %" PRIu64 " blocks counted, %zu ranges, "
	       "max coverage of %s: %" PRIu64 "\n\n", st.stacks, st.counted,
	       blockrange_ctx_nr_ranges(ctx), sym,
	       blockrange_owner_max(ctx, sym));
	show(ctx);

	/* The batch engine: the same stacks aggregated, in another order. */
	if (blockrange_agg_add_stack(agg, stack3, NR(stack3), 1, &ast) ||
	    blockrange_agg_add_stack(agg, stack1, NR(stack1), 1, &ast) ||
	    blockrange_agg_add_stack(agg, stack2, NR(stack2), 1, &ast) ||
	    blockrange_build(agg, NULL, &frozen))
		goto oom;
	printf("\nbatch: %zu distinct blocks of %" PRIu64 ", %zu ranges "
	       "(%zu bytes), max coverage of %s: %" PRIu64 "\n\n",
	       blockrange_agg_nr_blocks(agg), blockrange_agg_weight(agg),
	       blockrange_ctx_nr_ranges(frozen), blockrange_ctx_mem(frozen), sym,
	       blockrange_owner_max(frozen, sym));
	show(frozen);
	status = 0;
	goto out;
oom:
	fprintf(stderr, "blockrange-demo: out of memory\n");
out:
	blockrange_ctx_free(ctx);
	blockrange_ctx_free(frozen);
	blockrange_agg_free(agg);
	return status;
}
