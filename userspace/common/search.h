/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one binary search of libblockrange and the blockrange CLI (private,
 * not installed), over arrays of structures sorted by a uint64_t member:
 * @n elements of @size bytes from @base, the key at byte @off of each (use
 * sizeof and offsetof), keys ascending.
 *
 * br_count_le() is the number of elements whose key is <= @key, that is the
 * index of the first element with a greater key; br_count_lt() the number
 * of those with a smaller key.  For sorted, non-overlapping intervals keyed
 * by their start, the only one that can contain @key is element
 * br_count_le() - 1 (none when it is 0); for keys that are exact addresses,
 * element br_count_lt() is @key's if any is.
 */
#ifndef BLOCKRANGE_COMMON_SEARCH_H
#define BLOCKRANGE_COMMON_SEARCH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

static inline uint64_t br_search_key(const void *base, size_t i, size_t size,
				     size_t off)
{
	uint64_t k;

	memcpy(&k, (const unsigned char *)base + i * size + off, sizeof(k));
	return k;
}

static inline size_t br_count_le(const void *base, size_t n, size_t size,
				 size_t off, uint64_t key)
{
	size_t lo = 0, hi = n;

	/* Elements before lo are <= key, from hi on > key. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (br_search_key(base, mid, size, off) <= key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static inline size_t br_count_lt(const void *base, size_t n, size_t size,
				 size_t off, uint64_t key)
{
	/* Keys < key are keys <= key - 1; no key is < 0. */
	return key ? br_count_le(base, n, size, off, key - 1) : 0;
}

#endif /* BLOCKRANGE_COMMON_SEARCH_H */
