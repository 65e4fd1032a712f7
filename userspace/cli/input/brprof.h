/* SPDX-License-Identifier: GPL-2.0 */
/*
 * .brprof: a mergeable profile, what `blockrange profile` writes and
 * annotate, report, ranges and bolt read back: the aggregated counts of
 * every DSO (struct annot with all its parts), which are sums, so that
 * profiles of any inputs add up (`blockrange merge`).
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
 *         records, blocks, blocks counted, 12 skip reasons (session.h
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
 * not stored (the symbol containing the block's start).  Readers refuse,
 * with one line "NAME: offset N: expected ..., got ...", anything else: a
 * wrong magic, version or size, a checksum that does not match, counts
 * that do not fit the bytes left, keys out of order or repeated, a count
 * of 0, a mispredicted count above its count, an empty block or one that
 * starts at 0, an unknown flag, a duplicate DSO, sums that pass 2^64 - 1.
 * Nothing is allocated in proportion to a count before it is checked
 * against the size of the file.
 */
#ifndef BLOCKRANGE_CLI_BRPROF_H
#define BLOCKRANGE_CLI_BRPROF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "collect/annotate.h"

#define BRPROF_MAGIC "\x7f" "BRPROF\n"
#define BRPROF_VERSION 1
#define BRPROF_HEADER 64
#define BRPROF_NR_STATS 19
#define BRPROF_PATH_MAX 4096

enum brprof_section {
	BRP_BLOCKS,
	BRP_IPS,
	BRP_EDGES,
	BRP_RANGES,
	BRP_BRANCHES,
	BRP_BOLT_BR,
	BRP_BOLT_FT,
	BRP_NR_SECTIONS,
};

/* u64 fields per record of each section, and how many form its key. */
extern const unsigned brprof_fields[BRP_NR_SECTIONS];
extern const unsigned brprof_keys[BRP_NR_SECTIONS];

/* One DSO of a parsed profile; its records point into the buffer. */
struct brprof_dso {
	const char *path;		/* not NUL-terminated */
	uint32_t path_len;
	uint8_t build_id[20];
	uint8_t build_id_size;
	uint8_t flags;
	uint64_t text_base;
	uint64_t samples;
	uint64_t prof_samples;
	uint64_t nr[BRP_NR_SECTIONS];
	const uint8_t *sec[BRP_NR_SECTIONS];
	uint64_t offset;		/* of its entry, for messages */
};

#define BRPROF_DSO_KERNEL 1u
#define BRPROF_DSO_BLOCKS 2u
#define BRPROF_DSO_PROF 4u
#define BRPROF_DSO_BOLT 8u
#define BRPROF_MIXED 1u
#define BRPROF_EXACT 2u

/* A parsed and checked profile (struct brprof_dso's point into @buf). */
struct brprof {
	const uint8_t *buf;
	size_t len;
	uint32_t flags;
	uint64_t stats[BRPROF_NR_STATS];
	const char *event;		/* not NUL-terminated */
	uint32_t event_len;
	struct brprof_dso *dsos;
	uint32_t nr_dsos;
};

/* Does the input start with the .brprof magic? */
bool brprof_sniff(const uint8_t *head, size_t n);

/* The 64-bit checksum of the format (our own; not cryptographic). */
uint64_t brprof_hash(const void *p, size_t n);

/*
 * Check all of @buf (@len bytes, named @name in messages) and describe it
 * in @out.  0, -1 malformed (one line in err), -2 out of memory.
 * brprof_free() releases what @out holds (not @buf).
 */
int brprof_parse(const uint8_t *buf, size_t len, const char *name,
		 struct brprof *out, char *err, size_t errsz);
void brprof_free(struct brprof *p);

/*
 * Write what @a collected (all of ANNOT_BLOCKS, ANNOT_PROFGEN and
 * ANNOT_BOLT, before annot_finish()) as a .brprof to @path ("-": stdout).
 * 0, or -2 (I/O or memory) with a message.  *@bytes: the size written.
 */
int brprof_write(const struct annot *a, const char *path, size_t *bytes,
		 char *err, size_t errsz);

/*
 * Read the .brprof @path into @a (initialised with the parts the caller
 * prints; only the DSOs session_wants(), --binary mapping its basename):
 * its DSOs are made in the file's order and loaded.  0, -1 malformed, -2
 * I/O or memory, with a message.
 */
int brprof_load(const char *path, struct annot *a, char *err, size_t errsz);

/*
 * Add the profiles @in[0..n) into one, written to @out ("-": stdout).
 * Commutative and associative: the output depends only on the multiset
 * of inputs, byte for byte.  0, -1 (a malformed input, or sums past
 * 2^64 - 1), -2 (I/O, memory) with a message.  *@bytes: the size written.
 */
int brprof_merge(const char *const *in, size_t n, const char *out,
		 size_t *bytes, char *err, size_t errsz);

#endif /* BLOCKRANGE_CLI_BRPROF_H */
