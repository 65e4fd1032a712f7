// SPDX-License-Identifier: GPL-2.0
/* Built without -g: see nolines-main.c. */
unsigned int nolines_hot(unsigned int n)
{
	unsigned int s = 0, i;

	for (i = 0; i < n; i++)
		s += i & 1 ? i * 3 : i >> 1;
	return s;
}
