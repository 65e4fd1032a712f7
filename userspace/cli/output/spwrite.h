/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The writers of LLVM sample profiles (collect/sampleprof.h): text and the
 * extensible binary format, as llvm-profgen-19 writes them.  See
 * output/spwrite.c for the order and the encoding.
 */
#ifndef BLOCKRANGE_CLI_SPWRITE_H
#define BLOCKRANGE_CLI_SPWRITE_H

#include <stdio.h>

#include "collect/csprofile.h"
#include "collect/sampleprof.h"

/*
 * Text (llvm-profgen --format=text).  0, or BR_ESYS (out of memory, I/O)
 * with its message in @err.
 */
int sp_write_text(const struct sp_profile *p, FILE *out, char *err,
		  size_t errsz);

/*
 * Extensible binary (llvm-profgen's default, --format=extbinary): the
 * same bytes llvm-profgen-19 writes.  0, or BR_ESYS (out of memory, I/O)
 * with its message in @err.
 */
int sp_write_extbinary(const struct sp_profile *p, FILE *out, char *err,
		       size_t errsz);

/*
 * The context-sensitive profile in text, its flat form: one profile per
 * context, "[CONTEXT]:TOTAL:HEAD", then its body samples, then
 * " !Attributes: 1" when its function was inlined there.  0, or BR_ESYS
 * with its message in @err.
 */
int csp_write_text(const struct csp_profile *p, FILE *out, char *err,
		   size_t errsz);

#endif /* BLOCKRANGE_CLI_SPWRITE_H */
