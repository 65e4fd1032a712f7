/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The DWARF view llvm-profgen has of a binary, read with libdw:
 *
 *  - functions: every DW_TAG_subprogram with a name (its linkage name,
 *    else DW_AT_name, through DW_AT_abstract_origin and
 *    DW_AT_specification) and address ranges; subprograms of the same name
 *    are one function with all their ranges; ranges that start below the
 *    text base or are empty are left out, and of two ranges that start at
 *    one address the first keeps it;
 *  - entries: a function range is a function's entry when the function has
 *    one range, or when an ELF symbol of an executable section (not .plt)
 *    in it has the function's name (after llvm-profgen's canonicalization);
 *  - frames: the inline frames of an address, outermost first, from the
 *    innermost DW_TAG_subprogram or DW_TAG_inlined_subroutine whose ranges
 *    contain it up through its parents to the subprogram: the leaf's line
 *    and discriminator come from the line table, an outer frame's from the
 *    DW_AT_call_line and DW_AT_GNU_discriminator of the frame it calls;
 *    each line is made an offset from the frame's DW_AT_decl_line, masked
 *    to 16 bits (llvm-profgen's rule, so line 0 gives 65536 - decl_line).
 *    Frames stop, outermost first, at the first one without a name.
 */
#ifndef BLOCKRANGE_CLI_SPDWARF_H
#define BLOCKRANGE_CLI_SPDWARF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * llvm-profgen's canonical function name, in place: ".llvm.N" and
 * ".part.N" are cut when nothing but the number follows them (".__uniq.N"
 * stays).
 */
void sp_canonical_name(char *name);

/* Interned strings (one copy of each, stable pointers). */
struct sp_names;

struct sp_names *sp_names_new(void);
void sp_names_free(struct sp_names *n);
/* The one copy of @s[0..len); NULL if out of memory. */
const char *sp_intern(struct sp_names *n, const char *s, size_t len);

struct spd;

struct spd_frame {
	const char *name;	/* canonical, interned */
	uint32_t line;		/* offset from the frame's start line */
	uint32_t disc;		/* as encoded in DWARF */
};

struct spd_range {
	uint64_t lo;
	uint64_t hi;		/* exclusive */
};

/*
 * Read the DWARF of @path (the DSO or its debug file) and the ELF symbols
 * of @sym_path (for the entries); @text_base: the DSO's text base.
 * NULL with a message in @err; *@oom tells out of memory from a file
 * without usable DWARF.
 */
struct spd *spd_open(const char *path, const char *sym_path,
		     uint64_t text_base, struct sp_names *names, char *err,
		     size_t errsz, bool *oom);
void spd_close(struct spd *d);

/* Whether the symbol __llvm_fs_discriminator__ is in a data section. */
bool spd_fs_discriminators(const struct spd *d);

/*
 * The frames of @addr, outermost first, into *@frames (valid until the
 * next call): their number (0: none), or -1 out of memory.
 */
int spd_frames(struct spd *d, uint64_t addr, const struct spd_frame **frames);

/*
 * The first line table spd_frames() could not read (libdw's message), or
 * NULL: frames of its code got line 0, so a profile built from them is
 * wrong.
 */
const char *spd_line_error(const struct spd *d);

/* The number of function ranges (indices 0 to it, by start address). */
size_t spd_nr_ranges(const struct spd *d);
/* The function range containing @addr (index), or -1. */
long spd_find_range(const struct spd *d, uint64_t addr);
/* The function range starting at @addr, or -1. */
long spd_range_at(const struct spd *d, uint64_t addr);
/* The address function range @r starts at. */
uint64_t spd_range_start(const struct spd *d, long r);
/* Whether function range @r is its function's entry. */
bool spd_range_entry(const struct spd *d, long r);
/* The canonical name of the function of range @r (interned). */
const char *spd_range_name(const struct spd *d, long r);
/* All the ranges of the function of range @r. */
void spd_range_func(const struct spd *d, long r,
		    const struct spd_range **ranges, size_t *nr);

#endif /* BLOCKRANGE_CLI_SPDWARF_H */
