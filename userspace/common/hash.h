/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one hash of libblockrange and the blockrange CLI (private, not
 * installed): every in-memory hash table of both hashes its keys with
 * these functions, so there is one constant and one mixing step to reason
 * about.
 *
 * br_hash64() is a bijective 64-bit mix (xor-shift, multiply, xor-shift,
 * multiply, xor-shift): equal keys give equal hashes, every input bit
 * reaches every output bit, and the low bits are as good as the high ones,
 * so tables may take `h & (cap - 1)` for a power-of-two capacity.
 * br_hash2() hashes a pair of words (an ordered pair: (a, b) and (b, a)
 * differ).  Not for files: persistent checksums are defined by their file
 * formats.
 */
#ifndef BLOCKRANGE_COMMON_HASH_H
#define BLOCKRANGE_COMMON_HASH_H

#include <stdint.h>

/* 2^64 divided by the golden ratio, odd: the one multiplier. */
#define BR_HASH_K 0x9e3779b97f4a7c15ull

static inline uint64_t br_hash64(uint64_t x)
{
	x ^= x >> 31;
	x *= BR_HASH_K;
	x ^= x >> 29;
	x *= BR_HASH_K;
	x ^= x >> 32;
	return x;
}

static inline uint64_t br_hash2(uint64_t a, uint64_t b)
{
	return br_hash64(a ^ br_hash64(b + BR_HASH_K));
}

#endif /* BLOCKRANGE_COMMON_HASH_H */
