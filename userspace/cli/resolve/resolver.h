/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What annotate and ranges share between the input and their engines: the
 * DSO registry and the address spaces, fed by the input's mmap, comm, task
 * and build-id events, and the rules that decide which blocks a profile
 * counts.
 *
 * --binary BIN (the single-binary mode of perf-script text) makes BIN the
 * file of every recorded DSO with BIN's basename, restricts the profile to
 * it (as --dso would), and, for a non-PIE BIN, maps its segments at their
 * own addresses for every process (perf-script text of a non-PIE program
 * needs no mmap lines).  A PIE BIN needs its mmap before the first sample.
 */
#ifndef BLOCKRANGE_CLI_RESOLVER_H
#define BLOCKRANGE_CLI_RESOLVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/status.h"
#include "resolve/addrspace.h"
#include "resolve/dso.h"
#include "input/events.h"

/* Why a candidate block was not counted, in the order they are checked. */
enum skip_reason {
	SKIP_ABORT = 0,		/* either entry is a transaction abort */
	SKIP_IN_TX,		/* either entry is inside a transaction */
	SKIP_EMPTY,		/* an address is 0 (an unused LBR entry) */
	SKIP_KERNEL,		/* kernel code without --vmlinux/--kallsyms */
	SKIP_NO_MAPPING,	/* an end in no mapping of its process */
	SKIP_NOT_FOUND,		/* the DSO's binary was not found */
	SKIP_MISMATCH,		/* only files with another build-id */
	SKIP_UNUSABLE,		/* the DSO's file is not a usable binary */
	SKIP_OUTSIDE,		/* not in an executable section of the DSO */
	SKIP_CROSS,		/* the ends are in two different mappings */
	SKIP_OTHER_DSO,		/* a DSO that --dso / --binary left out */
	SKIP_REVERSED,		/* start > end */
	SKIP_NR,
};

struct resolver_opts {
	struct dso_opts dso;
	const char *binary;	/* --binary BIN, NULL: none */
	const char *const *dsos;	/* --dso NAME..., NULL: every DSO */
	size_t nr_dsos;
};

struct resolver_stats {
	uint64_t samples;	/* weighted by repeat counts */
	uint64_t brstack_samples;
	uint64_t entries;	/* branch records */
	uint64_t blocks;	/* candidate blocks */
	uint64_t counted;
	uint64_t skipped[SKIP_NR];
	uint64_t ips_kernel;	/* sample IPs in the kernel, not resolved */
};

struct resolver {
	const char *name;	/* input name, for messages */
	struct resolver_opts o;
	struct dso_registry *reg;
	struct addrspace *as;
	struct dso *bin_dso;	/* --binary */
	struct eb_binary bin;	/* --binary, opened up front */
	bool bin_open;
	bool bin_mapped;	/* a PIE --binary got its mmap */
	struct resolver_stats st;
	char *event;		/* first sample's event, NULL: none */
	bool mixed_events;
	bool exact;		/* every taken branch of the recording counted
				 * (an exact recording), no sampling */
	bool started;		/* a sample was seen (the kernel DSO made) */
	bool replica;		/* shares the registry of another resolver */
};

/*
 * 0, or with a message in @err BR_EINPUT (an unusable --binary) or BR_ESYS
 * (it cannot be read, out of memory).  The resolver never prints: the
 * summary of what it counted is output/summary.h's.
 */
int resolver_init(struct resolver *s, const char *name,
		 const struct resolver_opts *o, char *err, size_t errsz);
void resolver_free(struct resolver *s);

/*
 * A resolver with an address space of its own that shares @master's DSO
 * registry and --binary (par.h): it must be fed the same mmap, comm and
 * task events (mmaps through resolver_mmap_apply() with @master's
 * resolver_mmap_prepare() result) and never creates DSOs itself.  0 or
 * BR_ESYS (out of memory).  resolver_free() leaves the shared parts alone.
 */
int resolver_init_replica(struct resolver *s, const struct resolver *master);

/*
 * resolver_mmap() in two steps (as_mmap_prepare() / as_mmap_apply()):
 * resolver_mmap_prepare() checks the mmap (the --binary rules; same
 * messages and statuses as resolver_mmap()) and resolves its DSO on the
 * resolver that owns the registry; resolver_mmap_apply() maps it into any
 * resolver that follows the events.
 */
struct resolver_mmap_res {
	struct as_mmap_res as;
	bool skip;		/* nothing to map (empty, or a non-PIE --binary) */
	bool bin;		/* a mapping of the --binary */
};

int resolver_mmap_prepare(struct resolver *s, const struct ev_mmap *m,
			 struct resolver_mmap_res *res, char *err,
			 size_t errsz);
int resolver_mmap_apply(struct resolver *s, const struct ev_mmap *m,
		       const struct resolver_mmap_res *res, char *err,
		       size_t errsz);

/*
 * Before the first sample: make the kernel DSO of kernel addresses without
 * a kernel mmap (so that no DSO is ever made while samples are resolved,
 * on any thread).  0 or BR_ESYS (out of memory).  resolver_sample() calls
 * it.
 */
int resolver_start(struct resolver *s);

/* ev_sink callbacks (arg: struct resolver *) for mmap, comm, task, build_id. */
int resolver_mmap(void *arg, const struct ev_mmap *m, char *err, size_t errsz);
int resolver_comm(void *arg, const struct ev_comm *c, char *err, size_t errsz);
int resolver_task(void *arg, const struct ev_task *t, char *err, size_t errsz);
int resolver_build_id(void *arg, const struct ev_build_id *b, char *err,
		     size_t errsz);

/*
 * Per sample, before resolving: counts it, notes its event, and checks the
 * --binary PIE rule.  0, or with a message BR_EINPUT (malformed input) or
 * BR_ESYS.
 */
int resolver_sample(struct resolver *s, const struct ev_sample *smp, char *err,
		   size_t errsz);

/*
 * The event of @src's samples into @dst: @dst keeps its event if it has
 * one (and notes mixed events if they differ), else takes @src's.  0 or
 * BR_ESYS (out of memory).
 */
int resolver_merge_event(struct resolver *dst, const struct resolver *src);

/* Whether a DSO is one the profile is restricted to (--dso/--binary). */
bool resolver_wants(const struct resolver *s, const struct dso *d);

/* An end of a block: a branch target or source, resolved. */
struct resolver_addr {
	struct as_resolved r;
	bool ok;		/* counted DSO, in its code */
};

void resolver_resolve(struct resolver *s, const struct ev_sample *smp,
		     uint64_t addr, struct resolver_addr *out);

/*
 * Why the block from @start to @end (their entries @older / @newer) is not
 * counted, or SKIP_NR if it is; the statistics are updated either way.
 */
enum skip_reason resolver_block(struct resolver *s, const struct ev_branch *older,
			       const struct ev_branch *newer,
			       const struct resolver_addr *start,
			       const struct resolver_addr *end, uint64_t weight);

#endif /* BLOCKRANGE_CLI_RESOLVER_H */
