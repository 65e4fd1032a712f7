/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The profile as a stream of events, whatever it was read from (perf.data
 * in file or pipe mode, the text of `perf script`, a .brprof).
 *
 *   input reader --(struct ev_sink callbacks)--> consumers
 *
 * A reader decodes its input and calls the sink's callbacks in the order
 * perf itself would process the events (for perf.data: by timestamp within
 * perf's rounds, see perfdata.h).  Everything an event points to (strings,
 * branch entries) belongs to the reader and is valid only during the
 * callback: a consumer copies what it keeps.
 *
 * Addresses are runtime addresses as recorded.  Mapping them to a DSO and
 * an ELF address is the consumer's business (dso.h).
 *
 * Every callback may be NULL (the event is ignored).  A callback returns 0
 * to go on; any other value stops the read, which then returns that value
 * (the callback has written its message into the err buffer it was given,
 * already prefixed with the input position, see ev_pos).
 */
#ifndef BLOCKRANGE_CLI_EVENTS_H
#define BLOCKRANGE_CLI_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buildid.h"

/* Where an event came from, for messages: "NAME:LINE" or "NAME: offset N". */
struct ev_pos {
	const char *name;	/* input name ("<stdin>" for -) */
	uint64_t line;		/* text input: line number (1-based), else 0 */
	uint64_t offset;	/* perf.data: file offset of the record */
};

/* perf's cpumode (PERF_RECORD_MISC_CPUMODE_MASK of the record header). */
enum ev_cpumode {
	EV_CPU_UNKNOWN = 0,
	EV_CPU_KERNEL,
	EV_CPU_USER,
	EV_CPU_HYPERVISOR,
	EV_CPU_GUEST_KERNEL,
	EV_CPU_GUEST_USER,
};

/*
 * One branch-stack entry (struct perf_branch_entry).  The extended fields
 * are 0 when the input has none (perf-script text of older generations,
 * perf.data of writers that predate them).
 */
struct ev_branch {
	uint64_t from;
	uint64_t to;
	uint16_t cycles;
	uint8_t type;		/* PERF_BR_* (0: unknown) */
	uint8_t new_type;	/* PERF_BR_NEW_* when type is PERF_BR_EXTEND_ABI */
	uint8_t spec;		/* PERF_BR_SPEC_* */
	uint8_t priv;		/* PERF_BR_PRIV_* */
	bool predicted;		/* 'P' */
	bool mispredicted;	/* 'M' */
	bool in_tx;		/* 'X' */
	bool abort;		/* 'A' */
	bool not_taken;		/* perf-script "PN"/"MN"/"-N" */
};

/*
 * One sample.  @nr entries, newest first (br[0] is the most recent branch).
 * @has_brstack: the sample carries a branch stack (PERF_SAMPLE_BRANCH_STACK,
 * or an LBR line of perf-script text), possibly with 0 entries.
 */
struct ev_sample {
	int32_t pid;		/* -1: unknown */
	int32_t tid;		/* -1: unknown */
	enum ev_cpumode cpumode;
	bool has_ip;
	uint64_t ip;
	bool has_time;
	uint64_t time;
	uint32_t cpu;		/* UINT32_MAX: unknown */
	uint64_t period;	/* perf.data: PERF_SAMPLE_PERIOD, else the
				 * attr's sample_period as perf reports it;
				 * text input: 1 */
	const char *event;	/* event name, "" when unknown */
	unsigned event_idx;	/* index of the event (attr) in the input */
	uint64_t repeat;	/* aggregation count of perf-script text, else 1 */
	uint64_t repeat_line;	/* line of that count line, 0: none */
	bool has_brstack;
	bool has_hw_idx;
	uint64_t hw_idx;	/* PERF_SAMPLE_BRANCH_HW_INDEX */
	const struct ev_branch *br;
	size_t nr;
	/*
	 * An exact recording's straight line, counted @repeat times, rather
	 * than an LBR stack: @nr is 2, br[1] is the taken branch that entered
	 * it (from 0: it was entered by none) and br[0].from its last
	 * instruction.  br[0] is no branch, nor br[1] with a source of 0:
	 * only the line and its entering branch count.
	 */
	bool exact_range;
	/*
	 * perf.data's PERF_SAMPLE_CALLCHAIN: @nr_chain addresses at @chain,
	 * as the kernel (or record -g) wrote them, context markers
	 * (PERF_CONTEXT_USER, ...) included: in the record, unaligned and in
	 * the file's byte order (@chain_swap), read by ev_sample_chain().
	 * None (0) in other inputs.
	 */
	const uint8_t *chain;
	size_t nr_chain;
	bool chain_swap;
	struct ev_pos pos;
};

