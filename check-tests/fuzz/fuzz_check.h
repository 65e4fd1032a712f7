/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The harnesses' one assertion: a property that does not hold aborts the
 * execution with its file, line and text, which libFuzzer reports as a
 * crash and keeps the input of.
 */
#ifndef BLOCKRANGE_FUZZ_CHECK_H
#define BLOCKRANGE_FUZZ_CHECK_H

#include <stdio.h>
#include <stdlib.h>

#define CHECK(c)							\
	do {								\
		if (!(c)) {						\
			fprintf(stderr, "%s:%d: check failed: %s\n",	\
				__FILE__, __LINE__, #c);		\
			abort();					\
		}							\
	} while (0)

#endif /* BLOCKRANGE_FUZZ_CHECK_H */
