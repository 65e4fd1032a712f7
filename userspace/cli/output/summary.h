/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a profile-reading subcommand says about its input on stderr: the
 * one summary line (and warnings about DSOs without symbols or with
 * another build-id), and, when nothing at all could be counted, one line
 * saying why and what to pass or install.
 *
 *   blockrange: 221 samples, 7014 branch records, 6793 blocks: 5827
 *   counted, 1 DSO annotated; skipped 0 abort, ..., 0 reversed
 *
 * The skip reasons are the resolver's (resolve/resolver.h), in its order.
 */
#ifndef BLOCKRANGE_CLI_OUTPUT_SUMMARY_H
#define BLOCKRANGE_CLI_OUTPUT_SUMMARY_H

#include <stddef.h>
#include <stdio.h>

#include "resolve/resolver.h"

/* The summary's names of the skip reasons, and their JSON keys. */
extern const char *const skip_names[SKIP_NR];
extern const char *const skip_keys[SKIP_NR];

/*
 * The warnings about the DSOs of @s, then the summary line (with its
 * newline).  @what names the result ("annotated", "profiled"), @nr_done
 * how many DSOs got one.
 */
void summary_print(FILE *f, const struct resolver *s, const char *what,
		   size_t nr_done);

/*
 * "blockrange: NAME: nothing to WHAT: ..." when nothing could be counted:
 * why (the most frequent skip reason) and what to pass or install.  The
 * subcommand then exits with status 2.
 */
void summary_nothing(FILE *f, const struct resolver *s, const char *what);

#endif /* BLOCKRANGE_CLI_OUTPUT_SUMMARY_H */
