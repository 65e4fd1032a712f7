// SPDX-License-Identifier: GPL-2.0
/* The multi-DSO workload's shared library: one hot loop. */
#include "libhot.h"

unsigned long lib_loop(unsigned long n)
{
	unsigned long x = 88172645463325252UL;

	for (unsigned long i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
	}
	return x;
}
