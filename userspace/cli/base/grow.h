/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Growing arrays, the one way the CLI does it: br_grow_from() makes room
 * for @need elements of @size bytes in *@p (capacity *@cap), starting at
 * @first elements and doubling; br_grow() starts at 8.  0, or BR_ENOMEM
 * when the size would pass SIZE_MAX or memory is out (*@p and *@cap
 * unchanged).
 * New elements are not initialised.
 */
#ifndef BLOCKRANGE_CLI_BASE_GROW_H
#define BLOCKRANGE_CLI_BASE_GROW_H

#include <stdint.h>
#include <stdlib.h>

#include "base/status.h"

static inline int br_grow_from(void **p, size_t *cap, size_t need,
			       size_t size, size_t first)
{
	size_t c;
	void *q;

	if (need <= *cap)
		return 0;
	c = *cap ? *cap : first;
	while (c < need) {
		if (c > SIZE_MAX / 2 / size)
			return BR_ENOMEM;
		c *= 2;
	}
	q = realloc(*p, c * size);
	if (!q)
		return BR_ENOMEM;
	*p = q;
	*cap = c;
	return 0;
}

static inline int br_grow(void **p, size_t *cap, size_t need, size_t size)
{
	return br_grow_from(p, cap, need, size, 8);
}

#endif /* BLOCKRANGE_CLI_BASE_GROW_H */
