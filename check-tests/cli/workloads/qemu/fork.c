// SPDX-License-Identifier: GPL-2.0
/*
 * fork: the child runs work(3000) and exits with 7, the parent runs
 * work(5000) and exits with the child's status + 1 (8): work's loop
 * branch (-O0: at the bottom) is taken 3000 + 5000 times, in two
 * processes.
 */
#include <sys/wait.h>
#include <unistd.h>

__attribute__((noinline)) long work(long n)
{
	volatile long s = 0;
	long i;

	for (i = 0; i < n; i++)
		s += i;
	return s;
}

int main(void)
{
	pid_t pid = fork();
	int st = 0;

	if (pid == 0) {
		work(3000);
		_exit(7);
	}
	work(5000);
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return 1;
	return WEXITSTATUS(st) + 1;
}
