// SPDX-License-Identifier: GPL-2.0
/*
 * A workload for sample profiles: what -O2 makes of it exercises most rules
 * of the profile builder.  Functions inlined two levels deep and two
 * callees inlined on one line (inline frames, call sites keyed by line and
 * discriminator), a loop the compiler unrolls or vectorizes (duplication
 * factors), a rarely taken branch, a tail call (a jump to a function
 * entry), an indirect call (call targets), recursion, code on line 0.
 * Functions of several ranges (gcc's .cold parts) come from glibc in the
 * tests.  Small on purpose: `blockrange record` single-steps it.
 * Usage: inlines [N] (default 64, at most 4096).
 */
#include <stdio.h>
#include <stdlib.h>

static unsigned int data[4096];

static inline unsigned int mix(unsigned int x)
{
	x ^= x >> 7;
	x *= 0x9e3779b1u;
	return x ^ (x >> 13);
}

static inline unsigned int clamp(unsigned int x, unsigned int hi)
{
	return x > hi ? hi : x;
}

static inline unsigned int step(unsigned int x)
{
	return clamp(mix(x), 1000000u) + (x & 3);
}

__attribute__((noinline)) static unsigned int sum(const unsigned int *v,
						   unsigned int n)
{
	unsigned int s = 0, i;

	for (i = 0; i < n; i++)
		s += v[i] * 3u;
	return s;
}

__attribute__((noinline)) static unsigned int check(unsigned int x)
{
	if (__builtin_expect(x == 0xdeadbeefu, 0)) {
		fprintf(stderr, "inlines: unexpected %u\n", x);
		exit(3);
	}
	return x % 1009u;
}

__attribute__((noinline)) static unsigned int twice(unsigned int x)
{
	return step(step(x));
}

__attribute__((noinline)) static unsigned int depth(unsigned int x,
						     unsigned int d)
{
	if (!d)
		return x;
	return depth(mix(x), d - 1) + 1;
}

__attribute__((noinline)) static unsigned int tail(unsigned int x)
{
	return check(x + 1);
}

static unsigned int (*const ops[])(unsigned int) = { twice, tail, check };

int main(int argc, char **argv)
{
	unsigned int n = argc > 1 ? (unsigned int)atoi(argv[1]) : 64;
	unsigned int i, acc = 0;

	if (n > 4096)
		n = 4096;
	for (i = 0; i < n; i++)
		data[i] = step(i) ^ mix(i + 1);
	for (i = 0; i < n; i++)
		acc += ops[data[i] % 3](data[i]) + check(clamp(data[i], 77u));
	acc += sum(data, n) + depth(acc, 5);
	printf("%u\n", acc);
	return 0;
}
