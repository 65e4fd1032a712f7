/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Writing .brprof profiles (the format: input/brprof.h): what a collector
 * collected (`blockrange profile`), and the sum of several profiles
 * (`blockrange merge`).  A profile goes to a temporary file beside its
 * path, renamed over it once complete (so an output may be one of merge's
 * inputs), in pieces of a few MiB, so that writing needs little memory
 * however large the profile; to stdout ("-") from memory.
 */
#ifndef BLOCKRANGE_CLI_OUTPUT_BRPROF_WRITE_H
#define BLOCKRANGE_CLI_OUTPUT_BRPROF_WRITE_H

#include <stddef.h>

#include "collect/annot.h"
#include "input/brprof.h"

/*
 * Write what @a collected (all of ANNOT_BLOCKS, ANNOT_PROFGEN and
 * ANNOT_BOLT, before annot_finish()) as a .brprof to @path ("-": stdout).
 * 0, or BR_ESYS (I/O or memory) with a message.  *@bytes: the size
 * written.
 */
int brprof_write(const struct annot *a, const char *path, size_t *bytes,
		 char *err, size_t errsz);

/*
 * Add the profiles @in[0..n) into one, written to @out ("-": stdout).
 * Commutative and associative: the output depends only on the multiset
 * of inputs, byte for byte.  0, BR_EINPUT (a malformed input, or sums past
 * 2^64 - 1), BR_ESYS (I/O, memory) with a message.  *@bytes: the size
 * written.
 */
int brprof_merge(const char *const *in, size_t n, const char *out,
		 size_t *bytes, char *err, size_t errsz);

#endif /* BLOCKRANGE_CLI_OUTPUT_BRPROF_WRITE_H */
