// SPDX-License-Identifier: GPL-2.0
/*
 * dlopen libqa.so, call qa_work(300), dlclose; then libqb.so, qb_work(700),
 * dlclose: the two libraries are the same size, so the second one usually
 * lands where the first one was.  Built with -O0, qa_work's loop branch
 * is taken 300 times, qb_work's 700 times, each in its own DSO.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

static int run(const char *dir, const char *lib, const char *fn, long n)
{
	char path[4096];
	long (*f)(long);
	void *h;

	snprintf(path, sizeof(path), "%s/%s", dir, lib);
	h = dlopen(path, RTLD_NOW);
	if (!h) {
		fprintf(stderr, "%s\n", dlerror());
		return 1;
	}
	f = (long (*)(long))dlsym(h, fn);
	if (!f)
		return 1;
	printf("%s %p %ld\n", lib, (void *)f, f(n));
	return dlclose(h);
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : ".";

	return run(dir, "libqa.so", "qa_work", 300) ||
	       run(dir, "libqb.so", "qb_work", 700);
}
