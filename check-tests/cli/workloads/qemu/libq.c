// SPDX-License-Identifier: GPL-2.0
/* libqa.so (-DNAME=qa_work) and libqb.so (-DNAME=qb_work) for dlopen.c. */
long NAME(long n)
{
	volatile long s = 0;
	long i;

	for (i = 0; i < n; i++)
		s += i;
	return s;
}
