/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `blockrange annotate`: branch stacks -> libblockrange context -> the
 * seed's annotated disassembly (text) or the same numbers as JSON.
 *
 * Every sample's entries are mapped to the binary's virtual addresses; an
 * address outside the binary's executable sections becomes 0, which the
 * library skips (skipped_zero), so blocks that start or end outside the
 * binary are not counted.  Blocks are owned by the symbol containing their
 * start (the seed's rule).  Sample IPs give the Percent column.
 */
#ifndef BLOCKRANGE_CLI_ANNOTATE_H
#define BLOCKRANGE_CLI_ANNOTATE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <blockrange/blockrange.h>

#include "elfbin.h"
#include "mapper.h"
#include "perfscript.h"
#include "profile.h"

struct annot {
	const char *name;		/* input name, for messages */
	const struct eb_binary *bin;
	struct mapper map;
	struct blockrange_ctx *ctx;
	struct blockrange_stack_stats stats;
	struct pairmap ips;		/* (vaddr, 0) -> IP samples */
	uint64_t *sym_samples;		/* per bin->syms index */
	uint64_t samples;		/* all samples read */
	char *event;			/* first sample's event, NULL: none */
	bool mixed_events;
	struct blockrange_branch *br;
	size_t br_cap;
};

struct annot_opts {
	const char *const *symbols;	/* NULL: every symbol with data */
	size_t nr_symbols;
	bool color;
	bool json;
};

int annot_init(struct annot *a, const char *name, const struct eb_binary *bin,
	       char *err, size_t errsz);
void annot_free(struct annot *a);

/*
 * Most times one sample may be repeated by a count line: the library counts
 * a block at a time, so a repeat costs a replay of the whole stack, and a
 * larger count is refused (exit status 2) instead of running for hours.
 */
#define ANNOT_MAX_REPEAT (1u << 20)

/* ps_callbacks for ps_read(), arg = struct annot * */
int annot_sample(void *arg, const struct ps_sample *s, char *err,
		 size_t errsz);
int annot_mmap(void *arg, const struct ps_mmap *m, char *err, size_t errsz);

/* Coverage count of the instruction at @vaddr (0 if in no range). */
uint64_t annot_coverage_at(const struct annot *a, uint64_t vaddr);

/* Print; 0, or -1 with a message in @err (unknown --symbol). */
int annot_print(const struct annot *a, const struct annot_opts *o, FILE *out,
		char *err, size_t errsz);

#endif /* BLOCKRANGE_CLI_ANNOTATE_H */
