/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf.data reader: file mode and pipe mode, both byte orders, every writer
 * from perf 3.x to 6.x, PERF_RECORD_COMPRESSED (zstd).  Delivers the
 * records as events (events.h).  See docs/cli-reference.md,
 * "perf.data input".
 *
 * Layers (so that a later change can decode disjoint record ranges in
 * parallel):
 *
 *   struct pd_decoder  what the header and the attr records taught: byte
 *                      order, the attrs (events), the id -> attr map.
 *                      pd_decode_*() only read it.
 *   pd_decode_record() one record, decoded in place (no allocation) into
 *                      struct pd_record; the branch entries go to a buffer
 *                      the caller owns.
 *   struct pd_reader   the cursor (mapped file or pipe stream), the
 *                      decompressor, the ordering queue and the statistics;
 *                      pd_read() runs it to the end.
 *
 * Order: perf's.  When perf would sort (file mode: the first attr has
 * sample_id_all; pipe mode: always), records that carry a timestamp
 * (samples with PERF_SAMPLE_TIME, other kernel records through
 * sample_id_all) are queued and, at each PERF_RECORD_FINISHED_ROUND, those
 * not later than the highest timestamp seen at the previous
 * FINISHED_ROUND are delivered in timestamp order (ties in file order);
 * the rest at the end.  Records without a timestamp (or with 0 or ~0) are
 * delivered at once.  Otherwise: file order.  The queue holds at most two
 * rounds (plus PD_QUEUE_MAX bytes: beyond that the oldest half is
 * delivered early and counted in pd_stats.queue_overflows).
 *
 * PERF_SAMPLE_READ samples are delivered as perf does: one sample per read
 * value (each group member), for the attr of that value's id, with the
 * difference to that id's previous value as period; values whose id is
 * unknown are dropped (pd_stats.unknown_id).
 *
 * Errors: one line, "NAME: offset N: expected ..., got ..." (N: file offset
 * of the record or field; in pipe mode, the stream offset; inside a
 * compressed record, "offset N+M": M bytes into its decompressed data).
 * pd_read() returns BR_EINPUT for malformed input, BR_ESYS for I/O or
 * memory errors, or the non-zero value a sink callback returned
 * (base/status.h).  Nothing is allocated in
 * proportion to a count the input claims before the bytes are there.
 */
#ifndef BLOCKRANGE_CLI_PERFDATA_H
#define BLOCKRANGE_CLI_PERFDATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "input/events.h"

#define PD_ERR_MAX 512
/* Most entries a branch stack can hold in a record of 64 KiB. */
#define PD_MAX_BRANCHES 2730
/* Most frames a call chain can hold in a record of 64 KiB. */
#define PD_MAX_CALLCHAIN 8189
/*
 * Room for what the events of one sample record point to: its branch
 * entries and its call chain (a record is at most 64 KiB).
 */
struct pd_sample_room {
	struct ev_branch br[PD_MAX_BRANCHES];
	uint64_t callchain[PD_MAX_CALLCHAIN];
};
/* Longest event name kept (longer ones are cut). */
#define PD_NAME_MAX 256
/* Decompressed bytes one PERF_RECORD_COMPRESSED may yield at most. */
#define PD_DECOMP_MAX (64u << 20)
/* Bytes the ordering queue holds before it delivers early. */
#define PD_QUEUE_MAX ((size_t)512 << 20)
/* Most attrs (events) and ids accepted. */
#define PD_MAX_ATTRS 4096
#define PD_MAX_IDS (1u << 20)

/* One event of the file (struct perf_event_attr, the fields we use). */
struct pd_attr {
	uint32_t type;
	uint32_t size;			/* attr.size as written (0: VER0) */
	uint64_t config;
	uint64_t sample_period;		/* or sample_freq (a union) */
	uint64_t sample_type;
	uint64_t read_format;
	uint64_t branch_sample_type;	/* 0 before PERF_ATTR_SIZE_VER2 */
	uint64_t sample_regs_user;
	uint64_t sample_regs_intr;
	uint32_t bp_type;		/* breakpoints: HW_BREAKPOINT_R|W|X */
	uint64_t bp_addr;
	bool sample_id_all;
	bool exclude_user, exclude_kernel, exclude_hv;
	bool exclude_host, exclude_guest;
	uint8_t precise_ip;
	char name[PD_NAME_MAX];		/* from the file, else derived */
	bool named;			/* the file named it */
	/* derived */
	unsigned id_hdr_size;		/* bytes of struct sample_id */
};

/* Decoder state.  Zero-initialise, then pd_decoder_free(). */
struct pd_decoder {
	bool swap;			/* the writer's byte order is not ours */
	bool pipe;
	struct pd_attr *attrs;
	size_t nr_attrs;
	struct pd_id { uint64_t id; uint32_t attr; } *ids;	/* sorted */
	size_t nr_ids;
	size_t cap_attrs, cap_ids;
	int id_pos;	/* u64 index of the id in samples; -1: none */
	int is_pos;	/* u64 index from the end in sample_id; -1: none */
	uint64_t comp_mmap_len;		/* HEADER_COMPRESSED mmap_len */
};

void pd_decoder_free(struct pd_decoder *d);