/* Address @i (< @s->nr_chain) of the call chain of @s. */
static inline uint64_t ev_sample_chain(const struct ev_sample *s, size_t i)
{
	uint64_t v;

	__builtin_memcpy(&v, s->chain + 8 * i, sizeof(v));
	return s->chain_swap ? __builtin_bswap64(v) : v;
}

/*
 * PERF_RECORD_MMAP / MMAP2 (or the text of a perf-script mmap line).
 * @exec: the mapping is executable (MMAP2 prot has PROT_EXEC; MMAP without
 * PERF_RECORD_MISC_MMAP_DATA; a text line whose protection has 'x').
 */
struct ev_mmap {
	int32_t pid;		/* -1: every process (kernel maps) or unknown */
	int32_t tid;
	enum ev_cpumode cpumode;
	uint64_t start;
	uint64_t len;
	uint64_t pgoff;
	const char *path;
	bool exec;
	bool has_prot;		/* MMAP2 (or text) carried prot/flags */
	uint32_t prot;
	uint32_t flags;
	bool has_dev;		/* MMAP2 device/inode form */
	uint32_t maj;
	uint32_t min;
	uint64_t ino;
	uint64_t ino_generation;
	uint8_t build_id_size;	/* MMAP2 build-id form; 0: none */
	uint8_t build_id[BR_BUILD_ID_MAX];
	bool has_time;
	uint64_t time;
	struct ev_pos pos;
};

/* PERF_RECORD_COMM; @exec: PERF_RECORD_MISC_COMM_EXEC (the task exec'ed). */
struct ev_comm {
	int32_t pid;
	int32_t tid;
	const char *comm;
	bool exec;
	struct ev_pos pos;
};

/* PERF_RECORD_FORK (@exit false) and PERF_RECORD_EXIT (@exit true). */
struct ev_task {
	int32_t pid;
	int32_t ppid;
	int32_t tid;
	int32_t ptid;
	uint64_t time;
	bool exit;
	struct ev_pos pos;
};

/*
 * A build-id of a file, from the HEADER_BUILD_ID feature section (file
 * mode) or a PERF_RECORD_HEADER_BUILD_ID record (pipe mode).  Readers
 * deliver the build-id table before the first sample that could need it
 * (file mode: before any record).
 */
struct ev_build_id {
	int32_t pid;		/* -1 for the kernel / any */
	enum ev_cpumode cpumode;
	uint8_t size;
	uint8_t id[BR_BUILD_ID_MAX];
	const char *path;
	struct ev_pos pos;
};

/* PERF_RECORD_LOST / LOST_SAMPLES: events the kernel could not record. */
struct ev_lost {
	uint64_t lost;
	bool samples;		/* LOST_SAMPLES (else LOST) */
	struct ev_pos pos;
};

/*
 * An event (perf_event_attr) of the input, delivered before the first
 * sample of it (perf.data: before the first record after the attrs and
 * their names; text input: never).  Delivered again with the same @idx
 * when a later record renames it (pipe mode's EVENT_UPDATE).
 */
struct ev_attr {
	unsigned idx;		/* ev_sample.event_idx of its samples */
	const char *name;	/* as perf names it ("cycles:u") */
	uint32_t type;		/* PERF_TYPE_* */
	uint64_t config;
	uint64_t sample_type;	/* PERF_SAMPLE_* */
	uint64_t branch_sample_type;
	uint64_t read_format;
	struct ev_pos pos;
};

/*
 * A .brprof profile (input/brprof.h) holds counts that were aggregated
 * from samples, and arrives as such: first its statistics (struct
 * ev_profile), then each of its DSOs with its records (struct
 * ev_profile_dso).  No sample, mmap or task event comes with it.
 *
 * The records of a DSO come in runs of one kind each, sorted by their key
 * (the first fields; blocks: the first three), keys unique; a record is
 * the little-endian u64 fields listed below (ev_u64le() reads one).
 * Addresses are ELF addresses of the DSO.
 */
enum ev_agg_kind {
	EV_AGG_BLOCKS,		/* {start, end, prediction (0 -, 1 P, 2 M),
				 *  count} */
	EV_AGG_IPS,		/* {address, count}: sample IPs */
	EV_AGG_EDGES,		/* {from, to, count, mispredicted}: taken
				 * branches of annotate */
	EV_AGG_RANGES,		/* {start, end, count}: llvm-profgen's */
	EV_AGG_BRANCHES,	/* {from, to, count}: llvm-profgen's */
	EV_AGG_BOLT_BR,		/* {from, to, count, mispredicted}: BOLT's */
	EV_AGG_BOLT_FT,		/* {start, end, entered inside, entered
				 *  elsewhere}: BOLT's traces */
	EV_AGG_NR,
};

