/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Block stream files shared by blockgen (writer) and splitbench (reader).
 * Native byte order: they are written and read on the same machine.
 */
#ifndef BENCH_STREAM_H
#define BENCH_STREAM_H

#include <stdint.h>

#define BENCH_STREAM_MAGIC 0x00003154484b4c42ull	/* "BLKHT1\0\0" */

enum { BENCH_PRED_UNKNOWN = 0, BENCH_PRED_HIT = 1, BENCH_PRED_MISS = 2 };

struct bench_stream_hdr {
	uint64_t magic;
	uint64_t n;		/* blocks */
	uint64_t owners;	/* owner ids are 1..owners (0: none) */
};

struct bench_block {
	uint64_t start;		/* inclusive, >= 1 */
	uint64_t end;		/* inclusive, >= start, < 2^63 */
	uint32_t owner;
	uint32_t pred;		/* BENCH_PRED_* */
};

#endif
