/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The context-sensitive sample profile of one DSO, from its
 * context-sensitive raw profile (collect/unwind.h), with llvm-profgen-19's
 * rules for line-based profiles (docs/autofdo.md, "Context-sensitive
 * profiles"), in its flat form (one profile per calling context, as
 * llvm-profgen writes with --csspgo-preinliner=false
 * --gen-cs-nested-profile=false --csprof-merge-cold-context=false):
 *
 *  - the contexts form a trie: a node per (call site in its caller,
 *    function), from the outermost frame;
 *  - body samples: each context's ranges cut into disjoint pieces; every
 *    code-set instruction of a piece with a count adds the count to its
 *    context's total, and its leaf location (line offset, base
 *    discriminator) gets the MAX over its instructions of count times the
 *    duplication factor;
 *  - a branch to a function's entry adds a call target at its source's
 *    leaf location and head samples to the callee's profile under the
 *    caller's context (its call site as the source's location, its
 *    discriminator as encoded);
 *  - a profile with no head samples under a caller's context gets them
 *    estimated from its first body sample (1 when it has none), added to
 *    the caller's body sample, call targets and total at the call site
 *    (children first);
 *  - profiles of ambiguous names (__cxx_global_var_init*, __tls_init*)
 *    are dropped.
 *
 * No global state: a struct csp_profile owns everything it holds (its
 * names are the raw profile's, which must outlive it).
 */
#ifndef BLOCKRANGE_CLI_COLLECT_CSPROFILE_H
#define BLOCKRANGE_CLI_COLLECT_CSPROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "collect/sampleprof.h"
#include "collect/unwind.h"
#include "resolve/elfbin.h"

/* A node of the context trie: a function called at a call site. */
struct csp_node {
	const char *name;		/* interned */
	uint32_t line;			/* the call site in the parent */
	uint32_t disc;
	uint32_t parent;
	uint32_t child;			/* first child, or CSP_NONE */
	uint32_t sibling;
	bool leaf_inlined;		/* !Attributes: 1 */
	struct sp_func *f;		/* its profile, NULL: none */
};

#define CSP_NONE UINT32_MAX

struct csp_profile {
	struct csp_node *nodes;		/* nodes[0]: the root (no function) */
	size_t nr;
	size_t cap;
};

/*
 * Build @out from @cs (the raw profile of the DSO @bin) with the DWARF of
 * @dwarf_path; with @merge_cold_contexts, the contexts whose total is
 * below the profile summary's hot count (the smallest of the largest
 * body-sample counts, contexts merged per function, that make 99 % of
 * their sum) are merged into their function's context-free profile, as
 * llvm-profgen does by default without its pre-inliner.  0, or with a
 * message in @err: BR_EINPUT (no usable DWARF), BR_ENOMEM.
 */
int csp_build(struct csp_profile *out, const struct csprof *cs,
	      const struct eb_binary *bin, const char *dwarf_path,
	      bool merge_cold_contexts, char *err, size_t errsz);

/*
 * The nodes that have a profile, in the writers' order: total samples
 * descending, then context (frame by frame: name, line, discriminator;
 * a prefix first).  A new array (free() it); NULL: no memory.
 */
const struct csp_node **csp_sorted(const struct csp_profile *p, size_t *nr);

void csp_free(struct csp_profile *p);

#endif /* BLOCKRANGE_CLI_COLLECT_CSPROFILE_H */
