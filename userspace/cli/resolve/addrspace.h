/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Address spaces of the profiled processes: which DSO, at which file
 * offset, a runtime address of a process falls in.
 *
 * Built from the events (events.h) in order:
 *  - MMAP / MMAP2 of an executable mapping adds it to its process (the
 *    kernel's, for kernel-mode mmaps); a new mapping replaces the parts of
 *    older ones it overlaps, as mmap(2) does.  Non-executable mappings are
 *    ignored (no code runs there).
 *  - FORK of a new process (pid != ppid) copies the parent's mappings;
 *    threads share their process's.  COMM with the exec flag empties the
 *    process (the new program's mappings follow).  EXIT changes nothing
 *    (late samples of the task still resolve).
 *  - Mappings without a pid (perf-script text without a pid column) are
 *    seen by every process, after its own; samples without a pid look
 *    there, then in every process, newest mapping first.
 * Kernel addresses (kernel cpumode, or >= 0xffff800000000000 when the
 * cpumode is unknown) resolve to the kernel DSO even without a kernel
 * mmap.
 *
 * A runtime address a of a mapping [start, end) with offset pgoff is at
 * file offset pgoff + (a - start); the DSO's PT_LOADs turn that into an
 * ELF address (dso_addr()).  Every mapping has a unique id, so a block
 * whose ends fall in two mappings can be told apart from one in a single
 * mapping even when both are of the same DSO.
 */
#ifndef BLOCKRANGE_CLI_RESOLVE_ADDRSPACE_H
#define BLOCKRANGE_CLI_RESOLVE_ADDRSPACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "resolve/dso.h"
#include "input/events.h"

struct as_map {
	uint64_t start;
	uint64_t end;		/* exclusive */
	uint64_t pgoff;
	struct dso *dso;
	uint64_t id;		/* unique per mapping */
	uint64_t seq;		/* creation order, for "newest first" */
	/* as the MMAP2 record has them (0 when unknown) */
	uint32_t prot;		/* PROT_* */
	uint32_t flags;		/* MAP_SHARED, MAP_PRIVATE */
	uint32_t maj;
	uint32_t min;
	uint64_t ino;
};

/*
 * The mappings of one address space, sorted by start and disjoint: a
 * process's here, and the recorder's mirror of /proc/PID/maps
 * (record/record.c).  Zero-initialise; as_maps_free() releases.
 */
struct as_maps {
	struct as_map *v;
	size_t nr;
	size_t cap;
	size_t last;		/* the last hit: runs of addresses in one */
};

/*
 * Add @nm, cutting whatever part of older mappings it overlaps (as
 * mmap(2) does).  0, or BR_ESYS (base/status.h) out of memory.
 */
int as_maps_insert(struct as_maps *m, const struct as_map *nm);

/* The mapping containing @addr, or NULL. */
const struct as_map *as_maps_find(struct as_maps *m, uint64_t addr);

/* @dst becomes a copy of @src (a forked process): 0 or BR_ESYS. */
int as_maps_copy(struct as_maps *dst, const struct as_maps *src);
void as_maps_free(struct as_maps *m);

enum as_res {
	AS_OK = 0,		/* @dso and @vaddr are set */
	AS_ZERO,		/* address 0 (an empty LBR entry) */
	AS_KERNEL,		/* the kernel, without a usable kernel DSO */
	AS_UNMAPPED,		/* in no mapping of the process */
	AS_NOT_FOUND,		/* the DSO's file was not found */
	AS_MISMATCH,		/* only files with another build-id */
	AS_UNUSABLE,		/* the DSO's file is not a usable binary */
	AS_OUTSIDE,		/* in the mapping, but not in the file's
				 * PT_LOADs / executable sections */
	AS_FILTERED,		/* a DSO the filter left out (not loaded) */
	AS_NOMEM,		/* loading the DSO ran out of memory */
	AS_NR_RES,
};

struct as_resolved {
	enum as_res res;
	struct dso *dso;	/* also set for NOT_FOUND/MISMATCH/... */
	uint64_t map_id;
	uint64_t vaddr;		/* ELF address (AS_OK) */
};

struct addrspace;

struct addrspace *as_new(struct dso_registry *reg);
void as_free(struct addrspace *as);

/*
 * Event handlers; 0, or BR_ESYS (base/status.h) out of memory.
 *
 * An mmap in two steps, for several address spaces that follow the same
 * events (input/par.h): as_mmap_prepare() decides what the mmap maps
 * (creating its DSO in the registry, looked up by the mmap's path and
 * build-id unless @dso is given; the kernel's records its _text), once,
 * and as_mmap_apply() maps it into any address space.
 */
struct as_mmap_res {
	bool skip;		/* not a mapping that holds code */
	bool kernel_text;	/* the kernel's "_text" mapping */
	struct dso *dso;
};

int as_mmap_prepare(struct addrspace *as, const struct ev_mmap *m,
		    struct dso *dso, struct as_mmap_res *res);
int as_mmap_apply(struct addrspace *as, const struct ev_mmap *m,
		  const struct as_mmap_res *res);

/* The kernel DSO of kernel addresses without a kernel mapping. */
void as_set_kernel_dso(struct addrspace *as, struct dso *d);
int as_comm(struct addrspace *as, const struct ev_comm *c);
int as_task(struct addrspace *as, const struct ev_task *t);

/*
 * A mapping of @dso's executable PT_LOADs at their own addresses, seen by
 * every process: what a non-PIE executable given with --binary needs when
 * the input has no mmap of it.  0, or BR_ESYS (base/status.h) out of memory.
 */
int as_identity(struct addrspace *as, struct dso *dso);

/*
 * Resolve a runtime address of @pid (-1: unknown); loads the DSO the first
 * time it is hit.  @code: the address must lie in an executable section of
 * the DSO (else AS_OUTSIDE).
 */
void as_resolve(struct addrspace *as, int32_t pid, enum ev_cpumode cpumode,
		uint64_t addr, struct as_resolved *out);

/*
 * Only DSOs for which @want returns true are loaded and resolved; others
 * give AS_FILTERED.  NULL: every DSO.
 */
void as_set_filter(struct addrspace *as,
		   bool (*want)(void *arg, const struct dso *d), void *arg);

/* The kernel DSO (created on first use); NULL if out of memory. */
struct dso *as_kernel_dso(struct addrspace *as);

#endif /* BLOCKRANGE_CLI_RESOLVE_ADDRSPACE_H */
