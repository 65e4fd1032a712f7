// SPDX-License-Identifier: GPL-2.0
/*
 * Threads, fork and exec for `blockrange record`: starts two threads
 * (named "worker0" and "worker1" with prctl(PR_SET_NAME)) that each run a
 * loop of N iterations, joins them, then forks a child that execs PROGRAM
 * [ARGS...] and waits for it.  Small on purpose: it is single-stepped.
 *
 * Usage: tasks N PROGRAM [ARGS...]
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

static unsigned long iterations;

struct worker {
	int id;
	unsigned long result;
};

__attribute__((noinline)) static unsigned long spin(unsigned long n,
						    unsigned long seed)
{
	for (unsigned long i = 0; i < n; i++)
		seed = seed * 6364136223846793005UL + 1442695040888963407UL;
	return seed;
}

static void *work(void *arg)
{
	struct worker *w = arg;
	char name[16];

	snprintf(name, sizeof(name), "worker%d", w->id);
	prctl(PR_SET_NAME, name);
	w->result = spin(iterations, (unsigned long)w->id);
	return NULL;
}

int main(int argc, char **argv)
{
	struct worker w[2] = { { 0, 0 }, { 1, 0 } };
	pthread_t th[2];
	pid_t pid;
	int status, i;

	if (argc < 3) {
		fprintf(stderr, "usage: tasks N PROGRAM [ARGS...]\n");
		return 2;
	}
	iterations = strtoul(argv[1], NULL, 0);
	for (i = 0; i < 2; i++)
		if (pthread_create(&th[i], NULL, work, &w[i]))
			return 1;
	for (i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	printf("results %lx %lx\n", w[0].result, w[1].result);
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return 1;
	if (!pid) {
		execv(argv[2], argv + 2);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return 1;
	return WEXITSTATUS(status);
}
