/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libblockrange: basic-block ranges from branch stacks (LBR).
 *
 * Semantics are those of perf's "annotate: Add branch stack / basic block"
 * (kernel commit 70fbe0574558), without its global state.
 *
 * A *block* [start, end] is a run of instructions executed straight through:
 * it starts at a branch target (@start, the @to of the older of two
 * consecutive branch-stack entries) and ends with a branch (@end, the @from of
 * the newer entry).  Addresses are inclusive; 0 is never an instruction.
 *
 * A context holds a set of non-overlapping *ranges* ordered by address.
 * blockrange_create(start, end) makes the set contain ranges that exactly
 * tile [start, end], splitting ranges that stick out at either end and
 * filling the holes; ranges are never merged or removed again.  So, at any
 * time, with B the set of blocks created so far:
 *  - the ranges tile the union of B, without overlap;
 *  - each range is a maximal run of addresses that contains no cut point
 *    except at its start, where the cut points are every block's start and
 *    every block's end + 1;
 *  - is_target is set iff some block of B starts at the range's start;
 *    is_branch is set iff some block of B ends at the range's end.
 * With blockrange_count_block() (the seed's process_basic_block()) each
 * range then carries, over the blocks counted so far:
 *  - coverage: the number of blocks that contain the range (every address
 *    in a range has the same coverage);
 *  - entry: the number of blocks that start at the range's start;
 *  - taken: the number of blocks that end at the range's end, i.e. how
 *    often the branch there was taken;
 *  - pred: how many of those ends had the "predicted" flag.
 * Splits carry these counters over exactly as the seed does: a range split
 * at address a keeps coverage on both sides, entry on the low side only and
 * taken / pred on the high side only; the low side keeps the old is_target,
 * the high side the old is_branch; new boundaries get the flags of the block
 * that made them.
 *
 * Weights: a block may be counted with a weight w >= 1 (a sample seen w
 * times, or w identical blocks of an aggregate): every counter above grows
 * by w instead of 1.  The sum of all weights counted into a context or
 * aggregate must fit in 64 bits; it bounds every counter, so no counter can
 * overflow.  A call that would exceed it fails with -EOVERFLOW and changes
 * nothing (counters never saturate).
 *
 * Owners: every counted block names an owner, an opaque caller key (a symbol
 * pointer, an id cast to a pointer; NULL for none).  A range's owner and the
 * per-owner maximum coverage depend only on the multiset of blocks counted,
 * never on their order (so aggregated and merged profiles get them too):
 *  - the owner of a range is the owner of the covering block with the
 *    highest start (the nearest branch target at or before the range),
 *    ignoring blocks without owner; among such blocks with the same start,
 *    the smallest key, compared as an unsigned integer (uintptr_t); NULL if
 *    no covering block has an owner.  All addresses of a range are covered
 *    by the same blocks, so the rule is the same for every address;
 *  - blockrange_owner_max(O) is the highest coverage of a range whose owner
 *    is O (0 if O owns no range).
 * Intended difference from the seed, which gives every range the owner of
 * the last block counted over it and keeps, per owner, the running maximum
 * of the coverage reached while counting a block of that owner: both rules
 * give the same owners and maxima whenever every range is covered by blocks
 * of a single owner (always the case when the owner is a function of the
 * block start, such as the symbol containing it, and blocks do not cross
 * symbol boundaries).  Where they differ, the seed's answer depends on the
 * order of the samples.  Ties between keys (blocks of different owners
 * starting at the same address) are the only place where key values
 * matter: pass small integer ids rather than heap pointers if results must
 * be reproducible across processes.
 * Unlike the seed, a range split in two keeps its owner on both sides (the
 * seed drops the symbol from the split-off part, which makes its coverage
 * "unknown" although its counters were carried over).
 *
 * Errors: functions that can fail return 0 or a negative errno value:
 *  -EINVAL  start == 0 or start > end (or a NULL argument that must not be);
 *  -ENOMEM  the allocator failed; ranges, counters and owners are exactly
 *           as before the call (only spare capacity may have grown), and no
 *           iterator is returned.
 * Every allocation a call needs is made before the first change, so there
 * is no rollback and no half-done operation.
 * All arithmetic is safe up to UINT64_MAX (no end + 1 overflow).
 *
 * Two engines compute these ranges, with the same results for the same
 * blocks (whatever their order, however they were split and merged):
 *  - the tree (incremental): blockrange_ctx_new(), then
 *    blockrange_count_block() / blockrange_apply_stack() per block or
 *    sample; the ranges exist and can be queried after every block.
 *    A block costs O((k + 1) log n) for the k ranges it covers.
 *  - the batch engine: blocks are first aggregated by identity (start, end,
 *    prediction, owner) with a count each into a struct blockrange_agg,
 *    which chooses per chunk of blocks, from the blocks themselves, how:
 *    where blocks repeat, a hash table that sums them; where they do not,
 *    16-byte records appended to address partitions with no per-block
 *    hashing, sorted and summed later in the cache.  Adding a block costs
 *    the same whatever its length; aggregates merge.  blockrange_build()
 *    then makes a *frozen* context from one sort-and-sweep over the
 *    blocks, window by window.  Memory grows with distinct blocks, not
 *    with samples.
 * Which to use: the batch engine whenever the ranges are needed only once
 * the input is read (annotating, listing or exporting a whole profile,
 * merging profiles): it is faster than the tree on any stream (a block
 * costs a probe of a small table or an append, whatever its length and
 * however many ranges it covers), its result is 32 bytes per range (the
 * tree's 88) and aggregates merge.  The tree when ranges must be queried
 * while blocks still arrive, or for blockrange_create() without counting.
 * blockrange_count_agg() feeds an aggregate into a tree, so that both
 * engines can be compared on the same aggregate.
 *
 * Queries: the blockrange_rec_*() functions, blockrange_addr_rec(),
 * blockrange_owner_max(), blockrange_has_pred() and the blockrange_ctx_nr_*()
 * counts work on both kinds of context and report a range as a value
 * (struct blockrange_rec); use them in code that takes a result from either
 * engine.  The functions returning struct blockrange pointers (find, span,
 * first/next, the figures of a struct blockrange, blockrange_addr_info())
 * see the tree only: on a frozen context they find no range.  Functions
 * that change ranges fail with -EPERM on a frozen context.
 *
 * Memory: tree ranges live in chunks allocated from the context's allocator
 * and are freed together by blockrange_ctx_free().  A tree range is 88
 * bytes on LP64 (24 tree node, 16 bounds, 32 counters, 8 owner start,
 * 4 owner index, 2 flags, padding), with no per-range allocator overhead;
 * range pointers stay valid until the context is freed.  A frozen context
 * holds its ranges in one array of 32 bytes per range (a range whose length
 * or a counter needs more than 32 bits takes another 48 bytes in a side
 * table).  blockrange_ctx_mem() / blockrange_agg_mem() report the bytes
 * held.  With the default allocator (NULL), arrays of 2 MiB or more are
 * mapped on their own, aligned to 2 MiB, with madvise(MADV_HUGEPAGE): where
 * the kernel offers transparent huge pages, they fault in 2 MiB at a time.
 *
 * Threads: contexts and aggregates are independent; one context or
 * aggregate must not be changed by one thread while another uses it, and
 * a context must not be queried by two threads at once either
 * (blockrange_owner_max() may refresh a cache); an aggregate that nobody
 * changes may be read by several threads (blockrange_build(), the source of
 * blockrange_agg_merge(), iteration): the first reader that counts or
 * iterates its distinct blocks may sort it internally, and the others wait
 * for it.  There is no global state.
 */
#ifndef BLOCKRANGE_BLOCKRANGE_H
#define BLOCKRANGE_BLOCKRANGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <blockrange/rbtree.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * struct blockrange - one non-overlapping part of one or more blocks
 * @node:      tree linkage, ordered by address (library-private)
 * @start:     first address, inclusive (>= 1)
 * @end:       last address, inclusive (>= @start)
 * @coverage:  number of counted blocks that contain this range
 * @entry:     number of counted blocks that start at @start
 * @taken:     number of counted blocks that end at @end
 * @pred:      how many of @taken had the "predicted" flag
 * @owner_start: start of the covering block that gave @owner (see Owners)
 * @owner:     index of the owner in the context (0: none); use
 *             blockrange_owner() to get the caller's key back
 * @is_target: some created block starts at @start
 * @is_branch: some created block ends at @end
 *
 * Read-only for callers: the library maintains every field.
 */
struct blockrange {
	struct blockrange_rb_node node;
	uint64_t start;
	uint64_t end;
	uint64_t coverage;
	uint64_t entry;
	uint64_t taken;
	uint64_t pred;
	uint64_t owner_start;
	uint32_t owner;
	bool is_target;
	bool is_branch;
};

/**
 * struct blockrange_allocator - where a context gets its memory
 * @alloc: return @size bytes aligned for any object, or NULL on failure
 * @free:  release a block returned by @alloc; @size is the size asked for
 * @arg:   passed to both
 *
 * Every allocation of a context (the context itself, range chunks, the owner
 * table) goes through it, so a test can fail any chosen allocation.
 */
struct blockrange_allocator {
	void *(*alloc)(size_t size, void *arg);
	void (*free)(void *ptr, size_t size, void *arg);
	void *arg;
};

struct blockrange_ctx;

/**
 * blockrange_ctx_new() - create an empty context
 * @allocator: memory source, copied; NULL for malloc()/free()
 *
 * Returns NULL if the allocation of the context itself fails.
 */
struct blockrange_ctx *blockrange_ctx_new(const struct blockrange_allocator *allocator);

/* Free the context and everything in it.  NULL is allowed. */
void blockrange_ctx_free(struct blockrange_ctx *ctx);

/* Number of ranges in the context. */
size_t blockrange_ctx_nr_ranges(const struct blockrange_ctx *ctx);

/* Number of successful blockrange_create() calls (counted or not). */
uint64_t blockrange_ctx_nr_blocks(const struct blockrange_ctx *ctx);

/* Bytes currently allocated by the context (itself included). */
size_t blockrange_ctx_mem(const struct blockrange_ctx *ctx);

/**
 * struct blockrange_iter - a run of consecutive ranges
 * @first: first range of the run, NULL if the run is empty
 * @last:  last range of the run, NULL if the run is empty
 * @next:  cursor: the range blockrange_iter_next() returns next
 *
 * The ranges from @first to @last are contiguous when the run comes from
 * blockrange_create(); blockrange_span() runs may contain holes between
 * ranges (the ranges themselves are still consecutive in the tree).
 */
struct blockrange_iter {
	struct blockrange *first;
	struct blockrange *last;
	struct blockrange *next;
};

/*
 * Return the cursor's range and advance, NULL once past @last:
 *	while ((br = blockrange_iter_next(&it)))
 */
struct blockrange *blockrange_iter_next(struct blockrange_iter *it);

/* Rewind the cursor to @first. */
static inline void blockrange_iter_rewind(struct blockrange_iter *it)
{
	it->next = it->first;
}

/**
 * blockrange_create() - make the ranges exactly tile [start, end]
 * @ctx:   context
 * @start: first address of the block (branch target), >= 1
 * @end:   last address of the block (the branch), >= @start
 * @it:    on success the run of ranges tiling [start, end]: @it->first
 *         starts at @start and is a target, @it->last ends at @end and is a
 *         branch; on failure an empty run.  May be NULL.
 *
 * Counters are not touched (see blockrange_count_block()).  O((k + 1) log n)
 * for k ranges in [start, end].  Returns 0, -EINVAL or -ENOMEM; on error the
 * context is unchanged.
 */
int blockrange_create(struct blockrange_ctx *ctx, uint64_t start, uint64_t end,
		      struct blockrange_iter *it);

/**
 * enum blockrange_pred - what the branch ending a block says about prediction
 * @BLOCKRANGE_PRED_UNKNOWN: no prediction information (perf prints '-')
 * @BLOCKRANGE_PRED_HIT:     the branch was predicted ('P')
 * @BLOCKRANGE_PRED_MISS:    the branch was mispredicted ('M')
 */
enum blockrange_pred {
	BLOCKRANGE_PRED_UNKNOWN = 0,
	BLOCKRANGE_PRED_HIT,
	BLOCKRANGE_PRED_MISS,
};

/**
 * blockrange_count_block() - count one executed block (process_basic_block)
 * @owner: owner of the block (e.g. the symbol containing @start), or NULL
 * @pred:  prediction of the branch at @end
 *
 * blockrange_count_block_n() with a weight of 1.
 */
int blockrange_count_block(struct blockrange_ctx *ctx, uint64_t start,
			   uint64_t end, const void *owner,
			   enum blockrange_pred pred);

/**
 * blockrange_count_block_n() - count one block @weight times
 *
 * blockrange_create(), then: entry += @weight on the first range; on every
 * range coverage += @weight and the owner rule (see Owners); taken +=
 * @weight on the last range, and pred += @weight there if @pred is
 * BLOCKRANGE_PRED_HIT.  Returns 0; -EINVAL (start == 0, start > end,
 * @weight == 0, @pred not one of enum blockrange_pred), -ENOMEM, -EOVERFLOW
 * (the context's total weight would exceed UINT64_MAX) or -EPERM (frozen
 * context); on error nothing changed.
 */
int blockrange_count_block_n(struct blockrange_ctx *ctx, uint64_t start,
			     uint64_t end, const void *owner,
			     enum blockrange_pred pred, uint64_t weight);

/* Sum of the weights counted (blocks counted, for weight 1). */
uint64_t blockrange_ctx_weight(const struct blockrange_ctx *ctx);

/* True for a context made by blockrange_build() (batch engine). */
bool blockrange_ctx_frozen(const struct blockrange_ctx *ctx);

/* The range containing @addr, or NULL.  O(log n). */
struct blockrange *blockrange_find(const struct blockrange_ctx *ctx,
				   uint64_t addr);

/* The first range ending at or after @addr (contains it or follows it). */
struct blockrange *blockrange_find_ge(const struct blockrange_ctx *ctx,
				      uint64_t addr);

/**
 * blockrange_span() - the ranges that intersect [lo, hi]
 *
 * Fills @it with the (possibly empty) run; does not create anything.
 * Returns 0, or -EINVAL if lo > hi (then @it is empty).
 */
int blockrange_span(const struct blockrange_ctx *ctx, uint64_t lo, uint64_t hi,
		    struct blockrange_iter *it);

/* Ranges in address order; NULL past either end. */
struct blockrange *blockrange_first(const struct blockrange_ctx *ctx);
struct blockrange *blockrange_last(const struct blockrange_ctx *ctx);
struct blockrange *blockrange_next(const struct blockrange *br);
struct blockrange *blockrange_prev(const struct blockrange *br);

/* The caller's key for @br's owner (NULL for none). */
const void *blockrange_owner(const struct blockrange_ctx *ctx,
			     const struct blockrange *br);

/* The highest coverage reached by a range of @owner (0 if never counted). */
uint64_t blockrange_owner_max(const struct blockrange_ctx *ctx,
			      const void *owner);

/* Number of distinct non-NULL owners seen. */
size_t blockrange_nr_owners(const struct blockrange_ctx *ctx);

/**
 * struct blockrange_branch - one branch-stack entry, as perf delivers it
 * @from:         address of the branch instruction
 * @to:           address it went to
 * @to_owner:     owner of the block that starts at @to (e.g. the symbol
 *                containing @to), NULL if unknown
 * @cycles:       cycles since the previous entry (carried, not used)
 * @predicted:    'P'
 * @mispredicted: 'M'
 * @in_tx:        the branch was inside a transaction ('X')
 * @abort:        the entry is a transaction abort ('A'), not a branch
 */
struct blockrange_branch {
	uint64_t from;
	uint64_t to;
	const void *to_owner;
	uint16_t cycles;
	bool predicted;
	bool mispredicted;
	bool in_tx;
	bool abort;
};

/**
 * struct blockrange_stack_stats - what blockrange_apply_stack() did
 * @stacks:           branch stacks applied
 * @entries:          entries seen
 * @blocks:           candidate blocks processed (entries - 1 per stack with
 *                    >= 2 entries, unless -ENOMEM stopped the stack early)
 * @counted:          blocks counted
 * @skipped_abort:    skipped: either bounding entry is an abort
 * @skipped_in_tx:    skipped: either bounding entry is in a transaction
 * @skipped_zero:     skipped: start or end address is 0
 * @skipped_reversed: skipped: start > end
 *
 * A skipped block is counted once, under the first reason in the order
 * above.  Always counted + all skipped_* == blocks.  Transactions: a block
 * that begins or ends at an abort does not end in a taken branch or was
 * rolled back, and in_tx blocks may be rolled back later; the seed's
 * statistics are about committed branches, so all of them are skipped.
 */
struct blockrange_stack_stats {
	uint64_t stacks;
	uint64_t entries;
	uint64_t blocks;
	uint64_t counted;
	uint64_t skipped_abort;
	uint64_t skipped_in_tx;
	uint64_t skipped_zero;
	uint64_t skipped_reversed;
};

/**
 * blockrange_apply_stack() - count the blocks of one sample's branch stack
 * @br:    entries, newest first (br[0] is the most recent branch)
 * @nr:    number of entries; 0 and 1 give no block
 * @stats: accumulated into (not cleared), may be NULL
 *
 * For i from nr - 2 down to 0, the block [br[i + 1].to, br[i].from] is
 * counted with blockrange_count_block(), owner br[i + 1].to_owner and the
 * prediction of br[i] (predicted wins over mispredicted).  Invalid blocks are
 * skipped and counted in @stats.  Returns 0, -EINVAL (@br NULL with
 * @nr > 0), -EPERM (frozen context), -EOVERFLOW (the stack's weight or
 * @stats would overflow; nothing changed) or -ENOMEM: then the blocks
 * before the failing one are counted, the rest are not (@stats says how far
 * it got) and the tree is valid.
 */
int blockrange_apply_stack(struct blockrange_ctx *ctx,
			   const struct blockrange_branch *br, size_t nr,
			   struct blockrange_stack_stats *stats);

/*
 * The same for a stack seen @repeat >= 1 times: every block is counted with
 * weight @repeat and every figure of @stats grows by @repeat times what one
 * stack adds.  -EINVAL if @repeat is 0.
 */
int blockrange_apply_stack_n(struct blockrange_ctx *ctx,
			     const struct blockrange_branch *br, size_t nr,
			     uint64_t repeat,
			     struct blockrange_stack_stats *stats);

/*
 * True once a block with prediction information (HIT or MISS) was counted.
 * Without it, pred figures are unknown (perf would print p:0.00%).
 */
bool blockrange_has_pred(const struct blockrange_ctx *ctx);

/**
 * enum blockrange_fig_status - whether a figure has a value
 * @BLOCKRANGE_FIG_OK:      @value holds it
 * @BLOCKRANGE_FIG_UNKNOWN: it applies but cannot be computed (no data,
 *                          divisor 0, no prediction information)
 * @BLOCKRANGE_FIG_NA:      it does not apply here (not a target / branch)
 */
enum blockrange_fig_status {
	BLOCKRANGE_FIG_OK = 0,
	BLOCKRANGE_FIG_UNKNOWN,
	BLOCKRANGE_FIG_NA,
};

struct blockrange_fig {
	enum blockrange_fig_status status;
	double value;	/* 0 unless status is BLOCKRANGE_FIG_OK */
};

/*
 * The seed's figures.  Percentages are 0..100; the seed prints the entry
 * and taken comments only when the value is > 0.1.
 *
 * blockrange_coverage(): coverage / (max coverage of the range's owner), a
 *	ratio 0..1 (the seed colours > 0.75 red, < 0.01 uncoloured).  @br may
 *	be NULL (an address in no range): 0 if any block was created, else
 *	UNKNOWN.  UNKNOWN for a range without owner.
 * blockrange_entry_pct(): "+NN.NN%" on a target: 100 * entry / coverage of
 *	the first branch range at or after @br.  NA unless @br->is_target;
 *	UNKNOWN if there is no such branch range or its coverage is 0.
 * blockrange_taken_pct(): "-NN.NN%" on a branch: 100 * taken / coverage.
 *	NA unless @br->is_branch; UNKNOWN if coverage is 0.
 * blockrange_pred_pct(): "(p:NN.NN%)": 100 * pred / taken.  NA unless
 *	@br->is_branch; UNKNOWN if taken is 0 or !blockrange_has_pred().
 */
struct blockrange_fig blockrange_coverage(const struct blockrange_ctx *ctx,
					  const struct blockrange *br);
struct blockrange_fig blockrange_entry_pct(const struct blockrange *br);
struct blockrange_fig blockrange_taken_pct(const struct blockrange *br);
struct blockrange_fig blockrange_pred_pct(const struct blockrange_ctx *ctx,
					  const struct blockrange *br);

/**
 * struct blockrange_addr_info - everything the seed's annotate shows at one
 * instruction address
 * @range:    the range containing the address, or NULL
 * @coverage: blockrange_coverage(@range)
 * @entry:    blockrange_entry_pct(@range) if the address is @range->start,
 *            else NA
 * @taken:    blockrange_taken_pct(@range) if the address is @range->end,
 *            else NA
 * @pred:     blockrange_pred_pct(@range), under the same condition
 */
struct blockrange_addr_info {
	const struct blockrange *range;
	struct blockrange_fig coverage;
	struct blockrange_fig entry;
	struct blockrange_fig taken;
	struct blockrange_fig pred;
};

void blockrange_addr_info(const struct blockrange_ctx *ctx, uint64_t addr,
			  struct blockrange_addr_info *info);

/* ---- Aggregates: distinct blocks with counts --------------------------- */

/*
 * An aggregate is a multiset of blocks: from a block's identity (start,
 * end, prediction, owner) to a count (u64), in no particular order.  The
 * same allocator rules and error rules as contexts apply: -ENOMEM and
 * -EOVERFLOW leave it exactly as it was (only spare capacity may have
 * grown); its total weight (the sum of the counts) fits in 64 bits, which
 * bounds every counter of any result built from it.
 *
 * How it holds them is its own choice, made per chunk of 4096 blocks from
 * the blocks themselves (no flag): a hash table (32-byte slots, at most
 * 3/4 full, up to 2^15 slots for blocks that pack) where blocks repeat,
 * and 16-byte records appended to 256 address partitions where they do
 * not; a partition is sorted and its equal blocks summed whenever it
 * doubles.  Memory: at most about 32 bytes per distinct block held in
 * partitions (16-byte records, at most twice over) and a few MiB of fixed
 * costs once partitions are used (2 MiB slabs, the table, scratch), plus
 * 16 bytes per owner.  See docs/engine.md.
 */
struct blockrange_agg;

/*
 * struct blockrange_block - one distinct block of an aggregate
 * @count: its weight (>= 1)
 */
struct blockrange_block {
	uint64_t start;
	uint64_t end;
	const void *owner;
	enum blockrange_pred pred;
	uint64_t count;
};

/* An empty aggregate (NULL allocator: malloc()/free()); NULL on failure. */
struct blockrange_agg *blockrange_agg_new(const struct blockrange_allocator *allocator);

/* Free an aggregate.  NULL is allowed. */
void blockrange_agg_free(struct blockrange_agg *agg);

/*
 * Number of distinct blocks.  Like blockrange_agg_next(), it first sorts
 * partitions that received blocks since the last such call (it cannot
 * fail: the memory was reserved by the calls that added them).
 */
size_t blockrange_agg_nr_blocks(const struct blockrange_agg *agg);

/* Sum of the counts (the number of blocks added, for weight 1). */
uint64_t blockrange_agg_weight(const struct blockrange_agg *agg);

/* Bytes currently allocated by the aggregate (itself included). */
size_t blockrange_agg_mem(const struct blockrange_agg *agg);

/**
 * blockrange_agg_add() - add one block @weight times
 *
 * Returns 0, -EINVAL (start == 0, start > end, @weight == 0, @pred not one
 * of enum blockrange_pred), -ENOMEM or -EOVERFLOW; on error nothing changed.
 */
int blockrange_agg_add(struct blockrange_agg *agg, uint64_t start,
		       uint64_t end, const void *owner,
		       enum blockrange_pred pred, uint64_t weight);

/*
 * Add @n blocks (@count is each one's weight); all or nothing: the same
 * errors as blockrange_agg_add() (-EINVAL for the first invalid block, or
 * -EOVERFLOW where the running sum of the counts overflows, whichever comes
 * first), and then none was added.  Faster than one call per block (a
 * batch of known blocks is found in one pass and counted in a second).
 * It reserves room for @n new blocks first, so keep @n moderate (a few
 * hundred) when most blocks repeat.
 */
int blockrange_agg_add_blocks(struct blockrange_agg *agg,
			      const struct blockrange_block *b, size_t n);

/*
 * blockrange_agg_add_stack() - add the blocks of one branch stack, seen
 * @repeat >= 1 times
 *
 * The blocks, the skipping rules and @stats (accumulated into, may be NULL)
 * are those of blockrange_apply_stack_n(), but all or nothing: -EINVAL
 * (@br NULL with @nr > 0, @repeat == 0), -ENOMEM or -EOVERFLOW (the total
 * weight or a figure of @stats would overflow) change neither the aggregate
 * nor @stats.
 */
int blockrange_agg_add_stack(struct blockrange_agg *agg,
			     const struct blockrange_branch *br, size_t nr,
			     uint64_t repeat,
			     struct blockrange_stack_stats *stats);

/*
 * blockrange_agg_merge() - add every block of @src to @dst with its count
 *
 * Merging is commutative and associative: any aggregates merged in any order
 * and grouping hold the same multiset, and so build the same result.  @src
 * is not changed (@src == @dst doubles every count).  Returns 0, -ENOMEM or
 * -EOVERFLOW; on error @dst is unchanged.  Owners are matched by key.
 */
int blockrange_agg_merge(struct blockrange_agg *dst,
			 const struct blockrange_agg *src);

/*
 * Iterate the distinct blocks: start with *@pos = 0; each call stores the
 * next block in @b and returns true, false after the last.  The order is
 * unspecified; the aggregate must not change during the iteration.
 */
bool blockrange_agg_next(const struct blockrange_agg *agg, size_t *pos,
			 struct blockrange_block *b);

/**
 * blockrange_build() - the batch engine: ranges of an aggregate
 * @agg:       the blocks, unchanged
 * @allocator: for the new context, copied; NULL for malloc()/free()
 * @ctxp:      on success, a new frozen context (free it with
 *             blockrange_ctx_free()); unchanged on error
 *
 * The frozen context holds the same ranges, counters, flags, owners and
 * owner maxima as a tree that counted every block of @agg with its count,
 * in any order; blockrange_ctx_nr_blocks() is the number of distinct
 * blocks (what blockrange_count_agg() makes it) and blockrange_ctx_weight()
 * their total count.  One sweep in address order, one partition window at
 * a time: the window's records sorted (radix sort, in the cache) and
 * summed, their end events sorted and merged with those carried over from
 * earlier windows; the few blocks that do not pack into a record join as
 * events.  Temporary memory: three times the largest window's records (16
 * bytes each) and the events of one window (32 bytes each).  @agg is not
 * changed (and not settled).  Returns 0 or -ENOMEM.
 */
int blockrange_build(const struct blockrange_agg *agg,
		     const struct blockrange_allocator *allocator,
		     struct blockrange_ctx **ctxp);

/*
 * blockrange_count_agg() - count every block of @agg into the tree @ctx,
 * each with its count as weight (blockrange_count_block_n())
 *
 * Returns 0, -EPERM (frozen), -EOVERFLOW (nothing changed) or -ENOMEM: then
 * some of the blocks are counted and the others are not (the tree is
 * valid); count into a new context to start again.
 */
int blockrange_count_agg(struct blockrange_ctx *ctx,
			 const struct blockrange_agg *agg);

/* ---- Queries common to both engines ------------------------------------- */

/**
 * struct blockrange_rec - a range, as the common query functions report it
 * @start ... @pred, @is_target, @is_branch: as in struct blockrange
 * @owner: the caller's key of the range's owner (NULL for none)
 * @pos:   where the range is in its context (library-private cursor; valid
 *         while the context lives and, for a tree, gets no new range)
 */
struct blockrange_rec {
	uint64_t start;
	uint64_t end;
	uint64_t coverage;
	uint64_t entry;
	uint64_t taken;
	uint64_t pred;
	const void *owner;
	bool is_target;
	bool is_branch;
	uintptr_t pos;
};

/*
 * Lookups on either kind of context; each returns true and fills @rec, or
 * returns false (and leaves @rec alone) when there is no such range.
 *  blockrange_rec_find():    the range containing @addr; O(log n)
 *  blockrange_rec_find_ge(): the first range ending at or after @addr
 *  blockrange_rec_first() / _last(): the lowest / highest range
 *  blockrange_rec_next() / _prev(): replace @rec with the following /
 *      preceding range in address order
 */
bool blockrange_rec_find(const struct blockrange_ctx *ctx, uint64_t addr,
			 struct blockrange_rec *rec);
bool blockrange_rec_find_ge(const struct blockrange_ctx *ctx, uint64_t addr,
			    struct blockrange_rec *rec);
bool blockrange_rec_first(const struct blockrange_ctx *ctx,
			  struct blockrange_rec *rec);
bool blockrange_rec_last(const struct blockrange_ctx *ctx,
			 struct blockrange_rec *rec);
bool blockrange_rec_next(const struct blockrange_ctx *ctx,
			 struct blockrange_rec *rec);
bool blockrange_rec_prev(const struct blockrange_ctx *ctx,
			 struct blockrange_rec *rec);

/*
 * struct blockrange_cursor - the ranges that intersect [lo, hi], as set by
 * blockrange_rec_span() and read by blockrange_rec_iter() (library-private)
 */
struct blockrange_cursor {
	uintptr_t next;
	uintptr_t last;
};

/*
 * blockrange_rec_span(): set @cur to the (possibly empty) run of ranges that
 * intersect [lo, hi]; 0, or -EINVAL if lo > hi (then the run is empty).
 * blockrange_rec_iter(): the next range of the run into @rec, false after
 * the last:  while (blockrange_rec_iter(ctx, &cur, &rec)) ...
 */
int blockrange_rec_span(const struct blockrange_ctx *ctx, uint64_t lo,
			uint64_t hi, struct blockrange_cursor *cur);
bool blockrange_rec_iter(const struct blockrange_ctx *ctx,
			 struct blockrange_cursor *cur,
			 struct blockrange_rec *rec);

/*
 * The seed's figures of a range value, with the rules of
 * blockrange_coverage() and friends (@rec NULL: an address in no range).
 */
struct blockrange_fig blockrange_rec_coverage(const struct blockrange_ctx *ctx,
					      const struct blockrange_rec *rec);
struct blockrange_fig blockrange_rec_entry_pct(const struct blockrange_ctx *ctx,
					       const struct blockrange_rec *rec);
struct blockrange_fig blockrange_rec_taken_pct(const struct blockrange_rec *rec);
struct blockrange_fig blockrange_rec_pred_pct(const struct blockrange_ctx *ctx,
					      const struct blockrange_rec *rec);

/*
 * struct blockrange_addr_rec - blockrange_addr_info() for either engine
 * @found: @range holds the range containing the address (else it is zeroed)
 */
struct blockrange_addr_rec {
	bool found;
	struct blockrange_rec range;
	struct blockrange_fig coverage;
	struct blockrange_fig entry;
	struct blockrange_fig taken;
	struct blockrange_fig pred;
};

void blockrange_addr_rec(const struct blockrange_ctx *ctx, uint64_t addr,
			 struct blockrange_addr_rec *info);

#ifdef __cplusplus
}
#endif

#endif /* BLOCKRANGE_BLOCKRANGE_H */
