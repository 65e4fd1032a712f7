// SPDX-License-Identifier: GPL-2.0
/*
 * Hot code in three DSOs: a loop in the executable (exe_loop), a loop in
 * its own shared library (lib_loop, libhot.c) and libc's qsort calling a
 * comparator of the executable (cmp).  Small on purpose: `blockrange
 * record` single-steps it.
 *
 * Usage: multidso [N [M [K]]]: exe_loop runs N iterations (default 200),
 * lib_loop M (default 200), qsort sorts K elements (default 24, at most
 * 256).  Prints the results and "cmp_calls=C", the comparator's calls.
 */
#include <stdio.h>
#include <stdlib.h>

#include "libhot.h"

static unsigned int arr[256];
static unsigned long cmp_calls;

static int cmp(const void *a, const void *b)
{
	unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;

	cmp_calls++;
	return x < y ? -1 : x > y;
}

__attribute__((noinline)) static unsigned long exe_loop(unsigned long n)
{
	unsigned long s = 1;

	for (unsigned long i = 0; i < n; i++)
		s = s * 33 + (i ^ (s >> 7));
	return s;
}

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 200;
	unsigned long m = argc > 2 ? strtoul(argv[2], NULL, 0) : 200;
	unsigned long k = argc > 3 ? strtoul(argv[3], NULL, 0) : 24;
	unsigned int v = 0xace1;
	unsigned long e, l;

	if (k > 256)
		k = 256;
	for (unsigned long i = 0; i < k; i++) {
		v = (v >> 1) ^ (-(v & 1u) & 0xb400u);
		arr[i] = v;
	}
	e = exe_loop(n);
	l = lib_loop(m);
	qsort(arr, k, sizeof(arr[0]), cmp);
	printf("exe=%lu lib=%lu first=%u cmp_calls=%lu\n", e, l, arr[0],
	       cmp_calls);
	return 0;
}
