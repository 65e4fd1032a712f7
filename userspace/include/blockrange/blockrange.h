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
 * Owners: every counted block names an owner, an opaque caller key (a symbol
 * pointer, an id cast to a pointer; NULL for none).  Every range of the
 * block takes the block's owner (the last block wins, as in the seed), and
 * the context keeps, per owner, the highest coverage any range reached while
 * counting a block of that owner (the seed's max_coverage per symbol).
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
 * Memory: ranges live in chunks allocated from the context's allocator and
 * are freed together by blockrange_ctx_free().  A range is 80 bytes on LP64
 * (24 tree node, 16 bounds, 32 counters, 4 owner index, 2 flags, padding),
 * with no per-range allocator overhead; blockrange_ctx_mem() reports the
 * bytes the context holds.  Range pointers stay valid until the context is
 * freed.
 *
 * Threads: contexts are independent; one context must not be used by two
 * threads at once.  There is no global state.
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
 * @owner:     index of the owner in the context (0: none); use
 *             blockrange_owner() to get the caller's key back
 * @is_target: some created block starts at @start
 * @is_branch: some created block ends at @end
 *
 * Read-only for callers: the library maintains every field.
 */
struct blockrange {
	struct rb_node node;
	uint64_t start;
	uint64_t end;
	uint64_t coverage;
	uint64_t entry;
	uint64_t taken;
	uint64_t pred;
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
 * blockrange_create(), then: entry += 1 on the first range; on every range
 * coverage += 1, owner = @owner and the owner's maximum coverage raised to
 * the range's coverage; taken += 1 on the last range, and pred += 1 there if
 * @pred is BLOCKRANGE_PRED_HIT.  Returns 0, -EINVAL or -ENOMEM; on error
 * nothing changed.
 */
int blockrange_count_block(struct blockrange_ctx *ctx, uint64_t start,
			   uint64_t end, const void *owner,
			   enum blockrange_pred pred);

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
 * @nr > 0), or -ENOMEM: then the blocks before the failing one are counted,
 * the rest are not (@stats says how far it got) and the tree is valid.
 */
int blockrange_apply_stack(struct blockrange_ctx *ctx,
			   const struct blockrange_branch *br, size_t nr,
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

#ifdef __cplusplus
}
#endif

#endif /* BLOCKRANGE_BLOCKRANGE_H */
