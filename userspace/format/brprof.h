/* SPDX-License-Identifier: GPL-2.0 */
/*
 * .brprof: a mergeable profile, what `blockrange profile` writes and
 * annotate, report, ranges and bolt read back: the aggregated counts of
 * every DSO (what the collector of collect/annot.h collects with all its
 * parts), which are sums, so that profiles of any inputs add up
 * (`blockrange merge`).  This header is the format; the reader is
 * input/brprof.h's, the writer and the merge output/brprof_write.h's.
 *
 * Format, version 1, every integer little-endian, every part 8-byte
 * aligned:
 *
 *   header (64 bytes)
 *     0  magic "\x7f" "BRPROF\n"
 *     8  u32 version (1)          12 u32 header size (64)
 *    16  u64 body size (file size - 64)
 *    24  u64 body checksum (brprof_hash() of the body)
 *    32  u32 number of DSOs       36 u32 flags (1: samples of several events,
 *                                       2: exact, every taken branch and
 *                                       straight line of a recording counted
 *                                       (record --exact), no sampling)
 *    40  u64 0, u64 0             56 u64 header checksum (of bytes 0..55)
 *   body
 *     u32 number of statistics (19), u32 length of the event name
 *     u64 statistics: samples, samples with a branch stack, branch
 *         records, blocks, blocks counted, 12 skip reasons (resolver.h
 *         order), sample IPs in the kernel, samples counted by annotate
 *     the event name (no NUL), zero-padded to 8
 *     per DSO:
 *       u32 path length, u8 build-id size (0..20), u8 flags (1 kernel,
 *       2 has blocks, 4 has an llvm-profgen profile, 8 has a BOLT
 *       profile), u16 0, u8 build-id[20], u32 0
 *       u64 text base (llvm-profgen's, first executable PT_LOAD page)
 *       u64 sample IPs in it, u64 samples that touched its code (profgen)
 *       u64 number of records of the 7 sections below
 *       the path (no NUL), zero-padded to 8
 *       the sections, each sorted by its key, keys unique:
 *         blocks     {start, end, prediction (0 -, 1 P, 2 M), count}
 *         IPs        {address, count}
 *         branches   {from, to, count, mispredicted}       (annotate)
 *         ranges     {start, end, count}                    (llvm-profgen)
 *         branches   {from, to, count}                      (llvm-profgen)
 *         BOLT       {from, to, count, mispredicted}
 *         BOLT traces {start, end, entered inside, entered elsewhere}
 *       keys are the first two (blocks: three) fields; addresses are ELF
 *       addresses of the DSO (llvm-profgen's external address 1, BOLT's 0)
 *
 * DSOs are identified by build-id (or by path when the profile recorded
 * none) and the kernel flag.  `profile` writes them in the order the input
 * named them, merge in the order of that identity; owners of blocks are
 * not stored (the symbol containing the block's start).
 */
#ifndef BLOCKRANGE_FORMAT_BRPROF_H
#define BLOCKRANGE_FORMAT_BRPROF_H

#define BRPROF_MAGIC "\x7f" "BRPROF\n"
#define BRPROF_VERSION 1
#define BRPROF_HEADER 64
#define BRPROF_NR_STATS 19
#define BRPROF_PATH_MAX 4096
#define BRPROF_BUILD_ID_SIZE 20

/* The sections of a DSO entry, in the order they follow its path. */
enum brprof_section {
	BRP_BLOCKS = 0,
	BRP_IPS = 1,
	BRP_EDGES = 2,
	BRP_RANGES = 3,
	BRP_BRANCHES = 4,
	BRP_BOLT_BR = 5,
	BRP_BOLT_FT = 6,
	BRP_NR_SECTIONS = 7,
};

/* The flags of a DSO entry. */
#define BRPROF_DSO_KERNEL 1u
#define BRPROF_DSO_BLOCKS 2u
#define BRPROF_DSO_PROF 4u
#define BRPROF_DSO_BOLT 8u
/* The flags of the header. */
#define BRPROF_MIXED 1u
#define BRPROF_EXACT 2u

#endif /* BLOCKRANGE_FORMAT_BRPROF_H */
