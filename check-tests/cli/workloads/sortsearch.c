// SPDX-License-Identifier: GPL-2.0
/*
 * A second workload with other control flow than branches.c: callbacks from
 * libc into the executable (qsort), a switch that gcc compiles to an
 * indirect jump through a table, recursion, and a binary search.  Small on
 * purpose: `blockrange record` single-steps it.  Usage: sortsearch [N]
 * (elements, default 48, at most 256).
 */
#include <stdio.h>
#include <stdlib.h>

static unsigned int arr[256];

static int cmp(const void *a, const void *b)
{
	unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;

	return x < y ? -1 : x > y;
}

__attribute__((noinline)) static int classify(unsigned int x)
{
	switch (x % 8) {
	case 0:
		return 3;
	case 1:
		return x & 7;
	case 2:
		return 5;
	case 3:
		return (int)(x >> 3) & 1;
	case 4:
		return 2;
	case 5:
		return 7;
	case 6:
		return (int)(x % 3);
	default:
		return 1;
	}
}

__attribute__((noinline)) static unsigned int fib(unsigned int n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

__attribute__((noinline)) static int search(unsigned int n, unsigned int key)
{
	unsigned int lo = 0, hi = n;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (arr[mid] < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && arr[lo] == key;
}

int main(int argc, char **argv)
{
	unsigned int n = argc > 1 ? (unsigned int)strtoul(argv[1], NULL, 0) : 48;
	unsigned int v = 0xace1, i;
	long acc = 0;

	if (n > 256)
		n = 256;
	for (i = 0; i < n; i++) {
		v = (v >> 1) ^ (-(v & 1u) & 0xb400u);
		arr[i] = v;
	}
	qsort(arr, n, sizeof(arr[0]), cmp);
	for (i = 0; i < n; i++)
		acc += classify(arr[i]);
	for (i = 0; i < 16; i++)
		acc += search(n, arr[(i * 7) % n] + (i & 1));
	acc += fib(9);
	printf("acc=%ld\n", acc);
	return 0;
}
