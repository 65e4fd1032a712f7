// SPDX-License-Identifier: GPL-2.0
/*
 * Mappings that come and go, and an address that two files use in turn:
 * for libqa.so then libqb.so, dlopen it, call its function with 10 (qa)
 * or 20 (qb), dlclose it; then map the whole file at ADDR with mmap,
 * call the function there with 300 (qa) or 700 (qb), munmap it.  Both
 * files land at ADDR, one after the other.  Built with -O0, qa_work's loop
 * branch is taken 10 + 300 times, qb_work's 20 + 700 times, each in its
 * own DSO.  Prints "NAME ADDR" for each mapping at ADDR.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define ADDR ((void *)0x3000000000)

static int run(const char *dir, const char *lib, const char *fn, long n1,
	       long n2)
{
	char path[4096];
	long (*f)(long);
	struct stat st;
	Dl_info info;
	size_t off;
	void *h, *p;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, lib);
	h = dlopen(path, RTLD_NOW);
	if (!h || !(f = (long (*)(long))dlsym(h, fn)) || !dladdr((void *)f, &info)) {
		fprintf(stderr, "%s: %s\n", path, dlerror());
		return 1;
	}
	f(n1);
	off = (size_t)((char *)f - (char *)info.dli_fbase);
	if (dlclose(h))
		return 1;
	/* the code is position-independent and touches no data: run it
	 * from a mapping of the whole file */
	fd = open(path, O_RDONLY);
	if (fd < 0 || fstat(fd, &st))
		return 1;
	p = mmap(ADDR, (size_t)st.st_size, PROT_READ | PROT_EXEC, MAP_PRIVATE,
		 fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return 1;
	f = (long (*)(long))((char *)p + off);
	f(n2);
	printf("%s %p\n", lib, p);
	return munmap(p, (size_t)st.st_size);
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : ".";

	return run(dir, "libqa.so", "qa_work", 10, 300) ||
	       run(dir, "libqb.so", "qb_work", 20, 700);
}
