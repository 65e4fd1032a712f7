// SPDX-License-Identifier: GPL-2.0
/*
 * The one sort of the library: 16-byte records (struct arec) by their
 * 64-bit key, ascending; stable.  An LSD radix sort whose digits cover
 * only the bits in which some keys differ: the blocks of one partition
 * share the high bits of their start, and the fields of a key have unused
 * high bits, so a digit starts at the lowest differing bit not yet covered
 * (8-bit digits for small arrays, 11-bit ones above DIGIT11_MIN records,
 * where their larger histograms pay off).  An insertion sort below SMALL
 * records.
 */
#include <string.h>

#include "internal.h"

#define SMALL		48
#define DIGIT11_MIN	4096
#define MAX_DIGITS	8

static void insertion(struct arec *a, size_t n)
{
	size_t i, j;

	for (i = 1; i < n; i++) {
		struct arec x = a[i];

		for (j = i; j > 0 && a[j - 1].key > x.key; j--)
			a[j] = a[j - 1];
		a[j] = x;
	}
}

/* Digits covering the set bits of @diff, @width bits each; how many. */
static unsigned digits(uint64_t diff, unsigned width, unsigned shift[])
{
	unsigned nd = 0, b;

	while (diff) {
		b = (unsigned)__builtin_ctzll(diff);
		shift[nd++] = b;
		diff = b + width < 64 ? diff >> (b + width) << (b + width) : 0;
	}
	return nd;
}

/* One stable pass of @src into @dst by the digit at @shift. */
static void pass(const struct arec *src, struct arec *dst, size_t n,
		 unsigned shift, uint64_t mask, size_t *cnt)
{
	size_t i, v, sum = 0, c;

	memset(cnt, 0, (mask + 1) * sizeof(*cnt));
	for (i = 0; i < n; i++)
		cnt[src[i].key >> shift & mask]++;
	for (v = 0; v <= mask; v++) {
		c = cnt[v];
		cnt[v] = sum;
		sum += c;
	}
	for (i = 0; i < n; i++)
		dst[cnt[src[i].key >> shift & mask]++] = src[i];
}

void br_sort_recs(struct arec *a, struct arec *tmp, size_t n)
{
	size_t cnt[1 << 11];
	unsigned shift[MAX_DIGITS], nd, d, width;
	struct arec *src = a, *dst = tmp, *t;
	uint64_t diff = 0;
	size_t i;

	if (n < SMALL) {
		insertion(a, n);
		return;
	}
	for (i = 1; i < n; i++)
		diff |= a[i].key ^ a[0].key;
	width = n < DIGIT11_MIN ? 8 : 11;
	nd = digits(diff, width, shift);
	for (d = 0; d < nd; d++) {
		pass(src, dst, n, shift[d], ((uint64_t)1 << width) - 1, cnt);
		t = src;
		src = dst;
		dst = t;
	}
	if (src != a)
		memcpy(a, src, n * sizeof(*a));
}

size_t br_sum_equal(struct arec *a, size_t n)
{
	size_t i, k = 0;

	for (i = 1; i < n; i++) {
		if (a[i].key == a[k].key)
			a[k].count += a[i].count;
		else
			a[++k] = a[i];
	}
	return n ? k + 1 : 0;
}
