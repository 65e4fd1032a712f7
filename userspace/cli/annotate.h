/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `blockrange annotate`: branch stacks -> one libblockrange context per
 * DSO -> the seed's annotated disassembly (text) or the same numbers as
 * JSON, for the hot symbols of every DSO, hottest first.
 *
 * Blocks are the seed's: for consecutive entries (older, newer) of a
 * stack, the block [older.to, newer.from], keyed by (DSO, ELF address)
 * through the process's mappings (session.h says which blocks are
 * skipped and why).  A block is owned by the symbol containing its start.
 * Sample IPs give the Percent column.
 *
 * Symbols of a DSO: its (or its debug file's) .symtab, else .dynsym; a DSO
 * without any gets pseudo-symbols "NAME+0xADDR" over its hot code: the
 * runs of covered ranges and sample IPs in which no two neighbours are
 * more than ANNOT_PSEUDO_GAP bytes apart (ADDR: the run's first ELF
 * address).  The kernel with --kallsyms only has symbols but no code: its
 * symbols list their ranges instead of instructions.
 */
#ifndef BLOCKRANGE_CLI_ANNOTATE_H
#define BLOCKRANGE_CLI_ANNOTATE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <blockrange/blockrange.h>

#include "events.h"
#include "profile.h"
#include "session.h"

#define ANNOT_PSEUDO_GAP 64

/*
 * Most times one sample may be repeated by a count line: the library counts
 * a block at a time, so a repeat costs a replay of the whole stack, and a
 * larger count is refused (exit status 2) instead of running for hours.
 */
#define ANNOT_MAX_REPEAT (1u << 20)

struct annot_dso {
	struct dso *dso;
	struct blockrange_ctx *ctx;
	struct pairmap ips;		/* (vaddr, 0) -> IP samples */
	/*
	 * Taken branches whose source and target are in this DSO, in one
	 * mapping: (from, to) -> times taken, and how often mispredicted.
	 */
	struct pairmap edges;
	struct pairmap edges_miss;
	uint64_t samples;
	uint64_t *sym_samples;		/* per symbol (bin.syms or ksyms) */
	size_t nr_syms;
};

struct annot {
	struct session s;
	struct annot_dso **per;		/* by dso->idx, NULL: no data */
	size_t nr_per;
	uint64_t total;			/* samples, weighted */
	struct session_addr *ends;	/* 2 per entry: from, to */
	size_t ends_cap;
};

struct annot_opts {
	const char *const *symbols;	/* NULL: every symbol with data */
	size_t nr_symbols;
	bool color;
	bool json;
	bool source;			/* interleave file:line */
};

/* 0, or an exit status after a message (see session_init()). */
int annot_init(struct annot *a, const char *name,
	       const struct session_opts *o);
void annot_free(struct annot *a);

/* The sink that feeds @a (sample, mmap, comm, task, build_id). */
void annot_sink(struct annot *a, struct ev_sink *sink);

/* The per-DSO data of @d, NULL if none was counted. */
const struct annot_dso *annot_dso_of(const struct annot *a,
				     const struct dso *d);

/* Coverage count of the instruction at @vaddr of @d (0 if in no range). */
uint64_t annot_coverage_at(const struct annot *a, const struct dso *d,
			   uint64_t vaddr);

/* Number of DSOs with samples or counted blocks. */
size_t annot_nr_dsos(const struct annot *a);

/**
 * struct annot_sym - a symbol (or pseudo-symbol) to show, with its figures
 * @ad:      its DSO's data
 * @name:    symbol name, or "DSO+0xADDR" for a pseudo-symbol
 * @start:   first ELF address
 * @end:     end, exclusive
 * @samples: sample IPs in [@start, @end)
 * @maxcov:  the highest coverage of a range of the symbol
 * @owner:   the library owner key (NULL for pseudo-symbols)
 * @pseudo:  a pseudo-symbol over code no symbol covers
 * @ksym:    a kallsyms symbol: ranges only, no instructions
 */
struct annot_sym {
	struct annot_dso *ad;
	const char *name;
	char *own_name;
	uint64_t start;
	uint64_t end;
	uint64_t samples;
	uint64_t maxcov;
	const void *owner;
	bool pseudo;
	bool ksym;
};

struct annot_syms {
	struct annot_sym *v;
	size_t nr;
	size_t cap;
};

/*
 * The symbols to show, hottest first (samples, then highest coverage, then
 * DSO order and address), or the @symbols named, in that order, each in
 * every DSO that has it.  0, -1 with a message (a name no DSO has), -2 out
 * of memory.  Free with annot_symbols_free().
 */
int annot_symbols(struct annot *a, const char *const *symbols,
		  size_t nr_symbols, struct annot_syms *out, char *err,
		  size_t errsz);
void annot_symbols_free(struct annot_syms *syms);

/*
 * The seed's figures at @addr of @sym, with coverage relative to the
 * symbol's highest (blockrange_addr_info() for real symbols).
 */
void annot_sym_addr_info(const struct annot_sym *sym, uint64_t addr,
			 struct blockrange_addr_info *info);
struct blockrange_fig annot_sym_coverage(const struct annot_sym *sym,
					 const struct blockrange *br);

/*
 * The annotate colour scale of a coverage figure (the seed's): HOT above
 * 75 % of the symbol's highest coverage (red), COLD below 1 % (no colour),
 * WARM otherwise and when the coverage is unknown (magenta).
 */
enum annot_heat {
	ANNOT_COLD = 0,
	ANNOT_WARM,
	ANNOT_HOT,
};

enum annot_heat annot_heat_of(struct blockrange_fig cov);

/*
 * The comment annotate prints after an instruction, without the "\t# ":
 * "+NN.NN%" on a branch target, "-NN.NN% (p:NN.NN%)" on a branch (each
 * only above 0.1 %), both separated by a space, or "".  Returns its length.
 */
#define ANNOT_COMMENT_MAX 64
size_t annot_comment(const struct blockrange_addr_info *info, char *buf,
		     size_t bufsz);

/*
 * One instruction's text, with room for capstone's operands or a direct
 * branch target named by the longest symbol of any DSO: nothing is cut.
 * @insn: the last decoded instruction (kind EB_OTHER and size 1 for
 * undecodable bytes, shown as "(bad)").
 */
struct annot_insn_text {
	char mnem[32];
	char *ops;
	size_t opssz;
	char *line;
	size_t linesz;
	struct eb_insn insn;
};

/* 0, or -1 out of memory.  Free with annot_insn_text_free(). */
int annot_insn_text_init(struct annot_insn_text *t, const struct annot *a);
void annot_insn_text_free(struct annot_insn_text *t);

/*
 * Decode @addr of @d into t->line, "MNEMONIC OPERANDS" with the mnemonic
 * padded to @pad, and t->insn; returns the instruction size (1 for
 * undecodable bytes).
 */
unsigned annot_insn_line(const struct dso *d, uint64_t addr,
			 struct annot_insn_text *t, int pad);

/**
 * struct annot_branch - a taken branch of a symbol's DSO (annot_dso.edges)
 * @from:         source (ELF address)
 * @to:           target
 * @count:        times taken (every branch record, weighted by repeats)
 * @mispredicted: how many of those had the mispredicted flag
 */
struct annot_branch {
	uint64_t from;
	uint64_t to;
	uint64_t count;
	uint64_t mispredicted;
};

/*
 * The taken branches whose source or target lies in @sym, sorted by
 * (from, to), into a new array (*@out, free() it; NULL when there are
 * none).  Returns their number, or -1 out of memory.
 */
long annot_sym_branches(const struct annot_sym *sym,
			struct annot_branch **out);

/* Totals over every taken branch of @ad: times taken and mispredicted. */
void annot_dso_branch_totals(const struct annot_dso *ad, uint64_t *taken,
			     uint64_t *mispredicted);

/*
 * Print; 0, or -1 with a message in @err (a --symbol no DSO has: the caller
 * exits with status 2), -2 out of memory or an output error.
 */
int annot_print(struct annot *a, const struct annot_opts *o, FILE *out,
		char *err, size_t errsz);

#endif /* BLOCKRANGE_CLI_ANNOTATE_H */
