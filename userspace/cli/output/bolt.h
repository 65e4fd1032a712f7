/* SPDX-License-Identifier: GPL-2.0 */
/*
 * BOLT's pre-aggregated profile (what `perf2bolt -pa` reads) of one DSO,
 * from the collector (ANNOT_BOLT, collect/bolt.h):
 *
 *   B FROM TO COUNT MISPREDICTED   a taken branch (either end may be
 *                                  outside the DSO: written as 0)
 *   F START END COUNT              a fall-through trace [START, END]
 *                                  entered by a branch from the same function
 *   f START END COUNT              one entered from elsewhere (another
 *                                  function, DSO or a return)
 *
 * addresses in hex without 0x, ELF addresses of the DSO (BOLT's offsets
 * for an executable: the address itself; for a PIE or a library, the
 * address in its ELF layout, which is what perf2bolt computes from the
 * mmap).  This is what perf2bolt aggregates from `perf script -F
 * pid,ip,brstack` itself: for every LBR entry with an end in the binary a
 * branch, and for every two consecutive entries whose trace lies in the
 * binary a fall-through, split by where the older entry's branch came from.
 * Lines are sorted (B, then F, then f; by address).
 */
#ifndef BLOCKRANGE_CLI_BOLT_H
#define BLOCKRANGE_CLI_BOLT_H

#include <stddef.h>
#include <stdio.h>

#include "collect/bolt.h"

/*
 * Write @bd's profile to @out (named @name in messages): 0, or BR_ESYS
 * with a message (out of memory, or @out could not be written).
 */
int bolt_write(const struct bolt_dso *bd, FILE *out, const char *name,
	       char *err, size_t errsz);

#endif /* BLOCKRANGE_CLI_BOLT_H */
