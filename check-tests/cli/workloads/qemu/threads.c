// SPDX-License-Identifier: GPL-2.0
/*
 * 8 threads, thread i (0..7) runs work((i + 1) * 1000): four one after the
 * other (each joined before the next starts, so QEMU hands the same vCPU
 * index to each), then four at once.  Built with -O0: work's loop
 * test (jl, at the loop's bottom) is taken n times a call, 36000 in all,
 * and work is entered 8 times.
 */
#include <pthread.h>
#include <stdio.h>

__attribute__((noinline)) long work(long n)
{
	volatile long s = 0;
	long i;

	for (i = 0; i < n; i++)
		s += i;
	return s;
}

static void *run(void *arg)
{
	return (void *)work((long)arg);
}

int main(void)
{
	pthread_t t[8];
	long i, total = 0;

	for (i = 0; i < 4; i++) {
		void *r;

		pthread_create(&t[i], NULL, run, (void *)((i + 1) * 1000));
		pthread_join(t[i], &r);
		total += (long)r;
	}
	for (i = 4; i < 8; i++)
		pthread_create(&t[i], NULL, run, (void *)((i + 1) * 1000));
	for (i = 4; i < 8; i++) {
		void *r;

		pthread_join(t[i], &r);
		total += (long)r;
	}
	printf("%ld\n", total);
	return 0;
}
