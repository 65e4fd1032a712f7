// SPDX-License-Identifier: GPL-2.0
#include "mapper.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void mapper_init(struct mapper *m, const struct eb_binary *bin)
{
	memset(m, 0, sizeof(*m));
	m->bin = bin;
}

void mapper_free(struct mapper *m)
{
	free(m->maps);
	m->maps = NULL;
	m->nr = 0;
	m->cap = 0;
}

static const char *base_of(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

int mapper_add(struct mapper *m, const struct ps_mmap *pm, char *err,
	       size_t errsz)
{
	if (!m->bin || strcmp(base_of(pm->path), m->bin->base_name))
		return 0;
	/* len >= 1 (the reader rejects 0), so len - 1 cannot wrap. */
	if (pm->len - 1 > UINT64_MAX - pm->start ||
	    pm->len - 1 > UINT64_MAX - pm->pgoff) {
		snprintf(err, errsz,
			 "expected a mapping of %s whose end (start + length) and file end (offset + length) fit in 64 bits, got start 0x%" PRIx64 ", length 0x%" PRIx64 ", offset 0x%" PRIx64,
			 m->bin->base_name, pm->start, pm->len, pm->pgoff);
		return -2;
	}
	if (pm->pgoff >= m->bin->image_size) {
		snprintf(err, errsz,
			 "expected a file offset inside %s (%zu bytes) for its mapping, got 0x%" PRIx64,
			 m->bin->base_name, m->bin->image_size, pm->pgoff);
		return -2;
	}
	if (m->nr == m->cap) {
		size_t n = m->cap ? m->cap * 2 : 8;
		struct mapper_map *x = realloc(m->maps, n * sizeof(*x));

		if (!x)
			return -1;
		m->maps = x;
		m->cap = n;
	}
	m->maps[m->nr].pid = pm->pid;
	m->maps[m->nr].start = pm->start;
	m->maps[m->nr].len = pm->len;
	m->maps[m->nr].pgoff = pm->pgoff;
	m->nr++;
	return 1;
}

bool mapper_map(const struct mapper *m, long pid, uint64_t addr,
		uint64_t *vaddr)
{
	size_t i;

	if (!m->bin || !m->bin->pie) {
		*vaddr = addr;
		return true;
	}
	/* Newest mapping first: a later mmap replaces an earlier one. */
	for (i = m->nr; i-- > 0;) {
		const struct mapper_map *mm = &m->maps[i];

		if (pid >= 0 && mm->pid >= 0 && mm->pid != pid)
			continue;
		if (addr >= mm->start && addr - mm->start < mm->len)
			return eb_off_to_vaddr(m->bin,
					       mm->pgoff + (addr - mm->start),
					       vaddr);
	}
	return false;
}