/* The little-endian u64 at @p (a field of a record). */
static inline uint64_t ev_u64le(const uint8_t *p)
{
	return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 |
	       (uint64_t)p[3] << 24 | (uint64_t)p[4] << 32 |
	       (uint64_t)p[5] << 40 | (uint64_t)p[6] << 48 |
	       (uint64_t)p[7] << 56;
}

#define EV_PROFILE_NR_STATS 19

/*
 * A profile's statistics, in this order: samples, samples with a branch
 * stack, branch records, candidate blocks, blocks counted, the blocks
 * skipped for each of the 12 reasons (resolve/resolver.h's order), sample
 * IPs in the kernel, samples counted by annotate.
 */
struct ev_profile {
	const uint64_t *stats;		/* EV_PROFILE_NR_STATS */
	const char *event;		/* "" when unknown */
	bool mixed_events;		/* samples of several events */
	bool exact;			/* every taken branch of a recording
					 * counted (record --exact) */
	struct ev_pos pos;
};

/* One DSO of a profile, identified by build-id (else path) and kind. */
struct ev_profile_dso {
	const char *path;
	const uint8_t *build_id;
	uint8_t build_id_size;		/* 0: none */
	bool kernel;
	bool has_blocks;		/* block data (blocks, IPs, edges) */
	bool has_prof;			/* llvm-profgen's (ranges, branches) */
	bool has_bolt;			/* BOLT's (branches, traces) */
	uint64_t text_base;		/* llvm-profgen's base of the DSO */
	uint64_t samples;		/* sample IPs in it */
	uint64_t prof_samples;		/* samples that touched its code */
	uint64_t nr[EV_AGG_NR];		/* records of each kind */
	const uint8_t *rec[EV_AGG_NR];	/* and where they are */
	struct ev_pos pos;		/* offset: of the DSO's entry */
};

struct pd_decoder;

struct ev_sink {
	int (*sample)(void *arg, const struct ev_sample *s, char *err,
		      size_t errsz);
	int (*mmap)(void *arg, const struct ev_mmap *m, char *err,
		    size_t errsz);
	int (*comm)(void *arg, const struct ev_comm *c, char *err,
		    size_t errsz);
	int (*task)(void *arg, const struct ev_task *t, char *err,
		    size_t errsz);
	int (*build_id)(void *arg, const struct ev_build_id *b, char *err,
			size_t errsz);
	int (*lost)(void *arg, const struct ev_lost *l, char *err,
		    size_t errsz);
	void *arg;
	int (*attr)(void *arg, const struct ev_attr *a, char *err,
		    size_t errsz);
	/*
	 * perf.data readers only, for decoding on other threads (par.h).
	 * @sample_raw, when set, gets the samples whose event has no
	 * PERF_SAMPLE_READ instead of @sample, as the record's @size bytes at
	 * @rec (valid during the call; checked already: pd_decode_sample()
	 * with @dec decodes them) and @off, the ev_pos.offset of the sample.
	 * @sync, when set, is called before the reader changes @dec (a new
	 * event or event name) once a raw sample was passed.
	 * @keep_raw, set by the sink (with @sync): a perf.data file that the
	 * reader maps passes the samples that lie in its mapping with @kept
	 * true.  Those @rec stay valid until the reader calls @sync at the
	 * end, before it unmaps the file; the pages the reader drops behind
	 * it in a large file are none of theirs: the sink drops those it is
	 * done with (base/pages.h).  Other samples (compressed, pipe mode)
	 * come with @kept false, valid during the call only.
	 */
	int (*sample_raw)(void *arg, const struct pd_decoder *dec,
			  const uint8_t *rec, size_t size, uint64_t off,
			  bool kept, char *err, size_t errsz);
	int (*sync)(void *arg, char *err, size_t errsz);
	bool keep_raw;
	/*
	 * A .brprof (see above).  A sink without @profile_dso takes no
	 * profile: input_read() refuses one with a message.
	 */
	int (*profile)(void *arg, const struct ev_profile *p, char *err,
		       size_t errsz);
	int (*profile_dso)(void *arg, const struct ev_profile_dso *d,
			   char *err, size_t errsz);
};

#endif /* BLOCKRANGE_CLI_EVENTS_H */
