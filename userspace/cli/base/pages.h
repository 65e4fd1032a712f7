/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading a large file through a read-only mapping in constant memory:
 * br_drop_pages() makes the whole pages inside [@from, @to) leave the
 * process (the kernel reads them again from the page cache if they are
 * touched later), once the reader is done with them.
 */
#ifndef BLOCKRANGE_CLI_BASE_PAGES_H
#define BLOCKRANGE_CLI_BASE_PAGES_H

#include <stdint.h>
#include <sys/mman.h>

static inline void br_drop_pages(const void *from, const void *to)
{
	uintptr_t a = ((uintptr_t)from + 4095) & ~(uintptr_t)4095;
	uintptr_t e = (uintptr_t)to & ~(uintptr_t)4095;

	if (e > a)
		(void)madvise((void *)a, e - a, MADV_DONTNEED);
}

#endif /* BLOCKRANGE_CLI_BASE_PAGES_H */
