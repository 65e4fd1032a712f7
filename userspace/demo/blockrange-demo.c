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

int main(void)
{
	struct blockrange_ctx *ctx = blockrange_ctx_new(NULL);
	struct blockrange_stack_stats st = { 0 };
	const struct blockrange *br;

	if (!ctx) {
		fprintf(stderr, "blockrange-demo: out of memory\n");
		return 1;
	}
	if (blockrange_apply_stack(ctx, stack1, sizeof(stack1) / sizeof(stack1[0]), &st) ||
	    blockrange_apply_stack(ctx, stack2, sizeof(stack2) / sizeof(stack2[0]), &st) ||
	    blockrange_apply_stack(ctx, stack3, sizeof(stack3) / sizeof(stack3[0]), &st)) {
		fprintf(stderr, "blockrange-demo: out of memory\n");
		blockrange_ctx_free(ctx);
		return 1;
	}
	printf("%" PRIu64 " stacks, %" PRIu64 " blocks counted, %zu ranges, "
	       "max coverage of %s: %" PRIu64 "\n\n", st.stacks, st.counted,
	       blockrange_ctx_nr_ranges(ctx), sym,
	       blockrange_owner_max(ctx, sym));
	printf("%-21s %3s %3s %3s %3s %2s  %s\n", "range", "cov", "ent", "tkn",
	       "prd", "TB", "figures");
	for (br = blockrange_first(ctx); br; br = blockrange_next(br)) {
		printf("%" PRIx64 "-%" PRIx64 " %3" PRIu64 " %3" PRIu64
		       " %3" PRIu64 " %3" PRIu64 " %c%c ", br->start, br->end,
		       br->coverage, br->entry, br->taken, br->pred,
		       br->is_target ? 'T' : '-', br->is_branch ? 'B' : '-');
		fig(" cov %.2f", blockrange_coverage(ctx, br));
		if (br->is_target)
			fig("  +%.2f%%", blockrange_entry_pct(br));
		if (br->is_branch) {
			fig("  -%.2f%%", blockrange_taken_pct(br));
			printf(" (p:");
			fig("%.2f%%", blockrange_pred_pct(ctx, br));
			printf(")");
		}
		printf("\n");
	}
	blockrange_ctx_free(ctx);
	return 0;
}
