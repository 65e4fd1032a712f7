/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Runtime address -> ELF virtual address of the profiled binary.
 *
 * PERF_RECORD_MMAP2 lines whose path has the binary's basename are kept.
 * An address inside such a mapping [start, start + len) is at file offset
 * pgoff + (addr - start), which the PT_LOADs turn into a virtual address.
 * A sample with a pid uses only the mappings of that pid (when the mmap
 * line names one).  ET_EXEC binaries are not relocated: addresses are used
 * as they are.  Without a binary (`ranges --base`), addresses are used as
 * they are too.
 */
#ifndef BLOCKRANGE_CLI_MAPPER_H
#define BLOCKRANGE_CLI_MAPPER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "elfbin.h"
#include "perfscript.h"

struct mapper_map {
	long pid;
	uint64_t start;
	uint64_t len;
	uint64_t pgoff;
};

struct mapper {
	const struct eb_binary *bin;	/* NULL: identity */
	struct mapper_map *maps;
	size_t nr;
	size_t cap;
};

void mapper_init(struct mapper *m, const struct eb_binary *bin);
void mapper_free(struct mapper *m);

/*
 * Keep @pm if it maps the binary: 1 kept, 0 not ours, -1 out of memory, or
 * -2 with "expected ..., got ..." in @err if the mapping cannot be of the
 * binary: its end (start + len) or its file end (pgoff + len) does not fit
 * in 64 bits, or pgoff is not inside the file.
 */
int mapper_add(struct mapper *m, const struct ps_mmap *pm, char *err,
	       size_t errsz);

/* True if addresses cannot be mapped: a PIE and no mapping seen yet. */
static inline bool mapper_missing(const struct mapper *m)
{
	return m->bin && m->bin->pie && !m->nr;
}

/* Map @addr of process @pid (-1: unknown); false if not in the binary. */
bool mapper_map(const struct mapper *m, long pid, uint64_t addr,
		uint64_t *vaddr);

#endif /* BLOCKRANGE_CLI_MAPPER_H */
