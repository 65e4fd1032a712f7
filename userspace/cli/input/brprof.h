/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The reader of .brprof, the mergeable profile (format/brprof.h is the
 * format): it checks a whole file before it describes it, and delivers it
 * to a sink as the events of input/events.h, each section as the records
 * of the event kind of the same name (EV_AGG_*).
 *
 * It refuses, with one line "NAME: offset N: expected ..., got ...",
 * anything else: a wrong magic, version or size, a checksum that does not
 * match, counts that do not fit the bytes left, keys out of order or
 * repeated, a count of 0, a mispredicted count above its count, an empty
 * block or one that starts at 0, an unknown flag, a duplicate DSO, sums
 * that pass 2^64 - 1.
 * Nothing is allocated in proportion to a count before it is checked
 * against the size of the file.
 */
#ifndef BLOCKRANGE_CLI_INPUT_BRPROF_H
#define BLOCKRANGE_CLI_INPUT_BRPROF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "format/brprof.h"
#include "input/events.h"

/* A section holds the records of the event kind of the same name. */
_Static_assert((int)BRP_BLOCKS == (int)EV_AGG_BLOCKS &&
	       (int)BRP_IPS == (int)EV_AGG_IPS &&
	       (int)BRP_EDGES == (int)EV_AGG_EDGES &&
	       (int)BRP_RANGES == (int)EV_AGG_RANGES &&
	       (int)BRP_BRANCHES == (int)EV_AGG_BRANCHES &&
	       (int)BRP_BOLT_BR == (int)EV_AGG_BOLT_BR &&
	       (int)BRP_BOLT_FT == (int)EV_AGG_BOLT_FT &&
	       (int)BRP_NR_SECTIONS == (int)EV_AGG_NR, "the sections");
_Static_assert(BRPROF_BUILD_ID_SIZE == BR_BUILD_ID_MAX, "the build-id");
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
