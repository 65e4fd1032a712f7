/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shim for compiling perf 6.1's tools/perf/util/block-range.c on its own
 * (the benchmark anchor): it includes "annotate.h" only for the symbol's
 * annotation, whose max_coverage block_range__coverage() divides by.  The
 * benchmark driver (splitbench.c) maintains max_coverage as the seed's
 * process_basic_block() does.  Nothing else of perf is needed.
 */
#ifndef BENCH_PERF61_SHIM_ANNOTATE_H
#define BENCH_PERF61_SHIM_ANNOTATE_H

#include <linux/types.h>

struct annotation {
	u64 max_coverage;
};

struct symbol {
	struct annotation annotation;
};

static inline struct annotation *symbol__annotation(struct symbol *sym)
{
	return &sym->annotation;
}

#endif
