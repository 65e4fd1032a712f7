/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `blockrange ranges`' output: a raw profile (collect/profile.h) in the
 * text of `llvm-profgen --format=text --skip-symbolization`:
 *
 *   N                  the number of ranges, then per range (by address)
 *   START-END:COUNT    addresses in hex minus the base
 *   N                  the number of branches, then per branch
 *   FROM->TO:COUNT
 *
 * External addresses (PROFILE_EXTERNAL) print as 1 - base, as
 * llvm-profgen prints them.
 *
 * The context-sensitive profile (collect/unwind.h) prints each context,
 * by key, as "[KEY]" and then its ranges and branches as above, indented
 * by two spaces.
 */
#ifndef BLOCKRANGE_CLI_OUTPUT_RANGES_H
#define BLOCKRANGE_CLI_OUTPUT_RANGES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "collect/profile.h"
#include "collect/unwind.h"

/*
 * Print @prof in llvm-profgen's text: addresses minus @base.  0 or
 * BR_ESYS with a message (out of memory, or @out could not be written).
 */
int profile_write(const struct profile *prof, uint64_t base, FILE *out,
		  char *err, size_t errsz);

/* The same for the context-sensitive profile @p. */
int csprof_write(const struct csprof *p, uint64_t base, FILE *out,
		 char *err, size_t errsz);

#endif /* BLOCKRANGE_CLI_OUTPUT_RANGES_H */
