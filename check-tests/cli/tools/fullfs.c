// SPDX-License-Identifier: GPL-2.0
/*
 * fullfs.so: a full disk for the CLI's write-error tests (test_options.c).
 * Preloaded (LD_PRELOAD) into blockrange, it lowers the soft file size
 * limit to 0 when main() starts, so that every write that would grow a
 * regular file fails with EFBIG (SIGXFSZ is ignored), and raises it
 * back to the hard limit when the program exits.  The coverage build's
 * runtime writes its counters after every exit handler (its .gcda files
 * would not survive a limit of 0): the handler is registered from main's
 * wrapper, later than that runtime's, so it runs first.
 *
 * main() is reached through __libc_start_main, which the program calls
 * through its PLT: this one takes its place and hands the real one a
 * wrapper of main.  Under AddressSanitizer, ASAN_OPTIONS needs
 * verify_asan_link_order=0.
 */
#define _GNU_SOURCE

#include <dlfcn.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

typedef int (*main_fn)(int, char **, char **);
typedef int (*start_fn)(main_fn, int, char **, void (*)(void),
			void (*)(void), void (*)(void), void *);

static main_fn real_main;

static void set_soft(int full)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_FSIZE, &rl))
		_exit(126);
	rl.rlim_cur = full ? 0 : rl.rlim_max;
	if (setrlimit(RLIMIT_FSIZE, &rl))
		_exit(126);
}

static void unlimit(void)
{
	set_soft(0);
}

static int full_main(int argc, char **argv, char **envp)
{
	if (atexit(unlimit) || signal(SIGXFSZ, SIG_IGN) == SIG_ERR)
		_exit(126);
	set_soft(1);
	return real_main(argc, argv, envp);
}

int __libc_start_main(main_fn main, int argc, char **argv,
		      void (*init)(void), void (*fini)(void),
		      void (*rtld_fini)(void), void *stack_end)
{
	start_fn real = (start_fn)dlsym(RTLD_NEXT, "__libc_start_main");

	if (!real)
		_exit(126);
	real_main = main;
	return real(full_main, argc, argv, init, fini, rtld_fini, stack_end);
}
