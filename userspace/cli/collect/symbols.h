/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the printers (annotate, report) ask of the collected block data
 * (collect/annot.h): the symbols to show, hottest first, with their
 * figures at an address, and the taken branches from or into them.
 *
 * Symbols of a DSO: its (or its debug file's) .symtab, else .dynsym; a DSO
 * without any gets pseudo-symbols "NAME+0xADDR" over its hot code: the
 * runs of covered ranges and sample IPs in which no two neighbours are
 * more than ANNOT_PSEUDO_GAP bytes apart (ADDR: the run's first ELF
 * address).  The kernel with --kallsyms only has symbols but no code: its
 * symbols list their ranges instead of instructions.
 */
#ifndef BLOCKRANGE_CLI_COLLECT_SYMBOLS_H
#define BLOCKRANGE_CLI_COLLECT_SYMBOLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <blockrange/blockrange.h>

#include "collect/annot.h"

#define ANNOT_PSEUDO_GAP 64

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
	const struct annot_dso *ad;
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
 * every DSO that has it.  Called once the input is read: it finishes @a
 * (annot_finish()) and gives a DSO that has a named symbol but no data its
 * empty per-DSO data, so that the printers (output/) take @a and the
 * symbols read-only.  0, BR_EINPUT with a message (a name no DSO has),
 * BR_ESYS with "out of memory".  Free with annot_symbols_free() (also
 * after an error).
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
 * none).  Returns their number, or BR_ESYS out of memory.
 */
long annot_sym_branches(const struct annot_sym *sym,
			struct annot_branch **out);

/* Totals over every taken branch of @ad: times taken and mispredicted. */
void annot_dso_branch_totals(const struct annot_dso *ad, uint64_t *taken,
			     uint64_t *mispredicted);

#endif /* BLOCKRANGE_CLI_COLLECT_SYMBOLS_H */