/*
 * Add an attr (bytes of a perf_event_attr of @len bytes, as stored) with
 * its ids.  BR_EINPUT (err: "expected ..., got ...", no prefix) if
 * malformed, BR_ESYS out of memory.
 */
int pd_decoder_add_attr(struct pd_decoder *d, const uint8_t *attr,
			size_t len, const uint8_t *ids, size_t nr_ids,
			char *err, size_t errsz);

/* The attr of id @id, or -1. */
int pd_decoder_find_id(const struct pd_decoder *d, uint64_t id);

/* perf's name of an attr without one in the file ("cycles:u"). */
void pd_attr_name(const struct pd_attr *a, char *buf, size_t bufsz);

enum pd_kind {
	PD_REC_SKIP = 0,	/* a record the sink has no event for */
	PD_REC_SAMPLE,
	PD_REC_MMAP,
	PD_REC_COMM,
	PD_REC_TASK,
	PD_REC_LOST,
};

/* A decoded record.  Pointers point into the record or the decoder. */
struct pd_record {
	enum pd_kind kind;
	uint32_t type;		/* PERF_RECORD_* */
	int attr;		/* index, -1 when unknown */
	bool has_time;
	uint64_t time;
	struct ev_sample sample;
	struct ev_mmap mmap;
	struct ev_comm comm;
	struct ev_task task;
	struct ev_lost lost;
	/* PERF_SAMPLE_READ: the values, to be delivered one by one */
	const uint8_t *read;
	uint64_t nr_read;
	bool read_group;
	bool unknown_id;	/* sample of an id no attr has */
};

/*
 * Decode one kernel record (type < 64) of @size bytes at @rec (file offset
 * @off for messages, already in the error prefix's terms).  A sample's
 * entries and call chain go into @room (NULL: check only).  0, or BR_EINPUT with
 * "expected ..., got ..." in err (no prefix).
 */
int pd_decode_record(const struct pd_decoder *d, const uint8_t *rec,
		     size_t size, struct pd_sample_room *room,
		     struct pd_record *out, char *err, size_t errsz);

/*
 * A sample record passed to ev_sink.sample_raw, decoded into @out as the
 * reader would have delivered it (@off and @name make its ev_pos; @room
 * receives its entries and call chain).  0, or BR_EINPUT with
 * "expected ..." in err if it is not a sample (never for what the reader
 * passed).
 */
int pd_decode_sample(const struct pd_decoder *d, const uint8_t *rec,
		     size_t size, uint64_t off, const char *name,
		     struct pd_sample_room *room, struct ev_sample *out,
		     char *err, size_t errsz);

struct pd_stats {
	bool pipe;
	bool swapped;
	bool ordered;			/* sorted by time (see above) */
	uint64_t bytes;			/* input bytes read */
	uint64_t records;		/* records in the data, all kinds */
	uint64_t by_type[128];		/* records per PERF_RECORD_* type;
					 * [0]: type 0 and types >= 128 */
	uint64_t samples;		/* delivered */
	uint64_t samples_brstack;	/* of those, with a branch stack */
	uint64_t branch_entries;
	uint64_t mmaps, comms, forks, exits;
	uint64_t lost_records, lost_events;
	uint64_t lost_samples;		/* LOST_SAMPLES total */
	uint64_t unknown_records;	/* skipped: a type we do not know */
	uint64_t unknown_id;		/* samples/values of an unknown id */
	uint64_t compressed;		/* PERF_RECORD_COMPRESSED records */
	uint64_t decompressed_bytes;
	uint64_t rounds;		/* FINISHED_ROUND */
	uint64_t out_of_order;		/* queued below the last flush */
	uint64_t queue_overflows;
	uint64_t attrs;
	uint64_t build_ids;
	uint64_t max_queued;		/* most records queued at once */
};

struct pd_opts {
	size_t queue_max;	/* 0: PD_QUEUE_MAX */
	size_t decomp_max;	/* 0: PD_DECOMP_MAX */
};

/*
 * Read a perf.data stream from @fd (named @name in messages).  @prefix:
 * @prefix_len bytes already read from @fd (by format sniffing), which
 * come first.  A regular file is mapped and read in file mode (@prefix is
 * then ignored: the file is read from offset 0); anything else streams,
 * and a file-mode stream that is not seekable is spooled to an unlinked
 * temporary file ($TMPDIR, else /tmp) first.  Events go to @sink (may be
 * NULL); @stats (may be NULL) is filled as far as the read got.
 */
int pd_read(int fd, const char *name, const uint8_t *prefix,
	    size_t prefix_len, const struct pd_opts *opts,
	    const struct ev_sink *sink, struct pd_stats *stats, char *err,
	    size_t errsz);

/*
 * The same on a buffer already in memory (file or pipe mode, told by the
 * header), e.g. for the fuzzer.
 */
int pd_read_mem(const uint8_t *data, size_t len, const char *name,
		const struct pd_opts *opts, const struct ev_sink *sink,
		struct pd_stats *stats, char *err, size_t errsz);

/* perf's name of a PERF_BR_* type (and PERF_BR_NEW_* when EXTEND_ABI). */
const char *pd_branch_type_name(uint8_t type, uint8_t new_type);

#endif /* BLOCKRANGE_CLI_PERFDATA_H */
