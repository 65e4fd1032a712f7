// SPDX-License-Identifier: GPL-2.0
/*
 * Calling contexts for the context-sensitive profile: a call chain three
 * deep with a function inlined into two callers (always_inline, as the
 * workloads are built at -O0), direct recursion, mutual recursion, a
 * longjmp out of a deep chain and a call through a pointer.  Small on
 * purpose: `blockrange record --engine=ptrace` single-steps it.  Usage:
 * contexts [ITERATIONS] (default 20).
 */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>

static volatile unsigned long acc;
static jmp_buf jb;

static inline __attribute__((always_inline)) unsigned long sq(unsigned long x)
{
	return x * x;
}

__attribute__((noinline)) static unsigned long leaf(unsigned long x)
{
	unsigned long s = 0;

	for (unsigned long i = 0; i < (x & 3); i++)
		s += sq(i);
	return s;
}

__attribute__((noinline)) static unsigned long mid(unsigned long x)
{
	if (x & 1)
		return leaf(x) + sq(x);
	return leaf(x + 1);
}

__attribute__((noinline)) static unsigned long down(unsigned long d,
						    unsigned long x)
{
	if (!d)
		return mid(x);
	return down(d - 1, x) + 1;
}

__attribute__((noinline)) static unsigned long even(unsigned long n);

__attribute__((noinline)) static unsigned long odd(unsigned long n)
{
	return n ? even(n - 1) + 1 : 0;
}

__attribute__((noinline)) static unsigned long even(unsigned long n)
{
	return n ? odd(n - 1) + 2 : 1;
}

__attribute__((noinline)) static void jump(unsigned long d)
{
	if (!d)
		longjmp(jb, 1);
	jump(d - 1);
	acc++;
}

int main(int argc, char **argv)
{
	unsigned long (*volatile call)(unsigned long) = mid;
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 20;

	for (unsigned long i = 0; i < n; i++) {
		acc += down(i % 3, i) + even(i % 5) + call(i);
		if (!setjmp(jb))
			jump(i % 4);
	}
	printf("%lu\n", acc);
	return 0;
}
