/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The control-flow graph of one annotated symbol, from its disassembly and
 * the branch records (annotate.h), for `blockrange report`.
 *
 * Instructions: the symbol is decoded linearly from its start to its end,
 * as annotate lists it (undecodable bytes are one-byte "(bad)"
 * instructions).
 *
 * Basic blocks start at the leaders:
 *   - the symbol's first instruction;
 *   - the targets of direct jumps, conditional branches and calls that are
 *     instructions of the symbol;
 *   - the targets of taken branches (annot_sym_branches()) that are
 *     instructions of the symbol (indirect jumps, returns into it);
 *   - the instruction after every branch (jump, conditional branch, call,
 *     return).
 * A block runs from its leader up to the next leader or the symbol's end.
 *
 * Per block: its coverage is the highest coverage of its instructions'
 * ranges (equal for all of them unless a record ended or started inside
 * the block, e.g. at an interrupt), its coverage figure is that range's
 * (relative to the symbol's highest coverage, as annotate's colours), its
 * samples the sample IPs on its instructions.
 *
 * Edges:
 *   - CFG_TAKEN / CFG_CALL / CFG_RETURN: a taken branch from the branch
 *     records, by the kind of its source instruction (a call, a return,
 *     anything else).  Count: every record of the branch (weighted by
 *     repeats), mispredicted: those with the M flag.  A record's oldest
 *     entry counts here too, although no counted block ends there, so a
 *     branch's count can exceed the taken count annotate shows for it.
 *     Branches between the symbol and other code of its DSO go to or come
 *     from one external node per other symbol (code without a symbol: one
 *     node per executable section, such as ".plt.sec", else "(no symbol)").
 *     Branches that leave the DSO are not in the records.
 *   - CFG_FALL: from a block whose last instruction is not a jump, call or
 *     return to the next block.  Count: the coverage of the last
 *     instruction minus the taken count of the range ending at it (the
 *     counted blocks that ran through it; 0 when no range ends there).
 *     Both come from the same counted blocks, so
 *     coverage(last) = fall-through + taken at the last instruction, and
 *     coverage(leader) = entries there + fall-through into it.
 *   - CFG_AFTER_CALL: from a block ending in a call to the next block,
 *     without a count: the call returns there (the returns themselves are
 *     the CFG_RETURN edges of the callee's node, when it is in the DSO).
 *   Static edges are drawn even when nothing went along them (count 0):
 *   direct branches to instructions of the symbol and fall-throughs.
 * Several records between the same two nodes with the same kind (e.g.
 * returns from two sites of one callee) make one edge with their sums.
 *
 * Cap: with more than @max_blocks blocks, only the @max_blocks hottest
 * (coverage, then samples, then address) are drawn, and only edges between
 * drawn nodes; cfg.nr_hidden and hidden_max_cov say what was left out.
 */
#ifndef BLOCKRANGE_CLI_CFG_H
#define BLOCKRANGE_CLI_CFG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "output/annotate.h"

struct cfg_insn {
	uint64_t addr;
	uint8_t size;
	uint8_t kind;		/* enum eb_kind */
	bool has_target;	/* a direct branch or call */
	uint64_t target;
};

struct cfg_block {
	uint64_t start;		/* first instruction */
	uint64_t last;		/* address of the last instruction */
	uint64_t end;		/* exclusive */
	size_t first;		/* index of the first instruction */
	size_t nr_insns;
	uint64_t coverage;
	struct blockrange_fig coverage_fig;
	enum annot_heat heat;
	uint64_t samples;
	bool drawn;
};

struct cfg_ext {
	char *name;		/* symbol or section name, or "(no symbol)" */
	bool drawn;		/* has an edge to or from a drawn block */
};

enum cfg_edge_kind {
	CFG_TAKEN = 0,
	CFG_CALL,
	CFG_RETURN,
	CFG_FALL,
	CFG_AFTER_CALL,
};

extern const char *const cfg_edge_kind_names[];

/* A node: a block index, or an external node's index with @ext. */
struct cfg_node_ref {
	size_t idx;
	bool ext;
};

struct cfg_edge {
	enum cfg_edge_kind kind;
	struct cfg_node_ref from;
	struct cfg_node_ref to;
	uint64_t count;		/* 0 for CFG_AFTER_CALL */
	uint64_t mispredicted;	/* taken kinds */
	bool drawn;		/* both ends drawn */
};

struct cfg {
	struct cfg_insn *insns;
	size_t nr_insns;
	struct cfg_block *blocks;
	size_t nr_blocks;
	struct cfg_ext *exts;
	size_t nr_exts;
	struct cfg_edge *edges;
	size_t nr_edges;
	size_t nr_drawn;	/* blocks drawn */
	size_t nr_hidden;	/* blocks left out by the cap */
	uint64_t hidden_max_cov;	/* highest coverage among them */
	uint64_t max_count;	/* highest edge count drawn */
};

/*
 * Build the graph of @sym (not a kallsyms symbol: it needs code).  @tx
 * decodes (annot_insn_text_init()).  0, or BR_ESYS out of memory (then @g is
 * empty).  Free with cfg_free().
 */
int cfg_build(const struct annot_sym *sym, size_t max_blocks,
	      struct annot_insn_text *tx, struct cfg *g);
void cfg_free(struct cfg *g);

/* The block containing @addr, or -1. */
long cfg_block_at(const struct cfg *g, uint64_t addr);

#endif /* BLOCKRANGE_CLI_CFG_H */
