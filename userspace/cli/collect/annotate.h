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

#include "input/events.h"
#include "collect/profile.h"
#include "resolve/session.h"

#define ANNOT_PSEUDO_GAP 64

/*
 * Most times one sample may be repeated by a count line with the tree
 * engine: it counts a block at a time, so a repeat costs a replay of the
 * whole stack, and a larger count is refused (exit status 2) instead of
 * running for hours.  The batch engine counts a repeated stack once, with
 * the count as weight, and takes any count whose sums fit in 64 bits.
 */
#define ANNOT_MAX_REPEAT (1u << 20)

/*
 * The engine is also the collector of every per-DSO profile the
 * subcommands print (struct annot_cfg.parts says which):
 *  ANNOT_BLOCKS   the blocks (libblockrange), sample IPs and taken branches
 *                 of annotate and report;
 *  ANNOT_PROFGEN  llvm-profgen's raw profile (profile.h) of ranges;
 *  ANNOT_BOLT     BOLT's branches and fall-through traces (bolt.h).
 * Every part is additive: two collectors of the same options merge into
 * the collector of both inputs (annot_merge()), which is how -j and .brprof
 * merging work.
 */
enum {
	ANNOT_BLOCKS = 1u,
	ANNOT_PROFGEN = 2u,
	ANNOT_BOLT = 4u,
};

/*
 * The libblockrange engine behind ANNOT_BLOCKS (see README.md, "Which
 * engine"): the batch engine aggregates distinct blocks per DSO and builds
 * the ranges once the input is read (annot_finish()); the tree counts every
 * block as it comes.  Both give the same output.
 */
enum annot_engine {
	ANNOT_ENGINE_BATCH = 0,
	ANNOT_ENGINE_TREE,
};

struct annot_cfg {
	unsigned parts;			/* ANNOT_* */
	enum annot_engine engine;
	const char *event;		/* keep only samples of this event */
	bool leading_ip_only;		/* PROFGEN: one ip-ip range a sample */
	bool raw;			/* PROFGEN without a binary: every
					 * address is code (annot.raw) */
};

/*
 * BOLT's profile of one DSO, as perf2bolt aggregates branch stacks (see
 * bolt.h): taken branches with at least one end in the DSO (the other end
 * BOLT_EXTERNAL when it is outside), and fall-through traces [older.to,
 * newer.from] of consecutive entries with both ends in it, split by whether
 * the branch that entered the trace came from the function the trace
 * starts in.
 */
#define BOLT_EXTERNAL 0
struct bolt_dso {
	struct pairmap br;		/* (from, to) -> taken */
	struct pairmap br_miss;		/* (from, to) -> mispredicted */
	struct pairmap ft;		/* (start, end) -> entered from inside */
	struct pairmap ft_ext;		/* entered from elsewhere */
};

struct annot_dso {
	struct dso *dso;
	/* ANNOT_BLOCKS */
	bool has_blocks;		/* an IP, block or branch was counted */
	struct blockrange_agg *agg;	/* batch: the blocks until finished */
	struct blockrange_ctx *ctx;	/* tree: counted into; batch: built */
	struct pairmap ips;		/* (vaddr, 0) -> IP samples */
	/*
	 * Taken branches whose source and target are in this DSO, in one
	 * mapping: (from, to) -> times taken, and how often mispredicted.
	 */
	struct pairmap edges;
	struct pairmap edges_miss;
	uint64_t samples;
	uint64_t *sym_samples;		/* per symbol (bin.syms or ksyms),
					 * made by annot_finish() */
	size_t nr_syms;
	/* ANNOT_PROFGEN */
	bool has_prof;
	struct profile prof;
	/* ANNOT_BOLT */
	bool has_bolt;
	struct bolt_dso bolt;
};

