// SPDX-License-Identifier: GPL-2.0
/*
 * The seed's "branches" shape: an LFSR drives data-dependent branches in a
 * loop that also calls a small function.  Small on purpose: `blockrange
 * record` single-steps it.  Usage: branches [ITERATIONS] (default 1000).
 */
#include <stdio.h>
#include <stdlib.h>

static unsigned long acc;

/* 16-bit Fibonacci LFSR, taps 16 14 13 11. */
__attribute__((noinline)) static unsigned long lfsr(unsigned long v)
{
	unsigned long bit = ((v >> 0) ^ (v >> 2) ^ (v >> 3) ^ (v >> 5)) & 1;

	return (v >> 1) | (bit << 15);
}

__attribute__((noinline)) static void branches(unsigned long v,
					       unsigned long n)
{
	for (unsigned long i = 0; i < n; i++) {
		if (v & 1)
			acc += 1;
		else
			acc -= 1;
		v = lfsr(v);
		if (i & 1)
			acc >>= 2;
		if (v & 1)
			acc -= 1;
		else
			acc += 1;
		v = lfsr(v);
	}
}

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 1000;

	branches(0xace1, n);
	printf("acc=%lu\n", acc);
	return 0;
}
