/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The reader of a QEMU recording directory: the files the recorder's TCG
 * plugin (userspace/qemu-plugin/) writes while a program runs under
 * `blockrange record`, in the wire format of format/qrec_wire.h.
 *
 * qrec_read() maps every PID.N.SEQ.qrec and PID.N.SEQ.qtab file of the
 * directory (other names are not the recording's) and checks all of them
 * before it describes any: a records file's header page (magic, version,
 * size, the pid and image number of its name, the mode expected), every
 * record up to the first of type 0 (a size that is a multiple of 8 inside
 * the file, a known type, a payload that holds its struct, a path, the
 * branches of a sample and the traces of a TRACES record inside the
 * record, a sample's call stack inside it (version 2; none in version
 * 1), a mapping with an id of 1..2^24 and a range, an id described
 * once per image or restated with the same range, one end record per
 * image), a table's header (magic, slots inside the file), and that every
 * table belongs to an image with records.  The result is a struct
 * qrec_recording: the files, the process images in the order they began
 * (each with its mappings by id and how it ended), and the totals of the
 * threads' headers.  Nothing is allocated in proportion to a field before
 * it is checked against the size of the file.
 *
 * What the checks leave to the caller: whether the traces name mappings
 * the image described (qrec_mapping_of() says), whether an empty
 * directory (no file of the recording) is an error, and what the
 * mappings' files hold (paths on the host the program ran on).
 *
 * The reader never prints.  Errors: BR_EINPUT with one line "DIR/NAME:
 * offset N: expected ..." (or "DIR: a table of process P without its
 * records"); BR_ESYS with "PATH: strerror" when the directory or a file
 * cannot be opened or mapped, or "out of memory".
 */
#ifndef BLOCKRANGE_CLI_INPUT_QREC_H
#define BLOCKRANGE_CLI_INPUT_QREC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/pairmap.h"
#include "format/qrec_wire.h"

/* A mapping of an image, as its first MAP record described it. */
struct qrec_mapping {
	struct qrec_map m;
	char *path;		/* NUL-terminated; "//anon" for anonymous code */
};

/* A process image: the program, a forked child, or an exec'ed program. */
struct qrec_image {
	int32_t pid;
	int32_t ppid;
	uint32_t image;		/* N of its files */
	uint32_t flags;		/* QREC_H_* */
	uint64_t t0;		/* when it began (its first thread's header) */
	struct qrec_mapping *maps;	/* in the order they were read */
	size_t nr_maps;
	size_t cap_maps;
	struct pairmap index;	/* mapping id -> its index in @maps + 1 */
	bool ended;		/* its QREC_END was read */
	uint32_t how;		/* QREC_END_* */
	int64_t status;
};

/* A file of the recording: a thread's records, or its trace table. */
struct qrec_file {
	char *name;		/* DIR/NAME, for messages */
	const uint8_t *buf;	/* mapped read-only; NULL if empty */
	size_t len;
	bool table;		/* a .qtab */
	int32_t pid;		/* of its name */
	uint32_t image;
	uint32_t seq;
	size_t img;		/* index of its image in the recording */
	struct qrec_header h;	/* records files */
	size_t end;		/* where its records end */
	bool running;		/* its thread never finished (killed) */
};

/* A checked recording.  Zero-initialise; qrec_recording_free() frees. */
struct qrec_recording {
	/* records files first, then tables; each by pid, image, seq, name */
	struct qrec_file *files;
	size_t nr_files;
	struct qrec_image *images;	/* in the order they began */
	size_t nr_images;
	uint64_t t0;		/* when the first image began */
	struct qrec_counts counts;	/* the threads' headers, summed */
	uint64_t maps;		/* mappings described */
	uint64_t decode_misses;	/* the end records', summed */
	uint64_t threads;	/* distinct (pid, tid) of the records files */
	uint64_t processes;	/* distinct pids of them */
};

struct qrec_read_opts {
	uint32_t mode;		/* enum qrec_mode every records file has */
	uint32_t max_branches;	/* a sample's branches at the most */
};

/*
 * Read and check the recording directory @dir into @rec (which the reader
 * zeroes first).  0, also for a directory without a file of the recording
 * (nr_files 0); else a negative BR_E* with a message in @err, and @rec
 * freed.
 */
int qrec_read(struct qrec_recording *rec, const char *dir,
	      const struct qrec_read_opts *o, char *err, size_t errsz);

/* Unmap and free everything of @rec; a zeroed @rec is a no-op. */
void qrec_recording_free(struct qrec_recording *rec);

/* The mapping @id of @im, or NULL if no record described it. */
const struct qrec_mapping *qrec_mapping_of(const struct qrec_image *im,
					   uint32_t id);

/* A record of the recording, placed in the order of the output. */
struct qrec_ref {
	uint64_t time;
	uint32_t file;		/* index in rec->files */
	uint32_t type;		/* enum qrec_type */
	size_t off;		/* of the record's payload in its file */
};

/*
 * Every MAP, COMM, FORK, EXIT and SAMPLE record of every records file, in
 * the order of their times (ties: file order, then offset), into a new
 * array *@refs of *@nr (free() it; NULL when there is none).  0, or
 * BR_ESYS out of memory.
 */
int qrec_order(const struct qrec_recording *rec, struct qrec_ref **refs,
	       size_t *nr, char *err, size_t errsz);

/* A record of qrec_order(), decoded. */
struct qrec_item {
	uint32_t type;		/* QREC_MAP, _COMM, _FORK, _EXIT, _SAMPLE */
	size_t img;		/* the image of its file */
	union {
		struct qrec_map map;	/* the mapping: qrec_mapping_of() */
		struct qrec_comm comm;
		struct qrec_task task;	/* FORK and EXIT */
		struct qrec_sample sample;
	} u;
	const uint8_t *branches;	/* SAMPLE: u.sample.nr, unaligned */
	/* SAMPLE: QREC_STACK_FRAMES(u.sample.stack) return addresses */
	const uint8_t *frames;
};

void qrec_item_at(const struct qrec_recording *rec,
		  const struct qrec_ref *ref, struct qrec_item *it);

/* Branch @i (< u.sample.nr, newest first) of the sample @it. */
void qrec_item_branch(const struct qrec_item *it, uint32_t i,
		      struct qrec_branch *b);

/* Return address @i (innermost first) of the sample @it's call stack. */
uint64_t qrec_item_frame(const struct qrec_item *it, uint32_t i);

/* A growing array of traces; zero-initialise, free() @v. */
struct qrec_tracev {
	struct qrec_trace *v;
	size_t n;
	size_t cap;
};

/*
 * Every trace of image @img into @t (emptied first): its files' TRACES
 * records, then the counted slots of its valid tables, in file order.
 * 0, or BR_ESYS out of memory.
 */
int qrec_image_traces(const struct qrec_recording *rec, size_t img,
		      struct qrec_tracev *t, char *err, size_t errsz);

/*
 * The first process killed before its image ended (a thread that never
 * finished, in an image without its end record), or -1.
 */
int32_t qrec_cut_pid(const struct qrec_recording *rec);

#endif /* BLOCKRANGE_CLI_INPUT_QREC_H */
