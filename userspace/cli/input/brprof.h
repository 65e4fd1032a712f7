/* SPDX-License-Identifier: GPL-2.0 */
/*
 * .brprof: a mergeable profile, what `blockrange profile` writes and
 * annotate, report, ranges and bolt read back: the aggregated counts of
 * every DSO (what the collector of collect/annot.h collects with all its
 * parts), which are sums, so that profiles of any inputs add up
 * (`blockrange merge`).  This is the format and its reader; the writer and
 * the merge are output/brprof_write.h's, and the reader's events feed the
 * collector like any other input's (input_read()).
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
 * not stored (the symbol containing the block's start).  Readers refuse,
 * with one line "NAME: offset N: expected ..., got ...", anything else: a
 * wrong magic, version or size, a checksum that does not match, counts
 * that do not fit the bytes left, keys out of order or repeated, a count
 * of 0, a mispredicted count above its count, an empty block or one that
 * starts at 0, an unknown flag, a duplicate DSO, sums that pass 2^64 - 1.
 * Nothing is allocated in proportion to a count before it is checked
 * against the size of the file.
 */
#ifndef BLOCKRANGE_CLI_INPUT_BRPROF_H
#define BLOCKRANGE_CLI_INPUT_BRPROF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "input/events.h"

#define BRPROF_MAGIC "\x7f" "BRPROF\n"
#define BRPROF_VERSION 1
#define BRPROF_HEADER 64
#define BRPROF_NR_STATS 19
#define BRPROF_PATH_MAX 4096

/* The sections of a DSO entry: the kinds of records of input/events.h. */
enum brprof_section {
	BRP_BLOCKS = EV_AGG_BLOCKS,
	BRP_IPS = EV_AGG_IPS,
	BRP_EDGES = EV_AGG_EDGES,
	BRP_RANGES = EV_AGG_RANGES,
	BRP_BRANCHES = EV_AGG_BRANCHES,
	BRP_BOLT_BR = EV_AGG_BOLT_BR,
	BRP_BOLT_FT = EV_AGG_BOLT_FT,
	BRP_NR_SECTIONS = EV_AGG_NR,
};

_Static_assert(BRPROF_NR_STATS == EV_PROFILE_NR_STATS, "the statistics");

/* u64 fields per record of each section, and how many form its key. */
extern const unsigned brprof_fields[BRP_NR_SECTIONS];
extern const unsigned brprof_keys[BRP_NR_SECTIONS];

/* One DSO of a parsed profile; its records point into the buffer. */
struct brprof_dso {
	const char *path;		/* not NUL-terminated */
	uint32_t path_len;
	uint8_t build_id[BR_BUILD_ID_MAX];
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
 * brprof_hash() of @n bytes of a read-only file mapping; @drop: its pages
 * leave the process behind the checksum (base/pages.h).
 */
uint64_t brprof_hash_mapped(const uint8_t *p, size_t n, bool drop);

/*
 * Check all of @buf (@len bytes, named @name in messages) and describe it
 * in @out; @drop: @buf is a file mapping whose pages may leave the process
 * once checked.  0, or with one line in @err BR_EINPUT (malformed) or
 * BR_ESYS (out of memory).  brprof_free() releases what @out holds (not
 * @buf).
 */
int brprof_parse(const uint8_t *buf, size_t len, const char *name,
		 struct brprof *out, bool drop, char *err, size_t errsz);
void brprof_free(struct brprof *p);

/* Order of two records of section @s by their keys; of two DSO entries by
 * their identity (kernel flag, build-id, else path). */
int brprof_key_cmp(const uint8_t *a, const uint8_t *b, enum brprof_section s);
int brprof_dso_cmp(const struct brprof_dso *a, const struct brprof_dso *b);

/* A .brprof file, mapped. */
struct brprof_file {
	const uint8_t *p;
	size_t len;
	bool mapped;
};

/*
 * Map @path ("-": standard input) or @fd, which must be a regular file
 * (named @name in messages): 0, or BR_ESYS with a message.  Unmap with
 * brprof_unmap().
 */
int brprof_map(const char *path, const char *name, struct brprof_file *m,
	       char *err, size_t errsz);
int brprof_map_fd(int fd, const char *name, struct brprof_file *m,
		  char *err, size_t errsz);
void brprof_unmap(struct brprof_file *m);

/*
 * Read the .brprof on @fd (a regular file, named @name in messages) and,
 * once all of it is checked, deliver it to @sink as events (input/events.h:
 * its statistics, then its DSOs in the file's order).  input_read() calls
 * it for a .brprof.  0, BR_EINPUT malformed, BR_ESYS I/O or memory, or a
 * callback's value, with a message.
 */
int brprof_read(int fd, const char *name, const struct ev_sink *sink,
		char *err, size_t errsz);

#endif /* BLOCKRANGE_CLI_INPUT_BRPROF_H */
