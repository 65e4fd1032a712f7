// SPDX-License-Identifier: GPL-2.0
/*
 * Reading the guest's memory: guest addresses are host addresses in
 * qemu-x86_64 (guest_base 0), read through process_vm_readv so that a bad
 * pointer in a system call's arguments fails the read instead of crashing
 * QEMU.  Calls nothing of the plugin.
 */
#define _GNU_SOURCE

#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "qemu-plugin/plugin.h"

/*
 * Read @n bytes of the guest at @addr (guest addresses are ours) without
 * faulting on a bad pointer: the system call would fail with EFAULT, the
 * plugin must not crash QEMU.
 */
bool guest_read(void *dst, uint64_t addr, size_t n)
{
	struct iovec l = { dst, n }, r = { (void *)(uintptr_t)addr, n };

	return addr && process_vm_readv(getpid(), &l, 1, &r, 1, 0) == (ssize_t)n;
}

/* A NUL-terminated guest string into @dst (@size bytes), or false. */
bool guest_str(char *dst, size_t size, uint64_t addr)
{
	size_t got = 0;

	while (got + 1 < size) {
		/* up to the end of the page, so no read spans into a hole */
		size_t chunk = 4096 - ((addr + got) & 4095);
		char *nul;

		if (chunk > size - 1 - got)
			chunk = size - 1 - got;
		if (!guest_read(dst + got, addr + got, chunk))
			return false;
		nul = memchr(dst + got, '\0', chunk);
		if (nul)
			return true;
		got += chunk;
	}
	return false;
}

/* The guest's NULL-terminated pointer array at @addr (malloc'ed), or NULL. */
char **guest_argv(uint64_t addr, size_t *n)
{
	char **v = NULL;
	size_t cap = 0;

	*n = 0;
	if (!addr)
		return calloc(1, sizeof(*v));
	for (;;) {
		uint64_t p;

		if (*n + 1 >= cap) {
			char **x;

			cap = cap ? 2 * cap : 64;
			x = realloc(v, cap * sizeof(*v));
			if (!x) {
				free(v);
				return NULL;
			}
			v = x;
		}
		if (!guest_read(&p, addr + 8 * *n, sizeof(p))) {
			free(v);
			return NULL;
		}
		v[*n] = (char *)(uintptr_t)p;
		if (!p)
			return v;
		++*n;
	}
}
