/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The collector (struct annot): the events of an input (input/events.h),
 * resolved by a resolver (resolve/resolver.h), counted per DSO into what the
 * subcommands print: libblockrange's blocks for annotate and report,
 * llvm-profgen's raw profile for ranges, BOLT's branches and traces for
 * bolt, all of them for profile (.brprof).
 *
 * Blocks are the seed's: for consecutive entries (older, newer) of a
 * stack, the block [older.to, newer.from], keyed by (DSO, ELF address)
 * through the process's mappings (resolver.h says which blocks are
 * skipped and why).  A block is owned by the symbol containing its start
 * (dso_sym_at()).  Sample IPs give annotate's Percent column.
 *
 * What a printer asks of the collected data (the hot symbols, their
 * figures and branches) is collect/symbols.h; the printers are in output/
 * and take the collector finished and read-only (annot_symbols() finishes
 * it).
 */
#ifndef BLOCKRANGE_CLI_COLLECT_ANNOT_H
#define BLOCKRANGE_CLI_COLLECT_ANNOT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <blockrange/blockrange.h>

#include "collect/bolt.h"
#include "collect/profile.h"
#include "input/events.h"
#include "input/par.h"
#include "resolve/resolver.h"

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
 *  ANNOT_PROFGEN  llvm-profgen's raw profile (collect/profile.h);
 *  ANNOT_BOLT     BOLT's branches and fall-through traces (collect/bolt.h).
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
 * The libblockrange engine behind ANNOT_BLOCKS (see the top-level
 * README.md, "Which engine"): the batch engine aggregates distinct blocks per DSO and builds
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
	struct resolver s;
	struct annot_cfg cfg;
	struct annot_dso **per;		/* by dso->idx, NULL: no data */
	size_t nr_per;
	uint64_t total;			/* samples, weighted */
	struct profile raw;		/* PROFGEN with cfg.raw */
	/*
	 * PROFGEN: whether the profile is context-sensitive, made from each
	 * DSO's samples with a call stack (profile.hybrid), as llvm-profgen
	 * decides it for perf script text: by the input's first sample with
	 * a branch stack it recognizes (one with a call stack needs two
	 * entries, its LBR line no IP), at @first (line, else offset).
	 */
	bool stacks;
	bool decided;
	uint64_t first_line;
	uint64_t first_offset;
	bool finished;
	/* scratch of the sample callback */
	struct resolver_addr *ends;	/* 2 per entry: from, to */
	size_t ends_cap;
	struct profile_kept *kept;
	size_t kept_cap;
	struct annot_dso **touched;
	size_t touched_cap;
	struct resolver_addr *frames;	/* a sample's call stack, resolved */
	size_t frames_cap;
	uint64_t *dso_addrs;		/* one DSO's view of the frames, then
					 * of the entries */
	size_t dso_addrs_cap;
};

/*
 * 0, or a BR_* value with a message in @err (see resolver_init()).  @cfg
 * NULL: ANNOT_BLOCKS with the batch engine.  With ANNOT_PROFGEN the DSOs
 * are opened with llvm-profgen's code set.
 */
int annot_init(struct annot *a, const char *name,
	       const struct resolver_opts *o, const struct annot_cfg *cfg,
	       char *err, size_t errsz);
void annot_free(struct annot *a);

/* The sink that feeds @a (sample, mmap, comm, task, build_id). */
void annot_sink(struct annot *a, struct ev_sink *sink);

/*
 * The callbacks of that sink for a .brprof (input/events.h; arg: struct
 * annot *, collect/annot_profile.c): the profile's statistics become the
 * resolver's, and each DSO's counts are added for the parts of @a's
 * configuration.  A profile cannot filter samples by event or take one
 * range per sample: with those options annot_profile() is BR_EUSAGE.
 */
int annot_profile(void *arg, const struct ev_profile *p, char *err,
		  size_t errsz);
int annot_profile_dso(void *arg, const struct ev_profile_dso *d, char *err,
		      size_t errsz);

/*
 * The consumer (input/par.h) that feeds @a with several threads: workers
 * of their own, merged into @a (collect/annot_par.c).  The tree engine
 * counts on one thread: read with par_collect(..., 1, ...).
 */
void annot_par_consumer(struct annot *a, struct par_consumer *c);

/* The per-sample callback of that sink (arg: struct annot *). */
int annot_sample(void *arg, const struct ev_sample *smp, char *err,
		 size_t errsz);

/*
 * Add everything @src collected to @dst (same options, both before
 * annot_finish(); the DSOs of both come from one registry, see par.h):
 * blocks, IPs, branches, profiles, statistics; @dst keeps its event if it
 * has one (resolver_merge_event()).  0, BR_EINPUT if a count would pass
 * 2^64 - 1 (@dst is then unusable), BR_ESYS out of memory.
 */
int annot_merge(struct annot *dst, const struct annot *src);

/*
 * After the input: the batch engine builds every DSO's ranges, and each
 * DSO's samples per symbol are summed from its IPs.  0 or BR_ESYS (out of
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
 * block @count times into it (either engine): 0, BR_EINPUT a sum would
 * pass 2^64 - 1, BR_ESYS out of memory.
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

#endif /* BLOCKRANGE_CLI_COLLECT_ANNOT_H */
