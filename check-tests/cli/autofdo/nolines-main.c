// SPDX-License-Identifier: GPL-2.0
/*
 * Half a program with line info: this file is built with -g, nolines-hot.c
 * without, so the hot function nolines_hot() has no DWARF and its samples
 * cannot be in a sample profile (the summary line must name it).
 * Usage: nolines [N] (default 2000).
 */
#include <stdio.h>
#include <stdlib.h>

unsigned int nolines_hot(unsigned int n);

__attribute__((noinline)) static unsigned int lined(unsigned int n)
{
	unsigned int s = 0, i;

	for (i = 0; i < n; i++)
		s += i % 7 ? i : 3;
	return s;
}

int main(int argc, char **argv)
{
	unsigned int n = argc > 1 ? (unsigned int)atoi(argv[1]) : 2000;

	printf("%u\n", nolines_hot(n) + lined(n));
	return 0;
}
