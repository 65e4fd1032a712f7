// SPDX-License-Identifier: GPL-2.0
/*
 * Memory of contexts and aggregates: the default allocator and the byte
 * accounting every allocation of the library goes through.
 *
 * The default allocator is malloc()/free() for ordinary sizes.  Arrays of
 * BR_HUGE_MIN bytes or more (an aggregate's record slabs, the temporary
 * arrays of a build, a large result) get their own anonymous mapping whose
 * start is aligned to 2 MiB and whose length is the size rounded up to a
 * page, with madvise(MADV_HUGEPAGE) on the whole 2 MiB extents in it: where
 * the kernel offers transparent huge pages, touching such an array costs
 * one page fault per 2 MiB instead of one per 4 KiB, and the rest of the
 * array (the part after the last whole extent) is ordinary pages, so the
 * memory held is exactly the size rounded up to a page.  Where the kernel
 * has no transparent huge pages, madvise() fails and is ignored.  Memory
 * from a caller's allocator is used as it comes.
 */
#define _DEFAULT_SOURCE
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "internal.h"

#define HUGE_ALIGN	((size_t)2 << 20)

static size_t page_round(size_t size)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	return (size + page - 1) / page * page;
}

static void *map_huge(size_t size)
{
	size_t len, head;
	char *p, *a;

	if (size > SIZE_MAX / 2)
		return NULL;
	len = page_round(size);
	p = mmap(NULL, len + HUGE_ALIGN, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	a = (char *)(((uintptr_t)p + HUGE_ALIGN - 1) &
		     ~(uintptr_t)(HUGE_ALIGN - 1));
	/* The head may be empty: munmap() of 0 bytes is a harmless EINVAL. */
	head = (size_t)(a - p);
	munmap(p, head);
	munmap(a + len, HUGE_ALIGN - head);
	/* A hint: without transparent huge pages it fails, harmlessly. */
	madvise(a, len / HUGE_ALIGN * HUGE_ALIGN, MADV_HUGEPAGE);
	return a;
}

static void *std_alloc(size_t size, void *arg)
{
	(void)arg;
	if (size >= BR_HUGE_MIN)
		return map_huge(size);
	return malloc(size);
}

static void std_free(void *ptr, size_t size, void *arg)
{
	(void)arg;
	if (size >= BR_HUGE_MIN)
		munmap(ptr, page_round(size));
	else
		free(ptr);
}

const struct blockrange_allocator br_std_allocator = {
	std_alloc, std_free, NULL
};

void br_mem_init(struct br_mem *m, const struct blockrange_allocator *a)
{
	m->a = a ? *a : br_std_allocator;
	m->used = 0;
}

void *br_alloc(struct br_mem *m, size_t size)
{
	void *p = m->a.alloc(size, m->a.arg);

	if (p)
		m->used += size;
	return p;
}

void br_free(struct br_mem *m, void *p, size_t size)
{
	if (!p)
		return;
	m->used -= size;
	m->a.free(p, size, m->a.arg);
}
