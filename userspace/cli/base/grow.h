/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Growing arrays: br_grow() makes room for @need elements of @size bytes in
 * *@p (capacity *@cap), doubling from 8.  0, or -1 out of memory (*@p and
 * *@cap unchanged).
 */
#ifndef BLOCKRANGE_CLI_BASE_GROW_H
#define BLOCKRANGE_CLI_BASE_GROW_H

#include <stdint.h>
#include <stdlib.h>

static inline int br_grow(void **p, size_t *cap, size_t need, size_t size)
{
	size_t c;
	void *q;

	if (need <= *cap)
		return 0;
	c = *cap ? *cap : 8;
	while (c < need) {
		if (c > SIZE_MAX / 2 / size)
			return -1;
		c *= 2;
	}
	q = realloc(*p, c * size);
	if (!q)
		return -1;
	*p = q;
	*cap = c;
	return 0;
}

#endif /* BLOCKRANGE_CLI_BASE_GROW_H */