struct annot {
	struct session s;
	struct annot_cfg cfg;
	struct annot_dso **per;		/* by dso->idx, NULL: no data */
	size_t nr_per;
	uint64_t total;			/* samples, weighted */
	struct profile raw;		/* PROFGEN with cfg.raw */
	bool finished;
	/* scratch of the sample callback */
	struct session_addr *ends;	/* 2 per entry: from, to */
	size_t ends_cap;
	struct profile_kept *kept;
	size_t kept_cap;
	struct annot_dso **touched;
	size_t touched_cap;
};

struct annot_opts {
	const char *const *symbols;	/* NULL: every symbol with data */
	size_t nr_symbols;
	bool color;
	bool json;
	bool source;			/* interleave file:line */
};

/*
 * 0, or an exit status after a message (see session_init()).  @cfg NULL:
 * ANNOT_BLOCKS with the batch engine.  With ANNOT_PROFGEN the DSOs are
 * opened with llvm-profgen's code set.
 */
int annot_init(struct annot *a, const char *name,
	       const struct session_opts *o, const struct annot_cfg *cfg);
void annot_free(struct annot *a);

/* The sink that feeds @a (sample, mmap, comm, task, build_id). */
void annot_sink(struct annot *a, struct ev_sink *sink);

/* The per-sample callback of that sink (arg: struct annot *). */
int annot_sample(void *arg, const struct ev_sample *smp, char *err,
		 size_t errsz);

/*
 * Add everything @src collected to @dst (same options, both before
 * annot_finish(); the DSOs of both come from one registry, see par.h):
 * blocks, IPs, branches, profiles, statistics; @dst keeps its event if it
 * has one (session_merge_event()).  0, -1 if a count would pass 2^64 - 1
 * (@dst is then unusable), -2 out of memory.
 */
int annot_merge(struct annot *dst, const struct annot *src);

/*
 * After the input: the batch engine builds every DSO's ranges, and each
 * DSO's samples per symbol are summed from its IPs.  0 or -2 (out of
 * memory).  Idempotent.
 */
int annot_finish(struct annot *a);

/* The per-DSO data of @d, NULL if no block data was counted. */
const struct annot_dso *annot_dso_of(const struct annot *a,
				     const struct dso *d);

/* The per-DSO data of @d (any part), created if needed; NULL: no memory. */
struct annot_dso *annot_per_dso(struct annot *a, struct dso *d);

/*
 * The block part of @d's data, ready to count into (before annot_finish())
 * or to be queried; NULL out of memory.  annot_add_block() counts a
 * block @count times into it (either engine): 0, -1 a sum would pass
 * 2^64 - 1, -2 out of memory.
 */
struct annot_dso *annot_blocks_of(struct annot *a, struct dso *d);
int annot_add_block(struct annot *a, struct annot_dso *ad, uint64_t start,
		    uint64_t end, enum blockrange_pred pred, uint64_t count);

/* Coverage count of the instruction at @vaddr of @d (0 if in no range). */
uint64_t annot_coverage_at(const struct annot *a, const struct dso *d,
			   uint64_t vaddr);

/* Number of DSOs with samples or counted blocks. */
size_t annot_nr_dsos(const struct annot *a);

/* ANNOT_PROFGEN: the profiles, in DSO order (the raw one with cfg.raw). */
size_t annot_nr_profiles(const struct annot *a);
const struct profile *annot_profile_at(const struct annot *a, size_t i);
/* The profile of @d (NULL: none); @d NULL: the raw one. */
const struct profile *annot_profile_of(const struct annot *a,
				       const struct dso *d);

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
 * symbol's highest (blockrange_addr_rec() for real symbols).  Both work on
 * either engine's context.  @rec NULL: an address in no range.
 */
void annot_sym_addr_info(const struct annot_sym *sym, uint64_t addr,
			 struct blockrange_addr_rec *info);
struct blockrange_fig annot_sym_coverage(const struct annot_sym *sym,
					 const struct blockrange_rec *rec);

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
size_t annot_comment(const struct blockrange_addr_rec *info, char *buf,
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
