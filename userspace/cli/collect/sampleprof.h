/* SPDX-License-Identifier: GPL-2.0 */
/*
 * LLVM sample profiles (what `clang -fprofile-sample-use` reads) built from
 * llvm-profgen's raw profile of one DSO (profile.h: its ranges and
 * branches) and the DSO's DWARF, with llvm-profgen-19's rules for profiles
 * without call-stack context (docs/autofdo.md lists them):
 *
 *  - the ranges, plus a zero-count range over every DWARF range of the
 *    function each range starts in, are cut into disjoint ranges; every
 *    code-set instruction of a disjoint range is symbolized into its inline
 *    frames (outermost first: function name, line offset from the
 *    function's DW_AT_decl_line, masked to 16 bits, and discriminator);
 *  - each frame's profile gets count * instruction size added to its total
 *    samples; the leaf's body sample at (offset, base discriminator) is the
 *    MAX over its instructions of count * duplication factor;
 *  - a branch whose target starts a DWARF function (its entry range) adds
 *    a call target at the source's leaf location and head samples to the
 *    target function; a body sample is then raised to the sum of its call
 *    targets.
 *
 * Names are DWARF's linkage names (else DW_AT_name), never demangled, with
 * ".llvm.N" and ".part.N" suffixes removed as llvm-profgen does.
 *
 * No global state: a struct sp_profile owns everything it holds.
 */
#ifndef BLOCKRANGE_CLI_SAMPLEPROF_H
#define BLOCKRANGE_CLI_SAMPLEPROF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/pairmap.h"
#include "collect/profile.h"
#include "resolve/elfbin.h"

struct sp_target {
	const char *name;	/* interned */
	uint64_t count;
};

struct sp_body {
	uint32_t line;		/* offset from the function's start line */
	uint32_t disc;		/* base discriminator */
	uint64_t count;
	struct sp_target *targets;
	size_t nr_targets;
	size_t cap_targets;
};

struct sp_func;

struct sp_callsite {
	uint32_t line;
	uint32_t disc;
	struct sp_func *callee;	/* an inlined instance */
};

/* One function's samples: a top-level profile or an inlined instance. */
struct sp_func {
	const char *name;	/* interned */
	uint64_t total;
	uint64_t head;		/* top level only */
	struct sp_body *body;
	size_t nr_body;
	size_t cap_body;
	struct pairmap body_idx;	/* (line, disc) -> index + 1 */
	struct sp_callsite *calls;
	size_t nr_calls;
	size_t cap_calls;
};

struct sp_names;
struct spd;

struct sp_stats {
	uint64_t insns;			/* instructions visited */
	uint64_t insns_no_line;		/* of which without DWARF frames */
	uint64_t samples_no_line;	/* their count * size */
	size_t funcs_no_line;		/* symbols they belong to */
	char *no_line_names;		/* "a, b, c" (first few), or NULL */
	uint64_t branches_to_entries;	/* branch counts that became calls */
};

struct sp_profile {
	struct sp_names *names;
	struct sp_func **funcs;		/* top level */
	size_t nr_funcs;
	size_t cap_funcs;
	struct pairmap func_idx;	/* interned name -> index + 1 */
	bool fs_discriminators;		/* __llvm_fs_discriminator__ present */
	struct sp_stats st;
};

/*
 * Build @out from @prof (its ranges and branches in ELF addresses of
 * @bin's DSO) with the DWARF of @dwarf_path (the DSO itself or its
 * separate debug file).  0, or with a message in @err: BR_ESYS out of
 * memory; BR_EINPUT when @dwarf_path cannot be read or has no DWARF (the
 * message says how to build or find it), or when libdw cannot read one of
 * its line tables (elfutils 0.188 refuses discriminators wider than 24
 * bits: pseudo probes, flow-sensitive discriminators).
 */
int sp_build(struct sp_profile *out, const struct profile *prof,
	     const struct eb_binary *bin, const char *dwarf_path,
	     char *err, size_t errsz);

void sp_free(struct sp_profile *p);

/* Top-level functions in the writers' order (total desc, then name). */
struct sp_func **sp_sorted(const struct sp_profile *p);

/* Number of inlined instances under the top-level functions. */
size_t sp_nr_inlined(const struct sp_profile *p);

/* A new function profile of @name (interned), empty; NULL: no memory. */
struct sp_func *sp_func_new(const char *name);
void sp_func_free(struct sp_func *f);
/* The body sample at (@line, @disc), made with count 0 if new; NULL: no memory. */
struct sp_body *sp_body_get(struct sp_func *f, uint32_t line, uint32_t disc);
/* The body sample at (@line, @disc), or NULL. */
struct sp_body *sp_body_find(const struct sp_func *f, uint32_t line,
			     uint32_t disc);
/* @count more calls to @name (interned) from @b: 0 or BR_ESYS. */
int sp_add_target(struct sp_body *b, const char *name, uint64_t count);
/* Each body sample raised to the sum of its call targets when below it. */
void sp_raise_to_targets(struct sp_func *f);
/* Whether llvm-profgen drops the profiles of @name (ambiguous names). */
bool sp_ambiguous(const char *name);

/* Base discriminator and duplication factor of an encoded discriminator. */
uint32_t sp_base_discriminator(uint32_t d);
uint32_t sp_duplication_factor(uint32_t d);

#endif /* BLOCKRANGE_CLI_SAMPLEPROF_H */
