// SPDX-License-Identifier: GPL-2.0
/*
 * Call stacks of a known shape for `blockrange record -g` (built -O1
 * -fno-inline: every function below is a real call, none a sibling call
 * but tailer's).  stacks MODE, where MODE is:
 *
 *   rec      main -> outer -> mid -> rec x (REC_DEPTH + 1) -> spin; then
 *            main loops on its own (every frame above it returned)
 *   longjmp  main -> deep x (DEEP + 1), the innermost longjmps back to main,
 *            which calls landed -> spin; LOOPS times
 *   signal   main -> work -> raise(SIGUSR1): the handler (entered without a
 *            call) -> hwork -> spin; after it, work -> after -> spin
 *   tail     main -> tailer, which jumps (jmp, no call) to tail_target -> spin
 *   threads  two threads: thr -> rec x (3 + 1) and thr -> rec x (7 + 1) -> spin
 *   deep     main -> rec x (DEEP_CUT + 1) -> spin: deeper than the 1024
 *            frames a thread keeps
 *   fork     main -> forker -> fork(); the child: forker -> child_work ->
 *            spin (its stack inherited), the parent waits
 *   exec     main -> execer -> execv(itself, "rec"): the new program's
 *            stacks start empty
 *
 * spin() runs a loop of many taken branches, so that samples land there.
 * The test (test_qemu_stacks.c, stack_check.py) knows these shapes.
 */
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define REC_DEPTH 5
#define DEEP 6
#define LOOPS 200
#define DEEP_CUT 1500

volatile unsigned long sink;

__attribute__((noinline)) void spin(unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++)
		sink += i ^ (sink >> 3);
}

__attribute__((noinline)) void rec(int d, unsigned n)
{
	if (d > 0)
		rec(d - 1, n);
	else
		spin(n);
	sink++;		/* no sibling call */
}

__attribute__((noinline)) void mid(unsigned n)
{
	rec(REC_DEPTH, n);
	sink++;
}

__attribute__((noinline)) void outer(unsigned n)
{
	mid(n);
	sink++;
}

static jmp_buf jb;
/* Not known as noreturn: the call is not deep's last instruction. */
static void (*volatile jump)(jmp_buf, int) = longjmp;

__attribute__((noinline)) void deep(int d)
{
	spin(50);
	if (d > 0)
		deep(d - 1);
	else
		jump(jb, 1);
	sink++;
}

__attribute__((noinline)) void landed(void)
{
	spin(300);
	sink++;
}

__attribute__((noinline)) void hwork(void)
{
	spin(20000);
	sink++;
}

__attribute__((noinline)) void handler(int sig)
{
	(void)sig;
	hwork();
	sink++;
}

__attribute__((noinline)) void after(void)
{
	spin(20000);
	sink++;
}

__attribute__((noinline)) void work(void)
{
	raise(SIGUSR1);
	after();
	sink++;
}

__attribute__((noinline)) void tail_target(void)
{
	spin(20000);
	sink++;
}

/* A tail call, whatever the compiler does: a jmp to tail_target. */
void tailer(void);
__asm__(".text\n.globl tailer\n.type tailer,@function\ntailer:\n"
	"\tjmp tail_target\n.size tailer, .-tailer\n");

__attribute__((noinline)) void *thr(void *arg)
{
	rec((int)(long)arg, 40000);
	sink++;
	return NULL;
}

__attribute__((noinline)) void child_work(void)
{
	spin(40000);
	sink++;
}

__attribute__((noinline)) int forker(void)
{
	int st = 0;
	pid_t p = fork();

	if (p == 0) {
		child_work();
		_exit(0);
	}
	if (p < 0 || waitpid(p, &st, 0) != p)
		return 2;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 2;
}

__attribute__((noinline)) int execer(const char *self)
{
	execl(self, self, "rec", (char *)NULL);
	return 2;
}

int main(int argc, char **argv)
{
	const char *m = argc > 1 ? argv[1] : "rec";
	int i;

	if (!strcmp(m, "rec")) {
		outer(40000);
		for (i = 0; i < 40000; i++)
			sink += i ^ (sink >> 3);
	} else if (!strcmp(m, "longjmp")) {
		for (i = 0; i < LOOPS; i++)
			if (!setjmp(jb))
				deep(DEEP);
			else
				landed();
	} else if (!strcmp(m, "signal")) {
		signal(SIGUSR1, handler);
		for (i = 0; i < 3; i++)
			work();
	} else if (!strcmp(m, "tail")) {
		tailer();
	} else if (!strcmp(m, "threads")) {
		pthread_t a, b;

		if (pthread_create(&a, NULL, thr, (void *)3L) ||
		    pthread_create(&b, NULL, thr, (void *)7L))
			return 2;
		pthread_join(a, NULL);
		pthread_join(b, NULL);
	} else if (!strcmp(m, "fork")) {
		return forker();
	} else if (!strcmp(m, "exec")) {
		return execer("/proc/self/exe");
	} else if (!strcmp(m, "deep")) {
		rec(DEEP_CUT, 40000);
	} else {
		fprintf(stderr, "stacks: unknown mode %s\n", m);
		return 2;
	}
	return 0;
}
