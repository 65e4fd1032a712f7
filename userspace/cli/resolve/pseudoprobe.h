/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Pseudo probes: what clang's -fpseudo-probe-for-profiling leaves in a
 * binary so that a sample profile can name blocks and calls of the source
 * (a function's GUID and a probe index) instead of lines.  Two sections:
 *
 *   .pseudo_probe_desc  per function: GUID (u64), CFG checksum (u64),
 *                       name length (ULEB128), the name
 *   .pseudo_probe       per function emitted, a body, depth first:
 *                         GUID (u64), number of probes (ULEB128), number of
 *                         functions inlined into it (ULEB128),
 *                         the probes: index (ULEB128), a byte (bits 0-3 the
 *                         type: 0 block, 1 indirect call, 2 direct call;
 *                         bits 4-6 attributes: 2 sentinel, 4 has a
 *                         discriminator; bit 7: the address is a delta),
 *                         the address (SLEB128 delta from the previous
 *                         probe's, else a u64), the discriminator
 *                         (ULEB128) if it has one,
 *                         then per inlined function: the index of the call
 *                         probe it was inlined at (ULEB128) and its body.
 *
 * The first delta of each outermost body counts from the start of its
 * function, found by GUID among the binary's symbols (the GUID of a name
 * is the first 8 bytes of its MD5, little-endian: base/md5.h); a sentinel
 * probe, which is no probe, moves the base to the start of the function
 * whose GUID it carries (the part of a function split off elsewhere).  The
 * probes of a function whose start is not found cannot be placed and are
 * only counted.  Learned from LLVM's documentation of the encoding
 * (MCPseudoProbe.h) and checked against llvm-profgen-19's
 * --show-pseudo-probe.
 */
#ifndef BLOCKRANGE_CLI_RESOLVE_PSEUDOPROBE_H
#define BLOCKRANGE_CLI_RESOLVE_PSEUDOPROBE_H

#include <stddef.h>
#include <stdint.h>

struct eb_binary;

enum pp_type {
	PP_BLOCK = 0,
	PP_INDIRECT_CALL = 1,
	PP_DIRECT_CALL = 2,
};

#define PP_ATTR_SENTINEL 2u
#define PP_ATTR_DISCRIMINATOR 4u

/* No parent: an outermost function. */
#define PP_NO_NODE UINT32_MAX

/* A function of .pseudo_probe_desc; @name points into the binary. */
struct pp_desc {
	uint64_t guid;
	uint64_t hash;
	const char *name;
	uint32_t name_len;
};

/*
 * A function body of .pseudo_probe: an outermost function, or one inlined
 * into @parent at its call probe @site.
 */
struct pp_node {
	uint64_t guid;
	uint32_t parent;
	uint32_t site;
};

struct pp_probe {
	uint64_t addr;
	uint32_t node;		/* the body it belongs to */
	uint32_t index;
	uint32_t discriminator;	/* 0 without one */
	uint8_t type;		/* enum pp_type */
	uint8_t attr;
	uint32_t seq;		/* its place in the section */
};

/*
 * The probes of a binary: @descs by GUID, @probes by address (probes at
 * one address in the order of the section).  @unplaced counts the probes
 * whose function start was not found.
 */
struct pp_table {
	struct pp_desc *descs;
	size_t nr_descs;
	struct pp_node *nodes;
	size_t nr_nodes;
	struct pp_probe *probes;
	size_t nr_probes;
	uint64_t unplaced;
};

/*
 * Decode the probe sections of @b (its whole file, b->image) into @t.  A
 * binary without them gives an empty table.  0, or with a message ("PATH:
 * .pseudo_probe offset N: expected ..., got ...") BR_EINPUT for malformed
 * sections and BR_ESYS out of memory.  pp_free() releases @t either way.
 */
int pp_read(const struct eb_binary *b, struct pp_table *t, char *err,
	    size_t errsz);
void pp_free(struct pp_table *t);

/* The probes at @addr: how many, the first in *@first. */
size_t pp_at(const struct pp_table *t, uint64_t addr,
	     const struct pp_probe **first);

/* The function named by GUID @guid in .pseudo_probe_desc, or NULL. */
const struct pp_desc *pp_desc_of(const struct pp_table *t, uint64_t guid);

#endif /* BLOCKRANGE_CLI_RESOLVE_PSEUDOPROBE_H */
